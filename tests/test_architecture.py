"""The engine's wall (issue 21): no private name crosses modules, no bot is trusted by type.

Every module reaches another only through its public names, or the engine's public
modules (`tienlen.engine`). Three checks, on the source:

- no ``from m import _name`` (or ``import m._private``) outside the package that owns
  the private module or name;
- outside `tienlen.engine` and `ENGINE_CLASSES`, no ``value._name`` read or written on
  anything but ``self``/``cls`` unless the module itself defines ``_name`` (its own
  classes' private fields): the engine's modules, and the public modules that define
  its classes, are the only ones that share internals;
- no ``type(player) is`` / ``in`` a set of library classes: a bot's capabilities are
  declared (`tienlen.players.Player`), never inferred from its exact type.

Run ``python -m tests.test_architecture`` to list what crosses.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "tienlen"

ENGINE_CLASSES = frozenset(
    {"tienlen.actions", "tienlen.batch", "tienlen.combos", "tienlen.game"}
)
"""The public modules that define the engine's classes (issue 35: a public class is
defined in a public module): compiled with the engine, they read its fields."""


def module_name(path: Path) -> str:
    """``tienlen.x.y`` for *path* under `SOURCE`."""
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_private(name: str) -> bool:
    """Whether *name* is private: one leading underscore, not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def owner_package(module: str) -> str:
    """The package a private module or name belongs to: what may import it."""
    parts = module.split(".")
    for index, part in enumerate(parts):
        if is_private(part):
            return ".".join(parts[:index])
    return module


def defined_private_names(tree: ast.AST) -> set[str]:
    """Private names the module defines: functions, classes, attributes, slots."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ entries and attrs' private fields
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if is_private(name)}


def crossings(path: Path) -> Iterator[str]:
    """What *path* reaches of other modules' private names, one line each."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = defined_private_names(tree)
    where = f"{path.relative_to(SOURCE.parent)}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("tienlen"):
                continue
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if not any(is_private(p) for p in target.split(".")):
                    continue
                if not f"{package}.".startswith(f"{owner_package(target)}.") or (
                    is_private(alias.name)
                    and node.module != module
                    and not _is_private_module(node.module, alias.name)
                ):
                    yield f"{where}:{node.lineno}: from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tienlen") and not f"{package}.".startswith(
                    f"{owner_package(alias.name)}."
                ):
                    yield f"{where}:{node.lineno}: import {alias.name}"
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            if module.startswith("tienlen.engine.") or module in ENGINE_CLASSES:
                continue  # the engine's modules share its internals
            base = node.value
            if isinstance(base, ast.Name) and base.id in {"self", "cls", "mcs"}:
                continue
            if (
                isinstance(base, ast.Call)
                and isinstance(base.func, ast.Name)
                and base.func.id == "super"
            ):
                continue
            if node.attr not in own:
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"
        elif isinstance(node, ast.Compare) and _trusts_by_type(node):
            yield f"{where}:{node.lineno}: trusts by type: {ast.unparse(node)}"


def _is_private_module(module: str, name: str) -> bool:
    """Whether ``from module import name`` names a private submodule (checked above).

    Python source, a package, or a C extension with its stub (``engine/_native.pyi``).
    """
    folder = SOURCE.parent / module.replace(".", "/")
    return any(
        (folder / end).exists()
        for end in (f"{name}.py", f"{name}/__init__.py", f"{name}.pyi")
    )


def _trusts_by_type(node: ast.Compare) -> bool:
    """``type(player) is/in ...`` naming a bot class or a set of them."""
    left = node.left
    if not (isinstance(left, ast.Call) and isinstance(left.func, ast.Name)):
        return False
    if left.func.id != "type" or not left.args:
        return False
    text = ast.unparse(node)
    return "Player" in text or "_BOTS" in text


def every_crossing() -> list[str]:
    """Every crossing in the package, one line each."""
    return [line for path in sorted(SOURCE.rglob("*.py")) for line in crossings(path)]


def test_no_private_name_crosses_modules() -> None:
    """Issue 21: modules meet through public and engine-level names only."""
    found = every_crossing()
    assert not found, f"{len(found)} crossings:\n" + "\n".join(found)


if __name__ == "__main__":
    lines = every_crossing()
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    sys.stderr.write(f"{len(lines)} crossings\n")
