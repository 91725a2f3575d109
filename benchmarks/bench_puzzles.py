"""How fast `tienlen.analysis.generate_puzzles` mines puzzles, per preset (issue 37).

Run from the repository root::

    .venv/bin/python benchmarks/bench_puzzles.py                # 30 puzzles a preset, ~1 min
    .venv/bin/python benchmarks/bench_puzzles.py --count 300 --write src/tienlen/analysis/puzzle-sets

For each preset it generates ``--count`` puzzles at the generator's defaults (seed
``--seed``) and prints the self-play games played, the process CPU time, puzzles per
CPU second, games per puzzle, the mean length of the winning line and how many
puzzles have each theme. ``--write DIR`` also writes each set to ``DIR/<preset>.json``
(one puzzle a line): this is how the shipped sets were made. This is a measurement:
it exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

import tienlen
from tienlen.analysis import PuzzleSet, generate_puzzles
from tienlen.analysis.puzzles import shipped


def dumps(puzzles: PuzzleSet) -> str:
    """*puzzles* as JSON text, one puzzle a line (small diffs when a set changes)."""
    data = puzzles.to_json()
    entries = data.pop("puzzles")
    assert isinstance(entries, list)
    head = json.dumps(data, ensure_ascii=False)[:-1]
    body = ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in entries)
    return f'{head}, "puzzles": [\n{body}\n]}}\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30, help="puzzles per preset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", nargs="*", default=list(shipped()))
    parser.add_argument(
        "--write", type=Path, help="write each set to DIR/<preset>.json"
    )
    args = parser.parse_args()
    print(f"tienlen {tienlen.__version__}, compiled core: {tienlen.COMPILED}")
    header = (
        "preset        puzzles  games  CPU s  puzzles/s  games/puzzle  moves  themes"
    )
    print(header)
    for name in args.rules:
        start = time.process_time()
        puzzles = generate_puzzles(name, args.count, args.seed)
        seconds = time.process_time() - start
        found = len(puzzles.puzzles)
        moves = sum(puzzle.moves for puzzle in puzzles.puzzles) / max(found, 1)
        themes = collections.Counter(
            theme for puzzle in puzzles.puzzles for theme in puzzle.themes
        )
        print(
            f"{name:12}  {found:7}  {puzzles.games:5}  {seconds:5.1f}  "
            f"{found / seconds:9.2f}  {puzzles.games / max(found, 1):12.1f}  "
            f"{moves:5.1f}  {dict(sorted(themes.items()))}",
            flush=True,
        )
        if args.write is not None:
            path = args.write / f"{puzzles.rules}.json"
            path.write_text(dumps(puzzles), encoding="utf-8")


if __name__ == "__main__":
    main()
