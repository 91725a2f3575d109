"""Puzzles: positions with exactly one best play, mined from self-play and solved exactly.

A `Puzzle` is a position in the library's notation (`tienlen.notation`) where the
player to act has a **unique best play** under exact solving (`tienlen.analysis.solve`):
every other legal action gives that player a strictly lower final score. Two players
left under stakes is a duel, so there the answer is the only winning play. A puzzle
carries its answer, the winning line the solver found, a few themes and a
**fingerprint** (a hash of the position and the answer) that names it in any set.

`make_puzzle` checks one position; `generate_puzzles` mines positions from seeded
self-play and keeps those with a unique best play that the Greedy bot misses;
`load_puzzles` reads the set shipped for each preset, verified.

Example:
    >>> from tienlen import CLASSIC, GameState
    >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
    >>> puzzle = make_puzzle(state)
    >>> str(puzzle.answer), [str(action) for action in puzzle.line]
    ('2h', ['2h', 'pass', '4s'])
    >>> puzzle.themes, puzzle.moves
    (('two',), 3)

.. versionadded:: 0.3
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Final, TypeVar

import attrs

from tienlen._checks import check_count, check_type
from tienlen.analysis.solver import SolverLimitError, solve
from tienlen.cards import Rank
from tienlen.errors import InvalidArgumentError, TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.players import GreedyPlayer, RandomPlayer, play_game
from tienlen.rules import RULESETS, BaseRules, GameEnd, RuleSet, as_rules
from tienlen.seat import Observation

__all__ = [
    "DEFAULT_MAX_CARDS",
    "DEFAULT_MIN_CARDS",
    "DEFAULT_PUZZLE_NODES",
    "FORMAT",
    "GENERATOR_VERSION",
    "VERSION",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleSet",
    "default_players",
    "fingerprint",
    "generate_puzzles",
    "load_puzzles",
    "make_puzzle",
    "shipped",
]

FORMAT: Final = "tienlen-puzzles"
"""The ``"format"`` of a puzzle set's JSON."""
VERSION: Final = 1
"""The schema version of a puzzle set's JSON that this library writes and reads."""
GENERATOR_VERSION: Final = 1
"""The version of `generate_puzzles`: the same seed and version give the same puzzles."""
DEFAULT_PUZZLE_NODES: Final = 5_000
"""The most positions `generate_puzzles` searches to check one position (under a second)."""
DEFAULT_MIN_CARDS: Final = 5
"""The fewest cards in hand, all seats together, of a position `generate_puzzles`
tries (fewer are too easy: two cards against one)."""
DEFAULT_MAX_CARDS: Final = 12
"""The most cards in hand, all seats together, of a position `generate_puzzles` tries."""

_GREEDY: Final = GreedyPlayer()
_RANDOM: Final = RandomPlayer()
_GREEDY_SHARE: Final = 0.7
"""The chance that a self-play seat is Greedy rather than Random (both play sensibly
often enough to reach endings, and badly often enough to leave puzzles)."""
_THEMES: Final = ("pass", "bomb", "two", "out")
_T = TypeVar("_T")
"""The themes a puzzle may have, in the order they are listed."""


class PuzzleFormatError(TienLenError, ValueError):
    """JSON that is not a puzzle set `PuzzleSet.from_json` reads, or a damaged one.

    Example:
        >>> PuzzleSet.from_json({"format": "tienlen-game"})
        Traceback (most recent call last):
        ...
        tienlen.analysis.puzzles.PuzzleFormatError: not a tienlen puzzle set: no "format": "tienlen-puzzles"
    """


def fingerprint(position: str, answer: Action) -> str:
    """A puzzle's fingerprint: 16 hex digits of SHA-256 over its position and answer.

    Example:
        >>> from tienlen import Pass
        >>> fingerprint("tienlen 1; rules classic; hands 3s / 4s; to 0", Pass(player=0))
        'a8fe0ee237ca76b0'
    """
    check_type("position", position, str)
    if not isinstance(answer, (Play, Pass)):
        msg = f"answer must be a Play or a Pass, not {type(answer).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    text = f"{position}\n{answer.player} {answer}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@attrs.frozen
