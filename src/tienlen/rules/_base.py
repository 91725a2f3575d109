"""Deprecated: `tienlen.rules.base` under its 0.1 name, so that 0.1 pickles still load.

Rule sets and states pickled by tienlen 0.1 name this module; unpickling them looks the
classes up here, with a `DeprecationWarning`. It goes in 0.3: import from
`tienlen.rules.base` (or `tienlen`) instead.
"""

from __future__ import annotations

from tienlen._moved import lookup
from tienlen.rules import base

__getattr__ = lookup(__name__, base)
