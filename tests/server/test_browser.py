"""A real browser (Debian's Chromium, headless, driven by Playwright) plays a hand by clicking."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.serving import serving  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "_static"
DOCS_SHOTS = {  # artifact: the copy docs/server.md shows
    "server-table.png": "server-table.png",
    "server-end-phone.png": "server-end-phone.png",
}
NOTATION = re.compile(r"\b(?:[2-9TJQKA][scdh])\b")
"""A card in the library's notation: the page's text shows suit symbols instead."""
SUITS = {"s": "♠", "c": "♣", "d": "♦", "h": "♥"}
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


def _tap(page: Any, card: str, *, double: bool = False) -> None:
    """Click (or double-click) a card of the hand on its uncovered left edge."""
    target = page.locator(f'img.card[data-card="{card}"]')
    corner = {"x": 8, "y": 40}
    if double:
        target.dblclick(position=corner)
    else:
        target.click(position=corner)


def _refused(page: Any, hand: list[str], legal: list[str]) -> bool:
    """Select a card that is no legal play: the server's refusal shows, in Vietnamese."""
    wrong = next((c for c in hand if not any(a.split() == [c] for a in legal)), None)
    if wrong is None:
        return False
    tap = f"document.querySelector('img.card[data-card=\"{wrong}\"]').click();"
    page.evaluate(tap + tap)  # select and deselect before the server answers the check
    page.wait_for_timeout(300)
    assert page.evaluate("ui.refusal") is None  # its answer came too late to show
    _tap(page, wrong)
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
    _tap(page, wrong)  # unselect
    page.wait_for_timeout(300)  # a late answer to the check must not bring it back
    assert page.evaluate("ui.refusal") is None
    assert page.locator("#message").inner_text() != expected
    return True


def _double_click_toggles_once(page: Any, card: str) -> None:
    """A double click on a card selects it (its second click is no second toggle)."""
    _tap(page, card, double=True)
    assert page.evaluate(f"ui.selected.has({card!r})")
    _tap(page, card)
    assert page.evaluate("ui.selected.size") == 0
    page.evaluate("ui.refusal = null; render()")


def _symbols(action: str, passed: str) -> str:
    """*action* as the page writes it: cards with suit symbols, or its word for a pass."""
    if action == "pass":
        return passed
    return " ".join(
        ("10" if c[0] == "T" else c[0]) + SUITS[c[1]] for c in action.split()
    )


def _seats_readable(page: Any) -> None:
    """Distinct names; each seat shows its last action of the trick; the top's owner."""
    names = page.evaluate("ui.info.seats.map((s) => nameOf(s.seat))")
    assert len(set(names)) == len(names), names
    history = page.evaluate("ui.history")
    trick = history[page.evaluate("ui.trickStart") :]
    passed = page.evaluate('t("passed")')
    for seat in range(1, 4):
        mine = [a["action"] for a in trick if a["seat"] == seat]
        shown = page.locator(f'.seat[data-seat="{seat}"] .last-play').inner_text()
        assert shown == (_symbols(mine[-1], passed) if mine else ""), (seat, trick)
        box = page.locator(f'.seat[data-seat="{seat}"] .name')
        assert box.inner_text() == names[seat]
    top = page.evaluate("ui.view.top && ui.view.lastPlayer")
    if top is not None:
        assert names[top] in page.locator("#owner").inner_text()
    lines = page.locator("#last").inner_text() + page.locator("#moves").inner_text()
    assert not NOTATION.search(lines), lines
    assert len(history) == page.locator("#moves li").count()


def _end_explained(page: Any, places: list[str], pays: str) -> None:
    """The finishing order with its words, every hand left as cards, the points' reasons."""
    page.wait_for_selector("#scores:not([hidden])")
    ended = page.evaluate("ui.ended")
    result = ended["result"]
    order = page.locator("#order li")
    assert order.count() == 4
    for place, seat in enumerate(result["finishOrder"]):
        line = order.nth(place)
        assert line.inner_text().startswith(places[place])
        left = ended["left"][seat].split()
        assert line.locator("img").count() == len(left)
        shown = [
            line.locator("img").nth(i).get_attribute("data-card")
            for i in range(len(left))
        ]
        assert shown == left
    why = page.locator("#why li")
    assert why.count() == len(result["items"]) > 0
    assert all(pays in why.nth(i).inner_text() for i in range(why.count()))
    assert not NOTATION.search(page.locator("#scores").inner_text())
    hands = len(page.evaluate("ui.info.results"))
    totals = page.locator("#totals-table tr")
    assert totals.count() == 5
    assert totals.nth(1).locator("td").count() == hands + 2  # name, each hand, total
    total = page.evaluate("ui.ended.totals")
    for seat in range(4):
        cells = totals.nth(seat + 1).locator("td")
        assert cells.last.inner_text() == str(total[seat])


def _markup_is_text(page: Any) -> None:
    """A name holding markup (the server refuses one; say an older table has it) is text."""
    markup = '<img src=x onerror="window.pwned = 1">'
    page.evaluate(
        f"ui.info.seats[1].name = {markup!r}; ui.info.seats[1].kind = 'human'; render();"
    )
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


def _has_an_icon(page: Any, port: int) -> None:
    """The page names its icon, and the icon is served there and at ``/favicon.ico``."""
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    for path in (icon, "/favicon.ico"):
        answer = page.request.get(f"http://127.0.0.1:{port}{path}")
        assert answer.status == 200, path
        assert answer.headers["content-type"].startswith("image/svg+xml")


