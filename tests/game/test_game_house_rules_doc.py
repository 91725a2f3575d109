"""The recipes of docs/_house_rules_flow.md run (RULES §12.7, §12.8, §12.10-§12.12).

The page is spliced into the house-rules page; until then Sphinx excludes it, so this
test keeps its examples honest.
"""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).parents[2] / "docs" / "_house_rules_flow.md"


def test_house_rule_recipes_run() -> None:
    """Every ``>>>`` example of the page gives the output it shows."""
    failures, tried = doctest.testfile(
        str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried > 10
    assert failures == 0
