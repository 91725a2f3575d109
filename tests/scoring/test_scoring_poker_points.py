"""Poker points (RULES §6.6–§6.7, D-17–D-21, §9 scoring examples).

Scenarios are built with `GameState.from_hands` and driven play by play. Poker plays
counterclockwise: player ``i`` is followed by ``i − 1`` (0 → 3 → 2 → 1 with four
players, 0 → 2 → 1 with three). ``first_game=False, leader=0`` lets player 0 lead
anything; a first game makes the 3♠ holder lead with it.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.scoring.scoring_helpers import (
    chop_items,
    items_of,
    mixed_game,
    net,
    random_game,
    result_of,
    run,
)
from tienlen import (
    POKER,
    Combo,
    GameResult,
    GameState,
    Hand,
    InstantWin,
    ScoreItem,
    ScoreKind,
    classify,
)
from tienlen.rules import base as _base
from tienlen.scoring import Finish


def later_game(*hands: str) -> GameState:
    """A Poker game that player 0 leads freely (not the first game of a match)."""
    return GameState.from_hands(list(hands), POKER, first_game=False, leader=0)


def combos(*texts: str) -> tuple[Combo, ...]:
    """The Poker combinations of *texts*, for comparing `ScoreItem.combos`."""
    found = tuple(classify(text, POKER) for text in texts)
    assert None not in found
    return tuple(combo for combo in found if combo is not None)


def check_poker_result(result: GameResult, players: int) -> None:
    """Every invariant of a Poker result (RULES §6.6–§6.7, D-17–D-21)."""
    items = result.items
    assert sorted(result.finish_order) == list(range(players))
    assert result.scores == net(items, players)
    for item in items:
        assert item.points > 0
        assert item.player != item.payer
    unpaid = sum(item.points for item in items if item.payer is None)
    assert sum(result.scores) == unpaid  # transfers (items with a payer) sum to 0
    if result.instant_win is not None:
        assert items == (
            ScoreItem(kind=ScoreKind.INSTANT_WIN, player=result.winner, points=12),
        )
        return
    assert not items_of(result, ScoreKind.INSTANT_WIN)
    table = POKER.place_points_for(players)
    place: dict[int, int] = {}
    for item in items_of(result, ScoreKind.PLACE):
        assert item.player not in place
        assert item.payer is None
        place[item.player] = item.points
    for rank, player in enumerate(result.finish_order):
        expected = 0 if player in result.frozen else table[rank]
        assert place.get(player, 0) == expected
    assert result.finish_order[players - len(result.frozen) :] == result.frozen
    for item in items_of(result, ScoreKind.FROZEN):
        assert item.player == result.winner
        assert item.payer in result.frozen
    playing = [p for p in result.finish_order if p not in result.frozen]
    for item in items_of(result, ScoreKind.END_PENALTY):
        assert (item.player, item.payer) == (playing[-2], playing[-1])
    assert len(items_of(result, ScoreKind.END_PENALTY)) <= 1
    for item in items_of(result, ScoreKind.CHOP):
        assert item.combos


# -- §6.6.2 and §9: the chop-chain example ----------------------------------------


def test_rules_6_6_chop_chain_example() -> None:
    """RULES §6.6.2 example: A 2♥, B 3-3-4-4-5-5, C 9-9-9-9, trick ends: C +8, B −8, A 0."""
    state = later_game("2h 6s 7s", "8h 8d Tc", "9s 9c 9d 9h Js", "3s 3c 4s 4c 5s 5c Ks")
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h")
    assert state.items == ()  # nothing is paid before the trick ends
    assert state.chop is not None
    assert (state.chop.points, state.chop.victim, state.chop.catcher) == (8, 3, 2)
    state = run(state, "pass", "pass", "pass")
    assert state.top is None
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=2,
            payer=3,
            points=8,
            combos=combos("2h", "3s 3c 4s 4c 5s 5c"),
        ),
    )
    assert net(state.items, 4) == (0, 0, 8, -8)


def test_rules_6_6_chop_chain_example_itemised_to_the_end() -> None:
    """RULES §6.6: the example game played out, every item itemised for a UI (kind, player, payer, points, combos)."""
    # D (player 1) holds a full 13-card deal and only passes, so is frozen when C goes
    # out: no 2s and no bomb (pairs 8-8 and T-T only, not consecutive), worth 0, pays 4.
    state = later_game(
        "2h 6s 7s",
        "8h 8d Tc 3d 4d 5d 6d 7d Td Jd Qd Kd Ad",
        "9s 9c 9d 9h Js",
        "3s 3c 4s 4c 5s 5c Ks",
    )
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h", "pass", "pass")
    state = run(state, "pass", "Js")  # C goes out first; D (player 1) never played
    state = run(state, "pass", "Ks")  # A passes, B goes out second; A is last
    result = result_of(state)
    assert result.finish_order == (2, 3, 0, 1)
    assert result.frozen == (1,)
    assert result.items == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=2,
            payer=3,
            points=8,
            combos=combos("2h", "3s 3c 4s 4c 5s 5c"),
        ),
        ScoreItem(kind=ScoreKind.FROZEN, player=2, payer=1, points=4),
        ScoreItem(kind=ScoreKind.PLACE, player=2, points=4),
        ScoreItem(kind=ScoreKind.PLACE, player=3, points=2),
        ScoreItem(kind=ScoreKind.PLACE, player=0, points=1),
    )
    assert [str(item) for item in result.items] == [
        "chop: player 3 pays player 2 8 for '2h', '3s 3c 4s 4c 5s 5c'",
        "frozen: player 1 pays player 2 4",
        "place: player 2 scores 4",
        "place: player 3 scores 2",
        "place: player 0 scores 1",
    ]
    assert result.scores == (1, -4, 16, -6)
    check_poker_result(result, 4)


# -- §6.6.1 place points and D-17 -------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "moves", "order", "scores"),
    [
        pytest.param(
            ["3s 7s", "6s Ts", "5s 9s", "4s 8s"],
            ["3s", "4s", "5s", "6s", "7s", "8s", "9s"],
            (0, 3, 2, 1),
            (4, 0, 1, 2),
            id="4-players-4-2-1-0",
        ),
        pytest.param(
            ["3s 7s", "5s 9s", "4s 8s"],
            ["3s", "4s", "5s", "7s", "8s"],
            (0, 2, 1),
            (4, 0, 2),
            id="3-players-4-2-0",
        ),
        pytest.param(
            ["3s 7s", "4s 8s"],
            ["3s", "4s", "7s"],
            (0, 1),
            (4, 0),
            id="2-players-4-0",
        ),
    ],
)
def test_place_points(
    hands: list[str], moves: list[str], order: tuple[int, ...], scores: tuple[int, ...]
) -> None:
    """RULES §6.6.1, D-17: place points 4/2/1/0; three players 4/2/0; two players 4/0."""
    result = result_of(run(GameState.from_hands(hands, POKER), *moves))
    assert result.finish_order == order
    assert result.scores == scores
    assert {item.kind for item in result.items} == {ScoreKind.PLACE}
    check_poker_result(result, len(hands))


def test_place_points_table() -> None:
    """RULES §6.6.1, D-17: the place-point tables for 4, 3 and 2 players."""
    assert POKER.place_points_for(4) == (4, 2, 1, 0)
    assert POKER.place_points_for(3) == (4, 2, 0)
    assert POKER.place_points_for(2) == (4, 0)


# -- §6.6.4 end penalty and the §9 example ----------------------------------------


def test_rules_9_end_penalty_example() -> None:
    """RULES §9: Poker, last place holds 2♠ and 2♦ → last −4, third +4."""
    state = GameState.from_hands(["3s 7s", "6s 2s 2d", "5s 9s", "4s 8s"], POKER)
    result = result_of(run(state, "3s", "4s", "5s", "6s", "7s", "8s", "9s"))
    assert result.finish_order == (0, 3, 2, 1)
    assert items_of(result, ScoreKind.END_PENALTY) == (
        ScoreItem(kind=ScoreKind.END_PENALTY, player=2, payer=1, points=4),
    )
    assert net(items_of(result, ScoreKind.END_PENALTY), 4) == (0, -4, 4, 0)
    assert result.scores == (4, -4, 1 + 4, 2)
    check_poker_result(result, 4)


@pytest.mark.parametrize(
    ("kept", "value"),
    [
        pytest.param("2s 2c 2d", 6, id="three-2s-6"),
        pytest.param("3c 3d 4c 4d 5c 5d 6c 6d", 8, id="four-pairs-8"),
        pytest.param("Jc Jd Qc Qd Kc Kd", 4, id="three-pairs-4"),
        pytest.param("Qc Qd Qh Qs", 6, id="four-of-a-kind-6"),
        pytest.param("Tc Jd Kh", 0, id="nothing"),
        pytest.param("Kc Kd Ac Ad 2s 2c", 3, id="K-A-2-pairs-are-no-bomb"),
    ],
)
def test_end_penalty_values_the_last_hand(kept: str, value: int) -> None:
    """RULES §6.6.4, D-20: the last player pays the value of their 2s and bombs to the one placed just above."""
    state = GameState.from_hands(["3s 8s", f"7h {kept}", "5s Ts", "4s 9s"], POKER)
    result = result_of(run(state, "3s", "4s", "5s", "7h", "8s", "9s", "Ts"))
    assert result.finish_order == (0, 3, 2, 1)
    penalties = items_of(result, ScoreKind.END_PENALTY)
    if value:
        assert penalties == (
            ScoreItem(kind=ScoreKind.END_PENALTY, player=2, payer=1, points=value),
        )
    else:
        assert penalties == ()
    assert result.scores[1] == -value
    check_poker_result(result, 4)


def test_end_penalty_four_2s_count_10() -> None:
    """RULES §6.6.4, D-20: four 2s left in hand cost 10 (singly), not 6 (as a four of a kind)."""
    # Four 2s dealt win at once in Poker (RULES §6.7): this house rule drops that
    # instant win so that a player can keep them to the end.
    house = attrs.evolve(
        POKER,
        name="poker-no-four-2s",
        instant_wins=POKER.instant_wins - {InstantWin.FOUR_TWOS},
    )
    state = GameState.from_hands(["3s 8s", "7h 2s 2c 2d 2h", "5s Ts", "4s 9s"], house)
    result = result_of(run(state, "3s", "4s", "5s", "7h", "8s", "9s", "Ts"))
    assert items_of(result, ScoreKind.END_PENALTY) == (
        ScoreItem(kind=ScoreKind.END_PENALTY, player=2, payer=1, points=10),
    )


# -- §6.6.2 chop values -----------------------------------------------------------


@pytest.mark.parametrize(
    ("caught", "value"),
    [
        pytest.param("2s", 1, id="2s-1"),
        pytest.param("2c", 2, id="2c-2"),
        pytest.param("2d", 3, id="2d-3"),
        pytest.param("2h", 4, id="2h-4"),
        pytest.param("2s 2c", 3, id="pair-2s-2c-sum-3"),
        pytest.param("2d 2h", 7, id="pair-2d-2h-sum-7"),
        pytest.param("2s 2h", 5, id="pair-2s-2h-sum-5"),
        pytest.param("3s 3c 4s 4c 5s 5c", 4, id="three-pairs-4"),
        pytest.param("9s 9c 9d 9h", 6, id="four-of-a-kind-6"),
        pytest.param("3s 3c 4s 4c 5s 5c 6s 6c", 8, id="four-pairs-8"),
    ],
)
def test_chop_values(caught: str, value: int) -> None:
    """RULES §6.6.2: 2♠ 1, 2♣ 2, 2♦ 3, 2♥ 4, a pair of 2s the sum, 3 pairs 4, four of a kind 6, 4 pairs 8."""
    combo = classify(caught, POKER)
    assert combo is not None
    assert POKER.chop_value(combo) == value


@pytest.mark.parametrize(
    ("top", "bomb", "value"),
    [
        pytest.param("2s", "7s 7c 8s 8c 9s 9c", 1, id="2s-by-three-pairs"),
        pytest.param("2c", "7s 7c 7d 7h", 2, id="2c-by-four-of-a-kind"),
        pytest.param("2d", "7s 7c 8s 8c 9s 9c Ts Tc", 3, id="2d-by-four-pairs"),
        pytest.param("2h", "7s 7c 8s 8c 9s 9c", 4, id="2h-by-three-pairs"),
        pytest.param("2s 2h", "7s 7c 7d 7h", 5, id="pair-of-2s-by-four-of-a-kind"),
        pytest.param("2c 2d", "7s 7c 8s 8c 9s 9c Ts Tc", 5, id="pair-of-2s-by-four-pairs"),
        pytest.param("3s 3c 4s 4c 5s 5c", "6s 6c 7s 7c 8s 8c", 4, id="three-pairs-by-higher-three-pairs"),
        pytest.param("3s 3c 4s 4c 5s 5c", "7s 7c 7d 7h", 4, id="three-pairs-by-four-of-a-kind"),
        pytest.param("3s 3c 3d 3h", "7s 7c 7d 7h", 6, id="four-of-a-kind-by-higher-four"),
        pytest.param("3s 3c 3d 3h", "7s 7c 8s 8c 9s 9c Ts Tc", 6, id="four-of-a-kind-by-four-pairs"),
        pytest.param("3s 3c 4s 4c 5s 5c 6s 6c", "7s 7c 8s 8c 9s 9c Ts Tc", 8, id="four-pairs-by-higher-four-pairs"),
    ],
)  # fmt: skip
def test_a_catch_pays_the_caught_value_at_trick_end(
    top: str, bomb: str, value: int
) -> None:
    """RULES §6.6.2: a bomb on a 2, a pair of 2s or a bomb (a higher same-shape bomb too) is a catch; the victim pays at trick end."""
    state = later_game(f"{top} Kh", "Js Jd", "Qs Qd", f"{bomb} Kc")
    state = run(state, top, bomb)
    assert state.chop is not None
    assert state.items == ()
    state = run(state, "pass", "pass", "pass")
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=3, payer=0, points=value, combos=combos(top)
        ),
    )


def test_chain_accumulates_and_the_last_victim_pays_the_last_catcher() -> None:
    """RULES §6.6.2, D-18: successive catches accumulate; only the last victim pays, to the last catcher."""
    state = later_game(
        "2d Kh",
        "5d 5h 6d 6h 7d 7h 8d 8h Kc",
        "9s 9c 9d 9h Ks",
        "3s 3c 4s 4c 5s 5c Kd",
    )
    state = run(state, "2d", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h")
    state = run(state, "5d 5h 6d 6h 7d 7h 8d 8h")
    assert state.chop is not None
    assert state.chop.points == 3 + 4 + 6
    state = run(state, "pass", "pass", "pass")
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=1,
            payer=2,
            points=13,
            combos=combos("2d", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h"),
        ),
    )
    assert net(state.items, 4) == (0, 13, -13, 0)  # earlier victims pay nothing


def test_jump_in_catch_joins_the_chain() -> None:
    """RULES §6.4, §6.6.2: a 4-pair jump-in by a player who passed catches the top and joins the chain."""
    state = later_game(
        "2h Kh", "5d 5h 6d 6h 7d 7h 8d 8h Kc", "Qs Qd", "3s 3c 4s 4c 5s 5c Kd"
    )
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c", "pass", "pass")  # 2 and 1 pass
    state = run(state, "1:5d 5h 6d 6h 7d 7h 8d 8h")  # 1 jumps in, out of turn
    assert state.chop is not None
    assert (state.chop.points, state.chop.victim, state.chop.catcher) == (8, 3, 1)


def test_catch_that_empties_the_hand_is_paid_at_once() -> None:
    """RULES §6.6.2: the chain is paid at once when a catch empties the catcher's hand."""
    state = GameState.from_hands(["3s 2h Ks", "5s 6s 7s Qs", "4s 9s 9c 9d 9h"], POKER)
    state = run(state, "3s", "4s", "5s", "pass", "pass")  # player 1 leads next
    state = run(
        state, "6s", "2h", "9s 9c 9d 9h"
    )  # player 2 catches with the last cards
    assert state.finish_order == (2,)
    assert state.top is not None  # the trick is still on
    assert state.chop is None
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=2, payer=0, points=4, combos=combos("2h")
        ),
    )
    result = result_of(run(state, "pass", "pass", "7s", "Ks"))
    assert result.finish_order == (2, 0, 1)
    assert items_of(result, ScoreKind.CHOP) == state.items  # paid once, not again
    assert result.scores == (2 - 4, 0, 4 + 4)
    check_poker_result(result, 3)