def _play_a_hand(page: Any, artifacts: Path, shot: str | None) -> bool:
    """Play the hand to its end by clicking (the first legal action each turn).

    Checks the seats, a refusal and the clock along the way; returns whether the
    refusal was seen.
    """
    refused = shot is None  # the refusal is checked once, in the first hand
    for _ in range(200):
        page.wait_for_function(
            "ui.ended !== null || (ui.view.toAct === ui.you && ui.view.legal.length > 0)"
        )
        if page.evaluate("ui.ended !== null"):
            return refused
        _seats_readable(page)
        assert re.search(r"\b\d+ (s left|giây)", page.locator("#my-clock").inner_text())
        assert not re.search(r"\b1 cards\b", page.locator("body").inner_text())
        seen = page.evaluate("ui.actions")
        legal = page.evaluate("ui.view.legal")
        hand = page.evaluate("ui.view.hand").split()
        if not refused:
            refused = _refused(page, hand, legal)
            _double_click_toggles_once(page, hand[-1])
        choice = legal[0]
        if choice == "pass":
            page.locator("#pass").click()
        else:
            for card in choice.split():
                _tap(page, card)
            assert page.locator("#play").is_enabled()
            if shot and len(hand) <= 10 and page.evaluate("ui.view.top !== null"):
                page.screenshot(path=str(artifacts / shot))
                shot = None
            page.locator("#play").click()
        page.wait_for_function(f"ui.ended !== null || ui.actions > {seen}")
    raise AssertionError("the hand did not end in 200 turns")


def _second_hand_on_a_phone(page: Any, artifacts: Path) -> None:
    """The next hand on a phone-sized screen, in English, to its end."""
    page.locator("#next").click()  # the next hand, on a phone, in English
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#lang").click()
    page.wait_for_function("ui.ended === null && ui.view.hand.length > 0")
    box = page.locator("#hand").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    page.screenshot(path=str(artifacts / "server-table-phone.png"))
    _play_a_hand(page, artifacts, None)
    _end_explained(page, ["1st", "2nd", "3rd", "last"], "pays")
    page.screenshot(path=str(artifacts / "server-end-phone.png"))


def _match_over_and_leave(page: Any) -> None:
    """The match's end says why it ended and who won; the panel steps aside; Leave."""
    banner = page.locator("#match-end").inner_text()
    assert banner.startswith("Match over: all 2 hands are played.")
    totals = page.evaluate("ui.ended.totals")
    assert f"with {max(totals)} points" in banner
    assert page.locator("#rematch").is_visible()
    assert page.locator("#next").is_hidden()
    page.locator("#hide-end").click()  # the table behind the panel
    assert page.locator("#scores").is_hidden()
    page.locator("#results").click()
    assert page.locator("#scores").is_visible()
    page.locator("#leave").click()
    page.wait_for_function("ui.you === null")
    assert page.evaluate("localStorage.getItem('tienlen:seat:' + ui.tableId)") is None


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
    """Two hands by clicking, on a desktop in Vietnamese and on a phone in English.

    Names are distinct, every seat shows its last action of the trick, a refusal goes
    when the selection does, the end of each hand shows the finishing order, the hands
    left, why the points are what they are and the match's totals; the page never asks
    for a missing file (the favicon).
    """
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    missing: list[str] = []
    with (
        serving(
            tmp_path / "data",
            "--bot-delay",
            "0",
            "--rules",
            "classic",
            "--clock",
            "600",
        ) as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 1280, "height": 800},
            bypass_csp=True,  # the test's own waits evaluate strings; see _under_the_policy
        )
        page = context.new_page()
        page.on(
            "response",
            lambda r: missing.append(r.url) if r.status >= 400 else None,
        )
        sent = _frames_sent(page)
        page.goto(f"http://127.0.0.1:{port}/#main")
        _has_an_icon(page, port)
        page.wait_for_function("ui.connected")
        page.evaluate("send({type: 'create', rules: 'classic', hands: 2})")  # a match
        page.wait_for_function(
            "location.hash !== '#main' && ui.info && ui.info.hands === 2"
        )
        page.locator('.seat[data-seat="0"] button').click()
        page.wait_for_function("ui.you === 0 && ui.view && ui.view.hand.length > 0")
        assert page.evaluate("[countText(1), countText(2)]") == ["1 card", "2 cards"]
        page.locator("#lang").click()  # Tiếng Việt
        assert page.evaluate("[countText(1), countText(2)]") == ["1 lá", "2 lá"]
        refused = _play_a_hand(page, artifacts, "server-table.png")
        _end_explained(page, ["về nhất", "về nhì", "về ba", "về bét"], "trả")
        page.screenshot(path=str(artifacts / "server-end.png"))
        _markup_is_text(page)
        page.evaluate("ui.info.seats[1].kind = 'house'; render();")

        _second_hand_on_a_phone(page, artifacts)
        _match_over_and_leave(page)

        page.select_option("#variant", "poker")
        page.locator("#new").click()  # a table of its own, at its own address
        page.wait_for_function(
            "location.hash !== '#main' && ui.info && ui.info.rules.name === 'poker'"
        )
        assert page.locator('.seat button:has-text("Sit here")').count() == 4
        context.close()
        _under_the_policy(playwright, port)
    assert refused
    assert not missing, missing  # no request of the page failed
    _moves_name_their_ply(sent)
    if os.environ.get("TIENLEN_UPDATE_SCREENSHOT"):
        for artifact, shown in DOCS_SHOTS.items():
            shutil.copy(artifacts / artifact, DOCS / shown)
