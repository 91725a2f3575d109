"""Time tienlen's public API against the int/bitmask prototype P (PERFORMANCE.md §5).

Run from the repository root::

    .venv/bin/python benchmarks/bench_core.py            # full run, about 20 s
    .venv/bin/python benchmarks/bench_core.py --quick    # smoke run for CI
    .venv/bin/python benchmarks/bench_core.py --json out/bench.json

Every row times our public call and, when ``../shared/perf/reference_core.py`` exists
next to the repository, P's equivalent on the same inputs. All cases run in
*interleaved rounds* (every case once per round, GC on) with ``benchlib`` from the same
folder, or with an identical fallback loop when it is absent. A ratio is our time over
P's time, computed per round and then medianed, so machine noise that hits a round hits
both sides of it. This is a measurement, never a pass/fail test: the script exits 0
whether or not a target is met.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from tienlen import (
    DECK,
    BaseRules,
    Card,
    Combo,
    ComboKind,
    Hand,
    beats,
    classify,
    get_rules,
    legal_plays,
)
from tienlen.engine.movegen import Leads

PERF_DIR = Path(
    os.environ.get(
        "TIENLEN_PERF_DIR", Path(__file__).resolve().parents[2] / "shared" / "perf"
    )
)
"""Where P (``reference_core.py``) and ``benchlib.py`` live: ``../shared/perf``, or
``$TIENLEN_PERF_DIR`` (a worktree has no ``shared/`` beside it)."""

if PERF_DIR.is_dir() and str(PERF_DIR) not in sys.path:
    sys.path.insert(0, str(PERF_DIR))

try:
    import benchlib
except ImportError:  # pragma: no cover - depends on the checkout
    benchlib = None

try:
    import reference_core as proto
except ImportError:  # pragma: no cover - depends on the checkout
    proto = None

CHESS_REFERENCE_CALLS_PER_S = 45_000.0
"""python-chess ``list(board.legal_moves)`` from the start position (PERFORMANCE.md §4)."""

SEED = 20_240_613
POOL = 1_000
TWO = 12  # rank index of the 2
RANKS = 13
SEQUENCE_TOP = 11  # P allows no 2 in a sequence; keep every sequence at most A-high

WORST_13 = "9s 9c 9d Ts Tc Td Js Jc Jd Jh Qs Qc Qd"
"""486 leads: rank counts 3-3-4-3 on four consecutive ranks.