def test_accumulated_chain_paid_at_once_by_the_last_victim() -> None:
    """RULES §6.6.2, D-18: a catch that empties the hand pays the whole chain at once, from the last victim."""
    state = later_game("2h Kh", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h", "Qs Qd")
    state = run(state, "2h", "pass", "9s 9c 9d 9h")  # 3 passes; 2 catches and is out
    assert chop_items(state) == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=2, payer=0, points=4, combos=combos("2h")
        ),
    )
    state = later_game("2h Kh", "Js Jd", "9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c Kd")
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h")  # 2 is out
    assert chop_items(state) == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=2,
            payer=3,
            points=4 + 4,
            combos=combos("2h", "3s 3c 4s 4c 5s 5c"),
        ),
    )


def test_chain_restarts_after_a_payment_at_once() -> None:
    """RULES §6.6.2, D-18 (reading): after a chain is paid at once, later catches in the trick start a new chain."""
    # The out player's bomb is their final play, worth 0; what was paid is not paid again.
    state = GameState.from_hands(
        [
            "3s 2h 5d 5h 6d 6h 7d 7h 8d 8h Kh",
            "5s Qs Qc Qd Qh Kd",
            "4s 9s 9c Ts Tc Js Jc",
        ],
        POKER,
    )
    state = run(state, "3s", "4s", "5s", "2h", "9s 9c Ts Tc Js Jc")  # 2 is out
    state = run(state, "Qs Qc Qd Qh", "5d 5h 6d 6h 7d 7h 8d 8h", "pass")
    assert state.top is None
    assert chop_items(state) == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=2, payer=0, points=4, combos=combos("2h")
        ),
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=0,
            payer=1,
            points=0 + 6,
            combos=combos("9s 9c Ts Tc Js Jc", "Qs Qc Qd Qh"),
        ),
    )


