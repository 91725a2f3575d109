"""The events a turn policy is told (`AfterPlay`, `AfterPass`) refuse bad fields (issue 21).

The engine builds them only when its turn table meets a new question, so checking
their fields costs nothing per decision; a policy's own tests that build events get a
clear error instead of a policy answering nonsense.
"""

from __future__ import annotations

import pickle

import pytest

from tienlen import ComboKind, InvalidArgumentError, Rank
from tienlen.policies import AfterPass, AfterPlay


def test_events_take_what_the_engine_gives() -> None:
    """Every field as the engine sets it is accepted, and an event pickles."""
    play = AfterPlay(
        player=1, locked=0b0101, out=0, previous=None, bomb=True, chop=False,
        kind=ComboKind.PAIR, size=2, rank=Rank.TWO,
    )  # fmt: skip
    assert play.kind is ComboKind.PAIR
    assert pickle.loads(pickle.dumps(play)) == play  # noqa: S301 - our own bytes
    assert AfterPass(player=0, last=None, locked=0, out=0b0010).last is None


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"player": True}, TypeError),
        ({"player": 1.0}, TypeError),
        ({"player": -1}, InvalidArgumentError),
        ({"locked": "0"}, TypeError),
        ({"out": -2}, InvalidArgumentError),
        ({"previous": False}, TypeError),
        ({"previous": -1}, InvalidArgumentError),
        ({"bomb": 1}, TypeError),
        ({"chop": "yes"}, TypeError),
        ({"kind": 2}, TypeError),
        ({"size": True}, TypeError),
        ({"rank": 15}, TypeError),
    ],
)
def test_a_play_event_refuses_a_bad_field(
    fields: dict[str, object], error: type[Exception]
) -> None:
    """A seat or mask that is no `int` or is negative, a fact of another type: refused."""
    given: dict[str, object] = {"player": 0, "locked": 0, "out": 0, **fields}
    with pytest.raises(error, match=next(iter(fields))):
        AfterPlay(**given)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"player": None}, TypeError),
        ({"last": 1.5}, TypeError),
        ({"last": -3}, InvalidArgumentError),
        ({"locked": True}, TypeError),
    ],
)
def test_a_pass_event_refuses_a_bad_field(
    fields: dict[str, object], error: type[Exception]
) -> None:
    """A pass's seats and masks are checked as a play's are (``last`` may be ``None``)."""
    given: dict[str, object] = {"player": 0, "last": 1, "locked": 0, "out": 0, **fields}
    with pytest.raises(error, match=next(iter(fields))):
        AfterPass(**given)  # type: ignore[arg-type]