class Puzzle:
    """A position with a unique best play, its answer and the winning line.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
        >>> puzzle = make_puzzle(state)
        >>> puzzle.position
        'tienlen 1; rules classic; hands 4s 2h / 6d; played 3s / 5d; to 0; top 5d by 1'
        >>> str(puzzle.answer), puzzle.seat, puzzle.fingerprint
        ('2h', 0, '1752dcf1af405624')
        >>> puzzle.is_answer(puzzle.state.parse_action("pass"))
        False

    .. versionadded:: 0.3
    """

    position: str = attrs.field(validator=attrs.validators.instance_of(str))
    """The position, in the library's notation (`GameState.notation`)."""
    answer: Action = attrs.field(validator=attrs.validators.instance_of((Play, Pass)))
    """The unique best play of the player to act."""
    line: tuple[Action, ...] = attrs.field(
        validator=attrs.validators.deep_iterable(
            attrs.validators.instance_of((Play, Pass)),
            attrs.validators.instance_of(tuple),
        )
    )
    """The winning line from the position, the answer first, to the end of the game."""
    themes: tuple[str, ...] = attrs.field(
        validator=attrs.validators.deep_iterable(
            attrs.validators.instance_of(str), attrs.validators.instance_of(tuple)
        )
    )
    """What the answer is about, among ``"pass"`` (passing wins), ``"bomb"`` (it
    plays a bomb), ``"two"`` (it plays a 2) and ``"out"`` (it plays the last cards)."""
    fingerprint: str = attrs.field(validator=attrs.validators.instance_of(str))
    """`tienlen.analysis.puzzles.fingerprint` of the position and the answer: cite a
    puzzle by it."""

    @property
    def state(self) -> GameState:
        """The position as a `GameState`.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
            >>> make_puzzle(state).state == state
            True
        """
        return GameState.from_notation(self.position)

    @property
    def seat(self) -> int:
        """The player to act, who must find the answer.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
            >>> make_puzzle(state).seat
            0
        """
        return self.answer.player

    @property
    def moves(self) -> int:
        """How many actions the winning line takes to the end of the game.

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
            >>> make_puzzle(state).moves  # 2h, pass, 4s
            3
        """
        return len(self.line)

    def is_answer(self, action: Action) -> bool:
        """Whether *action* is the answer (a play's cards in any order).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
            >>> puzzle = make_puzzle(state)
            >>> puzzle.is_answer(state.parse_action("2h")), puzzle.is_answer(state.parse_action("pass"))
            (True, False)
        """
        return action == self.answer

    def to_json(self) -> dict[str, object]:
        """The puzzle as JSON (see `PuzzleSet.to_json`).

        Example:
            >>> from tienlen import CLASSIC, GameState
            >>> state = GameState.from_hands(["3s 4s 2h", "5d 6d"], CLASSIC).play("3s").play("5d")
            >>> make_puzzle(state).to_json()["answer"]
            {'player': 0, 'cards': '2h'}
        """
        return {
            "fingerprint": self.fingerprint,
            "position": self.position,
            "answer": _action_json(self.answer),
            "line": [_action_json(action) for action in self.line],
            "themes": list(self.themes),
        }


