"""Deprecated: `tienlen.engine.movegen` under its 0.1 name, so that pickles of 0.1 load.

States pickled before the engine package (issue 21) name this module; unpickling them
looks the names up here, with a `DeprecationWarning`. It goes in 0.3.
"""

from __future__ import annotations

from tienlen._moved import lookup
from tienlen.engine import movegen

__getattr__ = lookup(__name__, movegen)
