"""Actions read from text: what a chat referee is sent (issue 13 §3)."""

from __future__ import annotations

import random
import unicodedata

import pytest

from tienlen import (
    CLASSIC,
    POKER,
    GameState,
    IllegalPlayError,
    IllegalReason,
    InvalidArgumentError,
    InvalidCardError,
    Pass,
    Play,
)
from tienlen.rules import RULESETS

STATE = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).play("3s")


@pytest.mark.parametrize("text", ["pass", "PASS", " Pass ", "p", "P", "bỏ", "Bỏ lượt"])
def test_pass_in_any_case_and_both_languages(text: str) -> None:
    """``pass``, ``p`` and the Vietnamese *bỏ* are a pass by the player to act."""
    assert STATE.parse_action(text) == Pass(player=1)


@pytest.mark.parametrize("text", ["6d", "6D", "6♦", "6♢"])
def test_cards_in_every_notation(text: str) -> None:
    """Card text in every notation `parse_cards` reads is a play (RULES §1.1)."""
    assert STATE.parse_action(text) == Play(player=1, cards="6d")


def test_a_leading_seat_names_the_player() -> None:
    """``"2: …"`` is seat 2's action, for Poker jump-ins out of turn (RULES §6.4)."""
    assert STATE.parse_action("0: 4s") == Play(player=0, cards="4s")
    assert STATE.parse_action("1:pass") == Pass(player=1)
    assert STATE.parse_action("1: 6d", player=1) == Play(player=1, cards="6d")
    with pytest.raises(InvalidArgumentError):
        STATE.parse_action("0: 4s", player=1)


def test_reading_is_not_judging() -> None:
    """An illegal action reads fine; `check` refuses it with its reason."""
    action = STATE.parse_action("0: 4s")
    with pytest.raises(IllegalPlayError) as caught:
        STATE.check(action)
    assert caught.value.reason is IllegalReason.NOT_YOUR_TURN


@pytest.mark.parametrize("text", ["", "   ", "hello", "1:", "3s 1x", "\u212ad"])
def test_bad_text_is_refused(text: str) -> None:
    """Text that is neither a pass nor cards is an `InvalidCardError`."""
    with pytest.raises(InvalidCardError):
        STATE.parse_action(text)


def test_wrong_types_and_a_finished_game() -> None:
    """A non-string is a `TypeError`; after the game, nobody is to act."""
    with pytest.raises(TypeError):
        STATE.parse_action(None)  # type: ignore[arg-type]  # the point of the test
    over = STATE.play("6d").pass_turn().play("5d")
    assert over.is_over
    with pytest.raises(IllegalPlayError) as caught:
        over.parse_action("pass")
    assert caught.value.reason is IllegalReason.GAME_OVER


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
def test_every_legal_action_reads_back_from_its_text(rules: object) -> None:
    """``parse_action(f"{seat}: {action}")`` gives back every legal action of real games."""
    rng = random.Random(3)
    for _ in range(3):
        state = GameState.deal(rules, 4, rng)  # type: ignore[arg-type]
        while not state.is_over:
            actions = state.legal_actions()
            for action in actions:
                assert state.parse_action(f"{action.player}: {action}") == action
                if action.player == state.to_act:
                    assert state.parse_action(str(action)) == action
            state = state.apply(actions[rng.randrange(len(actions))])


def test_a_poker_jump_in_reads_with_its_seat() -> None:
    """A jump-in by a player not to act needs the seat (RULES §6.4, D-15)."""
    state = GameState.from_hands(
        ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"],
        POKER,
        first_game=False,
        leader=0,
    ).play("2h", 0)
    jump = state.parse_action("1: 4s 4c 5s 5c 6s 6c 7s 7c")
    assert state.is_legal(jump)


@pytest.mark.parametrize(
    "text",
    ["bỏ", "BỎ", "bỏ lượt", "Bỏ Lượt", "bỏ qua", "BỎ QUA", "qua", "Qua", "bỏ  lượt"],
)
def test_every_vietnamese_pass_word(text: str) -> None:
    """Issue 22 §4: *bỏ*, *bỏ lượt*, *bỏ qua* and *qua*, in any case, are a pass."""
    assert STATE.parse_action(text) == Pass(player=1)


@pytest.mark.parametrize(
    "text", ["bo", "BO", "bo luot", "Bo Luot", "bo qua", "bo  qua"]
)
def test_vietnamese_pass_words_without_accents(text: str) -> None:
    """*bo*, *bo luot*, *bo qua*: the pass words typed without accents are a pass."""
    assert STATE.parse_action(text) == Pass(player=1)


@pytest.mark.parametrize(("text", "cards"), [("6 ro", "6d"), ("6RO", "6d")])
def test_suit_words_without_accents(text: str, cards: str) -> None:
    """A suit word without accents (``6 ro`` for *6 rô*) is card text too."""
    assert STATE.parse_action(text) == Play(player=1, cards=cards)
    assert STATE.parse_action("0: 4 bich") == Play(player=0, cards="4s")


