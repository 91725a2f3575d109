"""The review of a finished hand in the page (Chromium): moves, labels, better plays, graph."""

from __future__ import annotations

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
    CHROMIUM,
    NOTATION,
    card_name,
    key_to,
    launch,
    no_horizontal_scroll,
    symbols,
)
from tests.server.serving import serving  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "_static"
WORDS = {
    "en": {"title": "Review of hand 1", "better": "Better:", "pass": "Pass"},
    "vi": {"title": "Xem lại ván 1", "better": "Nên đánh:", "pass": "Bỏ lượt"},
}
LABELS = {
    "en": {
        "inaccuracy": "?! Inaccuracy",
        "mistake": "? Mistake",
        "blunder": "?? Blunder",
    },
    "vi": {
        "inaccuracy": "?! Nước chưa chính xác",
        "mistake": "? Nước sai",
        "blunder": "?? Nước sai nghiêm trọng",
    },
}


MIN_TARGET = 40
"""The least width and height, in CSS pixels, of a control a thumb taps."""
PROGRESS = {
    "en": re.compile(r"^(\d+) of (\d+) decisions$"),
    "vi": re.compile(r"^(\d+) trên (\d+) nước đi$"),
}

_RECORD_PROGRESS = """() => {
  window.progressSeen = [];
  const box = document.getElementById("review-progress");
  const note = () => window.progressSeen.push({
    shown: !box.hidden && box.getBoundingClientRect().height > 0,
    count: document.getElementById("review-count").textContent,
    value: document.getElementById("review-bar").value,
    max: document.getElementById("review-bar").max,
  });
  new MutationObserver(note).observe(document.getElementById("review"),
    {subtree: true, childList: true, attributes: true, characterData: true});
}"""
"""Note the progress indicator's state at every change of the review's dialog."""


def _play_the_hand(page: Any) -> None:
    """Sit at seat 0 and play its first legal action each turn, to the hand's end."""
    page.evaluate("localStorage.setItem('tienlen:name', 'Ann'); join(0)")
    page.wait_for_function("ui.you === 0 && ui.view.hand.length > 0")
    for _ in range(100):
        page.wait_for_function(
            "ui.ended !== null || (ui.view.toAct === ui.you && ui.view.legal.length > 0)"
        )
        if page.evaluate("ui.ended !== null"):
            return
        seen = page.evaluate("ui.actions")
        page.evaluate("move(ui.view.legal[0])")
        page.wait_for_function(f"ui.ended !== null || ui.actions > {seen}")
    raise AssertionError("the hand did not end")


def _review_shown(page: Any, lang: str) -> int:
    """Check the review against the server's data; the number of flagged moves."""
    words = WORDS[lang]
    page.wait_for_selector("#review-body:not([hidden])")
    assert page.locator("#review-title").inner_text() == words["title"]
    data = page.evaluate("ui.reviews[1]")
    played = page.evaluate("ui.ended.record.actions.length")
    moves = page.locator("#review-moves > li")
    assert moves.count() == len(data["actions"]) == played
    assert page.evaluate("ui.history.length") == played
    lines = page.locator("#review-graph svg polyline.seat-line")
    assert lines.count() == data["analysis"]["players"] == 2
    assert page.locator(
        "#review-graph svg .legend"
    ).all_text_contents() == page.evaluate("[nameOf(0), nameOf(1)]")
    assert page.locator("#review-accuracy tr").count() == 2
    flagged = {d["index"]: d for d in data["analysis"]["decisions"] if d["label"]}
    shown = page.locator("#review-moves > li.flagged")
    assert shown.count() == len(flagged)
    for index, decision in flagged.items():
        item = moves.nth(index)
        assert item.get_attribute("data-label") == decision["label"]
        assert item.locator(".badge").inner_text() == LABELS[lang][decision["label"]]
        better = decision["best"][0]["action"]["cards"] or "pass"
        line = item.locator(".better")
        assert line.inner_text().startswith(words["better"])
        cards = line.locator(".cards-line")
        assert cards.inner_text() == symbols(better, words["pass"])
        if better != "pass":
            assert cards.get_attribute("aria-label") == ", ".join(
                card_name(card, lang) for card in better.split()
            )
        assert item.locator(".explain").inner_text()
    marks = page.locator("#review-graph svg circle.flag-mark")
    assert marks.count() == len(flagged)
    assert not NOTATION.search(page.locator("#review").inner_text())
    return len(flagged)


