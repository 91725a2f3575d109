"""The issue-21 prototype's compiled design against tienlen's loops, in the same run.

Run from the repository root, on a compiled install (``tienlen.COMPILED``)::

    .venv/bin/python benchmarks/bench_prototype.py             # about a minute
    .venv/bin/python benchmarks/bench_prototype.py --rounds 3  # a quick look

Issue 21's compiled targets come from a prototype: ``../shared/perf/designs/cstep.py``,
a state of eight `Final` fields whose actions are plain ints, compiled with mypyc
together with P's own move generator (``reference_core.py``, compiled as ``pgen``).
This script builds that prototype in a temporary directory and times, as speed ratios
to P in the same interleaved rounds (P's ``play_game(rng, 4, full_ranking=True)``):

- the **prototype**: ``actions = state.legal_actions()`` (a list of ints),
  ``state.apply(actions[int(rng.random() * len(actions))])``;
- **tienlen, lazy indexing**: the same loop on `GameState` (a `Play` per pick);
- **tienlen, list()**: ``list(state.legal_actions())`` each turn;
- **tienlen, ints**: ``state.legal_actions().masks`` and `GameState.apply_mask`.

``reference_core.py`` does not type-check as mypyc needs, so four annotations are
added to the copy (`PGEN_FIXES`); the code is otherwise P's. The script stops with a
message when a fix no longer applies. This is a measurement: it exits 0 whatever the
ratios.
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_targets import find_perf_dir

import tienlen
from tienlen import CLASSIC, GameState

GAMES = 200
"""Games per timed call."""

PGEN_FIXES = (
    ("import random\n", "import random\nfrom collections.abc import Sequence\n"),
    ("        tops = SUB[end]", "        tops: Sequence[int] = SUB[end]"),
    ("            partial = SUB[start]", "            partial: Sequence[int] = SUB[start]"),
    ("        allowed = {C_SINGLE:", "        allowed: frozenset[int] | None = {C_SINGLE:"),
    ("            return\n    x = _counts(h)", "            return\n    assert allowed is not None\n    x = _counts(h)"),
    ("    out: list[int] = []\n    if not to_beat:", "    out: list[int] = []\n    nibs: list[int] | None\n    if not to_beat:"),
)  # fmt: skip
"""Annotations mypyc needs in P's generator: (text, replacement), each applied once."""


def build_prototype(perf: Path, where: Path) -> None:
    """Compile ``designs/cstep.py`` and P's generator (as ``pgen``) into *where*."""
    source = (perf / "reference_core.py").read_text(encoding="utf-8")
    for old, new in PGEN_FIXES:
        if source.count(old) != 1:
            sys.exit(f"reference_core.py changed: cannot add {new.strip()!r}")
        source = source.replace(old, new)
    (where / "pgen.py").write_text(source, encoding="utf-8")
    shutil.copy(perf / "designs" / "cstep.py", where / "cstep.py")
    command = [sys.executable, "-m", "mypyc", "pgen.py", "cstep.py"]
    done = subprocess.run(  # noqa: S603  # this interpreter's own mypyc
        command, cwd=where, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"mypyc failed:\n{done.stdout}{done.stderr}")


def loops(proto: object) -> dict[str, Callable[[random.Random], None]]:
    """Each row's loop over `GAMES` games, given the compiled prototype module."""
    deal_cstate = proto.deal_cstate  # type: ignore[attr-defined]

    def prototype(rng: random.Random) -> None:
        for _ in range(GAMES):
            state = deal_cstate(rng)
            while not state.is_over:
                actions = state.legal_actions()
                state = state.apply(actions[int(rng.random() * len(actions))])

    def lazy(rng: random.Random) -> None:
        for _ in range(GAMES):
            state = GameState.deal(CLASSIC, 4, rng)
            while not state.is_over:
                actions = state.legal_actions()
                state = state.apply(actions[int(rng.random() * len(actions))])

    def listed(rng: random.Random) -> None:
        for _ in range(GAMES):
            state = GameState.deal(CLASSIC, 4, rng)
            while not state.is_over:
                plays = list(state.legal_actions())
                state = state.apply(plays[int(rng.random() * len(plays))])

    def ints(rng: random.Random) -> None:
        for _ in range(GAMES):
            state = GameState.deal(CLASSIC, 4, rng)
            while not state.is_over:
                masks = state.legal_actions().masks
                state = state.apply_mask(masks[int(rng.random() * len(masks))])

    return {
        "prototype (cstep + pgen, compiled), int actions": prototype,
        "tienlen, lazy indexing (a Play per pick)": lazy,
        "tienlen, list(legal_actions())": listed,
        "tienlen, ints (Actions.masks + apply_mask)": ints,
    }


def main(argv: list[str] | None = None) -> None:
    """Build the prototype, time every row against P, print the medians."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds")
    args = parser.parse_args(argv)
    perf = find_perf_dir()
    if perf is None:
        sys.exit("P's folder (../shared/perf) is not beside the checkout")
    if not tienlen.COMPILED:
        print("note: tienlen runs pure here; the prototype is compiled")
    with tempfile.TemporaryDirectory() as where:
        build_prototype(perf, Path(where))
        sys.path[:0] = [where, str(perf)]
        reference = importlib.import_module("reference_core")
        rows = loops(importlib.import_module("cstep"))

        def p_games(rng: random.Random) -> None:
            for _ in range(GAMES):
                reference.play_game(rng, 4, full_ranking=True)

        for run in (p_games, *rows.values()):  # warm every cache first
            run(random.Random(0))
        ratios: dict[str, list[float]] = {name: [] for name in rows}
        p_times: list[float] = []
        for round_ in range(args.rounds):
            for name, run in rows.items():  # each row right after P, on P's seed
                start = time.perf_counter()
                p_games(random.Random(round_))
                middle = time.perf_counter()
                run(random.Random(round_))
                end = time.perf_counter()
                ratios[name].append((middle - start) / (end - middle))
                p_times.append((middle - start) / GAMES)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"tienlen.COMPILED={tienlen.COMPILED}, {args.rounds} rounds, {stamp}")
    print(f"P: {statistics.median(p_times) * 1e6:.0f} us a game")
    for name, found in ratios.items():
        low, high = min(found), max(found)
        print(f"{name:50s} {statistics.median(found):5.2f}x P  ({low:.2f}-{high:.2f})")


if __name__ == "__main__":
    main()
