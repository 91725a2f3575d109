"""The floor under issue 11's self-play targets: P's game through a minimal typed, immutable API.

Run from the repository root::

    .venv/bin/python benchmarks/bench_floor.py            # about a minute
    .venv/bin/python benchmarks/bench_floor.py --quick    # smoke run, about 10 s

The *floor* plays P's own games (P's deal, rules, generation and random choices: the
same games turn for turn, checked before timing) through the least a typed API with
immutable states must add to each turn of P's loop:

- a state object per turn, frozen, holding the fields the loop reads (the hands, who
  acts, the top, who played it, who passed, the finish order, the history, a trust
  token, and one record shared by the whole game). It is slotted and built through a
  draft class whose ``__class__`` is then swapped: the cheapest way found to build an
  immutable Python object (cheaper than `GameState`'s copied ``__dict__``);
- ``legal_actions()``, a method returning a lazy sequence over P's list of masks;
- indexing it, which builds one frozen play object (a pass is interned);
- ``apply(action)``, which checks the action's trust token and returns the successor.

Rows, each a median of same-round ratios of speed to P's (``play_game(rng, 4,
full_ranking=True)``):

- **floor, P's generation**: what the typed step costs on top of P's own move
  generation: the ceiling of any pure-Python implementation whose generation is as fast
  as P's. Issue 11's lazy self-play target is 0.8×.
- **floor, free generation**: the same with P's answers memoized (warmed before the
  timing), so generation costs one dict lookup: the ceiling of any implementation
  whose generation is compiled while its state, actions and plays stay Python classes
  (issue 11 §3 keeps attrs classes pure). Issue 11's compiled target is 1.2×.
- **tienlen, lazy indexing**: the library's own loop (``bench_realuse``'s row), for
  comparison; under the compiled build when `tienlen.COMPILED`.
- **floor, P's generation, list()** and **tienlen, list(legal_actions())**: the same,
  each turn listing every action first (issue 11's target is 0.6×).
- **floor, tienlen generation (derived)**: the floor's turn with its
  ``legal_actions()`` replaced by the library's (each timed over the positions of
  recorded games): the ceiling of the library's own generation, pure or compiled,
  under a minimal typed step.

This is a measurement, never a pass/fail test: it exits 0 whatever the ratios.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from bench_realuse import (
    GAMES,
    PERF_DIR,
    Case,
    proto,
    run_rounds,
    selfplay_lazy,
    selfplay_listed,
)

import tienlen
from tienlen import CLASSIC, GameState

Generate = Callable[[int, int | None], list[int]]
"""P's ``legal_plays(hand, key_to_beat)``: the masks of the plays, as a list."""
SEED: Final = 20_261_201
PLAYERS: Final = 4

_new: Final = object.__new__


def _missing(*_: object) -> Any:
    msg = f"P (reference_core.py) is not in {PERF_DIR}"
    raise SystemExit(msg)


_classify: Callable[[int], int] = proto.classify if proto is not None else _missing
_deal: Callable[[random.Random, int], list[int]] = (
    proto.deal if proto is not None else _missing
)
_generate: Generate = proto.legal_plays if proto is not None else _missing


class FloorPlay:
    """A frozen play: who, which cards, and the token of the state that listed it."""

    __slots__ = ("_mask", "_origin", "_player")

    _player: int
    _mask: int
    _origin: int

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"cannot assign to {name}"
        raise AttributeError(msg)


class FloorPass:
    """A frozen pass (one per seat, interned)."""

    __slots__ = ("player",)

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"cannot assign to {name}"
        raise AttributeError(msg)


_PASSES: Final = tuple(FloorPass(seat) for seat in range(PLAYERS))
_set_player: Final = FloorPlay.__dict__["_player"].__set__
_set_mask: Final = FloorPlay.__dict__["_mask"].__set__
_set_origin: Final = FloorPlay.__dict__["_origin"].__set__
FloorAction = FloorPlay | FloorPass


class FloorActions(Sequence[FloorAction]):
    """The legal actions of a state, lazily: P's masks, then the pass when following."""

    __slots__ = ("_len", "_masks", "_player", "_serial")

    def __init__(
        self, masks: list[int], player: int, serial: int, following: int
    ) -> None:
        self._masks = masks
        self._player = player
        self._serial = serial
        self._len = len(masks) + (following != 0)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[FloorAction]:
        player, serial = self._player, self._serial
        for mask in self._masks:
            play = _new(FloorPlay)
            _set_player(play, player)
            _set_mask(play, mask)
            _set_origin(play, serial)
            yield play
        if self._len > len(self._masks):
            yield _PASSES[player]

    def __getitem__(self, index: int) -> FloorAction:  # type: ignore[override]  # ints only
        masks = self._masks
        if index < len(masks):
            play = _new(FloorPlay)
            _set_player(play, self._player)
            _set_mask(play, masks[index])
            _set_origin(play, self._serial)
            return play
        return _PASSES[self._player]


