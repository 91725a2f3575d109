"""`legal_actions()` is exactly what `is_legal` accepts, under every rule set (STYLE R53).

Issue 20 finding 3: with `no_going_out_with_two` or `no_going_out_with_bomb` (RULES
§12.12), the legal list dropped every single of a player whose whole hand was a play
the table forbids to go out with, although `is_legal` accepted those singles: bots and
RL agents, who choose from the list, were forced to pass. Here the list is compared
with `is_legal` over candidates generated without the engine's move generator, for
every preset and for house-rule tables with each setting of RULES §12 on, alone and
combined, and the `Actions` sequence is checked to agree with itself (``len``,
indexing, slicing, iteration, membership).
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import PRESETS, all_candidate_actions, refuse
from tests.golden.generate import HOUSE_RULES, house_table
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    Action,
    BaseRules,
    Bomb,
    ComboKind,
    GameState,
    Hand,
    IllegalReason,
    Pass,
    Play,
    Rank,
    Shape,
)
from tienlen.cards import DECK
from tienlen.policies import LeaderAfterGoingOut

_TRIPLES = Shape.of(ComboKind.CONSECUTIVE_TRIPLES, 3)
_FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)


HOUSE_TABLES: tuple[BaseRules, ...] = (
    # each §12 setting alone
    house_table(CLASSIC, "pair-runs-never-lead", bombs_may_lead=False),  # §12.1
    house_table(CLASSIC, "fours-never-lead", four_of_a_kind_may_lead=False),  # §12.1
    house_table(CLASSIC, "suited", suited_straights=True),  # §12.2
    house_table(CLASSIC, "k1", pair_runs_beat_twos=1),  # §12.3
    house_table(CLASSIC, "k2", pair_runs_beat_twos=2),  # §12.3
    house_table(  # §12.4
        CLASSIC,
        "triples",
        kinds=CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
        min_consecutive_triples=2,
        bombs=CLASSIC.bombs
        | {Bomb(bomb=_TRIPLES, target=Shape.of(ComboKind.PAIR), target_rank=Rank.TWO)},
    ),
    house_table(  # §12.6
        POKER, "long-runs", max_consecutive_pairs=6, longer_pair_runs_beat_shorter=True
    ),
    house_table(POKER, "no-chain", chop_chain=False, frozen_multiplier=2),  # §12.7
    house_table(CLASSIC, "no-lock", pass_locks_out=False),  # §12.8
    house_table(POKER, "poker-no-lock", pass_locks_out=False),  # §12.8 with jump-ins
    house_table(  # §12.9
        CLASSIC,
        "four-on-any",
        bombs=CLASSIC.bombs
        | {
            Bomb(bomb=_FOUR, target=Shape.of(kind))
            for kind in (ComboKind.SINGLE, ComboKind.PAIR)
        },
    ),
    *(  # §12.10
        house_table(CLASSIC, f"leader-{reading.value}", leader_after_going_out=reading)
        for reading in LeaderAfterGoingOut
    ),
    house_table(  # §12.11
        POKER,
        "d21-d22-d23",
        six_pairs_counts_sets=False,
        end_penalty_with_frozen=False,
        catch_with_last_cards_scores=False,
    ),
    *(  # §12.12, on every preset and on two decks
        house_table(preset, f"{preset.name}-{name}-only", **{setting: True})
        for preset in (*PRESETS, CLASSIC_TWO_DECKS)
        for name, setting in (
            ("no-two-out", "no_going_out_with_two"),
            ("no-bomb-out", "no_going_out_with_bomb"),
        )
    ),
    # combinations
    house_table(
        CLASSIC,
        "classic-all",
        bombs_may_lead=False,
        suited_straights=True,
        pass_locks_out=False,
        no_going_out_with_two=True,
        no_going_out_with_bomb=True,
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
    ),
    house_table(
        POKER,
        "poker-all",
        four_of_a_kind_may_lead=False,
        suited_straights=True,
        max_consecutive_pairs=6,
        longer_pair_runs_beat_shorter=True,
        pass_locks_out=False,
        no_going_out_with_two=True,
        no_going_out_with_bomb=True,
        chop_chain=False,
        leader_after_going_out=LeaderAfterGoingOut.AFTER_LAST_TO_ACT,
    ),
    house_table(
        JUSTUS_PANG,
        "justus-pang-all",
        pass_locks_out=False,
        no_going_out_with_two=True,
        pair_runs_beat_twos=1,
    ),
    house_table(
        VIETCONG,
        "vietcong-all",
        bombs_may_lead=False,
        four_of_a_kind_may_lead=False,
        no_going_out_with_bomb=True,
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
    ),
    house_table(
        KENNETH_LO,
        "kenneth-lo-all",
        suited_straights=True,
        no_going_out_with_two=True,
        pass_locks_out=False,
    ),
    house_table(
        CLASSIC_TWO_DECKS,
        "two-decks-all",
        pass_locks_out=False,
        no_going_out_with_two=True,
        no_going_out_with_bomb=True,
        suited_straights=True,
    ),
    *HOUSE_RULES,  # the golden corpus's house tables
)
"""House-rule tables (RULES §12): each setting alone, then several combined."""

RULE_SETS: tuple[BaseRules, ...] = (*PRESETS, CLASSIC_TWO_DECKS, *HOUSE_TABLES)


def _ids(rule_sets: tuple[BaseRules, ...]) -> list[str]:
    return [rules.name for rules in rule_sets]


def _start(
    rules: BaseRules, hands: list[Hand], rng: random.Random, *, first_game: bool
) -> GameState:
    """A game of *rules* from *hands*; a later game is led by a random seat."""
    must_include = rules.lead_must_include(
        first_game=first_game, after_instant_win=False
    )
    leader = None if must_include else rng.randrange(len(hands))
    return GameState.from_hands(hands, rules, first_game=first_game, leader=leader)


def _played(state: GameState, rng: random.Random, steps: int) -> GameState:
    """*state* after up to *steps* random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state


