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

import attrs
import pytest

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    POKER,
    RULESETS,
    VIETCONG,
    GameState,
    IllegalPlayError,
    InvalidArgumentError,
    Pass,
    Play,
    rule_section,
)
from tienlen.errors import IllegalReason
from tienlen.explain import NoComboReason, explain_beats
from tienlen.sections import _SECTIONS, DOCS_URL

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


# -- each refusal cites the rule that refused it (issue 22 §5) ---------------------

FOUR_PAIRS = "3s 3c 4s 4c 5s 5c 6s 6c"


def _refusal(state: GameState, action: Play | Pass) -> IllegalPlayError:
    """The refusal of *action*, the same from `check` and `apply`."""
    with pytest.raises(IllegalPlayError) as checked:
        state.check(action)
    with pytest.raises(IllegalPlayError) as applied:
        state.apply(action)
    assert checked.value.rule == applied.value.rule
    return checked.value


def _poker_on_a_two() -> GameState:
    """Poker, 2♥ led; player 1, not to act, holds four queens (no jump-in)."""
    hands = ["2h 9h", "Qs Qc Qd Qh 5d", "Ts Kd", "Js Kh"]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=0)
    return state.play("2h")


CITED = [
    pytest.param(
        GameState.from_hands(["3s 3c 3d 3h 4s 4c 4d 4h 9h", "5d 6d"], VIETCONG),
        Play(player=0, cards="3s 3c 3d 3h 4s 4c 4d 4h"),
        IllegalReason.CANNOT_LEAD,
        "d-13",
        id="vietcong-slam-lead",
    ),
    pytest.param(
        GameState.from_hands(
            ["3s 3c 4s 4c 5s 5c 9h", "6d 7d"],
            attrs.evolve(CLASSIC, bombs_may_lead=False),
        ),
        Play(player=0, cards="3s 3c 4s 4c 5s 5c"),
        IllegalReason.CANNOT_LEAD,
        "rules-12-1",
        id="house-bombs-may-not-lead",
    ),
    pytest.param(
        GameState.from_hands(
            ["3s 3c 3d 3h 9h", "6d 7d"],
            attrs.evolve(CLASSIC, four_of_a_kind_may_lead=False),
        ),
        Play(player=0, cards="3s 3c 3d 3h"),
        IllegalReason.CANNOT_LEAD,
        "rules-12-1",
        id="house-fours-may-not-lead",
    ),
    pytest.param(
        GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC),
        Play(player=0, cards="4s"),
        IllegalReason.MUST_INCLUDE,
        "rules-2-4",
        id="first-lead-3s",
    ),
    pytest.param(
        GameState.from_hands(["4s 7h", "5d 9c"], CLASSIC),
        Play(player=0, cards="7h"),
        IllegalReason.MUST_INCLUDE,
        "d-4",
        id="first-lead-lowest-card",
    ),
    pytest.param(
        GameState.from_hands(["3s 4s", "5d 6d"], VIETCONG, first_game=False, leader=0),
        Play(player=0, cards="4s"),
        IllegalReason.MUST_INCLUDE,
        "rules-5-3",
        id="vietcong-every-game",
    ),
    pytest.param(
        GameState.from_hands(
            ["3s 4s", "5d 6d"],
            POKER,
            first_game=False,
            after_instant_win=True,
            leader=0,
        ),
        Play(player=0, cards="4s"),
        IllegalReason.MUST_INCLUDE,
        "d-16",
        id="poker-after-instant-win",
    ),
    pytest.param(
        _poker_on_a_two(),
        Play(player=1, cards="Qs Qc Qd Qh"),
        IllegalReason.NOT_YOUR_TURN,
        "d-15",
        id="poker-jump-in-with-four-of-a-kind",
    ),
    pytest.param(
        GameState.from_hands(["3s 7h", "4d 5c"], JUSTUS_PANG).play("3s").pass_turn(),
        Play(player=0, cards="7h 7h"),
        IllegalReason.CARD_REPEATED,
        "rules-1-5-2",
        id="card-named-twice",
    ),
    pytest.param(
        GameState.from_hands(["3s 4s 5s 6s 9h", "7d 8d 9d Ts"], CLASSIC).play(
            "3s 4s 5s 6s"
        ),
        Play(player=1, cards="7d 8d 9d"),
        IllegalReason.WRONG_SHAPE,
        "rules-1-3",
        id="shorter-straight",
    ),
    pytest.param(
        GameState.from_hands(
            ["As 2c 3d 9h", "7d 8d"], CLASSIC, first_game=False, leader=0
        ),
        Play(player=0, cards="As 2c 3d"),
        IllegalReason.NOT_A_COMBO,
        "rules-1-4",
        id="wrapping-run",
    ),
    pytest.param(
        GameState.from_hands(["3s 7h", "5d 6d"], CLASSIC),
        Pass(player=0),
        IllegalReason.CANNOT_PASS,
        "rules-1-5-1",
        id="leader-passes",
    ),
    pytest.param(
        GameState.from_hands(
            ["3s 2h", "5d 6d"], attrs.evolve(CLASSIC, no_going_out_with_two=True)
        )
        .play("3s")
        .play("5d"),
        Play(player=0, cards="2h"),
        IllegalReason.CANNOT_GO_OUT,
        "rules-12-12",
        id="house-no-going-out-on-a-2",
    ),
]


