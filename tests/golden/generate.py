"""Write the golden game corpus: seeded games of every preset and table size (RULES §1–§6).

Run from the repository root as ``python -m tests.golden.generate`` to (re)write the
files; the corpus is committed and must never change unless a rule change is intended
(and then listed under **Rules** in CHANGELOG.md). Each line of
``tests/golden/<preset>-<players>p.jsonl`` is one game: its record (`tienlen.records`
format), the number of legal actions at every step (the last entry: the final state,
0), a digest of every step's sorted legal actions and the result's score items, so that `test_golden.py` pins the
whole game, not only the actions taken. python-chess keeps its perft files the same way.

Games are seeded; even games choose uniformly among the legal actions (Poker jump-ins
included), odd games eagerly (bombs first, then plays, see `choose`). Every fourth game is a later game of a match led by a given seat, every
eighth follows an instant win (Poker leads with 3♠ again then, D-16).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Final

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    Action,
    GameState,
    Play,
)
from tienlen.records import record, to_json
from tienlen.rules import RuleSet

HERE: Final = Path(__file__).parent
GAMES_PER_FILE: Final = 200
POKER_GAMES_PER_FILE: Final = 400
"""Poker's scoring (chops, frozen players, end penalties) needs more games to show up."""
TABLES: Final[tuple[tuple[RuleSet, int], ...]] = (
    *(
        (rules, n)
        for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER)
        for n in (2, 3, 4)
    ),
    *((CLASSIC_TWO_DECKS, n) for n in (5, 6, 7, 8)),
)
"""Every preset at 2, 3 and 4 players (Kenneth Lo's three on 17 cards and the spare),
and `CLASSIC_TWO_DECKS` at 5–8 players."""
CORPUS_NAMES: Final = {CLASSIC_TWO_DECKS.name: CLASSIC.name}
"""The two-deck games were recorded when `CLASSIC` still seated five to eight: their
files and seeds keep the name ``classic``, so the generator deals the same games."""


def corpus_name(rules: RuleSet) -> str:
    """The name the corpus files and seeds of *rules* carry."""
    return CORPUS_NAMES.get(rules.name, rules.name)


def games_for(rules: RuleSet) -> int:
    """How many games the corpus holds for each table size of *rules*."""
    return POKER_GAMES_PER_FILE if rules.name == POKER.name else GAMES_PER_FILE


def path_for(rules: RuleSet, players: int) -> Path:
    """The corpus file of *rules* at a table of *players*."""
    return HERE / f"{corpus_name(rules)}-{players}p.jsonl"


def step_digest(state: GameState) -> tuple[int, str]:
    """The number of legal actions of *state* and a digest of them, in any order."""
    actions = sorted(f"{action.player}:{action}" for action in state.legal_actions())
    return len(actions), "|".join(actions)


def deal(rules: RuleSet, players: int, game: int) -> GameState:
    """Game *game* of the corpus of *rules* at *players*: a first game, or a later one."""
    seed = f"tienlen-golden:{corpus_name(rules)}:{players}:{game}"
    rng = random.Random(seed)
    first_game = game % 4 != 3
    after_instant_win = game % 8 == 7
    leader = None
    if not rules.lead_must_include(
        first_game=first_game, after_instant_win=after_instant_win
    ):
        leader = rng.randrange(players)
    return GameState.deal(
        rules,
        players,
        rng,
        first_game=first_game,
        leader=leader,
        after_instant_win=after_instant_win,
    )


def choose(state: GameState, rng: random.Random, *, eager: bool) -> Action:
    """A random legal action; an *eager* player prefers bombs, then any play, to passing.

    Eager games reach the rarer rules (chops, jump-ins, frozen players, end penalties)
    far more often than uniform play.
    """
    actions = state.legal_actions()
    if eager:
        plays = [action for action in actions if isinstance(action, Play)]
        bombs = [play for play in plays if _is_bomb(state.rules, play)]
        draw = rng.random()
        if bombs and draw < 0.6:
            return bombs[rng.randrange(len(bombs))]
        if plays and draw < 0.9:
            return plays[rng.randrange(len(plays))]
    return actions[rng.randrange(len(actions))]


def _is_bomb(rules: RuleSet, play: Play) -> bool:
    combo = rules.classify(play.cards)
    return combo is not None and rules.is_bomb(combo.shape)


def play_out(
    state: GameState, rng: random.Random, *, eager: bool
) -> tuple[GameState, list[int], str]:
    """Play *state* to the end with random actions (see `choose`); the counts and digest."""
    counts: list[int] = []
    digest = hashlib.sha256()
    while True:
        count, listed = step_digest(state)
        counts.append(count)
        digest.update(listed.encode())
        digest.update(b"\n")
        if state.is_over:
            return state, counts, digest.hexdigest()
        state = state.apply(choose(state, rng, eager=eager))


def game_line(rules: RuleSet, players: int, game: int) -> str:
    """One line of the corpus: the record, the counts and the digest of game *game*."""
    start = deal(rules, players, game)
    rng = random.Random(f"tienlen-golden-play:{corpus_name(rules)}:{players}:{game}")
    final, counts, digest = play_out(start, rng, eager=game % 2 == 1)
    assert final.result is not None
    entry = {
        "record": to_json(record(final)),
        "counts": counts,
        "digest": digest,
        "items": [str(item) for item in final.result.items],
    }
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def main() -> None:
    """Write every corpus file."""
    for rules, players in TABLES:
        lines = [game_line(rules, players, game) for game in range(games_for(rules))]
        path_for(rules, players).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path_for(rules, players).name}: {len(lines)} games")  # noqa: T201


if __name__ == "__main__":
    main()
