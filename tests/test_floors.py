"""The floors (issue 35): every module lives on one floor and imports only its floor or below.

`FLOORS` lists them from the ground up, each with the modules it holds; a module is on
the first floor with a pattern that names it. An import counts wherever it is written:
at the top, inside a function, or under ``if TYPE_CHECKING``. The imports allowed to
point up are presentation hooks deferred by design (`PRESENTATION_HOOKS`): ``_repr_svg_``,
as python-chess's, loads `tienlen.svg` only when a notebook draws the value, and a
state's ``notation()`` and ``from_notation()`` load `tienlen.notation`, which writes and
reads the position's text (as ``board.fen()`` does in python-chess).

`RAISED` lists the imports that still point up, each ``importer -> imported``, and
`TIED` the groups of one floor that still import each other in a cycle: the debt the
floors issue pays off. A new upward import fails `test_imports_point_down`, a new cycle
`test_no_cycle_outside_the_debt`; an entry that no longer exists fails
`test_debt_is_current`, so the lists only shrink.

Run ``python -m tests.test_floors`` to print every upward import and every cycle.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "tienlen"

FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "ground",
        (
            "tienlen._wording",
            "tienlen.errors",
            "tienlen._checks",
            "tienlen._workers",
            "tienlen._version",
        ),
    ),
    (
        "core",
        (
            "tienlen.engine.bits",
            "tienlen.engine.counts",
            "tienlen.engine.kinds",
            "tienlen.engine.shapes",
            "tienlen.engine.shuffle",
            "tienlen.engine._native",
            "tienlen.engine.native",
            "tienlen.engine.movegen",
            "tienlen.engine.interned",
        ),
    ),
    (
        "values",
        (
            "tienlen.cards",
            "tienlen._action_text",
            "tienlen.kinds",
            "tienlen.combos",
            "tienlen.passes",
            "tienlen.actions",
            "tienlen.setups",
            "tienlen.sections",
        ),
    ),
    (
        "rules",
        (
            "tienlen.scoring",
            "tienlen.policies",
            "tienlen.engine.classification",
            "tienlen.engine.answers",
            "tienlen.engine.turns",
            "tienlen.rules.*",
            "tienlen.rules",
        ),
    ),
    (
        "state",
        (
            "tienlen.engine.rulebook",
            "tienlen.engine.keys",
            "tienlen.engine.positions",
            "tienlen.engine.view",
            "tienlen.game",
            "tienlen.batch",
            "tienlen.engine",
        ),
    ),
    (
        "text",
        (
            "tienlen.messages",
            "tienlen.explain",
            "tienlen.records",
            "tienlen.notation",
            "tienlen.svg",
            "tienlen.pickles",
        ),
    ),
    (
        "play",
        (
            "tienlen.seat",
            "tienlen.engine.greedy",
            "tienlen.engine.referee",
            "tienlen.players",
            "tienlen.referee",
            "tienlen.match",
            "tienlen.simulation",
            "tienlen.evaluation",
            "tienlen.search.*",
            "tienlen.search",
            "tienlen.analysis.*",
            "tienlen.analysis",
        ),
    ),
    (
        "adapters",
        (
            "tienlen.rl.*",
            "tienlen.rl",
            "tienlen.server.*",
            "tienlen.server",
            "tienlen.mcp.*",
            "tienlen.mcp",
            "tienlen",
            "tienlen.cli",
            "tienlen.__main__",
        ),
    ),
)
"""The floors from the ground up: a name and the modules on it (``fnmatch`` patterns)."""

PRESENTATION_HOOKS: dict[str, str] = {
    "_repr_svg_": "tienlen.svg",
    "notation": "tienlen.notation",
    "from_notation": "tienlen.notation",
}
"""Functions whose import of one text-floor module is deferred by design, and that module."""

RAISED: frozenset[str] = frozenset()
"""The imports that still point up (``importer -> imported``): the floors' debt."""

TIED: frozenset[frozenset[str]] = frozenset(
    {
        # types only: the rule set in its policies', scorers' and answers' signatures
        frozenset(
            {
                "tienlen.engine.answers",
                "tienlen.engine.classification",
                "tienlen.engine.turns",
                "tienlen.policies",
                "tienlen.rules",
                "tienlen.rules.base",
                "tienlen.rules.classic",
                "tienlen.rules.justus_pang",
                "tienlen.rules.kenneth_lo",
                "tienlen.rules.poker",
                "tienlen.rules.registry",
                "tienlen.rules.vietcong",
                "tienlen.scoring",
            }
        ),
    }
)
"""Groups of one floor's modules that import each other in a cycle: the rest of the debt."""


