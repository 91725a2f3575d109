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

from tests.golden.generate import TABLES, game_line, games_for, path_for, step_digest
from tienlen.records import from_json
from tienlen.rules import RuleSet

CORPUS = [path_for(rules, players) for rules, players in TABLES]


def test_corpus_covers_every_preset_and_table_size() -> None:
    """Each preset at 2–4 players and two-deck classic at 5–8 has its file of games."""
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


@pytest.mark.parametrize(
    ("rules", "players"), TABLES, ids=[path.stem for path in CORPUS]
)
def test_generator_deals_the_stored_games(rules: RuleSet, players: int) -> None:
    """The generator reproduces the stored games (hands, actions, counts, digest, items).

    The 5–8 player files were written when `CLASSIC` seated eight on two decks; the
    generator now plays them under `CLASSIC_TWO_DECKS` (RULES §2.1) and must deal and
    play the same games. Stored records may be of format 1, generated ones of 2.
    """
    lines = path_for(rules, players).read_text(encoding="utf-8").splitlines()
    for game in range(3):
        stored, fresh = (
            json.loads(lines[game]),
            json.loads(game_line(rules, players, game)),
        )
        for key in ("hands", "actions", "dealer", "leader", "first_game"):
            assert fresh["record"][key] == stored["record"][key], (key, game)
        for key in ("counts", "digest", "items"):
            assert fresh[key] == stored[key], (key, game)
        assert fresh["record"]["rules"]["name"] == rules.name
