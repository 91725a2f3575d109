"""Helpers of the browser tests: Debian's Chromium under Playwright, and what the page shows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
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
"""Chromium's flags: headless, no sandbox (containers), no network of its own."""
NOTATION = re.compile(r"\b(?:[2-9TJQKA][scdh])\b")
"""A card in the library's notation: the page's text shows suit symbols instead."""
SUITS = {"s": "♠", "c": "♣", "d": "♦", "h": "♥"}
CARD_NAMES = {
    "en": (
        {"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"},
        {"J": "jack", "Q": "queen", "K": "king", "A": "ace", "T": "10"},
        "{rank} of {suit}",
    ),
    "vi": (
        {"s": "bích", "c": "chuồn", "d": "rô", "h": "cơ"},
        {"T": "10"},
        "{rank} {suit}",
    ),
}


def card_name(card: str, lang: str) -> str:
    """What a screen reader says for *card* (``"3s"``): ``3 of spades``, ``3 bích``."""
    suits, ranks, form = CARD_NAMES[lang]
    return form.format(rank=ranks.get(card[0], card[0]), suit=suits[card[1]])


def symbols(action: str, passed: str) -> str:
    """*action* as the page writes it: cards with suit symbols, or its word for a pass."""
    if action == "pass":
        return passed
    return " ".join(
        ("10" if c[0] == "T" else c[0]) + SUITS[c[1]] for c in action.split()
    )


def launch(playwright: Any, profile: str | Path, **options: Any) -> Any:
    """A Chromium context on the empty profile directory *profile*.

    The test's own waits evaluate strings, which the page's policy forbids: the
    context bypasses it (test_browser checks the page under its policy).
    """
    return playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=ARGS,
        headless=True,
        bypass_csp=True,
        **options,
    )


def tap_targets(page: Any) -> list[dict[str, float]]:
    """Each card of the hand's tap target: its box less the part the next card covers.

    Cards in one row (tops within half a card) overlap left to right; a card of
    another row covers nothing.
    """
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
        const boxes = [...document.querySelectorAll('#hand .card')]
          .map((card) => card.getBoundingClientRect());
        return boxes.map((box, i) => {
          const next = boxes[i + 1];
          const sameRow = next && Math.abs(next.top - box.top) < box.height / 2;
          const width = sameRow ? Math.min(box.width, next.left - box.left) : box.width;
          return {width, height: box.height, left: box.left, right: box.right};
        });
      }"""
    )


def no_horizontal_scroll(page: Any) -> bool:
    """Whether the page fits its viewport's width (nothing to scroll sideways)."""
    return bool(
        page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"
            " && document.body.scrollWidth <= window.innerWidth"
        )
    )


def key_to(page: Any, selector: str, limit: int = 80) -> None:
    """Move the keyboard's focus to *selector* with Tab (or Shift+Tab), as a person would.

    The direction is the element's place in the document from the focused one.
    """
    for _ in range(limit):
        where = page.evaluate(
            """(selector) => {
            const target = document.querySelector(selector);
            if (!target) return "missing";
            const active = document.activeElement;
            if (active === target) return "here";
            if (!active || active === document.body) return "after";
            const after = active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING;
            return after ? "after" : "before";
          }""",
            selector,
        )
        if where == "here":
            return
        assert where != "missing", selector
        page.keyboard.press("Tab" if where == "after" else "Shift+Tab")
    raise AssertionError(f"{selector} is not reachable with Tab")