@pytest.mark.parametrize("text", ["bỏ", "bỏ lượt", "bỏ qua", "Bỏ Qua"])
def test_decomposed_text_reads_as_composed(text: str) -> None:
    """Issue 22 §4: NFD text (as some keyboards send it) is read after NFC."""
    decomposed = unicodedata.normalize("NFD", text)
    assert decomposed != text
    assert STATE.parse_action(decomposed) == Pass(player=1)


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000", "\u202f"])
def test_unicode_spaces_are_spaces(space: str) -> None:
    """Issue 20 finding 9: any Unicode space reads as a space, around a seat too."""
    assert STATE.parse_action(f"bỏ{space}lượt") == Pass(player=1)
    assert STATE.parse_action(f"{space}1{space}:{space}6d{space}") == Play(
        player=1, cards="6d"
    )
    assert STATE.parse_action(f"0:{space}4s") == Play(player=0, cards="4s")


@pytest.mark.parametrize("text", ["6 rô", "6rô", "6 RÔ", "6♦"])
def test_vietnamese_suit_words_in_actions(text: str) -> None:
    """Issue 22 §2: card text with a Vietnamese suit word is a play."""
    assert STATE.parse_action(text) == Play(player=1, cards="6d")


def test_empty_text_has_a_sentence_for_the_player() -> None:
    """An empty action says what to type, in both languages."""
    with pytest.raises(InvalidCardError) as caught:
        STATE.parse_action("  ")
    assert caught.value.message() == "Type cards, such as 7h 7s, or pass."
    assert caught.value.message("vi") == "Hãy gõ các lá, ví dụ 7h 7s, hoặc bỏ."


@pytest.mark.parametrize(
    "text",
    ["đánh 6 rô", "ĐÁNH 6d", "Đánh  6♦", "đi 6d", "Đi 6 rô", "play 6d", "PLAY 6d"],
)
def test_a_verb_may_come_before_the_cards(text: str) -> None:
    """Issue 34 item 17: *đánh* or *đi* (en: ``play``) before the cards is a play."""
    assert STATE.parse_action(text) == Play(player=1, cards="6d")


@pytest.mark.parametrize("text", ["danh 6 ro", "di 6d", "1: đánh 6d", "đánh\u00a06d"])
def test_the_verb_without_accents_after_a_seat_and_a_unicode_space(text: str) -> None:
    """The verb reads as the pass words do: without accents, after a seat, any space."""
    assert STATE.parse_action(text) == Play(player=1, cards="6d")
    decomposed = unicodedata.normalize("NFD", text)
    assert STATE.parse_action(decomposed) == Play(player=1, cards="6d")


@pytest.mark.parametrize("text", ["đánh", "play ", "Đi", "1: đánh"])
def test_a_verb_without_cards_is_refused(text: str) -> None:
    """A verb alone names no action: the empty card text, in both languages."""
    with pytest.raises(InvalidCardError) as caught:
        STATE.parse_action(text)
    assert caught.value.problem == "empty"
    assert caught.value.message("vi") == "Hãy gõ các lá, ví dụ 7h 7s, hoặc bỏ."


@pytest.mark.parametrize("text", ["đánhh 6d", "playing 6d", "đánh6d", "đánh bỏ"])
def test_only_the_verb_as_a_word_is_read(text: str) -> None:
    """A longer word, or the verb run into the cards, is no verb: refused as typed."""
    with pytest.raises(InvalidCardError) as caught:
        STATE.parse_action(text)
    assert caught.value.token is not None
    assert caught.value.token in text


@pytest.mark.parametrize(
    ("text", "token", "en", "vi"),
    [
        (
            "ba bích",
            "ba bích",
            "ba bích is not a card: write a rank (3 to 10, J, Q, K, A, 2) and a suit (s, c, d, h), such as 7h.",
            "ba bích không phải là lá bài: hãy gõ số (3 đến 10, J, Q, K, A, 2) rồi chất (s, c, d, h), ví dụ 7h.",
        ),
        (
            "đánh ba bích",
            "ba bích",
            "ba bích is not a card: write a rank (3 to 10, J, Q, K, A, 2) and a suit (s, c, d, h), such as 7h.",
            "ba bích không phải là lá bài: hãy gõ số (3 đến 10, J, Q, K, A, 2) rồi chất (s, c, d, h), ví dụ 7h.",
        ),
        (
            "7 cơ 8 bíchx",
            "8",
            "8 has no suit: add s, c, d or h (spades, clubs, diamonds, hearts).",
            "8 thiếu chất: thêm s (bích), c (chuồn), d (rô) hoặc h (cơ).",
        ),
    ],
)
def test_a_refusal_quotes_the_players_own_words(
    text: str, token: str, en: str, vi: str
) -> None:
    """Issue 34 item 17: ``ba bích`` is refused as typed, never as the ``bas`` read.

    The suit word is read as a letter before the cards are parsed; the refusal
    names the words the player typed, in English and Vietnamese.
    """
    with pytest.raises(InvalidCardError) as caught:
        STATE.parse_action(text)
    assert caught.value.token == token
    assert "bas" not in str(caught.value)
    assert f"'{token}' in " in str(caught.value)
    assert caught.value.message("en") == en
    assert caught.value.message("vi") == vi
