"""The position notation: a whole `GameState` on one line a person can read and type.

Like python-chess's FEN or pokerkit's PHH, the notation names a position, not a game:
two states with the same notation are equal, and `read` rebuilds a state equal to the
one `write` wrote, which plays on exactly as it would. A line is fields separated by
``;``, each a keyword and its value; seats are separated by ``/``, cards are written
as `tienlen.parse_cards` reads them (``3s 4d Th``). docs/notation.md gives the grammar.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC).play("3s")
    >>> text = state.notation()
    >>> text
    'tienlen 1; rules classic; hands 7h / 4d 9c / 5c Jd; played 3s / - / -; to 1; top 3s by 0'
    >>> GameState.from_notation(text) == state
    True

`read` treats its text as untrusted: anything malformed, inconsistent or longer than
`MAX_LENGTH` raises `NotationError` naming the field and the character where it is.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import attrs

from tienlen.actions import hand_of
from tienlen.cards import DECK, Hand
from tienlen.combos import Combo, make_combo
from tienlen.engine import bits as _bits
from tienlen.engine import positions as _positions
from tienlen.engine.rulebook import context_of
from tienlen.engine.shapes import structural_key
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import GameSetup, GameState, from_fields, with_fields
from tienlen.policies import Seating
from tienlen.records import (
    CUSTOM_POLICIES,
    JsonValue,
    RecordError,
    read_setting,
    rules_to_json,
    setting_names,
)
from tienlen.rules import RULESETS, BaseRules, RuleSet, get_rules
from tienlen.scoring import ChopChain, Finish, GameResult, ScoreItem, ScoreKind

__all__ = [
    "MAX_LENGTH",
    "VERSION",
    "NotationError",
    "PositionSetup",
    "read",
    "write",
]

VERSION: Final = 1
"""The notation version this library writes and reads (the header ``tienlen 1``)."""
MAX_LENGTH: Final = 10_000
"""The longest text `read` accepts, in characters (a position of eight takes under 1,000)."""

_MAX_PROBLEM: Final = 200
"""The longest problem text a `NotationError` message carries."""


class NotationError(TienLenError, ValueError):
    """Position notation that cannot be read, or a state that cannot be written.

    Attributes:
        field: The field at fault (``"hands"``), or ``"notation"`` for the whole line.
        position: The character offset in the text where it is; ``None`` when writing.
        problem: What is wrong there.

    Example:
        >>> import pickle
        >>> from tienlen import GameState
        >>> try:
        ...     GameState.from_notation("tienlen 1; rules classic; hands 3s / 3s; to 0")
        ... except NotationError as error:
        ...     print(error.field, error.position)
        ...     print(pickle.loads(pickle.dumps(error)))
        hands 32
        invalid position notation at hands (character 32): card '3s' is dealt more often than 1 deck(s) allow (seat 1)
    """

    def __init__(self, field: str, position: int | None, problem: str) -> None:
        self.field = field
        self.position = position
        self.problem = (
            problem if len(problem) <= _MAX_PROBLEM else problem[:_MAX_PROBLEM] + "…"
        )
        where = field if position is None else f"{field} (character {position})"
        super().__init__(f"invalid position notation at {where}: {self.problem}")


@attrs.frozen(kw_only=True)
class PositionSetup(GameSetup):
    """The setup of a game that started from a position (`GameState.from_notation`).

    Besides the flags of `GameSetup` it keeps the position's notation, so that
    `tienlen.records.record` writes a record that replays from it.

    Example:
        >>> from tienlen import GameState
        >>> state = GameState.from_notation("tienlen 1; rules poker; hands 3s 4s / 9h; to 0; first 3s")
        >>> state.play("3s").setup.position
        'tienlen 1; rules poker; hands 3s 4s / 9h; to 0; first 3s'
    """

    position: str
    """The notation of the position the game started from, as `write` writes it."""


# -- writing ----------------------------------------------------------------------


def write(state: GameState) -> str:
    """The notation of *state* (`GameState.notation` calls this).

    Fields at their default are left out: ``played`` when nobody has played, ``top``
    when the player to act leads, and so on; the text of a state is always the same.

    Raises:
        NotationError: the rule set holds code, not settings (a custom policy, a
            custom instant win, a subclass or another `RuleSet`).
        TypeError: *state* is not a `GameState`.

    Example:
        >>> from tienlen import POKER, GameState
        >>> write(GameState.from_hands(["3s 4s", "9h 9d"], POKER))
        'tienlen 1; rules poker; hands 3s 4s / 9d 9h; to 0; first 3s'
    """
    if not isinstance(state, GameState):
        msg = f"expected a GameState, got {type(state).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    fields = (writer(state) for writer in _WRITERS)
    return "; ".join([f"tienlen {VERSION}", *filter(None, fields)])


def _rules_field(state: GameState) -> str:
    return f"rules {_write_rules(state.rules)}"


def _hands_field(state: GameState) -> str:
    return f"hands {_seats_cards(state.hands)}"


def _played_field(state: GameState) -> str | None:
    played = [
        hand_of(_bits.difference(dealt.mask, held.mask))
        for dealt, held in zip(state.dealt, state.hands, strict=True)
    ]
    return f"played {_seats_cards(played)}" if any(played) else None


def _to_field(state: GameState) -> str:
    return f"to {'-' if state.to_act is None else state.to_act}"


def _top_field(state: GameState) -> str | None:
    if state.top is None:
        return None
    beaten = state._beaten
    beat = "" if beaten is None else f" beat {beaten}"
    return f"top {state.top} by {state.last_player}{beat}"


def _passed_field(state: GameState) -> str | None:
    return f"passed {_seats(sorted(state.passed))}" if state.locked else None


def _first_field(state: GameState) -> str | None:
    if state.must_include is None:
        return None
    return f"first {state.must_include}{' declinable' if state.may_decline else ''}"


def _out_field(state: GameState) -> str | None:
    return f"out {_seats(state.finish_order)}" if state.finish_order else None


def _bottom_field(state: GameState) -> str | None:
    bottom: tuple[int, ...] = state._bottom
    return f"bottom {_seats(bottom)}" if bottom != state.frozen[::-1] else None


def _frozen_field(state: GameState) -> str | None:
    return f"frozen {_seats(state.frozen)}" if state.frozen else None


def _chop_field(state: GameState) -> str | None:
    result = state.result
    chop = state.chop if result is None else _closing_chop(state, result)
    if chop is None:
        return None
    return f"chop {chop.victim} pays {chop.catcher} {chop.points} for {_combos(chop.caught)}"


def _items_field(state: GameState) -> str | None:
    return f"items {', '.join(map(_item, state.items))}" if state.items else None


def _end_field(state: GameState) -> str | None:
    result = state.result
    if result is None:
        return None
    if result.instant_win is not None:
        return f"won {result.winner} {result.instant_win.value}"
    return f"over {_seats(result.finish_order)}"


def _setup_field(state: GameState) -> str | None:
    setup = _write_setup(state.setup, state.rules, state.players)
    return f"setup {setup}" if setup else None


_WRITERS: Final = (
    _rules_field,
    _hands_field,
    _played_field,
    _to_field,
    _top_field,
    _passed_field,
    _first_field,
    _out_field,
    _bottom_field,
    _frozen_field,
    _chop_field,
    _items_field,
    _end_field,
    _setup_field,
)
"""Each field's writer, in the order of the line; ``None`` leaves a field out."""


