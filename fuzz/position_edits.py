"""Structure-aware edits of real positions (issue 20): the fuzzer's and the tests' engine.

`fuzz_positions.py` (atheris) and ``tests/notation/test_position_edits.py`` (seeded)
share this module: take a real position (a state of a seeded random game under a
preset or a house-rule table, as notation), edit its fields (hands, played cards,
passes, items, chop, frozen and bottom seats, out, the player to act, the top's
player, the first-lead flags) with choices drawn from a `Chooser`, and check the
contract of `GameState.from_notation` on the result: either a clean library error
(a `TienLenError`), or a state whose every listed action applies and whose game
ends or keeps someone to act (`check_position`). Byte-mutation fuzzers die in the
grammar; these edits keep it and reach the rules.
"""

# ruff: noqa: INP001  (a script directory, not a package)

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Protocol

import attrs

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    GameState,
    TienLenError,
)
from tienlen.policies import LeaderAfterGoingOut
from tienlen.rules import two_decks

__all__ = [
    "Chooser",
    "RandomChooser",
    "check_position",
    "edit",
    "real_positions",
    "turn_edits",
]

CHECKED_STEPS = 6
"""States from the read one on whose every listed action is applied."""
MAX_STEPS = 600
"""Actions a game from an edited position may take (a game of 52 cards takes fewer)."""


class Chooser(Protocol):
    """Where the edits' choices come from: fuzzer bytes or a seeded generator."""

    def pick(self, count: int) -> int:
        """A number in ``range(count)`` (*count* ≥ 1)."""
        ...


@attrs.define
class RandomChooser:
    """Choices from a seeded `random.Random` (the tests' chooser)."""

    rng: random.Random

    def pick(self, count: int) -> int:
        """A number in ``range(count)``."""
        return self.rng.randrange(count)


def _tables() -> list[tuple[BaseRules, int]]:
    """Every preset at each table size, two-deck tables, and house-rule tables."""
    tables = [
        (rules, players)
        for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER)
        for players in (2, 3, 4)
    ]
    tables += [(two_decks(CLASSIC), 5), (two_decks(JUSTUS_PANG), 6)]
    house = [
        attrs.evolve(POKER, name="poker-house", chop_chain=False,
                     no_going_out_with_two=True, catch_with_last_cards_scores=False),
        attrs.evolve(POKER, name="poker-skip", pass_locks_out=False,
                     no_going_out_with_bomb=True, frozen_multiplier=2),
        attrs.evolve(CLASSIC, name="classic-house", may_decline_first_lead=True,
                     no_going_out_with_two=True, scoring=POKER.scoring),
        attrs.evolve(JUSTUS_PANG, name="jp-house", pass_locks_out=False,
                     leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER),
        attrs.evolve(KENNETH_LO, name="kl-house",
                     leader_after_going_out=LeaderAfterGoingOut.AFTER_LAST_TO_ACT),
    ]  # fmt: skip
    tables += [(rules, players) for rules in house for players in (2, 3, 4)]
    return tables


@functools.cache
def real_positions(games_per_table: int = 1) -> tuple[str, ...]:
    """Positions of seeded random games at every table (`_tables`), as notation.

    From each game: the deal, its first two actions, three states along it and its end.
    """
    positions: list[str] = []
    for index, (rules, players) in enumerate(_tables()):
        for game in range(games_per_table):
            rng = random.Random(index * 1000 + game)
            state = GameState.deal(rules, players, rng.randrange(2**32))
            states = [state]
            while not state.is_over:
                state = state.apply(rng.choice(list(state.legal_actions())))
                states.append(state)
            picks = {0, 1, 2, len(states) - 1}
            picks |= {rng.randrange(len(states)) for _ in "abc"}
            positions += [
                states[i].notation() for i in sorted(picks) if i < len(states)
            ]
    return tuple(positions)


# -- the edits ----------------------------------------------------------------------

_CARDS = ("3s", "4s", "9h", "Ks", "As", "2s", "2c", "2d", "2h")
_COMBOS = ("2h", "2s", "2s 2h", "2c 2d", "9s 9c 9d 9h", "3s 3c 3d 3h", "Ks", "3s")
_KINDS = ("chop", "frozen", "stake", "place", "end-penalty", "instant-win", "bonus")
_POINTS = ("0", "1", "2", "4", "7", "10", "-3", "999999999")
_OPTIONAL = (
    "played", "top", "passed", "first", "out", "bottom",
    "frozen", "chop", "items", "over", "won", "setup",
)  # fmt: skip


def _split(text: str) -> list[list[str]]:
    """The fields of *text*: ``[keyword, value]`` pairs (the header has no value)."""
    return [part.split(" ", 1) + [""] * (" " not in part) for part in text.split("; ")]


def _join(fields: list[list[str]]) -> str:
    return "; ".join(" ".join(w for w in field if w) for field in fields)


def _players(fields: list[list[str]]) -> int:
    for keyword, value in fields:
        if keyword == "hands":
            return value.count("/") + 1
    return 2


def _seat(chooser: Chooser, players: int) -> str:
    return str(chooser.pick(players + 1))  # one seat past the table, sometimes


def _seats(chooser: Chooser, players: int) -> str:
    count = 1 + chooser.pick(3)
    return " ".join(_seat(chooser, players) for _ in range(count))


