"""Helpers for the scoring tests: scripted plays and seeded random self-play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from tienlen import (
    Action,
    GameResult,
    GameState,
    Pass,
    RuleSet,
    ScoreItem,
    ScoreKind,
)

__all__ = [
    "ChooseFn",
    "chop_items",
    "items_of",
    "mixed_game",
    "net",
    "random_game",
    "result_of",
    "run",
    "seeded_chooser",
]

ChooseFn = Callable[[GameState, Sequence[Action]], Action]
"""A player policy, as `tienlen.Match.play` takes it."""


def run(state: GameState, *moves: str) -> GameState:
    """Apply *moves* in order.

    A move is ``"pass"`` or card text for the player to act, or ``"2:cards"`` /
    ``"2:pass"`` for player 2 (a Poker jump-in, say).
    """
    for move in moves:
        player: int | None = None
        text = move
        if ":" in move:
            who, text = move.split(":", 1)
            player = int(who)
        state = state.pass_turn(player) if text == "pass" else state.play(text, player)
    return state


def result_of(state: GameState) -> GameResult:
    """The result of a finished game (fails the test if it is not over)."""
    assert state.result is not None, f"the game is not over:\n{state}"
    return state.result


def items_of(result: GameResult | GameState, kind: ScoreKind) -> tuple[ScoreItem, ...]:
    """The items of one kind, in order."""
    items = result.items
    return tuple(item for item in items if item.kind is kind)


def chop_items(state: GameState) -> tuple[ScoreItem, ...]:
    """The chop items settled so far (during play or at the end)."""
    return items_of(state.result if state.result is not None else state, ScoreKind.CHOP)


def net(items: Iterable[ScoreItem], players: int) -> tuple[int, ...]:
    """Each player's score change from *items* alone."""
    return GameResult.from_items(
        players=players, finish_order=range(players), items=items
    ).scores


def seeded_chooser(seed: int) -> ChooseFn:
    """A uniformly random player policy, reproducible from *seed*."""
    rng = random.Random(seed)

    def choose(state: GameState, actions: Sequence[Action]) -> Action:
        del state
        return actions[rng.randrange(len(actions))]

    return choose


def random_game(rules: RuleSet, players: int, seed: int) -> GameState:
    """Deal with *seed* and play to the end with uniformly random legal actions."""
    rng = random.Random(seed)
    state = GameState.deal(rules, players, rng)
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state


def mixed_game(rules: RuleSet, players: int, seed: int) -> GameState:
    """Like `random_game`, but some players (drawn from *seed*) pass whenever allowed.

    Passive players make frozen players and end penalties common (RULES §6.6.3-§6.6.4).
    """
    rng = random.Random(seed)
    state = GameState.deal(rules, players, rng)
    passive = {player for player in range(players) if rng.random() < 0.4}
    while not state.is_over:
        to_act = state.to_act
        if to_act in passive and state.is_legal(Pass(player=to_act)):
            state = state.pass_turn()
            continue
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state