The maximum over every 13-card rank-count vector (PERFORMANCE.md §1), found by a
hill-climbing search over count vectors; suits do not change the count.
"""
WORST_18 = "4s 4c 4d 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d 7h 8s 8c 8d"
"""4,851 leads: rank counts 3-4-4-4-3 on five consecutive ranks (the 18-card maximum)."""


# --- the harness ---------------------------------------------------------------------


@dataclass
class Case:
    """One timed callable; each call performs `ops` operations."""

    name: str
    fn: Callable[[], object]
    ops: int
    samples: list[float] = field(default_factory=list)
    """Seconds per operation, one per round."""

    @property
    def median(self) -> float:
        """Median seconds per operation over the rounds."""
        return statistics.median(self.samples)


def _calibrate(timer: timeit.Timer, target: float) -> int:
    """Loop count giving about *target* seconds (benchlib's rule)."""
    n = 1
    while True:
        dt = timer.timeit(n)
        if dt >= target / 5 or n >= 10**8:
            break
        n *= 10 if dt < target / 50 else 2
    return max(1, int(n * target / max(dt, 1e-9)))


def _run_fallback(
    cases: Sequence[Case],
    rounds: int,
    target: float,
    clock: Callable[[], float] = timeit.default_timer,
) -> None:
    """Interleaved rounds with the GC on, as benchlib.run_suite does, on *clock*."""
    timers = [
        timeit.Timer(case.fn, "import gc; gc.enable()", timer=clock) for case in cases
    ]
    numbers = [_calibrate(timer, target) for timer in timers]
    for _ in range(rounds):
        for case, timer, number in zip(cases, timers, numbers, strict=True):
            case.samples.append(timer.timeit(number) / number / case.ops)


def run_rounds(
    cases: Sequence[Case], rounds: int, target: float, *, cpu: bool = False
) -> str:
    """Fill every case's samples; return the name of the harness used.

    With *cpu*, the fallback loop on process CPU time (`time.process_time`).
    """
    if cpu:
        _run_fallback(cases, rounds, target, time.process_time)
        return "interleaved rounds on process CPU time (GC on)"
    if benchlib is None:
        _run_fallback(cases, rounds, target)
        return "fallback (benchlib.py not found)"
    benches = [benchlib.Bench(c.name, c.fn, ops_per_call=c.ops) for c in cases]
    benchlib.run_suite(benches, rounds=rounds, target=target, quiet=True)
    for case, bench in zip(cases, benches, strict=True):
        case.samples = [float(s) for s in bench.samples]
    return "benchlib.run_suite (GC on)"


# --- inputs -------------------------------------------------------------------------


def mask_of(indices: Sequence[int]) -> int:
    """The one-deck card mask of card *indices* (the encoding P and `Hand.mask` share)."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


@dataclass(frozen=True)
class Deal:
    """A random hand and the 52 - len(hand) cards the other players hold."""

    hand: Hand
    rest: tuple[int, ...]


def random_deals(rng: random.Random, count: int, size: int = 13) -> list[Deal]:
    """*count* random hands of *size* cards."""
    deals = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand.from_cards(DECK[i] for i in deck[:size])
        deals.append(Deal(hand, tuple(sorted(deck[size:]))))
    return deals


def by_rank(indices: Sequence[int], below: int = RANKS) -> dict[int, list[int]]:
    """Card *indices* grouped by rank, ranks under *below* only."""
    groups: dict[int, list[int]] = {}
    for index in indices:
        if index >> 2 < below:
            groups.setdefault(index >> 2, []).append(index)
    return groups


def random_set(rng: random.Random, cards: Sequence[int], k: int) -> list[int] | None:
    """*k* cards of one rank from *cards* (ranks 3…A), or ``None``."""
    groups = [g for g in by_rank(cards, TWO).values() if len(g) >= k]
    return rng.sample(rng.choice(groups), k) if groups else None


def random_run(
    rng: random.Random, cards: Sequence[int], per_rank: int, length: int
) -> list[int] | None:
    """A run of *length* ranks (3…A), *per_rank* cards each, from *cards*, or ``None``."""
    groups = {r: g for r, g in by_rank(cards, TWO).items() if len(g) >= per_rank}
    starts = [
        s
        for s in range(SEQUENCE_TOP - length + 2)
        if all(r in groups for r in range(s, s + length))
    ]
    if not starts:
        return None
    start = rng.choice(starts)
    return [
        c for r in range(start, start + length) for c in rng.sample(groups[r], per_rank)
    ]


def random_combo(rng: random.Random, kind: ComboKind) -> list[int]:
    """Card indices of a random combination of *kind* that P can classify too."""
    deck = list(range(52))
    if kind.is_sequence:
        length = rng.randint(3, 8) if kind is ComboKind.STRAIGHT else rng.randint(3, 5)
        run = random_run(rng, deck, kind.per_rank, length)
        assert run is not None
        return run
    rank = rng.randrange(RANKS)
    return rng.sample(range(4 * rank, 4 * rank + 4), kind.per_rank)


KINDS = (
    ComboKind.SINGLE,
    ComboKind.PAIR,
    ComboKind.TRIPLE,
    ComboKind.FOUR_OF_A_KIND,
    ComboKind.STRAIGHT,
    ComboKind.CONSECUTIVE_PAIRS,
)


@dataclass
class Inputs:
    """Every input pool, ours and P's side by side (same cards)."""

    rules: BaseRules
    rng: random.Random
    combo_cards: list[tuple[Card, ...]] = field(default_factory=list)
    combo_masks: list[int] = field(default_factory=list)
    combos: list[Combo] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)

    def build(self) -> None:
        """Draw the combination pool and the hands."""
        for i in range(POOL):
            while True:  # redraw what the variant forbids (Poker: at most 4 pairs)
                indices = random_combo(self.rng, KINDS[i % len(KINDS)])
                self.rng.shuffle(indices)  # any order, as a player hands them over
                cards = tuple(DECK[c] for c in indices)
                combo = classify(cards, self.rules)
                if combo is not None:
                    break
            mask = mask_of(indices)
            # Same encoding on both sides: kind << 12 | cards << 6 | top card.
            assert proto is None or proto.classify(mask) == combo.key, cards
            self.combo_cards.append(cards)
            self.combo_masks.append(mask)
            self.combos.append(combo)
        self.deals = random_deals(self.rng, POOL)

    def beat_pairs(self) -> list[tuple[Combo, Combo]]:
        """Half same-shape pairs, a third cross-shape pairs, a sixth bomb matchups."""
        same: dict[int, list[Combo]] = {}
        for combo in self.combos:
            same.setdefault(combo.key >> 6, []).append(combo)
        bombs = [
            ("Ts Tc Td Th", "2h"),
            ("3s 3c 4d 4h 5s 5c", "2d"),
            ("7s 7c 8d 8h 9s 9c Tc Th", "2s 2h"),
            ("5s 5c 5d 5h", "2c 2d"),
            ("Js Jc Jd Jh", "9s 9c 9d 9h"),
        ]
        bomb_pairs = [
            (self._combo(bomb), self._combo(target)) for bomb, target in bombs
        ]
        pairs: list[tuple[Combo, Combo]] = []
        for i in range(POOL):
            if i % 6 < 3:
                group = same[self.rng.choice(self.combos).key >> 6]
                pairs.append((self.rng.choice(group), self.rng.choice(group)))
            elif i % 6 < 5:
                a, b = self.rng.sample(self.combos, 2)
                while a.key >> 6 == b.key >> 6:
                    a, b = self.rng.sample(self.combos, 2)
                pairs.append((a, b))
            else:
                pairs.append(self.rng.choice(bomb_pairs))
        return pairs

    def _combo(self, text: str) -> Combo:
        combo = classify(text, self.rules)
        assert combo is not None, text
        return combo

    def against(
        self, pick: Callable[[random.Random, Sequence[int]], list[int] | None]
    ) -> list[tuple[Hand, Combo]]:
        """Each hand with a top drawn by *pick* from the cards the others hold."""
        out = []
        for deal in self.deals:
            cards = pick(self.rng, deal.rest)
            if cards is not None:
                combo = classify([DECK[c] for c in cards], self.rules)
                assert combo is not None, cards
                out.append((deal.hand, combo))
        return out


