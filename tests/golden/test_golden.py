"""The golden corpus: recorded games of every preset replay exactly (RULES §1–§6).

Every engine change must keep these green: the same legal actions at every step (their
number and a digest of the sorted list), the same finishing order, scores and score
items. The files are written by ``python -m tests.golden.generate``; the house-rule
games of RULES §12 (``tests/golden/house/``) by ``python -m tests.golden.generate house``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from tests.golden.generate import (
    ENDGAMES_PER_FILE,
    HOUSE_RULES,
    HOUSE_TABLES,
    TABLES,
    endgame_path_for,
    game_line,
    games_for,
    path_for,
    step_digest,
)
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    ScoreKind,
    Scoring,
)
from tienlen.records import from_json
from tienlen.rules import BaseRules, RuleSet

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
    _replay(path)


def _replay(path: Path) -> Counter[str]:
    """Replay every game of *path*: its legal actions, result and score items as recorded.

    Returns how many games saw a player rot and a chop, and how many jump-ins and
    plays that unlocked a player who had passed (RULES §12.13) they hold.
    """
    events: Counter[str] = Counter()
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
                events["jumped"] += state.to_act not in (None, action.player)
                after = state.apply(action)
                events["reopened"] += bool(  # a play unlocked a player (RULES §12.13)
                    after.top is not None and state.locked & ~after.locked
                )
                state = after
        assert state.result is not None, (path.name, number)
        assert counts == entry["counts"], (path.name, number)
        assert digest.hexdigest() == entry["digest"], (path.name, number)
        assert [str(item) for item in state.result.items] == entry["items"], (
            path.name,
            number,
        )
        events["rotted"] += bool(state.rotted)
        events["chopped"] += any(
            item.kind is ScoreKind.CHOP for item in state.result.items
        )
    return events


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


# -- house-rule tables (RULES §12) ------------------------------------------------------


def test_house_corpus_covers_every_house_table() -> None:
    """Each house-rule table has its dealt games and its endgames, under its own rules.

    No table is a preset, and every record names the rule set it was played under,
    settings included, so a replay cannot silently fall back to a preset's rules.
    """
    presets = {
        rules.name for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER)
    }
    assert len({rules.name for rules in HOUSE_RULES}) == len(HOUSE_RULES)
    assert not presets & {rules.name for rules in HOUSE_RULES}
    assert {rules.name for rules, _ in HOUSE_TABLES} == {r.name for r in HOUSE_RULES}
    for rules, players in HOUSE_TABLES:
        for path, games in (
            (path_for(rules, players), games_for(rules)),
            (endgame_path_for(rules, players), ENDGAMES_PER_FILE),
        ):
            lines = path.read_text(encoding="utf-8").splitlines()
            assert len(lines) == games, path.name
            for line in lines[:5]:
                game = from_json(json.loads(line)["record"])
                assert game.rules == rules, path.name
                assert game.start().players == players


HOUSE_FILES = [
    (rules, path)
    for rules, players in HOUSE_TABLES
    for path in (path_for(rules, players), endgame_path_for(rules, players))
]


@pytest.mark.parametrize(
    ("rules", "path"), HOUSE_FILES, ids=[path.stem for _, path in HOUSE_FILES]
)
def test_house_games_replay_identically(rules: BaseRules, path: Path) -> None:
    """House-rule games replay with the recorded legal actions at every step and result.

    Pins that the legal lists under §12 settings stay what `is_legal` accepts (issue
    20 finding 3: with no going out on a 2 or a bomb, every single was dropped). The
    games reach what the settings change: a stuck leader rots (§12.12) in the
    endgames of a table refusing to go out on a 2, Poker tables chop, and a Poker
    table refusing to go out on a 2 or a bomb sees jump-ins.
    """
    events = _replay(path)
    endgames = path.stem.endswith("-endgames")
    if rules.no_going_out_with_two and endgames:
        assert events["rotted"] > 0
    if rules.scoring is Scoring.POKER_POINTS:
        assert events["chopped"] > 0
    if path.stem == "poker-no-two-out-4p":  # jump-ins with limits on going out
        assert events["jumped"] > 0
    if rules.bomb_reopens_trick and not endgames:  # RULES §12.13
        assert events["reopened"] > 0


@pytest.mark.parametrize(
    ("rules", "players"),
    HOUSE_TABLES,
    ids=[path_for(rules, players).stem for rules, players in HOUSE_TABLES],
)
def test_generator_writes_the_stored_house_games(rules: RuleSet, players: int) -> None:
    """The generator writes the first stored house games byte for byte, endgames too."""
    for path, endgames in (
        (path_for(rules, players), False),
        (endgame_path_for(rules, players), True),
    ):
        lines = path.read_text(encoding="utf-8").splitlines()
        for game in range(3):
            fresh = game_line(rules, players, game, endgames=endgames)
            assert fresh == lines[game], (path.name, game)
