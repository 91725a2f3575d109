"""The message catalogue (`tienlen.messages`): every text in English and Vietnamese.

Issue 13 §2: refusals, explanations, combination names and the command line's
lines come from one catalogue; every entry exists in both languages with the same
fields, and renders for every reason and kind.
"""

from __future__ import annotations

import ast
import pathlib
import re
from importlib import resources

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tienlen
from tests.strategies import combos
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    ComboKind,
    CustomInstantWin,
    GameState,
    InstantWin,
    InvalidArgumentError,
    InvalidCardError,
    ScoreItem,
    ScoreKind,
)
from tienlen.combos import Shape
from tienlen.engine.kinds import KINDS
from tienlen.errors import IllegalPlayError, IllegalReason, UnknownLanguageError
from tienlen.explain import (
    BeatsReason,
    NoComboReason,
    explain_beats,
    why_not_combination,
)
from tienlen.messages import (
    CATALOGUE,
    LANGUAGES,
    REVIEWED,
    card_error,
    card_text,
    fields_of,
    instant_win_name,
    kind_name,
    place_name,
    refusal,
    score_line,
    shape_name,
    text,
)

PRESETS: tuple[BaseRules, ...] = tuple(RULESETS.values())


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_entry_exists_in_both_languages(key: str) -> None:
    """Each entry has exactly English and Vietnamese, non-empty, with the same fields."""
    entry = CATALOGUE[key]
    assert set(entry) == set(LANGUAGES) == {"en", "vi"}
    assert all(entry[lang].strip() for lang in LANGUAGES)
    assert fields_of(entry["en"]) == fields_of(entry["vi"])
    fields = dict.fromkeys(fields_of(entry["en"]), "X")
    for lang in LANGUAGES:
        assert text(key, lang, **fields)


@pytest.mark.parametrize("reason", list(IllegalReason))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_renders(reason: IllegalReason, lang: str) -> None:
    """Every reason renders, with its cards and without, with no seat and no citation."""
    bare = IllegalPlayError(reason, 3, "", "detail")
    full = IllegalPlayError(
        reason, 3, "9h", "detail", top="2d", cards=("9h", "2d"), rules="classic"
    )
    for error in (bare, full):
        sentence = error.message(lang)
        assert sentence == refusal(error, lang)
        assert sentence.endswith(".")
        assert "3" not in sentence.replace("3♠", "")  # no seat number
        assert "RULES" not in sentence
        assert "§" not in sentence
        assert "{" not in sentence


def test_refusals_name_the_deciding_cards() -> None:
    """The sentence shows the cards that decide, as players write them (13 §1)."""
    error = IllegalPlayError(
        IllegalReason.DOES_NOT_BEAT, 1, "3d", "", top="2d", cards=("3d", "2d")
    )
    assert error.message() == "3♦ does not beat 2♦."
    assert error.message("vi") == "3♦ không chặn được 2♦."
    missing = IllegalPlayError(
        IllegalReason.CARDS_NOT_IN_HAND, 0, "Th", "", cards=("Th",)
    )
    assert missing.message() == "You do not hold 10♥."
    assert missing.message("vi") == "Bạn không có 10♥."


def test_an_unknown_language_is_refused() -> None:
    """A language the catalogue lacks: `UnknownLanguageError`, a `ValueError`."""
    error = IllegalPlayError(IllegalReason.CANNOT_PASS, 0, "pass", "")
    with pytest.raises(UnknownLanguageError, match="unknown language 'fr'"):
        error.message("fr")
    with pytest.raises(ValueError, match="known: en, vi"):
        text("word.pass", "de")


@pytest.mark.parametrize("kind", list(ComboKind), ids=lambda kind: kind.name)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_and_shape_has_a_name(kind: ComboKind, lang: str) -> None:
    """Every combination kind, and every shape of it, has a name in both languages."""
    assert kind_name(kind, lang)
    for length in (1,) if not kind.is_sequence else (3, 4, 5):
        name = shape_name(Shape.of(kind, length), lang)
        assert name
        assert "{" not in name


