"""What an object lets its holder reach: a walk of ``gc.get_referents`` (issue 20 item 7).

A bot or an agent is handed a few objects; anything they reference, directly or
through other objects, the bot can read (``gc.get_referents`` is what a determined bot
would use). `hidden_reached` walks everything reachable and reports what belongs to
the other seats: a `GameState` (it holds every hand), or another seat's hand or dealt
hand, as a `Hand` or as its card mask.

The walk stops at classes, modules and code: a class's namespace or a function's
globals reach the whole library, which is no one game's secret. A function's closure
and defaults are still walked (a closure could capture a state).
"""

from __future__ import annotations

import functools
import gc
import random
import types
from collections.abc import Iterable, Iterator

from tienlen import GameState, Hand

_OPAQUE = (
    type,
    types.ModuleType,
    types.CodeType,
    types.BuiltinFunctionType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    random.Random,
)
"""Objects whose referents are the library or the interpreter, not a game."""

LEAST_CARDS = 3
"""Hands of fewer cards are not looked for as bare ints (a one-card mask is too common)."""


def reachable(
    roots: Iterable[object], shared: Iterable[object] = (), limit: int = 2_000_000
) -> Iterator[object]:
    """Every object reachable from *roots* by ``gc.get_referents``, each once.

    Objects of *shared* are yielded but not walked: the rule set, whose tables are
    shared by every game of it (`no_game_in` checks it holds no game on its own).
    """
    seen: set[int] = set()
    stop = {id(item) for item in shared}
    stack = list(roots)
    keep: list[object] = []  # hold every object seen, so no id is reused meanwhile
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        keep.append(item)
        assert len(keep) < limit, "the walk reached more objects than any view holds"
        yield item
        if isinstance(item, _OPAQUE) or id(item) in stop:
            continue
        if isinstance(item, types.FunctionType):
            stack.extend(item.__closure__ or ())
            stack.extend(item.__defaults__ or ())
            stack.extend((item.__kwdefaults__ or {}).values())
            continue
        stack.extend(gc.get_referents(item))


def hidden_reached(roots: Iterable[object], state: GameState, seat: int) -> list[str]:
    """What of the other seats' cards in *state* is reachable from *roots*.

    Returns a description of each finding: a `GameState` (any), a `Hand` equal to
    another seat's hand or dealt hand, or an ``int`` equal to one's card mask (hands
    of at least `LEAST_CARDS` cards). The rule set is not walked (see `no_game_in`).
    """
    secrets: dict[int, str] = {}
    for other in range(state.players):
        if other == seat:
            continue
        for name, hand in (("hand", state.hand(other)), ("dealt", state.dealt[other])):
            if len(hand) >= LEAST_CARDS:
                secrets[hand.mask] = f"seat {other}'s {name} {hand}"
    found: list[str] = []
    for item in reachable(roots, [state.rules]):
        kind = type(item)
        if kind is GameState:
            found.append("a GameState")
        elif kind is Hand and item.mask in secrets:  # type: ignore[attr-defined]
            found.append(secrets[item.mask])  # type: ignore[attr-defined]
        elif kind is int and item in secrets:
            found.append(f"the mask of {secrets[item]}")
    return found


@functools.cache
def no_game_in(rules: object) -> bool:
    """Whether nothing reachable from the rule set *rules* is a `GameState` or `Hand`.

    A rule set is shared by every game played under it; its tables are walked once
    here rather than from every view (`hidden_reached` stops at it).
    """
    return not any(type(item) in (GameState, Hand) for item in reachable([rules]))
