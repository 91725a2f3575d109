"""List the legal plays of a hand: its leads by kind, then what beats a top card.

Run it from the repository root, optionally naming a variant and a top to beat::

    .venv/bin/python examples/list_legal_plays.py                  # classic, on 2♣
    .venv/bin/python examples/list_legal_plays.py justus-pang      # no 2s in straights
    .venv/bin/python examples/list_legal_plays.py kenneth-lo "2c 2d"

The variant is looked up with `tienlen.get_rules` (any name or alias, any case). Against
a top, the list holds the same-shape plays that beat it and every bomb that does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tienlen import (
    ComboKind,
    Hand,
    InvalidCardError,
    UnknownVariantError,
    classify,
    get_rules,
    legal_plays,
)

HAND = "5s 5h 6c 6d 7s 7h 9s 9c 9d 9h Kd Ah 2s"
DEFAULT_TOP = "2c"


def pack(items: Sequence[str], width: int = 84) -> list[str]:
    """Join *items* with ``"  |  "`` into lines of at most *width* characters."""
    lines: list[str] = []
    line = ""
    for item in items:
        joined = f"{line}  |  {item}" if line else item
        if line and len(joined) > width:
            lines.append(line)
            line = item
        else:
            line = joined
    if line:
        lines.append(line)
    return lines


def main(argv: Sequence[str]) -> int:
    """List the plays of `HAND` under the variant named in *argv* (default classic)."""
    name = argv[0] if argv else "classic"
    top_text = argv[1] if len(argv) > 1 else DEFAULT_TOP
    try:
        rules = get_rules(name)
        hand = Hand.parse(HAND)
        top = classify(top_text, rules)
    except (UnknownVariantError, InvalidCardError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if top is None:
        print(
            f"error: {top_text!r} is no combination under {rules.name}", file=sys.stderr
        )
        return 2

    print(f"Variant: {rules.name}")
    print(f"Hand:    {hand.unicode()}  ({len(hand)} cards)")

    leads = legal_plays(hand, rules=rules)
    print(f"\nLeads: {len(leads)} plays")
    by_kind: dict[ComboKind, list[str]] = {}
    for play in leads:
        by_kind.setdefault(play.kind, []).append(play.unicode())
    for kind, plays in by_kind.items():
        print(f"  {kind.label} ({len(plays)}):")
        for line in pack(plays):
            print(f"    {line}")

    answers = legal_plays(hand, top, rules)
    print(f"\nPlays that beat {top.unicode()} ({top.shape}): {len(answers)}")
    for play in answers:
        bomb = "  <- bomb" if play.shape != top.shape else ""
        print(f"  {play.unicode():30s} {play.shape!s}{bomb}")
    if not answers:
        print("  none: pass")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
