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

from tests.server.browsing import (  # noqa: E402
    ARGS,
    CHROMIUM,
    NOTATION,
    card_name,
    launch,
    symbols,
)
from tests.server.serving import serving  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "_static"
DOCS_SHOTS = {  # artifact: the copy docs/server.md shows
    "server-table.png": "server-table.png",
    "server-end-phone.png": "server-end-phone.png",
    "server-options.png": "server-options.png",
}

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]


def _tap(page: Any, card: str, *, double: bool = False) -> None:
    """Click (or double-click) a card of the hand on its uncovered left edge."""
    target = page.locator(f'#hand .card[data-card="{card}"]')
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
    tap = f"document.querySelector('#hand .card[data-card=\"{wrong}\"]').click();"
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
        assert shown == (symbols(mine[-1], passed) if mine else ""), (seat, trick)
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
    page.fill("#name-input", "Dũng")  # the first time: the page asks for a name
    page.locator("#sit-down").click()
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() > 0
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
        assert page.locator("#notice").is_hidden()  # every move of the seat was its own
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


def _new_table(page: Any, artifacts: Path) -> str:
    """Choose the table's options in the New table dialog; the creator sits at seat 0.

    Classic with one house rule, a random bot and two greedy ones, two hands, a
    two-minute move clock, the name Ann. Returns the table's code.
    """
    page.wait_for_function("Object.keys(ui.presets).length === 5 && ui.bots.length > 0")
    page.locator("#new").click()
    assert page.locator("#options").is_visible()
    presets = page.locator("#variant option").all_inner_texts()
    assert presets == ["classic", "justus-pang", "kenneth-lo", "vietcong", "poker"]
    bots = page.locator("#seat-1 option").evaluate_all("(os) => os.map((o) => o.value)")
    assert bots == ["you", "open", "random", "greedy", "pimc", "ismcts"]
    page.select_option("#variant", "classic")
    page.locator("#house summary").click()
    rule = page.locator('input[data-setting="no_going_out_with_bomb"]')
    assert not rule.is_checked()
    rule.check()
    page.select_option("#seat-1", "random")
    assert page.locator("#seat-0").input_value() == "you"
    page.fill("#hands", "2")
    page.select_option("#clock", "120")
    page.fill("#opt-name", "Ann")
    page.screenshot(path=str(artifacts / "server-options.png"))
    page.locator("#create").click()
    page.wait_for_function(
        "location.hash !== '#main' && ui.info && ui.you === 0 && ui.view.hand.length > 0"
    )
    return str(page.evaluate("ui.tableId"))


def _options_shown(page: Any, port: int, code: str) -> None:
    """The table has the options chosen, and shows its rules, length, clock and link."""
    info = page.evaluate("ui.info")
    assert info["hands"] == 2
    assert info["clock"] == 120
    assert info["rules"]["settings"]["no_going_out_with_bomb"] is True
    assert [seat["bot"] for seat in info["seats"]] == [
        "greedy",
        "random",
        "greedy",
        "greedy",
    ]
    assert info["seats"][0]["name"] == "Ann"
    assert page.locator("#rules-line").inner_text() == (
        "Rules: classic, with house rules:"
    )
    assert page.locator("#house-rules li").all_inner_texts() == [
        "✓ No going out on a bomb: yes"
    ]
    assert page.locator("#match-line").inner_text() == (
        "Hand 1 of 2 · Move clock: 120 s a move"
    )
    link = page.locator("#share-link").input_value()
    assert link == f"http://127.0.0.1:{port}/#{code}"
    token = page.evaluate(
        "JSON.parse(localStorage.getItem('tienlen:seat:' + ui.tableId)).token"
    )
    assert token not in link
    assert page.evaluate("localStorage.getItem('tienlen:name')") == "Ann"
    names = page.locator("#totals-table td:first-child").all_inner_texts()
    assert names == ["Ann (you)", "Bot 1 · random", "Bot 2 · greedy", "Bot 3 · greedy"]


