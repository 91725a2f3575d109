"""Measure the search bots' strength: one bot against three GreedyPlayers, duplicate deals.

Run from the repository root::

    .venv/bin/python benchmarks/bench_strength.py --rules classic --bot pimc --deals 400
    .venv/bin/python benchmarks/bench_strength.py --rules poker --bot greedy --deals 400
    .venv/bin/python benchmarks/bench_strength.py --quick      # smoke run, seconds

Each run is one `tienlen.evaluate` over *deals* duplicate deals of a 4-player game:
the bot (player 0) and three `GreedyPlayer`s, every deal played under all four seat
rotations, so the bot holds every hand of every deal once. ``--bot greedy`` is the
control: four GreedyPlayers on the same deals (same ``--seed``), player 0's mean
being Greedy's own mean in the bot's place. The script prints the evaluation summary,
the bot's mean seconds per decision with more than one legal action (timed here, on
the serial executor) and a JSON line for the record.

Targets (issue 12 §3): PIMC mean ≥ +0.4 stakes in classic, and ≥ 0.8 points above the
Greedy control in Poker; ISMCTS at least as strong as PIMC at equal time per decision.
This is a measurement, never a pass/fail test: it exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

from tienlen import (
    EvaluationStats,
    GreedyPlayer,
    ISMCTSPlayer,
    Observation,
    PIMCPlayer,
    Player,
    evaluate,
    get_rules,
)
from tienlen.game import Action


class Timed:
    """A player that times its inner player's decisions with more than one action.

    CPU time of this process (``time.process_time``), not wall time: on a shared
    machine the wall clock measures the other users too. Serial runs only.
    """

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.decisions = 0

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        start = time.process_time()
        action = self.inner.act(observation, actions, rng)
        if len(actions) > 1:
            self.seconds += time.process_time() - start
            self.decisions += 1
        return action


def make_bot(args: argparse.Namespace) -> Player:
    if args.bot == "pimc":
        return PIMCPlayer(worlds=args.worlds, max_candidates=args.candidates)
    if args.bot == "ismcts":
        return ISMCTSPlayer(
            iterations=args.iterations,
            max_candidates=args.candidates,
            exploration=args.exploration,
            opponent_candidates=args.opponent_candidates,
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
    seconds = float(str(record["cpu_seconds"]))
    record["cpu_ms_per_decision"] = seconds / decisions * 1000 if decisions else 0.0
    print(stats.summary())
    print(
        f"bot: {decisions} decisions, {record['cpu_ms_per_decision']:.1f} ms CPU each"
    )
    print(json.dumps(record))
    sys.stdout.flush()


def merge(paths: Sequence[str]) -> None:
    """Merge the JSON lines of shard runs into one report."""
    records = [json.loads(Path(path).read_text().splitlines()[-1]) for path in paths]
    total: EvaluationStats | None = None
    for record in records:
        part = EvaluationStats(**record["stats"])
        total = part if total is None else total + part
    assert total is not None
    merged = dict(records[0])
    merged["shard"] = f"{len(records)} merged"
    merged["decisions"] = sum(int(r["decisions"]) for r in records)
    merged["cpu_seconds"] = sum(float(r["cpu_seconds"]) for r in records)
    print(f"{merged['rules']}, {merged['bot']}")
    report(total, merged)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="variant name")
    parser.add_argument("--bot", choices=["pimc", "ismcts", "greedy"], default="pimc")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--worlds", type=int, default=8, help="PIMC worlds")
    parser.add_argument("--iterations", type=int, default=32, help="ISMCTS iterations")
    parser.add_argument("--candidates", type=int, default=8, help="max candidates")
    parser.add_argument(
        "--opponent-candidates", type=int, default=1, help="ISMCTS opponent moves"
    )
    parser.add_argument("--exploration", type=float, default=0.7, help="ISMCTS UCB c")
    parser.add_argument("--shard", default="0/1", help="run shard i of k: 'i/k'")
    parser.add_argument(
        "--merge", nargs="+", metavar="FILE", help="merge shard outputs"
    )
    parser.add_argument("--quick", action="store_true", help="a few deals, tiny budget")
    args = parser.parse_args(argv)
    if args.merge:
        merge(args.merge)
        return
    if args.quick:
        args.deals, args.worlds, args.iterations, args.candidates = 4, 2, 4, 3
    rules = get_rules(args.rules)
    bot = Timed(make_bot(args))
    players: list[Player] = [bot, GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
    first_batch, deals = shard_range(args.deals, _BATCH, args.shard)
    start = time.perf_counter()
    stats = evaluate(
        players,
        deals,
        rules=rules,
        seed=args.seed,
        batch_size=_BATCH,
        first_batch=first_batch,
    )
    print(
        f"{rules.name}, {args.bot} in seat against 3 GreedyPlayers, shard {args.shard}"
    )
    record: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit(),
        "rules": rules.name,
        "bot": repr(bot.inner),
        "seed": args.seed,
        "shard": args.shard,
        "decisions": bot.decisions,
        "cpu_seconds": bot.seconds,
        "wall_seconds": time.perf_counter() - start,
    }
    report(stats, record)


_BATCH = 25


if __name__ == "__main__":
    main()
