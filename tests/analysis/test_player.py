"""`AnalysisPlayer`: the analysis's choice, exact where every hand can be known."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    VIETCONG,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    Player,
    RuleSet,
    play_game,
    simulate,
)
from tienlen.analysis import AnalysisPlayer, SolverLimitError, make_puzzle


def two_left(rules: RuleSet, games: int) -> Iterator[GameState]:
    """The decisions of 4-player Greedy games once two players are left."""
    greedy = GreedyPlayer()
    for seed in range(games):
        deal = GameState.deal(rules, 4, seed)
        final = play_game(deal, [greedy] * 4, random.Random(seed))
        state = deal
        for action in final.history:
            left = sum(state.in_game(seat) for seat in range(4))
            if left == 2 and len(state.legal_actions()) > 1:
                yield state
            state = state.apply(action)


@pytest.mark.parametrize("rules", [CLASSIC, VIETCONG])
def test_it_finds_the_unique_winning_play_where_every_hand_is_known(
    rules: RuleSet,
) -> None:
    """One deck dealt out, two left: it solves, so it plays each puzzle's answer.

    The puzzles kept are those Greedy misses, and the bot's sampled values would
    weigh Greedy's choice alone (``max_candidates=1``): only the solver finds them.
    """
    bot = AnalysisPlayer(budget=1, max_candidates=1)
    greedy = GreedyPlayer()
    found = 0
    for state in two_left(rules, 120):
        try:
            puzzle = make_puzzle(state)
        except SolverLimitError:
            continue
        if puzzle is None:
            continue
        seen = Observation.of(state, puzzle.seat)
        actions = state.legal_actions()
        if puzzle.is_answer(greedy.act(seen, actions, random.Random(0))):
            continue
        found += 1
        chosen = bot.act(seen, actions, random.Random(found))
        assert puzzle.is_answer(chosen), (puzzle.position, str(chosen))
    assert found >= 3


def test_past_its_node_limit_it_samples() -> None:
    """A search larger than ``max_nodes``: the sampled values decide, no error."""
    bot = AnalysisPlayer(budget=2, max_nodes=1)
    for state in list(two_left(CLASSIC, 3))[:5]:
        assert state.to_act is not None
        seen = Observation.of(state, state.to_act)
        actions = state.legal_actions()
        assert bot.act(seen, actions, random.Random(0)) in actions


@pytest.mark.parametrize("rules", [CLASSIC, POKER])
def test_it_plays_whole_games(rules: RuleSet) -> None:
    """Against Greedy (Poker: jump-ins too), to the end; reproducible from the seed."""
    players: list[Player] = [AnalysisPlayer(budget=2, max_candidates=3), GreedyPlayer()]
    first = simulate(2, rules=rules, players=players, seed=3)
    again = simulate(2, rules=rules, players=players, seed=3)
    assert first.games == 2
    assert first == again


def test_it_refuses_bad_settings_and_pickles() -> None:
    """Budgets below 1, junk types: refused; a bot pickles to an equal one."""
    with pytest.raises(InvalidArgumentError):
        AnalysisPlayer(budget=0)
    with pytest.raises(TypeError):
        AnalysisPlayer(max_nodes="many")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AnalysisPlayer().act("seen", [], random.Random())  # type: ignore[arg-type]
    bot = AnalysisPlayer(budget=3)
    assert pickle.loads(pickle.dumps(bot)) == bot  # noqa: S301 - our own object