def test_victims_final_play_is_worth_zero() -> None:
    """RULES §6.6.2, D-18: a combination its owner went out with is worth 0 when caught; the chain goes on from 0."""
    state = GameState.from_hands(
        ["3s 2h", "5s 3c 3d 4c 4d 5c 5d 6c 6d Kd", "4s 9s 9c 9d 9h Jd"], POKER
    )
    state = run(state, "3s", "4s", "5s", "2h")  # player 0 goes out with 2h
    state = run(state, "9s 9c 9d 9h")  # catching 2h is worth 0
    assert state.chop is not None
    assert state.chop.points == 0
    state = run(state, "3c 3d 4c 4d 5c 5d 6c 6d", "pass")  # catching 9999 is worth 6
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=1,
            payer=2,
            points=6,
            combos=combos("2h", "9s 9c 9d 9h"),
        ),
    )
    result = result_of(run(state, "Kd"))
    assert net(items_of(result, ScoreKind.CHOP), 3) == (0, 6, -6)
    check_poker_result(result, 3)


def test_a_chain_worth_zero_lists_no_item() -> None:
    """RULES §6.6.2, D-18: a chain worth 0 pays nothing, so the itemised result shows no chop, at trick end or at once."""
    at_trick_end = GameState.from_hands(["3s 2h", "5s Kd", "4s 9s 9c 9d 9h Jd"], POKER)
    at_trick_end = run(at_trick_end, "3s", "4s", "5s", "2h", "9s 9c 9d 9h", "pass")
    assert at_trick_end.top is None
    assert chop_items(at_trick_end) == ()
    at_once = GameState.from_hands(["3s 2h", "5s Kd", "4s 9s 9c 9d 9h"], POKER)
    result = result_of(run(at_once, "3s", "4s", "5s", "2h", "9s 9c 9d 9h"))
    assert items_of(result, ScoreKind.CHOP) == ()
    assert result.scores == (4, 0, 2)


