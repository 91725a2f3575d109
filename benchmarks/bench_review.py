"""How long the server takes to review a finished hand (the page's Review), per hand.

Run from the repository root::

    .venv/bin/python benchmarks/bench_review.py              # 6 hands, about 20 s
    .venv/bin/python benchmarks/bench_review.py --budget 32  # another budget

Each hand is a 4-player classic hand of Greedy self-play (seeds 1, 2, ...), reviewed
as the server does it: `tienlen.server.reviews.review_json` on the hand's record, in
the server's pool (`tienlen.server.tables.process_workers`: one spawned worker at
niceness +10), one review at a time. The worker is started and warmed up on one
hand first. Reported per hand: the wall time from submit to answer, the decisions
valued. This is a measurement: it exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
from tienlen.records import dumps, record
from tienlen.server.reviews import REVIEW_BUDGET, review_json
from tienlen.server.tables import process_workers


def main() -> None:
    """Review ``--hands`` hands at ``--budget`` and print the times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--budget", type=int, default=REVIEW_BUDGET)
    args = parser.parse_args()
    texts = []
    for seed in range(1, args.hands + 2):
        deal = GameState.deal(CLASSIC, players=4, seed=seed)
        game = play_game(deal, [GreedyPlayer()] * 4, random.Random(seed))
        texts.append(dumps(record(game)))
    pool = process_workers(1)
    try:
        pool.submit(review_json, texts[0], 1).result()  # the worker's start-up
        times = []
        for number, text in enumerate(texts[1:], 1):
            start = time.perf_counter()
            body = pool.submit(review_json, text, args.budget).result()
            seconds = time.perf_counter() - start
            times.append(seconds)
            analysis = body["analysis"]
            assert isinstance(analysis, dict)
            decisions = analysis["decisions"]
            assert isinstance(decisions, list)
            actions = body["actions"]
            assert isinstance(actions, list)
            print(
                f"hand {number}: {len(actions)} actions, {len(decisions)} decisions,"
                f" {seconds:.2f} s"
            )
    finally:
        pool.shutdown()
    print(
        f"budget {args.budget}: median {statistics.median(times):.2f} s a hand,"
        f" slowest {max(times):.2f} s ({len(times)} hands)"
    )


if __name__ == "__main__":
    main()