class FloorState:
    """A frozen state: the fields P's loop keeps, plus a history and a trust token."""

    __slots__ = (
        "_game",
        "_log",
        "_masks",
        "_serial",
        "_top",
        "finish_order",
        "last_player",
        "locked",
        "to_act",
    )

    _game: tuple[Generate, int]
    """What the whole game shares: its move generation and its number of players."""
    _masks: tuple[int, ...]
    to_act: int | None
    _top: int
    last_player: int
    locked: int
    finish_order: tuple[int, ...]
    _log: tuple[object, FloorAction] | None
    _serial: int

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"cannot assign to {name}"
        raise AttributeError(msg)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.to_act is None

    def legal_actions(self) -> FloorActions:
        """The legal actions now (the game is not over)."""
        player = self.to_act
        assert player is not None
        top = self._top
        masks = self._game[0](self._masks[player], top or None)
        return FloorActions(masks, player, self._serial, top)

    def apply(self, action: FloorAction) -> FloorState:
        """The successor state: P's rules for a play or a pass, then who acts next."""
        cur = self.to_act
        assert cur is not None
        hands = self._masks
        top, last, passed, finish = (
            self._top,
            self.last_player,
            self.locked,
            self.finish_order,
        )
        players = self._game[1]
        nxt: int | None = cur
        if type(action) is FloorPlay and action._origin == self._serial:
            play = action._mask
            top = _classify(play)
            last = cur
            held = list(hands)
            held[cur] ^= play
            hands = tuple(held)
            if not held[cur]:
                finish = (*finish, cur)
                if len(finish) == players - 1:
                    nxt = None  # the game is over
        elif type(action) is FloorPass and action.player == cur and top:
            passed |= 1 << cur
        else:
            msg = f"illegal action {action!r}"
            raise ValueError(msg)
        if nxt is not None:
            while True:
                nxt = (nxt + 1) % players
                if nxt == last or (hands[nxt] and not passed >> nxt & 1):
                    break
            if nxt == last:  # everyone else passed: a new trick
                top = passed = 0
                while not hands[nxt]:
                    nxt = (nxt + 1) % players
        draft = _new(_Draft)  # the one constructor: fields set, then the class swapped
        draft._game = self._game
        draft._log = (self._log, action)
        draft._masks = hands
        draft.to_act = nxt
        draft._top = top
        draft.last_player = last
        draft.locked = passed
        draft.finish_order = finish
        draft._serial = next(_TOKENS)
        draft.__class__ = FloorState  # type: ignore[assignment]  # the class swap
        return draft


class _Draft(FloorState):
    """A `FloorState` under construction: its fields are set, then its class is swapped."""

    __slots__ = ()


_Draft.__setattr__ = object.__setattr__  # type: ignore[assignment,method-assign]  # C slot
_TOKENS: Final = itertools.count(1)


def deal(rng: random.Random, generate: Generate) -> FloorState:
    """P's deal; the holder of 3♠ leads."""
    hands = _deal(rng, PLAYERS)
    leader = next(seat for seat in range(PLAYERS) if hands[seat] & 1)
    draft = _new(_Draft)
    draft._game = (generate, PLAYERS)
    draft._log = None
    draft._masks = tuple(hands)
    draft.to_act = leader
    draft._top = draft.locked = 0
    draft.last_player = leader
    draft.finish_order = ()
    draft._serial = next(_TOKENS)
    draft.__class__ = FloorState  # type: ignore[assignment]  # the class swap
    return draft


def floor_game(
    rng: random.Random, generate: Generate, *, listed: bool = False
) -> tuple[int, int]:
    """One of P's games through the floor: (the winner, the number of turns).

    With *listed*, each turn takes ``list(state.legal_actions())`` first.
    """
    state = deal(rng, generate)
    turns = 0
    rand = rng.random
    while not state.is_over:
        actions: Sequence[FloorAction] = state.legal_actions()
        if listed:
            actions = list(actions)
        state = state.apply(actions[int(rand() * len(actions))])
        turns += 1
    return state.finish_order[0], turns


def memoized(
    generate: Generate,
) -> tuple[Generate, dict[tuple[int, int | None], list[int]]]:
    """*generate* answering from a dict once an answer is known, and the dict."""
    memo: dict[tuple[int, int | None], list[int]] = {}

    def answer(hand: int, top: int | None) -> list[int]:
        key = (hand, top)
        found = memo.get(key)
        if found is None:
            found = memo[key] = generate(hand, top)
        return found

    return answer, memo


def check_same_games(games: int) -> None:
    """Fail loudly unless the floor plays P's games, winner and length, seed for seed."""
    assert proto is not None
    for seed in range(games):
        ours = floor_game(random.Random(seed), _generate)
        theirs = proto.play_game(random.Random(seed), PLAYERS, full_ranking=True)
        if ours != tuple(theirs):
            msg = f"the floor and P differ on seed {seed}: {ours} != {theirs}"
            raise AssertionError(msg)