def _write_rules(rules: RuleSet) -> str:
    """A preset's name, or the nearest preset's and the settings that differ from it."""
    if not isinstance(rules, BaseRules) or not rules.answers_from_settings:
        problem = f"a rule set of class {type(rules).__name__} is code, not settings"
        raise NotationError("rules", None, problem)
    return _write_settings(rules.as_settings())


@functools.lru_cache(maxsize=64)
def _write_settings(rules: BaseRules) -> str:
    """`_write_rules` for a `BaseRules`, cached: rule sets are immutable."""
    for name in CUSTOM_POLICIES:
        if getattr(rules, name) is not None:
            raise NotationError(
                "rules", None, f"{name}: a custom policy is code, not data"
            )
    presets = tuple(RULESETS.values())
    if rules in presets:
        return rules.name
    settings = setting_names()

    def changed(preset: BaseRules) -> list[str]:
        return [key for key in settings if getattr(rules, key) != getattr(preset, key)]

    base = min(
        presets, key=lambda preset: len(changed(preset)) + (rules.name != preset.name)
    )
    words = [base.name]
    if rules.name != base.name:
        words.append("name=" + json.dumps(rules.name, ensure_ascii=False))
    written: dict[str, JsonValue] = {}
    if changed(base):
        try:
            written = rules_to_json(rules)["settings"]  # type: ignore[assignment]
        except RecordError as error:
            key = error.where.rpartition(".")[2]
            raise NotationError("rules", None, f"{key}: {error.problem}") from None
    for key in changed(base):
        value = written[key]
        words.append(
            f"{key}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"
        )
    return " ".join(words)


