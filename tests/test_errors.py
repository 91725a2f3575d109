"""The exceptions (`tienlen.errors`): one root, typed fields, and every one pickles.

Issue 14 item 2: an error that does not survive ``pickle`` hangs a process pool. The
test below finds every `TienLenError` subclass in the package by importing each of
its modules, so a new error class is covered without editing this file; a class
whose constructor needs other arguments than one message gets them from
`ERROR_ARGUMENTS` (the test fails loudly for a class it cannot build).
"""

from __future__ import annotations

import ast
import concurrent.futures
import importlib
import pathlib
import pickle
import pkgutil

import pytest

import tienlen
from tienlen import CLASSIC, GameState, Pass, Play, RandomPlayer
from tienlen.errors import IllegalPlayError, IllegalReason, TienLenError


def _modules() -> list[str]:
    """Every importable module of the package (modules of a missing extra skipped)."""
    names = []
    for info in pkgutil.walk_packages(tienlen.__path__, "tienlen."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            continue
        names.append(info.name)
    return names


def _error_classes() -> list[type[TienLenError]]:
    """`TienLenError` and every subclass defined in the package."""
    _modules()
    found: list[type[TienLenError]] = []
    pending: list[type[TienLenError]] = [TienLenError]
    while pending:
        cls = pending.pop()
        if cls.__module__.startswith("tienlen") and cls not in found:
            found.append(cls)
        pending.extend(cls.__subclasses__())
    return sorted(found, key=_name)


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


ERROR_ARGUMENTS: dict[str, tuple[tuple[object, ...], dict[str, object]]] = {
    "tienlen.errors.IllegalPlayError": (
        (IllegalReason.DOES_NOT_BEAT, 1, "3d", "3♦ is not higher than 2♦"),
        {"top": "2d", "cards": ("3d", "2d"), "rules": "classic"},
    ),
    "tienlen.records.RecordError": (("actions[3]", "not an action"), {}),
    "tienlen.notation.NotationError": (("hands", 32, "a card in two hands"), {}),
    "tienlen.mcp.session.AgentError": (("no-game", "no open game 'g9'"), {}),
    "tienlen.mcp._remote.RemoteRefusalError": (
        ({"code": "stale", "message": {"en": "late", "vi": "muộn"}},),
        {},
    ),
    "tienlen.seat.PlayerError": (
        (2, RandomPlayer(), Pass(player=2), [Play(player=2, cards="3s")]),
        {},
    ),
}
"""Constructor arguments of the classes that take more than one message."""


def build(cls: type[TienLenError]) -> TienLenError:
    """An instance of *cls*, from `ERROR_ARGUMENTS` or from one message."""
    args, kwargs = ERROR_ARGUMENTS.get(_name(cls), (("a message",), {}))
    try:
        return cls(*args, **kwargs)
    except TypeError as error:
        pytest.fail(f"cannot build {_name(cls)}: add it to ERROR_ARGUMENTS ({error})")


ERROR_CLASSES = _error_classes()


def test_discovery_finds_the_known_errors() -> None:
    """The walk over the package finds the errors of several modules."""
    names = {_name(cls) for cls in ERROR_CLASSES}
    assert {
        "tienlen.errors.TienLenError",
        "tienlen.errors.IllegalPlayError",
        "tienlen.errors.InvalidCardError",
        "tienlen.records.RecordError",
        "tienlen.seat.PlayerError",
    } <= names


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=_name)
def test_every_error_pickles_to_an_equal_error(cls: type[TienLenError]) -> None:
    """A pickle round trip gives the same type, message, arguments and fields (issue 14 §2)."""
    error = build(cls)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(error, protocol))  # noqa: S301 (our own bytes)
        assert type(copy) is type(error)
        assert str(copy) == str(error)
        assert copy.args == error.args
        assert vars(copy) == vars(error)


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=_name)
def test_every_error_is_rooted(cls: type[TienLenError]) -> None:
    """Every error is a `TienLenError`; the input errors are also `ValueError`.

    The exceptions are the failures that are no fault of the input: the root itself,
    an executor losing a batch or a worker (`ExecutorError`), and a server's data
    directory or database file it cannot use (`StorageError`), both `RuntimeError`.
    """
    error = build(cls)
    assert isinstance(error, TienLenError)
    if cls.__name__ in NOT_INPUT_ERRORS:
        assert isinstance(error, NOT_INPUT_ERRORS[cls.__name__])
    else:
        assert isinstance(error, ValueError)


NOT_INPUT_ERRORS: dict[str, type[Exception]] = {
    "TienLenError": Exception,
    "ExecutorError": RuntimeError,
    "StorageError": RuntimeError,  # the server's data directory or database file
    "AnalysisCancelledError": RuntimeError,  # the caller stopped an analysis
}
"""Errors not caused by bad input, and the built-in class they also derive from."""


