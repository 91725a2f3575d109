"""Game records: a documented, versioned JSON form of a whole game, and its replay.

A record holds the rule set (a preset's name plus every setting changed from it), the
dealt hands (and the seed, when the game was dealt from one), how the first lead was
decided, every action and the result. `load` and `loads` treat records as untrusted
input: anything corrupt, truncated or tampered with (an illegal action, a card in two
hands, an unknown rule set, a wrong type) raises `RecordError` naming what is wrong
and where, and nothing half-built is returned. `GameRecord.states` rebuilds every
intermediate `GameState`.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> from tienlen.records import dumps, loads, record
    >>> state = GameState.from_hands(["3s 9h", "8d", "5c"], CLASSIC)
    >>> state = state.play("3s").play("8d").pass_turn().pass_turn().play("5c")
    >>> text = dumps(record(state))
    >>> loads(text).final == state
    True
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Final, TypeVar

import attrs

from tienlen.cards import Hand, Rank
from tienlen.combos import ComboKind, Shape
from tienlen.errors import InvalidCardError, InvalidRulesError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rules import RULESETS, BaseRules, Bomb, InstantWin

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "JsonValue",
    "RecordError",
    "dump",
    "dumps",
    "load",
    "loads",
    "record",
    "rules_from_json",
    "rules_to_json",
]

FORMAT: Final = "tienlen-game"
"""The value of a record's ``"format"`` field."""
VERSION: Final = 1
"""The record format version this library writes and reads."""


class RecordError(TienLenError, ValueError):
    """A game record that is corrupt, truncated, tampered with or of the wrong types.

    Attributes:
        where: The path of the offending field, e.g. ``"actions[3]"``.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        super().__init__(f"invalid game record at {where}: {problem}")


def _hands(values: Sequence[Hand]) -> tuple[Hand, ...]:
    return tuple(values)


def _actions(values: Sequence[Action]) -> tuple[Action, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class GameRecord:
    """A whole game: how it started and every action, replayable.

    Build one from a state with `record`, read one with `load`/`loads`.
    """

    rules: BaseRules
    """The rule set."""
    hands: tuple[Hand, ...] = attrs.field(converter=_hands)
    """The dealt hands, by player."""
    actions: tuple[Action, ...] = attrs.field(converter=_actions)
    """Every action, in order."""
    first_game: bool = True
    """Whether the game was the first of its match (RULES §2.4)."""
    leader: int | None = None
    """The leader passed for a later game; ``None`` when 3♠ decided."""
    after_instant_win: bool = False
    """Whether the previous game ended by an instant win (D-16)."""
    dealer: int | None = None
    """The dealer, when it decided between two 3♠ holders."""
    seed: int | None = None
    """The seed the game was dealt from, when known (informative)."""
    batch: int | None = None
    """The `simulate` batch that played the game, if any (informative, not written)."""
    game: int | None = None
    """The game's index within its `simulate` batch (informative, not written)."""

    def start(self) -> GameState:
        """The state at the deal."""
        return GameState.from_hands(
            self.hands,
            self.rules,
            first_game=self.first_game,
            leader=self.leader,
            after_instant_win=self.after_instant_win,
            dealer=self.dealer,
        )

    def states(self) -> Iterator[GameState]:
        """Every state from the deal to the last action, replayed by the engine.

        Raises:
            IllegalPlayError: an action is illegal (records from `load` never are).
        """
        state = self.start()
        yield state
        for action in self.actions:
            state = state.apply(action)
            yield state

    @property
    def final(self) -> GameState:
        """The state after the last action."""
        *_, last = self.states()
        return last


def record(state: GameState, *, seed: int | None = None) -> GameRecord:
    """The record of the game that led to *state* (from its deal and history).

    Raises:
        RecordError: the rule set is not a `BaseRules`, so it cannot be written.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import record
        >>> game = record(GameState.deal(CLASSIC, 4, seed=1), seed=1)
        >>> len(game.hands), game.actions
        (4, ())
    """
    if not isinstance(state.rules, BaseRules):
        raise RecordError("rules", f"cannot record a custom rule set {state.rules!r}")
    start = state.setup
    return GameRecord(
        rules=state.rules,
        hands=state.dealt,
        actions=state.history,
        first_game=start.first_game,
        leader=start.leader,
        after_instant_win=start.after_instant_win,
        dealer=start.dealer,
        seed=seed,
    )


# -- rules as JSON ----------------------------------------------------------------