def test_only_the_top_combination_is_caught() -> None:
    """RULES §6.6.2: 2♠ beaten by 2♦ then caught: only 2♦ (3) is worth anything, its owner pays."""
    state = later_game("2s Kh", "Js Jd", "9s 9c 9d 9h Qd", "2d Kc")
    state = run(state, "2s", "2d", "9s 9c 9d 9h", "pass", "pass", "pass")
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=2, payer=3, points=3, combos=combos("2d")
        ),
    )


def test_a_2_beating_a_2_is_not_a_catch() -> None:
    """RULES §6.6.2: beating a 2 with a higher 2 is not a catch."""
    state = later_game("2s Kh", "Js Jd", "Qs Qd", "2h Kc")
    state = run(state, "2s", "2h")
    assert state.chop is None
    state = run(state, "pass", "pass", "pass")
    assert chop_items(state) == ()
    pair = later_game("2s 2c Kh", "Js Jd", "Qs Qd", "2d 2h Kc")
    pair = run(pair, "2s 2c", "2d 2h", "pass", "pass", "pass")
    assert chop_items(pair) == ()


def test_leading_a_bomb_is_not_a_catch() -> None:
    """RULES §6.6.2: leading a bomb is not a catch, even after a trick of 2s."""
    state = later_game("9s 9c 9d 9h Kh", "Js Jd", "Qs Qd", "Ts Tc")
    state = run(state, "9s 9c 9d 9h")
    assert state.chop is None
    state = run(state, "pass", "pass", "pass")
    assert state.items == ()


