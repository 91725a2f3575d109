"""Dealing and starting a game: sizes, seeds, the first lead, instant wins (RULES §2–§6).

Covers `GameState.deal` and `GameState.from_hands`: RULES §2.1 and §4.1 (cards per
player, decks), §2.4, §5.3, §6.5 and D-4, D-8, D-16 (who leads and what the lead must
include), and §5.4, §6.7, D-14, D-21 (hands that win at the deal).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.game.helpers import (
    PRESETS,
    deal_configs,
    hand_sum,
    refuse,
    spec_first_lead,
    spec_instant_win,
    spec_play_order,
)
from tests.strategies import hands
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    Card,
    Direction,
    GameState,
    Hand,
    IllegalReason,
    InstantWin,
    InvalidRulesError,
    InvalidStateError,
    Pass,
    Play,
    ScoreKind,
    legal_plays,
)
from tienlen.engine.shuffle import shuffle

THREE_SPADES = Card.parse("3s")
CONFIGS = [
    pytest.param(rules, n, id=f"{rules.name}-{n}p") for rules, n in deal_configs()
]
ONE_DECK_FULL = [  # every card of one deck is dealt, so 3♠ is always in a hand
    pytest.param(rules, 4, id=rules.name) for rules in PRESETS
]


def _expected_sizes(rules: BaseRules, players: int) -> list[int]:
    """Cards per player from RULES §2.1 and §4.1, smallest first."""
    if rules is KENNETH_LO and players == 3:
        return [17, 17, 18]
    return [13] * players


def _won_at_deal(state: GameState, rules: BaseRules) -> bool:
    """Whether the deal ended at once; if so, a hand really qualified (RULES §5.4, §6.7)."""
    if not state.is_over:
        return False
    assert any(spec_instant_win(rules, hand) for hand in state.hands)
    return True


# -- seeds ---------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_same_int_seed_same_deal(rules: BaseRules, players: int) -> None:
    """RULES §2.1: the same int seed deals the same hands and the same leader."""
    first = GameState.deal(rules, players, seed=2024)
    second = GameState.deal(rules, players, seed=2024)
    assert first.hands == second.hands
    assert first.to_act == second.to_act
    assert first.must_include == second.must_include
    assert first == second
    assert hash(first) == hash(second)


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_same_random_instance_seed_same_deal(rules: BaseRules, players: int) -> None:
    """RULES §2.1: two `random.Random` seeded alike deal the same hands and leader."""
    first = GameState.deal(rules, players, seed=random.Random(99))
    second = GameState.deal(rules, players, seed=random.Random(99))
    assert first.hands == second.hands
    assert first.to_act == second.to_act
    assert first == second


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_different_seeds_deal_differently(rules: BaseRules) -> None:
    """RULES §2.1: the deal is shuffled: different seeds give different hands."""
    deals = {GameState.deal(rules, 4, seed=seed).hands for seed in range(5)}
    assert len(deals) == 5


def test_random_instance_is_consumed() -> None:
    """STYLE R33, RULES §2.1: an injected `random.Random` reused for two deals shuffles twice."""
    rng = random.Random(5)
    first = GameState.deal(CLASSIC, 4, seed=rng)
    second = GameState.deal(CLASSIC, 4, seed=rng)
    assert first.hands != second.hands


@given(seed=st.integers(0, 2**64), size=st.integers(0, 120))
def test_the_shuffle_is_randoms_own(seed: int, size: int) -> None:
    """The engine's shuffle leaves a list and its generator as ``Random.shuffle`` does."""
    ours, theirs = random.Random(seed), random.Random(seed)
    items, expected = list(range(size)), list(range(size))
    shuffle(ours, items)
    theirs.shuffle(expected)
    assert items == expected
    assert ours.getstate() == theirs.getstate()


def test_a_random_subclass_shuffles_its_own_way() -> None:
    """A generator of another class is asked to shuffle (it may draw differently)."""

    class Reversing(random.Random):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]  # narrower
            x.reverse()

    items = list(range(5))
    shuffle(Reversing(1), items)
    assert items == [4, 3, 2, 1, 0]


