"""Where the library's pickles point: one module whose names never move.

A value's pickle names the function that rebuilds it. Had it named the class's own
module, every move of that class inside the package would have broken the pickles
written before. So the values whose classes live inside the engine (`GameState`,
`GameSetup`, `Play`, `Combo`, `Plays`, `Batch` and a state's rule book) pickle as a call to a
function of this module with plain data, registered with ``copyreg`` when ``tienlen``
is imported. The values of public modules (`Card`, `Hand`, `Pass`, rule sets,
results) pickle by their own module's name, which is public too.

Pickles written before 0.3 name the deprecated modules of 0.1 (``tienlen._context``,
``tienlen._movegen``, ``tienlen.rules._base``), since removed: `loads` and `load`
read them, and any later pickle, as ``pickle.loads`` does.

Example:
    >>> import pickle
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.deal(CLASSIC, players=4, seed=1)
    >>> data = pickle.dumps(state)
    >>> b"tienlen.pickles" in data, b"tienlen.engine" in data
    (True, False)
    >>> loads(data) == state == pickle.loads(data)
    True

.. versionadded:: 0.3
"""

from __future__ import annotations

import copyreg
import importlib
import io
import pickle
from collections.abc import Callable
from typing import IO, Final, TypeAlias, TypeVar

import attrs

from tienlen._checks import short_repr
from tienlen.actions import untrusted_play
from tienlen.batch import Batch
from tienlen.combos import Combo, Plays
from tienlen.engine.rulebook import Context, context_of
from tienlen.errors import InvalidStateError, TienLenError
from tienlen.game import GameSetup, GameState, Play
from tienlen.rules import RuleSet

__all__ = [
    "PickleError",
    "batch",
    "combo",
    "game_setup",
    "game_state",
    "load",
    "loads",
    "play",
    "plays",
]


def game_state(fields: dict[str, object]) -> GameState:
    """The `GameState` of *fields*, as its ``__getstate__`` gives them.

    Raises:
        TypeError: *fields* is not a dict.
        InvalidStateError: *fields* are not a pickled state's.

    Example:
        >>> from tienlen import CLASSIC
        >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
        >>> game_state(state.__getstate__()) == state
        True
    """
    if not isinstance(fields, dict):
        msg = f"a GameState's fields are a dict, not {type(fields).__name__}"  # type: ignore[unreachable]  # checked at run time
        raise TypeError(msg)
    state = GameState.__new__(GameState)
    try:
        state.__setstate__(fields)
    except (LookupError, TypeError, ValueError, AttributeError) as error:
        msg = f"not the fields of a pickled GameState: {short_repr(error)}"
        raise InvalidStateError(msg) from None
    return state


def game_setup(
    first_game: bool,  # noqa: FBT001 - pickled positionally, as the fields are listed
    leader: int | None,
    after_instant_win: bool,  # noqa: FBT001
    dealer: int,
) -> GameSetup:
    """The `GameSetup` of these fields.

    Example:
        >>> game_setup(True, None, False, 1).dealer
        1
    """
    return GameSetup(
        first_game=first_game,
        leader=leader,
        after_instant_win=after_instant_win,
        dealer=dealer,
    )


def play(player: int, mask: int) -> Play:
    """The `Play` of *player* holding the cards of *mask*, checked when applied.

    Example:
        >>> from tienlen import Hand
        >>> str(play(1, Hand.parse("3s 3c").mask))
        '3s 3c'
    """
    return untrusted_play(player, mask)


def combo(mask: int, key: int) -> Combo:
    """The `Combo` of *mask* and *key*, checked as ``Combo(mask, key)`` is.

    Example:
        >>> from tienlen import classify
        >>> three = classify("3s 4s 5s")
        >>> combo(*three.__reduce__()[1]) == three
        True
    """
    return Combo(mask, key)


def plays(masks: tuple[int, ...]) -> Plays:
    """The `Plays` of these masks, in order.

    Example:
        >>> from tienlen import CLASSIC, Hand, legal_plays
        >>> listed = legal_plays(Hand.parse("3s 3c"), None, CLASSIC)
        >>> plays(listed.masks) == listed
        True
    """
    return Plays(masks)


def batch() -> Batch:
    """A `Batch` of no game yet, which its pickle's saved games then fill.

    Example:
        >>> len(batch().plays)
        0
    """
    return Batch([])


def _rule_book(rules: RuleSet, players: int) -> Context:
    """The rule book of *rules* for a table of *players*: built again, or shared.

    Private (the rule book is the engine's), but a pickle's name: never renamed.

    Example:
        >>> from tienlen import CLASSIC
        >>> _rule_book(CLASSIC, 4) is _rule_book(CLASSIC, 4)
        True
    """
    return context_of(rules, players)