def test_higher_bomb_of_the_same_shape_on_a_led_bomb_is_a_catch() -> None:
    """RULES §6.6.2: a higher bomb of the same shape counts; the led bomb is caught (3 pairs: 4)."""
    state = later_game("3s 3c 4s 4c 5s 5c Kh", "Js Jd", "Qs Qd", "6s 6c 7s 7c 8s 8c Kc")
    state = run(state, "3s 3c 4s 4c 5s 5c")
    assert state.chop is None
    state = run(state, "6s 6c 7s 7c 8s 8c", "pass", "pass", "pass")
    assert state.items == (
        ScoreItem(
            kind=ScoreKind.CHOP,
            player=3,
            payer=0,
            points=4,
            combos=combos("3s 3c 4s 4c 5s 5c"),
        ),
    )


def test_chain_is_per_trick() -> None:
    """RULES §6.6.2: a chain is settled when its trick ends; the next trick starts a new one."""
    state = later_game(
        "2h 2s Kh", "Js Jd", "Ts Qs Qd Qc Qh 8c", "3s 3c 4s 4c 5s 5c 9d Kd"
    )
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c", "pass", "pass", "pass")
    assert state.to_act == 3
    state = run(state, "9d", "Ts", "pass", "2s", "pass", "Qs Qd Qc Qh", "pass")
    assert state.top is None
    assert chop_items(state) == (
        ScoreItem(
            kind=ScoreKind.CHOP, player=3, payer=0, points=4, combos=combos("2h")
        ),
        ScoreItem(
            kind=ScoreKind.CHOP, player=2, payer=0, points=1, combos=combos("2s")
        ),
    )


# -- §6.6.3 frozen (cóng) ---------------------------------------------------------


