"""Time what bots and agents do with the public API, as ratios to the prototype P (issue 11 §2).

Run from the repository root::

    .venv/bin/python benchmarks/bench_realuse.py            # about two minutes
    .venv/bin/python benchmarks/bench_realuse.py --quick    # smoke run, about 20 s
    .venv/bin/python benchmarks/bench_realuse.py --rules classic --rounds 15

Rows, for each rule set of ``--rules`` (default classic and Poker; Poker costs about
twice as much per action):

- **iterate every play as Combos**: ``for combo in legal_plays(hand, top, rules)``
  over a pool of hands: leads of random 13-, 17- and 18-card hands and of a 26-card
  two-deck hand (under ``two_decks(rules)``, where the settings allow it), and 13-card hands against a single,
  a pair, a triple, a 5-card straight, 3 consecutive pairs and a single 2 (bombs
  included). P iterates its ``legal_plays(mask, key)`` list of the same cards; it holds
  no second copy of a card, so for the two-deck hand it lists the hand's distinct cards.
  Ratio: our time over P's (target ≤ 2× for the 13-card rows).
- **self-play**: a fresh 4-player deal played to the end with uniformly random
  actions, ``list(state.legal_actions())`` each step, or lazy indexing, each picking
  as P and `RandomPlayer` pick (``actions[int(rng.random() * len(actions))]``: the
  same work as P's loop, where ``rng.randrange`` would add its own 0.3 µs a decision);
  `play_game` with 4 `RandomPlayer` and
  with 4 `GreedyPlayer` (the library's own bots, trusted: no per-decision checks),
  and with 4 random bots of another type (checked, as any bot of yours; no target);
  `simulate` serially. Ratio: our games/s over P's
  ``play_game(rng, 4, full_ranking=True)`` (same policy, to the last card).
- **scaling** (the first rule set): `simulate` on a ``multiprocessing.Pool(2)`` and,
  when ``dask.distributed`` is installed, on a ``LocalCluster(n_workers=2,
  processes=True)`` executor, each over serial `simulate` in the same round, beside a
  pure-Python busy loop on the same workers (what the shared machine gave).

Every case runs in *interleaved rounds* (``benchlib`` from ``../shared/perf``, or
``$TIENLEN_PERF_DIR``); a ratio is taken per round, then medianed. This is a
measurement, never a pass/fail test: it exits 0 whether or not a target is met.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Protocol

import tienlen
from tienlen import (
    DECK,
    BaseRules,
    Combo,
    GameState,
    GreedyPlayer,
    Hand,
    InvalidRulesError,
    MapExecutor,
    Player,
    RandomPlayer,
    classify,
    get_rules,
    legal_plays,
    play_game,
    simulate,
)
from tienlen.rules import two_decks

PERF_DIR = Path(
    os.environ.get(
        "TIENLEN_PERF_DIR", Path(__file__).resolve().parents[2] / "shared" / "perf"
    )
)
"""Where P (``reference_core.py``) and ``benchlib.py`` live: ``../shared/perf``, or
``$TIENLEN_PERF_DIR`` (a worktree has no ``shared/`` beside it)."""

SEED = 20_240_613
TWO = 12
"""Rank index of the 2."""


def optional_module(name: str) -> ModuleType | None:
    """Import *name* from `PERF_DIR` if it is there."""
    if PERF_DIR.is_dir() and str(PERF_DIR) not in sys.path:
        sys.path.insert(0, str(PERF_DIR))
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


benchlib = optional_module("benchlib")
proto = optional_module("reference_core")


# --- the harness -------------------------------------------------------------------


@dataclass
class Case:
    """One timed callable; each call performs `ops` operations (plays, hands or games)."""

    name: str
    fn: Callable[[], object]
    ops: int
    samples: list[float] = field(default_factory=list)
    """Seconds per operation, one per round."""

    @property
    def median(self) -> float:
        """Median seconds per operation."""
        return statistics.median(self.samples)


def run_rounds(cases: Sequence[Case], rounds: int, target: float) -> None:
    """Fill every case's samples in interleaved rounds (benchlib, or the same loop)."""
    if benchlib is not None:
        benches = [benchlib.Bench(c.name, c.fn, ops_per_call=c.ops) for c in cases]
        benchlib.run_suite(benches, rounds=rounds, target=target, quiet=True)
        for case, bench in zip(cases, benches, strict=True):
            case.samples = [float(s) for s in bench.samples]
        return
    numbers = []
    for case in cases:  # calibrate: about *target* seconds per round
        start = time.perf_counter()
        case.fn()
        numbers.append(max(1, int(target / max(time.perf_counter() - start, 1e-9))))
    for _ in range(rounds):
        for case, number in zip(cases, numbers, strict=True):
            start = time.perf_counter()
            for _ in range(number):
                case.fn()
            case.samples.append((time.perf_counter() - start) / number / case.ops)


