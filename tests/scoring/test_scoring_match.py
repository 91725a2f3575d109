"""Matches: series of games with a dealer, a leader and running totals.

RULES §1.5 (a match is a series of games), §2.1 (the first dealer is random, then the
loser deals), §2.4 (the previous winner leads later games), §4.1 and D-8 (Kenneth Lo's
spare card goes to the starter), §5.3 (Vietcong: 3♠ leads every game) and §6.5 with D-16
(Poker: first place leads; after an instant win, 3♠ does).
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tienlen
from examples import poker_match
from tests.scoring.scoring_helpers import ChooseFn, result_of, seeded_chooser
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    Action,
    BaseRules,
    Card,
    GameResult,
    GameState,
    IllegalPlayError,
    InstantWin,
    InvalidRulesError,
    InvalidStateError,
    Match,
    Pass,
    ScoreItem,
    ScoreKind,
    TienLenError,
)

PRESETS = tuple(RULESETS.values())
THREE_SPADES = Card.parse("3s")


def first_action(state: GameState, actions: object) -> Action:
    """Always the first legal action (the lowest play)."""
    del state
    assert isinstance(actions, tienlen.Actions)
    return actions[0]


def play_by_hand(
    match: Match, count: int, choose: ChooseFn
) -> tuple[Match, list[GameState]]:
    """Play *count* games with `Match.deal` and `Match.record`, keeping every final state."""
    states: list[GameState] = []
    for _ in range(count):
        state = match.deal()
        while not state.is_over:
            state = state.apply(choose(state, state.legal_actions()))
        match = match.record(state)
        states.append(state)
    return match, states


def finished(state: GameState) -> GameState:
    """*state* played to the end with the first legal action each time."""
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


# -- reproducibility ---------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_same_seed_same_match(rules: BaseRules) -> None:
    """RULES §1.5: a match is reproducible from its seed: same deals and results with a seeded chooser."""
    one, states_one = play_by_hand(Match.start(rules, 4, seed=99), 6, seeded_chooser(5))
    two, states_two = play_by_hand(Match.start(rules, 4, seed=99), 6, seeded_chooser(5))
    assert one == two
    assert [s.dealt for s in states_one] == [s.dealt for s in states_two]
    assert [s.history for s in states_one] == [s.history for s in states_two]
    assert one.games == tuple(result_of(s) for s in states_one)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_play_games_is_deal_and_record(rules: BaseRules) -> None:
    """RULES §1.5: `play_games` plays exactly what `deal` + `record` play with the same choices."""
    by_hand, _ = play_by_hand(Match.start(rules, 3, seed=7), 5, seeded_chooser(1))
    assert Match.start(rules, 3, seed=7).play_games(5, seeded_chooser(1)) == by_hand


def test_deals_depend_only_on_the_seed_and_the_game_index() -> None:
    """RULES §1.5: the shuffle of game k depends on (seed, k) only, not on how earlier games went."""
    one, states_one = play_by_hand(Match.start(POKER, 4, seed=3), 5, seeded_chooser(1))
    two, states_two = play_by_hand(Match.start(POKER, 4, seed=3), 5, first_action)
    assert one.games != two.games
    assert [s.dealt for s in states_one] == [s.dealt for s in states_two]


def test_deal_uses_a_string_seeded_rng() -> None:
    """RULES §2.1: game k is shuffled by random.Random(f"tienlen-match:{seed}:{k}"), the same on every machine."""
    match = Match.start(CLASSIC, 4, seed=12345)
    expected = GameState.deal(
        CLASSIC, 4, random.Random("tienlen-match:12345:0"), dealer=match.first_dealer
    )
    assert match.deal() == expected
    assert str(match.deal().dealt[0]) == str(expected.dealt[0])
    later = match.play(first_action)
    expected_later = GameState.deal(
        CLASSIC,
        4,
        random.Random("tienlen-match:12345:1"),
        first_game=False,
        leader=later.games[0].winner,
        dealer=later.games[0].loser,
    )
    assert later.deal() == expected_later


def test_different_seeds_deal_differently() -> None:
    """RULES §2.1: the seed is the match's identity: other seeds, other deals."""
    deals = {Match.start(POKER, seed=seed).deal().dealt for seed in range(20)}
    assert len(deals) == 20


