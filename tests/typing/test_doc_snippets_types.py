"""The tutorial's and the how-to's snippets pass ``mypy --strict`` (issue 22 §8).

A reader copies the examples into a typed code base: every ``{doctest}`` block of
``docs/tutorial.md`` and ``docs/howto.md`` is joined, page by page, into one module
(the blocks of a page build on each other, as a session does) and type-checked with
``mypy --strict``. The output lines of the examples are not code and are dropped.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = ["tutorial.md", "howto.md"]
BLOCK = re.compile(r"^```\{doctest\}\n(.*?)^```", re.MULTILINE | re.DOTALL)


def snippet_module(page: str) -> str:
    """The code of every doctest block of *page*, in order, as one module."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    lines: list[str] = []
    for block in BLOCK.findall(text):
        for line in block.splitlines():
            if line.startswith((">>> ", "... ")):
                lines.append(line[4:])
            elif line in (">>>", "..."):
                lines.append("")
    return "\n".join(lines) + "\n"


def test_snippets_are_extracted() -> None:
    """The extraction finds the code, and only the code."""
    code = snippet_module("tutorial.md")
    assert "bots: list[Player] = [" in code
    assert "Traceback" not in code
    compile(code, "tutorial.md", "exec")


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_snippets_pass_mypy_strict(page: str, tmp_path: Path) -> None:
    """``mypy --strict`` finds nothing in the page's examples.

    mypy comes with ``.[test-all]`` (the README's test command) and ``.[dev]``, not
    ``.[test]``: without it the test is skipped.
    """
    pytest.importorskip("mypy")
    module = tmp_path / f"snippets_{page.removesuffix('.md')}.py"
    module.write_text(snippet_module(page), encoding="utf-8")
    done = subprocess.run(  # noqa: S603 - mypy on our own docs, no shell
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            str(module),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
