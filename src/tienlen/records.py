"""Game records: a documented, versioned JSON form of a whole game, and its replay.

A record holds the rule set with the value of every setting, the dealt hands (and the
seed, when the game was dealt from one), how the first lead was decided, every action
and the result. `dumps` writes format version 2; `loads` reads versions 1 and 2 and
replays a version-1 record under the presets as they were in version 1, so a record
replays the same game forever, whatever later releases change in the presets.

`load` and `loads` treat records as untrusted input: anything corrupt, truncated or
tampered with (an illegal action, a card in two hands, an unknown setting, a wrong
type, a duplicate key, a record larger than `MAX_SIZE`) raises `RecordError` naming
what is wrong and where, with a message of bounded length, and nothing half-built is
returned. `GameRecord.states` rebuilds every intermediate `GameState`.

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
import functools
import importlib.resources
import json
import math
import operator
import re
import reprlib
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import IO, Final

import attrs

from tienlen.cards import Hand
from tienlen.combos import ComboKind, Shape
from tienlen.errors import InvalidCardError, InvalidRulesError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rules import BaseRules

__all__ = [
    "CUSTOM_POLICIES",
    "FORMAT",
    "MAX_ACTIONS",
    "MAX_DEPTH",
    "MAX_SIZE",
    "VERSION",
    "VERSIONS",
    "GameRecord",
    "JsonValue",
    "RecordError",
    "dump",
    "dumps",
    "from_json",
    "load",
    "loads",
    "read_json",
    "read_setting",
    "record",
    "rules_from_file",
    "rules_from_json",
    "rules_to_json",
    "setting_names",
    "to_json",
]

FORMAT: Final = "tienlen-game"
"""The value of a record's ``"format"`` field."""
VERSION: Final = 2
"""The record format version this library writes."""
VERSIONS: Final = (1, 2)
"""The record format versions this library reads."""
MAX_SIZE: Final = 1_000_000
"""The longest record `loads` reads: characters of a ``str``, bytes of ``bytes``."""
MAX_ACTIONS: Final = 10_000
"""The most actions a record may hold (a game of eight on two decks takes under 1,000)."""
MAX_DEPTH: Final = 8
"""The deepest nesting of JSON arrays and objects in a record (version 2 needs 5)."""

_MAX_PROBLEM: Final = 300
"""The longest problem text a `RecordError` message carries."""


class RecordError(TienLenError, ValueError):
    """A game record that is corrupt, truncated, tampered with or of the wrong types.

    The message is short whatever the record holds: offending values are cut.
    A `RecordError` pickles (for process pools) to an error of the same place and
    message.

    Attributes:
        where: The path of the offending field, e.g. ``"actions[3]"``.
        problem: What is wrong there.

    Example:
        >>> import pickle
        >>> from tienlen.records import RecordError
        >>> error = pickle.loads(pickle.dumps(RecordError("actions[3]", "not a play")))
        >>> error.where, str(error)
        ('actions[3]', 'invalid game record at actions[3]: not a play')
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = _clip(problem, _MAX_PROBLEM)
        super().__init__(f"invalid game record at {where}: {self.problem}")

    def __reduce__(
        self,
    ) -> tuple[type[RecordError], tuple[str, str], dict[str, object]]:
        return type(self), (self.where, self.problem), self.__dict__


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_REPR: Final = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 40
_REPR.maxlist = _REPR.maxdict = 4


def _shown(value: object) -> str:
    """A short repr of *value* for messages; long values are cut with ``...``."""
    return _REPR.repr(value)


def _hands(values: Sequence[Hand]) -> tuple[Hand, ...]:
    return tuple(values)


def _actions(values: Sequence[Action]) -> tuple[Action, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class GameRecord:
    """A whole game: how it started and every action, replayable.

    Build one from a state with `record`, read one with `load`/`loads`.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import record
        >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s").play("8d")
        >>> game = record(state)
        >>> [str(hand) for hand in game.hands], len(game.actions), game.actions[1].player
        (['3s 9h', '8d'], 2, 1)
    """

    rules: BaseRules
    """The rule set."""
    hands: tuple[Hand, ...] = attrs.field(converter=_hands)
    """The dealt hands, by player (the hands at `position`, for a game from one)."""
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
    position: str | None = None
    """The notation of the position the game started from (a puzzle, a bug report:
    `GameState.from_notation`), or ``None`` for a game played from its deal. `hands`
    then holds the cards held at that position."""

    def start(self) -> GameState:
        """The state at the deal, or at the position the game started from.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> from tienlen.records import record
            >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s").play("8d")
            >>> start = record(state).start()
            >>> start.to_act, start.history
            (0, ())
        """
        if self.position is not None:
            return GameState.from_notation(self.position)
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

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> from tienlen.records import record
            >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s").play("8d")
            >>> [step.to_act for step in record(state).states()]
            [0, 1, None]
        """
        state = self.start()
        yield state
        for action in self.actions:
            state = state.apply(action)
            yield state

    @property
    def final(self) -> GameState:
        """The state after the last action.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> from tienlen.records import record
            >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s").play("8d")
            >>> final = record(state).final
            >>> final == state, final.result.winner
            (True, 1)
        """
        *_, last = self.states()
        return last


