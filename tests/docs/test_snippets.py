"""The documentation's snippets are self-contained (issue 13 §6).

No name is injected into the doctests (``doctest_global_setup`` is gone from
``docs/conf.py``): every ``{doctest}`` block of the pages imports the `tienlen`
names it uses, so a reader can paste it as shown.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tienlen

DOCS = Path(__file__).parents[2] / "docs"
BLOCK = re.compile(r"^```\{doctest\}\n(.*?)^```", re.MULTILINE | re.DOTALL)
NAMES = set(tienlen.__all__) - {"__version__"}
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def test_nothing_is_injected() -> None:
    """``docs/conf.py`` sets up no global names for the doctests."""
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert not re.search(r"^doctest_global_setup\s*=", conf, re.MULTILINE)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(DOCS)))
def test_every_snippet_imports_what_it_uses(page: Path) -> None:
    """Each block imports every `tienlen` name it uses, in the block itself."""
    for block in BLOCK.findall(page.read_text(encoding="utf-8")):
        code = "\n".join(
            line[4:] for line in block.splitlines() if line.startswith((">>> ", "... "))
        )
        imported: set[str] = set()
        for match in re.finditer(r"from tienlen import \(?([^)\n]+)\)?", code):
            imported |= {name.strip().split(" as ")[0] for name in match[1].split(",")}
        bare = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", '""', code)
        used = {n for n in NAMES if re.search(rf"(?<![.\w]){re.escape(n)}\b", bare)}
        assert used <= imported, (page.name, sorted(used - imported), block[:200])
