"""`tienlen.analysis.solve` against a brute-force max^n written here, and its refusals."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

from tienlen import (
    CLASSIC,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    Action,
    BaseRules,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    Observation,
    TienLenError,
)
from tienlen.analysis import SolverLimitError, solve

Scores = tuple[int, ...]


def brute_force(
    state: GameState, memo: dict[GameState, Scores] | None = None
) -> Scores:
    """Max^n by the definition: every seat asked in turn, every action, no cut-off.

    Jump-in seats are asked in the order `legal_actions` lists them, before the
    player to act; each picks its own best score, ties to the least for the rest,
    then the lowest vector. *memo* only remembers values already computed.
    """
    if state.result is not None:
        return state.result.scores
    memo = {} if memo is None else memo
    if state in memo:
        return memo[state]
    to_act = state.to_act
    actions = list(state.legal_actions())
    assert to_act is not None
    jumpers: list[int] = []
    for action in actions:
        if action.player != to_act and action.player not in jumpers:
            jumpers.append(action.player)
    memo[state] = value = ask(state, actions, [*jumpers, to_act], memo)
    return value


def ask(
    state: GameState,
    actions: list[Action],
    seats: list[int],
    memo: dict[GameState, Scores],
) -> Scores:
    """The value when *seats* are asked in turn (the last is the player to act)."""
    seat, rest = seats[0], seats[1:]
    options = [brute_force(state.apply(a), memo) for a in actions if a.player == seat]
    if rest:  # a jump-in seat may decline
        options.append(ask(state, actions, rest, memo))
    return max(options, key=lambda v: (v[seat], -sum(v), tuple(-x for x in v)))


def random_position(
    rng: random.Random, rules: BaseRules, players: int, size: int
) -> GameState:
    """A random game of *players* hands of *size* cards, a few random actions in."""
    while True:
        cards = rng.sample(DECK, players * size)
        hands = [cards[i * size : (i + 1) * size] for i in range(players)]
        try:
            state = GameState.from_hands(
                [" ".join(map(str, h)) for h in hands],
                rules,
                first_game=rng.random() < 0.5,
            )
        except InvalidStateError:
            continue
        for _ in range(rng.randrange(4)):
            if state.is_over:
                break
            state = state.apply(rng.choice(list(state.legal_actions())))
        if not state.is_over:
            return state


def check_against_brute_force(
    seed: int, count: int, shapes: Sequence[tuple[int, int]]
) -> None:
    """Solve *count* random positions of *shapes*; compare with `brute_force`."""
    rng = random.Random(seed)
    for number in range(count):
        rules = list(RULESETS.values())[number % len(RULESETS)]
        players, size = shapes[number % len(shapes)]
        state = random_position(rng, rules, players, size)
        solution = solve(state)
        assert solution.scores == brute_force(state), state.notation()
        end = state
        for action in solution.line:
            end = end.apply(action)
        assert end.result is not None
        assert end.result.scores == solution.scores


SMALL = [(2, 3), (2, 4), (3, 2), (4, 2)]
"""(players, cards each) of the quick test's positions."""
LARGER = [*SMALL, (2, 5), (2, 6), (3, 3)]
"""Up to 6 + 6 cards: the slow test's."""


def test_solver_equals_brute_force_on_small_positions() -> None:
    """Every preset, 2-4 players, a few cards each: the exact value."""
    check_against_brute_force(seed=37, count=400, shapes=SMALL)


@pytest.mark.slow
def test_solver_equals_brute_force_up_to_six_and_six() -> None:
    """1,600 positions up to 6 + 6 cards (2,000 with the quick test)."""
    check_against_brute_force(seed=38, count=1600, shapes=LARGER)


def test_every_preset_is_tried() -> None:
    """The positions cycle through every preset (the five named here)."""
    assert {r.name for r in (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER)} <= {
        r.name for r in RULESETS.values()
    }


def test_two_left_of_four_is_solved_as_a_duel() -> None:
    """Two players left of four: the duel search agrees with max^n."""
    state = GameState.from_hands(["3s", "4s", "5s 9h 9d", "6s 7c Kd"], CLASSIC)
    state = state.play("3s").play("4s")
    assert sum(state.in_game(seat) for seat in range(4)) == 2
    assert solve(state).scores == brute_force(state)


def test_refuses_an_observation() -> None:
    """Hidden hands cannot be solved: a clear error, not a crash."""
    state = GameState.deal(CLASSIC, players=4, seed=1)
    with pytest.raises(InvalidArgumentError, match="Observation hides"):
        solve(Observation.of(state, 0))  # type: ignore[arg-type]


def test_refuses_a_finished_game_and_a_bad_limit() -> None:
    """Nothing to solve, or no search allowed."""
    over = GameState.from_hands(["3s", "5d 6d"], CLASSIC).play("3s")
    with pytest.raises(InvalidArgumentError, match="game is over"):
        solve(over)
    with pytest.raises(InvalidArgumentError, match="max_nodes"):
        solve(GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC), max_nodes=0)
    with pytest.raises(TypeError):
        solve("3s")  # type: ignore[arg-type]


def test_too_large_a_position_is_refused_with_a_picklable_error() -> None:
    """The node limit stops a search too large, with an error that pickles."""
    state = GameState.deal(CLASSIC, players=4, seed=1)
    with pytest.raises(SolverLimitError, match="more than 50 nodes") as caught:
        solve(state, max_nodes=50)
    assert isinstance(caught.value, TienLenError)
    again = pickle.loads(pickle.dumps(caught.value))  # noqa: S301
    assert type(again) is SolverLimitError
    assert again.args == caught.value.args