def _item(chooser: Chooser, players: int) -> str:
    kind = _KINDS[chooser.pick(len(_KINDS))]
    points = _POINTS[chooser.pick(len(_POINTS))]
    if chooser.pick(3) == 0:
        return f"{kind} {_seat(chooser, players)} scores {points}"
    combos = " / ".join(
        _COMBOS[chooser.pick(len(_COMBOS))] for _ in range(chooser.pick(3))
    )
    text = f"{kind} {_seat(chooser, players)} pays {_seat(chooser, players)} {points}"
    return f"{text} for {combos}" if combos else text


def _cards_by_seat(value: str) -> list[list[str]]:
    return [[] if part.strip() == "-" else part.split() for part in value.split("/")]


def _cards_text(seats: list[list[str]]) -> str:
    return " / ".join(" ".join(cards) or "-" for cards in seats)


def _move_card(fields: list[list[str]], chooser: Chooser, players: int) -> None:
    """Move a card: between hands, from a hand to the played cards, or back."""
    named = {field[0]: field for field in fields}
    hands = named.get("hands")
    if hands is None:
        return
    if "played" not in named:
        played_field = ["played", " / ".join("-" * players)]
        fields.insert(fields.index(hands) + 1, played_field)
        named["played"] = played_field
    held = _cards_by_seat(hands[1])
    played = _cards_by_seat(named["played"][1])
    if len(played) != len(held):
        return
    piles = [*held, *played]
    source = piles[chooser.pick(len(piles))]
    if not source:
        source.append(_CARDS[chooser.pick(len(_CARDS))])  # a card from nowhere
        target = source
    else:
        card = source.pop(chooser.pick(len(source)))
        target = piles[chooser.pick(len(piles))]
        target.append(card)
    hands[1] = _cards_text(piles[: len(held)])
    named["played"][1] = _cards_text(piles[len(held) :])
    del target


def _set(fields: list[list[str]], keyword: str, value: str) -> None:
    for field in fields:
        if field[0] == keyword:
            field[1] = value
            return
    fields.append([keyword, value])


def _drop(fields: list[list[str]], chooser: Chooser) -> None:
    optional = [field for field in fields if field[0] in _OPTIONAL]
    if optional:
        fields.remove(optional[chooser.pick(len(optional))])


def _edit_once(fields: list[list[str]], chooser: Chooser) -> None:
    players = _players(fields)
    edits: list[Callable[[], None]] = [
        lambda: _set(fields, "to", "-" if chooser.pick(4) == 0 else _seat(chooser, players)),
        lambda: _set(fields, "passed", _seats(chooser, players)),
        lambda: _set(fields, "items", ", ".join(
            _item(chooser, players) for _ in range(1 + chooser.pick(2)))),
        lambda: _set(fields, "chop", f"{_seat(chooser, players)} pays "
                     f"{_seat(chooser, players)} {_POINTS[chooser.pick(len(_POINTS))]} "
                     f"for {_COMBOS[chooser.pick(len(_COMBOS))]}"),
        lambda: _set(fields, "frozen", _seats(chooser, players)),
        lambda: _set(fields, "bottom", _seats(chooser, players)),
        lambda: _set(fields, "out", _seats(chooser, players)),
        lambda: _set(fields, "first", _CARDS[chooser.pick(len(_CARDS))]
                     + (" declinable" if chooser.pick(2) else "")),
        lambda: _set(fields, "top", f"{_COMBOS[chooser.pick(len(_COMBOS))]} by "
                     f"{_seat(chooser, players)}"),
        lambda: _set(fields, "over", " ".join(
            map(str, random.Random(chooser.pick(1000)).sample(range(players), players)))),
        lambda: _move_card(fields, chooser, players),
        lambda: _drop(fields, chooser),
    ]  # fmt: skip
    edits[chooser.pick(len(edits))]()


def turn_edits(text: str) -> list[str]:
    """*text* with each seat alone as the passed, and each seat as the player to act."""
    edited = []
    players = _players(_split(text))
    for keyword in ("passed", "to"):
        for seat in range(players):
            fields = _split(text)
            _set(fields, keyword, str(seat))
            edited.append(_join(fields))
    return edited


def edit(text: str, chooser: Chooser) -> str:
    """*text* with one to three fields edited by *chooser*'s choices."""
    fields = _split(text)
    for _ in range(1 + chooser.pick(3)):
        _edit_once(fields, chooser)
    return _join(fields)


# -- the contract -------------------------------------------------------------------


def check_position(text: str, chooser: Chooser) -> GameState | None:
    """Read *text*; a refusal must be a `TienLenError`, a state must play out.

    From the state read, every listed action is applied at the first
    `CHECKED_STEPS` states, then one chosen action at each until the game ends.
    Every state reached is over or has a player to act with an action.

    Returns:
        The state read, or ``None`` when *text* was refused.

    Raises:
        AssertionError: the contract is broken (any other exception escapes as is).
    """
    try:
        state = GameState.from_notation(text)
    except TienLenError:
        return None
    start = state
    for step in range(MAX_STEPS):
        if state.is_over:
            return start
        if state.to_act is None:
            raise AssertionError(f"not over, nobody to act: {state.notation()}")
        actions = list(state.legal_actions())
        if not actions:
            raise AssertionError(f"nobody can act: {state.notation()}")
        if step < CHECKED_STEPS:
            for action in actions:
                after = state.apply(action)
                if not after.is_over and after.to_act is None:
                    raise AssertionError(f"{action} leaves nobody to act: {text}")
        state = state.apply(actions[chooser.pick(len(actions))])
    raise AssertionError(f"no end after {MAX_STEPS} actions: {text}")
