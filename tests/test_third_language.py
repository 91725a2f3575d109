"""A third language is one column of the catalogue (issue 35 §6).

The fixture adds a pseudo-language ``"xx"`` whose every template is the English one
in brackets, ``⟦…⟧``, and changes nothing else. Every refusal, card error,
explanation, kind, score line and catalogue entry then renders in it: each template
the English sentence used is used in ``"xx"`` too (none missing), and none of them
falls back to English.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

import pytest

from tienlen import (
    CLASSIC,
    VIETCONG,
    ComboKind,
    GameState,
    IllegalPlayError,
    IllegalReason,
    InstantWin,
    InvalidCardError,
    ScoreItem,
    ScoreKind,
    messages,
)
from tienlen.combos import Shape
from tienlen.explain import (
    BeatsReason,
    NoComboReason,
    NotACombination,
    explain_beats,
    why_not_combination,
)

XX = "xx"


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Add the column ``"xx"``; yield the (key, language) of every template used."""
    column = {
        key: {**entry, XX: f"⟦{entry['en']}⟧"}
        for key, entry in messages.CATALOGUE.items()
    }
    monkeypatch.setattr(messages, "CATALOGUE", column)
    monkeypatch.setattr(messages, "LANGUAGES", messages._columns(column))
    calls: list[tuple[str, str]] = []
    text = messages.text

    def spy(key: str, lang: str = "en", **fields: object) -> str:
        calls.append((key, lang))
        return text(key, lang, **fields)

    monkeypatch.setattr(messages, "text", spy)
    return calls


def check_column(render: Callable[[str], str], used: list[tuple[str, str]]) -> str:
    """Render in English and in ``"xx"``: the same templates, all from their column."""
    used.clear()
    english = render("en")
    keys = [key for key, _ in used]
    assert {lang for _, lang in used} == {"en"}
    used.clear()
    other = render(XX)
    assert [key for key, _ in used] == keys, "a template missing in xx"
    assert {lang for _, lang in used} == {XX}, "a template fell back to English"
    assert other.startswith("⟦"), other
    assert other.count("⟦") == other.count("⟧") >= 1, other
    bare = other.replace("⟦", "").replace("⟧", "")
    assert bare == english or bare == english[:1].lower() + english[1:]  # capital
    return other


@pytest.mark.usefixtures("used")
def test_the_column_is_a_language() -> None:
    """The new column is a language everywhere: `LANGUAGES`, `text`."""
    assert messages.LANGUAGES == ("en", "vi", XX)
    assert messages.text("word.pass", XX) == "⟦pass⟧"


def _refusals() -> Iterator[IllegalPlayError]:
    for reason in IllegalReason:
        yield IllegalPlayError(reason, 3, "", "detail")
        yield IllegalPlayError(
            reason, 3, "9h", "detail", top="2d", cards=("9h", "2d"), rules="classic"
        )
    # the template variants: a straight on a straight of another length
    yield IllegalPlayError(
        IllegalReason.WRONG_SHAPE, 1, "3s 4s 5d", "", top="6c 7c 8c 9c"
    )


@pytest.mark.parametrize("error", list(_refusals()), ids=str)
def test_every_refusal_renders(
    error: IllegalPlayError, used: list[tuple[str, str]]
) -> None:
    """Every `IllegalReason`, with cards and without, renders in the new column."""
    check_column(error.message, used)


def test_the_engines_refusals_render(used: list[tuple[str, str]]) -> None:
    """Refusals raised by the game state render in the new column."""
    state = GameState.from_hands(["3s 4h 7c 7d", "5d 6d", "8c 8h"], CLASSIC)
    tries: list[Callable[[], object]] = [
        state.pass_turn,
        lambda: state.play("4h"),
        lambda: state.play("3s 4h"),
        lambda: state.play("5d", player=1),
        lambda: state.play("3s").play("7c 7d", player=1),
    ]
    for attempt in tries:
        with pytest.raises(IllegalPlayError) as caught:
            attempt()
        check_column(caught.value.message, used)