def record(state: GameState, *, seed: int | None = None) -> GameRecord:
    """The record of the game that led to *state* (from its deal and history).

    A game started from a position (`GameState.from_notation`) is recorded from that
    position: the record's `GameRecord.position` holds its notation.

    Raises:
        RecordError: the rule set is not a `BaseRules`, so it cannot be written.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import record
        >>> game = record(GameState.deal(CLASSIC, 4, seed=1), seed=1)
        >>> len(game.hands), game.actions
        (4, ())
    """
    if not isinstance(state, GameState):
        msg = f"expected a GameState, got {type(state).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if not isinstance(state.rules, BaseRules):
        raise RecordError(
            "rules", f"cannot record a custom rule set {_shown(state.rules)}"
        )
    start = state.setup
    position: str | None = getattr(start, "position", None)  # a `PositionSetup`
    return GameRecord(
        rules=state.rules,
        hands=state.dealt
        if position is None
        else GameState.from_notation(position).hands,
        actions=state.history,
        first_game=start.first_game,
        leader=start.leader,
        after_instant_win=start.after_instant_win,
        dealer=start.dealer,
        seed=seed,
        position=position,
    )


# -- setting values as JSON: one codec per type, built from the type hints ----------

JsonValue = str | int | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""A JSON value, as ``json`` reads and writes it."""


@attrs.frozen
class _Codec:
    """How values of one type are written as JSON and read back."""

    expected: str
    """What the JSON holds, for messages: ``"an integer"``."""
    accepts: Callable[[object], bool]
    """Whether `write` can write a Python value (it picks a member of a union)."""
    write: Callable[[object, str], JsonValue]
    """The JSON form of a value, or `RecordError` at the place given."""
    read: Callable[[object, str], object]
    """The value of a JSON form, or `RecordError` at the place given."""
    reads_objects: bool = False
    """Whether its JSON form is an object (an attrs class): in a union, the one member
    that reads objects reads an object, so its message names the field at fault."""


def _refuse(codec_expected: str) -> Callable[[object, str], typing.NoReturn]:
    def refuse(value: object, where: str) -> typing.NoReturn:
        raise RecordError(where, f"expected {codec_expected}, got {_shown(value)}")

    return refuse


def _exact(cls: type, expected: str) -> _Codec:
    """JSON's own types: written as they are, read only when of exactly that type."""

    def accepts(value: object) -> bool:
        return type(value) is cls

    def read(value: object, where: str) -> object:
        if type(value) is not cls:
            raise RecordError(where, f"expected {expected}, got {_shown(value)}")
        return value

    def write(value: object, where: str) -> JsonValue:
        if type(value) is not cls:
            _cannot_write(value, where)
        return typing.cast("JsonValue", value)

    return _Codec(expected, accepts, write, read)


def _cannot_write(value: object, where: str) -> typing.NoReturn:
    raise RecordError(
        where,
        f"a record cannot store {_shown(value)} ({type(value).__name__}): "
        "the setting has no JSON form",
    )