def _seats_cards(hands: Sequence[Hand]) -> str:
    return " / ".join(str(hand) if hand else "-" for hand in hands)


def _seats(seats: Iterable[int]) -> str:
    return " ".join(map(str, seats))


def _combos(combos: Iterable[Combo]) -> str:
    return " / ".join(map(str, combos))


def _item(item: ScoreItem) -> str:
    if item.payer is None:
        text = f"{item.kind.value} {item.player} scores {item.points}"
    else:
        text = f"{item.kind.value} {item.payer} pays {item.player} {item.points}"
    return f"{text} for {_combos(item.combos)}" if item.combos else text


def _closing_chop(state: GameState, result: GameResult) -> ChopChain | None:
    """The chop chain the end of the game closed, read off the result's items.

    The scorer adds it right after the items settled during play (RULES §6.6.2).
    """
    settled = len(state.items)
    if len(result.items) <= settled or result.items[settled].kind is not ScoreKind.CHOP:
        return None
    item = result.items[settled]
    if item.payer is None:  # pragma: no cover - a chop is paid by its victim
        return None
    return ChopChain(
        points=item.points, victim=item.payer, catcher=item.player, caught=item.combos
    )


def _default_dealer(rules: RuleSet, players: int) -> int:
    """The dealer `GameState.from_hands` assumes: the seat before 0 in play direction."""
    return Seating.of(rules.direction.value, players).order_from(0)[-1]


def _write_setup(setup: GameSetup, rules: RuleSet, players: int) -> str:
    words = []
    if not setup.first_game:
        words.append("later")
    if setup.leader is not None:
        words.append(f"leader {setup.leader}")
    if setup.dealer != _default_dealer(rules, players):
        words.append(f"dealer {setup.dealer}")
    if setup.after_instant_win:
        words.append("after-instant-win")
    return " ".join(words)


# -- reading ----------------------------------------------------------------------

_KEYWORDS: Final = (
    "rules",
    "hands",
    "played",
    "to",
    "top",
    "passed",
    "first",
    "out",
    "bottom",
    "frozen",
    "chop",
    "items",
    "won",
    "over",
    "setup",
)
"""Every field after the header, in the order `write` writes them."""
_REQUIRED: Final = ("rules", "hands", "to")
_HEADER: Final = re.compile(r"tienlen\s+([0-9]{1,6})", re.ASCII)
_FIELD: Final = re.compile(r"([a-z]+)(?:\s+|$)", re.ASCII)
_SETTING: Final = re.compile(r"\s*([a-z_0-9]+)=", re.ASCII)
_NUMBER: Final = re.compile(r"-?[0-9]{1,9}", re.ASCII)
_TOP: Final = re.compile(
    r"(.+?)\s+by\s+(\S+)(?:\s+beat\s+(\S+))?", re.ASCII | re.DOTALL
)
_PAYS: Final = re.compile(
    r"(\S+)\s+pays\s+(\S+)\s+(\S+)(?:\s+for\s+(.+))?", re.ASCII | re.DOTALL
)
_SCORES: Final = re.compile(r"(\S+)\s+scores\s+(\S+)", re.ASCII)
_KINDS: Final = {kind.value: kind for kind in ScoreKind}


@attrs.frozen
class _Field:
    """One field of a line: its keyword, its value and where the value starts."""

    keyword: str
    value: str
    at: int

    def error(self, problem: str, offset: int = 0) -> NotationError:
        return NotationError(self.keyword, self.at + offset, problem)