@attrs.frozen
class PuzzleSet:
    """Puzzles of one rule set, with the parameters of the generator that made them.

    Example:
        >>> puzzles = generate_puzzles("classic", 2, seed=1)
        >>> len(puzzles.puzzles), puzzles.seed, puzzles.players
        (2, 1, 4)
        >>> PuzzleSet.from_json(puzzles.to_json()) == puzzles
        True

    .. versionadded:: 0.3
    """

    rules: str = attrs.field(validator=attrs.validators.instance_of(str))
    """The rule set's name (a preset's, for the shipped sets)."""
    seed: int = attrs.field(validator=attrs.validators.instance_of(int))
    """The generator's seed."""
    players: int = attrs.field(validator=attrs.validators.instance_of(int))
    """The table size of the self-play games."""
    max_nodes: int = attrs.field(validator=attrs.validators.instance_of(int))
    """The search budget per position (positions needing more were skipped)."""
    min_cards: int = attrs.field(validator=attrs.validators.instance_of(int))
    """The fewest cards in hand (all seats) of a position tried."""
    max_cards: int = attrs.field(validator=attrs.validators.instance_of(int))
    """The most cards in hand (all seats) of a position tried."""
    games: int = attrs.field(validator=attrs.validators.instance_of(int))
    """How many self-play games the generator played to find the puzzles."""
    puzzles: tuple[Puzzle, ...] = attrs.field(
        validator=attrs.validators.deep_iterable(
            attrs.validators.instance_of(Puzzle), attrs.validators.instance_of(tuple)
        )
    )
    """The puzzles, in the order found."""
    generator: int = attrs.field(
        default=GENERATOR_VERSION, validator=attrs.validators.instance_of(int)
    )
    """The version of the generator."""

    def to_json(self) -> dict[str, object]:
        """The set as JSON, schema `tienlen.analysis.puzzles.VERSION` (docs/analysis.md).

        Example:
            >>> data = generate_puzzles("classic", 1).to_json()
            >>> data["format"], data["version"], data["generator"]["seed"], len(data["puzzles"])
            ('tienlen-puzzles', 1, 0, 1)
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "generator": {
                "version": self.generator,
                "seed": self.seed,
                "players": self.players,
                "max_nodes": self.max_nodes,
                "min_cards": self.min_cards,
                "max_cards": self.max_cards,
                "games": self.games,
            },
            "puzzles": [puzzle.to_json() for puzzle in self.puzzles],
        }

    @classmethod
    def from_json(cls, data: object) -> PuzzleSet:
        """Read back what `to_json` wrote, checking every puzzle.

        Every puzzle's fingerprint must match its position and answer, its position
        must be read by `GameState.from_notation` under the set's rules, its answer
        and line must be legal there and its themes those of the answer. The answers
        are not solved again (`make_puzzle` does that).

        Raises:
            PuzzleFormatError: *data* is not a puzzle set of a version read here, or
                a puzzle in it is damaged.

        Example:
            >>> data = generate_puzzles("classic", 1).to_json()
            >>> PuzzleSet.from_json(data).puzzles[0].fingerprint == data["puzzles"][0]["fingerprint"]
            True
            >>> data["puzzles"][0]["fingerprint"] = "0000000000000000"
            >>> PuzzleSet.from_json(data)
            Traceback (most recent call last):
            ...
            tienlen.analysis.puzzles.PuzzleFormatError: puzzle 1 is damaged: its fingerprint '0000000000000000' is not that of its position and answer
        """
        try:
            return _read_set(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            if isinstance(error, PuzzleFormatError):
                raise
            msg = f"not a tienlen puzzle set: {error}"[:300]
            raise PuzzleFormatError(msg) from None


def make_puzzle(
    state: GameState, *, max_nodes: int = DEFAULT_PUZZLE_NODES
) -> Puzzle | None:
    """*state* as a puzzle, if the player to act has a unique best play; else ``None``.

    Each legal action is solved exactly (`tienlen.analysis.solve`); the best must
    give the player to act a strictly higher final score than every other. A
    position where another seat may jump in (Poker) is not a puzzle.

    Args:
        state: A game going on.
        max_nodes: Positions to search at most, over all the actions together.

    Raises:
        TypeError: *state* is not a `GameState`, or *max_nodes* not an ``int``.
        InvalidArgumentError: the game is over, or *max_nodes* is below 1.
        SolverLimitError: the search needs more than *max_nodes* positions.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> make_puzzle(GameState.from_hands(["3s 9h", "5d 6d"], CLASSIC)) is None  # both win
        True
    """
    return _unique_best(state, max_nodes, avoid=None)


def _unique_best(
    state: GameState, max_nodes: int, avoid: Action | None
) -> Puzzle | None:
    """The puzzle of *state*, or ``None``; ``None`` too if *avoid* is its answer."""
    check_type("state", state, GameState)
    check_count("max_nodes", max_nodes, 1)
    if state.is_over:
        msg = "the game is over: there is no puzzle in it"
        raise InvalidArgumentError(msg)
    mover = state.to_act
    assert mover is not None  # the game goes on
    actions = list(state.legal_actions())
    if len(actions) < 2 or any(action.player != mover for action in actions):
        return None
    budget = _Budget(max_nodes)
    best = budget.solve(state)
    answer = best.line[0]
    if answer == avoid:
        return None
    target = best.scores[mover]
    others = sorted((a for a in actions if a != answer), key=lambda a: a != avoid)
    for action in others:  # the avoided action first: it is the likeliest rival
        if budget.value(state.apply(action), mover) >= target:
            return None
    position = state.notation()
    themes = _themes(state, answer)
    return Puzzle(position, answer, best.line, themes, fingerprint(position, answer))


class _Budget:
    """Exact solves sharing one node budget."""

    def __init__(self, max_nodes: int) -> None:
        self.left = max_nodes

    def solve(self, state: GameState) -> _Line:
        solution = solve(state, max_nodes=self.left)
        self.left -= solution.nodes
        return _Line(solution.scores, solution.line)

    def value(self, state: GameState, seat: int) -> int:
        """*seat*'s final score of *state* under best play."""
        result = state.result
        if result is not None:
            return result.scores[seat]
        if self.left < 1:
            msg = "the puzzle's search ran out of nodes"
            raise SolverLimitError(msg)
        return self.solve(state).scores[seat]


