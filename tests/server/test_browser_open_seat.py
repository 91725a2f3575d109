"""Chromium: a table made with an open seat waits for a friend who comes by its link.

The creator uploads a house-rules file in the New table dialog (a bad one first:
the library's refusal shows in the dialog, in Vietnamese, and nothing is made),
keeps seat 1 open for a person, and waits; a second browser context opens the
share link, takes the open seat under a name of its own, and the hand is dealt
to both. At a second table, the creator fills its open seat with a bot and starts.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.browsing import CHROMIUM, launch  # noqa: E402
from tests.server.serving import serving  # noqa: E402
from tienlen import CLASSIC  # noqa: E402
from tienlen.records import rules_to_json  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    pytest.mark.slow,
]

WAIT = 20_000
"""Milliseconds any one wait of the page may take."""
HOUSE = attrs.evolve(CLASSIC, name="at Bình's", twos_in_straights=True)


def _upload(page: Any, name: str, text: str) -> None:
    """Choose *text* as the dialog's house-rules file *name*."""
    page.set_input_files(
        "#rules-file",
        files=[{"name": name, "mimeType": "application/json", "buffer": text.encode()}],
    )


def _bad_file_refused(page: Any) -> None:
    """A file the library refuses: its refusal in the dialog, in Vietnamese; no table."""
    page.locator("#new").click()
    page.locator("#house summary").click()
    _upload(page, "ours.json", '{"name": "x", "settings": {"decks": "two"}}')
    page.locator("#create").click()
    error = page.locator("#options-error")
    error.wait_for(state="visible", timeout=WAIT)
    said = error.inner_text()
    assert said.startswith("không đọc được luật chơi trong tệp 'ours.json'"), said
    assert "rules.settings.decks" in said
    assert page.locator("#options").is_visible()  # nothing made: choose again
    assert page.evaluate("location.hash") == "#main"


def _creates_with_an_open_seat(page: Any) -> str:
    """The good file, seat 1 open: the table waits for one player. Returns its link."""
    _upload(page, "ours.json", json.dumps(rules_to_json(HOUSE)))
    assert page.locator("#seat-0").input_value() == "you"
    page.select_option("#seat-1", "open")
    page.fill("#opt-name", "Ann")
    page.locator("#create").click()
    page.wait_for_function(
        "location.hash !== '#main' && ui.info && ui.you === 0", timeout=WAIT
    )
    info = page.evaluate("ui.info")
    assert info["rules"]["settings"]["twos_in_straights"] is True
    assert [seat["kind"] for seat in info["seats"]] == [
        "human",
        "open",
        "house",
        "house",
    ]
    assert page.locator("#waiting-text").inner_text() == "Đang chờ 1 người chơi…"
    page.locator("#lang").click()  # English
    assert page.locator("#waiting-text").inner_text() == "Waiting for 1 player…"
    assert page.locator("#fill-start").is_visible()  # the creator may start now
    assert page.locator("#take-open").is_hidden()
    assert page.locator("#hand .card").count() == 0  # nothing dealt
    assert page.locator(".seat.pos-left .name").inner_text() == "Open seat 1"
    return str(page.locator("#share-link").input_value())


def _friend_takes_the_seat(friend: Any, link: str) -> None:
    """The link shows the open seat; taking it asks a name, then deals."""
    friend.goto(link)
    friend.wait_for_function("ui.info && ui.connected", timeout=WAIT)
    assert friend.locator("#waiting-text").inner_text() == "Waiting for 1 player…"
    assert friend.locator("#fill-start").is_hidden()  # not the creator
    assert friend.evaluate("ui.info.open") == 1
    friend.locator("#take-open").click()
    friend.locator("#name-dialog").wait_for(state="visible", timeout=WAIT)
    friend.fill("#name-input", "Bình")
    friend.locator("#sit-down").click()
    friend.wait_for_function(
        "ui.you === 1 && ui.view.hand && ui.view.hand.length > 0", timeout=WAIT
    )


def _creator_starts_with_bots(page: Any) -> None:
    """Another table with seat 2 open: **Fill with bots and start** deals at once."""
    page.locator("#new").click()
    page.set_input_files("#rules-file", files=[])
    page.select_option("#seat-2", "open")
    page.locator("#create").click()
    page.wait_for_function(
        "ui.info && ui.you === 0 && openSeats().length === 1", timeout=WAIT
    )
    page.locator("#fill-start").click()
    page.wait_for_function("ui.view.hand && ui.view.hand.length > 0", timeout=WAIT)
    assert page.locator("#waiting").is_hidden()
    kinds = page.evaluate("ui.info.seats.map((s) => s.kind)")
    assert kinds == ["human", "house", "house", "house"]
    assert page.locator("#hand .card").count() == 13


def test_a_friend_takes_the_open_seat_by_the_link_and_the_hand_is_dealt(
    tmp_path: Path,
) -> None:
    """Creator and friend in two browser contexts; both get their 13 cards."""
    with (
        serving(tmp_path / "data", "--bot-delay", "0") as port,
        sync_api.sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as first,
        tempfile.TemporaryDirectory() as second,
    ):
        creator_context = launch(
            playwright, first, viewport={"width": 1280, "height": 800}
        )
        page = creator_context.new_page()
        page.goto(f"http://127.0.0.1:{port}/#main")
        page.wait_for_function(
            "ui.connected && Object.keys(ui.presets).length === 5", timeout=WAIT
        )
        page.locator("#lang").click()  # Tiếng Việt
        _bad_file_refused(page)
        link = _creates_with_an_open_seat(page)
        friend_context = launch(
            playwright, second, viewport={"width": 390, "height": 844}
        )
        friend = friend_context.new_page()
        _friend_takes_the_seat(friend, link)
        page.wait_for_function("ui.view.hand && ui.view.hand.length > 0", timeout=WAIT)
        for each in (page, friend):
            assert each.locator("#waiting").is_hidden()
            assert each.locator("#hand .card").count() == 13
        mine = set(page.evaluate("ui.view.hand").split())
        theirs = set(friend.evaluate("ui.view.hand").split())
        assert not mine & theirs
        names = page.locator("#totals-table td:first-child").all_inner_texts()
        assert names[:2] == ["Ann (you)", "Bình"]
        friend_context.close()
        _creator_starts_with_bots(page)
        creator_context.close()