def test_a_seeded_deal_is_the_deal_random_shuffle_gives() -> None:
    """RULES §2.1: seed 7's classic deal is ``Random(7)``'s shuffle, cut in thirteens.

    So the golden games, recorded before the engine shuffled itself, replay.
    """
    deck = list(range(52))
    rng = random.Random(7)
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    state = GameState.deal(CLASSIC, 4, seed=7)
    assert [sorted(hand.cards) for hand in state.hands] == [
        sorted(DECK[card] for card in deck[13 * seat : 13 * seat + 13])
        for seat in range(4)
    ]
    assert state.setup.dealer == dealer


# -- cards per player ------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_cards_per_player(rules: BaseRules, players: int) -> None:
    """RULES §2.1, §4.1: 13 each (two decks above four players); KL three players 17 + spare."""
    for seed in range(3):
        state = GameState.deal(rules, players, seed=seed)
        assert players == state.players
        assert _expected_sizes(rules, players) == sorted(len(h) for h in state.hands)
        assert state.hands == state.dealt
        everything = hand_sum(state.hands)  # raises on a third copy of a card
        if players <= 4:  # one deck: no card twice
            assert everything.mask >> 52 == 0
            assert len(everything) == sum(len(h) for h in state.hands)
        else:  # two decks: more than 52 cards dealt, so some card twice
            assert everything.mask >> 52


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        pytest.param(CLASSIC, 9, id="classic-9p"),
        pytest.param(CLASSIC, 1, id="classic-1p"),
        pytest.param(VIETCONG, 5, id="vietcong-5p"),
        pytest.param(POKER, 5, id="poker-5p"),
        pytest.param(POKER, 1, id="poker-1p"),
    ],
)
def test_table_size_outside_the_rules_is_refused(
    rules: BaseRules, players: int
) -> None:
    """RULES §2.1, §6.1, §10: a table size the variant does not allow cannot be dealt."""
    with pytest.raises(InvalidRulesError):
        GameState.deal(rules, players, seed=1)


def test_classic_three_players_get_thirteen_each() -> None:
    """RULES §2.1: classic three players get 13 each and 13 cards stay unused."""
    state = GameState.deal(CLASSIC, 3, seed=11)
    assert [len(h) for h in state.hands] == [13, 13, 13]
    assert len(hand_sum(state.hands)) == 39


def test_classic_two_decks_deal_thirteen_each_from_104() -> None:
    """RULES §2.1: five or more players share two decks, 13 cards each."""
    for players in range(5, 9):
        state = GameState.deal(CLASSIC_TWO_DECKS, players, seed=players)
        everything = hand_sum(state.hands)
        assert [13] * players == [len(h) for h in state.hands]
        assert everything <= hand_sum([Hand.from_cards(DECK), Hand.from_cards(DECK)])


# -- Kenneth Lo's spare card (RULES §4.1, D-8) ------------------------------------------


def test_kenneth_lo_three_players_spare_card_goes_to_starter() -> None:
    """RULES §4.1, D-8: all 52 cards; the starter holds 18 and leads any combination."""
    for seed in range(10):
        state = GameState.deal(KENNETH_LO, 3, seed=seed)
        starter = next(p for p, h in enumerate(state.hands) if len(h) == 18)
        assert Hand.from_cards(DECK) == hand_sum(state.hands)
        assert starter == state.to_act
        # the starter is the 3♠ holder of the 51 dealt cards, or gets 3♠ as the spare
        assert THREE_SPADES in state.hands[starter]
        assert state.must_include is None
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        assert any(THREE_SPADES not in a.cards for a in plays)
        assert all(a.player == starter for a in state.legal_actions())


def test_kenneth_lo_three_players_later_game_spare_to_previous_winner() -> None:
    """RULES §4.1, D-8: in a later game the previous winner starts and takes the spare."""
    for leader in range(3):
        state = GameState.deal(
            KENNETH_LO, 3, seed=leader, first_game=False, leader=leader
        )
        assert leader == state.to_act
        assert len(state.hands[leader]) == 18
        assert state.must_include is None


