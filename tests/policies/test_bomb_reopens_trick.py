"""A bomb re-opens the trick (RULES §12.13): a house rule given as a setting and a policy.

`bomb_reopens_trick=True` lets the players who passed answer a bomb played onto a play.
It lives in `TurnPolicy.after_play`, which reads the play's ``bomb`` fact from its event
(`tienlen.policies.AfterPlay`); the engine only hands the fact over.
"""

from __future__ import annotations

import hashlib
import json
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import assert_legal_actions_exact
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    Card,
    GameState,
    Hand,
    Play,
    Rank,
    notation,
)
from tienlen.cards import DECK
from tienlen.engine.rulebook import context_of
from tienlen.policies import AfterPlay, Seating, TurnPolicy
from tienlen.records import dumps, loads, record, rules_to_json

REOPEN = attrs.evolve(CLASSIC, name="reopen", bomb_reopens_trick=True)
PRESETS = (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER, CLASSIC_TWO_DECKS)
HANDS = ["2h 3d", "As Ac Ad Ah 5c", "9s 9c 9d 9h 6c", "7d 8d"]
"""Player 0 plays a 2 on 3's 7d, 1 passes though holding a higher four of a kind, 2
chops the 2 with nines."""


def _after_chop(rules: BaseRules) -> GameState:
    """`HANDS` after 7d, 2h, a pass (1) and the nines (2), under *rules*."""
    state = GameState.from_hands(HANDS, rules, first_game=False, leader=3)
    return state.play("7d").play("2h").pass_turn().play("9s 9c 9d 9h")


def test_the_policy_unlocks_after_a_bomb_on_a_play() -> None:
    """After a bomb onto a play, every player with cards may act again, in play order."""
    policy, seating = TurnPolicy(bomb_reopens_trick=True), Seating.of(1, 4)
    bomb = AfterPlay(player=2, locked=0b1011, out=0, previous=0, bomb=True)
    assert policy.after_play(seating, bomb) == (3, 0)
    plain = attrs.evolve(bomb, bomb=False)
    assert policy.after_play(seating, plain) == (None, 0b1011)  # all passed: trick over
    assert TurnPolicy().after_play(seating, bomb) == (None, 0b1011)  # off by default


def test_a_bomb_that_leads_opens_nothing() -> None:
    """A led bomb beat nothing: a player who declined the first lead stays out (D-6)."""
    policy, seating = TurnPolicy(bomb_reopens_trick=True), Seating.of(1, 4)
    lead = AfterPlay(player=1, locked=0b0001, out=0, previous=None, bomb=True)
    assert policy.after_play(seating, lead) == (2, 0b0001)


def test_out_players_stay_out() -> None:
    """Re-opening unlocks the players who passed, never the ones out of the game."""
    policy, seating = TurnPolicy(bomb_reopens_trick=True), Seating.of(1, 4)
    bomb = AfterPlay(player=2, locked=0b0001, out=0b1000, previous=1, bomb=True)
    assert policy.after_play(seating, bomb) == (0, 0)


def test_the_policy_reads_the_bomb_fact_only_when_set() -> None:
    """Only a table with the rule asks the engine for the play's facts (presets never)."""
    assert TurnPolicy(bomb_reopens_trick=True).reads == frozenset({"bomb"})
    for preset in PRESETS:
        assert not preset.bomb_reopens_trick
        assert preset.turn_policy.reads == frozenset()
        assert context_of(preset, preset.min_players).reads == frozenset()
    assert context_of(REOPEN, 4).reads == frozenset({"bomb"})


