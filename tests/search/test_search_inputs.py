"""Bad arguments to the search bots and `sample_world` are library errors (issue 20 §9).

A wrong type is a ``TypeError``; a bad value a `TienLenError` that is also a
``ValueError``. Each is refused when the bot is built or the world asked for, never
later in a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from tienlen import (
    CLASSIC,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    Player,
    TienLenError,
)
from tienlen.search import ISMCTSPlayer, PIMCPlayer, sample_world
from tienlen.search.sampling import SamplingError

SEEN = Observation.of(GameState.deal(CLASSIC, players=4, seed=1), 0)


@pytest.mark.parametrize("seat", [4, 7, -1, 100])
def test_a_seat_not_at_the_table_is_a_sampling_error(seat: int) -> None:
    """An observation from seat 7 of four is inconsistent, not an ``IndexError``."""
    with pytest.raises(SamplingError, match=f"seat {seat} at a table of 4") as caught:
        sample_world(attrs.evolve(SEEN, seat=seat), random.Random(0))
    assert isinstance(caught.value, TienLenError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("seat", ["0", 0.0, None, True])
def test_a_seat_of_another_type_is_a_type_error(seat: object) -> None:
    """A seat that is not an int is a ``TypeError``."""
    with pytest.raises(TypeError, match="seat"):
        sample_world(attrs.evolve(SEEN, seat=seat), random.Random(0))  # type: ignore[arg-type]


BUILDS: list[tuple[Callable[[], object], type[Exception], str]] = [
    (lambda: ISMCTSPlayer(root="x"), InvalidArgumentError, "root must be"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(root=1), TypeError, "root must be"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(rollout=None), TypeError, "rollout must be"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(first_game=1), TypeError, "first_game"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(exploration="1"), TypeError, "exploration"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(exploration=-1.0), InvalidArgumentError, "exploration"),
    (lambda: PIMCPlayer(rollout=None), TypeError, "rollout must be"),  # type: ignore[arg-type]
    (lambda: PIMCPlayer(rollout="greedy"), TypeError, "rollout must be"),  # type: ignore[arg-type]
    (lambda: PIMCPlayer(first_game="yes"), TypeError, "first_game"),  # type: ignore[arg-type]
    (lambda: GreedyPlayer(danger=None), TypeError, "danger must be an int"),  # type: ignore[arg-type]
    (lambda: GreedyPlayer(danger=True), TypeError, "danger must be an int"),
    (lambda: GreedyPlayer(danger=2.0), TypeError, "danger must be an int"),  # type: ignore[arg-type]
    (lambda: GreedyPlayer(danger=-1), InvalidArgumentError, "danger must be at least 0"),
]  # fmt: skip


@pytest.mark.parametrize(("build", "error", "message"), BUILDS)
def test_bad_bot_settings_are_refused_when_built(
    build: Callable[[], object], error: type[Exception], message: str
) -> None:
    """`ISMCTSPlayer`, `PIMCPlayer` and `GreedyPlayer` check their settings at once."""
    with pytest.raises(error, match=message) as caught:
        build()
    if error is not TypeError:
        assert isinstance(caught.value, TienLenError)
        assert isinstance(caught.value, ValueError)


def test_good_bot_settings_are_kept() -> None:
    """The settings the checks admit build bots that play."""
    state = GameState.deal(CLASSIC, players=2, seed=22)
    seen, actions = Observation.of(state, state.to_act), state.legal_actions()  # type: ignore[arg-type]
    bots: list[Player] = [
        GreedyPlayer(danger=0),
        ISMCTSPlayer(root="ucb", iterations=4, rollout=GreedyPlayer(danger=5)),
        PIMCPlayer(worlds=1, first_game=True, rollout=GreedyPlayer()),
    ]
    for bot in bots:
        assert bot.act(seen, actions, random.Random(0)) in actions