def test_unseeded_match_stores_its_seed() -> None:
    """RULES §2.1: with no seed one is drawn and stored, so the match can be replayed."""
    match = Match.start(POKER)
    assert isinstance(match.seed, int)
    again = Match.start(POKER, seed=match.seed)
    assert again == match
    assert again.deal() == match.deal()
    assert Match.start(POKER).seed != match.seed


def test_first_dealer_is_random_but_seeded() -> None:
    """RULES §2.1: the first dealer is random, drawn from the seed."""
    dealers = [Match.start(CLASSIC, 4, seed=seed).first_dealer for seed in range(40)]
    assert dealers == [Match.start(CLASSIC, 4, seed=s).first_dealer for s in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    match = Match.start(CLASSIC, 4, seed=0)
    assert match.next_dealer == match.first_dealer


def test_first_dealer_decides_between_two_3s_holders() -> None:
    """RULES §2.4: with two decks, the 3♠ holder first in play direction from the dealer leads."""
    checked = 0
    for seed in range(30):
        match = Match.start(CLASSIC_TWO_DECKS, 6, seed=seed)
        state = match.deal()
        holders = [p for p, hand in enumerate(state.hands) if THREE_SPADES in hand]
        if len(holders) < 2:
            continue
        dealer = match.first_dealer
        expected = min(holders, key=lambda p: (p - dealer - 1) % 6)
        assert state.to_act == expected
        assert state.must_include == THREE_SPADES
        checked += 1
    assert checked >= 5


# -- who deals and who leads --------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_the_loser_deals_next(rules: BaseRules) -> None:
    """RULES §2.1: afterwards the loser of a game deals the next."""
    match = Match.start(rules, 4, seed=21)
    for _ in range(6):
        match = match.play(seeded_chooser(match.game_count))
        assert match.next_dealer == match.games[-1].loser


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO], ids=lambda r: r.name
)
def test_previous_winner_leads_any_combination(rules: BaseRules) -> None:
    """RULES §2.4 (§3, §4): later games are led by the previous winner, the first player out, with anything."""
    match = Match.start(rules, 4, seed=8)
    assert match.next_leader is None  # 3♠ leads the first game
    first = match.deal()
    assert first.must_include == THREE_SPADES
    assert THREE_SPADES in first.hands[first.to_act or 0]
    for _ in range(6):
        match = match.play(seeded_chooser(match.game_count))
        winner = match.games[-1].winner
        assert winner == match.games[-1].finish_order[0]
        assert match.next_leader == winner
        state = match.deal()
        assert state.to_act == winner
        assert state.must_include is None


def test_vietcong_3s_leads_every_game() -> None:
    """RULES §5.3: in every Vietcong game the holder of 3♠ (or of the lowest dealt card) leads with it."""
    for players in (3, 4):
        match = Match.start(VIETCONG, players, seed=17)
        for _ in range(6):
            assert match.next_leader is None
            state = match.deal()
            if not state.is_over:
                card = state.must_include
                assert card is not None
                assert card in state.hands[state.to_act or 0]
                lowest = min(c for hand in state.hands for c in hand)
                assert card == lowest
            match = match.play(seeded_chooser(match.game_count))


def test_poker_first_place_leads_the_next_game() -> None:
    """RULES §6.5: later Poker games are led by the previous first place, with anything."""
    match = Match.start(POKER, 4, seed=5)
    for _ in range(8):
        match = match.play(seeded_chooser(match.game_count))
        last = match.games[-1]
        state = match.deal()
        if last.instant_win is None and not state.is_over:
            assert match.next_leader == last.finish_order[0]
            assert state.to_act == last.finish_order[0]
            assert state.must_include is None