def pick_single(rng: random.Random, rest: Sequence[int]) -> list[int] | None:
    """A single 3…A."""
    return random_set(rng, rest, 1)


def pick_pair(rng: random.Random, rest: Sequence[int]) -> list[int] | None:
    """A pair 3…A."""
    return random_set(rng, rest, 2)


def pick_straight5(rng: random.Random, rest: Sequence[int]) -> list[int] | None:
    """A 5-card straight, at most A-high."""
    return random_run(rng, rest, 1, 5)


def pick_pairs3(rng: random.Random, rest: Sequence[int]) -> list[int] | None:
    """Three consecutive pairs, at most A-high."""
    return random_run(rng, rest, 2, 3)


def pick_two(rng: random.Random, rest: Sequence[int]) -> list[int] | None:
    """A single 2."""
    twos = [c for c in rest if c >> 2 == TWO]
    return [rng.choice(twos)] if twos else None


# --- the rows -------------------------------------------------------------------------


@dataclass
class Row:
    """One table row: our call, P's equivalent, and the §5 target."""

    label: str
    ours: Case
    ref: Case | None
    target: str
    max_ratio: float | None = None
    """Target: our time at most this many times P's (per-round median)."""
    max_seconds: float | None = None
    """Target: our median time per operation below this."""
    min_ops: float | None = None
    """Target: at least this many of our operations per second."""
    plays: tuple[float, float] | None = None
    """Mean number of plays per call: ours, P's (shows both sides do the same work)."""

    @property
    def ratio(self) -> float | None:
        """Median over rounds of our time / P's time in the same round."""
        if self.ref is None:
            return None
        return statistics.median(
            o / p for o, p in zip(self.ours.samples, self.ref.samples, strict=True)
        )

    @property
    def met(self) -> bool | None:
        """Whether every target of the row is met (``None``: none, or not all checkable)."""
        checks: list[bool | None] = []
        if self.max_ratio is not None:
            ratio = self.ratio
            checks.append(None if ratio is None else ratio <= self.max_ratio)
        if self.max_seconds is not None:
            checks.append(self.ours.median < self.max_seconds)
        if self.min_ops is not None:
            checks.append(1 / self.ours.median > self.min_ops)
        if False in checks:
            return False
        return None if None in checks or not checks else True


def _mean(values: Iterator[int]) -> float:
    return statistics.fmean(values)


