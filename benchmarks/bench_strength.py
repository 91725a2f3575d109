"""Measure the search bots' strength: one bot against three GreedyPlayers, duplicate deals.

Run from the repository root::

    .venv/bin/python benchmarks/bench_strength.py --rules classic --bot pimc --deals 400
    .venv/bin/python benchmarks/bench_strength.py --rules poker --bot greedy --deals 400
    .venv/bin/python benchmarks/bench_strength.py --rules poker --bot pimc ismcts --seconds 0.02
    .venv/bin/python benchmarks/bench_strength.py --quick      # smoke run, seconds
    .venv/bin/python benchmarks/bench_strength.py --ladder     # the ladder (docs/bots.md)
    .venv/bin/python benchmarks/bench_strength.py --ladder --quick

**The ladder** (``--ladder``): `RandomPlayer`, `GreedyPlayer`, the shipped learned
player (`tienlen.rl.pretrained`), `PIMCPlayer` and `ISMCTSPlayer`, each in turn as
player 0 against three `GreedyPlayer` s on the same frozen deal set
(`tienlen.evaluation.frozen_deals`: ``classic-150-v1`` and ``poker-150-v1``, every
deal under all four seat rotations), for classic and Poker. It prints one Markdown
table (mean score per game with its 95% interval over deals, first and last places,
CPU time per decision with more than one legal action) headed by the date and the
commit, and one JSON line per row. The search bots' budgets are ``--worlds`` (PIMC,
default 4), ``--iterations`` (ISMCTS, default 24) and ``--candidates`` (both, default
6): 24 rollouts per decision each, a reduced budget, about a seventh of PIMC's default
(16 worlds × 10 candidates = 160). ``--ladder --quick`` plays
3 deals of each (not a frozen set) with tiny budgets: a smoke run.
``--ladder-paired`` prints the learned player's score less the Greedy control's,
deal by deal on the same frozen deals, with its 95% interval: in Poker, where the
control is not 0, the paired interval is the one that says whether it beats Greedy.

Each run is one `tienlen.evaluate` over *deals* duplicate deals of a 4-player game:
the bot (player 0) and three `GreedyPlayer`s, every deal played under all four seat
rotations, so the bot holds every hand of every deal once. ``--bot greedy`` is the
control: four GreedyPlayers on the same deals (same ``--seed``), player 0's mean
being Greedy's own mean in the bot's place. The script prints the evaluation summary,
the bot's mean time per decision with more than one legal action (timed here, on
the serial executor; CPU and wall clock) and a JSON line for the record.

Several ``--bot`` names compare bots in one run: batch by batch, each bot plays the
same 25 deals in turn, so the machine's load hits them alike. With ``--seconds`` every
search bot gets that wall-clock limit per decision and no count limit (unless
``--worlds`` or ``--iterations`` is given): equal time per decision.

Targets (issue 12 §3): PIMC mean ≥ +0.4 stakes in classic, and ≥ 0.8 points above the
Greedy control in Poker; ISMCTS at least as strong as PIMC at equal time per decision.
This is a measurement, never a pass/fail test: it exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from tienlen import (
    EvaluationStats,
    GreedyPlayer,
    ISMCTSPlayer,
    Observation,
    PIMCPlayer,
    Player,
    RandomPlayer,
    RuleSet,
    evaluate,
    get_rules,
    play_game,
)
from tienlen.evaluation import DealSet, frozen_deals
from tienlen.game import Action


class Timed:
    """A player that times its inner player's decisions with more than one action.

    CPU time of this process (``time.process_time``), which on a shared machine
    does not count the other users, and wall time (``time.perf_counter``), which a
    ``seconds`` budget limits. Serial runs only.
    """

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.wall_seconds = 0.0
        self.decisions = 0

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        start, wall = time.process_time(), time.perf_counter()
        action = self.inner.act(observation, actions, rng)
        if len(actions) > 1:
            self.seconds += time.process_time() - start
            self.wall_seconds += time.perf_counter() - wall
            self.decisions += 1
        return action


_UNLIMITED = 10**6
"""The count budget of a search bot limited by ``--seconds`` alone."""


def make_bot(name: str, args: argparse.Namespace) -> Player:
    """The bot *name* with the budgets given on the command line, else its defaults."""
    budget: dict[str, Any] = {"seconds": args.seconds}
    if args.candidates is not None:
        budget["max_candidates"] = args.candidates
    count = "worlds" if name == "pimc" else "iterations"
    if getattr(args, count) is not None:
        budget[count] = getattr(args, count)
    elif args.seconds is not None:
        budget[count] = _UNLIMITED
    if name == "pimc":
        return PIMCPlayer(**budget)
    if name.startswith("ismcts"):
        return ISMCTSPlayer(
            **budget,
            root="ucb" if name == "ismcts-ucb" else "halving",
            exploration=args.exploration,
            opponent_candidates=args.opponent_candidates,
            iterations_per_world=args.per_world,
            baseline=not args.no_baseline,
        )
    return GreedyPlayer()


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def shard_range(deals: int, batch_size: int, shard: str) -> tuple[int, int]:
    """``(first_batch, deals)`` of shard ``"i/k"``: the i-th of k runs of whole batches."""
    index, count = (int(part) for part in shard.split("/"))
    batches = -(-deals // batch_size)
    first = index * batches // count
    end = (index + 1) * batches // count
    return first, min(deals, end * batch_size) - first * batch_size


def report(stats: EvaluationStats, record: dict[str, object]) -> None:
    low, high = stats.confidence_interval(0)
    record.update(
        deals=stats.deals,
        games=stats.games,
        mean=stats.mean_scores[0],
        ci95=[low, high],
        first=stats.places[0][0] / max(1, stats.games),
        last=stats.places[-1][0] / max(1, stats.games),
        rating=stats.ratings[0],
        stats=attrs.asdict(stats),
    )
    decisions = int(str(record["decisions"]))
    per = 1000 / decisions if decisions else 0.0
    record["cpu_ms_per_decision"] = float(str(record["cpu_seconds"])) * per
    record["wall_ms_per_decision"] = float(str(record["wall_decision_seconds"])) * per
    print(stats.summary())
    print(
        f"bot: {decisions} decisions, {record['cpu_ms_per_decision']:.1f} ms CPU, "
        f"{record['wall_ms_per_decision']:.1f} ms wall each"
    )
    print(json.dumps(record))
    sys.stdout.flush()


def merge(paths: Sequence[str]) -> None:
    """Merge the JSON lines of shard runs into one report per bot."""
    groups: dict[str, list[dict[str, object]]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.startswith("{"):
                record = json.loads(line)
                groups.setdefault(record["bot"], []).append(record)
    for records in groups.values():
        total: EvaluationStats | None = None
        for record in records:
            part = EvaluationStats(**record["stats"])  # type: ignore[arg-type]
            total = part if total is None else total + part
        assert total is not None
        merged = dict(records[0])
        merged["shard"] = f"{len(records)} merged"
        for key in ("decisions", "cpu_seconds", "wall_decision_seconds"):
            merged[key] = sum(float(str(r[key])) for r in records)
        merged["decisions"] = int(float(str(merged["decisions"])))
        merged["deal_scores"] = [x for r in records for x in r["deal_scores"]]  # type: ignore[attr-defined]
        print(f"{merged['rules']}, {merged['bot']}")
        report(total, merged)
    together = [g for g in groups.values() if g[0]["deal_scores"]]
    paired(
        [str(g[0]["bot"]) for g in together],
        [[x for r in g for x in r["deal_scores"]] for g in together],  # type: ignore[attr-defined]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="variant name")
    parser.add_argument(
        "--bot",
        nargs="+",
        choices=["pimc", "ismcts", "ismcts-ucb", "greedy"],
        default=["pimc"],
        help="ismcts: sequential halving at the root; ismcts-ucb: UCB1 there",
    )
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--seconds", type=float, help="wall-clock limit per decision")
    parser.add_argument("--worlds", type=int, help="PIMC worlds")
    parser.add_argument("--iterations", type=int, help="ISMCTS iterations")
    parser.add_argument("--candidates", type=int, help="max candidates")
    parser.add_argument(
        "--opponent-candidates", type=int, default=1, help="ISMCTS opponent moves"
    )
    parser.add_argument("--exploration", type=float, default=0.15, help="ISMCTS UCB c")
    parser.add_argument("--per-world", type=int, default=4, help="ISMCTS reuse")
    parser.add_argument(
        "--no-baseline", action="store_true", help="ISMCTS raw scores as rewards"
    )
    parser.add_argument("--shard", default="0/1", help="run shard i of k: 'i/k'")
    parser.add_argument(
        "--merge", nargs="+", metavar="FILE", help="merge shard outputs"
    )
    parser.add_argument("--quick", action="store_true", help="a few deals, tiny budget")
    parser.add_argument(
        "--ladder", action="store_true", help="the ladder table (docs/bots.md)"
    )
    parser.add_argument(
        "--ladder-rules", nargs="+", default=["classic", "poker"], help="its variants"
    )
    parser.add_argument(
        "--ladder-paired",
        action="store_true",
        help="the learned player less the Greedy control, paired by deal",
    )
    args = parser.parse_args(argv)
    if args.merge:
        merge(args.merge)
        return
    if args.ladder_paired:
        ladder_paired(args)
        return
    if args.ladder:
        ladder(args)
        return
    if args.quick:
        args.deals, args.worlds, args.iterations, args.candidates = 4, 2, 4, 3
    rules = get_rules(args.rules)
    bots = [Timed(make_bot(name, args)) for name in args.bot]
    start = time.perf_counter()
    if len(bots) == 1:
        first_batch, deals = shard_range(args.deals, _BATCH, args.shard)
        players: list[Player] = [
            bots[0],
            GreedyPlayer(),
            GreedyPlayer(),
            GreedyPlayer(),
        ]
        runs: list[tuple[EvaluationStats, list[int]]] = [
            (
                evaluate(
                    players,
                    deals,
                    rules=rules,
                    seed=args.seed,
                    batch_size=_BATCH,
                    first_batch=first_batch,
                ),
                [],
            )
        ]
    else:
        runs = compare(bots, rules, args)
    for bot, (stats, deal_scores) in zip(bots, runs, strict=True):
        print(f"{rules.name}, {bot.inner!r} in seat against 3 GreedyPlayers")
        record: dict[str, object] = {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "commit": commit(),
            "rules": rules.name,
            "bot": repr(bot.inner),
            "seed": args.seed,
            "shard": args.shard,
            "decisions": bot.decisions,
            "cpu_seconds": bot.seconds,
            "wall_decision_seconds": bot.wall_seconds,
            "wall_seconds": time.perf_counter() - start,
            "deal_scores": deal_scores,
        }
        report(stats, record)
    paired([repr(bot.inner) for bot in bots], [scores for _, scores in runs])


def compare(
    bots: Sequence[Timed], rules: RuleSet, args: argparse.Namespace
) -> list[tuple[EvaluationStats, list[int]]]:
    """Every bot on the same deals, deal by deal in turn (so load hits them alike).

    Deal ``d`` is batch ``d`` of size 1 of the seed: the same deals for every bot
    and every shard. Returns per bot its stats and its score summed over each deal.
    """
    first, deals = shard_range(args.deals, 1, args.shard)
    totals = [EvaluationStats.empty(4, 4) for _ in bots]
    scores: list[list[int]] = [[] for _ in bots]
    for deal in range(first, first + deals):
        for index, bot in enumerate(bots):
            players: list[Player] = [
                bot,
                GreedyPlayer(),
                GreedyPlayer(),
                GreedyPlayer(),
            ]
            one = evaluate(
                players, 1, rules=rules, seed=args.seed, batch_size=1, first_batch=deal
            )
            totals[index] += one
            scores[index].append(one.score_sums[0])
    return list(zip(totals, scores, strict=True))


def paired(names: Sequence[str], deal_scores: Sequence[Sequence[int]]) -> None:
    """Per pair of bots, the mean score difference over the same deals, with a 95% CI.

    The difference of each deal's mean (over its rotations) is one sample, so deal
    luck, shared by both bots, cancels: a far tighter interval than either bot's own.
    """
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            diffs = [
                (x - y) / 4 for x, y in zip(deal_scores[b], deal_scores[a], strict=True)
            ]
            if len(diffs) < 2:
                continue
            mean = statistics.fmean(diffs)
            half = 1.959963984540054 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            print(f"paired: bot {b} - bot {a} = {mean:+.3f} ± {half:.3f} per game")
            print(f"  bot {a}: {names[a]}\n  bot {b}: {names[b]}")


_BATCH = 25

_LADDER_BUDGET = {"worlds": 4, "iterations": 24, "candidates": 6}
"""The search bots' budgets in the ladder: 24 rollouts per decision each."""


