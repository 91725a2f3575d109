"""The wire protocol, version 1: JSON messages and the per-seat views they carry.

Every message is one JSON object with ``"v": 1`` and a ``"type"``. What a seat
receives is built from that seat's `Observation` (its own hand, the public table, its
own legal actions); a spectator's view is the public part only. Nothing here reads a
`GameState`'s hidden hands except `reveal`, which is sent once a hand is over.
docs/server.md describes every message.

Example:
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
    >>> view = seat_view(Observation.of(state, 1), ["4d"])
    >>> view["hand"], view["toAct"], view["counts"], view["legal"]
    ('4d 5c', 0, [2, 2], ['4d'])
    >>> "hand" in public_view(Observation.of(state, 1))
    False
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Final

from tienlen.cards import Hand
from tienlen.combos import Combo
from tienlen.errors import IllegalPlayError
from tienlen.game import Action, Pass, Play
from tienlen.players import Observation
from tienlen.records import JsonValue
from tienlen.rules import BaseRules, as_combo
from tienlen.scoring import GameResult, ScoreItem

__all__ = [
    "MAX_MESSAGE",
    "VERSION",
    "action_json",
    "dump",
    "observation_from_view",
    "public_view",
    "refusal_json",
    "result_json",
    "score_item_json",
    "seat_view",
]

VERSION: Final = 1
"""The protocol version every message carries as ``"v"``."""
MAX_MESSAGE: Final = 16 * 1024
"""The largest message a client may send, in bytes of UTF-8; larger ones are refused."""

Json = dict[str, object]
"""A JSON object as the server builds it."""


def dump(message: Mapping[str, object]) -> str:
    """A message as compact JSON text, UTF-8 characters kept as they are.

    Example:
        >>> dump({"v": 1, "type": "pong"})
        '{"v":1,"type":"pong"}'
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def action_json(action: Action) -> Json:
    """An action as ``{"seat": …, "action": …}``, in the library's action notation.

    Example:
        >>> from tienlen import Pass, Play
        >>> action_json(Play(player=2, cards="3s 3c")), action_json(Pass(player=0))
        ({'seat': 2, 'action': '3s 3c'}, {'seat': 0, 'action': 'pass'})
    """
    return {"seat": action.player, "action": str(action)}


def _top(top: Combo | None) -> JsonValue:
    if top is None:
        return None
    return {"cards": str(top), "kind": top.kind.name.lower()}


def public_view(seen: Observation) -> Json:
    """The public part of an observation: what every seat and spectator may see.

    Counts of cards, the combination to beat, who is to act, who passed, who is out;
    never a card held by anybody.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC).play("3s")
        >>> view = public_view(Observation.of(state, 0))
        >>> view["top"], view["lastPlayer"], view["counts"]
        ({'cards': '3s', 'kind': 'single'}, 0, [1, 2])
    """
    return {
        "players": seen.players,
        "direction": seen.direction.name.lower(),
        "toAct": seen.to_act,
        "top": _top(seen.top),
        "lastPlayer": seen.last_player,
        "passed": sorted(seen.passed),
        "out": sorted(seen.out),
        "finishOrder": list(seen.finish_order),
        "frozen": list(seen.frozen),
        "counts": list(seen.card_counts),
        "firstGame": seen.first_game,
        "afterInstantWin": seen.after_instant_win,
    }


def seat_view(seen: Observation, legal: Sequence[str]) -> Json:
    """A seat's view: the public view, its own hand and its own legal actions.

    *legal* is the seat's legal actions in notation, in the engine's order: a move
    may name one by its text or by its index in this list.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
        >>> view = seat_view(Observation.of(state, 0), ["3s"])
        >>> view["seat"], view["hand"], view["mustInclude"], view["jumpingIn"]
        (0, '3s 9h', '3s', False)
    """
    view = public_view(seen)
    must = seen.must_include
    view.update(
        seat=seen.seat,
        hand=str(seen.hand),
        legal=list(legal),
        jumpingIn=seen.jumping_in and bool(legal),
        mustInclude=None if must is None else str(must),
        mayDecline=seen.may_decline,
        mayContinue=seen.may_continue,
    )
    return view


def _ints(value: object, where: str) -> list[int]:
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        msg = f"{where} must be a list of integers, got {value!r:.80}"
        raise ValueError(msg)
    return list(value)