def test_poker_3s_leads_after_an_instant_win() -> None:
    """RULES §6.5, D-16: after a Poker game ended by an instant win, the 3♠ holder leads with 3♠."""
    found = 0
    for seed in range(60):
        match = Match.start(POKER, 4, seed=seed)
        for _ in range(6):
            match = match.play(first_action)
            if match.game_count < 2 or match.games[-1].instant_win is None:
                continue
            assert match.next_leader is None
            state = match.deal()
            if state.is_over:
                continue
            assert state.must_include == THREE_SPADES
            assert THREE_SPADES in state.hands[state.to_act or 0]
            winner = match.games[-1].winner
            holder = state.to_act
            if holder != winner:
                found += 1
        if found >= 3:
            break
    assert found >= 3


def test_kenneth_lo_three_players_spare_card_goes_to_the_starter_every_game() -> None:
    """RULES §4.1, D-8: three players; in every game the starter holds 18 cards and leads freely."""
    match = Match.start(KENNETH_LO, 3, seed=31)
    for _ in range(10):
        state = match.deal()
        sizes = [len(hand) for hand in state.hands]
        assert sorted(sizes) == [17, 17, 18]
        starter = sizes.index(18)
        assert state.to_act == starter
        assert state.must_include is None
        if match.game_count == 0:
            assert (
                THREE_SPADES in state.hands[starter]
            )  # 3♠ holder, or gets it as spare
        else:
            assert starter == match.games[-1].winner == match.next_leader
        match = match.record(finished(state))
        assert len(match.games[-1].finish_order) == 3


# -- record() ---------------------------------------------------------------------


def test_record_refuses_a_game_that_is_not_over() -> None:
    """RULES §1.5: only finished games are recorded; the match is unchanged."""
    match = Match.start(CLASSIC, seed=4)
    state = match.deal().apply(match.deal().legal_actions()[0])
    with pytest.raises(InvalidStateError, match="game 1 is not over"):
        match.record(state)
    assert match.game_count == 0


def test_record_refuses_a_game_dealt_elsewhere() -> None:
    """RULES §1.5: a recorded game must be the one this match dealt."""
    match = Match.start(CLASSIC, seed=4)
    other = finished(Match.start(CLASSIC, seed=5).deal())
    with pytest.raises(InvalidStateError, match="was not dealt by this match"):
        match.record(other)
    loose = finished(GameState.deal(CLASSIC, 4, 4))
    with pytest.raises(InvalidStateError, match="was not dealt by this match"):
        match.record(loose)


def test_record_refuses_the_same_game_twice() -> None:
    """RULES §1.5: game 2 has its own deal; game 1 cannot be recorded again."""
    match = Match.start(POKER, seed=4)
    game = finished(match.deal())
    match = match.record(game)
    with pytest.raises(InvalidStateError, match="game 2 was not dealt by this match"):
        match.record(game)
    assert match.game_count == 1


def test_record_refuses_other_rules() -> None:
    """RULES §11: every game of a match is played under the match's rules."""
    match = Match.start(CLASSIC, seed=4)
    dealt = match.deal().dealt
    other = finished(GameState.from_hands(dealt, JUSTUS_PANG))
    with pytest.raises(
        InvalidStateError, match="under 'justus-pang', the match under 'classic'"
    ):
        match.record(other)
    house = attrs.evolve(CLASSIC, twos_in_straights=False)
    same_name = finished(GameState.from_hands(dealt, house))
    with pytest.raises(InvalidStateError, match="other settings of 'classic'"):
        match.record(same_name)


def test_record_refuses_another_table_size() -> None:
    """RULES §2.1: a match keeps its number of players."""
    match = Match.start(CLASSIC, 4, seed=4)
    with pytest.raises(InvalidStateError, match="game 1 has 3 players, the match 4"):
        match.record(finished(Match.start(CLASSIC, 3, seed=4).deal()))


