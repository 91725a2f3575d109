"""Modules kept under their old names so that old pickles load (deprecated aliases).

`lookup` builds the ``__getattr__`` of such a module: a name the new module has is
given from it with a `DeprecationWarning`; a private helper it no longer has is given
as `dropped`, which only what a rule set derived from its settings ever named, and
loading a rule set drops that (`tienlen.rules.base.BaseRules.__setstate__`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType


def dropped(*args: object, **kwargs: object) -> None:
    """Stands for a private helper an old pickle names that no longer exists."""


def lookup(old: str, new: ModuleType) -> Callable[[str], object]:
    """The ``__getattr__`` of module *old*, now *new*: it goes in 0.3.

    Example:
        >>> from tienlen.engine import turns
        >>> find = lookup("tienlen._turns", turns)
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     find("turn_key") is turns.turn_key, find("_gone") is dropped, len(seen)
        (True, True, 2)
    """

    def __getattr__(name: str) -> object:  # noqa: N807  # a module's __getattr__
        found = getattr(new, name, None)
        dunder = name.startswith("__") and name.endswith("__")
        if found is None and (dunder or not name.startswith("_")):
            msg = f"module {old!r} has no attribute {name!r}"
            raise AttributeError(msg)
        warnings.warn(
            f"{old} is deprecated and goes in 0.3: use {new.__name__}",
            DeprecationWarning,
            stacklevel=3,
        )
        return dropped if found is None else found

    return __getattr__