class PickleError(TienLenError, ValueError):
    """Bytes that hold no pickle this version of tienlen can read (`loads`, `load`).

    Example:
        >>> loads(b"not a pickle")
        Traceback (most recent call last):
        ...
        tienlen.pickles.PickleError: not a pickle tienlen can read: ...
    """


_MOVED: Final = {
    "tienlen._context": "tienlen.engine.rulebook",
    "tienlen._movegen": "tienlen.engine.movegen",
    "tienlen.rules._base": "tienlen.rules.base",
}
"""The 0.1 modules old pickles name, and where their names live now."""


def _dropped(*_args: object, **_kwargs: object) -> None:
    """Stands for a private helper of 0.1 that only a rule set's derived tables named.

    A rule set loads from its settings alone (`tienlen.rules.base.BaseRules.__setstate__`),
    so what stood here is dropped.
    """


class _Reader(pickle.Unpickler):
    """An unpickler that finds the names of 0.1's modules where they live now."""

    def find_class(self, module: str, name: str) -> object:
        moved = _MOVED.get(module)
        if moved is None:
            return super().find_class(module, name)
        found = (
            super().find_class(moved, name) if hasattr(_module(moved), name) else None
        )
        if found is None and name.startswith("_"):
            return _dropped
        if found is None:
            msg = f"{module}.{name} is no longer part of tienlen"
            raise PickleError(msg)
        return found


def _module(name: str) -> object:
    return importlib.import_module(name)


def loads(data: bytes) -> object:
    """The object *data* pickles, whichever version of tienlen pickled it.

    Unpickle only what you trust, as with ``pickle.loads``.

    Raises:
        TypeError: *data* is not bytes.
        PickleError: *data* holds no pickle this version of tienlen can read.

    Example:
        >>> import pickle
        >>> from tienlen import CLASSIC
        >>> loads(pickle.dumps(CLASSIC)) == CLASSIC
        True
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        msg = f"a pickle is bytes, not {type(data).__name__}"  # type: ignore[unreachable]  # checked at run time
        raise TypeError(msg)
    return load(io.BytesIO(data))


def load(file: IO[bytes]) -> object:
    """The object pickled in *file*, whichever version of tienlen pickled it.

    Unpickle only what you trust, as with ``pickle.load``.

    Raises:
        TypeError: *file* is no binary file.
        PickleError: *file* holds no pickle this version of tienlen can read.

    Example:
        >>> import io, pickle
        >>> from tienlen import Hand
        >>> load(io.BytesIO(pickle.dumps(Hand.parse("3s 4d")))) == Hand.parse("3s 4d")
        True
    """
    reader = _Reader(file)
    try:
        return reader.load()
    except TienLenError:
        raise  # a value's own check, as refused when it was built
    except Exception as error:  # any failure to read is this one error
        msg = f"not a pickle tienlen can read: {short_repr(error)}"
        raise PickleError(msg) from error


_T = TypeVar("_T")
_Reduced: TypeAlias = tuple[Callable[..., _T], tuple[object, ...]]
"""What a reducer returns: the function that rebuilds a value, and its arguments."""


def _reduce_state(state: GameState) -> _Reduced[GameState]:
    return game_state, (state.__getstate__(),)


def _reduce_setup(setup: GameSetup) -> _Reduced[GameSetup]:
    return game_setup, attrs.astuple(setup, recurse=False)


def _reduce_play(action: Play) -> _Reduced[Play]:
    return play, (action.player, action.mask)


def _reduce_combo(value: Combo) -> _Reduced[Combo]:
    return combo, (value.mask, value.key)


def _reduce_plays(value: Plays) -> _Reduced[Plays]:
    return plays, (value.masks,)


def _reduce_batch(
    games: Batch,
) -> tuple[Callable[..., Batch], tuple[object, ...], object]:
    _, _, fields = games.__reduce__()
    return batch, (), fields


def _reduce_rule_book(book: Context) -> _Reduced[Context]:
    return _rule_book, (book.rules, book.players)


copyreg.pickle(GameState, _reduce_state)
copyreg.pickle(GameSetup, _reduce_setup)
copyreg.pickle(Play, _reduce_play)
copyreg.pickle(Combo, _reduce_combo)
copyreg.pickle(Plays, _reduce_plays)
copyreg.pickle(Context, _reduce_rule_book)
copyreg.pickle(Batch, _reduce_batch)
