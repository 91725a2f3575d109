"""Analysis: exact solving of positions with every hand known.

See docs/analysis.md.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> from tienlen.analysis import solve
    >>> solve(GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC)).scores
    (1, -1)

.. versionadded:: 0.3
"""

from __future__ import annotations

from tienlen.analysis.solver import (
    DEFAULT_MAX_NODES,
    Solution,
    SolverLimitError,
    solve,
)

__all__ = ["DEFAULT_MAX_NODES", "Solution", "SolverLimitError", "solve"]