def read(text: str) -> GameState:
    """The state *text* writes (`GameState.from_notation` calls this).

    Fields may come in any order after the header and the rules, each at most once;
    whitespace around words is free. The state's `GameState.setup` is a
    `PositionSetup` holding the position's notation; its history starts empty.

    Raises:
        NotationError: the text is malformed (an unknown or repeated field, a bad card
            or seat, an unknown preset or setting) or describes no state the engine
            can reach (a card in two hands, a seat out of range, a player to act who
            is out, a result the scorer would not give; score items, a chop chain,
            frozen or rotted seats, passes, a player to act or first-lead flags the
            rule set would not produce, docs/notation.md "What a position may
            hold"), or is longer than `MAX_LENGTH`.
        TypeError: *text* is not a ``str``.

    Example:
        >>> state = read("tienlen 1; rules classic; hands 7h / 9c; played 3s / 4d; to 0; top 4d by 1")
        >>> str(state.top), state.to_act, [str(hand) for hand in state.dealt]
        ('4d', 0, ['3s 7h', '4d 9c'])
    """
    if not isinstance(text, str):
        msg = f"expected notation text, got {type(text).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if len(text) > MAX_LENGTH:
        problem = f"{len(text):,} characters, more than the {MAX_LENGTH:,} allowed"
        raise NotationError("notation", 0, problem)
    fields = _fields(text)
    state = _Reader(fields, len(text)).state()
    position = write(state)
    return _with_setup(
        state,
        PositionSetup(**attrs.asdict(state.setup, recurse=False), position=position),
    )


def _with_setup(state: GameState, setup: GameSetup) -> GameState:
    return with_fields(state, {"setup": setup})


def _split(text: str) -> list[tuple[int, str]]:
    """The text between ``;`` separators (outside JSON strings), each with its offset.

    Outside JSON strings any Unicode space (a no-break space, an ideographic space)
    is read as an ASCII space, one for one, so offsets stay right.
    """
    parts: list[tuple[int, str]] = []
    start = 0
    quoted = escaped = False
    chars = list(text)
    for at, char in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char == ";":
            parts.append((start, "".join(chars[start:at])))
            start = at + 1
        elif char.isspace() and not char.isascii():
            chars[at] = " "
    parts.append((start, "".join(chars[start:])))
    return parts


def _fields(text: str) -> dict[str, _Field]:
    """The header checked, then every field by keyword."""
    parts = _split(text)
    at, header = parts[0]
    lead = len(header) - len(header.lstrip())
    match = _HEADER.fullmatch(header.strip())
    if match is None:
        problem = (
            f"expected the header 'tienlen {VERSION}', got {_shown(header.strip())}"
        )
        raise NotationError("header", at + lead, problem)
    if int(match[1]) != VERSION:
        problem = f"version {match[1]}: this library reads version {VERSION}"
        raise NotationError("header", at + lead, problem)
    fields: dict[str, _Field] = {}
    for at, part in parts[1:]:
        lead = len(part) - len(part.lstrip())
        body = part.strip()
        match = _FIELD.match(body)
        if match is None or match[1] not in _KEYWORDS:
            word = body.split(maxsplit=1)[0] if body else ""
            problem = f"unknown field {_shown(word)} (fields: {', '.join(_KEYWORDS)})"
            raise NotationError("notation", at + lead, problem)
        keyword = match[1]
        if keyword in fields:
            raise NotationError(keyword, at + lead, "the field is given twice")
        fields[keyword] = _Field(keyword, body[match.end() :], at + lead + match.end())
    for keyword in _REQUIRED:
        if keyword not in fields:
            raise NotationError(keyword, len(text), f"the {keyword!r} field is missing")
    return fields


def _shown(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:29] + "…")


