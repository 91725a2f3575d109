"""The analysis's values where every hand is known: the solver's, exactly.

With one deck dealt out among four players, once two are left each knows the other's
hand, and every world `sample_world` draws is the true position. There the values of
`value_actions` with *endgame_nodes* are the solver's exact values (issue 37's target
"analysis values converge to the solver's"), at any budget.
"""

from __future__ import annotations

import random

import pytest

from tienlen import (
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    RandomPlayer,
    get_rules,
)
from tienlen.analysis import solve
from tienlen.analysis.values import ENDGAME_NODES, value_actions
from tienlen.players import Player
from tienlen.search.rollouts import is_declined_jump_in

PRESETS = ("classic", "justus-pang", "vietcong", "poker")
"""The presets whose four-player deal is one whole deck (Kenneth Lo's game ends when
the first player goes out, so it has no two-player ending)."""


def known_ending(preset: str, seed: int) -> GameState | None:
    """A four-player deal played by bots until two are left with at most 8 cards each.

    ``None`` if the game ends first.
    """
    rng = random.Random(seed)
    bots: list[Player] = [GreedyPlayer(), RandomPlayer()]
    state = GameState.deal(get_rules(preset), players=4, seed=seed)
    while not state.is_over:
        left = sum(state.in_game(seat) for seat in range(4))
        if left == 2 and max(len(hand) for hand in state.hands) <= 8:
            return state
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(rng.choice(bots).act(Observation.of(state, seat), own, rng))
    return None


def positions() -> list[GameState]:
    """Dozens of known-hands endings, sixteen seeds of each preset."""
    found = [known_ending(preset, seed) for preset in PRESETS for seed in range(16)]
    return [state for state in found if state is not None]


def exact(seat: int, after: GameState) -> tuple[int, int]:
    """The solver's score for *seat* after an action, and who goes out first."""
    if after.result is not None:
        return after.result.scores[seat], after.result.finish_order[0]
    solution = solve(after)
    end = after
    for action in solution.line:
        end = end.apply(action)
    return solution.scores[seat], end.final_result().finish_order[0]


def test_values_are_the_solvers_where_every_hand_is_known() -> None:
    """Every candidate's value is the solver's exact value, with a zero-width interval."""
    found = positions()
    assert len(found) >= 48
    checked = 0
    for state in found:
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        values = value_actions(
            state, seat, budget=3, include=own, endgame_nodes=ENDGAME_NODES
        )
        best = max(exact(seat, state.apply(action))[0] for action in own)
        assert values[0].score.mean == best  # the best action is the solver's
        for value in values:
            if is_declined_jump_in(state, value.action):
                continue  # played out by the rollout policy (documented)
            score, first = exact(seat, state.apply(value.action))
            assert value.score.mean == value.score.low == value.score.high == score
            assert value.first.mean == (first == seat)
            checked += 1
    assert checked >= 100


def test_greedy_play_outs_are_not_the_solvers() -> None:
    """Without *endgame_nodes* the values are Greedy's play-outs: wrong on some endings."""
    wrong = 0
    for state in positions():
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        for value in value_actions(state, seat, budget=2, include=own):
            if not is_declined_jump_in(state, value.action):
                after = state.apply(value.action)
                wrong += value.score.mean != exact(seat, after)[0]
    assert wrong > 0


def three_left(seed: int) -> GameState:
    """A four-player classic deal played by Greedy until three players are left."""
    state = GameState.deal(get_rules("classic"), players=4, seed=seed)
    rng = random.Random(seed)
    while sum(state.in_game(seat) for seat in range(4)) > 3:
        seat = state.to_act
        assert seat is not None
        own = [a for a in state.legal_actions() if a.player == seat]
        state = state.apply(GreedyPlayer().act(Observation.of(state, seat), own, rng))
    return state


def test_endings_reached_in_play_outs_are_solved() -> None:
    """From three players left, play-outs that reach an ending take the solver's value."""
    changed = 0
    for seed in range(6):
        state = three_left(seed)
        seat = state.to_act
        assert seat is not None
        plain = value_actions(state, seat, budget=8, seed=1)
        solved = value_actions(
            state, seat, budget=8, seed=1, endgame_nodes=ENDGAME_NODES
        )
        assert solved == value_actions(
            state, seat, budget=8, seed=1, endgame_nodes=ENDGAME_NODES
        )
        assert {v.action for v in plain} == {v.action for v in solved}
        changed += [v.samples for v in plain] != [v.samples for v in solved]
    assert changed > 0


def test_endgame_nodes_is_checked() -> None:
    """A negative node limit is refused."""
    state = GameState.deal(get_rules("classic"), players=4, seed=1)
    with pytest.raises(InvalidArgumentError, match="endgame_nodes"):
        value_actions(state, 0, budget=1, endgame_nodes=-1)