def build_rows(inputs: Inputs) -> list[Row]:
    """Every row of the table, with its cases ready to time."""
    rules = inputs.rules
    rows: list[Row] = []

    # classify on parsed cards ------------------------------------------------------
    combo_cards = inputs.combo_cards

    def classify_ours() -> None:
        for cards in combo_cards:
            classify(cards, rules)

    rows.append(
        Row(
            "classify(cards), parsed cards",
            Case("classify", classify_ours, len(combo_cards)),
            _ref_loop("P classify", proto.classify, inputs.combo_masks)
            if proto is not None
            else None,
            "<= 3x P",
            max_ratio=3,
        )
    )

    # beats on Combo objects ---------------------------------------------------------
    pairs = inputs.beat_pairs()

    def beats_ours() -> None:
        for a, b in pairs:
            beats(a, b, rules)

    p_beats: Case | None = None
    if proto is not None:
        key_pairs = [(proto.classify(a.mask), proto.classify(b.mask)) for a, b in pairs]
        p_beats = _ref_loop2("P beats", proto.beats, key_pairs)
    rows.append(
        Row(
            "beats(a, b), Combo objects",
            Case("beats", beats_ours, len(pairs)),
            p_beats,
            "<= 3x P",
            max_ratio=3,
        )
    )

    # leads ------------------------------------------------------------------------------
    hands = [deal.hand for deal in inputs.deals]
    rows.append(
        _lead_row(
            "legal_plays(hand).masks, lead, random 13",
            hands,
            rules,
            "<= 2x P, > python-chess calls/s",
            max_ratio=2,
            min_ops=CHESS_REFERENCE_CALLS_PER_S,  # replaced when chess is measured
        )
    )

    # against a top ------------------------------------------------------------------------
    against = [
        ("single 3…A", pick_single, "<= 3x P"),
        ("pair 3…A", pick_pair, "<= 3x P"),
        ("5-card straight", pick_straight5, "<= 3x P"),
        ("3 consecutive pairs", pick_pairs3, "<= 3x P"),
        ("single 2 (bombs incl.)", pick_two, "<= 3x P"),
    ]
    for name, pick, target in against:
        rows.append(_against_row(name, inputs.against(pick), rules, target))

    # worst leads --------------------------------------------------------------------------
    for text, limit in ((WORST_13, 1e-4), (WORST_18, 6e-4)):
        hand = Hand.parse(text)
        rows.append(
            _lead_row(
                f"legal_plays(hand).masks, worst {len(hand)}-card lead",
                [hand],
                rules,
                f"<= 3x P, < {limit * 1000:g} ms",
                max_ratio=3,
                max_seconds=limit,
            )
        )

    # counting ----------------------------------------------------------------------------
    def count_ours() -> None:
        for hand in hands:
            len(legal_plays(hand, None, rules))

    rows.append(
        Row(
            "len(legal_plays(hand)), random 13",
            Case("count", count_ours, len(hands)),
            _p_leads_case("P leads", hands),
            "<= 1x P's enumeration",
            max_ratio=1,
        )
    )

    rows += _engine_rows(inputs)

    # informative rows without a §5 target ------------------------------------------------
    def materialise_ours() -> None:
        for hand in hands:
            list(legal_plays(hand, None, rules))

    rows.append(
        Row(
            "list(legal_plays(hand)): every Combo built",
            Case("materialise", materialise_ours, len(hands)),
            _p_leads_case("P leads", hands),
            "(info)",
        )
    )
    return rows


def _engine_rows(inputs: Inputs) -> list[Row]:
    """Issue 36: the move generator on masks (`Tables`), native or pure, against P.

    Every play's mask listed, as P lists them: the leads of the random hands, and the
    answers to a top of each shape of the against rows.
    """
    tables = inputs.rules._tables  # the engine's generator itself
    if tables is None:
        return []
    masks = [deal.hand.mask for deal in inputs.deals]
    tops = [
        (hand.mask, top.key)
        for pick in (pick_single, pick_pair, pick_straight5, pick_pairs3, pick_two)
        for hand, top in inputs.against(pick)[:200]
    ]

    def leads_ours() -> None:  # as `legal_plays(...).masks`: no count first
        for mask in masks:
            plays = tables.leads(mask)
            plays.listed() if type(plays) is Leads else list(plays)

    def plays_ours() -> None:
        for mask, key in tops:
            list(tables.plays(mask, key))

    p_leads = p_plays = None
    if proto is not None:
        p_leads = _ref_loop2(
            "P leads (masks)", proto.legal_plays, [(m, 0) for m in masks]
        )
        p_plays = _ref_loop2("P plays (masks)", proto.legal_plays, tops)
    kind = "native" if tables.native is not None else "pure"
    return [
        Row(
            f"Tables.leads(mask) listed, random 13 ({kind})",
            Case("engine leads", leads_ours, len(masks)),
            p_leads,
            "(info, issue 36)",
        ),
        Row(
            f"Tables.plays(mask, key) listed, 5 tops ({kind})",
            Case("engine plays", plays_ours, len(tops)),
            p_plays,
            "(info, issue 36)",
        ),
    ]


