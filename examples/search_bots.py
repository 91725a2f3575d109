"""Sample a hidden world, then pit the search bots against GreedyPlayers on duplicate deals.

Run it from the repository root (a few seconds)::

    .venv/bin/python examples/search_bots.py

It uses only the public API. `tienlen.sample_world` deals the cards one seat has not
seen so that the world gives back exactly what the seat saw; `tienlen.PIMCPlayer` and
`tienlen.ISMCTSPlayer` search such worlds at every decision; `tienlen.evaluate` plays
every deal under every seating, so the luck of the deal cancels. The budgets here are
tiny, so the figures are noisy: docs/search.md has the measured strength.
"""

from __future__ import annotations

import random

from tienlen import (
    CLASSIC,
    GameState,
    GreedyPlayer,
    ISMCTSPlayer,
    Observation,
    PIMCPlayer,
    Player,
    evaluate,
    sample_world,
)


def show_a_sampled_world() -> None:
    """One seat's view of a game, and a world consistent with it."""
    rng = random.Random(7)
    state = GameState.deal(CLASSIC, players=4, seed=rng)
    for _ in range(6):
        state = state.apply(
            GreedyPlayer().act(
                Observation.of(state, state.to_act or 0), state.legal_actions(), rng
            )
        )
    seat = state.to_act or 0
    seen = Observation.of(state, seat)
    world = sample_world(seen, rng)
    print(f"seat {seat} holds {seen.hand}; history: {[str(a) for a in seen.history]}")
    for player in range(4):
        if player != seat:
            print(f"  sampled hand of player {player}: {world.hand(player)}")
    print(f"  same observation: {Observation.of(world, seat) == seen}")


def compare_bots() -> None:
    """Each bot in one seat against three GreedyPlayers, on the same 6 deals."""
    bots: dict[str, Player] = {
        "GreedyPlayer (control)": GreedyPlayer(),
        "PIMCPlayer": PIMCPlayer(worlds=3, max_candidates=4),
        "ISMCTSPlayer": ISMCTSPlayer(iterations=10, max_candidates=4),
    }
    for name, bot in bots.items():
        players: list[Player] = [bot, GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
        stats = evaluate(players, 6, rules=CLASSIC, seed="example")
        low, high = stats.confidence_interval(0)
        print(
            f"{name:24} mean {stats.mean_scores[0]:+.2f} stakes "
            f"(95% CI {low:+.2f} to {high:+.2f}), rating {stats.ratings[0]:+.0f}"
        )


if __name__ == "__main__":
    show_a_sampled_world()
    compare_bots()