@dataclass
class Row:
    """Our case beside P's, with the issue's target."""

    label: str
    rules: str
    ours: Case
    ref: Case | None
    speed: bool
    """Compare speeds (games/s: higher is better) rather than times."""
    target: float | None
    """At most this many times P's time, or at least this fraction of P's speed."""

    @property
    def ratio(self) -> float | None:
        """Median over rounds of ours / P (times), or P / ours for speeds."""
        if self.ref is None:
            return None
        pairs = zip(self.ours.samples, self.ref.samples, strict=True)
        return statistics.median(p / o if self.speed else o / p for o, p in pairs)

    def verdict(self) -> str:
        """``yes``, ``NO`` or ``-`` (no target, or no P to compare with)."""
        ratio = self.ratio
        if self.target is None or ratio is None:
            return "-"
        met = ratio >= self.target if self.speed else ratio <= self.target
        return "yes" if met else "NO"


# --- inputs ------------------------------------------------------------------------


def mask_of(indices: Iterable[int]) -> int:
    """The one-deck mask of card *indices* (P's encoding and `Hand.mask`'s)."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def random_hands(rng: random.Random, count: int, size: int) -> list[list[int]]:
    """*count* random one-deck hands of *size* cards, as sorted card indices."""
    return [sorted(rng.sample(range(52), size)) for _ in range(count)]


def two_deck_hands(rng: random.Random, count: int, size: int) -> list[list[int]]:
    """*count* random hands of *size* cards from two shuffled decks (RULES §2.1)."""
    return [sorted(rng.sample(list(range(52)) * 2, size)) for _ in range(count)]


def by_rank(cards: Iterable[int]) -> dict[int, list[int]]:
    """The cards of ranks 3…A grouped by rank."""
    groups: dict[int, list[int]] = {}
    for card in cards:
        if card >> 2 < TWO:
            groups.setdefault(card >> 2, []).append(card)
    return groups


def pick_set(k: int) -> Callable[[random.Random, list[int]], list[int] | None]:
    """A picker of *k* cards of one rank 3…A."""

    def pick(rng: random.Random, rest: list[int]) -> list[int] | None:
        groups = [g for g in by_rank(rest).values() if len(g) >= k]
        return rng.sample(rng.choice(groups), k) if groups else None

    return pick


def pick_run(
    per_rank: int, length: int
) -> Callable[[random.Random, list[int]], list[int] | None]:
    """A picker of a run of *length* ranks, *per_rank* cards each, at most A-high."""

    def pick(rng: random.Random, rest: list[int]) -> list[int] | None:
        groups = {r: g for r, g in by_rank(rest).items() if len(g) >= per_rank}
        starts = [
            s
            for s in range(TWO - length + 1)
            if all(r in groups for r in range(s, s + length))
        ]
        if not starts:
            return None
        start = rng.choice(starts)
        ranks = range(start, start + length)
        return [c for r in ranks for c in rng.sample(groups[r], per_rank)]

    return pick


def pick_two(rng: random.Random, rest: list[int]) -> list[int] | None:
    """A single 2."""
    twos = [c for c in rest if c >> 2 == TWO]
    return [rng.choice(twos)] if twos else None


TOPS: tuple[tuple[str, Callable[[random.Random, list[int]], list[int] | None]], ...] = (
    ("single 3…A", pick_set(1)),
    ("pair 3…A", pick_set(2)),
    ("triple 3…A", pick_set(3)),
    ("5-card straight", pick_run(1, 5)),
    ("3 consecutive pairs", pick_run(2, 3)),
    ("single 2 (bombs incl.)", pick_two),
)
"""The tops of the iteration rows: each a picker from the cards the others hold."""


@dataclass
class Inputs:
    """One input pool: hands (card indices) and, against a top, the top's cards."""

    label: str
    hands: list[list[int]]
    tops: list[list[int]] | None = None
    two_decks: bool = False
    target: float | None = None
    """Issue 11 §2: at most this many times P's time (13-card rows: 2)."""