def _another_hand_picked(page: Any) -> None:
    """After hand 2, its review offers hand 1 too, chosen from the keyboard."""
    assert page.locator("#review-pick").is_hidden()  # one hand played: nothing to pick
    page.locator("#next").click()
    page.wait_for_function("ui.ended === null")
    _play_the_hand(page)
    page.wait_for_selector("#scores:not([hidden])")
    page.evaluate(_RECORD_PROGRESS)
    page.locator("#review-open").click()
    page.wait_for_selector("#review-body:not([hidden])")
    _progress_came_and_went(page, "vi")
    assert page.locator("#review-title").inner_text() == "Xem lại ván 2"
    assert page.locator("#review-hand option").all_inner_texts() == ["Ván 1", "Ván 2"]
    key_to(page, "#review-hand")
    page.keyboard.press("ArrowUp")  # hand 1
    page.wait_for_function(
        "document.querySelector('#review-title').textContent === 'Xem lại ván 1'"
    )
    assert page.evaluate("document.activeElement.id") == "review-hand"
    assert page.locator("#review-moves > li").count() == len(
        page.evaluate("ui.reviews[1].actions")
    )
    page.keyboard.press("Escape")
    assert page.locator("#review").is_hidden()


def test_a_finished_hand_is_reviewed_in_the_page(tmp_path: Path) -> None:
    """Review, from the keyboard: the hand's moves, the flagged ones with the better play.

    A two-player hand against a house bot; the review (analysed on the server)
    lists every action of the hand, marks the flagged ones with a symbol and a
    word, shows the better play as cards, each player's accuracy and a graph
    with one line per seat and a legend; Escape closes it back to the table; in
    Vietnamese too.
    """
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    options = (
        "--bot-delay",
        "0",
        "--players",
        "2",
        "--seed",
        "3",
        "--review-budget",
        "4",
    )
    with (
        serving(tmp_path / "data", *options) as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = launch(playwright, profile, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.wait_for_function("ui.connected && ui.view !== null")
        _play_the_hand(page)
        page.wait_for_selector("#scores:not([hidden])")
        key_to(page, "#review-open")
        page.keyboard.press("Enter")
        assert page.locator("#review").is_visible()
        assert page.evaluate("document.activeElement.id") == "review-close"
        flagged = _review_shown(page, "en")
        assert flagged > 0
        page.locator("#review-moves > li.flagged").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "server-review.png"))
        page.keyboard.press("Escape")
        assert page.locator("#review").is_hidden()
        assert page.evaluate("document.activeElement.id") == "review-open"
        page.locator("#lang").click()
        key_to(page, "#review-open")
        page.keyboard.press("Enter")  # made once: shown at once, in Vietnamese
        assert _review_shown(page, "vi") == flagged
        key_to(page, "#review-close")
        page.keyboard.press("Enter")
        assert page.locator("#review").is_hidden()
        _another_hand_picked(page)
        context.close()
    if os.environ.get("TIENLEN_UPDATE_SCREENSHOT"):
        shutil.copy(artifacts / "server-review.png", DOCS / "server-review.png")


