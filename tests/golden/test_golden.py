"""The golden corpus: recorded games of every preset replay exactly (RULES §1–§6).

Every engine change must keep these green: the same legal actions at every step (their
number and a digest of the sorted list), the same finishing order, scores and score
items. The files are written by ``python -m tests.golden.generate``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.golden.generate import TABLES, games_for, path_for, step_digest
from tienlen.records import from_json

CORPUS = [path_for(rules, players) for rules, players in TABLES]


def test_corpus_covers_every_preset_and_table_size() -> None:
    """Each preset at 2–4 players and classic at 5–8 has its file of games."""
    assert len(CORPUS) == 19
    for rules, players in TABLES:
        lines = path_for(rules, players).read_text(encoding="utf-8").splitlines()
        assert len(lines) == games_for(rules)


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.stem)
def test_recorded_games_replay_identically(path: Path) -> None:
    """Replaying each record gives the recorded legal actions, result and score items."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        entry = json.loads(line)
        game = from_json(entry["record"])  # replays, and checks order and scores
        state = game.start()
        digest = hashlib.sha256()
        counts = []
        for action in (*game.actions, None):
            count, listed = step_digest(state)
            counts.append(count)
            digest.update(listed.encode())
            digest.update(b"\n")
            if action is not None:
                state = state.apply(action)
        assert state.result is not None, (path.name, number)
        assert counts == entry["counts"], (path.name, number)
        assert digest.hexdigest() == entry["digest"], (path.name, number)
        assert [str(item) for item in state.result.items] == entry["items"], (
            path.name,
            number,
        )