def test_frozen_players_pay_four_plus_their_hand_and_take_the_bottom_places() -> None:
    """RULES §6.6.3, D-19: players holding all 13 cards when first place is taken lose 4 + 2s and bombs to first place."""
    # Players 2 and 3 hold full 13-card deals (no instant win, RULES §6.7: three and two
    # pairs, ten and nine ranks). Player 2: J-J-Q-Q-K-K (3 consecutive pairs) 4, worth 4.
    # Player 3: 2♠ 1 + 2♦ 3 + 4-4-4-4 (four of a kind) 6, worth 10.
    state = GameState.from_hands(
        [
            "3s Ts",
            "6d 7d",
            "Js Jc Qs Qc Ks Kc Ah 3c 5c 6c 7c 8c 9c",
            "2s 2d 4s 4c 4d 4h 5h 3h 6h 7h 8h 9h Th",
        ],
        POKER,
    )
    state = run(state, "3s", "pass", "pass", "6d", "Ts")  # 3 and 2 never played
    result = result_of(state)
    assert result.frozen == (3, 2)
    assert result.finish_order == (0, 1, 3, 2)
    assert items_of(result, ScoreKind.FROZEN) == (
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=3, points=4 + 1 + 3 + 6),
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=2, points=4 + 4),
    )
    assert items_of(result, ScoreKind.PLACE) == (
        ScoreItem(kind=ScoreKind.PLACE, player=0, points=4),
        ScoreItem(kind=ScoreKind.PLACE, player=1, points=2),
    )
    assert items_of(result, ScoreKind.END_PENALTY) == ()  # frozen pay no end penalty
    assert result.scores == (4 + 14 + 8, 2, -8, -14)
    check_poker_result(result, 4)


def test_end_penalty_with_frozen_players_is_paid_by_the_last_player_still_playing() -> (
    None
):
    """RULES §6.6.4, D-19 (reading): frozen players pay no end penalty; the last player still playing pays the one above."""
    # Players 2 and 3 hold full 13-card deals and never play (no instant win, RULES §6.7:
    # three and two pairs, ten ranks each). Player 2: J-J-Q-Q-K-K 4, pays 4 + 4 = 8.
    # Player 3: 4-4-4-4 6, pays 4 + 6 = 10. Player 1, last still playing, keeps 7♦ 2♥:
    # 2♥ is worth 4, paid to player 0, placed just above.
    state = GameState.from_hands(
        [
            "3s Ts",
            "6d 7d 2h",
            "Js Jc Qs Qc Ks Kc Ah 3c 5c 6c 7c 8c 9c",
            "4s 4c 4d 4h 5h 3h 6h 7h 8h 9h Th Jh Qh",
        ],
        POKER,
    )
    result = result_of(run(state, "3s", "pass", "pass", "6d", "Ts"))
    assert result.frozen == (3, 2)
    assert items_of(result, ScoreKind.FROZEN) == (
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=3, points=4 + 6),
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=2, points=4 + 4),
    )
    assert items_of(result, ScoreKind.END_PENALTY) == (
        ScoreItem(kind=ScoreKind.END_PENALTY, player=0, payer=1, points=4),
    )
    check_poker_result(result, 4)


def test_frozen_two_players() -> None:
    """RULES §6.6.3, D-17, D-19: two players; the other never played: frozen, 0 place points, no end penalty."""
    # Player 1 holds a full 13-card deal (no instant win, RULES §6.7: two pairs, nine
    # ranks): 2♥ 4 + 2♦ 3 + Q-Q-Q-Q (four of a kind) 6, worth 13, so pays 4 + 13 = 17.
    state = GameState.from_hands(
        ["3s", "4s 2h 2d Qs Qc Qd Qh 5c 6c 7c 8c 9c Tc"], POKER
    )
    result = result_of(run(state, "3s"))
    assert result.frozen == (1,)
    assert result.items == (
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=1, points=4 + 4 + 3 + 6),
        ScoreItem(kind=ScoreKind.PLACE, player=0, points=4),
    )
    assert result.scores == (21, -17)


def test_a_player_who_played_once_is_not_frozen() -> None:
    """RULES §6.6.3: only players still holding all their dealt cards are frozen."""
    state = GameState.from_hands(["3s 9s", "5s Ks", "4s Qs"], POKER)
    result = result_of(run(state, "3s", "4s", "5s", "9s", "Qs"))
    assert result.frozen == ()
    assert items_of(result, ScoreKind.FROZEN) == ()


def test_short_hands_never_played_are_not_frozen() -> None:
    """RULES §6.6.3: only players still holding all 13 cards are frozen, not shorter hands."""
    state = GameState.from_hands(["3S", "5C 9D", "6C 8D"], POKER).play("3S")
    assert state.finish_order == (0,)
    # Players 1 and 2 never played, but 2 cards are not a full 13-card deal.
    assert state.hands[1:] == state.dealt[1:]
    assert state.frozen == ()
    assert state.items == ()
    assert not state.is_over
    assert state.to_act == 2  # counterclockwise: 0 → 2 → 1
    result = result_of(run(state, "6c", "9d", "pass", "5c"))
    assert result.finish_order == (0, 1, 2)
    assert result.frozen == ()
    assert items_of(result, ScoreKind.FROZEN) == ()
    assert result.scores == (4, 2, 0)  # 8♦ left is worth nothing: no end penalty
    check_poker_result(result, 3)