def build_pools(rng: random.Random, count: int) -> list[Inputs]:
    """The lead pools (13, 17, 18 cards; 26 from two decks) and one per top kind."""
    pools = [
        Inputs(
            f"lead, random {size}",
            random_hands(rng, count, size),
            target=2.0 if size == 13 else None,
        )
        for size in (13, 17, 18)
    ]
    pools.append(
        Inputs(
            "lead, random 26 (two decks)",
            two_deck_hands(rng, max(1, count // 10), 26),
            two_decks=True,
        )
    )
    for label, pick in TOPS:
        hands: list[list[int]] = []
        tops: list[list[int]] = []
        while len(hands) < count:
            deck = list(range(52))
            rng.shuffle(deck)
            top = pick(rng, sorted(deck[13:]))
            if top is not None:
                hands.append(sorted(deck[:13]))
                tops.append(top)
        pools.append(Inputs(f"vs {label}", hands, tops, target=2.0))
    return pools


# --- the cases ---------------------------------------------------------------------


def iterate_ours(pool: Inputs, rules: BaseRules) -> Case | None:
    """Every play of every hand of *pool* taken as a `Combo`; ``None`` if *rules* cannot.

    The two-deck pool is played under `two_decks` of a one-deck *rules* (classic's row
    is `CLASSIC_TWO_DECKS`), when its settings allow two decks.
    """
    if pool.two_decks and rules.decks == 1:
        try:
            rules = two_decks(rules)
        except InvalidRulesError:  # Poker: place points for four places only
            return None
    hands = [Hand.from_cards(DECK[c] for c in cards) for cards in pool.hands]
    tops: list[Combo | None] = [None] * len(hands)
    if pool.tops is not None:
        tops = [classify([DECK[c] for c in cards], rules) for cards in pool.tops]
        assert None not in tops, pool.label
    pairs = list(zip(hands, tops, strict=True))

    def run() -> None:
        for hand, top in pairs:
            for _combo in legal_plays(hand, top, rules):
                pass

    return Case(f"{rules.name} {pool.label}", run, len(pairs))


def iterate_proto(module: ModuleType, pool: Inputs) -> Case:
    """P's plays of the same hands (distinct cards only: P holds one deck)."""
    masks = [mask_of(cards) for cards in pool.hands]
    keys = [0] * len(masks)
    if pool.tops is not None:
        keys = [module.classify(mask_of(cards)) for cards in pool.tops]
        assert 0 not in keys, pool.label
    pairs = list(zip(masks, keys, strict=True))
    plays = module.legal_plays

    def run() -> None:
        for mask, key in pairs:
            for _play in plays(mask, key):
                pass

    return Case(f"P {pool.label}", run, len(pairs))


GAMES = 10
"""Games per timed call of the self-play rows."""


def selfplay_listed(rules: BaseRules, rng: random.Random) -> Callable[[], object]:
    """Random self-play taking ``list(state.legal_actions())`` at each step."""

    def run() -> None:
        for _ in range(GAMES):
            state = GameState.deal(rules, 4, rng)
            while not state.is_over:
                actions = list(state.legal_actions())
                state = state.apply(actions[int(rng.random() * len(actions))])

    return run


def selfplay_lazy(rules: BaseRules, rng: random.Random) -> Callable[[], object]:
    """Random self-play indexing the lazy `Actions` sequence."""

    def run() -> None:
        for _ in range(GAMES):
            state = GameState.deal(rules, 4, rng)
            while not state.is_over:
                actions = state.legal_actions()
                state = state.apply(actions[int(rng.random() * len(actions))])

    return run


class CheckedRandom(RandomPlayer):
    """`RandomPlayer` under another type: `play_game` checks its every decision.

    As for any bot of yours: the library trusts only its own bots, without a time limit.
    """


def selfplay_players(
    rules: BaseRules, rng: random.Random, player: Player
) -> Callable[[], object]:
    """`play_game` with four copies of *player*."""
    players = [player] * 4

    def run() -> None:
        for _ in range(GAMES):
            play_game(GameState.deal(rules, 4, rng), players, rng)

    return run


SIM_GAMES = 50
"""Games per serial `simulate` call (batches of 25)."""


def simulate_serial(rules: BaseRules) -> Callable[[], object]:
    """Serial `simulate` of four `RandomPlayer`, a new seed each call."""
    players = [RandomPlayer()] * 4
    seeds = iter(range(10**9))

    def run() -> None:
        simulate(SIM_GAMES, rules=rules, players=players, seed=next(seeds))

    return run


def proto_selfplay(module: ModuleType, rng: random.Random) -> Callable[[], object]:
    """P's uniformly random game to the last card."""
    play = module.play_game

    def run() -> None:
        for _ in range(GAMES):
            play(rng, 4, full_ranking=True)

    return run


def selfplay_rows(rules: BaseRules, ref: Case | None) -> list[Row]:
    """The self-play rows of *rules*, each against P's game."""
    rng = random.Random(f"{SEED}:{rules.name}")
    cases = [
        ("self-play, list(legal_actions())", selfplay_listed(rules, rng), 0.6),
        ("self-play, lazy indexing", selfplay_lazy(rules, rng), 0.8),
        (
            "play_game, 4 RandomPlayers",
            selfplay_players(rules, rng, RandomPlayer()),
            0.5,
        ),
        (
            "play_game, 4 GreedyPlayers",
            selfplay_players(rules, rng, GreedyPlayer()),
            0.3,
        ),
        (
            "play_game, 4 checked random bots",
            selfplay_players(rules, rng, CheckedRandom()),
            None,
        ),
    ]
    rows = [
        Row(
            label,
            rules.name,
            Case(f"{rules.name} {label}", fn, GAMES),
            ref,
            speed=True,
            target=goal,
        )
        for label, fn, goal in cases
    ]
    sim = Case(f"{rules.name} simulate", simulate_serial(rules), SIM_GAMES)
    rows.append(
        Row("simulate(), serial", rules.name, sim, ref, speed=True, target=0.45)
    )
    return rows


# --- scaling -----------------------------------------------------------------------


def busy_loop(n: int) -> int:
    """Pure-Python work with nothing to send: what two workers can do at best."""
    total = 0
    for i in range(n):
        total += i
    return total


@dataclass
class Scaling:
    """Speed-ups over serial `simulate` measured in the same rounds."""

    executor: str
    speedups: list[float] = field(default_factory=list)
    controls: list[float] = field(default_factory=list)
    """The busy loop's speed-up on the same workers, per round."""


def time_scaling(
    rules: BaseRules, games: int, rounds: int, executors: dict[str, MapExecutor]
) -> list[Scaling]:
    """Speed-ups of `simulate` and of the busy loop on each executor, per round.

    Each round and executor time serial `simulate`, then the same games on the
    executor, then the busy loop both ways: every speed-up is taken against the
    serial run just before it.
    """
    players = [RandomPlayer()] * 4
    results = {name: Scaling(name) for name in executors}
    loops = [1_000_000 + i for i in range(4)]  # distinct: Dask runs equal tasks once
    for executor in executors.values():  # warm up: start and import in workers
        simulate(
            8, rules=rules, players=players, seed=0, batch_size=4, executor=executor
        )
        list(executor.map(busy_loop, [10] * 4))
    for round_ in range(rounds):
        for name, executor in executors.items():
            start = time.perf_counter()
            serial = simulate(games, rules=rules, players=players, seed=round_)
            serial_time = time.perf_counter() - start
            start = time.perf_counter()
            pooled = simulate(
                games, rules=rules, players=players, seed=round_, executor=executor
            )
            results[name].speedups.append(serial_time / (time.perf_counter() - start))
            assert pooled == serial, name
            start = time.perf_counter()
            for n in loops:
                busy_loop(n)
            busy_time = time.perf_counter() - start
            start = time.perf_counter()
            list(executor.map(busy_loop, loops))
            results[name].controls.append(busy_time / (time.perf_counter() - start))
    return list(results.values())


class Client(Protocol):
    """What this script uses of a ``dask.distributed.Client``."""

    def get_executor(self) -> MapExecutor: ...
    def close(self) -> None: ...


def dask_client() -> Client | None:
    """A ``dask.distributed`` client of a 2-process `LocalCluster`, or ``None``."""
    try:  # not a dependency, and untyped: imported by name
        distributed = importlib.import_module("dask.distributed")
    except ImportError:
        return None
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    client: Client = distributed.Client(cluster)
    return client


def print_scaling(scalings: Sequence[Scaling], games: int) -> None:
    """Print each executor's median speed-up beside its control."""
    print(f"\nsimulate, {games} games of 4 RandomPlayers (batches of 250), vs serial:")
    for scaling in scalings:
        speedup = statistics.median(scaling.speedups)
        control = statistics.median(scaling.controls)
        goal = "target >= 1.8x when the control reaches 1.9x"
        print(
            f"  {scaling.executor:34s} {speedup:5.2f}x   busy-loop control "
            f"{control:5.2f}x   ({goal}; rounds: "
            f"{', '.join(f'{s:.2f}' for s in scaling.speedups)})"
        )


# --- main ---------------------------------------------------------------------------


def print_rows(rows: Sequence[Row]) -> None:
    """The table: our time per op, P's, the ratio and the target."""
    print(
        f"{'rules':8s} {'row':38s} {'ours/op':>10s} {'P/op':>10s} "
        f"{'ratio':>7s}  {'target':16s} met"
    )
    for row in rows:
        unit = "game" if row.speed else "hand"
        ours = f"{row.ours.median * 1e6:8.1f}us"
        ref = f"{row.ref.median * 1e6:8.1f}us" if row.ref is not None else "-"
        ratio = row.ratio
        shown = f"{ratio:6.2f}x" if ratio is not None else "      -"
        if row.target is None:
            goal = "(info)"
        elif row.speed:
            goal = f">= {row.target}x P's speed"
        else:
            goal = f"<= {row.target}x P's time"
        print(
            f"{row.rules:8s} {row.label + ' /' + unit:38s} {ours:>10s} {ref:>10s} "
            f"{shown}  {goal:16s} {row.verdict()}"
        )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, with the defaults of a full run (``--quick``: a smoke run)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run, about 20 s")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 7)")
    parser.add_argument(
        "--target", type=float, help="seconds per case per round (default 0.1)"
    )
    parser.add_argument("--hands", type=int, help="hands per pool (default 200)")
    parser.add_argument(
        "--sim-games", type=int, help="games per scaling run (default 2000)"
    )
    parser.add_argument("--sim-rounds", type=int, help="scaling rounds (default 3)")
    parser.add_argument(
        "--rules", default="classic,poker", help="comma-separated rule sets"
    )
    parser.add_argument("--no-scaling", action="store_true", help="skip the workers")
    args = parser.parse_args(argv)
    quick = args.quick
    args.rounds = args.rounds or (3 if quick else 7)
    args.target = args.target or (0.02 if quick else 0.1)
    args.hands = args.hands or (50 if quick else 200)
    args.sim_games = args.sim_games or (500 if quick else 2000)
    args.sim_rounds = args.sim_rounds or (1 if quick else 3)
    return args


def build_rows(
    variants: Sequence[BaseRules], count: int
) -> tuple[list[Row], list[Case]]:
    """Every row of every rule set, and every case to time (ours and P's)."""
    rng = random.Random(SEED)
    pools = build_pools(rng, count)
    rows: list[Row] = []
    ref_game = None
    if proto is not None:
        ref_game = Case("P play_game", proto_selfplay(proto, rng), GAMES)
    refs = {pool.label: iterate_proto(proto, pool) if proto else None for pool in pools}
    for rules in variants:
        for pool in pools:
            ours = iterate_ours(pool, rules)
            if ours is not None:
                label = f"iterate Combos, {pool.label}"
                ref = refs[pool.label]
                rows.append(
                    Row(label, rules.name, ours, ref, speed=False, target=pool.target)
                )
        rows += selfplay_rows(rules, ref_game)
    cases = [row.ours for row in rows]
    cases += [case for case in refs.values() if case is not None]
    if ref_game is not None:
        cases.append(ref_game)
    return rows, cases


def run_scaling(rules: BaseRules, games: int, rounds: int) -> list[Scaling]:
    """`time_scaling` on a 2-process pool and, if installed, a Dask LocalCluster."""
    executors: dict[str, MapExecutor] = {}
    with multiprocessing.Pool(2) as pool:
        executors["multiprocessing.Pool(2)"] = pool
        client = dask_client()
        if client is None:
            print("\n(dask.distributed is not installed: no LocalCluster row)")
        else:
            executors["dask LocalCluster(2 processes)"] = client.get_executor()
        try:
            return time_scaling(rules, games, rounds, executors)
        finally:
            if client is not None:
                client.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, time every row and print the results."""
    args = parse_args(argv)
    variants = [get_rules(name) for name in args.rules.split(",")]
    rows, cases = build_rows(variants, args.hands)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    build = "compiled (mypyc)" if tienlen.COMPILED else "pure Python"
    print(
        f"tienlen {tienlen.__version__}, {build}; python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores, load {load}"
    )
    print(f"{args.rounds} interleaved rounds of ~{args.target * 1000:.0f} ms per case")
    if proto is None:
        print(f"(P not found in {PERF_DIR}: our figures only)")
    run_rounds(cases, args.rounds, args.target)
    print_rows(rows)
    if not args.no_scaling:
        scalings = run_scaling(variants[0], args.sim_games, args.sim_rounds)
        print_scaling(scalings, args.sim_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
