"""The quick run, ``pytest -m "not slow"`` (issue 22 §10).

The ``slow`` marker is registered, every test `tests/conftest.py` lists as slow
exists (a renamed test would silently join the quick run), and the README documents
the quick run next to the full one.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from tests.conftest import SLOW_MODULES, SLOW_TESTS

ROOT = Path(__file__).parents[2]


def test_the_slow_marker_is_registered() -> None:
    """``--strict-markers`` accepts ``slow``: pyproject registers it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    assert any(marker.startswith("slow:") for marker in markers)


def test_every_listed_slow_test_exists() -> None:
    """Each module and function of the slow lists is there."""
    for module in SLOW_MODULES:
        assert (ROOT / module).exists(), module
    for test in SLOW_TESTS:
        path, function = test.split("::")
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert function in names, test


def test_the_readme_documents_the_quick_run() -> None:
    """The README's development section shows the quick command; the full one stays."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '.venv/bin/python -m pytest -m "not slow"' in readme
    assert (
        'python3 -m venv .venv && .venv/bin/pip install -q -e ".[test-all]" '
        "&& .venv/bin/python -m pytest\n" in readme
    )
