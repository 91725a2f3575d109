"""`Seating` refuses what no table has, before it precomputes anything (issue 14)."""

from __future__ import annotations

import pytest

from tienlen.errors import InvalidArgumentError
from tienlen.policies import Seating


@pytest.mark.parametrize(
    ("step", "players", "error"),
    [
        (True, 4, TypeError),  # a bool is not a direction
        (1, 4.0, TypeError),
        ("1", 4, TypeError),
        (2, 4, InvalidArgumentError),
        (1, 1, InvalidArgumentError),
        (1, 9, InvalidArgumentError),
        (1, 2**70, InvalidArgumentError),  # would build a table of 2**(2**70) rows
    ],
)
def test_a_seating_no_table_has_is_refused(
    step: object, players: object, error: type[Exception]
) -> None:
    """Two to eight seats (RULES §2.1), clockwise or counter-clockwise (§1.5.6)."""
    with pytest.raises(error):
        Seating(step, players)  # type: ignore[arg-type]


def test_every_table_size_seats_in_both_directions() -> None:
    """RULES §1.5.6: the next seat clockwise is +1, counter-clockwise -1."""
    for players in range(2, 9):
        assert Seating(1, players).order_from(0) == tuple(range(players))
        assert Seating(-1, players).order_from(0) == (
            0,
            *range(players - 1, 0, -1),
        )
