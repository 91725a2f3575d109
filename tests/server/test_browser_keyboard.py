"""A hand played from the keyboard alone, in Vietnamese: Tab, Space and Enter (Chromium)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.browsing import CHROMIUM, card_name, key_to, launch  # noqa: E402
from tests.server.serving import serving  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]


def _sit_from_the_keyboard(page: Any) -> None:
    """Sit at seat 0: Enter on Sit here, a name typed (a refused one first), Enter."""
    key_to(page, '.seat[data-seat="0"] button')
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label == "Ngồi đây: ghế 0, đang là Máy 0 · greedy"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "name-input"
    page.keyboard.type("Máy 2 · greedy")  # a label of the page's: refused
    page.keyboard.press("Enter")
    page.locator("#name-error").wait_for(state="visible")
    assert page.locator("#name-error").inner_text() == "Tên này không dùng được."
    assert page.evaluate("document.activeElement.id") == "name-input"
    page.keyboard.press("Control+A")
    page.keyboard.type("Bình")
    page.keyboard.press("Enter")
    page.wait_for_function("ui.you === 0 && ui.view.hand.length > 0")
    assert page.evaluate("nameOf(0)") == "Bình (bạn)"


def _turn_by_keys(page: Any) -> None:
    """The first legal action: each card focused with Tab and pressed with Space; Enter."""
    choice = page.evaluate("ui.view.legal[0]")
    if choice == "pass":
        key_to(page, "#pass")
        page.keyboard.press("Enter")
        return
    for card in choice.split():
        key_to(page, f'#hand .card[data-card="{card}"]')
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
            card_name(card, "vi")
        )
        page.keyboard.press("Space")
        pressed = f'#hand .card[data-card="{card}"][aria-pressed="true"]'
        assert page.locator(pressed).count() == 1
    key_to(page, "#play")
    assert page.evaluate("document.activeElement.disabled") is False
    page.keyboard.press("Enter")


def test_one_hand_is_played_from_the_keyboard(tmp_path: Path) -> None:
    """Every control a hand needs is reached with Tab and used with Space or Enter.

    The language switch, Sit here, the name prompt (refusal included), each card,
    Play and Pass, and at the hand's end Next hand, which takes the focus. The seat
    to act says so in words, not only with its outline.
    """
    with (
        serving(tmp_path / "data", "--bot-delay", "0", "--rules", "classic") as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = launch(playwright, profile, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.wait_for_function("ui.connected && ui.view !== null")
        key_to(page, "#lang")
        page.keyboard.press("Enter")
        assert page.evaluate("ui.lang") == "vi"
        key_to(page, "#new")  # the New table dialog opens and closes from the keyboard
        page.keyboard.press("Enter")
        assert page.locator("#options").is_visible()
        assert page.evaluate("document.activeElement.id") == "variant"
        page.keyboard.press("Escape")
        assert page.locator("#options").is_hidden()
        to_act = page.locator(".seat.to-act .turn")  # nobody sits: the bots wait
        assert to_act.inner_text() == "▶ đang đánh"
        _sit_from_the_keyboard(page)
        for _ in range(200):
            page.wait_for_function(
                "ui.ended !== null || (ui.view.toAct === ui.you && ui.view.legal.length > 0)"
            )
            if page.evaluate("ui.ended !== null"):
                break
            seen = page.evaluate("ui.actions")
            _turn_by_keys(page)
            page.wait_for_function(f"ui.ended !== null || ui.actions > {seen}")
        else:
            raise AssertionError("the hand did not end in 200 turns")
        page.wait_for_selector("#scores:not([hidden])")
        assert page.evaluate("document.activeElement.id") == "next"
        page.keyboard.press("Enter")
        page.wait_for_function("ui.ended === null && ui.view.hand.length > 0")
        context.close()