def test_the_table_words() -> None:
    """Vietnamese uses the words of the table: đôi, sám cô, tứ quý, sảnh, đôi thông."""
    names = {kind: kind_name(kind, "vi") for kind in ComboKind}
    assert names[ComboKind.PAIR] == "đôi"
    assert names[ComboKind.TRIPLE] == "sám cô"
    assert names[ComboKind.FOUR_OF_A_KIND] == "tứ quý"
    assert names[ComboKind.STRAIGHT] == "sảnh"
    assert names[ComboKind.CONSECUTIVE_PAIRS] == "đôi thông"
    assert CATALOGUE["kind.CONSECUTIVE_TRIPLES"]["vi"] == "sám cô liên tiếp"
    assert "chặt" in str(explain_beats("5s 5c 5d 5h", "2h").message("vi"))
    assert "heo" in explain_beats("5s 5c 5d 5h", "2h").message("vi")


BEATS_CASES = [
    ("7h 7s", "7d 7c", CLASSIC, BeatsReason.HIGHER, "rules-1-3"),
    ("3d", "2d", CLASSIC, BeatsReason.NOT_HIGHER, "rules-1-3"),
    ("5s 5c 5d 5h", "2h", CLASSIC, BeatsReason.BOMB, "rules-2-3"),
    ("9s 9c 9d 9h", "3s 3c 4s 4c 5s 5c", POKER, BeatsReason.BOMB, "rules-6-3"),
    ("7s 7c 7d 7h 8s 8c 8d 8h", "2d 2h", VIETCONG, BeatsReason.BOMB, "rules-5-2"),
    ("9c Tc Jc", "3s 4s 5s 6s", CLASSIC, BeatsReason.DIFFERENT_SHAPES, "rules-1-3"),
]


@pytest.mark.parametrize(("play", "top", "rules", "because", "rule"), BEATS_CASES)
def test_explain_beats_is_data(
    play: str, top: str, rules: BaseRules, because: BeatsReason, rule: str
) -> None:
    """`explain_beats` returns the verdict, what decides and the rule (RULES §1.3, bombs)."""
    why = explain_beats(play, top, rules)
    assert why.beats is (because in (BeatsReason.HIGHER, BeatsReason.BOMB))
    assert (why.because, why.rule) == (because, rule)
    assert str(why).startswith("yes: " if why.beats else "no: ")
    assert str(why).endswith(
        f"(RULES §{rule.removeprefix('rules-').replace('-', '.')})"
    )
    for lang in LANGUAGES:
        assert "RULES" not in why.message(lang)
        assert why.message(lang).endswith(".")


@pytest.mark.parametrize(("play", "top", "rules", "because", "rule"), BEATS_CASES)
def test_explain_beats_reason_is_the_clause_without_the_verdict(
    play: str, top: str, rules: BaseRules, because: BeatsReason, rule: str
) -> None:
    """`BeatsExplanation.reason` is the reason alone; `clause` puts the verdict first."""
    why = explain_beats(play, top, rules)
    assert why.because is because
    verdicts = {"en": ("yes", "no"), "vi": ("được", "không")}
    for lang in LANGUAGES:
        verdict = verdicts[lang][0 if why.beats else 1]
        reason = why.reason(lang)
        assert not reason.startswith(verdicts[lang]), (lang, reason)
        assert why.clause(lang) == f"{verdict}: {reason}"
        assert (
            why.message(lang)
            == why.clause(lang)[:1].upper() + why.clause(lang)[1:] + "."
        )
    assert (
        str(why)
        == f"{why.clause()} (RULES §{rule.removeprefix('rules-').replace('-', '.')})"
    )
    with pytest.raises(UnknownLanguageError):
        why.reason("fr")


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
@given(data=st.data())
def test_every_explanation_renders(rules: BaseRules, data: st.DataObject) -> None:
    """For any two combinations, both languages render and the verdict is `beats`."""
    play, top = data.draw(combos(rules)), data.draw(combos(rules))
    why = explain_beats(play, top, rules)
    assert why.beats == rules.beats(play, top)
    for lang in LANGUAGES:
        assert "{" not in why.message(lang)