@attrs.frozen
class _Line:
    scores: tuple[int, ...]
    line: tuple[Action, ...]


def _themes(state: GameState, answer: Action) -> tuple[str, ...]:
    """The themes of *answer* at *state* (see `Puzzle.themes`)."""
    if isinstance(answer, Pass):
        return ("pass",)
    rules = state.rules
    combo = rules.classify(answer.cards)
    found = {
        "bomb": combo is not None and rules.is_bomb(combo.shape),
        "two": any(card.rank is Rank.TWO for card in answer.cards),
        "out": len(answer.cards) == len(state.hands[answer.player]),
    }
    return tuple(theme for theme in _THEMES if found.get(theme))


def default_players(rules: RuleSet | str) -> int:
    """The table size `generate_puzzles` plays at by default for *rules*.

    Four (one deck dealt out: once two are left, each knows the other's hand, so
    the puzzle is the truth of real play), or two where the game ends when the first
    player goes out (Kenneth Lo), which never leaves two of four. A rule set that is
    not a `BaseRules` gets four.

    Example:
        >>> default_players("classic"), default_players("kenneth-lo")
        (4, 2)
    """
    rules = as_rules(rules)
    if not isinstance(rules, BaseRules):
        return 4
    return 2 if rules.game_end is GameEnd.FIRST_OUT else min(4, rules.max_players)