def test_kenneth_lo_three_players_later_game_needs_leader() -> None:
    """RULES §4.1, D-8: a later three-player game cannot start without the previous winner."""
    with pytest.raises(InvalidStateError):
        GameState.deal(KENNETH_LO, 3, seed=1, first_game=False)


def test_kenneth_lo_from_hands_eighteen_card_holder_starts_freely() -> None:
    """RULES §4.1: given 17/17/18 cards, the 18-card holder leads, with no 3♠ obligation."""
    deck = list(DECK)
    hands = [
        Hand.from_cards(deck[:17]),
        Hand.from_cards(deck[17:34]),
        Hand.from_cards(deck[34:]),
    ]
    state = GameState.from_hands(hands, KENNETH_LO)
    assert state.to_act == 2
    assert state.must_include is None
    state.check(Play(player=2, cards="2h"))
    with pytest.raises(InvalidStateError):
        GameState.from_hands(hands, KENNETH_LO, leader=0)


# -- the first lead (RULES §2.4, D-4) --------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), ONE_DECK_FULL)
def test_three_of_spades_holder_leads_and_must_include_it(
    rules: BaseRules, players: int
) -> None:
    """RULES §2.4, §5.3, §6.5: in the first game the 3♠ holder leads, with 3♠ in the lead."""
    for seed in range(8):
        state = GameState.deal(rules, players, seed=seed)
        if _won_at_deal(state, rules):
            continue
        holder = next(p for p, h in enumerate(state.hands) if THREE_SPADES in h)
        assert holder == state.to_act
        assert state.must_include == THREE_SPADES
        for action in state.legal_actions():
            assert holder == action.player
            if isinstance(action, Play):
                assert THREE_SPADES in action.cards
            else:  # only Justus Pang lets the holder decline (RULES §3.3)
                assert rules is JUSTUS_PANG


@pytest.mark.parametrize(
    ("rules", "players", "decks"),
    [(CLASSIC, 2, 1), (JUSTUS_PANG, 2, 1), (VIETCONG, 2, 1), (CLASSIC_TWO_DECKS, 5, 2)],
    ids=["classic", "justus-pang", "vietcong", "classic-two-decks"],
)
@given(data=st.data())
def test_first_lead_lists_every_lead_with_the_card(
    rules: BaseRules, players: int, decks: int, data: st.DataObject
) -> None:
    """RULES §2.4: the first lead's plays are the hand's leads that hold 3♠, in order."""
    hand = data.draw(hands(1, 18 if decks == 2 else 13, decks=decks)) | Hand.parse("3s")
    spare = [card for card in reversed(DECK) if card not in hand]
    others = [Hand.from_cards([card]) for card in spare[: players - 1]]
    state = GameState.from_hands([hand, *others], rules)
    assume(not state.is_over)  # four 2s win a Vietcong game at the deal (RULES §5.4)
    plays = [a.cards.mask for a in state.legal_actions() if isinstance(a, Play)]
    leads = legal_plays(hand, rules=rules)
    assert plays == [p.mask for p in leads if THREE_SPADES in p.cards]


@pytest.mark.parametrize(
    ("rules", "players"),
    [c for c in CONFIGS if c.values[0] is not KENNETH_LO or c.values[1] != 3],
)
def test_first_lead_follows_the_spec(rules: BaseRules, players: int) -> None:
    """RULES §2.4, D-4: 3♠ or else the lowest dealt card; two holders: first from the dealer."""
    for seed in range(12):
        dealer = seed % players
        state = GameState.deal(rules, players, seed=seed, dealer=dealer)
        if _won_at_deal(state, rules):
            continue
        card, holder = spec_first_lead(rules, state.hands, dealer)
        assert holder == state.to_act
        assert card == state.must_include


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_lowest_dealt_card_leads_when_three_of_spades_is_not_dealt(
    rules: BaseRules, players: int
) -> None:
    """D-4: if nobody holds 3♠, the holder of the lowest dealt card leads and must include it."""
    if rules is KENNETH_LO and players == 3:
        rules = CLASSIC  # KL's three players use all 52 cards (RULES §4.1)
    seen = 0
    for seed in range(40):
        state = GameState.deal(rules, players, seed=seed)
        if _won_at_deal(state, rules) or any(THREE_SPADES in h for h in state.hands):
            continue
        seen += 1
        lowest = min(card for hand in state.hands for card in hand)
        assert lowest == state.must_include
        assert state.to_act is not None
        assert lowest in state.hands[state.to_act]
        highest = max(state.hands[state.to_act])
        refuse(
            state,
            Play(player=state.to_act, cards=[highest]),
            IllegalReason.MUST_INCLUDE,
        )
    assert seen > 0


