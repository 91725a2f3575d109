"""Deprecated: `tienlen.engine.rulebook` under its 0.1 name, so that pickles of 0.1 load.

States pickled before the engine package (issue 21) name this module; unpickling them
looks the names up here, with a `DeprecationWarning`. It goes in 0.3.
"""

from __future__ import annotations

import warnings

from tienlen.engine import rulebook


def _dropped(*args: object, **kwargs: object) -> None:
    """Stands for a private helper an old pickle names that no longer exists.

    Such names only ever appear in what a rule set derived from its settings, which
    loading drops (`tienlen.rules.base.BaseRules.__setstate__`).
    """


def __getattr__(name: str) -> object:
    found = getattr(rulebook, name, None)
    dunder = name.startswith("__") and name.endswith("__")
    if found is None and (dunder or not name.startswith("_")):
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    warnings.warn(
        f"{__name__} is deprecated and goes in 0.3: use tienlen.engine.rulebook",
        DeprecationWarning,
        stacklevel=2,
    )
    return _dropped if found is None else found