# -- §6.6.4, D-20: valuing 2s and bombs in hand -----------------------------------


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        pytest.param("2s 2c 2d 2h", 10, id="four-2s-10-not-6"),
        pytest.param("2s 2d 4s", 4, id="2s-and-2d-4"),
        pytest.param("3s 3c 4s 4c 5s 5c 6s 6c", 8, id="four-pairs-8-not-three-pairs-4"),
        pytest.param("3s 3c 4s 4c 5s 5c", 4, id="three-pairs-4"),
        pytest.param("9s 9c 9d 9h", 6, id="four-of-a-kind-6"),
        pytest.param("3s 3c 3d 3h 4s 4c 5s 5c", 6, id="four-3s-6-beats-three-pairs-4"),
        pytest.param("3s 3c 4s 4c 5s 5c 6s 6c 6d 6h", 10, id="three-pairs-plus-four-6s-10"),
        pytest.param("5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d 7h 8s 8c 8d 8h", 24, id="four-fours-24-not-two-four-pairs-16"),
        pytest.param("2s 2c 2d 2h 3s 3c 3d 3h", 16, id="four-2s-and-four-3s"),
        pytest.param("Ks Kc As Ac 2s 2c", 3, id="no-consecutive-pairs-through-2s"),
        pytest.param("Ks Kc As Ac 2s 2c 2d 2h", 10, id="four-2s-no-pairs-through-2s"),
        pytest.param("Qs Qc Ks Kc As Ac", 4, id="three-pairs-up-to-ace-4"),
        pytest.param("4s 6d 8h Tc", 0, id="nothing"),
    ],
)  # fmt: skip
def test_hand_value_best_disjoint_set(hand: str, value: int) -> None:
    """RULES §6.6.4, D-20 (and §6.2: no 2s in consecutive pairs): 2s by suit, bombs 4/6/8, the best disjoint set."""
    assert POKER.hand_value(Hand.parse(hand)) == value


NEAR_BOMBS = st.sets(st.sampled_from([*range(16), *range(48, 52)]), max_size=9)
"""Up to 9 cards of the ranks 3-6 and the 2s: bombs, near-bombs and 2s are common."""


@given(
    cards=st.one_of(NEAR_BOMBS, st.sets(st.integers(0, 51), min_size=13, max_size=13))
)
def test_hand_value_of_small_hands_is_the_best_packing(cards: set[int]) -> None:
    """D-20: every hand (small, or a full deal) is worth its best packing.

    That includes the quick answers: 0 for a hand with no 2 and too few cards for any
    valued bomb, and its 2s alone for a hand with no room for a valued bomb.
    """
    hand = Hand(sum(1 << card for card in cards))
    twos = sorted(
        value
        for suit, value in enumerate(POKER.two_values)
        if hand.mask >> (48 + suit) & 1
    )
    counts = tuple(_base._count_list(hand.mask))
    expected = _base._best_packing(counts, twos, POKER._valued_items)
    assert POKER.hand_value(hand) == expected


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        # 3-3-4-4-5-5-6-6 and five singles: 4 consecutive pairs 8, not 3 pairs 4.
        pytest.param("3c 3d 4c 4d 5c 5d 6c 6d 8h 9h Jh Kh Ah", 8, id="four-pairs-8-not-three-pairs-4"),
        # K-K-A-A-2-2 is no bomb (no 2s in consecutive pairs, RULES §6.2): 2♠ 1 + 2♣ 2.
        pytest.param("Kc Kd Ac Ad 2s 2c 9h 3h 4d 5h 6d 7h Jh", 3, id="K-A-2-pairs-are-no-bomb"),
    ],
)  # fmt: skip
def test_frozen_penalty_uses_the_best_disjoint_value(hand: str, value: int) -> None:
    """RULES §6.6.3, D-20, §6.2: a frozen player loses 4 plus the best disjoint value of their 2s and bombs."""
    # Full 13-card deals that win nothing at once (RULES §6.7): four and three pairs,
    # nine and ten ranks.
    assert len(Hand.parse(hand)) == 13
    assert POKER.instant_win(Hand.parse(hand)) is None
    state = GameState.from_hands(["3s", hand], POKER)
    result = result_of(run(state, "3s"))
    assert items_of(result, ScoreKind.FROZEN) == (
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=1, points=4 + value),
    )


# -- §6.7 instant wins --------------------------------------------------------------

