"""A real browser (Debian's Chromium, headless, driven by Playwright) plays a hand by clicking."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.serving import serving  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DOCS_SHOT = (
    Path(__file__).resolve().parents[2] / "docs" / "_static" / "server-table.png"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]


def _refused(page: Any, hand: list[str], legal: list[str]) -> bool:
    """Select a card that is no legal play: the server's refusal shows, in Vietnamese."""
    wrong = next((c for c in hand if not any(a.split() == [c] for a in legal)), None)
    if wrong is None:
        return False
    page.locator(f'img.card[data-card="{wrong}"]').click()
    page.wait_for_function("ui.refusal !== null")
    expected = page.evaluate("ui.refusal.message.vi")
    assert page.locator("#message").inner_text() == expected
    assert expected != page.evaluate("ui.refusal.message.en")
    assert page.locator("#play").is_disabled()
    stale = page.evaluate('errorText({code: "stale", message: "the hand is at ply 9"})')
    assert stale == {
        "en": "the hand is at ply 9",
        "vi": "Ván đã sang lượt khác, hãy thử lại.",
    }
    other = page.evaluate('errorText({code: "not-over", message: "not over"})')
    assert other == {"en": "not over", "vi": "not over"}  # no translation: English
    page.locator(f'img.card[data-card="{wrong}"]').click()  # unselect
    return True


def _markup_is_text(page: Any) -> None:
    """A name holding markup (the server refuses one; say an older table has it) is text."""
    markup = '<img src=x onerror="window.pwned = 1">'
    page.evaluate(f"ui.info.seats[1].name = {markup!r}; render();")
    assert markup in page.locator("#score-table").inner_text()
    assert page.locator("#score-table img").count() == 0
    assert page.evaluate("window.pwned === undefined")


def _under_the_policy(playwright: Any, port: int) -> None:
    """The client works under the page's Content-Security-Policy: sit, see the hand."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=ARGS, headless=True
    )
    page = browser.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(f"http://127.0.0.1:{port}/#main")
    page.locator('.seat[data-seat="1"] button').click()
    page.wait_for_selector("#hand img.card")
    assert page.locator("#hand img.card").count() > 0
    browser.close()
    assert not [text for text in console if "Content Security Policy" in text]


def _next_hand_on_a_phone(page: Any, artifacts: Path) -> None:
    """Start the next hand on a phone-sized screen: the fanned hand fits its width."""
    page.locator("#next").click()
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("ui.ended === null && ui.view.hand.length > 0")
    assert page.locator("img.card").count() > 0
    box = page.locator("#hand").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    page.screenshot(path=str(artifacts / "server-table-phone.png"))


def _frames_sent(page: Any) -> list[str]:
    """The list the page's WebSocket frames to the server go to, as they are sent."""
    sent: list[str] = []

    def remember(text: str) -> None:
        sent.append(text)

    def watch(socket: Any) -> None:
        socket.on("framesent", remember)

    page.on("websocket", watch)
    return sent


def _moves_name_their_ply(sent: list[str]) -> None:
    """Every move the page sent names the ply it was chosen at: a replay is refused."""
    moves = [json.loads(text) for text in sent if '"move"' in text]
    moves = [move for move in moves if move["type"] == "move"]
    assert moves
    assert all(type(move.get("ply")) is int for move in moves), moves


def test_a_person_plays_a_hand_against_three_bots(tmp_path: Path) -> None:
    """Sit, see a refusal in Vietnamese, play a whole hand by clicking, see the scores."""
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    with (
        serving(tmp_path / "data", "--bot-delay", "0", "--rules", "classic") as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 1100, "height": 820},
            bypass_csp=True,  # the test's own waits evaluate strings; see _under_the_policy
        )
        page = context.new_page()
        sent = _frames_sent(page)
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.locator('.seat[data-seat="0"] button').click()
        page.wait_for_function("ui.you === 0 && ui.view && ui.view.hand.length > 0")
        page.locator("#lang").click()  # Tiếng Việt
        refused = False
        shot = False
        for _ in range(200):
            page.wait_for_function(
                "ui.ended !== null || (ui.view.toAct === 0 && ui.view.legal.length > 0)"
            )
            if page.evaluate("ui.ended !== null"):
                break
            seen = page.evaluate("ui.actions")
            legal = page.evaluate("ui.view.legal")
            hand = page.evaluate("ui.view.hand").split()
            refused = refused or _refused(page, hand, legal)
            choice = legal[0]
            if choice == "pass":
                page.locator("#pass").click()
            else:
                for card in choice.split():
                    page.locator(f'img.card[data-card="{card}"]').click()
                assert page.locator("#play").is_enabled()
                if (
                    not shot
                    and len(hand) <= 10
                    and page.evaluate("ui.view.top !== null")
                ):
                    page.screenshot(path=str(artifacts / "server-table.png"))
                    shot = True
                page.locator("#play").click()
            page.wait_for_function(f"ui.ended !== null || ui.actions > {seen}")
        page.wait_for_selector("#scores:not([hidden])")
        assert page.locator("#score-table tr").count() == 5
        _markup_is_text(page)
        page.screenshot(path=str(artifacts / "server-scores.png"))
        _next_hand_on_a_phone(page, artifacts)
        page.select_option("#variant", "poker")
        page.locator("#new").click()  # a table of its own, at its own address
        page.wait_for_function(
            "location.hash !== '#main' && ui.info && ui.info.rules.name === 'poker'"
        )
        assert page.locator('.seat button:has-text("Ngồi đây")').count() == 4
        context.close()
        _under_the_policy(playwright, port)
    assert refused
    assert shot
    _moves_name_their_ply(sent)
    if os.environ.get("TIENLEN_UPDATE_SCREENSHOT"):
        shutil.copy(artifacts / "server-table.png", DOCS_SHOT)
