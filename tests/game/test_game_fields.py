"""The `GameState` field list is written once: its annotations (issue 35 §3).

The slots, `FIELDS` and the pure build's by-name fill (`GameState._fill`: unpickling,
`from_fields`) are derived from the annotations. Written by hand are the copy the move
loop runs on every action, the successor's `draft`, and the compiled build's by-name
fill (mypyc writes a `Final` field only from compiled code that names it). These tests
check both against the annotations, so a field added to one and not the other fails.
"""

from __future__ import annotations

import ast
import inspect
import pickle
from pathlib import Path

import pytest

from tienlen import CLASSIC, POKER, GameState
from tienlen import game as state_module
from tienlen.game import DEFAULTS, FIELDS

PACKAGE = Path(inspect.getfile(state_module)).parent
"""The package's folder: the sources lie beside the compiled modules in the compiled build."""
STATE = (PACKAGE / "game.py").read_text(encoding="utf-8")
SUCCESSOR = STATE
"""The transitions' source: the same module since the state and its transition merged."""
NOT_COPIED = "_serial"
"""The field `draft` leaves to `seal`: a fresh trust token."""
RESET = {"_listed": None}
"""The fields `draft` sets instead of copying (a state's own caches), and to what."""


def annotated_names(source: str) -> tuple[str, ...]:
    """The names annotated in the body of `GameState` in *source*, in order."""
    body = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) and node.name == "GameState"
    )
    return tuple(
        node.target.id
        for node in body.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    )


def _function(source: str, name: str) -> ast.FunctionDef:
    return next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == name
    )


def _write(statement: ast.stmt) -> tuple[str, str | None] | None:
    """``(field written, field read)`` if *statement* writes a field, else ``None``.

    A write is ``new.X = state.Y`` or ``object.__setattr__(self, "X", given["Y"])``;
    the field read is ``None`` for a constant.
    """
    if isinstance(statement, ast.Assign) and isinstance(
        statement.targets[0], ast.Attribute
    ):
        value = statement.value
        read = value.attr if isinstance(value, ast.Attribute) else None
        return statement.targets[0].attr, read
    call = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(call, ast.Call) and len(call.args) == 3:  # object.__setattr__
        name, value = call.args[1], call.args[2]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            key = value.slice if isinstance(value, ast.Subscript) else None
            given = key.value if isinstance(key, ast.Constant) else None
            return name.value, given if isinstance(given, str) else None
    return None


def hand_copy(source: str, function: str) -> tuple[tuple[str, str | None], ...]:
    """The field writes in the body of *function* in *source*, in order."""
    writes = (_write(statement) for statement in _function(source, function).body)
    return tuple(write for write in writes if write is not None)


def mismatches(
    fields: tuple[str, ...],
    writes: tuple[tuple[str, str | None], ...],
    reset: frozenset[str] = frozenset(),
) -> list[str]:
    """How *writes* differ from writing each of *fields* once, in order, from itself.

    A field of *reset* is written from a constant instead.
    """
    written = [name for name, _ in writes]
    problems = [f"{name} is not written" for name in fields if name not in written]
    problems += [
        f"{name} is written, no field" for name in written if name not in fields
    ]
    if not problems and written != list(fields):
        problems.append(f"the writes {written} are not in the order {list(fields)}")
    for name, read in writes:
        wanted = None if name in reset else name
        if read != wanted:
            problems.append(f"{name} is set from {read}, not from {wanted}")
    return problems


def draft_mismatches(state_source: str, successor_source: str) -> list[str]:
    """How `draft` differs from the annotations: every field but the token, in order."""
    fields = tuple(f for f in annotated_names(state_source) if f != NOT_COPIED)
    writes = hand_copy(successor_source, "draft")
    return mismatches(fields, writes, frozenset(RESET))


def test_the_hand_written_copy_follows_the_annotations() -> None:
    """`draft` writes every annotated field (but the token), in their order."""
    assert draft_mismatches(STATE, SUCCESSOR) == []


def test_the_compiled_fill_follows_the_annotations() -> None:
    """The compiled build's `_fill` writes every annotated field, in order, by name."""
    assert mismatches(annotated_names(STATE), hand_copy(STATE, "_fill")) == []


def _annotate(source: str, after: str, line: str) -> str:
    """*source* with *line* inserted after the first line holding *after*."""
    head, _, tail = source.partition(after)
    end = tail.index("\n") + 1
    return head + after + tail[:end] + line + tail[end:]


def test_a_field_annotated_but_not_copied_is_caught() -> None:
    """Adding a field to the annotations only (or a copy only) fails the checks."""
    field = "    extra: Final[int]\n"
    annotated = _annotate(STATE, "    _masks: Final[tuple[int, ...]]", field)
    assert annotated_names(annotated).count("extra") == 1
    assert draft_mismatches(annotated, SUCCESSOR) == ["extra is not written"]
    fill = hand_copy(annotated, "_fill")
    assert mismatches(annotated_names(annotated), fill) == ["extra is not written"]
    copied = _annotate(
        SUCCESSOR, "    new._masks = state._masks", "    new.extra = state.extra\n"
    )
    assert draft_mismatches(STATE, copied) == ["extra is written, no field"]
    assert draft_mismatches(annotated, copied) == []


def test_a_copy_out_of_order_or_from_another_field_is_caught() -> None:
    """A copy keeps the annotations' order and copies each field from itself."""
    swapped = SUCCESSOR.replace(
        "    new.rules = state.rules\n    new._masks = state._masks\n",
        "    new._masks = state._masks\n    new.rules = state.rules\n",
    )
    assert swapped != SUCCESSOR
    assert len(draft_mismatches(STATE, swapped)) == 1
    crossed = SUCCESSOR.replace("new.out = state.out", "new.out = state.locked")
    assert draft_mismatches(STATE, crossed) == ["out is set from locked, not from out"]
    wrong = STATE.replace('"out", given["out"]', '"out", given["locked"]')
    assert mismatches(annotated_names(wrong), hand_copy(wrong, "_fill")) == [
        "out is set from locked, not from out"
    ]


def test_the_derived_lists_are_the_annotations() -> None:
    """`FIELDS`, the slots (pure build) and `DEFAULTS` come from the annotations."""
    fields = annotated_names(STATE)
    assert fields == FIELDS
    assert NOT_COPIED in fields
    assert set(RESET) < set(fields)
    assert set(DEFAULTS) < set(fields)
    if not state_module.COMPILED:  # mypyc lays out the annotated fields itself
        assert GameState.__slots__ == (*fields, "__weakref__")


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_the_by_name_fills_set_every_field(rules: object) -> None:
    """`from_fields` and unpickling set every field of `FIELDS` from its name."""
    state = GameState.deal(rules, 4, 1)  # type: ignore[arg-type]
    for pick in (0, -1, 0):  # a play, the last action listed, a play
        if not state.is_over:
            state = state.apply(state.legal_actions()[pick])
    assert state.history
    built = state_module.from_fields(state_module.fields_of(state))
    loaded = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    for copy in (built, loaded):
        assert type(copy) is GameState
        for name in FIELDS:  # the log is unwound by pickling; the rest are values
            if name not in {NOT_COPIED, *RESET, "_log", "_top_combo", "_context"}:
                assert getattr(copy, name) == getattr(state, name), name
        assert type(copy._context) is type(state._context)  # pickled: rebuilt
        assert copy._listed is None
        assert copy._serial != state._serial
        assert copy.history == state.history
        assert copy == state