def generate_puzzles(
    rules: RuleSet | str,
    count: int,
    seed: int = 0,
    *,
    players: int | None = None,
    max_nodes: int = DEFAULT_PUZZLE_NODES,
    min_cards: int = DEFAULT_MIN_CARDS,
    max_cards: int = DEFAULT_MAX_CARDS,
    max_games: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> PuzzleSet:
    """Mine *count* puzzles from seeded self-play (the same arguments, the same puzzles).

    Game ``i`` is dealt and played by a table of Greedy and Random bots (each seat
    Greedy with chance 0.7), all drawn from a generator seeded by the rule set's
    name, *seed* and ``i`` alone, so a longer run begins with the puzzles of a
    shorter one. Its positions are tried in order where exactly two players are in
    the game with *min_cards* to *max_cards* cards in hand together; the first that
    is a puzzle (`make_puzzle`, within *max_nodes*: positions needing more are
    skipped) and whose answer the Greedy bot does not find is kept, one per game,
    unless its fingerprint is already in the set.

    Args:
        rules: A rule set or a preset's name.
        count: Puzzles wanted.
        seed: The generator's seed.
        players: The table size (`tienlen.analysis.puzzles.default_players`).
        max_nodes: Positions to search at most for one position.
        min_cards: The fewest cards in hand (all seats) of a position tried.
        max_cards: The most cards in hand (all seats) of a position tried.
        max_games: Games to play at most (default ``200 * count``); fewer puzzles
            are returned if they run out.
        progress: Called with (puzzles found, *count*) after each game.

    Raises:
        TypeError, InvalidArgumentError: a count, size or limit that is not an
            ``int`` in range.
        UnknownVariantError: no preset has the name *rules*.

    Example:
        >>> puzzles = generate_puzzles("vietcong", 3, seed=7)
        >>> [puzzle.fingerprint for puzzle in puzzles.puzzles] == [
        ...     puzzle.fingerprint for puzzle in generate_puzzles("vietcong", 3, seed=7).puzzles]
        True
    """
    rules = as_rules(rules)
    check_count("count", count, 1)
    check_count("seed", seed, 0)
    table = default_players(rules) if players is None else players
    check_count("players", table, 2)
    check_count("max_nodes", max_nodes, 1)
    check_count("min_cards", min_cards, 2)
    check_count("max_cards", max_cards, min_cards)
    games = 200 * count if max_games is None else check_count("max_games", max_games, 1)
    found: dict[str, Puzzle] = {}
    played = 0
    while played < games and len(found) < count:
        rng = random.Random(
            f"{FORMAT} {GENERATOR_VERSION} {rules.name} {seed} {played}"
        )
        played += 1
        positions = _self_play(rules, table, rng)
        puzzle = _mine(positions, max_nodes, range(min_cards, max_cards + 1))
        if puzzle is not None:
            found.setdefault(puzzle.fingerprint, puzzle)
        if progress is not None:
            progress(len(found), count)
    puzzles = tuple(found.values())
    return PuzzleSet(
        rules.name, seed, table, max_nodes, min_cards, max_cards, played, puzzles
    )


def _self_play(rules: RuleSet, players: int, rng: random.Random) -> Iterator[GameState]:
    """Every position of one self-play game, from the deal."""
    state = GameState.deal(rules, players, rng)
    bots = [
        _GREEDY if rng.random() < _GREEDY_SHARE else _RANDOM for _ in range(players)
    ]
    final = play_game(state, bots, rng)
    for action in final.history:
        yield state
        state = state.apply(action)


def _mine(
    positions: Iterator[GameState], max_nodes: int, cards: range
) -> Puzzle | None:
    """The first puzzle among *positions* that Greedy misses, or ``None``."""
    for state in positions:
        if not _worth_trying(state, cards):
            continue
        mover = state.to_act
        assert mover is not None
        greedy = _GREEDY.act(
            Observation.of(state, mover), state.legal_actions(), random.Random(0)
        )
        try:
            puzzle = _unique_best(state, max_nodes, avoid=greedy)
        except SolverLimitError:
            continue
        if puzzle is not None:
            return puzzle
    return None


def _worth_trying(state: GameState, cards: range) -> bool:
    """Two players left, as many *cards* in hand: cheap to solve exactly."""
    left = [seat for seat in range(state.players) if state.in_game(seat)]
    return len(left) == 2 and sum(len(state.hands[seat]) for seat in left) in cards


# -- JSON -------------------------------------------------------------------------


def _action_json(action: Action) -> dict[str, object]:
    cards = None if isinstance(action, Pass) else str(action.cards)
    return {"player": action.player, "cards": cards}


def _read_action(data: object) -> Action:
    if not isinstance(data, dict) or set(data) != {"player", "cards"}:
        msg = f"an action is {{'player': seat, 'cards': text or null}}, not {data!r}"
        raise PuzzleFormatError(msg[:300])
    player, cards = data["player"], data["cards"]
    if type(player) is not int:
        msg = f"a seat is an int, not {player!r}"
        raise PuzzleFormatError(msg[:300])
    if cards is None:
        return Pass(player=player)
    if not isinstance(cards, str):
        msg = f"cards are text, not {cards!r}"
        raise PuzzleFormatError(msg[:300])
    return Play(player=player, cards=cards)


def _field(data: Mapping[str, object], key: str, kind: type[_T]) -> _T:
    """*data*'s *key*, which must be exactly a *kind* (``True`` is no ``int``)."""
    value = data[key]
    if type(value) is not kind:
        msg = f'"{key}" must be {kind.__name__}, not {value!r}'
        raise PuzzleFormatError(msg[:300])
    return value


def _read_set(data: object) -> PuzzleSet:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        msg = f'not a tienlen puzzle set: no "format": "{FORMAT}"'
        raise PuzzleFormatError(msg)
    if data.get("version") != VERSION:
        msg = f"puzzle set version {data.get('version')!r} is not read here (only {VERSION})"
        raise PuzzleFormatError(msg[:300])
    rules = _field(data, "rules", str)
    settings = data["generator"]
    if not isinstance(settings, dict):
        msg = '"generator" must be an object'
        raise PuzzleFormatError(msg)
    keys = (
        "version",
        "seed",
        "players",
        "max_nodes",
        "min_cards",
        "max_cards",
        "games",
    )
    numbers = {key: _field(settings, key, int) for key in keys}
    entries = _field(data, "puzzles", list)
    puzzles = tuple(_read_puzzle(entry, rules, n) for n, entry in enumerate(entries, 1))
    if len({puzzle.fingerprint for puzzle in puzzles}) != len(puzzles):
        msg = "a puzzle is in the set twice (the same fingerprint)"
        raise PuzzleFormatError(msg)
    return PuzzleSet(
        rules,
        numbers["seed"],
        numbers["players"],
        numbers["max_nodes"],
        numbers["min_cards"],
        numbers["max_cards"],
        numbers["games"],
        puzzles,
        numbers["version"],
    )


def _read_puzzle(data: object, rules: str, number: int) -> Puzzle:
    """Puzzle *number* of a set of *rules*, checked (see `PuzzleSet.from_json`)."""
    try:
        return _checked_puzzle(data, rules)
    except (TienLenError, KeyError, TypeError, ValueError) as error:
        why = error.args[0] if isinstance(error, KeyError) and error.args else error
        msg = f"puzzle {number} is damaged: {why}"[:300]
        raise PuzzleFormatError(msg) from None


def _checked_puzzle(data: object, rules: str) -> Puzzle:
    if not isinstance(data, dict):
        msg = f"a puzzle is an object, not {data!r}"
        raise PuzzleFormatError(msg[:300])
    position = _field(data, "position", str)
    answer = _read_action(data["answer"])
    stored = _field(data, "fingerprint", str)
    if fingerprint(position, answer) != stored:
        msg = f"its fingerprint {stored!r} is not that of its position and answer"
        raise PuzzleFormatError(msg[:300])
    state = GameState.from_notation(position)
    if state.rules.name != rules:
        msg = f"its position is under {state.rules.name!r}, not the set's {rules!r}"
        raise PuzzleFormatError(msg[:300])
    lines = _field(data, "line", list)
    line = tuple(_read_action(entry) for entry in lines)
    if not line or line[0] != answer or answer.player != state.to_act:
        msg = "its line does not begin with the answer of the player to act"
        raise PuzzleFormatError(msg)
    after = state
    for action in line:
        after = after.apply(action)  # refuses an illegal action
    if not after.is_over:
        msg = "its line does not end the game"
        raise PuzzleFormatError(msg)
    themes = _field(data, "themes", list)
    if tuple(themes) != _themes(state, answer):
        msg = f"its themes {themes!r} are not those of its answer"
        raise PuzzleFormatError(msg[:300])
    return Puzzle(position, answer, line, _themes(state, answer), stored)


# -- the shipped sets ---------------------------------------------------------------

_SHIPPED: Final = "puzzle-sets"
"""The folder of the shipped sets, beside this module: one ``<preset>.json`` each."""


def shipped() -> tuple[str, ...]:
    """The presets a puzzle set ships for.

    Example:
        >>> shipped()
        ('classic', 'justus-pang', 'kenneth-lo', 'vietcong', 'poker')
    """
    return tuple(RULESETS)


def load_puzzles(rules: RuleSet | str = "classic") -> PuzzleSet:
    """The puzzle set shipped for a preset, verified (`PuzzleSet.from_json`).

    Raises:
        UnknownVariantError: no preset has the name *rules*.
        InvalidArgumentError: no set ships for that rule set
            (`tienlen.analysis.puzzles.shipped`).
        PuzzleFormatError: the shipped file is damaged.

    Example:
        >>> puzzles = load_puzzles("vc")
        >>> puzzles.rules, len(puzzles.puzzles) >= 100
        ('vietcong', True)
    """
    name = as_rules(rules).name
    if name not in shipped():
        msg = f"no puzzle set ships for {name!r} (sets: {', '.join(shipped())})"
        raise InvalidArgumentError(msg)
    return _load(name)


@functools.cache
def _load(name: str) -> PuzzleSet:
    """The shipped set *name*, read once."""
    resource = importlib.resources.files("tienlen.analysis") / _SHIPPED / f"{name}.json"
    try:
        data = json.loads(resource.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        msg = f"the shipped puzzle set {name}.json cannot be read: {error}"[:300]
        raise PuzzleFormatError(msg) from None
    puzzles = PuzzleSet.from_json(data)
    if puzzles.rules != name:
        msg = f"the shipped puzzle set {name}.json holds {puzzles.rules!r} puzzles"
        raise PuzzleFormatError(msg[:300])
    return puzzles
