"""Every rule citation resolves to a section of the rules reference (issue 13 §4).

The reference pages (``docs/reference/*.md``) give each section a MyST target:
``(rules-1-3)=`` for §1.3, ``(d-4)=`` for decision D-4, ``(example-19)=`` for row 19
of the worked examples. This test parses those targets and checks that every
citation the library makes has one: the ``rule`` labels the code emits (each
`IllegalReason`, each `NoComboReason`, each bomb table of `explain_beats`) and every
``§n``, ``D-n`` and ``row n`` written in ``src/`` and in the documentation pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tienlen import RULESETS
from tienlen.errors import IllegalReason
from tienlen.explain import NoComboReason, explain_beats

ROOT = Path(__file__).parents[2]
REFERENCE = ROOT / "docs" / "reference"
TARGET = re.compile(r"^\(([a-z0-9-]+)\)=$", re.MULTILINE)
CITATION = re.compile(r"§(\d+(?:\.\d+)*)|\bD-(\d+)\b|\b[Rr]ows? (\d+)\b")

BOMBS = {
    "classic": ("5s 5c 5d 5h", "2h"),
    "justus-pang": ("5s 5c 5d 5h", "2h"),
    "kenneth-lo": ("5s 5c 5d 5h", "2s 2h"),
    "vietcong": ("5s 5c 5d 5h", "2h"),
    "poker": ("9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c"),
}


def labels() -> set[str]:
    """Every target of the reference pages."""
    found: set[str] = set()
    for page in REFERENCE.glob("*.md"):
        found.update(TARGET.findall(page.read_text(encoding="utf-8")))
    return found


def label_of(match: re.Match[str]) -> str:
    """The reference label a citation names: ``§1.3`` → ``rules-1-3``."""
    section, decision, row = match.groups()
    if section is not None:
        return "rules-" + section.replace(".", "-")
    if decision is not None:
        return f"d-{decision}"
    return f"example-{row}"


def cited_in(paths: list[Path]) -> dict[str, set[str]]:
    """Label → the files that cite it."""
    cited: dict[str, set[str]] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        text = re.sub(
            r"STYLE (§[\d.]+|R\d+)", "", text
        )  # the style guide's own numbers
        for match in CITATION.finditer(text):
            cited.setdefault(label_of(match), set()).add(str(path.relative_to(ROOT)))
    return cited


def test_the_reference_has_every_section_and_decision() -> None:
    """Each section §1–§12, each subsection of §1–§6 and D-1…D-23 has a target."""
    found = labels()
    assert {f"d-{n}" for n in range(1, 24)} <= found
    assert {f"rules-{n}" for n in range(1, 13)} <= found
    assert {f"example-{n}" for n in range(1, 21)} <= found
    assert {"rules-1-5-1", "rules-1-5-6", "rules-6-6-1", "rules-6-6-4"} <= found


def test_every_label_the_code_emits_resolves() -> None:
    """Refusals, explanations and bomb verdicts carry labels the reference defines."""
    found = labels()
    emitted = {reason.rule for reason in IllegalReason}
    emitted |= {reason.rule for reason in NoComboReason}
    for name, (play, top) in BOMBS.items():
        verdict = explain_beats(play, top, RULESETS[name])
        assert verdict.beats, name
        emitted.add(verdict.rule)
    assert emitted - found == set()


@pytest.mark.parametrize("tree", ["src", "docs"])
def test_every_citation_in_the_text_resolves(tree: str) -> None:
    """Every ``§n``, ``D-n`` and ``row n`` in the sources and the docs has a target."""
    suffixes = {"src": ".py", "docs": ".md"}
    paths = sorted((ROOT / tree).rglob(f"*{suffixes[tree]}"))
    paths = [path for path in paths if "_build" not in path.parts]
    assert paths
    cited = cited_in(paths)
    assert cited
    missing = {label: sorted(files) for label, files in cited.items()}
    missing = {
        label: files for label, files in missing.items() if label not in labels()
    }
    assert missing == {}