NOT_COMBOS = [
    ("", CLASSIC, NoComboReason.EMPTY),
    ("3s 3c 3d 3h 3s", CLASSIC_TWO_DECKS, NoComboReason.TOO_MANY_OF_A_RANK),
    ("3s 3h 4d", CLASSIC, NoComboReason.UNEVEN),
    ("As 2c 3d", CLASSIC, NoComboReason.WRAPS),
    ("7h 8s Td", CLASSIC, NoComboReason.NOT_CONSECUTIVE),
    ("3s 3c 3d 4s 4c 4d", CLASSIC, NoComboReason.TRIPLE_RUN),
    ("3s 4h", CLASSIC, NoComboReason.SHORT_STRAIGHT),
    ("3s 3h 4s 4h", CLASSIC, NoComboReason.SHORT_PAIRS),
    ("3s 3c 3d 3h 4s 4c 4d 4h", CLASSIC, NoComboReason.KIND_EXCLUDED),
    ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", POKER, NoComboReason.PAIRS_COUNT),
    ("Jd Qh Kh Ac 2d", VIETCONG, NoComboReason.TWO_ON_TOP),
]


@pytest.mark.parametrize(("cards", "rules", "reason"), NOT_COMBOS)
def test_why_not_combination_is_data(
    cards: str, rules: BaseRules, reason: NoComboReason
) -> None:
    """`why_not_combination` names the reason and the rule; both languages render."""
    why = why_not_combination(cards, rules)
    assert why is not None
    assert why.reason is reason
    assert why.rule == reason.rule
    assert str(why).endswith(")")
    assert "RULES §" in str(why)
    for lang in LANGUAGES:
        sentence = why.message(lang)
        assert sentence.endswith(".")
        assert "RULES" not in sentence
        assert "{" not in sentence
        clause = why.clause(lang)
        assert sentence == clause[:1].upper() + clause[1:] + "."


def test_why_not_combination_str_is_the_01_text() -> None:
    """``str()`` keeps the sentences of 0.1, with their sections."""
    assert str(why_not_combination("As 2c 3d")) == (
        "sequences never wrap around from 2 to 3 (RULES §1.4)"
    )
    assert str(why_not_combination("Jd Qh Kh Ac 2d", VIETCONG)) == (
        "vietcong does not allow a 2 at the top of a straight (RULES §1.4, §10)"
    )
    assert str(why_not_combination("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", POKER)) == (
        "poker allows 3 to 4 consecutive pairs, not 5 (RULES §10)"
    )
    assert why_not_combination("3s 3h") is None


COMMANDS = frozenset(
    {"pass", "hint", "quit", "seed", "decks", "games", "workers", "cpu"}
)
"""English words the Vietnamese texts keep on purpose: the CLI's commands and options
(``--decks``, ``--games``, ``--workers``), *seed*, and *CPU*."""


def _ascii_words(template: str) -> set[str]:
    bare = re.sub(r"\{\w+\}|'[^']*'", " ", template)
    return {w.casefold() for w in re.findall(r"\w{3,}", bare) if w.isascii()}


def test_no_english_left_in_vietnamese() -> None:
    """No Vietnamese text reuses a word of the English ones (issue 13 §2).

    The exceptions are the commands a player types, which the CLI reads in English too,
    and who reviewed each column (``language.reviewed``: a name, not a text).
    """
    english = set().union(*(_ascii_words(entry["en"]) for entry in CATALOGUE.values()))
    for key, entry in CATALOGUE.items():
        if key == "language.reviewed":
            continue
        leftovers = _ascii_words(entry["vi"]) & english - COMMANDS
        assert not leftovers, (key, sorted(leftovers))
    assert _ascii_words("người chơi {player} wins") & english == {"wins"}


