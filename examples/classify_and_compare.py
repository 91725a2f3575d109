"""Classify a few plays, compare them under two variants, and catch bad input.

Run it from the repository root::

    .venv/bin/python examples/classify_and_compare.py

It uses only the public API: `tienlen.classify` names the combination some cards form
(or returns ``None``), `tienlen.beats` says whether one play may go on another under a
variant, and bad card text or a non-combination raises an error whose message says
what was wrong.
"""

from __future__ import annotations

import sys

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    InvalidCardError,
    InvalidComboError,
    RuleSet,
    beats,
    classify,
)

PLAYS = (
    "5h 3s 4s",  # cards may come in any order
    "7h 7s",
    "Ts Tc Td Th",
    "3s 3h 4d 4c 5s 5h",
    "Qs Kh Ad 2c",  # a 2 may top a straight in classic, not in Justus Pang
    "3s 4h",  # no combination at all
)

MATCHUPS = (
    ("8s", "7h"),  # rank before suit
    ("7h", "7d"),  # same rank: the higher suit wins
    ("Ts Tc Td Th", "2h"),  # four of a kind bombs a single 2
    ("5s 5c 5d 5h", "2d 2h"),  # ...and a pair of 2s only in Kenneth Lo
    ("3s 3c 4d 4h 5s 5c", "2d"),  # three consecutive pairs bomb a single 2
    ("Ts Tc Td Th", "Ah"),  # bombs work only against 2s
    ("Qs Kh Ad", "3s 4s 5h"),  # same shape: the higher top card wins
)


def show_classifications(rules: RuleSet) -> None:
    """Print what each play in `PLAYS` is under *rules*."""
    print(f"What the cards form under {rules.name}:")
    for text in PLAYS:
        combo = classify(text, rules)
        if combo is None:
            print(f"  {text:20s} -> no combination")
        else:
            print(
                f"  {text:20s} -> {combo.shape!s:22s} top {combo.top.unicode():4s}"
                f" cards {combo.unicode()}"
            )


def show_matchups(first: RuleSet, second: RuleSet) -> None:
    """Print whether each play beats its target under two variants."""
    print(f"\nDoes the play beat the top?  {first.name:>10s}  {second.name:>10s}")
    for play, top in MATCHUPS:
        answers = [
            "yes" if beats(play, top, rules) else "no" for rules in (first, second)
        ]
        print(f"  {play:18s} on {top:8s}  {answers[0]:>10s}  {answers[1]:>10s}")


def show_errors() -> None:
    """Show the errors bad input raises, and their messages."""
    print("\nBad input raises an error that says what is wrong:")
    try:
        classify("3s 3x")
    except InvalidCardError as error:
        print(f"  InvalidCardError: {error}")
    try:
        beats("3s 4h", "5d")
    except InvalidComboError as error:
        print(f"  InvalidComboError: {error}")
    try:
        beats("Jd Qh Kh Ac 2d", "9s Ts Jc Qd Kh", JUSTUS_PANG)
    except InvalidComboError as error:
        print(f"  InvalidComboError: {error}")


def main() -> int:
    """Run the three demonstrations."""
    show_classifications(CLASSIC)
    print()
    show_classifications(JUSTUS_PANG)
    show_matchups(CLASSIC, KENNETH_LO)
    show_errors()
    return 0


if __name__ == "__main__":
    sys.exit(main())