def _p_leads_case(name: str, hands: list[Hand]) -> Case | None:
    """P's lead enumeration of *hands*, or ``None`` without P."""
    if proto is None:
        return None
    return _ref_loop2(name, proto.legal_plays, [(hand.mask, 0) for hand in hands])


def _ref_loop(name: str, fn: Callable[[int], object], args: list[int]) -> Case:
    def run() -> None:
        for arg in args:
            fn(arg)

    return Case(name, run, len(args))


def _ref_loop2(
    name: str, fn: Callable[[int, int], object], args: list[tuple[int, int]]
) -> Case:
    def run() -> None:
        for a, b in args:
            fn(a, b)

    return Case(name, run, len(args))


def _lead_row(
    label: str,
    hands: list[Hand],
    rules: BaseRules,
    target: str,
    *,
    max_ratio: float,
    max_seconds: float | None = None,
    min_ops: float | None = None,
) -> Row:
    def run() -> (
        None
    ):  # every play's mask listed, as P lists them (a lazy view untaken measures nothing)
        for hand in hands:
            legal_plays(hand, None, rules).masks  # noqa: B018

    ref = _p_leads_case("P leads", hands)
    plays_p = float("nan")
    if proto is not None:
        plays_p = _mean(len(proto.legal_plays(hand.mask, 0)) for hand in hands)
    plays = _mean(len(legal_plays(h, None, rules)) for h in hands)
    return Row(
        label,
        Case(label, run, len(hands)),
        ref,
        target,
        max_ratio=max_ratio,
        max_seconds=max_seconds,
        min_ops=min_ops,
        plays=(plays, plays_p),
    )


def _against_row(
    name: str, cases: list[tuple[Hand, Combo]], rules: BaseRules, target: str
) -> Row:
    def run() -> None:  # every answer's mask listed, as P lists them
        for hand, top in cases:
            legal_plays(hand, top, rules).masks  # noqa: B018

    ref: Case | None = None
    plays_p = float("nan")
    if proto is not None:
        p_args = [(hand.mask, proto.classify(top.mask)) for hand, top in cases]
        assert all(key for _, key in p_args)
        ref = _ref_loop2(f"P vs {name}", proto.legal_plays, p_args)
        plays_p = _mean(len(proto.legal_plays(h, k)) for h, k in p_args)
    plays = _mean(len(legal_plays(h, t, rules)) for h, t in cases)
    return Row(
        f"legal_plays(hand, top).masks, vs {name}",
        Case(f"vs {name}", run, len(cases)),
        ref,
        target,
        max_ratio=3,
        plays=(plays, plays_p),
    )


def chess_case() -> Case | None:
    """python-chess ``list(board.legal_moves)`` at the start, if chess is installed."""
    try:
        chess: ModuleType = importlib.import_module("chess")
    except ImportError:
        return None
    board = chess.Board()

    def run() -> None:
        list(board.legal_moves)

    return Case("python-chess legal_moves", run, 1)


# --- output ---------------------------------------------------------------------------


def fmt_time(seconds: float) -> str:
    """A duration with a readable unit."""
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_ops(seconds: float) -> str:
    """Operations per second for a median time per operation."""
    return f"{1 / seconds:,.0f}"