def test_lowest_dealt_card_from_hands() -> None:
    """D-4: with hands given and no 3♠, the 3♣ holder leads and must include 3♣."""
    state = GameState.from_hands(["4s 9d", "3c 5h 5d", "6c Kd"], CLASSIC)
    assert state.to_act == 1
    assert Card.parse("3c") == state.must_include
    refuse(state, Play(player=1, cards="5d 5h"), IllegalReason.MUST_INCLUDE)
    state.check(Play(player=1, cards="3c"))


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 3), (2, 3), (3, 1), (4, 1)])
def test_two_decks_two_three_of_spades_first_from_dealer(
    dealer: int, leader: int
) -> None:
    """RULES §2.4: two 3♠ holders with two decks: the first in play direction from the dealer leads."""
    hands = ["4s 9d", "3s 5h", "4c 4d", "3s Kd", "6c 7c"]
    state = GameState.from_hands(hands, CLASSIC_TWO_DECKS, dealer=dealer)
    assert leader == state.to_act
    assert state.must_include == THREE_SPADES


@pytest.mark.parametrize(("dealer", "leader"), [(0, 3), (1, 3), (2, 1), (3, 1), (4, 3)])
def test_two_decks_counterclockwise_first_from_dealer(dealer: int, leader: int) -> None:
    """RULES §2.1, §2.4: anticlockwise by agreement, the first holder counterclockwise from the dealer leads."""
    rules = attrs.evolve(
        CLASSIC_TWO_DECKS, name="anticlockwise", direction=Direction.COUNTERCLOCKWISE
    )
    hands = ["4s 9d", "3s 5h", "4c 4d", "3s Kd", "6c 7c"]
    state = GameState.from_hands(hands, rules, dealer=dealer)
    assert leader == state.to_act
    assert (THREE_SPADES, leader) == spec_first_lead(
        rules, [Hand.parse(h) for h in hands], dealer
    )


def test_two_decks_both_three_of_spades_in_one_hand() -> None:
    """RULES §2.4: a player holding both 3♠ leads whoever deals."""
    for dealer in range(5):
        state = GameState.from_hands(
            ["4s", "5s", "3s 3s 9h", "6s", "7s"], CLASSIC_TWO_DECKS, dealer=dealer
        )
        assert state.to_act == 2


# -- later games (RULES §2.4, §5.3, §6.5) -----------------------------------------------


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO, POKER], ids=lambda r: r.name
)
def test_later_game_needs_a_leader(rules: BaseRules) -> None:
    """RULES §2.4, §6.5: a later game is led by the previous winner, who must be named."""
    with pytest.raises(InvalidStateError):
        GameState.deal(rules, 4, seed=3, first_game=False)
    with pytest.raises(InvalidStateError):
        GameState.from_hands(["3s", "4s", "5s", "6s"], rules, first_game=False)


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO, POKER], ids=lambda r: r.name
)
def test_later_game_previous_winner_leads_anything(rules: BaseRules) -> None:
    """RULES §2.4, §6.5: in a later game the previous winner leads any combination."""
    for leader in range(4):
        state = GameState.deal(rules, 4, seed=leader, first_game=False, leader=leader)
        assert leader == state.to_act
        assert state.must_include is None
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        assert any(THREE_SPADES not in a.cards for a in plays)
        refuse(state, Pass(player=leader), IllegalReason.CANNOT_PASS)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_leader_out_of_range_is_refused(rules: BaseRules) -> None:
    """RULES §2.1: the leader must be one of the players 0 … n−1."""
    with pytest.raises(InvalidStateError):
        GameState.deal(rules, 4, seed=3, first_game=False, leader=4)
    with pytest.raises(InvalidStateError):
        GameState.from_hands(
            ["3s", "4s", "5s", "6s"], rules, first_game=False, leader=-1
        )