JsonValue = str | int | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""A JSON value, as ``json`` reads and writes it."""


def _shape_text(shape: Shape) -> str:
    return f"{shape.kind.name.lower()}:{shape.size}"


def _shape_from(text: object, where: str) -> Shape:
    if not isinstance(text, str) or text.count(":") != 1:
        raise RecordError(
            where, f"expected a shape like 'consecutive_pairs:6', got {text!r}"
        )
    kind, size = text.split(":")
    try:
        return Shape(ComboKind[kind.upper()], int(size))
    except (KeyError, ValueError, InvalidRulesError):
        raise RecordError(where, f"no such shape {text!r}") from None


def _setting_to_json(value: object) -> JsonValue:
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if isinstance(value, Shape):
        return _shape_text(value)
    if isinstance(value, Bomb):
        rank = None if value.target_rank is None else value.target_rank.name.lower()
        return {
            "bomb": _shape_text(value.bomb),
            "target": _shape_text(value.target),
            "target_rank": rank,
        }
    if isinstance(value, frozenset):
        return sorted((_setting_to_json(v) for v in value), key=json.dumps)
    if isinstance(value, tuple):
        return [_setting_to_json(v) for v in value]
    assert value is None or isinstance(value, str | int | bool)
    return value


def rules_to_json(rules: BaseRules) -> dict[str, JsonValue]:
    """A rule set as JSON: its name, the preset it derives from and the changed settings.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> from tienlen.records import rules_to_json
        >>> rules_to_json(attrs.evolve(CLASSIC, twos_in_straights=False))
        {'name': 'classic', 'base': 'classic', 'changes': {'twos_in_straights': False}}
    """
    base = RULESETS.get(rules.name) or min(
        RULESETS.values(), key=lambda preset: len(_changes(preset, rules))
    )
    return {"name": rules.name, "base": base.name, "changes": _changes(base, rules)}


def _changes(base: BaseRules, rules: BaseRules) -> dict[str, JsonValue]:
    return {
        field.name: _setting_to_json(getattr(rules, field.name))
        for field in attrs.fields(BaseRules)
        if field.init
        and field.eq
        and field.name != "name"
        and getattr(rules, field.name) != getattr(base, field.name)
    }


def _enum_from(cls: type[_E], value: object, where: str) -> _E:
    if isinstance(value, str):
        for member in cls:
            if member.name.lower() == value:
                return member
    raise RecordError(
        where, f"expected one of {[m.name.lower() for m in cls]}, got {value!r}"
    )


_E = TypeVar("_E", bound=enum.Enum)


def _list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {value!r}")
    return value


def _bomb_from(value: object, where: str) -> Bomb:
    if not isinstance(value, dict) or set(value) != {"bomb", "target", "target_rank"}:
        raise RecordError(
            where, f"expected a bomb with bomb, target and target_rank, got {value!r}"
        )
    rank = value["target_rank"]
    target_rank = (
        None if rank is None else _enum_from(Rank, rank, f"{where}.target_rank")
    )
    try:
        return Bomb(
            bomb=_shape_from(value["bomb"], f"{where}.bomb"),
            target=_shape_from(value["target"], f"{where}.target"),
            target_rank=target_rank,
        )
    except InvalidRulesError as error:
        raise RecordError(where, str(error)) from None


def _setting_from(name: str, value: object, example: object, where: str) -> object:
    """Decode a setting, typed like the preset's current value *example*."""
    if isinstance(example, bool):
        if not isinstance(value, bool):
            raise RecordError(where, f"expected true or false, got {value!r}")
        return value
    if isinstance(example, enum.Enum):
        return _enum_from(type(example), value, where)
    if isinstance(example, int) or name == "two_deck_hand_size":
        if value is None and name == "two_deck_hand_size":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(where, f"expected an integer, got {value!r}")
        return value
    if name == "aliases":
        items = _list(value, where)
        if not all(isinstance(item, str) for item in items):
            raise RecordError(where, f"expected names, got {value!r}")
        return tuple(str(item) for item in items)
    if name == "kinds":
        return frozenset(
            _enum_from(ComboKind, item, f"{where}[{i}]")
            for i, item in enumerate(_list(value, where))
        )
    if name == "instant_wins":
        return frozenset(
            _enum_from(InstantWin, item, f"{where}[{i}]")
            for i, item in enumerate(_list(value, where))
        )
    if name == "bombs":
        return frozenset(
            _bomb_from(item, f"{where}[{i}]")
            for i, item in enumerate(_list(value, where))
        )
    if name in ("bomb_chain", "jump_in"):
        shapes = [
            _shape_from(item, f"{where}[{i}]")
            for i, item in enumerate(_list(value, where))
        ]
        return tuple(shapes) if name == "bomb_chain" else frozenset(shapes)
    if name == "bomb_values":
        pairs = []
        for i, item in enumerate(_list(value, where)):
            entry = _list(item, f"{where}[{i}]")
            if (
                len(entry) != 2
                or not isinstance(entry[1], int)
                or isinstance(entry[1], bool)
            ):
                raise RecordError(
                    f"{where}[{i}]", f"expected [shape, points], got {item!r}"
                )
            pairs.append((_shape_from(entry[0], f"{where}[{i}][0]"), entry[1]))
        return tuple(pairs)
    items = _list(value, where)
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in items):
        raise RecordError(where, f"expected integers, got {value!r}")
    return tuple(items)


