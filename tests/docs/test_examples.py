"""Every public name has an example in its docstring (issue 13 §6, STYLE §7.11).

The rule, precisely:

- **Modules.** `tienlen` and every submodule whose dotted path has no part starting
  with ``_`` (``tienlen.rules``, ``tienlen.search.pimc``, ``tienlen.cli``…; not
  ``tienlen.__main__``, which runs the program on import). A module of an extra
  (``tienlen.rl``) is checked only where its dependencies are installed (the README's
  ``.[test-all]``); without them (``.[test]`` only) it is skipped.
- **Names.** A module's public names are its ``__all__`` or, without one, the classes
  and functions it defines whose names have no leading underscore. Only classes and
  functions are checked (constants and type aliases such as ``Action`` have attribute
  docstrings). A name exported by several modules is checked once, where it is
  defined (``tienlen.scoring.GameResult``, even if imported from `tienlen`).
- **Members.** For each public class, every public method, class method, static
  method, property and cached property defined in the class body itself. Not
  checked: dunders and ``_private`` members; members inherited from a base
  (``Sequence``'s ``index``, enum's ``name``…); enum members and attrs fields, which
  are values documented by an attribute docstring. An override without a docstring
  of its own shows its base's (`inspect.getdoc`), example included.
- **Framework members.** A member that implements a member of a base class from
  outside `tienlen` (``reset``, ``step``, ``render`` of a Gymnasium or PettingZoo
  environment, ``get_payoffs`` of an RLCard one) follows that framework's documented
  contract; the class needs an example, the member does not.
- **Protocols.** A `typing.Protocol` (``RuleSet``, ``Player``, ``MapExecutor``) needs
  an example on the class; its members are an interface with no behaviour of their
  own, and each is exemplified by the implementation (``BaseRules.classify``,
  ``RandomPlayer.act``…), which this test checks in turn.
- **An example** is a line starting with ``>>>`` in the docstring;
  ``--doctest-modules`` runs it.

There is no exemption list: every name the rule selects has, or needs, an example.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import json
import pkgutil
import sys
import types
from collections.abc import Iterator
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

import tienlen
from tests.contract.surface import EXTRAS_DEPENDENCIES
from tienlen.scoring import StakeScorer


def _ignore(name: str) -> None:
    """Ignore *name* (`pkgutil.walk_packages`'s import errors are handled by the caller)."""


def public_modules() -> tuple[list[types.ModuleType], list[str]]:
    """The public modules, imported, and the names of those whose extra is missing."""
    found: list[types.ModuleType] = [tienlen]
    skipped: list[str] = []
    # A package that fails to import is imported again below, which re-raises
    # anything but a missing extra; walk_packages need not report it.
    for info in pkgutil.walk_packages(tienlen.__path__, "tienlen.", onerror=_ignore):
        parts = info.name.split(".")[1:]
        if parts[0] == "engine" or any(part.startswith("_") for part in parts):
            continue  # the engine package is the library's own (`tienlen.engine`)
        try:
            found.append(importlib.import_module(info.name))
        except ModuleNotFoundError as missing:
            if (missing.name or "").partition(".")[0] not in EXTRAS_DEPENDENCIES:
                raise
            skipped.append(info.name)
    return found, skipped


def public_names(module: types.ModuleType) -> Iterator[object]:
    """The classes and functions *module* makes public."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and getattr(value, "__module__", None) == module.__name__
        ]
    for name in names:
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            yield value


def framework_member(cls: type, name: str) -> bool:
    """Whether *name* implements a member of a base class from outside `tienlen`."""
    return any(
        name in vars(base)
        for base in cls.__mro__[1:]
        if base is not object and not base.__module__.startswith("tienlen")
    )


def members(cls: type) -> Iterator[tuple[str, object]]:
    """``(name, function or property)`` for each public member *cls* defines itself."""
    for name, value in vars(cls).items():
        if name.startswith("_") or framework_member(cls, name):
            continue
        if isinstance(value, (classmethod, staticmethod)):
            yield name, value.__func__
        elif inspect.isfunction(value) or isinstance(
            value, (property, functools.cached_property)
        ):
            yield name, value


def has_example(value: object) -> bool:
    """Whether the docstring of *value* (or of what it overrides) has a ``>>>`` line."""
    doc = inspect.getdoc(value) or ""
    return any(line.lstrip().startswith(">>>") for line in doc.splitlines())


def checked(value: object) -> Iterator[tuple[str, object]]:
    """``(qualified name, object)``: *value* and the members the rule checks."""
    qualified = f"{value.__module__}.{value.__qualname__}"  # type: ignore[attr-defined]
    yield qualified, value
    if inspect.isclass(value) and not getattr(value, "_is_protocol", False):
        for name, member in members(value):
            yield f"{qualified}.{name}", member


def compiled(value: object) -> bool:
    """Whether *value* is defined in a module the compiled build compiled (mypyc).

    mypyc keeps no docstring; the pure build's run of this test reads the same source.
    """
    module = sys.modules[getattr(value, "__module__", "builtins")]
    return str(getattr(module, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))


def surface() -> dict[str, dict[str, bool]]:
    """Defining module → qualified name → whether it has an example."""
    found: dict[str, dict[str, bool]] = {}
    seen: set[int] = set()
    for module in public_modules()[0]:
        for value in public_names(module):
            if id(value) in seen or compiled(value):
                continue
            seen.add(id(value))
            for name, member in checked(value):
                found.setdefault(value.__module__, {})[name] = has_example(member)
    return found


SURFACE = surface()


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_every_public_name_has_an_example(module: str) -> None:
    """Each name the rule above selects in *module* has a ``>>>`` example."""
    missing = [name for name, example in SURFACE[module].items() if not example]
    assert not missing, f"{len(missing)} without an example:\n" + "\n".join(missing)


def test_extras_modules_are_checked_where_installed() -> None:
    """The `rl` modules are in the surface exactly when numpy is installed."""
    modules, skipped = public_modules()
    names = {module.__name__ for module in modules}
    if importlib.util.find_spec("numpy") is None:
        assert "tienlen.rl" in skipped
        assert "tienlen.rl" not in names
    else:
        assert {"tienlen.rl", "tienlen.rl.table"} <= names
    assert "tienlen.__main__" not in names


def test_the_surface_is_discovered() -> None:
    """Discovery reaches classes, members, private defining modules and protocols."""
    every = {name for names in SURFACE.values() for name in names}
    assert {
        "tienlen.cards.Card",
        "tienlen.cards.Card.parse",
        "tienlen.cards.Hand.mask",
        "tienlen.scoring.GameResult.from_items",
        "tienlen.scoring.Scorer.on_catch",
        "tienlen.rules.base.BaseRules.is_bomb",
        "tienlen.rules.base.Direction",
        "tienlen.records.GameRecord.final",
        "tienlen.cli.main",
        "tienlen.rules.RuleSet",
    } <= every
    assert "tienlen.rules.RuleSet.classify" not in every  # a protocol's member
    assert "tienlen.rules.base.Direction.CLOCKWISE" not in every  # an enum member
    assert "tienlen.scoring.ScoreItem.points" not in every  # an attrs field
    assert "tienlen.rl.gymnasium.SoloEnv.step" not in every  # Gymnasium's contract
    assert not any(name.rpartition(".")[2].startswith("_") for name in every)


class _Base:
    """A class without an example (for `test_the_check_can_fail`)."""

    def documented(self) -> int:
        """Documented.

        Example:
            >>> _Base().documented()
            1
        """
        return 1

    def bare(self) -> int:
        """No example here."""
        return 2

    @property
    def undocumented(self) -> int:  # the case under test
        return 3


class _Override(_Base):
    def documented(self) -> int:  # the case under test
        return 4


class _Encoder(json.JSONEncoder):
    def default(self, o: object) -> object:  # the case under test
        return str(o)


def test_the_check_can_fail() -> None:
    """A docstring without ``>>>``, or no docstring, is reported; an override is not."""
    found = dict(checked(_Base))
    prefix = f"{__name__}._Base."
    assert has_example(found[prefix + "documented"])
    assert not has_example(found[prefix + "bare"])
    assert not has_example(found[prefix + "undocumented"])
    assert not has_example(_Base)
    assert has_example(_Override.documented)
    assert not framework_member(StakeScorer, "settle")  # overrides tienlen's Scorer
    assert framework_member(_Encoder, "default")
    assert "default" not in dict(members(_Encoder))
    assert _Encoder().encode(_Base) == json.dumps(str(_Base))
    assert _Override().documented() == 4
