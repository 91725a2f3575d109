"""Deprecated: `tienlen.rules.base` under its 0.1 name, so that 0.1 pickles still load.

Rule sets and states pickled by tienlen 0.1 name this module; unpickling them looks the
classes up here, with a `DeprecationWarning`. It goes in 0.3: import from
`tienlen.rules.base` (or `tienlen`) instead.
"""

from __future__ import annotations

import warnings

from tienlen.rules import base


def _dropped(*args: object, **kwargs: object) -> None:
    """Stands for a private helper an old pickle names that no longer exists.

    Such names only ever appear in what a rule set derived from its settings, which
    loading drops (`tienlen.rules.base.BaseRules.__setstate__`).
    """


def __getattr__(name: str) -> object:
    found = getattr(base, name, None)
    dunder = name.startswith("__") and name.endswith("__")
    if found is None and (dunder or not name.startswith("_")):
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    warnings.warn(
        f"{__name__} is deprecated and goes in 0.3: use tienlen.rules.base",
        DeprecationWarning,
        stacklevel=2,
    )
    return _dropped if found is None else found
