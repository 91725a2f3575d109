"""The documentation's snippets are self-contained (issue 13 §6).

No name is injected into the doctests (``doctest_global_setup`` is gone from
``docs/conf.py``): every ``{doctest}`` block of the pages imports the `tienlen`
names it uses, so a reader can paste it as shown. A ``python`` block (a script that
is shown, not run: pools, Ray, a web server) defines or imports every name it uses.
No page is a placeholder ("to be documented").
"""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

import tienlen

DOCS = Path(__file__).parents[2] / "docs"
BLOCK = re.compile(r"^```\{doctest\}\n(.*?)^```", re.MULTILINE | re.DOTALL)
SCRIPT = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
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


def unbound(code: str) -> set[str]:
    """The names *code* reads but never imports, assigns or defines (nor builtins)."""
    tree = ast.parse(code)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {
                (alias.asname or alias.name).split(".")[0] for alias in node.names
            }
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    read = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }
    return read - bound


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(DOCS)))
def test_every_script_defines_what_it_uses(page: Path) -> None:
    """Each ``python`` block parses and binds every name it reads."""
    for script in SCRIPT.findall(page.read_text(encoding="utf-8")):
        assert not unbound(script), (page.name, sorted(unbound(script)), script[:200])


def test_unbound_names_are_found() -> None:
    """The check sees a name used before any import or assignment binds it."""
    assert unbound("from tienlen import CLASSIC\nsimulate(10, rules=CLASSIC)") == {
        "simulate"
    }
    assert not unbound("import tienlen.svg\nx = [tienlen.svg for _ in range(2)]")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(DOCS)))
def test_no_page_is_a_placeholder(page: Path) -> None:
    """No page promises text it does not have (issue 13 §6: "to be documented")."""
    text = page.read_text(encoding="utf-8").casefold()
    assert "to be documented" not in text
    assert "(todo" not in text