def rules_from_json(data: object, where: str = "rules") -> BaseRules:
    """The rule set written by `rules_to_json`.

    Raises:
        RecordError: an unknown preset or setting, a wrong type, or contradictory settings.
    """
    if not isinstance(data, dict) or set(data) != {"name", "base", "changes"}:
        raise RecordError(where, f"expected name, base and changes, got {data!r}")
    base = RULESETS.get(data["base"]) if isinstance(data["base"], str) else None
    if base is None:
        raise RecordError(
            f"{where}.base",
            f"unknown rule set {data['base']!r} (known: {', '.join(RULESETS)})",
        )
    name = data["name"]
    if not isinstance(name, str) or not name:
        raise RecordError(f"{where}.name", f"expected a name, got {name!r}")
    changes = data["changes"]
    if not isinstance(changes, dict):
        raise RecordError(f"{where}.changes", f"expected an object, got {changes!r}")
    settings = {
        field.name
        for field in attrs.fields(BaseRules)
        if field.init and field.name != "name"
    }
    decoded: dict[str, object] = {}
    for key, value in changes.items():
        if key not in settings:
            raise RecordError(f"{where}.changes", f"unknown setting {key!r}")
        decoded[key] = _setting_from(
            key, value, getattr(base, key), f"{where}.changes.{key}"
        )
    evolve: Callable[..., BaseRules] = (
        attrs.evolve
    )  # settings decoded by name, typed above
    try:
        return evolve(base, name=name, **decoded)
    except (InvalidRulesError, TypeError, ValueError) as error:
        raise RecordError(f"{where}.changes", str(error)) from None


# -- records as JSON ----------------------------------------------------------------


def _action_to_json(action: Action) -> dict[str, JsonValue]:
    if isinstance(action, Pass):
        return {"player": action.player, "pass": True}
    return {"player": action.player, "play": str(action.cards)}


def to_json(game: GameRecord) -> dict[str, JsonValue]:
    """A record as a JSON-ready dict (see `dumps` for the format)."""
    final = game.final
    result = final.result
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_json(game.rules),
        "players": len(game.hands),
        "seed": game.seed,
        "dealer": game.dealer,
        "first_game": game.first_game,
        "leader": game.leader,
        "after_instant_win": game.after_instant_win,
        "hands": [str(hand) for hand in game.hands],
        "actions": [_action_to_json(action) for action in game.actions],
        "result": None
        if result is None
        else {"finish_order": list(result.finish_order), "scores": list(result.scores)},
    }


def dumps(game: GameRecord, *, indent: int | None = None) -> str:
    """The record as JSON text.

    The format (version 1) is an object with ``format`` (``"tienlen-game"``),
    ``version``, ``rules`` (``name``, ``base`` preset and changed settings), ``players``,
    ``seed`` (or null), ``dealer``, ``first_game``, ``leader``, ``after_instant_win``,
    ``hands`` (card text by player), ``actions`` (``{"player": 1, "play": "7s 7h"}`` or
    ``{"player": 2, "pass": true}``) and ``result`` (``finish_order`` and ``scores``, or
    null while the game goes on).
    """
    return json.dumps(to_json(game), indent=indent, ensure_ascii=False)


def dump(game: GameRecord, file: IO[str], *, indent: int | None = None) -> None:
    """Write the record as JSON text to *file*."""
    file.write(dumps(game, indent=indent))


_FIELDS: Final = (
    "format",
    "version",
    "rules",
    "players",
    "seed",
    "dealer",
    "first_game",
    "leader",
    "after_instant_win",
    "hands",
    "actions",
    "result",
)


def _int_or_none(data: Mapping[str, object], key: str) -> int | None:
    value = data[key]
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(key, f"expected an integer or null, got {value!r}")
    return value