class _Reader:
    """Reads the fields of one line into the fields of a `GameState`, checking each."""

    def __init__(self, fields: dict[str, _Field], length: int) -> None:
        self.fields = fields
        self.length = length
        """The length of the text, where a missing field is placed."""
        self.rules = _read_rules(fields["rules"])
        self.players = 0
        """The number of seats, once `deal` has read the hands."""

    def field(self, keyword: str) -> _Field | None:
        return self.fields.get(keyword)

    def state(self) -> GameState:
        """The state: the cards, who is out, the trick, the score, then the end."""
        rules = self.rules
        held, played, dealt = self.deal()
        players = self.players
        finish_order = self.seats("out", distinct=True)
        frozen = self.seats("frozen", distinct=True)
        bottom_field = self.field("bottom")
        bottom = self.seats("bottom", distinct=True) if bottom_field else frozen[::-1]
        out = self.check_out(held, finish_order, frozen, bottom)
        to_act = self.to_act(out)
        top_mask, last_player, beaten = self.top(played)
        required, may_decline = self.first(held, to_act, top_mask)
        passed = self.seats("passed", distinct=True)
        locked = sum(1 << seat for seat in passed)
        chop = self.chop()
        items = self.items()
        setup = self.setup()
        fields = {
            "rules": rules,
            "_masks": tuple(held),
            "dealt": tuple(map(hand_of, dealt)),
            "to_act": to_act,
            "_top": structural_key(top_mask) if top_mask else 0,
            "_top_mask": top_mask,
            "last_player": last_player,
            "_beaten": beaten,
            "locked": locked,
            "out": out,
            "finish_order": finish_order,
            "frozen": frozen,
            "_bottom": bottom,
            "required": required,
            "may_decline": may_decline,
            "chop": chop,
            "items": items,
            "result": None,
            "is_over": False,
            "_log": None,
            "setup": setup,
            "_context": context_of(rules, players),
            "_top_combo": None,
        }
        self.check_end(out, len(finish_order))
        state = from_fields(fields)
        result = self.result(state, bottom, chop)
        if result is not None:
            ended = {"result": result, "is_over": True, "chop": None}
            state = with_fields(state, ended)
        elif to_act is None:
            raise self.fields["to"].error(
                "nobody is to act, but neither 'over' nor 'won' ends the game"
            )
        try:  # what the rules could have produced (issue 20)
            _positions.check(state, chop, won=self.field("won") is not None)
        except _positions.Refused as refused:
            field = self.field(refused.field)
            if field is None:
                raise NotationError(
                    refused.field, self.length, refused.problem
                ) from None
            raise field.error(refused.problem) from None
        return state

    # -- cards --------------------------------------------------------------------

    def deal(self) -> tuple[list[int], list[int], list[int]]:
        """Each seat's cards held, played and dealt, checked against the decks."""
        hands = self.fields["hands"]
        held = self.cards_by_seat(hands)
        self.players = players = len(held)
        try:
            decks, _ = self.rules.deal_size(players)
        except TienLenError as error:
            raise hands.error(str(error)) from None
        field = self.field("played")
        played = [0] * players if field is None else self.cards_by_seat(field)
        if field is not None and len(played) != players:
            raise field.error(f"{len(played)} seats, but hands has {players}")
        return held, played, self.dealt(held, played, decks)

    def cards_by_seat(self, field: _Field) -> list[int]:
        """The masks of a ``/``-separated list of hands (``-`` for none)."""
        masks = []
        offset = 0
        parts = field.value.split("/")
        if len(parts) > 2 * self.rules.max_players:
            raise field.error(f"{len(parts)} seats, more than {self.rules.name} seats")
        for seat, part in enumerate(parts):
            masks.append(self.cards(field, part, offset, f"seat {seat}: "))
            offset += len(part) + 1
        return masks

    def cards(self, field: _Field, text: str, offset: int, label: str = "") -> int:
        stripped = text.strip()
        offset += len(text) - len(text.lstrip())
        if stripped == "-":
            return 0
        if not stripped:
            raise field.error(f"{label}expected cards or '-'", offset)
        try:
            return Hand.parse(stripped).mask
        except TienLenError as error:
            raise field.error(f"{label}{error}", offset) from None

    def combo(self, field: _Field, text: str, offset: int) -> int:
        mask = self.cards(field, text, offset)
        if not mask:
            raise field.error("expected a combination, got no cards", offset)
        try:
            combo = self.rules.classify(hand_of(mask))
        except TienLenError as error:
            raise field.error(str(error), offset) from None
        if combo is None:
            raise field.error(
                f"{hand_of(mask)} is no combination under {self.rules.name}", offset
            )
        return mask

    def dealt(self, held: list[int], played: list[int], decks: int) -> list[int]:
        """Every seat's dealt cards, checked against the decks in play (RULES §2.1)."""
        field = self.field("played") or self.fields["hands"]
        dealt = []
        total = 0
        for seat, (hand, gone) in enumerate(zip(held, played, strict=True)):
            if _bits.overflowing_sum(hand, gone):
                card = DECK[_bits.top_card(_bits.overflowing_sum(hand, gone))]
                raise field.error(
                    f"seat {seat} holds and played {str(card)!r} more often than two decks hold"
                )
            mask = _bits.multiset_sum(hand, gone)
            if not mask:
                raise field.error(f"seat {seat} was dealt no cards")
            clash = _bits.overflowing_sum(total, mask) | (
                total & mask if decks == 1 else 0
            )
            if clash or (decks == 1 and mask >> _bits.CARDS):
                card = DECK[_bits.top_card(clash or mask >> _bits.CARDS)]
                problem = f"card {str(card)!r} is dealt more often than {decks} deck(s) allow (seat {seat})"
                raise field.error(problem)
            total = _bits.multiset_sum(total, mask)
            dealt.append(mask)
        return dealt

    # -- seats --------------------------------------------------------------------

    def seat(self, field: _Field, word: str, offset: int = 0) -> int:
        if not re.fullmatch(r"[0-9]{1,2}", word, re.ASCII):
            raise field.error(f"expected a seat, got {_shown(word)}", offset)
        seat = int(word)
        if seat >= self.players:
            raise field.error(
                f"no seat {seat} at a {self.players}-player table", offset
            )
        return seat

    def seats(self, keyword: str, *, distinct: bool) -> tuple[int, ...]:
        field = self.field(keyword)
        if field is None:
            return ()
        words = field.value.split()
        if not words:
            raise field.error("expected seats")
        seats = tuple(self.seat(field, word) for word in words)
        if distinct and len(set(seats)) != len(seats):
            raise field.error(f"a seat is listed twice in {_seats(seats)}")
        return seats

    def check_out(
        self,
        held: list[int],
        finish_order: tuple[int, ...],
        frozen: tuple[int, ...],
        bottom: tuple[int, ...],
    ) -> int:
        """The mask of players out: those who finished, were frozen or rotted."""
        for seat, hand in enumerate(held):
            if not hand and seat not in finish_order:
                problem = f"seat {seat} holds no cards but is not listed as out"
                raise (self.field("out") or self.fields["hands"]).error(problem)
        for seat in finish_order:
            if held[seat]:
                raise self.fields["out"].error(
                    f"seat {seat} is out but still holds cards"
                )
        if not set(frozen) <= set(bottom):
            raise self.fields["bottom"].error("every frozen seat takes a bottom place")
        both = set(finish_order) & set(bottom)
        if both:
            problem = f"seat {min(both)} both finished and took a bottom place"
            raise (self.field("bottom") or self.fields["frozen"]).error(problem)
        return sum(1 << seat for seat in (*finish_order, *bottom))

    def check_end(self, out: int, finished: int) -> None:
        """A game is over exactly when its rules end it (RULES §2.5, §4.4)."""
        ends = self.rules.turn_policy.is_over(self.players, out, finished)
        over, won = self.field("over"), self.field("won")
        if over is not None and won is not None:
            raise won.error("a game ends once: by 'over' or by 'won', not both")
        if over is not None and not ends:
            raise over.error("the players out do not end the game under these rules")
        if over is None and ends:
            field = self.field("out") or self.field("bottom") or self.fields["frozen"]
            raise field.error("the players out end the game: add its 'over' order")

    def to_act(self, out: int) -> int | None:
        field = self.fields["to"]
        word = field.value.strip()
        if word == "-":
            return None
        seat = self.seat(field, word)
        if out >> seat & 1:
            raise field.error(f"seat {seat} is out of the game and cannot act")
        return seat

    def top(self, played: list[int]) -> tuple[int, int | None, int | None]:
        """The combination to beat, who played it, and whom it beat (RULES §12.10)."""
        field = self.field("top")
        if field is None:
            return 0, None, None
        match = _TOP.fullmatch(field.value.strip())
        if match is None:
            raise field.error("expected '<cards> by <seat>' (and 'beat <seat>')")
        mask = self.combo(field, match[1], match.start(1))
        last = self.seat(field, match[2], match.start(2))
        beaten = (
            None if match[3] is None else self.seat(field, match[3], match.start(3))
        )
        if not _bits.is_submultiset(mask, played[last]):
            raise field.error(f"seat {last} has not played {hand_of(mask)}")
        if beaten is not None and self.rules.turn_policy.beaten(0) is None:
            problem = (
                "'beat' is kept only where it decides the next leader (RULES §12.10)"
            )
            raise field.error(problem, match.start(3))
        return mask, last, beaten

    def first(self, held: list[int], to_act: int | None, top: int) -> tuple[int, bool]:
        """The card the lead must include, and whether it may be declined (RULES §2.4, §3.3)."""
        field = self.field("first")
        if field is None:
            return 0, False
        words = field.value.split()
        if not 1 <= len(words) <= 2 or words[1:] not in ([], ["declinable"]):
            raise field.error("expected '<card>' or '<card> declinable'")
        mask = self.cards(field, words[0], 0)
        if mask.bit_count() != 1 or mask >> _bits.CARDS:
            raise field.error(f"expected one card, got {_shown(words[0])}")
        if top or to_act is None or not held[to_act] & mask:
            raise field.error(
                f"the first lead is made by the player to act, holding {hand_of(mask)}"
            )
        return mask, len(words) == 2

    # -- score --------------------------------------------------------------------

    def number(self, field: _Field, word: str, offset: int) -> int:
        if not _NUMBER.fullmatch(word):
            raise field.error(
                f"expected a number of points, got {_shown(word)}", offset
            )
        return int(word)

    def caught(self, field: _Field, text: str, offset: int) -> tuple[Combo, ...]:
        combos = []
        for part in text.split("/"):
            mask = self.combo(field, part, offset)
            combos.append(make_combo(mask, structural_key(mask)))
            offset += len(part) + 1
        return tuple(combos)

    def chop(self) -> ChopChain | None:
        """The open chop chain (RULES §6.6.2): victim, catcher, points, caught combinations."""
        field = self.field("chop")
        if field is None:
            return None
        match = _PAYS.fullmatch(field.value.strip())
        if match is None or match[4] is None:
            raise field.error(
                "expected '<victim> pays <catcher> <points> for <combination> / …'"
            )
        return ChopChain(
            victim=self.seat(field, match[1], match.start(1)),
            catcher=self.seat(field, match[2], match.start(2)),
            points=self.number(field, match[3], match.start(3)),
            caught=self.caught(field, match[4], match.start(4)),
        )

    def items(self) -> tuple[ScoreItem, ...]:
        """The score items settled during play, ``,``-separated."""
        field = self.field("items")
        if field is None:
            return ()
        items = []
        offset = 0
        for part in field.value.split(","):
            items.append(self.item(field, part, offset))
            offset += len(part) + 1
        return tuple(items)

    def item(self, field: _Field, text: str, offset: int) -> ScoreItem:
        offset += len(text) - len(text.lstrip())
        kind_word, _, rest = text.strip().partition(" ")
        kind = _KINDS.get(kind_word)
        if kind is None:
            raise field.error(
                f"unknown score kind {_shown(kind_word)} (kinds: {', '.join(_KINDS)})",
                offset,
            )
        offset += len(kind_word) + 1 + len(rest) - len(rest.lstrip())
        rest = rest.strip()
        scores = _SCORES.fullmatch(rest)
        if scores is not None:
            return ScoreItem(
                kind=kind,
                player=self.seat(field, scores[1], offset + scores.start(1)),
                points=self.number(field, scores[2], offset + scores.start(2)),
            )
        pays = _PAYS.fullmatch(rest)
        if pays is None:
            raise field.error(
                "expected '<kind> <payer> pays <player> <points>' or '<kind> <player> scores <points>'",
                offset,
            )
        combos = (
            ()
            if pays[4] is None
            else self.caught(field, pays[4], offset + pays.start(4))
        )
        return ScoreItem(
            kind=kind,
            payer=self.seat(field, pays[1], offset + pays.start(1)),
            player=self.seat(field, pays[2], offset + pays.start(2)),
            points=self.number(field, pays[3], offset + pays.start(3)),
            combos=combos,
        )

    def result(
        self, fields: GameState, bottom: Sequence[int], chop: ChopChain | None
    ) -> GameResult | None:
        """The result of a game over, as the rule set's scorer gives it (RULES §2.5, §6.6).

        *fields* holds the position read so far, *bottom* its bottom seats.
        """
        ended = self.field("over") or self.field("won")
        if ended is None:
            return None
        if fields.to_act is not None:
            raise ended.error("the game is over, so 'to' must be '-'")
        if ended.keyword == "won":
            return self.instant_win(ended, fields)
        order = self.seats("over", distinct=True)
        if sorted(order) != list(range(self.players)):
            raise ended.error(
                f"expected every seat 0-{self.players - 1} once, got {_seats(order)}"
            )
        if order[: len(fields.finish_order)] != fields.finish_order or (
            bottom and order[-len(bottom) :] != bottom[::-1]
        ):
            raise ended.error(
                "the order starts with the seats out and ends with the bottom seats"
            )
        try:
            finish = Finish(
                order=order,
                hands=fields.hands,
                frozen=fields.frozen,
                items=fields.items,
                chop=chop,
            )
        except InvalidArgumentError as error:  # a frozen first place (RULES §6.6.3)
            raise (self.field("frozen") or ended).error(str(error)) from None
        return self.rules.scorer.settle(self.rules, finish)

    def instant_win(self, field: _Field, fields: GameState) -> GameResult:
        """A game won at the deal (RULES §5.4, §6.7): the winner's dealt hand decides."""
        words = field.value.split()
        if len(words) != 2:
            raise field.error("expected '<seat> <instant win>'")
        winner = self.seat(field, words[0])
        hand = fields.dealt[winner]
        win = self.rules.deal_policy.instant_win(
            self.rules, hand, first_game=fields.setup.first_game
        )
        if win is None or win.value != words[1]:
            problem = f"seat {winner}'s hand {hand} is no instant win {_shown(words[1])} under {self.rules.name}"
            raise field.error(problem, field.value.find(words[1]))
        if fields.dealt != fields.hands or fields.top_mask:
            raise field.error(
                "an instant win ends the game at the deal, before any play"
            )
        order = Seating.of(self.rules.direction.value, self.players).order_from(winner)
        return self.rules.scorer.instant_win(self.rules, order, win)

    # -- setup --------------------------------------------------------------------

    def setup(self) -> GameSetup:
        """How the game started (not part of the position, kept for records and matches)."""
        field = self.field("setup")
        first_game, leader, after, dealer = (
            True,
            None,
            False,
            _default_dealer(self.rules, self.players),
        )
        if field is None:
            return GameSetup(
                first_game=first_game,
                leader=leader,
                after_instant_win=after,
                dealer=dealer,
            )
        words = field.value.split()
        if not words:
            raise field.error(
                "expected 'later', 'leader <seat>', 'dealer <seat>' or 'after-instant-win'"
            )
        i = 0
        seen: set[str] = set()
        while i < len(words):
            word = words[i]
            if word in seen:
                raise field.error(f"{word!r} is given twice")
            seen.add(word)
            if word == "later":
                first_game = False
            elif word == "after-instant-win":
                after = True
            elif word in ("leader", "dealer") and i + 1 < len(words):
                seat = self.seat(field, words[i + 1])
                i += 1
                if word == "leader":
                    leader = seat
                else:
                    dealer = seat
            else:
                raise field.error(
                    f"unexpected {_shown(word)} (expected 'later', 'leader <seat>', 'dealer <seat>' or 'after-instant-win')"
                )
            i += 1
        return GameSetup(
            first_game=first_game, leader=leader, after_instant_win=after, dealer=dealer
        )


