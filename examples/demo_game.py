"""A whole game among four random players, printed trick by trick.

Run ``python examples/demo_game.py [variant] [seed]`` (defaults: classic, 7). Every
action comes from `GameState.legal_actions`, so the engine referees each one.
"""

from __future__ import annotations

import random
import sys

from tienlen import GameState, Pass, get_rules


def main(argv: list[str]) -> None:
    """Deal, play to the end with random choices, and print the game."""
    rules = get_rules(argv[0] if argv else "classic")
    seed = int(argv[1]) if len(argv) > 1 else 7
    rng = random.Random(seed)
    state = GameState.deal(rules, players=4, seed=rng)
    print(f"{rules.name}, seed {seed}")
    for player, hand in enumerate(state.hands):
        print(f"  player {player}: {hand.unicode()}")
    trick = 1
    while not state.is_over:
        if state.top is None:
            print(f"trick {trick}:")
            trick += 1
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        out_before = len(state.finish_order)
        state = state.apply(action)
        shown = (
            "passes" if isinstance(action, Pass) else f"plays {action.cards.unicode()}"
        )
        print(f"  player {action.player} {shown}")
        if len(state.finish_order) > out_before:
            print(f"  player {action.player} is out")
    result = state.result
    assert result is not None
    print(f"finish order: {list(result.finish_order)}")
    print(f"scores: {list(result.scores)}")


if __name__ == "__main__":
    main(sys.argv[1:])