def test_record_refuses_a_game_with_the_wrong_leader() -> None:
    """RULES §2.4: the dealt hands alone are not enough: game 2 must be led by the previous winner."""
    match = Match.start(CLASSIC, seed=4).play(first_action)
    expected = match.deal()
    wrong = next(p for p in range(4) if p != expected.to_act)
    state = GameState.from_hands(
        expected.dealt, CLASSIC, first_game=False, leader=wrong
    )
    with pytest.raises(InvalidStateError, match="not set up as this match deals it"):
        match.record(finished(state))
    assert match.game_count == 1


def test_record_refuses_a_history_that_does_not_follow() -> None:
    """RULES §1.5: the game's actions are replayed from the match's deal; an illegal one is refused."""
    match = Match.start(CLASSIC, seed=4)
    state = finished(match.deal())
    tampered = (None, Pass(player=state.history[0].player))  # a one-action history
    moved = state._derive({"_log": tampered})
    with pytest.raises(InvalidStateError, match="action 1 is illegal"):
        match.record(moved)


def test_record_refuses_a_tampered_result() -> None:
    """RULES §2.5: the recorded result is the one the game's history leads to."""
    match = Match.start(CLASSIC, seed=4)
    state = finished(match.deal())
    fake = GameResult.from_items(
        players=4,
        finish_order=(0, 1, 2, 3),
        items=[ScoreItem(kind=ScoreKind.STAKE, player=0, payer=3, points=9)],
    )
    with pytest.raises(InvalidStateError, match="its history leads to another state"):
        match.record(state._derive({"result": fake}))


def test_record_errors_are_value_errors() -> None:
    """STYLE R36: InvalidStateError is a TienLenError and a ValueError."""
    with pytest.raises(TienLenError):
        Match.start(CLASSIC, seed=4).record(Match.start(CLASSIC, seed=4).deal())
    with pytest.raises(ValueError, match="not over"):
        Match.start(CLASSIC, seed=4).record(Match.start(CLASSIC, seed=4).deal())


def test_record_accepts_the_dealt_game() -> None:
    """RULES §1.5: recording the dealt game, played to the end, adds its result."""
    match = Match.start(VIETCONG, seed=6)
    state = finished(match.deal())
    recorded = match.record(state)
    assert recorded.games == (state.result,)
    assert recorded == match.play(first_action)
    assert match.game_count == 0  # the original is unchanged


def test_record_accepts_an_instant_win() -> None:
    """RULES §6.7: a game ended at the deal is over and recorded as it is."""
    for seed in range(200):
        match = Match.start(POKER, seed=seed)
        state = match.deal()
        if state.is_over:
            recorded = match.record(state)
            assert recorded.games[0].instant_win is not None
            assert recorded.totals == result_of(state).scores
            return
    pytest.fail("no instant win in 200 seeds")  # pragma: no cover


# -- play() -----------------------------------------------------------------------


def test_play_refuses_an_illegal_choice() -> None:
    """RULES §1.5.1: the chooser's actions are refereed; a leader cannot pass."""

    def always_pass(state: GameState, actions: object) -> Action:
        del actions
        return Pass(player=state.to_act or 0)

    match = Match.start(CLASSIC, seed=4)
    with pytest.raises(IllegalPlayError):
        match.play(always_pass)
    assert match.game_count == 0


# -- totals and the table -----------------------------------------------------------


@given(
    rules=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
)
def test_totals_are_the_sum_of_the_games(
    rules: BaseRules, seed: int, players: int
) -> None:
    """RULES §1.5: a match's totals are the sum of its games' scores."""
    match = Match.start(rules, players, seed=seed).play_games(3, seeded_chooser(seed))
    assert match.game_count == len(match.games) == 3
    assert match.totals == tuple(
        sum(result.scores[p] for result in match.games) for p in range(players)
    )
    if rules is not POKER:
        assert sum(match.totals) == 0