def p_games() -> None:
    """P's games: the same deals every call."""
    assert proto is not None
    rng = random.Random(SEED)
    for _ in range(GAMES):
        proto.play_game(rng, PLAYERS, full_ranking=True)


def floor_games(generate: Generate, *, listed: bool = False) -> Callable[[], object]:
    """The floor's games (the same as `p_games`'), generating with *generate*."""

    def run() -> None:
        rng = random.Random(SEED)
        for _ in range(GAMES):
            floor_game(rng, generate, listed=listed)

    return run


def floor_positions(games: int) -> list[FloorState]:
    """Every state of *games* of P's games through the floor (P's generation)."""
    rng = random.Random(SEED)
    states = []
    for _ in range(games):
        state = deal(rng, _generate)
        while not state.is_over:
            states.append(state)
            actions = state.legal_actions()
            state = state.apply(actions[int(rng.random() * len(actions))])
    return states


def tienlen_positions(games: int) -> list[GameState]:
    """Every state of *games* random classic games through the library."""
    rng = random.Random(SEED)
    states = []
    for _ in range(games):
        state = GameState.deal(CLASSIC, PLAYERS, rng)
        while not state.is_over:
            states.append(state)
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
    return states


def generation_per_turn(rounds: int) -> tuple[float, float]:
    """Seconds per ``legal_actions()`` call: the floor's, then the library's.

    The floor's is P's generation and its lazy sequence. Both are medians of
    interleaved rounds over the positions of recorded games.
    """
    floor_states, our_states = (
        floor_positions(GAMES * 20),
        tienlen_positions(GAMES * 20),
    )
    floor_times: list[float] = []
    our_times: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        for floor_state in floor_states:
            floor_state.legal_actions()
        floor_times.append((time.perf_counter() - start) / len(floor_states))
        start = time.perf_counter()
        for state in our_states:
            state.legal_actions()
        our_times.append((time.perf_counter() - start) / len(our_states))
    return statistics.median(floor_times), statistics.median(our_times)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, with the defaults of a full run (``--quick``: a smoke run)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run, about 10 s")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 15)")
    parser.add_argument(
        "--target", type=float, help="seconds per case per round (default 0.2)"
    )
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (3 if args.quick else 15)
    args.target = args.target or (0.05 if args.quick else 0.2)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Check the floor plays P's games, time the rows and print them."""
    args = parse_args(argv)
    if proto is None:
        _missing()
    check_same_games(200)
    free, memo = memoized(_generate)
    floor_games(free)()  # warm the memo: every later call only looks answers up
    warmed = len(memo)
    p_case = Case("P play_game", p_games, GAMES)
    rows = [
        ("floor, P's generation", Case("floor", floor_games(_generate), GAMES), 0.8),
        ("floor, free generation", Case("free", floor_games(free), GAMES), 1.2),
        (
            "tienlen, lazy indexing",
            Case("ours", selfplay_lazy(CLASSIC, random.Random(SEED)), GAMES),
            0.8 if not tienlen.COMPILED else 1.2,
        ),
        (
            "floor, P's generation, list()",
            Case("listed", floor_games(_generate, listed=True), GAMES),
            0.6,
        ),
        (
            "tienlen, list(legal_actions())",
            Case("ours listed", selfplay_listed(CLASSIC, random.Random(SEED)), GAMES),
            0.6,
        ),
    ]
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    build = "compiled (mypyc)" if tienlen.COMPILED else "pure Python"
    print(
        f"tienlen {tienlen.__version__}, {build}; python {sys.version.split()[0]}, "
        f"load {load}; {args.rounds} interleaved rounds of ~{args.target * 1000:.0f} ms"
    )
    run_rounds([p_case, *(case for _, case, _ in rows)], args.rounds, args.target)
    assert len(memo) == warmed, "the timed games were not the warmed ones"
    rng = random.Random(SEED)
    turns = sum(floor_game(rng, _generate)[1] for _ in range(GAMES)) / GAMES
    print(f"P: {p_case.median * 1e6:.1f} us per game of {turns:.1f} turns")
    print(f"{'row':38s} {'us/game':>9s} {'speed vs P':>11s}  issue 11 target")
    for label, case, goal in rows:
        ratio = statistics.median(
            p / o for o, p in zip(case.samples, p_case.samples, strict=True)
        )
        print(f"{label:38s} {case.median * 1e6:9.1f} {ratio:10.2f}x  >= {goal}x")
    floor_gen, our_gen = generation_per_turn(args.rounds)
    step = rows[0][1].median / turns - floor_gen  # the floor's turn less its generation
    derived = p_case.median / turns / (step + our_gen)
    print(
        f"{'floor, tienlen generation (derived)':38s} {(step + our_gen) * turns * 1e6:9.1f} "
        f"{derived:10.2f}x  >= {0.8 if not tienlen.COMPILED else 1.2}x"
    )
    print(
        f"  legal_actions() per turn: floor (P's generation) {floor_gen * 1e6:.2f} us, "
        f"tienlen {our_gen * 1e6:.2f} us; the floor's step without it {step * 1e6:.2f} us"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
