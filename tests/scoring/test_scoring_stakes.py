"""Stake scoring: loser pays each, each pays the winner, Vietcong's instant win.

RULES §2.5 (classic, and Justus Pang through §3), §4.4 and D-11 (Kenneth Lo), §5.4 and
D-14 (Vietcong), and the §9 scoring examples. Classic-family games play clockwise:
player ``i`` is followed by ``i + 1``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.scoring.scoring_helpers import mixed_game, net, random_game, result_of, run
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    VIETCONG,
    BaseRules,
    ChopChain,
    GameResult,
    GameState,
    Hand,
    InstantWin,
    InvalidArgumentError,
    ScoreItem,
    ScoreKind,
    Scoring,
)
from tienlen.scoring import Finish, StakeScorer

STAKE_VARIANTS = (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG)


def stake(winner: int, payer: int) -> ScoreItem:
    """One stake from *payer* to *winner*."""
    return ScoreItem(kind=ScoreKind.STAKE, player=winner, payer=payer, points=1)


def check_stake_result(rules: BaseRules, result: GameResult, players: int) -> None:
    """The invariants of a stakes result (RULES §2.5, §4.4, §5.4)."""
    assert sorted(result.finish_order) == list(range(players))
    assert sum(result.scores) == 0
    assert result.scores == net(result.items, players)
    assert all(item.kind is ScoreKind.STAKE for item in result.items)
    assert all(item.points == 1 for item in result.items)
    everyone_pays_winner = (
        rules.scoring is Scoring.EACH_PAYS_WINNER or result.instant_win is not None
    )
    if everyone_pays_winner:
        assert sorted(
            item.payer for item in result.items if item.payer is not None
        ) == [p for p in range(players) if p != result.winner]
        assert all(item.player == result.winner for item in result.items)
        assert result.scores[result.winner] == players - 1
    else:
        assert sorted(item.player for item in result.items) == [
            p for p in range(players) if p != result.loser
        ]
        assert all(item.payer == result.loser for item in result.items)
        assert result.scores[result.loser] == -(players - 1)


# -- §9 scoring examples -----------------------------------------------------------


def test_rules_9_classic_loser_pays_each() -> None:
    """RULES §9, §2.5: classic, 4 players, D left holding cards → D −3, others +1."""
    state = GameState.from_hands(["3s 7s", "4s 8s", "5s 9s", "6s Ts Js"], CLASSIC)
    result = result_of(run(state, "3s", "4s", "5s", "6s", "7s", "8s", "9s"))
    assert result.finish_order == (0, 1, 2, 3)
    assert result.loser == 3
    assert result.scores == (1, 1, 1, -3)
    assert result.items == (stake(0, 3), stake(1, 3), stake(2, 3))
    assert [str(item) for item in result.items] == [
        "stake: player 3 pays player 0 1",
        "stake: player 3 pays player 1 1",
        "stake: player 3 pays player 2 1",
    ]


def test_rules_9_kenneth_lo_each_pays_winner() -> None:
    """RULES §9, §4.4, D-11: Kenneth Lo, B out first → the game ends at once, B +3, others −1."""
    state = GameState.from_hands(["3s 9s", "4s", "5s 6s", "7s 8s"], KENNETH_LO)
    state = run(state, "3s", "4s")
    result = result_of(state)
    assert result.winner == 1
    assert result.scores == (-1, 3, -1, -1)
    assert sorted(result.items, key=lambda item: item.payer or 0) == [
        stake(1, 0),
        stake(1, 2),
        stake(1, 3),
    ]
    check_stake_result(KENNETH_LO, result, 4)


# -- §2.5, §3: loser pays each ----------------------------------------------------


@pytest.mark.parametrize("rules", [CLASSIC, JUSTUS_PANG], ids=lambda r: r.name)
def test_loser_pays_each_other_player_one_stake_three_players(rules: BaseRules) -> None:
    """RULES §2.5 (and §3 for Justus Pang): with three players the loser pays 2, each other gains 1."""
    state = GameState.from_hands(["3s 7s", "4s 8s", "5s 9s Ts"], rules)
    result = result_of(run(state, "3s", "4s", "5s", "7s", "8s"))
    assert result.finish_order == (0, 1, 2)
    assert result.scores == (1, 1, -2)
    check_stake_result(rules, result, 3)


def test_loser_pays_two_players() -> None:
    """RULES §2.5: two players: the loser pays the winner one stake."""
    state = GameState.from_hands(["3s 7s", "4s 8s 9s"], CLASSIC)
    result = result_of(run(state, "3s", "4s", "7s"))
    assert result.scores == (1, -1)


def test_classic_records_the_full_finishing_order() -> None:
    """RULES §2.5: the game ends when one player holds cards; the full finishing order is recorded."""
    state = GameState.from_hands(["3s 9s", "4s 8s", "5s Ts", "6s 7s Js"], CLASSIC)
    state = run(state, "3s", "4s", "5s", "6s", "9s", "pass", "Ts", "Js", "7s")
    result = result_of(state)
    assert result.finish_order == (0, 2, 3, 1)
    assert result.scores == (1, -3, 1, 1)
    check_stake_result(CLASSIC, result, 4)


def test_classic_has_no_instant_win() -> None:
    """RULES §2.6: classic has no instant wins: four 2s dealt start a normal game."""
    state = GameState.from_hands(["3s 4d", "2s 2c 2d 2h", "5s 6s", "7s 8s"], CLASSIC)
    assert not state.is_over
    assert state.to_act == 0


# -- §5.4, D-14: Vietcong's four 2s ------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_vietcong_four_2s_instant_win_each_other_pays_one_stake(players: int) -> None:
    """RULES §5.4, D-14: a player dealt all four 2s wins at once; every other player pays one stake."""
    hands = ["3s 4d 5c", "2s 2c 2d 2h 9s", "6h 7h 8h", "Ts Jc Qd"][:players]
    state = GameState.from_hands(hands, VIETCONG)
    result = result_of(state)
    assert result.instant_win is InstantWin.FOUR_TWOS
    assert result.winner == 1
    assert result.scores == tuple(players - 1 if p == 1 else -1 for p in range(players))
    assert sorted(item.payer for item in result.items if item.payer is not None) == [
        p for p in range(players) if p != 1
    ]
    assert all(item == stake(1, item.payer or 0) for item in result.items)
    assert state.history == ()
    check_stake_result(VIETCONG, result, players)


def test_vietcong_has_only_the_four_2s_instant_win() -> None:
    """RULES §5.4: six pairs or a dragon are not instant wins in Vietcong."""
    six_pairs = "3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s"
    dragon = "3h 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah 2c"
    state = GameState.from_hands([six_pairs, dragon], VIETCONG)
    assert not state.is_over


def test_vietcong_loser_pays_each_otherwise() -> None:
    """RULES §5.4: without an instant win, Vietcong pays as classic (loser pays each)."""
    state = GameState.from_hands(["3s 7s", "4s 8s", "5s 9s", "6s Ts Js"], VIETCONG)
    result = result_of(run(state, "3s", "4s", "5s", "6s", "7s", "8s", "9s"))
    assert result.scores == (1, 1, 1, -3)


# -- §4.1, §4.4: Kenneth Lo with three players -------------------------------------


def test_kenneth_lo_three_players_first_out_wins_two_stakes() -> None:
    """RULES §4.1, §4.4: three players hold 18/17/17; the first out gains 2, each other pays 1."""
    state = GameState.deal(KENNETH_LO, 3, 2024)
    assert sorted(len(hand) for hand in state.hands) == [17, 17, 18]
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    result = result_of(state)
    assert len(result.finish_order) == 3
    assert result.scores[result.winner] == 2
    check_stake_result(KENNETH_LO, result, 3)


# -- properties --------------------------------------------------------------------


@given(
    rules=st.sampled_from(STAKE_VARIANTS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_stake_scores_sum_to_zero(rules: BaseRules, players: int, seed: int) -> None:
    """RULES §2.5, §4.4, §5.4: stakes change hands, so every stakes game sums to 0."""
    check_stake_result(rules, result_of(random_game(rules, players, seed)), players)


def test_stake_scores_over_many_games() -> None:
    """RULES §2.1, §2.5, §4.4, §5.4: the stake invariants over 100 seeded games per variant, 2–4 players (and 6 on two decks)."""
    for rules in STAKE_VARIANTS:
        for seed in range(100):
            players = 2 + seed % 3
            play = mixed_game if seed % 2 else random_game
            check_stake_result(rules, result_of(play(rules, players, seed)), players)
    for seed in range(10):
        check_stake_result(
            CLASSIC_TWO_DECKS, result_of(random_game(CLASSIC_TWO_DECKS, 6, seed)), 6
        )


def test_a_game_that_paid_nothing_in_play_shares_its_result() -> None:
    """Equal places give one shared result; a scorer's own trick-end items still count."""
    finish = Finish(order=(2, 0, 1), hands=(Hand(0), Hand.parse("4d"), Hand(0)))
    first = StakeScorer().settle(CLASSIC, finish)
    again = StakeScorer().settle(CLASSIC, Finish(order=(2, 0, 1), hands=finish.hands))
    assert again is first
    assert first.items == (stake(2, 1), stake(0, 1))
    winner_paid = StakeScorer(each_pays_winner=True).settle(CLASSIC, finish)
    assert winner_paid.items == (stake(2, 0), stake(2, 1))

    class Bonus(StakeScorer):
        def on_trick_end(self, chain: ChopChain | None) -> tuple[ScoreItem, ...]:
            del chain
            return (ScoreItem(kind=ScoreKind.PLACE, player=2, points=5),)

    bonus = Bonus().settle(CLASSIC, finish)
    assert bonus.scores == (1, -2, 6)
    assert StakeScorer().settle(CLASSIC, finish) is first


@pytest.mark.parametrize(
    ("order", "frozen", "problem"),
    [
        ((0, 1), (), "every seat 0-2 once"),
        ((0, 1, 1), (), "every seat 0-2 once"),
        ((0, 1, 3), (), "every seat 0-2 once"),
        ((1, 0, 2), (1,), r"other than first place \(seat 1\)"),
        ((1, 0, 2), (2, 2), "distinct seats"),
        ((1, 0, 2), (5,), "other than first place"),
    ],
)
def test_a_finish_is_every_seat_once_and_first_place_is_never_frozen(
    order: tuple[int, ...], frozen: tuple[int, ...], problem: str
) -> None:
    """RULES §6.6.3: a scorer is never asked to settle places no game ends with."""
    hands = (Hand(0), Hand.parse("4d"), Hand.parse("5h"))
    with pytest.raises(InvalidArgumentError, match=problem):
        Finish(order=order, hands=hands, frozen=frozen)
    assert Finish(order=(1, 0, 2), hands=hands, frozen=(2,)).frozen == (2,)