@pytest.mark.parametrize(("state", "action", "reason", "label"), CITED)
def test_each_refusal_cites_the_rule_that_refused_it(
    state: GameState, action: Play | Pass, reason: IllegalReason, label: str
) -> None:
    """The label is that of the deciding rule, house rules included, and resolves."""
    error = _refusal(state, action)
    assert (error.reason, error.rule) == (reason, label), str(error)
    assert label in labels()
    section = rule_section(error.rule)
    assert section.label == label
    assert error.message().endswith(".")
    assert "§" not in error.message() + error.message("vi")


# -- rule_section ------------------------------------------------------------------


def reference_sections() -> dict[str, tuple[str, str, str]]:
    """Label → (number, title, page), read from the reference pages' targets."""
    found: dict[str, tuple[str, str, str]] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for at, line in enumerate(lines):
            target = TARGET.match(line)
            if target is None or not target[1].startswith(("rules-", "d-", "example-")):
                continue
            if target[1] == "rules-reference":
                continue
            found[target[1]] = _section(target[1], lines[at + 1 :], page.stem)
    return found


def _section(label: str, rest: list[str], page: str) -> tuple[str, str, str]:
    """The number and title of the section under *label*, from its first paragraph."""
    paragraph: list[str] = []
    for line in rest:
        if not line.strip() or TARGET.match(line):
            break
        paragraph.append(line.strip())
    first = " ".join(paragraph)
    kind, _, number = label.partition("-")
    if first.startswith("#"):
        title = re.sub(r"^\d+(\.\d+)*\.?\s*", "", first.lstrip("#").strip())
    elif kind == "rules":
        bold = re.match(r"\*\*[\d.]+\s+(.*?)\.?\*\*", first)
        assert bold is not None, label
        title = bold[1]
    elif kind == "d":
        body = re.sub(r"^\*\*D-\d+( ⚙)?\.\*\*\s*", "", first)
        title = re.split(r"(?<=\.)\s", body, maxsplit=1)[0].rstrip(".")
    else:
        title = re.sub(r"^\*\*Row \d+\*\*\s*", "", first).rstrip(".")
    title = re.sub(r"\{ref\}`([^<`]*?)\s*<[^>]*>`", r"\1", title)
    title = title.replace("*", "").replace("`", "")
    shown = {
        "rules": number.replace("-", "."),
        "d": f"D-{number}",
        "example": f"row {number}",
    }
    return shown[kind], title, page


def test_rule_section_knows_every_section_of_the_reference() -> None:
    """`rule_section` agrees with the reference pages: each label, number, title, page."""
    reference = reference_sections()
    assert len(reference) > 100
    for label, (number, title, page) in reference.items():
        section = rule_section(label)
        assert (section.number, section.title, section.page) == (number, title, page)
        assert section.anchor == f"reference/{page}.html#{label}"
        assert section.url == DOCS_URL + section.anchor
    assert set(_SECTIONS) == set(reference)


def test_rule_section_examples() -> None:
    """The issue's three labels, and how a section reads."""
    assert (rule_section("rules-2-4").number, rule_section("rules-2-4").title) == (
        "2.4",
        "The first lead",
    )
    assert (
        str(rule_section("d-13"))
        == "D-13 Consecutive quads are slams only: never a lead"
    )
    assert str(rule_section("rules-12-1")) == "§12.1 Bombs that may not lead"
    assert str(rule_section("example-19")).startswith("row 19 ")


def test_rule_section_refuses_unknown_labels() -> None:
    """An unknown label is an `InvalidArgumentError`; a non-string a `TypeError`."""
    for label in ("rules-99", "", "D-13", "rules-2-4 "):
        with pytest.raises(InvalidArgumentError):
            rule_section(label)
    with pytest.raises(TypeError):
        rule_section(13)  # type: ignore[arg-type]  # the point of the test


def test_no_docstring_sends_users_to_a_file_the_package_does_not_ship() -> None:
    """The package names no ``RULES.md``: its citations point at the rules reference."""
    shipped = sorted((ROOT / "src" / "tienlen").rglob("*.py"))
    naming = [
        str(path.relative_to(ROOT))
        for path in shipped
        if "RULES.md" in path.read_text(encoding="utf-8")
    ]
    assert naming == []