def short_hand_position(rules: BaseRules, rng: random.Random) -> GameState:
    """A position of *rules* with at most six cards a hand, often a set of 2s or a bomb.

    Short hands let every sub-multiset of every hand be a candidate action; sets of
    high cards and bombs make the §12.12 limits on going out bite.
    """
    players = rng.choice((5, 6) if rules.decks == 2 else (2, 3, 4))
    deck = [card for card in DECK for _ in range(rules.decks)]
    rng.shuffle(deck)
    hands: list[Hand] = []
    for _ in range(players):
        rank = rng.choice((Rank.KING, Rank.ACE, Rank.TWO, Rank(rng.randrange(13))))
        left = [card for card in deck if card.rank is rank]
        if rng.random() < 0.5 and len(left) >= 2:
            cards = left[: rng.randint(2, min(4, len(left)))]
        else:
            cards = deck[: rng.randint(1, 6)]
        for card in cards:
            deck.remove(card)
        hands.append(Hand.from_cards(cards))
    state = _start(rules, hands, rng, first_game=rng.random() < 0.3)
    return _played(state, rng, rng.randrange(12))


def dealt_position(rules: BaseRules, rng: random.Random) -> GameState:
    """A position of a fully dealt game of *rules*, after some random legal actions."""
    players = rng.choice((5, 6) if rules.decks == 2 else (2, 3, 4))
    first_game = rng.random() < 0.5
    must_include = rules.lead_must_include(
        first_game=first_game, after_instant_win=False
    )
    leader = None if must_include else rng.randrange(players)
    state = GameState.deal(rules, players, rng, first_game=first_game, leader=leader)
    return _played(state, rng, rng.randrange(60))


def assert_actions_consistent(state: GameState) -> list[Action]:
    """The `Actions` of *state* agree with themselves: ``len``, indices, slices, ``in``."""
    actions = state.legal_actions()
    listed = list(actions)
    assert len(actions) == len(listed)
    assert len(set(listed)) == len(listed)
    assert [actions[i] for i in range(len(actions))] == listed
    assert [actions[i - len(actions)] for i in range(len(actions))] == listed
    assert list(actions[:]) == listed
    assert list(actions[1::2]) == listed[1::2]
    for index in (len(actions), -len(actions) - 1):
        with pytest.raises(IndexError):
            actions[index]
    for action in listed:
        assert action in actions
        untrusted = (
            Play(player=action.player, cards=action.cards)
            if isinstance(action, Play)
            else Pass(player=action.player)
        )
        assert untrusted in actions  # checked in full, not by the trust token
        assert state.is_legal(untrusted)
    return listed


def assert_exact(state: GameState, candidates: list[Action]) -> None:
    """The legal list is exactly the *candidates* `is_legal` accepts, and no other."""
    listed = assert_actions_consistent(state)
    accepted = {action for action in candidates if state.is_legal(action)}
    assert set(listed) == accepted, (
        state.notation(),
        set(listed) - accepted,
        accepted - set(listed),
    )
    actions = state.legal_actions()
    for action in candidates:
        assert (action in actions) == (action in accepted)


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids(RULE_SETS))
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_every_accepted_subset(rules: BaseRules, seed: int) -> None:
    """In short-hand positions, the list is every sub-multiset of any hand `is_legal` takes.

    The candidates are every sub-multiset of every hand and every player's pass, so
    nothing of the engine's move generation decides what is tried.
    """
    state = short_hand_position(rules, random.Random(seed))
    assert_exact(state, all_candidate_actions(state))