@pytest.mark.parametrize("kind", list(ScoreKind))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_score_item_renders(kind: ScoreKind, lang: str) -> None:
    """Each kind of score item reads in both languages, paid or scored, with its catches."""
    chop = CLASSIC.classify("2h")
    assert chop is not None
    for item in (
        ScoreItem(kind=kind, player=0, payer=1, points=3),
        ScoreItem(kind=kind, player=0, payer=1, points=3, combos=[chop]),
        ScoreItem(kind=kind, player=0, points=3),
    ):
        line = score_line(item, lang)
        assert "{" not in line
        assert "3" in line
    plain = ScoreItem(kind=kind, player=0, payer=1, points=3)
    assert score_line(plain) == str(plain)


def test_score_lines_in_vietnamese() -> None:
    """Score lines use the table words: cóng, thối, chặt, tới trắng (issue 13 §2)."""
    frozen = ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=2, points=6)
    assert score_line(frozen, "vi") == "cóng: người chơi 2 trả 6 cho người chơi 0"
    end = ScoreItem(kind=ScoreKind.END_PENALTY, player=1, payer=3, points=4)
    assert score_line(end, "vi").startswith("thối: ")
    win = ScoreItem(kind=ScoreKind.INSTANT_WIN, player=1, points=12)
    assert score_line(win, "vi") == "tới trắng: người chơi 1 được 12 điểm"
    with pytest.raises(TypeError):
        score_line("stake", "vi")  # type: ignore[arg-type]
    with pytest.raises(UnknownLanguageError):
        score_line(win, "fr")


@pytest.mark.parametrize("win", list(InstantWin))
def test_every_instant_win_has_a_name(win: InstantWin) -> None:
    """Each built-in instant win is named in both languages, not by its value."""
    names = {lang: instant_win_name(win, lang) for lang in LANGUAGES}
    assert all(names.values())
    assert names["vi"] != win.value
    assert names["en"] != names["vi"]


def test_a_custom_instant_win_keeps_its_name() -> None:
    """A table's own hand is shown by its name; bad input is refused."""
    own = CustomInstantWin(name="all-low", test=lambda _: False)
    assert instant_win_name(own, "vi") == "all-low"
    with pytest.raises(TypeError):
        instant_win_name("four-twos")  # type: ignore[arg-type]
    with pytest.raises(UnknownLanguageError):
        instant_win_name(own, "fr")


# -- issue 22: the referee, tried as a new user would -------------------------------


@pytest.mark.parametrize("cards", ["3s 3s", "2h 2h", "3s 3s 4s"])
def test_a_card_named_twice_is_refused_as_that(cards: str) -> None:
    """§1: a repeated card is not "you do not hold it", in either language."""
    state = GameState.from_hands(["3s 4s 5s 2h", "6d 7d"], CLASSIC)
    with pytest.raises(IllegalPlayError) as caught:
        state.play(cards)
    error = caught.value
    assert error.reason is IllegalReason.CARD_REPEATED
    card = cards.split(maxsplit=1)[0]
    shown = card_text(card)
    assert error.cards == (card,)
    assert error.message() == f"You named {shown} more times than you hold it."
    assert error.message("vi") == f"Bạn gõ {shown} nhiều lần hơn số lá bạn có."
    assert "not hold" not in error.message()


def test_a_card_not_held_is_still_not_held() -> None:
    """A card named twice and one not held at all: the card not held is reported."""
    state = GameState.from_hands(["3s 4s 5s", "6d 7d"], CLASSIC)
    with pytest.raises(IllegalPlayError) as caught:
        state.play("3s 3s 9h")
    assert caught.value.reason is IllegalReason.CARDS_NOT_IN_HAND
    assert caught.value.message("vi") == "Bạn không có 9♥."