def _cards_named(page: Any, lang: str) -> None:
    """Every card of the hand has its spoken name; a selected one says so, not by colour."""
    hand = page.evaluate("ui.view.hand").split()
    labels = page.locator("#hand .card").evaluate_all(
        "(cards) => cards.map((c) => c.getAttribute('aria-label'))"
    )
    assert labels == [card_name(card, lang) for card in hand]
    _tap(page, hand[0])
    card = page.locator(f'#hand .card[data-card="{hand[0]}"]')
    assert card.get_attribute("aria-pressed") == "true"
    badge = card.evaluate("(c) => getComputedStyle(c, '::after').content")
    assert badge == '"✓"'
    _tap(page, hand[0])
    assert card.get_attribute("aria-pressed") == "false"
    page.evaluate("ui.refusal = null; render()")


def _create_refused_over_the_search_bot_limit(page: Any) -> None:
    """Four search bots at a table the creator watches; a fifth is refused, in Vietnamese."""
    page.locator("#new").click()
    page.select_option("#variant", "poker")
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "ismcts")
    page.locator("#create").click()  # a table of its own, at its own address
    page.wait_for_function(
        "location.hash !== '#main' && ui.info && ui.info.rules.name === 'poker'"
    )
    assert page.locator('.seat button:has-text("Sit here")').count() == 4
    assert page.locator("#status").inner_text().startswith("watching")
    page.locator("#lang").click()
    page.locator("#new").click()
    page.select_option("#seat-1", "pimc")
    page.locator("#create").click()
    error = page.locator("#options-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "Bạn đã dùng quá nhiều máy mạnh (pimc, ismcts)."
    assert page.locator("#options").is_visible()  # nothing made: choose again
    page.locator("#cancel").click()
    assert page.locator("#options").is_hidden()
    page.locator("#lang").click()


def test_a_person_plays_a_hand_against_three_bots(tmp_path: Path) -> None:
    """Two hands by clicking, on a desktop in Vietnamese and on a phone in English.

    The table's options are chosen in the New table dialog (rules, a house rule,
    each seat's bot, the number of hands, the clock, a name) and shown on the table
    with its share link. Names are distinct, every seat shows its last action of the
    trick, a refusal goes when the selection does, the end of each hand shows the
    finishing order, the hands left, why the points are what they are and the
    match's totals; the page never asks for a missing file (the favicon).
    """
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    missing: list[str] = []
    with (
        serving(tmp_path / "data", "--bot-delay", "0", "--rules", "classic") as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = launch(playwright, profile, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.on(
            "response",
            lambda r: missing.append(r.url) if r.status >= 400 else None,
        )
        sent = _frames_sent(page)
        page.goto(f"http://127.0.0.1:{port}/#main")
        _has_an_icon(page, port)
        page.wait_for_function("ui.connected")
        code = _new_table(page, artifacts)
        _options_shown(page, port, code)
        assert page.evaluate("[countText(1), countText(2)]") == ["1 card", "2 cards"]
        _cards_named(page, "en")
        page.locator("#lang").click()  # Tiếng Việt
        assert page.evaluate("[countText(1), countText(2)]") == ["1 lá", "2 lá"]
        _cards_named(page, "vi")
        assert page.locator("#match-line").inner_text() == "Ván 1/2 · Mỗi lượt 120 giây"
        refused = _play_a_hand(page, artifacts, "server-table.png")
        _end_explained(page, ["về nhất", "về nhì", "về ba", "về bét"], "trả")
        page.screenshot(path=str(artifacts / "server-end.png"))
        _markup_is_text(page)
        page.evaluate("ui.info.seats[1].kind = 'house'; render();")

        _second_hand_on_a_phone(page, artifacts)
        _match_over_and_leave(page)
        page.set_viewport_size({"width": 1280, "height": 800})
        _create_refused_over_the_search_bot_limit(page)
        context.close()
        _under_the_policy(playwright, port)
    assert refused
    assert not missing, missing  # no request of the page failed
    _moves_name_their_ply(sent)
    if os.environ.get("TIENLEN_UPDATE_SCREENSHOT"):
        for artifact, shown in DOCS_SHOTS.items():
            shutil.copy(artifacts / artifact, DOCS / shown)