def _rule_candidates(state: GameState) -> list[Action]:
    """Every player's plays by the rule set's own `legal_plays`, onto the top and as leads."""
    candidates: list[Action] = []
    for player, hand in enumerate(state.hands):
        if not hand:
            continue
        for top in {state.top, None}:
            candidates += [
                Play(player=player, cards=play.cards)
                for play in state.rules.legal_plays(hand, top)
            ]
        candidates.append(Pass(player=player))
    return candidates


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids(RULE_SETS))
@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_actions_in_dealt_games(rules: BaseRules, seed: int) -> None:
    """In dealt games, the list is what `is_legal` accepts of the rules' own plays.

    Thirteen-card hands have too many subsets to try: the candidates are the rule
    set's `legal_plays` of every hand (onto the top, and as leads), which lists every
    combination a hand may play, whatever the game engine's state says.
    """
    state = dealt_position(rules, random.Random(seed))
    candidates = _rule_candidates(state)
    assert_exact(state, candidates)
    assert set(state.legal_actions()) <= set(candidates)


# -- the reported cases (issue 20 finding 3) ------------------------------------------


@pytest.mark.parametrize("setting", ["no_going_out_with_two", "no_going_out_with_bomb"])
def test_a_single_that_keeps_cards_is_listed(setting: str) -> None:
    """Facing 5♣, a hand of 2♠ 2♦ may play either 2 alone; only the pair is refused.

    The pair of 2s holds a 2, and under classic a pair of 2s is no bomb: with
    `no_going_out_with_bomb` the pair itself may go out (it does not beat 5♣ anyway).
    """
    rules = attrs.evolve(CLASSIC, name="house", **{setting: True})  # type: ignore[arg-type]
    state = GameState.from_hands(
        ["5c 9d", "2s 2d", "6c 7c"], rules, first_game=False, leader=0
    ).play("5c")
    listed = [str(action) for action in state.legal_actions()]
    assert listed == ["2s", "2d", "pass"]
    assert state.is_legal(Play(player=1, cards="2s"))
    assert_exact(state, all_candidate_actions(state))


def test_going_out_with_a_bomb_is_refused_but_its_cards_are_not() -> None:
    """Facing 2♥ with four 9s only, the bomb may not go out, so only a pass is left.

    Facing 5♣ with the same hand, every single 9 is listed, the four of a kind is not.
    """
    rules = attrs.evolve(CLASSIC, name="no-bomb-out", no_going_out_with_bomb=True)
    on_two = GameState.from_hands(
        ["2h 3d", "9s 9c 9d 9h", "4c 5d"], rules, first_game=False, leader=0
    ).play("2h")
    assert [str(action) for action in on_two.legal_actions()] == ["pass"]
    refuse(on_two, Play(player=1, cards="9s 9c 9d 9h"), IllegalReason.CANNOT_GO_OUT)
    on_five = GameState.from_hands(
        ["5c 3d", "9s 9c 9d 9h", "4c 6d"], rules, first_game=False, leader=0
    ).play("5c")
    assert [str(action) for action in on_five.legal_actions()] == [
        "9s",
        "9c",
        "9d",
        "9h",
        "pass",
    ]
    assert_exact(on_five, all_candidate_actions(on_five))


def test_two_decks_a_doubled_two_keeps_its_single() -> None:
    """Two decks: a hand of 2♥ 2♥ may not go out as a pair, but may play one 2♥."""
    rules = attrs.evolve(CLASSIC_TWO_DECKS, name="no-2-out", no_going_out_with_two=True)
    state = GameState.from_hands(
        ["5c 3d", "2h 2h", "4c 6d", "7s 8s", "9s Ts"],
        rules,
        first_game=False,
        leader=0,
    ).play("5c")
    assert [str(action) for action in state.legal_actions()] == ["2h", "pass"]
    assert_exact(state, all_candidate_actions(state))


def test_a_last_single_two_is_refused() -> None:
    """A single 2 that would empty the hand is neither listed nor accepted (§12.12)."""
    rules = attrs.evolve(CLASSIC, name="no-2-out", no_going_out_with_two=True)
    state = GameState.from_hands(
        ["5c 3d", "2s", "6c 7c"], rules, first_game=False, leader=0
    ).play("5c")
    assert [str(action) for action in state.legal_actions()] == ["pass"]
    refuse(state, Play(player=1, cards="2s"), IllegalReason.CANNOT_GO_OUT)
