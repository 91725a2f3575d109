"""Deprecated: `tienlen.rules.base` under its 0.1 name, so that 0.1 pickles still load.

Rule sets and states pickled by tienlen 0.1 name this module; unpickling them looks the
classes up here, with a `DeprecationWarning`. It goes in 0.3: import from
`tienlen.rules.base` (or `tienlen`) instead.
"""

from __future__ import annotations

import warnings

from tienlen.rules import base

_MOVED = frozenset(
    {
        "BaseRules",
        "Bomb",
        "CustomInstantWin",
        "Direction",
        "FirstLead",
        "GameEnd",
        "InstantWin",
        "Scoring",
        "_Contexts",
        "_Verdicts",
    }
)
"""What 0.1 defined here and a 0.1 pickle may name."""


def __getattr__(name: str) -> object:
    if name not in _MOVED:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    warnings.warn(
        f"tienlen.rules._base is deprecated and goes in 0.3: use tienlen.rules.base.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(base, name)