def ladder_bots(rules: str, args: argparse.Namespace) -> list[tuple[str, Player]]:
    """The ladder's rungs for *rules*, weakest expected first, with their labels."""
    from tienlen.rl import pretrained  # noqa: PLC0415 - needs the rl extra (numpy)

    quick = args.quick
    worlds = args.worlds or (2 if quick else _LADDER_BUDGET["worlds"])
    iterations = args.iterations or (4 if quick else _LADDER_BUDGET["iterations"])
    width = args.candidates or (3 if quick else _LADDER_BUDGET["candidates"])
    return [
        ("RandomPlayer", RandomPlayer()),
        ("GreedyPlayer (control)", GreedyPlayer()),
        (f"pretrained({rules!r})", pretrained(rules)),
        (
            f"PIMCPlayer(worlds={worlds}, max_candidates={width})",
            PIMCPlayer(worlds=worlds, max_candidates=width),
        ),
        (
            f"ISMCTSPlayer(iterations={iterations}, max_candidates={width})",
            ISMCTSPlayer(iterations=iterations, max_candidates=width),
        ),
    ]


def deal_means(deal_set: DealSet, bot: Player) -> list[float]:
    """Player 0's mean score over the rotations of each deal, *bot* against three Greedy.

    The games `DealSet.evaluate` plays (the same deals and game seeds), deal by deal.
    """
    players = [bot, GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
    means = []
    for deal, start in enumerate(deal_set.states()):
        batch, index = divmod(deal, _BATCH)
        total = 0
        for rotation in range(4):
            seated = [players[(seat + rotation) % 4] for seat in range(4)]
            rng = random.Random(
                f"tienlen-eval:{deal_set.seed}:{batch}:{index}:{rotation}"
            )
            result = play_game(start, seated, rng).result
            assert result is not None
            total += result.scores[-rotation % 4]
        means.append(total / 4)
    return means


def ladder_paired(args: argparse.Namespace) -> None:
    """The learned player less the Greedy control, deal by deal on the frozen deals."""
    from tienlen.rl import pretrained  # noqa: PLC0415 - needs the rl extra (numpy)

    for name in args.ladder_rules:
        deal_set = frozen_deals(f"{get_rules(name).name}-150-v1")
        learned = deal_means(deal_set, pretrained(deal_set.rules))
        control = deal_means(deal_set, GreedyPlayer())
        diffs = [a - b for a, b in zip(learned, control, strict=True)]
        mean = statistics.fmean(diffs)
        half = 1.959963984540054 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(
            f"{deal_set.name}, commit {commit()}: pretrained({deal_set.rules.name!r}) "
            f"- GreedyPlayer control = {mean:+.3f} ± {half:.3f} per game (paired)"
        )


def ladder(args: argparse.Namespace) -> None:
    """Every rung against three GreedyPlayers on each variant's frozen deals: one table."""
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    head = commit()
    lines = [
        (
            f"Ladder, {date}, commit {head}: player 0 against three GreedyPlayers, "
            "every deal under all 4 seat rotations"
        ),
        "",
        (
            "| variant (deal set) | player | mean score per game (95% interval) "
            "| first / last | CPU per decision |"
        ),
        "|---|---|---|---|---|",
    ]
    for name in args.ladder_rules:
        if args.quick:
            rules = get_rules(name)
            deal_set = DealSet(
                name="quick", rules=rules, players=4, deals=3, seed="ladder-quick"
            )
        else:
            deal_set = frozen_deals(f"{get_rules(name).name}-150-v1")
        for label, bot in ladder_bots(deal_set.rules.name, args):
            timed = Timed(bot)
            greedy: list[Player] = [GreedyPlayer()] * 3
            stats = deal_set.evaluate([timed, *greedy])
            low, high = stats.confidence_interval(0)
            cpu = 1000 * timed.seconds / max(1, timed.decisions)
            first = stats.places[0][0] / stats.games
            last = stats.places[-1][0] / stats.games
            row = (
                f"| {deal_set.rules.name} ({deal_set.name}) | {label} "
                f"| {stats.mean_scores[0]:+.3f} ({low:+.3f}, {high:+.3f}) "
                f"| {first:.1%} / {last:.1%} | {cpu:.3f} ms |"
            )
            lines.append(row)
            print(row)
            record = {
                "date": date,
                "commit": head,
                "deal_set": deal_set.name,
                "rules": deal_set.rules.name,
                "bot": label,
                "deals": stats.deals,
                "games": stats.games,
                "mean": stats.mean_scores[0],
                "ci95": [low, high],
                "first": first,
                "last": last,
                "decisions": timed.decisions,
                "cpu_ms_per_decision": cpu,
            }
            print(json.dumps(record))
            sys.stdout.flush()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