def test_a_player_who_passed_answers_the_bomb() -> None:
    """RULES §12.13: player 1 passed on the 2, and may beat the chop with aces."""
    state = _after_chop(REOPEN)
    assert (state.to_act, state.locked) == (3, 0)
    state = state.pass_turn().pass_turn()
    assert state.to_act == 1
    assert [str(action) for action in state.legal_actions()] == ["As Ac Ad Ah", "pass"]
    state = state.play("As Ac Ad Ah")  # a higher bomb re-opens the trick again
    assert (state.to_act, state.locked) == (2, 0)
    state = state.pass_turn().pass_turn().pass_turn()
    assert state.top is None
    assert state.to_act == 1  # the trick ends as always: the last player leads


def test_a_continuation_bomb_onto_ones_own_play_reopens() -> None:
    """D-24: a Justus Pang continuer's bomb onto their own play re-opens the trick.

    Both others passed the fives (locked out, RULES §1.5.3); the continuation with
    nines (D-7) is a bomb onto a play, so both may answer it. Without the setting they
    stay locked out and the continuer is offered the turn again.
    """
    hands = ["5s 5c 5d 5h 9s 9c 9d 9h 3c", "6s 7s", "Ts Jd"]
    for reopens, after in ((True, (1, 0)), (False, (0, 0b110))):
        rules = attrs.evolve(JUSTUS_PANG, name="jp", bomb_reopens_trick=reopens)
        state = GameState.from_hands(hands, rules, first_game=False, leader=0)
        state = state.play("5s 5c 5d 5h").pass_turn().pass_turn()
        assert (state.to_act, state.locked) == (0, 0b110)  # continue or close
        state = state.play("9s 9c 9d 9h")
        assert (state.to_act, state.locked) == after


def test_without_the_rule_the_trick_ends() -> None:
    """Classic (RULES §1.5.3): a player who passed stays out, bombs included."""
    state = _after_chop(CLASSIC)
    assert (state.to_act, state.locked) == (3, 0b0010)
    state = state.pass_turn().pass_turn()
    assert state.top is None
    assert state.to_act == 2


def test_a_pass_after_the_bomb_locks_out_again() -> None:
    """A player who passes on the bomb is locked out until another bomb."""
    state = _after_chop(REOPEN).pass_turn()  # 3 passes on the bomb
    assert state.locked == 0b1000
    state = state.pass_turn().pass_turn()  # 0 and 1 pass: the trick is over
    assert state.top is None
    assert state.to_act == 2


def test_it_changes_nothing_without_lock_outs() -> None:
    """With `pass_locks_out=False` (§12.8) nobody is locked: the same games."""
    both = attrs.evolve(REOPEN, name="open", pass_locks_out=False)
    rejoin = attrs.evolve(CLASSIC, name="rejoin", pass_locks_out=False)
    for seed in range(5):
        one, other = (
            GameState.deal(both, 4, seed=seed),
            GameState.deal(rejoin, 4, seed=seed),
        )
        rng = random.Random(seed)
        while not one.is_over:
            assert (one.to_act, one.locked) == (other.to_act, other.locked)
            action = rng.choice(one.legal_actions())
            one, other = one.apply(action), other.apply(action)
        assert one.result is not None
        assert other.result is not None
        assert one.result.scores == other.result.scores


PRESET_DIGESTS = {
    "classic": "ac6b66dac0850bf22cdada28625d89e0159cc346ce8ce1796798be7911c63e63",
    "justus-pang": "cb9404f3bf7e0126c8d0b8089e679113f3e79ed63d5c5da0349d46b8a7c3b5a3",
    "kenneth-lo": "2702d0e3ed57de06a62cdbe0798bdf46bbca3075ad508f910d2de12842c2bd7c",
    "vietcong": "9e312279a874dfc022bcdfb03c81f8e4c0838ca0c2dd39b0696b904fe3988084",
    "poker": "e3a8c5498bb71042675760406977e6e885d49972578f5bd58442e9dff7a56f44",
    "classic-two-decks": "714f15f7cb32885e84b5d388315cf4c197adfbfa3974c97d78fbf3ca50555163",
}
"""The digest of each preset's `rules_to_json`, as main wrote it before the setting."""