def test_vietcong_three_of_spades_leads_every_game() -> None:
    """RULES §5.3: in Vietcong the 3♠ holder leads every game and must include 3♠."""
    for seed in range(6):
        state = GameState.deal(VIETCONG, 4, seed=seed, first_game=False)
        if _won_at_deal(state, VIETCONG):
            continue
        holder = next(p for p, h in enumerate(state.hands) if THREE_SPADES in h)
        assert holder == state.to_act
        assert state.must_include == THREE_SPADES
        same = GameState.deal(VIETCONG, 4, seed=seed, first_game=False, leader=holder)
        assert state == same
        with pytest.raises(InvalidStateError):
            GameState.deal(
                VIETCONG, 4, seed=seed, first_game=False, leader=(holder + 1) % 4
            )


def test_poker_later_game_first_place_leads_anything() -> None:
    """RULES §6.5: a later Poker game is led freely by the previous first place."""
    state = GameState.from_hands(
        ["3s 9h", "4s 9c", "5s 9d", "6s 9s"], POKER, first_game=False, leader=2
    )
    assert state.to_act == 2
    assert state.must_include is None
    state.check(Play(player=2, cards="9d"))


def test_poker_after_instant_win_three_of_spades_leads() -> None:
    """RULES §6.5, D-16: after a game won instantly, the 3♠ holder leads with 3♠."""
    hands = ["4s 9h", "5s 9c", "3s 9d", "6s 9s"]
    state = GameState.from_hands(hands, POKER, first_game=False, after_instant_win=True)
    assert state.to_act == 2
    assert state.must_include == THREE_SPADES
    refuse(state, Play(player=2, cards="9d"), IllegalReason.MUST_INCLUDE)
    with pytest.raises(InvalidStateError):
        GameState.from_hands(
            hands, POKER, first_game=False, after_instant_win=True, leader=0
        )
    for seed in range(4):
        dealt = GameState.deal(
            POKER, 4, seed=seed, first_game=False, after_instant_win=True
        )
        if _won_at_deal(dealt, POKER):
            continue
        assert dealt.must_include == THREE_SPADES
        assert dealt.to_act is not None
        assert THREE_SPADES in dealt.hands[dealt.to_act]


# -- from_hands validation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "rules", "text"),
    [
        pytest.param(["3s 4s", "", "5s"], CLASSIC, "no cards", id="empty-hand"),
        pytest.param(["3s 4s", "4s 5s"], CLASSIC, "4s", id="card-in-two-hands"),
        pytest.param(["3s 3s", "4s"], CLASSIC, "3s", id="card-twice-in-one-hand"),
        pytest.param(["3s 4s", "4s 5s"], POKER, "4s", id="poker-card-in-two-hands"),
        pytest.param(
            ["3s 3s", "3s", "4s", "5s", "6s"],
            CLASSIC_TWO_DECKS,
            "3s",
            id="third-copy-two-decks",
        ),
    ],
)
def test_from_hands_refuses_impossible_deals(
    hands: list[str], rules: BaseRules, text: str
) -> None:
    """RULES §1.1, §2.1: no empty hand, and no card more often than the decks hold."""
    with pytest.raises(InvalidStateError, match=text):
        GameState.from_hands(hands, rules)


def test_from_hands_two_copies_allowed_with_two_decks() -> None:
    """RULES §1.1: with two decks a card may be dealt twice."""
    state = GameState.from_hands(
        ["3s 7h", "7h 9c", "4s", "5s", "6s"], CLASSIC_TWO_DECKS
    )
    assert state.to_act == 0


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_from_hands_refuses_a_wrong_first_leader(rules: BaseRules) -> None:
    """RULES §2.4: in the first game only the 3♠ holder may be named leader."""
    with pytest.raises(InvalidStateError):
        GameState.from_hands(["4s 9h", "3s 9c", "5s 9d"], rules, leader=0)
    state = GameState.from_hands(["4s 9h", "3s 9c", "5s 9d"], rules, leader=1)
    assert state.to_act == 1


