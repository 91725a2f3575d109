"""Games over ``tienlen mcp``: the SDK's stdio client plays the five presets (issue 38 item 7).

Run from the repository root, with the ``mcp`` extra installed::

    .venv/bin/python benchmarks/mcp_games.py                 # 1,000 games, at most 30 min
    .venv/bin/python benchmarks/mcp_games.py --games 100 --seconds 120

``python -m tienlen mcp`` runs in a subprocess; the MCP SDK's own client
(`mcp.ClientSession` over `mcp.client.stdio.stdio_client`) plays through it with the
scripted agent of tests/mcp/harness.py: legal actions by index or notation, and now
and then an illegal one, whose refusal must come in English and Vietnamese and
change nothing. Every answer must equal the one the same tools give in process, and
name no card another seat holds. The presets take turns, game by game.

Prints one line of figures; exits 1 when an illegal action was accepted, a card
leaked or an answer differed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the scripted agent lives with the tests
    sys.path.insert(0, str(ROOT))

from tests.mcp.harness import PRESETS, ScriptedAgent, Table, Tally
from tests.mcp.test_stdio import connect, remote


async def play(games: int, seconds: float, seed: int) -> tuple[Tally, float]:
    """Play up to *games* games over stdio, stopping after *seconds*."""
    tally = Tally()
    start = time.perf_counter()
    async with connect() as session:
        agent = ScriptedAgent(Table(tally, remote(session)), random.Random(seed))
        for number in range(games):
            if time.perf_counter() - start > seconds:
                break
            await agent.play(PRESETS[number % len(PRESETS)], seed * 1_000_000 + number)
    return tally, time.perf_counter() - start


def main() -> int:
    """Run the games; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args()
    tally, elapsed = asyncio.run(play(args.games, args.seconds, args.seed))
    print(
        f"mcp over stdio: {tally.games} games ({', '.join(PRESETS)}), "
        f"{tally.decisions} decisions ({tally.jump_in_offers} jump-in offers), "
        f"{tally.refused} illegal actions refused, {tally.illegal_accepted} accepted, "
        f"{tally.answers_checked} answers checked, {len(tally.leaks)} leaks, "
        f"{len(tally.problems)} other problems, {elapsed:.0f} s"
    )
    for line in (tally.leaks + tally.problems)[:5]:
        print(f"  {line[:300]}")
    bad = tally.illegal_accepted or tally.leaks or tally.problems
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