def _int_codec() -> _Codec:
    """Integers; ``True`` and ``False`` are not integers here."""

    def accepts(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def write(value: object, where: str) -> JsonValue:
        if not accepts(value):
            _cannot_write(value, where)
        return operator.index(typing.cast("int", value))

    exact = _exact(int, "an integer")
    return _Codec(exact.expected, accepts, write, exact.read)


def _enum_codec(cls: type[enum.Enum]) -> _Codec:
    """An enum member as its name in lower case: ``"counterclockwise"``."""
    members = {member.name.lower(): member for member in cls}
    expected = f"one of {', '.join(members)}"

    def accepts(value: object) -> bool:
        return isinstance(value, cls)

    def write(value: object, where: str) -> JsonValue:
        if not isinstance(value, cls):
            _cannot_write(value, where)
        return value.name.lower()

    def read(value: object, where: str) -> object:
        member = members.get(value) if type(value) is str else None
        if member is None:
            raise RecordError(where, f"expected {expected}, got {_shown(value)}")
        return member

    return _Codec(expected, accepts, write, read)


_KINDS: Final = {kind.name.lower(): kind for kind in ComboKind}
_SHAPE_TEXT: Final = re.compile(r"([a-z_]+):(0|[1-9][0-9]{0,2})")
"""A shape: a kind's name in lower case and a number of cards in ASCII digits."""


def _read_shape(value: object, where: str) -> Shape:
    match = _SHAPE_TEXT.fullmatch(value) if type(value) is str else None
    kind = _KINDS.get(match[1]) if match else None
    if match is None or kind is None:
        raise RecordError(
            where, f"expected a shape like 'consecutive_pairs:6', got {_shown(value)}"
        )
    try:
        return Shape(kind, int(match[2]))
    except InvalidRulesError:
        raise RecordError(where, f"no such shape {_shown(value)}") from None


def _write_shape(value: object, where: str) -> JsonValue:
    if not isinstance(value, Shape):
        _cannot_write(value, where)
    return f"{value.kind.name.lower()}:{value.size}"


_SHAPE: Final = _Codec(
    "a shape like 'pair:2'",
    lambda value: isinstance(value, Shape),
    _write_shape,
    _read_shape,
)


def _sequence_codec(item: _Codec) -> _Codec:
    """``tuple[X, ...]``: an array, in order."""
    expected = f"a list of {item.expected}"

    def accepts(value: object) -> bool:
        return isinstance(value, tuple) and all(map(item.accepts, value))

    def write(value: object, where: str) -> JsonValue:
        if not isinstance(value, tuple):
            _cannot_write(value, where)
        return [item.write(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def read(value: object, where: str) -> object:
        if type(value) is not list:
            raise RecordError(where, f"expected {expected}, got {_shown(value)}")
        return tuple(item.read(v, f"{where}[{i}]") for i, v in enumerate(value))

    return _Codec(expected, accepts, write, read)


def _set_codec(item: _Codec) -> _Codec:
    """``frozenset[X]``: an array sorted by the items' JSON text, so the text is stable."""
    sequence = _sequence_codec(item)

    def accepts(value: object) -> bool:
        return isinstance(value, frozenset) and all(map(item.accepts, value))

    def write(value: object, where: str) -> JsonValue:
        if not isinstance(value, frozenset):
            _cannot_write(value, where)
        written = [item.write(v, where) for v in value]
        return sorted(written, key=json.dumps)

    def read(value: object, where: str) -> object:
        return frozenset(typing.cast("tuple[object, ...]", sequence.read(value, where)))

    return _Codec(sequence.expected, accepts, write, read)


def _tuple_codec(items: tuple[_Codec, ...]) -> _Codec:
    """``tuple[X, Y]``: an array of exactly that many values."""
    expected = f"a list of {len(items)} values"

    def accepts(value: object) -> bool:
        return (
            isinstance(value, tuple)
            and len(value) == len(items)
            and all(codec.accepts(v) for codec, v in zip(items, value, strict=True))
        )

    def write(value: object, where: str) -> JsonValue:
        if not isinstance(value, tuple) or len(value) != len(items):
            _cannot_write(value, where)
        return [
            codec.write(v, f"{where}[{i}]")
            for i, (codec, v) in enumerate(zip(items, value, strict=True))
        ]

    def read(value: object, where: str) -> object:
        if type(value) is not list or len(value) != len(items):
            raise RecordError(where, f"expected {expected}, got {_shown(value)}")
        return tuple(
            codec.read(v, f"{where}[{i}]")
            for i, (codec, v) in enumerate(zip(items, value, strict=True))
        )

    return _Codec(expected, accepts, write, read)


def _union_codec(members: tuple[_Codec, ...]) -> _Codec:
    """``X | Y``: the first member that can write a value writes it."""
    expected = " or ".join(member.expected for member in members)

    def accepts(value: object) -> bool:
        return any(member.accepts(value) for member in members)

    def write(value: object, where: str) -> JsonValue:
        for member in members:
            if member.accepts(value):
                return member.write(value, where)
        _cannot_write(value, where)

    def read(value: object, where: str) -> object:
        nullable = any(member is _NULL for member in members)
        if value is None and nullable:
            return None
        others = [member for member in members if member is not _NULL]
        if type(value) is dict:  # only an object member can hold it
            objects = [member for member in others if member.reads_objects]
            others = objects if len(objects) == 1 else others
        if len(others) == 1:  # one member can hold it: its message is the precise one
            return others[0].read(value, where)
        for member in others:
            try:
                return member.read(value, where)
            except RecordError:
                continue
        raise RecordError(where, f"expected {expected}, got {_shown(value)}")

    return _Codec(expected, accepts, write, read)


def _attrs_codec(cls: type) -> _Codec:
    """An attrs class (a `Bomb`): an object of its fields, each by its type."""
    hints = typing.get_type_hints(cls)
    fields = [field for field in attrs.fields(cls) if field.init]
    codecs = {field.alias: _codec_for(hints[field.name]) for field in fields}
    required = {field.alias for field in fields if field.default is attrs.NOTHING}
    expected = f"an object with {', '.join(codecs)}"

    def accepts(value: object) -> bool:
        return type(value) is cls

    def write(value: object, where: str) -> JsonValue:
        if type(value) is not cls:
            _cannot_write(value, where)
        return {
            field.alias: codecs[field.alias].write(
                getattr(value, field.name), f"{where}.{field.alias}"
            )
            for field in fields
        }

    def read(value: object, where: str) -> object:
        if type(value) is not dict:
            raise RecordError(where, f"expected {expected}, got {_shown(value)}")
        unknown = sorted(key for key in value if key not in codecs)
        if unknown:
            field = _shown(unknown[0])
            known = ", ".join(codecs)
            raise RecordError(
                where, f"{cls.__name__} has no field {field} (its fields: {known})"
            )
        missing = [key for key in codecs if key in required and key not in value]
        if missing:
            raise RecordError(where, f"{cls.__name__} needs {', '.join(missing)}")
        decoded = {
            key: codecs[key].read(item, f"{where}.{key}") for key, item in value.items()
        }
        try:
            return cls(**decoded)
        except (TienLenError, TypeError, ValueError) as error:
            raise RecordError(where, str(error)) from None

    return _Codec(expected, accepts, write, read, reads_objects=True)


def _unwritable(hint: object) -> _Codec:
    """A type records cannot hold (a callable, an arbitrary object)."""

    def write(value: object, where: str) -> JsonValue:
        _cannot_write(value, where)

    def read(value: object, where: str) -> object:
        raise RecordError(
            where,
            f"a record cannot hold {_shown(value)}: no {hint} value has a JSON form",
        )

    return _Codec(f"no JSON value ({hint})", lambda _: False, write, read)


_NULL: Final = _Codec(
    "null",
    lambda value: value is None,
    lambda value, where: None if value is None else _cannot_write(value, where),
    lambda value, where: None if value is None else _refuse("null")(value, where),
)
_LEAVES: Final[dict[object, _Codec]] = {
    bool: _exact(bool, "true or false"),
    int: _int_codec(),
    str: _exact(str, "a string"),
    type(None): _NULL,
    Shape: _SHAPE,
}


@functools.cache
def _codec_for(hint: object) -> _Codec:
    """The codec of a type hint: a setting's type decides its JSON form."""
    leaf = _LEAVES.get(hint)
    if leaf is not None:
        return leaf
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return _union_codec(tuple(map(_codec_for, args)))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _sequence_codec(_codec_for(args[0]))
    if origin is tuple and args:
        return _tuple_codec(tuple(map(_codec_for, args)))
    if origin is frozenset and len(args) == 1:
        return _set_codec(_codec_for(args[0]))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_codec(hint)
    if isinstance(hint, type) and attrs.has(hint):
        return _attrs_codec(hint)
    return _unwritable(hint)


@functools.cache
def _settings() -> dict[str, _Codec]:
    """Every setting of `BaseRules` a record stores, in field order, with its codec.

    These are the fields that make two rule sets differ (``eq``): all but ``name``,
    which a record holds apart, ``aliases``, which only `tienlen.get_rules` reads, and
    the custom policies, which are code.
    """
    hints = typing.get_type_hints(BaseRules)
    return {
        field.name: _codec_for(hints[field.name])
        for field in attrs.fields(BaseRules)
        if field.init
        and field.eq
        and field.name != "name"
        and field.name not in CUSTOM_POLICIES
    }


CUSTOM_POLICIES: Final = ("custom_turn_policy", "custom_deal_policy", "custom_scorer")
"""The settings that hold a table's own policy object. A policy is code, so no
record (nor a position's notation) can hold one."""


def setting_names() -> tuple[str, ...]:
    """The `BaseRules` settings a record stores, in field order (`tienlen.notation` too).

    All the fields that make two rule sets differ but ``name`` (held apart),
    ``aliases`` and the custom policies (`CUSTOM_POLICIES`, code).

    Example:
        >>> names = setting_names()
        >>> names[0], "custom_scorer" in names, "name" in names
        ('direction', False, False)
    """
    return tuple(_settings())


def read_setting(name: str, value: object, where: str) -> object:
    """The value of setting *name* written as the JSON *value* (as records store it).

    Raises:
        TypeError: *name* or *where* is not a string.
        RecordError: *name* is no setting of `setting_names`, or *value* is not its
            JSON form; its ``where`` is *where*.

    Example:
        >>> read_setting("twos_in_straights", False, "rules")
        False
        >>> read_setting("twos_in_straights", 3, "rules")
        Traceback (most recent call last):
        ...
        tienlen.records.RecordError: invalid game record at rules: expected true or false, got 3
    """
    for label, text in (("name", name), ("where", where)):
        if not isinstance(text, str):
            msg = f"{label} must be a str, not {type(text).__name__}"  # type: ignore[unreachable]
            raise TypeError(msg)
    codec = _settings().get(name)
    if codec is None:
        raise RecordError(where, f"unknown setting {name!r}")
    return codec.read(value, where)


@functools.cache
def _written_when_set() -> dict[str, object]:
    """The settings written only when not their default, with it (`WRITTEN_WHEN_SET`)."""
    fields = attrs.fields(BaseRules)
    return {f.name: f.default for f in fields if f.metadata.get("written_when_set")}


_ALWAYS: Final = object()
"""No setting's value: a setting without a default to leave out is always written."""


# -- rules as JSON ----------------------------------------------------------------


def rules_to_json(rules: BaseRules) -> dict[str, JsonValue]:
    """A rule set as JSON: its name and the value of every setting (format version 2).

    Each setting is written by its type (docs/records.md lists the encodings), so a
    record holds the whole rule set and does not depend on any preset.

    Raises:
        RecordError: a setting holds a value with no JSON form (a callable, say);
            `RecordError.where` names the setting. Also a subclass of `BaseRules`:
            its settings do not say what its methods change.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> from tienlen.records import rules_to_json
        >>> data = rules_to_json(attrs.evolve(CLASSIC, twos_in_straights=False))
        >>> data["name"], data["settings"]["twos_in_straights"], data["settings"]["kinds"]
        ('classic', False, ['consecutive_pairs', 'four_of_a_kind', 'pair', 'single', 'straight', 'triple'])
    """
    given: object = rules  # any value may come
    if not isinstance(given, BaseRules) or not given.answers_from_settings:
        raise RecordError(
            "rules",
            f"cannot write a rule set of class {type(rules).__name__}: "
            "a record holds BaseRules settings, not what a subclass changes",
        )
    rules = rules.as_settings()  # a subclass that adds nothing writes as its base
    for name in CUSTOM_POLICIES:
        if getattr(rules, name) is not None:
            raise RecordError(
                f"rules.settings.{name}", "a custom policy is code, not data"
            )
    return {
        "name": rules.name,
        "settings": {
            name: codec.write(getattr(rules, name), f"rules.settings.{name}")
            for name, codec in _settings().items()
            if getattr(rules, name) != _written_when_set().get(name, _ALWAYS)
        },
    }


def rules_from_json(
    data: object,
    where: str = "rules",
    *,
    version: int = VERSION,
    players: int | None = None,
) -> BaseRules:
    """The rule set written by `rules_to_json`, or by the version-1 writer with *version* 1.

    A version-1 rule set names a preset (``base``) and the settings changed from it;
    the preset is read as it was in version 1, never as today's preset is.
    A setting missing from a version-2 rule set takes its `BaseRules` default.

    Rule sets written before the ``decks`` setting existed (every version-1 rule set,
    and a version-2 one without ``decks``) read with the decks their game was dealt
    from: then, ``max_players`` above four meant one deck for two to four players and
    two decks for five or more (RULES §2.1). *players* is the game's table size; such a
    rule set read for five or more gets ``decks=2`` and ``min_players=5``, otherwise
    ``decks=1`` and ``max_players=4``. `from_json` passes the record's table size.

    Raises:
        RecordError: an unknown setting or preset, a wrong type, or contradictory
            settings.

    Example:
        >>> import attrs
        >>> from tienlen import KENNETH_LO
        >>> from tienlen.records import rules_from_json, rules_to_json
        >>> old = {"name": "kl", "base": "kenneth-lo", "changes": {"hand_size": 10}}
        >>> rules = rules_from_json(old, version=1)
        >>> rules.hand_size, rules == attrs.evolve(KENNETH_LO, name="kl", hand_size=10)
        (10, True)
        >>> rules_from_json(rules_to_json(rules)) == rules
        True
        >>> classic = {"name": "classic", "base": "classic", "changes": {}}
        >>> [rules_from_json(classic, version=1, players=n).decks for n in (4, 6)]
        [1, 2]
    """
    if version == 1:
        return _rules_v1(data, where, players)
    if version != VERSION:
        raise RecordError(where, f"no rule set format of version {_shown(version)}")
    if type(data) is not dict or data.keys() != {"name", "settings"}:
        raise RecordError(where, f"expected name and settings, got {_shown(data)}")
    name = _rules_name(data["name"], f"{where}.name")
    settings = data["settings"]
    if type(settings) is not dict:
        raise RecordError(
            f"{where}.settings", f"expected an object, got {_shown(settings)}"
        )
    where = f"{where}.settings"
    decoded = _read_settings(settings, _settings(), where)
    if "decks" not in decoded:
        decoded = _legacy_decks(decoded, players)
    return _build_rules(name, decoded, where)


def rules_from_file(data: object) -> BaseRules:
    """The rule set a rules file holds, decoded: a rule set or a whole game record.

    A house-rules file (``tienlen --rules-file``, the server's New table dialog) holds
    a rule set as `rules_to_json` writes it, or a game record (`to_json`), whose
    rules are taken (read at the record's ``version``).

    Raises:
        RecordError: no rule set: an unknown setting, a wrong type, settings that
            contradict each other.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> house = attrs.evolve(CLASSIC, name="ours", twos_in_straights=True)
        >>> rules_from_file(rules_to_json(house)) == house
        True
        >>> rules_from_file({"version": 2, "rules": rules_to_json(house)}) == house
        True
        >>> rules_from_file({"name": "x", "settings": {"decks": "two"}})
        Traceback (most recent call last):
        tienlen.records.RecordError: invalid game record at rules.settings.decks: ...
    """
    version = VERSION
    if isinstance(data, dict) and "rules" in data:  # a whole record: its rules
        version = data.get("version", version)
        if type(version) is not int:
            version = VERSION
        data = data["rules"]
    return rules_from_json(data, "rules", version=version)


def _rules_name(name: object, where: str) -> str:
    if type(name) is not str or not name:
        raise RecordError(where, f"expected a name, got {_shown(name)}")
    return name


def _read_settings(
    data: dict[object, object], codecs: Mapping[str, _Codec], where: str
) -> dict[str, object]:
    decoded: dict[str, object] = {}
    for key, value in data.items():
        if type(key) is not str or key not in codecs:
            raise RecordError(where, f"unknown setting {_shown(key)}")
        decoded[key] = codecs[key].read(value, f"{where}.{key}")
    return decoded


def _build_rules(name: str, settings: dict[str, object], where: str) -> BaseRules:
    """The rule set of decoded settings; contradictions are refused at *where*."""
    try:
        return _rules(name, tuple(sorted(settings.items(), key=operator.itemgetter(0))))
    except (InvalidRulesError, TypeError, ValueError) as error:
        raise RecordError(where, str(error)) from None


@functools.lru_cache(maxsize=64)
def _rules(name: str, settings: tuple[tuple[str, object], ...]) -> BaseRules:
    """The rule set of decoded *settings*; rule sets are immutable, so one serves all."""
    build: Callable[..., BaseRules] = (
        BaseRules  # settings named at run time, typed above
    )
    return build(name=name, **dict(settings))


# -- version 1: a preset's name plus changed settings, presets frozen as of version 1 --

_PRESETS_V1: Final = "presets-v1.json"
"""The five presets' settings as they were in format version 1 (package data)."""


@functools.cache
def _presets_v1() -> dict[str, dict[str, object]]:
    """What each preset name meant in version 1: every setting, decoded."""
    text = importlib.resources.files("tienlen").joinpath(_PRESETS_V1).read_text("utf-8")
    presets = json.loads(text)["presets"]
    return {
        name: _read_settings(settings, _settings(), f"{_PRESETS_V1}:{name}")
        for name, settings in presets.items()
    }


def _legacy_decks(
    settings: dict[str, object], players: int | None
) -> dict[str, object]:
    """*settings* of a rule set written before ``decks``, with the decks its game used.

    Such a rule set seating more than four dealt two decks to five or more players and
    one to fewer (RULES §2.1); today that is two rule sets, told apart by *players*
    (unknown: the table its ``min_players`` allows, one deck when it can).
    """
    fewest, most = settings.get("min_players", 2), settings.get("max_players", 4)
    if type(fewest) is not int or type(most) is not int:  # pragma: no cover - codecs
        raise RecordError("rules.settings", "min_players and max_players are ints")
    if most <= _ONE_DECK_PLAYERS:
        return settings
    two = (
        players > _ONE_DECK_PLAYERS
        if players is not None
        else fewest > _ONE_DECK_PLAYERS
    )
    if two:
        return settings | {
            "decks": 2,
            "min_players": max(fewest, _ONE_DECK_PLAYERS + 1),
        }
    return settings | {"decks": 1, "max_players": _ONE_DECK_PLAYERS}


_ONE_DECK_PLAYERS: Final = 4
"""The most players one deck seats (RULES §2.1)."""


def _rules_v1(data: object, where: str, players: int | None) -> BaseRules:
    if type(data) is not dict or data.keys() != {"name", "base", "changes"}:
        raise RecordError(where, f"expected name, base and changes, got {_shown(data)}")
    presets = _presets_v1()
    base = data["base"]
    if type(base) is not str or base not in presets:
        raise RecordError(
            f"{where}.base",
            f"unknown rule set {_shown(base)} (known: {', '.join(presets)})",
        )
    name = _rules_name(data["name"], f"{where}.name")
    changes = data["changes"]
    if type(changes) is not dict:
        raise RecordError(
            f"{where}.changes", f"expected an object, got {_shown(changes)}"
        )
    known = {key: _settings()[key] for key in presets[base]}
    known["aliases"] = _codec_for(tuple[str, ...])  # a version-1 reader accepted it
    where = f"{where}.changes"
    settings = presets[base] | _read_settings(changes, known, where)
    return _build_rules(name, _legacy_decks(settings, players), where)


# -- records as JSON ----------------------------------------------------------------


def _action_to_json(action: Action) -> dict[str, JsonValue]:
    if isinstance(action, Pass):
        return {"player": action.player, "pass": True}
    return {"player": action.player, "play": str(action.cards)}


def to_json(game: GameRecord) -> dict[str, JsonValue]:
    """A record as a JSON-ready dict (see `dumps` for the format).

    Raises:
        RecordError: a setting of the rule set has no JSON form (see `rules_to_json`).
        TypeError: *game* is not a `GameRecord`.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import record, to_json
        >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s").play("8d")
        >>> data = to_json(record(state))
        >>> data["version"], data["hands"], data["actions"][1], data["result"]
        (2, ['3s 9h', '8d'], {'player': 1, 'play': '8d'}, {'finish_order': [1, 0], 'scores': [-1, 1]})
    """
    if not isinstance(game, GameRecord):
        msg = f"expected a GameRecord, got {type(game).__name__}"  # type: ignore[unreachable]  # a defensive runtime check
        raise TypeError(msg)
    rules = rules_to_json(game.rules)
    result = game.final.result
    position: dict[str, JsonValue] = (
        {} if game.position is None else {"position": game.position}
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules,
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
        **position,
    }


def dumps(game: GameRecord, *, indent: int | None = None) -> str:
    """The record as JSON text (format version 2, described in docs/records.md).

    An object with ``format`` (``"tienlen-game"``), ``version``, ``rules`` (``name``
    and every setting), ``players``, ``seed`` (or null), ``dealer``, ``first_game``,
    ``leader``, ``after_instant_win``, ``hands`` (card text by player), ``actions``
    (``{"player": 1, "play": "7s 7h"}`` or ``{"player": 2, "pass": true}``) and
    ``result`` (``finish_order`` and ``scores``, or null while the game goes on); a
    game started from a position adds ``position``, its notation (docs/notation.md).

    Raises:
        RecordError: a setting of the rule set has no JSON form (see `rules_to_json`).

    Example:
        >>> import json
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import dumps, record
        >>> state = GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s")
        >>> text = dumps(record(state))
        >>> json.loads(text)["actions"], json.loads(text)["result"]
        ([{'player': 0, 'play': '3s'}], None)
    """
    return json.dumps(to_json(game), indent=indent, ensure_ascii=False)


def dump(game: GameRecord, file: IO[str], *, indent: int | None = None) -> None:
    """Write the record as JSON text to *file* (see `dumps`).

    Example:
        >>> import io
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import dump, dumps, record
        >>> game = record(GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s"))
        >>> file = io.StringIO()
        >>> dump(game, file)
        >>> file.getvalue() == dumps(game)
        True
    """
    text = dumps(game, indent=indent)
    if not callable(getattr(file, "write", None)):
        msg = f"expected a text file, got {type(file).__name__}"
        raise TypeError(msg)
    file.write(text)


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
_OPTIONAL_FIELDS: Final = ("position",)
"""Fields a record may leave out: ``position``, for a game started from a position."""


def _int_or_none(data: Mapping[str, object], key: str) -> int | None:
    value = data[key]
    if value is not None and type(value) is not int:
        raise RecordError(key, f"expected an integer or null, got {_shown(value)}")
    return value


def _seat_or_none(data: Mapping[str, object], key: str, players: int) -> int | None:
    seat = _int_or_none(data, key)
    if seat is not None and not 0 <= seat < players:
        raise RecordError(
            key, f"expected a player 0-{players - 1} or null, got {_shown(seat)}"
        )
    return seat


def _bool(data: Mapping[str, object], key: str) -> bool:
    value = data[key]
    if type(value) is not bool:
        raise RecordError(key, f"expected true or false, got {_shown(value)}")
    return value


def _list(value: object, where: str) -> list[object]:
    if type(value) is not list:
        raise RecordError(where, f"expected a list, got {_shown(value)}")
    return value


def _action_from(item: object, where: str) -> Action:
    player = item.get("player") if type(item) is dict else None
    if type(item) is not dict or type(player) is not int:
        raise RecordError(
            where, f"expected an action with a player, got {_shown(item)}"
        )
    if item.keys() == {"player", "pass"} and item["pass"] is True:
        return Pass(player=player)
    if item.keys() == {"player", "play"} and type(item["play"]) is str:
        try:
            return Play(player=player, cards=item["play"])
        except InvalidCardError as error:
            raise RecordError(where, str(error)) from None
    raise RecordError(where, f"expected a play or a pass, got {_shown(item)}")


def _check_depth(data: object) -> None:
    """Refuse arrays and objects nested deeper than `MAX_DEPTH` (and cycles)."""
    level: list[object] = [data]
    for _ in range(MAX_DEPTH):
        inner: dict[int, object] = {}
        for value in level:
            children = value.values() if type(value) is dict else value
            for child in typing.cast("Iterable[object]", children):
                if type(child) is dict or type(child) is list:
                    inner[id(child)] = child  # each shared container once
        if not inner:
            return
        level = list(inner.values())
    raise RecordError("record", f"nested deeper than {MAX_DEPTH} levels")


def _check_shape(data: Mapping[str, object]) -> int:
    """Cheap checks before any rule set is built or move replayed: sizes and counts.

    Returns:
        The number of players.
    """
    players = data["players"]
    hands = _list(data["hands"], "hands")
    if type(players) is not int or players != len(hands):
        raise RecordError(
            "players", f"{_shown(players)} players but {len(hands)} hands"
        )
    actions = _list(data["actions"], "actions")
    if len(actions) > MAX_ACTIONS:
        raise RecordError(
            "actions", f"{len(actions)} actions, more than the {MAX_ACTIONS} allowed"
        )
    result = data["result"]
    exact = result is None or (
        type(result) is dict
        and result.keys() == {"finish_order", "scores"}
        and all(
            type(values) is list
            and len(values) == players
            and all(type(value) is int for value in values)
            for values in result.values()
        )
    )
    if not exact:
        raise RecordError(
            "result",
            f"expected null or finish_order and scores of {players} integers, "
            f"got {_shown(result)}",
        )
    return players


def from_json(data: object) -> GameRecord:
    """Check and replay a JSON-decoded record of any version `VERSIONS` lists.

    The checks run cheapest first: the fields, their types and sizes, the rule set,
    the hands, the actions, and last the replay through the engine and its result.

    Raises:
        RecordError: anything wrong, named with its place in the record.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import RecordError, from_json, record, to_json
        >>> game = record(GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s"))
        >>> from_json(to_json(game)) == game
        True
        >>> data = to_json(game)
        >>> data["actions"] = [{"player": 1, "play": "8d"}]
        >>> try:
        ...     from_json(data)
        ... except RecordError as error:
        ...     print(error.where)
        actions[0]
    """
    if type(data) is not dict:
        raise RecordError("record", f"expected an object, got {type(data).__name__}")
    missing = [key for key in _FIELDS if key not in data]
    if missing:
        raise RecordError(
            "record", f"missing field(s) {', '.join(missing)} (truncated?)"
        )
    extra = [key for key in data if key not in (*_FIELDS, *_OPTIONAL_FIELDS)]
    if extra:
        raise RecordError("record", f"unknown field(s) {_shown(extra)}")
    if type(data["format"]) is not str or data["format"] != FORMAT:
        raise RecordError(
            "format", f"expected {FORMAT!r}, got {_shown(data['format'])}"
        )
    version = data["version"]
    if type(version) is not int or version not in VERSIONS:
        raise RecordError(
            "version",
            f"this library reads versions {', '.join(map(str, VERSIONS))}, "
            f"got {_shown(version)}",
        )
    _check_depth(data)
    players = _check_shape(data)
    rules = rules_from_json(data["rules"], version=version, players=players)
    if not rules.min_players <= players <= rules.max_players:
        raise RecordError(
            "players",
            f"{rules.name} is played by {rules.min_players}-{rules.max_players} "
            f"players, not {players}",
        )
    hands = [_hand_from(text, f"hands[{i}]") for i, text in enumerate(data["hands"])]
    actions = [
        _action_from(item, f"actions[{i}]") for i, item in enumerate(data["actions"])
    ]
    plays = sum(isinstance(action, Play) for action in actions)
    if plays > sum(map(len, hands)):
        raise RecordError("actions", f"{plays} plays of {sum(map(len, hands))} cards")
    leader = _seat_or_none(data, "leader", players)
    dealer = _seat_or_none(data, "dealer", players)
    first_game = _bool(data, "first_game")
    after_instant_win = _bool(data, "after_instant_win")
    position = data.get("position")
    if position is not None:
        _check_position(position, data, rules, hands)
    elif leader is None and not rules.lead_must_include(
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
        position=position,
    )
    _check_result(data["result"], _replay_checked(game))
    return game


def _check_position(
    position: object,
    data: Mapping[str, object],
    rules: BaseRules,
    hands: Sequence[Hand],
) -> None:
    """A record's starting position: its notation, agreeing with the other fields."""
    if type(position) is not str:
        raise RecordError("position", f"expected notation text, got {_shown(position)}")
    try:
        start = GameState.from_notation(position)
    except TienLenError as error:
        raise RecordError("position", str(error)) from None
    setup = start.setup
    written = {
        "rules": (start.rules, rules),
        "hands": (start.hands, tuple(hands)),
        "first_game": (setup.first_game, data["first_game"]),
        "leader": (setup.leader, data["leader"]),
        "after_instant_win": (setup.after_instant_win, data["after_instant_win"]),
        "dealer": (setup.dealer, data["dealer"]),
    }
    for where, (expected, found) in written.items():
        if expected != found:
            raise RecordError(where, f"the position says {_shown(expected)}")


def _hand_from(text: object, where: str) -> Hand:
    if type(text) is not str:
        raise RecordError(where, f"expected card text, got {_shown(text)}")
    try:
        return Hand.parse(text)
    except InvalidCardError as error:
        raise RecordError(where, str(error)) from None


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
    if data != expected:
        raise RecordError(
            "result", f"the game replays to {expected}, the record says {_shown(data)}"
        )


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object, refusing a key given twice (a forged field before the real one)."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RecordError("record", f"duplicate key {_shown(key)}")
            seen.add(key)
    return data


def _no_constant(name: str) -> typing.NoReturn:
    raise RecordError("record", f"not JSON: {name} is no JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: too large for a float
        raise RecordError("record", f"not JSON: {_clip(text, 40)} is no finite number")
    return number


def read_json(text: str | bytes) -> object:
    """JSON text decoded as strictly as `loads` reads a record.

    A key given twice in an object (a forged field before the real one), ``NaN``,
    ``Infinity`` and a number too large for a float are refused, where the ``json``
    module takes the last key and reads the rest as floats. The server reads every
    client message with it.

    Raises:
        RecordError: at ``record``: the text is not strict JSON.

    Example:
        >>> read_json('{"type": "ping", "n": [1, 2.5]}')
        {'type': 'ping', 'n': [1, 2.5]}
        >>> read_json('{"type": "ping", "type": "create"}')
        Traceback (most recent call last):
        tienlen.records.RecordError: invalid game record at record: duplicate key 'type'
        >>> read_json("[NaN]")
        Traceback (most recent call last):
        tienlen.records.RecordError: invalid game record at record: not JSON: NaN is no JSON number
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_no_constant,
            parse_float=_finite,
        )
    except RecordError:
        raise
    except (ValueError, RecursionError) as error:
        raise RecordError("record", f"not JSON: {_clip(str(error), 80)}") from None


def loads(text: str | bytes) -> GameRecord:
    """Read a record from JSON text, checking everything (see `dumps` for the format).

    Safe on untrusted text: the work is bounded by `MAX_SIZE`, `MAX_ACTIONS` and
    `MAX_DEPTH`, and a record breaking them is refused before it is replayed.

    Raises:
        RecordError: the text is not JSON (or too long, or repeats a key in an object),
            or the record is corrupt, truncated, tampered with or of the wrong types.
        TypeError: *text* is neither ``str`` nor ``bytes``.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import RecordError, dumps, loads, record
        >>> game = record(GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s"))
        >>> loads(dumps(game)) == game
        True
        >>> loads('{"format": "tienlen-game"')
        Traceback (most recent call last):
        tienlen.records.RecordError: invalid game record at record: not JSON: ...
    """
    if not isinstance(text, str | bytes | bytearray):
        msg = f"expected JSON text or bytes, got {type(text).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if len(text) > MAX_SIZE:
        unit = "characters" if isinstance(text, str) else "bytes"
        raise RecordError(
            "record", f"{len(text):,} {unit}, more than the {MAX_SIZE:,} allowed"
        )
    return from_json(read_json(text))


def load(file: IO[str]) -> GameRecord:
    """Read a record from a text file (see `loads`); at most `MAX_SIZE` are read.

    Example:
        >>> import io
        >>> from tienlen import CLASSIC, GameState
        >>> from tienlen.records import dumps, load, record
        >>> game = record(GameState.from_hands(["3s 9h", "8d"], CLASSIC).play("3s"))
        >>> load(io.StringIO(dumps(game))) == game
        True
    """
    if not callable(getattr(file, "read", None)):
        msg = f"expected a text file, got {type(file).__name__}"
        raise TypeError(msg)
    return loads(file.read(MAX_SIZE + 1))
