"""Analysis: exact solving, the value of every action of a decision, game reviews.

- `solve`: the exact value of a position with every hand known (max^n; a zero-sum
  duel with cut-offs for two players left under stakes).
- `best_actions`: the best few actions of a seat, valued over the worlds it cannot
  tell apart, with 95% confidence intervals and a perfect-information column.
- `analyse`: a finished game reviewed decision by decision (`GameAnalysis`): losses,
  labels, accuracy, JSON.
- `make_puzzle`, `generate_puzzles`, `load_puzzles`: positions with a unique best
  play, mined from self-play, and the set shipped for each preset.
- `AnalysisPlayer`: a bot that plays the analysis's choice.

See docs/analysis.md.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> from tienlen.analysis import solve
    >>> solve(GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC)).scores
    (1, -1)

.. versionadded:: 0.3
"""

from __future__ import annotations

from tienlen.analysis.player import AnalysisPlayer
from tienlen.analysis.puzzles import (
    Puzzle,
    PuzzleFormatError,
    PuzzleSet,
    generate_puzzles,
    load_puzzles,
    make_puzzle,
)
from tienlen.analysis.review import (
    AnalysisCancelledError,
    AnalysisFormatError,
    GameAnalysis,
    Label,
    ReviewedDecision,
    analyse,
)
from tienlen.analysis.solver import (
    DEFAULT_MAX_NODES,
    Solution,
    SolverLimitError,
    solve,
)
from tienlen.analysis.values import (
    DEFAULT_BUDGET,
    ActionValue,
    Estimate,
    best_actions,
)

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_NODES",
    "ActionValue",
    "AnalysisCancelledError",
    "AnalysisFormatError",
    "AnalysisPlayer",
    "Estimate",
    "GameAnalysis",
    "Label",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleSet",
    "ReviewedDecision",
    "Solution",
    "SolverLimitError",
    "analyse",
    "best_actions",
    "generate_puzzles",
    "load_puzzles",
    "make_puzzle",
    "solve",
]