def observation_from_view(
    view: Mapping[str, object], rules: BaseRules, history: Sequence[Action]
) -> Observation:
    """The `Observation` a seat's view describes, for running a library `Player` remotely.

    *history* is the hand's actions so far (the ``history`` of ``gameFull`` plus the
    ``actions`` of every ``gameState`` since).

    Raises:
        ValueError: the view lacks a field or holds a wrong value.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC).play("3s")
        >>> seen = Observation.of(state, 1)
        >>> observation_from_view(seat_view(seen, ["4d"]), CLASSIC, state.history) == seen
        True
    """
    try:
        top = view["top"]
        combo = None
        if isinstance(top, dict):
            combo = as_combo(Hand.parse(str(top["cards"])), rules)
        must = view["mustInclude"]
        to_act = view["toAct"]
        last = view["lastPlayer"]
        played = Hand.from_cards(
            card for action in history if type(action) is Play for card in action.cards
        )
        return Observation(
            seat=int(str(view["seat"])),
            hand=Hand.parse(str(view["hand"])),
            rules=rules,
            players=int(str(view["players"])),
            direction=rules.direction,
            to_act=None if to_act is None else int(str(to_act)),
            jumping_in=view["jumpingIn"] is True,
            top=combo,
            last_player=None if last is None else int(str(last)),
            passed=_ints(view["passed"], "passed"),
            out=_ints(view["out"], "out"),
            finish_order=_ints(view["finishOrder"], "finishOrder"),
            frozen=_ints(view["frozen"], "frozen"),
            card_counts=_ints(view["counts"], "counts"),
            played=played,
            history=tuple(history),
            must_include=None if must is None else Hand.parse(str(must)).cards[0],
            may_decline=view["mayDecline"] is True,
            may_continue=view["mayContinue"] is True,
            first_game=view["firstGame"] is True,
            after_instant_win=view["afterInstantWin"] is True,
        )
    except KeyError as error:
        msg = f"the view has no field {error.args[0]!r}"
        raise ValueError(msg) from None


def action_from_json(item: Mapping[str, object]) -> Action:
    """The action `action_json` wrote.

    Raises:
        ValueError: not an action.

    Example:
        >>> action_from_json({"seat": 1, "action": "pass"})
        Pass(player=1)
    """
    seat, text = item.get("seat"), item.get("action")
    if type(seat) is not int or not isinstance(text, str):
        msg = f"not an action: {item!r:.80}"
        raise ValueError(msg)
    if text == "pass":
        return Pass(player=seat)
    return Play(player=seat, cards=text)


def refusal_json(error: IllegalPlayError) -> Json:
    """The library's structured refusal: code, reason, rule citation, text in en and vi.

    Example:
        >>> from tienlen import CLASSIC, GameState, IllegalPlayError
        >>> try:
        ...     GameState.from_hands(["3s 4h", "5d"], CLASSIC).pass_turn()
        ... except IllegalPlayError as error:
        ...     refusal = refusal_json(error)
        >>> refusal["code"], refusal["rule"], refusal["message"]["en"]
        ('CANNOT_PASS', 'rules-1-5-1', 'You open this trick: you must play.')
    """
    return {
        "code": error.reason.name,
        "reason": error.reason.value,
        "rule": error.rule,
        "action": error.action,
        "message": {"en": error.message("en"), "vi": error.message("vi")},
    }


def score_item_json(item: ScoreItem, *, cards: bool = True) -> Json:
    """One line of a hand's score: who gains, who pays (``None``: nobody), what for.

    ``combos`` lists the combinations a chop caught or the *thối* penalised, in
    notation; with *cards* false it is left out (for messages sent during a later
    hand, whose hidden cards the same notation could name).

    Example:
        >>> from tienlen import ScoreItem, ScoreKind
        >>> score_item_json(ScoreItem(kind=ScoreKind.STAKE, player=0, payer=3, points=1))
        {'kind': 'stake', 'player': 0, 'payer': 3, 'points': 1, 'combos': []}
    """
    data: Json = {
        "kind": item.kind.value,
        "player": item.player,
        "payer": item.payer,
        "points": item.points,
    }
    if cards:
        data["combos"] = [str(combo) for combo in item.combos]
    return data


def result_json(result: GameResult, *, cards: bool = True) -> Json:
    """A finished hand's result: the finishing order, each seat's score, and why.

    ``items`` are the score's lines (`score_item_json`), ``instantWin`` the
    instant-win hand that ended it at the deal (its name) or ``None``, ``frozen`` the
    seats frozen out (*cóng*). With *cards* false the items name no card.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> final = GameState.from_hands(["3s", "4d"], CLASSIC).play("3s")
        >>> result = result_json(final.result)
        >>> result["finishOrder"], result["scores"], result["instantWin"], result["frozen"]
        ([0, 1], [1, -1], None, [])
        >>> result["items"]
        [{'kind': 'stake', 'player': 0, 'payer': 1, 'points': 1, 'combos': []}]
    """
    win = result.instant_win
    return {
        "finishOrder": list(result.finish_order),
        "scores": list(result.scores),
        "items": [score_item_json(item, cards=cards) for item in result.items],
        "instantWin": None if win is None else win.value,
        "frozen": list(result.frozen),
    }