def test_table_shows_each_game_and_the_totals() -> None:
    """RULES §6.6: the score table has one row per game and a totals row."""
    match = Match.start(POKER, 4, seed=7).play_games(3, first_action)
    table = match.table()
    lines = table.splitlines()
    assert lines[0] == "poker, 4 players, seed 7"
    assert lines[1].split() == ["game", "p0", "p1", "p2", "p3", "order"]
    assert len(lines) == 2 + 3 + 1
    for number, (line, result) in enumerate(
        zip(lines[2:5], match.games, strict=True), 1
    ):
        fields = line.split()
        assert fields[0] == str(number)
        assert [int(f) for f in fields[1:5]] == list(result.scores)
        assert [int(f) for f in fields[5:9]] == list(result.finish_order)
    assert lines[-1].split()[0] == "total"
    assert [int(f) for f in lines[-1].split()[1:]] == list(match.totals)
    assert str(match) == table
    assert table.splitlines() == [
        "poker, 4 players, seed 7",
        "game      p0    p1    p2    p3  order",
        "   1      +4    +1    +2     0  0 2 1 3",
        "   2      +8    -4    +1    +2  0 3 2 1",
        "   3      +4    +2     0    +1  0 1 3 2",
        "total    +16    -1    +3    +3",
    ]


def test_table_notes_instant_wins_and_frozen_players() -> None:
    """RULES §6.6.3, §6.7: the table notes an instant win and frozen players."""
    instant = GameResult.from_items(
        players=4,
        finish_order=(2, 1, 0, 3),
        items=[ScoreItem(kind=ScoreKind.INSTANT_WIN, player=2, points=12)],
        instant_win=InstantWin.SIX_PAIRS,
    )
    frozen = GameResult.from_items(
        players=4,
        finish_order=(0, 1, 3, 2),
        items=[
            ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=3, points=5),
            ScoreItem(kind=ScoreKind.PLACE, player=0, points=4),
            ScoreItem(kind=ScoreKind.PLACE, player=1, points=2),
        ],
        frozen=(3, 2),
    )
    match = Match(rules=POKER, players=4, seed=0, games=(instant, frozen))
    assert match.table().splitlines()[2:] == [
        "   1       0     0   +12     0  2 1 0 3  instant win: six-pairs",
        "   2      +9    +2     0    -5  0 1 3 2  frozen: 3 2",
        "total     +9    +2   +12    -5",
    ]


def test_empty_table() -> None:
    """RULES §1.5: a match with no games has a header and zero totals."""
    assert Match.start(CLASSIC, 2, seed=1).table().splitlines() == [
        "classic, 2 players, seed 1",
        "game      p0    p1  order",
        "total      0     0",
    ]


# -- the value object -----------------------------------------------------------------


def test_match_is_immutable_and_hashable() -> None:
    """STYLE R7: a Match is a frozen attrs value; play returns a new one."""
    match = Match.start(POKER, seed=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        match.seed = 2  # type: ignore[misc]
    played = match.play(first_action)
    assert match.game_count == 0
    assert played.game_count == 1
    assert len({match, played, Match.start(POKER, seed=1)}) == 2


def test_match_rejects_bad_settings() -> None:
    """RULES §2.1, §6.1: the table size must suit the rules; the first dealer must be a player."""
    with pytest.raises(InvalidRulesError):
        Match.start(POKER, 5, seed=1)
    with pytest.raises(InvalidRulesError):
        Match.start(CLASSIC, 0, seed=1)
    with pytest.raises(InvalidStateError, match="first dealer 4 is not a player"):
        Match(rules=CLASSIC, players=4, seed=1, first_dealer=4)
    result = GameResult.from_items(players=3, finish_order=(0, 1, 2), items=[])
    with pytest.raises(InvalidStateError, match="game 1 has 3 players, the match 4"):
        Match(rules=CLASSIC, players=4, seed=1, games=(result,))


def test_match_is_exported() -> None:
    """STYLE R4: Match is part of the public API."""
    assert "Match" in tienlen.__all__
    assert tienlen.Match is Match


def test_poker_match_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES §6.6–§6.7: examples/poker_match.py plays ten seeded games and prints the table."""
    assert poker_match.main(["2024"]) == 0
    out = capsys.readouterr().out
    assert "Game 10:" in out
    assert "instant-win: player 3 scores 12" in out
    assert out.rstrip().splitlines()[-1] == "total    +22   +14   +23   +16"