@pytest.mark.parametrize(
    ("problem", "token"),
    [
        ("rank-number", "11h"),
        ("unknown-rank", "1x"),
        ("missing-suit", "7"),
        ("unknown-suit", "7x"),
        ("too-long", None),
        ("too-many", None),
        ("empty", None),
        ("duplicate", "3s"),
        ("too-many-copies", "3s"),
        (None, None),  # any other: card.any
    ],
)
def test_every_card_error_renders(
    problem: str | None, token: str | None, used: list[tuple[str, str]]
) -> None:
    """Every `InvalidCardError.problem`, and an unknown one, renders in the new column."""
    error = InvalidCardError("bad cards", problem=problem, token=token)
    check_column(error.message, used)


def _no_combos() -> Iterator[NotACombination]:
    fields: dict[NoComboReason, tuple[tuple[str, str], ...]] = {
        NoComboReason.KIND_EXCLUDED: (("kind", "CONSECUTIVE_QUADS"),),
        NoComboReason.TWO_ON_TOP: (("kind", "STRAIGHT"),),
        NoComboReason.PAIRS_COUNT: (
            ("kind", "CONSECUTIVE_PAIRS"),
            ("low", "3"),
            ("high", "4"),
            ("count", "5"),
        ),
        NoComboReason.RUN_LENGTH: (
            ("kind", "CONSECUTIVE_TRIPLES"),
            ("low", "2"),
            ("high", "3"),
            ("count", "4"),
        ),
        NoComboReason.SHAPE_EXCLUDED: (("shape", "STRAIGHT:5"),),
    }
    for reason in NoComboReason:
        yield NotACombination(reason, (), "classic", fields.get(reason, ()))
    yield NotACombination(NoComboReason.TOO_MANY_OF_A_RANK, (), "x", (("most", "5"),))


@pytest.mark.parametrize("why", list(_no_combos()), ids=lambda why: why.reason.name)
def test_every_no_combination_reason_renders(
    why: NotACombination, used: list[tuple[str, str]]
) -> None:
    """Every `NoComboReason` renders in the new column."""
    check_column(why.message, used)


def test_the_explanations_render(used: list[tuple[str, str]]) -> None:
    """Every `BeatsReason`, and `why_not_combination`'s answers, render."""
    cases = [
        ("7h", "7d"),
        ("3d", "2d"),
        ("5s 5c 5d 5h", "2h"),
        ("9c Tc Jc", "3s 4s 5s 6s"),
        ("3s 3c", "4h"),
        ("3s 3c", "2h"),
        ("9c Tc Jc", "2h 2d"),
    ]
    seen = set()
    for play, top in cases:
        verdict = explain_beats(play, top)
        seen.add(verdict.because)
        check_column(verdict.message, used)
        check_column(verdict.reason, used)
    assert seen == set(BeatsReason)
    why = why_not_combination("Jd Qh Kh Ac 2d", VIETCONG)
    assert why is not None
    check_column(why.message, used)


@pytest.mark.parametrize("kind", list(ComboKind), ids=lambda kind: kind.name)
def test_every_kind_renders(kind: ComboKind, used: list[tuple[str, str]]) -> None:
    """Every kind's name and shape render in the new column."""
    check_column(lambda lang: messages.kind_name(kind, lang), used)
    length = 3 if kind.is_sequence else 1
    shape = Shape.of(kind, length)
    check_column(lambda lang: messages.shape_name(shape, lang), used)


def test_the_score_lines_and_hands_render(used: list[tuple[str, str]]) -> None:
    """Score lines, instant wins and places render in the new column."""
    chopped = CLASSIC.classify("2h")
    assert chopped is not None
    items = [ScoreItem(kind=kind, player=0, payer=1, points=2) for kind in ScoreKind]
    items.append(
        ScoreItem(kind=ScoreKind.CHOP, player=0, payer=1, points=4, combos=[chopped])
    )
    for item in items:
        check_column(functools.partial(messages.score_line, item), used)
    for win in InstantWin:
        check_column(functools.partial(messages.instant_win_name, win), used)
    check_column(functools.partial(messages.place_name, 2, 4), used)


@pytest.mark.parametrize("key", sorted(messages.CATALOGUE))
def test_every_entry_renders(key: str, used: list[tuple[str, str]]) -> None:
    """Every entry of the catalogue renders in the new column."""
    fields = dict.fromkeys(messages.fields_of(messages.CATALOGUE[key]["en"]), "X")
    check_column(lambda lang: messages.text(key, lang, **fields), used)