def _seat_or_none(data: Mapping[str, object], key: str, players: int) -> int | None:
    seat = _int_or_none(data, key)
    if seat is not None and not 0 <= seat < players:
        raise RecordError(
            key, f"expected a player 0-{players - 1} or null, got {seat!r}"
        )
    return seat


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise RecordError(key, f"expected true or false, got {value!r}")
    return value


def _action_from(item: object, where: str) -> Action:
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("player"), int)
        or isinstance(item["player"], bool)
    ):
        raise RecordError(where, f"expected an action with a player, got {item!r}")
    player = item["player"]
    if set(item) == {"player", "pass"} and item["pass"] is True:
        return Pass(player=player)
    if set(item) == {"player", "play"} and isinstance(item["play"], str):
        try:
            return Play(player=player, cards=item["play"])
        except InvalidCardError as error:
            raise RecordError(where, str(error)) from None
    raise RecordError(where, f"expected a play or a pass, got {item!r}")


def from_json(data: object) -> GameRecord:
    """Check and replay a JSON-decoded record.

    Raises:
        RecordError: anything wrong, named with its place in the record.
    """
    if not isinstance(data, dict):
        raise RecordError("record", f"expected an object, got {type(data).__name__}")
    missing = [key for key in _FIELDS if key not in data]
    if missing:
        raise RecordError(
            "record", f"missing field(s) {', '.join(missing)} (truncated?)"
        )
    extra = sorted(set(data) - set(_FIELDS))
    if extra:
        raise RecordError("record", f"unknown field(s) {', '.join(extra)}")
    if data["format"] != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {data['format']!r}")
    if type(data["version"]) is not int or data["version"] != VERSION:
        raise RecordError(
            "version", f"this library reads version {VERSION}, got {data['version']!r}"
        )
    rules = rules_from_json(data["rules"])
    hands_data = _list(data["hands"], "hands")
    if type(data["players"]) is not int or data["players"] != len(hands_data):
        raise RecordError(
            "players", f"{data['players']!r} players but {len(hands_data)} hands"
        )
    hands: list[Hand] = []
    for i, text in enumerate(hands_data):
        if not isinstance(text, str):
            raise RecordError(f"hands[{i}]", f"expected card text, got {text!r}")
        try:
            hands.append(Hand.parse(text))
        except InvalidCardError as error:
            raise RecordError(f"hands[{i}]", str(error)) from None
    actions = [
        _action_from(item, f"actions[{i}]")
        for i, item in enumerate(_list(data["actions"], "actions"))
    ]
    players = len(hands)
    leader = _seat_or_none(data, "leader", players)
    dealer = _seat_or_none(data, "dealer", players)
    first_game = _bool(data, "first_game")
    after_instant_win = _bool(data, "after_instant_win")
    if leader is None and not rules.lead_must_include(
        first_game=first_game, after_instant_win=after_instant_win
    ):
        raise RecordError("leader", "a later game needs its leader (RULES §2.4)")
    game = GameRecord(
        rules=rules,
        hands=hands,
        actions=actions,
        first_game=first_game,
        leader=leader,
        after_instant_win=after_instant_win,
        dealer=dealer,
        seed=_int_or_none(data, "seed"),
    )
    final = _replay_checked(game)
    _check_result(data["result"], final)
    return game


def _replay_checked(game: GameRecord) -> GameState:
    try:
        state = game.start()
    except TienLenError as error:
        raise RecordError("hands", str(error)) from None
    for i, action in enumerate(game.actions):
        try:
            state = state.apply(action)
        except TienLenError as error:
            raise RecordError(f"actions[{i}]", str(error)) from None
    return state


def _check_result(data: object, final: GameState) -> None:
    result = final.result
    if result is None:
        if data is not None:
            raise RecordError("result", "the actions do not finish the game")
        return
    expected = {
        "finish_order": list(result.finish_order),
        "scores": list(result.scores),
    }
    exact = isinstance(data, dict) and all(
        isinstance(values, list) and all(type(value) is int for value in values)
        for values in data.values()
    )
    if not exact or data != expected:
        raise RecordError(
            "result", f"the game replays to {expected}, the record says {data!r}"
        )


def loads(text: str | bytes) -> GameRecord:
    """Read a record from JSON text, checking everything (see `dumps` for the format).

    Raises:
        RecordError: the text is not JSON, or the record is corrupt, truncated,
            tampered with or of the wrong types.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError("record", f"not JSON: {error}") from None
    return from_json(data)


def load(file: IO[str]) -> GameRecord:
    """Read a record from a text file (see `loads`)."""
    return loads(file.read())


_: Callable[[GameRecord], dict[str, JsonValue]] = to_json