def _fits(page: Any, selector: str) -> None:
    """*selector* fits the viewport's width and has nothing to scroll sideways."""
    box = page.evaluate(
        """(selector) => {
        const el = document.querySelector(selector), r = el.getBoundingClientRect();
        return {left: r.left, right: r.right, scroll: el.scrollWidth, client: el.clientWidth,
                width: window.innerWidth};
      }""",
        selector,
    )
    assert box["left"] >= 0, (selector, box)
    assert box["right"] <= box["width"], (selector, box)
    assert box["scroll"] <= box["client"], (selector, box)


def _thumb_sized(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["width"] >= MIN_TARGET, (selector, box)
    assert box["height"] >= MIN_TARGET, (selector, box)


def _progress_came_and_went(page: Any, lang: str = "en") -> None:
    """The bar was shown with "n of m decisions", rising, then hidden with the review."""
    seen = page.evaluate("window.progressSeen")
    shown = [s for s in seen if s["shown"]]
    assert shown, seen
    counts = [PROGRESS[lang].match(s["count"]) for s in shown if s["count"]]
    assert counts, shown
    told = [(int(m[1]), int(m[2])) for m in counts if m]
    assert len(told) == len(counts), shown
    assert [done for done, _ in told] == sorted(done for done, _ in told)
    assert (
        told[-1][0]
        == told[-1][1]
        == len(page.evaluate("ui.reviews[ui.review.hand].analysis.decisions"))
    )
    assert page.locator("#review-progress").is_hidden()


def test_a_hand_is_reviewed_on_a_phone(tmp_path: Path) -> None:
    """At 390×844, by touch: progress while the server analyses, then the review fits.

    The bar and "n of m decisions" show while the review is made and go once it
    comes; the moves and the graph fit without sideways scrolling, the flagged
    moves are marked with the better play as cards, and the review's controls
    (Review, Close, the Hand list after a second hand) are at least 40 px each way.
    """
    artifacts = Path(os.environ.get("TIENLEN_ARTIFACTS", tmp_path))
    artifacts.mkdir(parents=True, exist_ok=True)
    options = ("--bot-delay", "0", "--players", "2", "--seed", "3")
    with (
        serving(tmp_path / "data", *options, "--review-budget", "8") as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        phone = launch(
            playwright, profile, viewport={"width": 390, "height": 844}, has_touch=True
        )
        page = phone.new_page()
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.wait_for_function("ui.connected && ui.view !== null")
        _play_the_hand(page)
        page.wait_for_selector("#scores:not([hidden])")
        _thumb_sized(page, "#review-open")
        page.evaluate(_RECORD_PROGRESS)
        page.locator("#review-open").tap()
        flagged = _review_shown(page, "en")
        assert flagged > 0
        _progress_came_and_went(page)
        assert no_horizontal_scroll(page)
        for part in ("#review", "#review-moves", "#review-graph", "#review-accuracy"):
            _fits(page, part)
        _fits(page, "#review-graph svg")
        _thumb_sized(page, "#review-close")
        page.locator("#review-moves > li.flagged").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "server-review-phone.png"))
        page.locator("#review-close").tap()
        assert page.locator("#review").is_hidden()
        page.locator("#next").tap()
        page.wait_for_function("ui.ended === null")
        _play_the_hand(page)
        page.wait_for_selector("#scores:not([hidden])")
        page.evaluate(_RECORD_PROGRESS)
        page.locator("#review-open").tap()
        page.wait_for_selector("#review-body:not([hidden])")
        _progress_came_and_went(page)
        for control in ("#review-close", "#review-hand"):
            _thumb_sized(page, control)
        page.locator("#review-hand").select_option("1")  # made already: at once
        page.wait_for_function(
            "document.querySelector('#review-title').textContent === 'Review of hand 1'"
        )
        assert page.locator("#review-moves > li.flagged").count() == flagged
        for part in ("#review", "#review-moves", "#review-graph svg"):
            _fits(page, part)
        phone.close()
    if os.environ.get("TIENLEN_UPDATE_SCREENSHOT"):
        shutil.copy(
            artifacts / "server-review-phone.png", DOCS / "server-review-phone.png"
        )