# -- instant wins at the deal (RULES §5.4, §6.7) --------------------------------------------


def _assert_over_at_once(state: GameState, winner: int) -> None:
    """The game is over before any play, and every action is refused (RULES §5.4, §6.7)."""
    assert state.is_over
    assert state.to_act is None
    assert state.result is not None
    assert winner == state.result.winner
    assert sorted(state.result.finish_order) == list(range(state.players))
    assert len(state.legal_actions()) == 0
    assert list(state.legal_actions()) == []
    assert state.history == ()
    for player in range(state.players):
        refuse(state, Pass(player=player), IllegalReason.GAME_OVER)
        refuse(
            state,
            Play(player=player, cards=[state.hands[player].cards[0]]),
            IllegalReason.GAME_OVER,
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_vietcong_four_twos_win_at_once(players: int) -> None:
    """RULES §5.4, D-14: four 2s win at the deal; each other player pays the winner one stake."""
    hands = ["3s 4s", "5s 6s", "7s 8s", "9s Ts"][:players]
    winner = players - 1
    hands[winner] += " 2s 2c 2d 2h"
    state = GameState.from_hands(hands, VIETCONG)
    _assert_over_at_once(state, winner)
    assert state.result is not None
    assert state.result.instant_win == InstantWin.FOUR_TWOS
    expected = tuple(players - 1 if p == winner else -1 for p in range(players))
    assert expected == state.result.scores
    assert {(ScoreKind.STAKE, winner, p, 1) for p in range(players) if p != winner} == {
        (i.kind, i.player, i.payer, i.points) for i in state.result.items
    }


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO], ids=lambda r: r.name
)
def test_no_instant_win_outside_vietcong_and_poker(rules: BaseRules) -> None:
    """RULES §2.6: classic (and the variants built on it) have no instant wins."""
    state = GameState.from_hands(
        ["3s 4s", "5s 6s 2s 2c 2d 2h", "3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9h"], rules
    )
    assert not state.is_over
    assert state.to_act == 0


POKER_WINS = [
    pytest.param("3c 3d 5c 5d 7c 7d 9c 9d Jc Jd Kc Kd 2c", InstantWin.SIX_PAIRS, id="six-pairs"),
    pytest.param("4c 4d 4h 4s 6c 6d 6h 8c 8d Tc Td Qc Qd", InstantWin.SIX_PAIRS, id="six-pairs-quad-triple"),
    pytest.param("5c 5d 6c 6d 7c 7d 8c 8d 9c 9d Jc Qd Kh", InstantWin.FIVE_CONSECUTIVE_PAIRS, id="five-consecutive-pairs"),
    pytest.param("2s 2c 2d 2h 4c 5c 6d 7d 8h 9h Tc Qd Ah", InstantWin.FOUR_TWOS, id="four-twos"),
    pytest.param("3c 4d 5h 6c 7d 8h 9c Td Jh Qc Kd Ah 2c", InstantWin.THIRTEEN_RANKS, id="thirteen-ranks"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "win"), POKER_WINS)