def test_a_straight_of_another_length_is_the_same_kind() -> None:
    """§3: a 3-card straight on a 4-card one: same kind, not the same number of cards."""
    state = GameState.from_hands(["3s 4s 5s 6s 9h", "7d 8d 9d Ts"], CLASSIC)
    state = state.play("3s 4s 5s 6s")
    with pytest.raises(IllegalPlayError) as caught:
        state.play("7d 8d 9d")
    error = caught.value
    assert error.reason is IllegalReason.WRONG_SHAPE
    assert error.message() == (
        "7♦ 8♦ 9♦ cannot go on 3♠ 4♠ 5♠ 6♠: the same kind of combination, "
        "but not the same number of cards."
    )
    assert error.message("vi") == (
        "7♦ 8♦ 9♦ không chặn được 3♠ 4♠ 5♠ 6♠: phải cùng loại và cùng số lá."
    )
    verdict = explain_beats("9c Tc Jc", "3s 4s 5s 6s")
    assert verdict.message() == (
        "No: a 3-card straight cannot beat a 4-card straight: "
        "the same kind, but not the same number of cards."
    )
    assert "phải cùng loại và cùng số lá" in verdict.message("vi")
    pairs = explain_beats("5s 5c 6s 6c 7s 7c", "3s 3c 4s 4c 5d 5h 6d 6h")
    assert "not the same number of cards" in pairs.message()


def test_different_kinds_are_still_different_kinds() -> None:
    """A pair on a single is not the same kind, in both languages."""
    error = IllegalPlayError(
        IllegalReason.WRONG_SHAPE, 1, "6s 6c", "", top="9s", rules="classic"
    )
    assert (
        error.message()
        == "6♠ 6♣ cannot go on 9♠: it is not the same kind of combination."
    )
    assert error.message("vi") == "6♠ 6♣ không chặn được 9♠ vì không cùng loại."


FLAGGED = (
    "hạng",
    "không được: không",
    "về thứ",
    "chặt ngang",
    "sám cô heo",
    "đánh tham",
)
"""The Vietnamese wordings issue 22 §6 flagged."""


def test_the_flagged_vietnamese_wordings_are_gone() -> None:
    """§6: none of the flagged words or phrases is left in any Vietnamese text."""
    for key, entry in CATALOGUE.items():
        for phrase in FLAGGED:
            assert phrase not in entry["vi"].casefold(), (key, phrase)


def _browser_client_vietnamese() -> list[str]:
    """The strings of the browser client's Vietnamese texts (``TEXT.vi`` in app.js)."""
    script = (resources.files("tienlen.server") / "static" / "app.js").read_text(
        encoding="utf-8"
    )
    block = re.search(r"^  vi: \{(.*?)^\};", script, re.MULTILINE | re.DOTALL)
    assert block is not None, "app.js has no TEXT.vi block"
    return re.findall(r'"([^"]*)"', block.group(1))


def test_the_browser_client_has_none_of_the_flagged_wordings() -> None:
    """§6 for the game server's client: its Vietnamese strings avoid the flagged words."""
    strings = _browser_client_vietnamese()
    assert "Bạn có thể chặt ngoài lượt!" in strings  # the block was found and read
    for string in strings:
        for phrase in FLAGGED:
            assert phrase not in string.casefold(), (string, phrase)


def test_one_vietnamese_verb_for_beat() -> None:
    """§6: "beat" is *chặn* everywhere; *chặt* only for a bomb; never *đánh lên*."""
    for key, entry in CATALOGUE.items():
        english, vietnamese = entry["en"], entry["vi"]
        assert "đánh lên" not in vietnamese, key
        if re.search(r"\bbeats?\b", english) and "bomb table" not in english:
            assert "chặn" in vietnamese, key
    assert "chặt" in CATALOGUE["beats.BOMB"]["vi"]