OTHERS = ("4d 8h Tc", "6d 8s Qd", "Ts Qs Ks")


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        pytest.param("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s", InstantWin.SIX_PAIRS, id="six-pairs"),
        pytest.param("3s 3c 3d 5d 5h 7s 7c 9d 9h Js Jc Kd Kh", InstantWin.SIX_PAIRS, id="six-pairs-with-a-triple"),
        pytest.param("3s 3c 3d 3h 5d 5h 7s 7c 9d 9h Jd Jh Ah", InstantWin.SIX_PAIRS, id="six-pairs-with-a-four"),
        pytest.param("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9d Jh Kd", InstantWin.FIVE_CONSECUTIVE_PAIRS, id="five-consecutive-pairs"),
        pytest.param("2s 2c 2d 2h 3d 5c 7d 9d Jc Kh Ac 4h 6h", InstantWin.FOUR_TWOS, id="four-2s"),
        pytest.param("3s 4c 5d 6h 7s 8c 9d Th Js Qc Kd Ah 2c", InstantWin.THIRTEEN_RANKS, id="thirteen-ranks"),
    ],
)  # fmt: skip
def test_instant_win_scores_12_to_the_winner_only(hand: str, kind: InstantWin) -> None:
    """RULES §6.7, D-21: an instant-win hand wins 12 points at the deal; nobody else scores."""
    state = GameState.from_hands([OTHERS[0], hand, OTHERS[1], OTHERS[2]], POKER)
    result = result_of(state)
    assert result.instant_win is kind
    assert result.winner == 1
    assert result.scores == (0, 12, 0, 0)
    assert result.items == (ScoreItem(kind=ScoreKind.INSTANT_WIN, player=1, points=12),)
    assert str(result.items[0]) == "instant-win: player 1 scores 12"
    assert state.history == ()
    check_poker_result(result, 4)


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param("Js Jc Qs Qc Ks Kc As Ac 2s 2c 3s 5d 7h", id="five-pairs-through-2s"),
        pytest.param("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Qh 2s", id="five-pairs"),
        pytest.param("3s 4c 5d 6h 7s 8c 9d Th Js Qc Kd Ah Ac", id="twelve-ranks"),
        pytest.param("2s 2c 2d 3d 5c 7d 9d Jc Kh Ac 4h 6h 8s", id="three-2s"),
    ],
)  # fmt: skip
def test_near_misses_are_not_instant_wins(hand: str) -> None:
    """RULES §6.7: five consecutive pairs must avoid 2s; six pairs, four 2s and thirteen ranks are exact."""
    assert POKER.instant_win(Hand.parse(hand)) is None


def test_instant_win_tie_goes_to_the_first_in_play_order_from_the_leader() -> None:
    """RULES §6.7, D-21: two qualify; counterclockwise from the 3♠ leader (0 → 3 → 2 → 1), player 3 takes it."""
    six_pairs = "4s 4c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s"
    dragon = "3c 4d 5s 6h 7d 8c 9s Th Jd Qc Ks Ah 2c"
    state = GameState.from_hands(["3s 6s", six_pairs, "8d Td", dragon], POKER)
    result = result_of(state)
    assert result.winner == 3
    assert result.instant_win is InstantWin.THIRTEEN_RANKS
    assert result.scores == (0, 0, 0, 12)
    later = GameState.from_hands(
        ["3s 6s", six_pairs, "8d Td", dragon], POKER, first_game=False, leader=2
    )
    assert result_of(later).winner == 1  # from leader 2: 2 → 1 → 0 → 3


# -- properties over seeded random self-play ----------------------------------------


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    passive=st.booleans(),
)
def test_poker_results_are_consistent(seed: int, players: int, passive: bool) -> None:
    """RULES §6.6–§6.7: transfers sum to 0; place points are exactly the table's; items add up to the scores."""
    play = mixed_game if passive else random_game
    check_poker_result(result_of(play(POKER, players, seed)), players)


def test_poker_results_are_consistent_over_many_games() -> None:
    """RULES §6.6–§6.7: the same invariants over 600 seeded games of 2–4 players, every kind of item arising."""
    kinds: set[ScoreKind] = set()
    for seed in range(600):
        players = 2 + seed % 3
        play = mixed_game if seed % 2 else random_game
        result = result_of(play(POKER, players, seed))
        check_poker_result(result, players)
        kinds |= {item.kind for item in result.items}
    assert kinds == set(ScoreKind) - {ScoreKind.STAKE}


def test_games_that_paid_nothing_in_play_share_their_result() -> None:
    """Same places, same last hand's value, same rule set: one shared result."""
    hands = (Hand(0), Hand(0), Hand.parse("2h 5c"), Hand(0))
    first = POKER.scorer.settle(POKER, Finish(order=(0, 1, 3, 2), hands=hands))
    again = POKER.scorer.settle(POKER, Finish(order=(0, 1, 3, 2), hands=hands))
    assert again is first
    assert first.scores == (4, 2, -4, 5)  # 2h 5c: the 2 is worth 4 (RULES §6.6.4)
    cheaper = Finish(order=(0, 1, 3, 2), hands=(*hands[:2], Hand.parse("7h"), Hand(0)))
    assert POKER.scorer.settle(POKER, cheaper).scores == (4, 2, 0, 1)
    doubled = attrs.evolve(POKER, name="doubled", place_points=(8, 4, 2, 0))
    result = doubled.scorer.settle(doubled, Finish(order=(0, 1, 3, 2), hands=hands))
    assert result.scores == (8, 4, -4, 6)