def _refuse_in_a_worker(text: str) -> None:
    GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play(text)


def test_a_refusal_crosses_a_process_pool_intact() -> None:
    """A worker's `IllegalPlayError` reaches the parent with its fields (issue 14 §2)."""
    with concurrent.futures.ProcessPoolExecutor(1) as pool:
        future = pool.submit(_refuse_in_a_worker, "4s")
        with pytest.raises(IllegalPlayError) as caught:
            future.result(timeout=60)
    error = caught.value
    assert error.reason is IllegalReason.MUST_INCLUDE
    assert (error.player, error.action, error.cards) == (0, "4s", ("3s",))


def test_a_refusal_carries_its_fields() -> None:
    """The engine fills the fields: reason, player, action, top, deciding cards, rule."""
    state = GameState.from_hands(["3s 3d 9h", "2d 4c"], CLASSIC).play("3s")
    state = state.play("2d")
    with pytest.raises(IllegalPlayError) as caught:
        state.play("9h", player=0)
    error = caught.value
    assert error.reason is IllegalReason.DOES_NOT_BEAT
    assert (error.player, error.action, error.top) == (0, "9h", "2d")
    assert error.cards == ("9h", "2d")
    assert error.rule == "rules-1-3"
    assert error.rules == "classic"
    assert error.detail.startswith("the same shape, but 9♥ is not higher than 2♦")
    assert error.message() == "9♥ does not beat 2♦."
    assert error.message("vi") == "9♥ không chặn được 2♦."
    assert str(error).startswith("illegal play '9h' by player 0: does not beat: ")


def test_the_positional_constructor_still_works() -> None:
    """``IllegalPlayError(reason, player, action, detail)``: the 0.1 signature."""
    error = IllegalPlayError(
        IllegalReason.CANNOT_PASS, 0, "pass", "the leader must play"
    )
    assert (error.top, error.cards, error.rules) == (None, (), None)
    assert error.rule == IllegalReason.CANNOT_PASS.rule == "rules-1-5-1"
    assert str(error) == "illegal pass by player 0: cannot pass: the leader must play"


def test_count_arguments_are_refused_in_one_wording() -> None:
    """`play_match`, `GreedyPlayer` and the search bots word a bad count alike.

    A non-int (``True`` included) is a `TypeError` naming the value; a count too small
    is an `InvalidArgumentError` (a `ValueError`) naming the least value allowed.
    """
    import random  # noqa: PLC0415
    from collections.abc import Callable  # noqa: PLC0415

    from tienlen import GreedyPlayer, Match, play_match  # noqa: PLC0415
    from tienlen.search import ISMCTSPlayer, PIMCPlayer  # noqa: PLC0415

    match = Match.start(CLASSIC, seed=2)
    bots = [RandomPlayer()] * 4
    calls: dict[str, tuple[int, Callable[[int], object]]] = {
        "games": (0, lambda v: play_match(match, bots, random.Random(2), games=v)),
        "danger": (0, lambda v: GreedyPlayer(danger=v)),
        "worlds": (1, lambda v: PIMCPlayer(worlds=v)),
        "max_candidates": (1, lambda v: ISMCTSPlayer(max_candidates=v)),
    }
    for name, (least, call) in calls.items():
        with pytest.raises(TypeError) as wrong_type:
            call(True)
        assert str(wrong_type.value) == f"{name} must be an int, got True"
        with pytest.raises(tienlen.InvalidArgumentError) as too_small:
            call(least - 1)
        assert isinstance(too_small.value, ValueError)
        assert (
            str(too_small.value) == f"{name} must be at least {least}, got {least - 1}"
        )
        call(least)  # the least value is accepted


def _tienlen_imports(path: pathlib.Path) -> set[str]:
    """Every module of `tienlen` that *path* imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return {name for name in found if name.split(".")[0] == "tienlen"}


def test_errors_import_no_words() -> None:
    """Issue 35 §6: errors carry data; they import nothing that words them.

    Only the hook the text floor teaches (``tienlen._wording``), which imports nothing.
    """
    package = pathlib.Path(tienlen.__file__).parent
    assert _tienlen_imports(package / "errors.py") == {"tienlen._wording"}
    assert _tienlen_imports(package / "_wording.py") == set()


def test_a_refusal_is_worded_by_the_catalogue_it_is_shown_with() -> None:
    """`IllegalPlayError.message` reads the catalogue when called, not when raised."""
    from tienlen import messages  # noqa: PLC0415  # the module the test patches

    error = IllegalPlayError(IllegalReason.CANNOT_PASS, 0, "pass", "must play")
    before = error.message()
    entry = messages.CATALOGUE["refusal.CANNOT_PASS"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(entry, "en", "Play!")
        assert error.message() == "Play!"
    assert error.message() == before
    assert str(error) == "illegal pass by player 0: cannot pass: must play"