@pytest.mark.parametrize(
    ("place", "players", "en", "vi"),
    [
        (1, 4, "1st", "nhất"),
        (2, 4, "2nd", "nhì"),
        (3, 4, "3rd", "ba"),
        (4, 4, "4th", "bét"),
        (2, 2, "2nd", "bét"),
        (5, 8, "5th", "năm"),
    ],
)
def test_places_as_players_say_them(place: int, players: int, en: str, vi: str) -> None:
    """§6: *về nhì*, not *về thứ 2*; the last place is *bét*."""
    assert (place_name(place, players), place_name(place, players, "vi")) == (en, vi)


def test_places_out_of_range_are_refused() -> None:
    """A place that is not at the table is an error."""
    for place, players in ((0, 4), (5, 4), (1, 9)):
        with pytest.raises(InvalidArgumentError):
            place_name(place, players)
    with pytest.raises(TypeError):
        place_name("1", 4)  # type: ignore[arg-type]  # the point of the test


def test_the_vietnamese_is_marked_reviewed() -> None:
    """§6: the catalogue says who reviewed each language."""
    assert set(REVIEWED) == set(LANGUAGES)
    assert REVIEWED["vi"] == "project"


def test_every_card_problem_has_a_sentence() -> None:
    """Each `InvalidCardError.problem` the parser sets has an entry in both languages."""
    problems = {
        "rank-number",
        "unknown-rank",
        "missing-suit",
        "unknown-suit",
        "too-long",
        "too-many",
        "empty",
        "duplicate",
        "too-many-copies",
    }
    for problem in problems:
        assert set(CATALOGUE[f"card.{problem}"]) == set(LANGUAGES)
    with pytest.raises(TypeError):
        card_error(ValueError("x"), "en")  # type: ignore[arg-type]  # the point
    with pytest.raises(UnknownLanguageError):
        card_error(InvalidCardError("x"), "fr")


@pytest.mark.parametrize("kind", list(ComboKind), ids=lambda kind: kind.name)
def test_every_kind_has_its_words_in_the_catalogue(kind: ComboKind) -> None:
    """Issue 35 §6: a kind's words are catalogue entries, under its member's name."""
    assert f"kind.{kind.name}" in CATALOGUE
    key = f"shape.{kind.name}" if kind.is_sequence else f"words.{kind.name}"
    assert key in CATALOGUE
    assert fields_of(CATALOGUE[key]["en"]) <= {"rank", "size", "length"}


def test_the_kind_table_holds_no_words() -> None:
    """Issue 35 §6: a row of `KINDS` is structure: ints, flags and setting names.

    Its only strings are the member's name, its rules section and the names of the
    `BaseRules` settings that govern it.
    """
    settings = set(attrs.fields_dict(type(CLASSIC)))
    for row in KINDS.values():
        strings = [value for value in row if isinstance(value, str)]
        strings += [item for value in row if isinstance(value, tuple) for item in value]
        for value in strings:
            assert isinstance(value, str), (row.name, value)
            assert value in settings | {row.name, row.section}, (row.name, value)


def test_the_state_imports_no_words() -> None:
    """Issue 35 §6: the game state raises refusals as data and imports no words.

    Nothing of the text floor at module level; `tienlen.messages` and
    `tienlen.explain` nowhere (the notation and SVG hooks defer by design).
    """
    path = pathlib.Path(tienlen.__file__).parent / "game.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    text_floor = {"messages", "explain", "notation", "svg", "records", "sections"}

    def imported(nodes: list[ast.stmt] | list[ast.AST]) -> set[str]:
        names: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names |= {f"{node.module}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
        return {name.removeprefix("tienlen.") for name in names}

    assert not imported(tree.body) & text_floor
    assert not imported(list(ast.walk(tree))) & {"messages", "explain"}


def test_the_state_reads_no_words() -> None:
    """Issue 35 §6: the state holds no words of a language to read text with.

    No string of its code (docstrings aside) has a letter outside ASCII: the pass
    words and verbs (*bỏ lượt*, *đánh*) are read by ``tienlen._action_text``.
    """
    path = pathlib.Path(tienlen.__file__).parent / "game.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    words = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and any(char.isalpha() and not char.isascii() for char in node.value)
    ]
    assert words == []
