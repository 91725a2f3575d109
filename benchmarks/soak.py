"""Soak: many games of every preset at every table size, with an invariant checker.

Run from the repository root, for a number of seconds (default 60)::

    .venv/bin/python benchmarks/soak.py 300

Reference bots play; after every action the checker asserts that no card was lost or
duplicated (RULES §1.1), that the action was one of the legal actions of the seat
the engine named (RULES §1.5), that a forged action is refused by `check`,
`is_legal`, `apply` and membership alike and changes nothing; every game must end
within a bound, its scores must be its items' and every payment zero-sum (RULES
§2.5, §6.6), and its record and its
pickle must round-trip. Prints one line of figures for docs/reliability.md; exits 1
on the first broken invariant, with the seed to replay it.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import time
from datetime import UTC, datetime

from tienlen import (
    RULESETS,
    BaseRules,
    GameState,
    GreedyPlayer,
    IllegalPlayError,
    Pass,
    Play,
    Player,
    RandomPlayer,
)
from tienlen import records as records_module
from tienlen.players import _play

MAX_ACTIONS = 5_000
"""No game may last longer (termination)."""


class SoakError(AssertionError):
    """An invariant broke."""


class Checker:
    """Checks every action of a game as it is applied (the `_play` tally protocol)."""

    def __init__(self) -> None:
        self.actions = 0

    def count(self, state: GameState, action: Play | Pass) -> None:
        """Check *state* and *action* before the engine applies it."""
        self.actions += 1
        if self.actions > MAX_ACTIONS:
            raise SoakError("the game does not end")
        dealt = sum(len(hand) for hand in state.dealt)
        held = sum(len(hand) for hand in state.hands)
        played = 0
        union = 0
        for start, hand in zip(state.dealt, state.hands, strict=True):
            played += len(start - hand)
            if hand.mask & ~start.mask:
                raise SoakError("a player holds a card not dealt to them")
            union |= hand.mask
        if held + played != dealt:
            raise SoakError("cards were lost or created")
        if action not in state.legal_actions():
            raise SoakError(f"{action!r} is not a legal action")
        forged = Pass(player=(action.player + 1) % state.players)
        if forged not in state.legal_actions():
            before = repr(state)
            try:
                state.apply(forged)
            except IllegalPlayError:
                pass
            else:
                raise SoakError(f"{forged!r} was applied")
            if state.is_legal(forged) or repr(state) != before:
                raise SoakError("a refusal disagreed or changed the state")


def soak_game(rules: BaseRules, players: list[Player], seed: int) -> int:
    """Play and check one game; its number of actions."""
    rng = random.Random(seed)
    start = GameState.deal(rules, len(players), rng)
    checker = Checker()
    final = _play(start, players, rng, checker)
    result = final.result
    if result is None:
        raise SoakError("the game ended without a result")
    expected = [0] * len(players)
    for item in result.items:  # a payment moves points from its payer: zero-sum
        expected[item.player] += item.points
        if item.payer is not None:
            expected[item.payer] -= item.points
    if tuple(expected) != result.scores:
        raise SoakError(f"scores {result.scores} are not the items' {expected}")
    record = records_module.record(final, seed=seed)
    if records_module.loads(records_module.dumps(record)) != record:
        raise SoakError("the record does not round-trip")
    copy = pickle.loads(pickle.dumps(final))  # noqa: S301 - our own bytes
    if copy.history != final.history or copy.hands != final.hands:
        raise SoakError("the final state does not pickle")
    return checker.actions


def main(argv: list[str]) -> int:
    """Soak for the seconds in *argv* (60 by default); 0 when nothing was found."""
    seconds = float(argv[0]) if argv else 60.0
    deadline = time.monotonic() + seconds
    games = actions = 0
    seed = 0
    bots: list[Player] = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(danger=4)]
    while time.monotonic() < deadline:
        for rules in RULESETS.values():
            for size in range(2, 9):
                try:
                    rules.deal_size(size)
                except ValueError:
                    continue
                players = [bots[(seed + i) % len(bots)] for i in range(size)]
                try:
                    actions += soak_game(rules, players, seed)
                except SoakError as error:
                    print(f"FOUND ({rules.name}, {size} players, seed {seed}): {error}")
                    return 1
                games += 1
                seed += 1
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607 - the developer's git
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    today = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    print(f"| {today} | {commit} | {games:,} | {actions:,} | nothing |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