def test_poker_instant_win_scores_twelve_to_the_winner_only(
    hand: str, win: InstantWin
) -> None:
    """RULES §6.7, D-21: an instant-win hand ends the game at once: +12 to its holder, 0 to the rest."""
    hands = ["3s", "5s", hand, "7s"]
    state = GameState.from_hands(hands, POKER)
    assert spec_instant_win(POKER, Hand.parse(hand))
    _assert_over_at_once(state, 2)
    assert state.result is not None
    assert win == state.result.instant_win
    assert state.result.scores == (0, 0, 12, 0)
    assert [(i.kind, i.player, i.payer, i.points) for i in state.result.items] == [
        (ScoreKind.INSTANT_WIN, 2, None, 12)
    ]


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param(
            "Jc Jd Qc Qd Kc Kd Ac Ad 2c 2d 3c 5c 7c", id="five-pairs-ending-in-2s"
        ),
        pytest.param("3c 3d 5c 5d 7c 7d 9c 9d Jc Jd 4c 6c 8c", id="five-pairs-apart"),
        pytest.param("3c 4d 5h 6c 7d 8h 9c Td Jh Qc Kd Ah Ac", id="twelve-ranks"),
        pytest.param("2c 2d 2h 4c 5c 6d 7d 8h 9h Tc Qd Ah Kh", id="three-twos"),
        pytest.param(
            "4c 4d 5c 5d 6c 6d 7c 7d 9h Jc Qd Kh Ah", id="four-consecutive-pairs"
        ),
    ],
)
def test_poker_near_instant_wins_play_on(hand: str) -> None:
    """RULES §6.7: only the four listed hands win at the deal (5 consecutive pairs without 2s)."""
    state = GameState.from_hands(["3s", "5s", hand, "7s"], POKER)
    assert not spec_instant_win(POKER, Hand.parse(hand))
    assert not state.is_over
    assert state.to_act == 0


TIE_HANDS = [
    "3s 4s 5d",
    "4c 4d 5c 5h 8s 8c 9s 9c Ts Tc Js Jc 3c",
    "3d 7h",
    "Jd Jh Qd Qh Kd Kh Ad Ah 2d 2h 6d 6h 7d",
]


def test_poker_instant_win_tie_first_in_play_order_from_the_leader() -> None:
    """D-21: two instant wins: the first counterclockwise from the 3♠ holder takes it."""
    state = GameState.from_hands(TIE_HANDS, POKER)  # 0 leads; order 0, 3, 2, 1
    _assert_over_at_once(state, 3)
    assert state.result is not None
    assert state.result.scores == (0, 0, 0, 12)


def test_poker_instant_win_tie_from_a_later_games_leader() -> None:
    """D-21: in a later game the order starts at the previous first place (here 2: 2, 1, 0, 3)."""
    state = GameState.from_hands(TIE_HANDS, POKER, first_game=False, leader=2)
    _assert_over_at_once(state, 1)
    assert state.result is not None
    assert state.result.scores == (0, 12, 0, 0)


def test_poker_instant_win_leader_first_in_order() -> None:
    """D-21: when the leader qualifies too, the leader takes the instant win."""
    hands = [TIE_HANDS[3], TIE_HANDS[1], "3s 3d", "7h"]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=1)
    _assert_over_at_once(state, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", [VIETCONG, POKER], ids=lambda r: r.name)
def test_dealt_instant_wins_match_the_spec(rules: BaseRules, players: int) -> None:
    """RULES §5.4, §6.7, D-21: a deal ends at once exactly when a hand qualifies; first in play order wins."""
    hits = 0
    for seed in range(600 if rules is POKER else 2500):
        state = GameState.deal(rules, players, seed=seed)
        _, leader = spec_first_lead(rules, state.hands, 0)
        order = spec_play_order(rules, leader, players)
        winners = [p for p in order if spec_instant_win(rules, state.hands[p])]
        if not winners:
            assert not state.is_over
            assert leader == state.to_act
            continue
        hits += 1
        assert state.result is not None
        assert winners[0] == state.result.winner
        assert state.result.instant_win is not None
        assert state.to_act is None
    assert hits > 0


def test_two_decks_deal_two_holders_first_from_dealer() -> None:
    """RULES §2.4: dealt two 3♠ in two hands, the holder first in play direction from the dealer leads."""
    found = 0
    for seed in range(60):
        plain = GameState.deal(CLASSIC_TWO_DECKS, 8, seed=seed, dealer=0)
        holders = [p for p, h in enumerate(plain.hands) if THREE_SPADES in h]
        if len(holders) != 2:
            continue
        found += 1
        for dealer in range(8):
            state = GameState.deal(CLASSIC_TWO_DECKS, 8, seed=seed, dealer=dealer)
            assert plain.hands == state.hands
            first = next(
                p
                for p in [*spec_play_order(CLASSIC_TWO_DECKS, dealer, 8)[1:], dealer]
                if p in holders
            )
            assert first == state.to_act
            assert state.must_include == THREE_SPADES
    assert found > 0