def _read_rules(field: _Field) -> BaseRules:
    """A preset by name, with the settings that differ from it (as records write them)."""
    text = field.value
    name_match = re.match(r"\s*(\S+)", text)
    if name_match is None:
        raise field.error("expected a preset's name")
    try:
        base = get_rules(name_match[1])
    except TienLenError:
        problem = (
            f"unknown rule set {_shown(name_match[1])} (presets: {', '.join(RULESETS)})"
        )
        raise field.error(problem, name_match.start(1)) from None
    settings = setting_names()
    changes: dict[str, object] = {}
    decoder = json.JSONDecoder()
    at = name_match.end()
    while text[at:].strip():
        match = _SETTING.match(text, at)
        if match is None:
            skipped = at + len(text[at:]) - len(text[at:].lstrip())
            raise field.error("expected <setting>=<value>", skipped)
        key = match[1]
        if key != "name" and key not in settings:
            raise field.error(f"unknown setting {_shown(key)}", match.start(1))
        if key in changes:
            raise field.error(f"setting {key!r} is given twice", match.start(1))
        try:
            value, at = decoder.raw_decode(text, match.end())
        except (ValueError, RecursionError):
            raise field.error(f"{key}: expected a JSON value", match.end()) from None
        if at < len(text) and not text[at].isspace():
            raise field.error(f"{key}: expected a space after the value", at)
        if key == "name":
            if type(value) is not str or not value:
                raise field.error("name: expected a non-empty string", match.end())
            changes[key] = value
            continue
        try:
            changes[key] = read_setting(key, value, key)
        except RecordError as error:
            raise field.error(f"{key}: {error.problem}", match.end()) from None
    if not changes:
        return base
    try:
        return _evolved(base, tuple(sorted(changes.items())))
    except (TienLenError, TypeError, ValueError) as error:
        raise field.error(str(error)) from None


@functools.lru_cache(maxsize=64)
def _evolved(base: BaseRules, changes: tuple[tuple[str, object], ...]) -> BaseRules:
    """*base* with *changes*; rule sets are immutable, so one serves every read."""
    evolve: Callable[..., BaseRules] = attrs.evolve  # settings named at run time
    return evolve(base, aliases=(), **dict(changes))