@pytest.mark.parametrize("preset", PRESETS, ids=lambda rules: rules.name)
def test_the_presets_write_the_json_they_wrote(preset: BaseRules) -> None:
    """A setting left off is not written: every preset's JSON is byte for byte as before."""
    text = json.dumps(rules_to_json(preset), sort_keys=True).encode()
    assert hashlib.sha256(text).hexdigest() == PRESET_DIGESTS[preset.name]
    written = rules_to_json(REOPEN)["settings"]
    assert isinstance(written, dict)
    assert written["bomb_reopens_trick"] is True


def test_a_wrong_type_is_refused() -> None:
    """The setting is True or False, nothing else (RULES §11)."""
    with pytest.raises(TypeError, match="bomb_reopens_trick"):
        attrs.evolve(CLASSIC, bomb_reopens_trick=1)  # type: ignore[arg-type]


def _bomb_first(state: GameState, rng: random.Random) -> Play | None:
    """A bomb of the legal actions, if any, to make re-opened tricks common."""
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    rules = state.rules
    bombs = [
        play
        for play in plays
        if (combo := rules.classify(play.cards)) is not None
        and rules.is_bomb(combo.shape)
    ]
    return rng.choice(bombs) if bombs else None


def _short_hands(rng: random.Random, players: int) -> list[Hand]:
    """Short hands, often a four of a kind or three pairs in a row, and 2s to chop.

    Short, so that `assert_legal_actions_exact` can try every set of cards.
    """
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[Card]] = []
    for _ in range(players):
        cards: list[Card] = []
        draw = rng.random()
        if draw < 0.4:
            rank = rng.choice(list(Rank)[:-1])
            cards = [card for card in deck if card.rank is rank]
        elif draw < 0.6:
            low = rng.randrange(Rank.TWO.value - 3)
            ranks = [Rank(low + i) for i in range(3)]
            cards = [c for r in ranks for c in [c for c in deck if c.rank is r][:2]]
        if len(cards) not in (4, 6):
            cards = []
        cards += [card for card in deck if card.rank is Rank.TWO and card not in cards][
            :1
        ]
        cards += [card for card in deck if card not in cards][: max(0, 6 - len(cards))]
        for card in cards:
            deck.remove(card)
        hands.append(cards)
    return [Hand.from_cards(cards) for cards in hands]


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(
    preset=st.sampled_from((CLASSIC, JUSTUS_PANG, POKER, VIETCONG)),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
)
def test_legal_actions_are_is_legal_under_it(
    preset: BaseRules, seed: int, players: int
) -> None:
    """Under the rule the legal list is exactly what `is_legal` accepts (§12.13).

    Bombs are played whenever held, at every step the legal list is checked against
    every set of cards, and a bomb on a play unlocks everyone.
    """
    rules = attrs.evolve(preset, name=f"{preset.name}-reopen", bomb_reopens_trick=True)
    rng = random.Random(seed)
    leader = None if rules.lead_must_include(first_game=False) else 0
    state = GameState.from_hands(
        _short_hands(rng, players), rules, first_game=False, leader=leader
    )
    while not state.is_over:
        actions = assert_legal_actions_exact(state)
        bomb = _bomb_first(state, rng) if rng.random() < 0.7 else None
        action = bomb if bomb is not None else rng.choice(actions)
        after = state.apply(action)
        if bomb is not None and state.top is not None and after.top is not None:
            assert after.locked == 0
        state = after
    assert state.result is not None


def test_records_and_notation_keep_the_setting() -> None:
    """A game under the rule saves and replays equal, by record and by notation."""
    state = _after_chop(REOPEN)
    assert notation.read(notation.write(state)) == state
    rng = random.Random(2)
    game = GameState.deal(REOPEN, 4, rng)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    text = dumps(record(game))
    loaded = loads(text)
    assert loaded.rules == REOPEN
    assert loaded.final == game
    assert dumps(loaded) == text
