"""On a phone (390 and 360 px wide): the hand's tap targets, the seats in play order; presence.

A player steps away (the page closed), a spectator sees the seat away, then played by
the house bot; the player comes back and is told what the bot played; Leave gives the
seat back to the house bot.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.browsing import (  # noqa: E402
    ARGS,
    CHROMIUM,
    launch,
    no_horizontal_scroll,
    symbols,
    tap_targets,
)
from tests.server.serving import serving  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]

MIN_TARGET = 40
"""The least width and height, in CSS pixels, of the part of a card a tap reaches."""


def _laid_out_for_a_thumb(page: Any, width: int) -> None:
    """Every card a tap target of 40 px or more; no sideways scroll; seats in play order."""
    targets = tap_targets(page)
    assert len(targets) == len(page.evaluate("ui.view.hand").split()) > 0
    for target in targets:
        assert target["width"] >= MIN_TARGET, (width, targets)
        assert target["height"] >= MIN_TARGET, (width, targets)
        assert target["left"] >= 0, (width, target)
        assert target["right"] <= width, (width, target)
    assert no_horizontal_scroll(page), width
    boxes = [
        page.locator(f'.seat[data-seat="{seat}"]').bounding_box() for seat in (1, 2, 3)
    ]
    left, top, right = boxes  # seat 0 plays first, then 1, 2, 3: clockwise from you
    assert left["x"] + left["width"] <= top["x"] + 1, boxes
    assert top["x"] + top["width"] <= right["x"] + 1, boxes
    assert top["y"] < left["y"], boxes
    assert top["y"] < right["y"], boxes
    assert all(box["x"] >= 0 for box in boxes), boxes
    assert all(box["x"] + box["width"] <= width for box in boxes), boxes
    centre = page.locator("#centre").bounding_box()
    hand = page.locator("#hand").bounding_box()
    assert max(box["y"] + box["height"] for box in boxes) <= centre["y"] + 1, boxes
    assert centre["y"] + centre["height"] <= hand["y"], (centre, hand)


def _sit(page: Any, port: int, name: str) -> None:
    page.goto(f"http://127.0.0.1:{port}/#main")
    page.locator('.seat[data-seat="0"] button').click()
    page.fill("#name-input", name)
    page.locator("#sit-down").click()
    page.wait_for_function("ui.you === 0 && ui.view.hand.length > 0")


def _bot_moves(page: Any, since: int) -> list[str]:
    """Seat 0's actions from ply *since* on, as the page writes them."""
    history = page.evaluate("ui.history")
    return [symbols(a["action"], "Pass") for a in history[since:] if a["seat"] == 0]


def test_a_phone_player_steps_away_comes_back_and_leaves(tmp_path: Path) -> None:
    """Phone layout at 390 and 360 px; away, taken over, told on return, Leave."""
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    with (
        serving(
            tmp_path / "data", "--bot-delay", "0", "--rules", "classic", "--grace", "3"
        ) as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        phone = launch(playwright, profile, viewport={"width": 390, "height": 844})
        page = phone.new_page()
        _sit(page, port, "Cam")
        page.wait_for_function("ui.view.toAct === ui.you && ui.view.legal.length > 0")
        _laid_out_for_a_thumb(page, 390)
        page.screenshot(path=str(artifacts / "server-phone-390.png"))
        page.set_viewport_size({"width": 360, "height": 740})
        _laid_out_for_a_thumb(page, 360)
        page.screenshot(path=str(artifacts / "server-phone-360.png"))

        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=ARGS, headless=True
        )
        watcher = browser.new_context(bypass_csp=True).new_page()
        watcher.goto(f"http://127.0.0.1:{port}/?table=main")  # a shared link
        watcher.wait_for_function("ui.info !== null && ui.view !== null")
        assert watcher.locator("#status").inner_text() == "watching · main"
        seat = watcher.locator('.seat[data-seat="0"]')
        assert seat.locator(".name").inner_text() == "Cam"
        assert seat.locator(".presence").count() == 0
        left_at = page.evaluate("ui.ply")
        page.close()  # Cam steps away on her turn

        watcher.wait_for_function("ui.info.seats[0].away")
        assert seat.locator(".presence").inner_text() == "away"
        assert seat.get_attribute("aria-label") == "Cam, away, to play"  # her turn
        watcher.wait_for_function(
            f"ui.history.some((a, i) => i >= {left_at} && a.seat === 0)"
        )  # after the grace the house bot plays for her
        assert seat.locator(".presence").inner_text() == "away · the bot plays"
        assert "away" in seat.get_attribute("class")
        watcher.screenshot(path=str(artifacts / "server-away.png"))

        page = phone.new_page()  # Cam comes back
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.wait_for_function("ui.you === 0 && ui.info !== null")
        notice = page.locator("#notice-text")
        notice.wait_for(state="visible")
        moves = _bot_moves(page, left_at)
        assert moves
        assert notice.inner_text() == f"The bot played for you: {', '.join(moves)}."
        watcher.wait_for_function("!ui.info.seats[0].away")
        assert seat.locator(".presence").count() == 0
        page.locator("#notice-close").click()
        assert page.locator("#notice").is_hidden()

        page.locator("#leave-seat").click()  # the seat goes back to its house bot
        page.wait_for_function("ui.you === null")
        assert page.locator('.seat[data-seat="0"] button').is_visible()  # free again
        watcher.wait_for_function("ui.info.seats[0].kind === 'house'")
        assert seat.locator(".name").inner_text() == "Bot 0 · greedy"
        browser.close()
        phone.close()


def test_the_clock_runs_out_and_the_page_says_what_the_bot_played(
    tmp_path: Path,
) -> None:
    """A player who lets the move clock run out is told the house bot's move, in Vietnamese."""
    with (
        serving(
            tmp_path / "data", "--bot-delay", "0", "--rules", "classic", "--clock", "1"
        ) as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        phone = launch(playwright, profile, viewport={"width": 390, "height": 844})
        page = phone.new_page()
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.locator("#lang").click()
        page.locator('.seat[data-seat="0"] button').click()
        page.fill("#name-input", "Cam")
        page.locator("#sit-down").click()
        page.wait_for_function("ui.you === 0")
        page.locator("#notice-text").wait_for(state="visible", timeout=15_000)
        page.wait_for_timeout(2500)  # the clock runs out again: the notice gathers
        text, history = page.evaluate(
            "[document.getElementById('notice-text').textContent, ui.history]"
        )
        moves = [symbols(a["action"], "Bỏ lượt") for a in history if a["seat"] == 0]
        assert len(moves) >= 2
        assert text == f"Máy đã đánh thay bạn: {', '.join(moves)}."
        phone.close()
