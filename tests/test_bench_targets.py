"""Smoke test of ``benchmarks/bench_targets.py``, issue 21's target table (a measurement).

The script never fails on a ratio; this test only checks that it runs on the installed
build, times every row of the table for the rule set asked, and writes the JSON and
Markdown it promises. One round of a millisecond per case keeps it short.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tienlen

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py``, imported (skips when it is not there)."""
    if not (BENCHMARKS / f"{name}.py").is_file():  # pragma: no cover
        pytest.skip("benchmarks/ is not beside the tests")
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_bench_targets_writes_every_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: every target row printed and written (classic only, to keep it short)."""
    bench_targets = benchmark("bench_targets")
    out_json, out_md = tmp_path / "t.json", tmp_path / "t.md"
    argv = ["--rounds", "1", "--target", "0.001", "--hands", "3", "--rules", "classic"]
    argv += ["--json", str(out_json), "--markdown", str(out_md)]
    assert bench_targets.main(argv) == 0
    payload = json.loads(out_json.read_text(encoding="utf-8"))
    assert payload["env"]["compiled"] is tienlen.COMPILED
    rows = payload["rows"]
    labels = [target.label for target in bench_targets.TARGETS]
    game_rows = [label for label in labels if "decisions/s" not in label]
    expected = [(label, "classic") for label in game_rows]
    expected += [(label, "classic") for label in labels if label not in game_rows]
    assert [(row["row"], row["rules"]) for row in rows] == expected
    for row in rows:
        measured = row["ratio"] is not None
        assert measured is (row["met"] is not None)
        assert measured or row["note"], row
    printed = capsys.readouterr().out
    table = out_md.read_text(encoding="utf-8").splitlines()
    assert len(table) == 2 + len(rows)
    for label in labels:
        assert label in printed
        assert any(line.startswith(f"| {label} |") for line in table)


def test_bench_prototype_patches_p_generator_exactly() -> None:
    """``bench_prototype.py``'s annotations of P's generator each apply exactly once.

    The prototype it times must be P's code with annotations added, and the script
    stops when one no longer applies.
    """
    bench_prototype = benchmark("bench_prototype")
    perf = benchmark("bench_targets").find_perf_dir()
    if perf is None or not (perf / "designs" / "cstep.py").is_file():
        pytest.skip("P's folder (../shared/perf) is not beside the checkout")
    source = (perf / "reference_core.py").read_text(encoding="utf-8")
    for old, new in bench_prototype.PGEN_FIXES:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    compile(source, "pgen.py", "exec")  # still Python
