"""The install lines of the pages and the README's test command (issue 34 items 15, 16).

`tienlen` is not on PyPI yet, so ``pip install "tienlen[server]"`` fails from a
checkout: every page that gives an extra's install line gives its checkout form,
``pip install -e ".[server]"``, beside it, written the same way everywhere. The
README's test command installs ``.[test-all]``, every extra the tests need, and is the
command ``.ci/run`` runs.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "examples").glob("*.py"),
    ]
)
INSTALL = re.compile(r"""pip install (["'])tienlen\[([\w,-]+)\]\1""")
"""An install line of an extra from the package index: ``pip install "tienlen[rl]"``."""

NOT_IN_TEST_ALL = {
    "docs": "builds the documentation (README: the docs commands)",
    "fuzz": "atheris, for the fuzzers in fuzz/ (.ci/run's fuzz step)",
    "dev": "the tools: ruff, mypy, coverage, build, twine (.ci/run installs it)",
}
"""The extras no test needs, with the reason; every other extra is in ``test-all``."""


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_shown)
def test_every_install_line_gives_its_checkout_form(page: Path) -> None:
    """Issue 34 item 16: ``pip install "tienlen[X]"`` comes with ``pip install -e ".[X]"``.

    As many checkout forms as install lines, in double quotes on every page.
    """
    text = page.read_text(encoding="utf-8")
    lines = INSTALL.findall(text)
    assert all(quote == '"' for quote, _ in lines), "write the line in double quotes"
    for extra in {extra for _, extra in lines}:
        wanted = sum(1 for _, named in lines if named == extra)
        checkout = f'pip install -e ".[{extra}]"'
        assert text.count(checkout) == wanted, f"{checkout} beside each install line"


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras: dict[str, list[str]] = project["project"]["optional-dependencies"]
    return extras


def test_test_all_holds_every_extra_the_tests_need() -> None:
    """Issue 34 item 15: ``test-all`` names every extra but the ones no test needs.

    A new extra goes into ``test-all`` or, with its reason, into `NOT_IN_TEST_ALL`.
    """
    extras = _extras()
    named: set[str] = set()
    for requirement in extras["test-all"]:
        if requirement.startswith("tienlen["):
            named |= set(
                requirement.removeprefix("tienlen[").partition("]")[0].split(",")
            )
    assert named == set(extras) - set(NOT_IN_TEST_ALL) - {"test-all"}
    assert set(NOT_IN_TEST_ALL) <= set(extras)
    assert any(requirement.startswith("mypy") for requirement in extras["test-all"])


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    """Issue 34 item 15: ``.ci/run``'s test command is the README's, with ``.[test-all]``.

    The README says, next to it, which test needs a system package and how long it takes.
    """
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"^TEST_CMD='(.*)'$", script, re.MULTILINE)
    assert command is not None
    assert '".[test-all]"' in command[1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```bash\n{command[1]}\n```" in readme
    after = readme.partition(command[1])[2].split("\n\n", 2)[1]
    assert "apt-get install chromium" in after
    assert "tests/server/test_browser.py" in after
    assert "minute" in after


def test_ci_has_a_quick_and_a_full_run() -> None:
    """``.ci/run quick`` is the local loop, ``.ci/run full`` (the default) is CI's."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "mode=${1:-full}" in script
    assert 'pytest -m "not slow" -x -q' in script
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".ci/run quick" in readme
    assert ".ci/run full" in readme