def print_table(rows: Sequence[Row], chess: Case | None) -> None:
    """The results as a plain-text table."""
    header = (
        f"{'operation':50s} {'ours/op':>9s} {'ours ops/s':>11s} {'P ops/s':>11s}"
        f" {'ours/P':>7s} {'plays/call (ours, P)':>21s}  {'target (§5)':33s} met"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        ratio = row.ratio
        p_ops = fmt_ops(row.ref.median) if row.ref is not None else "-"
        ratio_text = f"{ratio:.2f}x" if ratio is not None else "-"
        plays = ""
        if row.plays is not None:
            ours, theirs = row.plays
            plays = (
                f"{ours:.1f}, {theirs:.1f}" if row.ref is not None else f"{ours:.1f}"
            )
        met = {True: "yes", False: "NO", None: "-"}[row.met]
        print(
            f"{row.label:50s} {fmt_time(row.ours.median):>9s} {fmt_ops(row.ours.median):>11s}"
            f" {p_ops:>11s} {ratio_text:>7s} {plays:>21s}  {row.target:33s} {met}"
        )
    if chess is not None:
        print(
            f"{'python-chess list(board.legal_moves), start':50s}"
            f" {fmt_time(chess.median):>9s} {fmt_ops(chess.median):>11s}"
        )


def env_info() -> dict[str, object]:
    """Where and when the figures were taken."""
    try:
        load: tuple[float, float, float] | None = os.getloadavg()
    except OSError:
        load = None
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "loadavg_at_start": load,
        "time": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def to_json(rows: Sequence[Row], chess: Case | None) -> list[dict[str, object]]:
    """The rows as JSON-ready dicts (times in ns per operation)."""
    out: list[dict[str, object]] = []
    for row in rows:
        item: dict[str, object] = {
            "operation": row.label,
            "ours_ns": row.ours.median * 1e9,
            "ours_ops_per_s": 1 / row.ours.median,
            "ours_samples_ns": [round(s * 1e9, 2) for s in row.ours.samples],
            "target": row.target,
            "met": row.met,
        }
        if row.ref is not None:
            item["p_ns"] = row.ref.median * 1e9
            item["p_ops_per_s"] = 1 / row.ref.median
            item["p_samples_ns"] = [round(s * 1e9, 2) for s in row.ref.samples]
            item["ratio"] = row.ratio
        if row.plays is not None:
            item["plays_per_call"] = {"ours": row.plays[0], "p": row.plays[1]}
        out.append(item)
    if chess is not None:
        out.append(
            {
                "operation": "python-chess list(board.legal_moves), start",
                "ours_ns": chess.median * 1e9,
                "ours_ops_per_s": 1 / chess.median,
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, time every row and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="few short rounds (CI smoke run)"
    )
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 15)")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write JSON")
    parser.add_argument(
        "--cpu", action="store_true", help="time on process CPU time (issue 36)"
    )
    parser.add_argument(
        "--rules",
        default="classic",
        help="variant name for get_rules (default classic)",
    )
    args = parser.parse_args(argv)
    rounds: int = args.rounds or (3 if args.quick else 15)
    target = 0.01 if args.quick else 0.05
    rules = get_rules(args.rules)

    inputs = Inputs(rules, random.Random(SEED))
    inputs.build()
    rows = build_rows(inputs)
    chess = chess_case()
    cases: list[Case] = []
    for row in rows:
        cases.append(row.ours)
        if row.ref is not None:
            cases.append(row.ref)
    if chess is not None:
        cases.append(chess)

    env = env_info()
    print(
        f"tienlen benchmarks: rules={rules.name}, Python {env['python']},"
        f" {env['cpu_count']} CPUs, load {env['loadavg_at_start']}"
    )
    print(
        f"P: {proto.__file__ if proto is not None else 'not found, our figures only'}"
    )
    harness = run_rounds(cases, rounds, target, cpu=args.cpu)
    print(f"{rounds} interleaved round(s) of ~{target * 1000:g} ms per case, {harness}")
    if proto is not None:
        print("ours/P: median over rounds of (our time / P's time in the same round)")
    print()
    if chess is not None:
        for row in rows:
            if row.min_ops is not None:
                row.min_ops = 1 / chess.median
    print_table(rows, chess)
    if chess is None:
        print(
            "\npython-chess is not installed: the lead row's target uses its"
            f" documented {CHESS_REFERENCE_CALLS_PER_S:,.0f} calls/s (PERFORMANCE.md §4)"
        )

    if args.json is not None:
        payload = {
            "env": env,
            "rules": rules.name,
            "rounds": rounds,
            "harness": harness,
            "reference": str(PERF_DIR / "reference_core.py")
            if proto is not None
            else None,
            "rows": to_json(rows, chess),
        }
        path: Path = args.json
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
