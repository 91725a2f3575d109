"""SVG pictures refuse what would make an invalid document (issue 14 item 9).

Every picture parses as well-formed XML, whatever caption it is given, or the call
is refused: ``size=inf`` or NaN, and captions with characters XML 1.0 forbids.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tienlen import CLASSIC, Hand, InvalidArgumentError, TienLenError, classify, svg

HAND = Hand.parse("3s 4s 5h")


@pytest.mark.parametrize("size", [math.inf, -math.inf, math.nan, 0, -1.0])
def test_sizes_that_draw_nothing_are_refused(size: float) -> None:
    """``size=inf`` once emitted ``width="inf"``; now every bad size is refused."""
    with pytest.raises(InvalidArgumentError, match="size must be positive"):
        svg.card(HAND.cards[0], size=size)
    with pytest.raises(InvalidArgumentError, match="size must be positive"):
        svg.cards(HAND, size=size)
    with pytest.raises(InvalidArgumentError, match="size must be positive"):
        svg.hand(HAND, size=size)


@pytest.mark.parametrize("size", ["1", None, True])
def test_sizes_of_the_wrong_type_are_refused(size: object) -> None:
    """A size is a number."""
    with pytest.raises(TypeError, match="size must be a number"):
        svg.hand(HAND, size=size)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "caption", ["bell\a", "nul\0", "esc\x1b[31m", "\ufffe", "\ud800"]
)
def test_captions_xml_cannot_hold_are_refused(caption: str) -> None:
    """Control characters would make the document ill-formed: refused, as input errors."""
    with pytest.raises(InvalidArgumentError, match="caption holds") as caught:
        svg.hand(HAND, caption=caption)
    assert isinstance(caught.value, TienLenError)
    assert isinstance(caught.value, ValueError)


def xml_forbids(char: str) -> bool:
    """Whether XML 1.0 cannot hold *char* at all (not even escaped)."""
    code = ord(char)
    return (
        (code < 32 and char not in "\t\n\r")
        or 0xD800 <= code <= 0xDFFF
        or code in {0xFFFE, 0xFFFF}
    )


@given(st.text(max_size=40))
def test_every_caption_gives_well_formed_xml_or_is_refused(caption: str) -> None:
    """Any text: a document that `xml.etree` parses, with the caption, or a refusal."""
    combo = classify(HAND, CLASSIC)
    assert combo is not None
    if any(map(xml_forbids, caption)):
        with pytest.raises(InvalidArgumentError):
            svg.hand(HAND, caption=caption)
        with pytest.raises(InvalidArgumentError):
            svg.combo(combo, caption=caption)
        return
    for picture in (svg.hand(HAND, caption=caption), svg.combo(combo, caption=caption)):
        root = ET.fromstring(picture)  # noqa: S314 - our own output
        texts = [e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}text")]
        # XML normalises a lone carriage return to a line feed.
        assert caption.replace("\r\n", "\n").replace("\r", "\n") in texts