def module_name(path: Path) -> str:
    """``tienlen.x.y`` for *path* under `SOURCE`."""
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path
    for path in sorted(SOURCE.rglob("*.py*"))
    if path.suffix == ".py"
    or (path.suffix == ".pyi" and not path.with_suffix(".py").exists())
}
"""Every module of the package: its Python source, or a C extension's stub
(``engine/_native.pyi``), which imports nothing."""


def floor_of(module: str) -> int:
    """The index in `FLOORS` of *module*'s floor."""
    for index, (_, patterns) in enumerate(FLOORS):
        if any(fnmatch.fnmatchcase(module, pattern) for pattern in patterns):
            return index
    msg = f"{module} is on no floor: add it to FLOORS"
    raise AssertionError(msg)


def _target(module: str, node: ast.ImportFrom, name: str) -> str:
    """The module that ``from ... import name`` in *module* loads."""
    if node.level:
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package = package[:-1]
        base = ".".join([*package[: len(package) - node.level + 1], node.module or ""])
        base = base.rstrip(".")
    else:
        base = node.module or ""
    candidate = f"{base}.{name}"
    return candidate if candidate in MODULES else base


def imports(module: str) -> Iterator[tuple[str, ast.AST]]:
    """The package's modules *module* imports, each with the node that does."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    hooks = {  # the node of each hook's import, and the one module it may load
        id(inner): PRESENTATION_HOOKS[node.name]
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in PRESENTATION_HOOKS
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [_target(module, node, alias.name) for alias in node.names]
        else:
            continue
        for name in names:
            found = name
            while found and found not in MODULES:
                found = found.rpartition(".")[0]
            if found and found != module and hooks.get(id(node)) != found:
                yield found, node


@functools.cache
def edges() -> dict[str, set[str]]:
    """Every import between the package's modules: importer to the imported."""
    return {module: {name for name, _ in imports(module)} for module in MODULES}


def raised() -> set[str]:
    """Every import that points up a floor, as ``importer -> imported``."""
    return {
        f"{module} -> {name}"
        for module, names in edges().items()
        for name in names
        if floor_of(name) > floor_of(module)
    }


def cycles() -> list[list[str]]:
    """The import cycles: strongly connected groups of two or more modules."""
    graph = edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_module_is_on_a_floor() -> None:
    """`FLOORS` names every module of the package."""
    for module in MODULES:
        floor_of(module)


def test_imports_point_down() -> None:
    """No import points up a floor, but those `RAISED` lists."""
    new = sorted(raised() - RAISED)
    assert not new, f"{len(new)} imports point up a floor:\n" + "\n".join(new)


def test_debt_is_current() -> None:
    """Every entry of `RAISED` and `TIED` still exists: paid-off debt leaves the lists."""
    gone = sorted(RAISED - raised())
    assert not gone, "no longer raised, remove from RAISED:\n" + "\n".join(gone)
    groups = {frozenset(group) for group in cycles()}
    untied = [sorted(group) for group in TIED - groups]
    assert not untied, f"no longer a cycle, remove from TIED: {untied}"


def test_no_cycle_outside_the_debt() -> None:
    """Every import cycle is listed in `TIED`, or holds an upward import of `RAISED`."""
    for group in cycles():
        members = set(group)
        assert frozenset(group) in TIED or any(
            edge.split(" -> ")[0] in members and edge.split(" -> ")[1] in members
            for edge in RAISED
        ), f"a cycle outside the debt: {group}"


def _first_import_fails(package: Path, init: str, module: str) -> bool:
    """Whether ``import tienlen`` fails once its ``__init__`` imports *module* first."""
    future = "from __future__ import annotations\n"
    cut = init.index(future) + len(future)
    (package / "__init__.py").write_text(f"{init[:cut]}import {module}\n{init[cut:]}")
    done = subprocess.run(
        [sys.executable, "-c", "import tienlen"],
        cwd=package.parent,
        capture_output=True,
        check=False,
    )
    return done.returncode != 0


@pytest.mark.slow
def test_import_order_is_free(tmp_path: Path) -> None:
    """Any module imported first by ``tienlen/__init__.py`` still imports (issue 35).

    A copy of the package gets ``import <module>`` at the top of its ``__init__``, in a
    fresh process, for every module below the adapters' floor.
    """
    package = tmp_path / "tienlen"
    shutil.copytree(
        SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    init = (SOURCE / "__init__.py").read_text(encoding="utf-8")
    adapters = len(FLOORS) - 1  # they may import the package itself, as users do
    modules = sorted(  # not an optional C extension (a stub here): the copy has none
        m for m in MODULES if floor_of(m) < adapters and MODULES[m].suffix == ".py"
    )
    failing = {m for m in modules if _first_import_fails(package, init, m)}
    assert failing == set()


if __name__ == "__main__":
    for line in sorted(raised()):
        sys.stdout.write(f"{line}\n")
    for group in cycles():
        sys.stdout.write(f"cycle of {len(group)}: {' '.join(group)}\n")
