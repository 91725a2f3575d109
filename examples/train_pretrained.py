"""Train the shipped learned baseline (`tienlen.rl.pretrained`): the recipe, with seeds.

1. **Positions.** Four `GreedyPlayer` s play games dealt from the seeds
   ``f"pretrained:{rules}:{game}"``; every decision with more than one candidate
   (`LearnedPlayer`'s pruning) is kept.
2. **Teacher values.** Each candidate of each position gets its determinized rollout
   value (`tienlen.rl.learned.rollout_values`: the mean score over sampled worlds
   played out by `GreedyPlayer` s, what `PIMCPlayer` maximises), from
   ``random.Random(f"teacher:{rules}:{game}:{decision}")``.
3. **Distillation.** A network with one hidden layer of 64 units
   (`tienlen.rl.LearnedPlayer`) regresses each candidate's advantage over Greedy's
   choice (its teacher value less the value of Greedy's choice) from its
   `tienlen.rl.learned.features`: mean squared error, Adam, 8 passes, batches of
   256, numpy's generator seeded 0. With a zero output layer the player is Greedy.
4. **Margin.** A bonus on the score of Greedy's choice makes the player deviate from
   Greedy only where the predicted advantage is large: six bonuses, letting it deviate
   in 100% down to 2.5% of the training positions, are each played against three
   `GreedyPlayer` s on 150 duplicate deals (`tienlen.evaluate`, seed
   ``"pretrained-check"``, never the frozen ladder deals); the one with the highest
   lower 95% bound is kept.

Run from the repository root. With no argument it is a smoke run of seconds (a few
positions, nothing written). ``--full`` is the recipe of the shipped weights; it writes
``src/tienlen/rl/weights/<rules>.npz``; about 6 minutes of CPU per rule set, nearly
all of it the teacher's rollouts (``--positions DIR`` keeps them for another run)::

    python examples/train_pretrained.py --full --rules classic poker

Needs the rl extra: ``pip install "tienlen[rl]"`` (from a checkout:
``pip install -e ".[rl]"``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

try:
    import numpy as np

    from tienlen.rl.learned import (
        CANDIDATES,
        FEATURES,
        LearnedPlayer,
        features,
        rollout_values,
    )
except ImportError:  # the rl extra is not installed
    print(
        'skipped: this example needs the rl extra: pip install "tienlen[rl]"'
        ' (from a checkout: pip install -e ".[rl]")'
    )
    sys.exit(0)

from tienlen import GameState, GreedyPlayer, Observation, evaluate, get_rules, play_game
from tienlen.game import Action
from tienlen.search.rollouts import candidates

FULL = {"games": 240, "worlds": 16, "check_deals": 150}
"""The shipped weights' recipe (per rule set)."""
SMOKE = {"games": 2, "worlds": 2, "check_deals": 4}
HIDDEN = 64
"""Hidden units of the network."""
EPOCHS, BATCH, DECAY = 8, 256, 1e-4
"""Adam's passes over the data, its batch size and the weight decay."""
DEVIATIONS = (1.0, 0.3, 0.2, 0.1, 0.05, 0.025)
"""The shares of training positions in which the candidate margins let the model
deviate from Greedy's choice; the check deals pick one."""
WEIGHTS = Path(__file__).resolve().parent.parent / "src/tienlen/rl/weights"


class Recorder:
    """A `GreedyPlayer` that records every position with its candidates' teacher values."""

    def __init__(self, rules: str, game: int, worlds: int) -> None:
        self.rules, self.game, self.worlds = rules, game, worlds
        self.rows: list[np.ndarray] = []
        self.values: list[list[float]] = []

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Greedy's choice, after recording the position and its teacher values."""
        searched = candidates(observation, actions, CANDIDATES)
        if len(searched) > 1:
            teacher = random.Random(
                f"teacher:{self.rules}:{self.game}:{len(self.values)}"
            )
            self.values.append(
                rollout_values(observation, searched, teacher, self.worlds)
            )
            self.rows.append(features(observation, searched))
        return GreedyPlayer().act(observation, actions, rng)


def positions(
    rules: str, games: int, worlds: int, first: int = 0
) -> tuple[np.ndarray, ...]:
    """Padded ``(features, values, mask)`` arrays of the positions of games *first*, ...."""
    rows: list[np.ndarray] = []
    values: list[list[float]] = []
    for game in range(first, first + games):
        recorder = Recorder(rules, game, worlds)
        seed = random.Random(f"pretrained:{rules}:{game}")
        start = GameState.deal(get_rules(rules), 4, seed=seed)
        play_game(start, [recorder] * 4, random.Random(game))
        rows += recorder.rows
        values += recorder.values
    x = np.zeros((len(rows), CANDIDATES, FEATURES))
    q = np.zeros((len(rows), CANDIDATES))
    mask = np.zeros((len(rows), CANDIDATES), dtype=bool)
    for i, (row, value) in enumerate(zip(rows, values, strict=True)):
        x[i, : len(row)] = row
        q[i, : len(value)] = value
        mask[i, : len(value)] = True
    return x, q, mask


def fit(x: np.ndarray, q: np.ndarray, mask: np.ndarray, seed: int) -> LearnedPlayer:
    """A network regressing each candidate's advantage over Greedy's choice (Adam)."""
    rng = np.random.default_rng(seed)
    rows = x[mask]
    advantages = (q - q[:, :1])[mask]
    scale = np.abs(rows).max(axis=0) + 1e-9  # each feature within [-1, 1]
    rows = rows / scale
    params = [
        rng.normal(0, np.sqrt(2 / FEATURES), (FEATURES, HIDDEN)),
        np.zeros(HIDDEN),
        rng.normal(0, 0.1 / np.sqrt(HIDDEN), HIDDEN),
        np.zeros(1),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(len(rows))
        for begin in range(0, len(rows), BATCH):
            batch = order[begin : begin + BATCH]
            inputs, targets = rows[batch], advantages[batch]
            layer = np.maximum(inputs @ params[0] + params[1], 0.0)
            error = (layer @ params[2] + params[3][0] - targets) / len(batch)
            back = np.outer(error, params[2]) * (layer > 0)
            grads = [
                inputs.T @ back + DECAY * params[0],
                back.sum(axis=0),
                layer.T @ error + DECAY * params[2],
                np.array([error.sum()]),
            ]
            step += 1
            for index, grad in enumerate(grads):
                moments[index] = 0.9 * moments[index] + 0.1 * grad
                squares[index] = 0.999 * squares[index] + 0.001 * grad * grad
                params[index] -= (
                    1e-3
                    * (moments[index] / (1 - 0.9**step))
                    / (np.sqrt(squares[index] / (1 - 0.999**step)) + 1e-8)
                )
    # the output bias adds the same to every candidate: it never changes a choice
    return LearnedPlayer(params[0] / scale[:, None], params[1], params[2])


def margins(x: np.ndarray, mask: np.ndarray, net: LearnedPlayer) -> list[float]:
    """Bonuses for Greedy's choice after which *net* deviates in DEVIATIONS of positions."""
    layer = np.maximum(x @ net.hidden + net.hidden_bias, 0.0)
    scores = np.where(mask, layer @ net.output, -np.inf)
    gap = scores[:, 1:].max(axis=1) - scores[:, 0]  # best other candidate over Greedy's
    return [max(0.0, float(np.quantile(gap, 1 - share))) for share in DEVIATIONS]


def train(
    rules: str, recipe: dict[str, int], out: Path | None, cache: Path | None
) -> None:
    clock = time.process_time()
    stored = None if cache is None else cache / f"{rules}-positions.npz"
    if stored is not None and stored.exists():
        with np.load(stored) as data:
            x, q, mask = data["x"], data["q"], data["mask"]
    else:
        x, q, mask = positions(rules, recipe["games"], recipe["worlds"])
        if stored is not None:
            stored.parent.mkdir(parents=True, exist_ok=True)
            np.savez(stored, x=x, q=q, mask=mask)
    data_seconds = time.process_time() - clock
    net = fit(x, q, mask, seed=0)
    print(f"{rules}: {len(x)} positions, teacher values in {data_seconds:.0f} s of CPU")
    best: tuple[float, LearnedPlayer] | None = None
    for share, margin in zip(DEVIATIONS, margins(x, mask, net), strict=True):
        player = attrs.evolve(net, greedy_bonus=margin, name=rules)
        stats = evaluate(
            [player, *[GreedyPlayer()] * 3],
            recipe["check_deals"],
            rules=get_rules(rules),
            seed="pretrained-check",
        )
        low, high = stats.confidence_interval(0)
        print(
            f"  deviating in {share:.1%} of the positions (margin {margin:.3f}): "
            f"{stats.mean_scores[0]:+.3f} per game against three GreedyPlayers, "
            f"95% interval [{low:+.3f}, {high:+.3f}] ({stats.deals} deals)"
        )
        if best is None or low > best[0]:
            best = low, player
    assert best is not None
    player = best[1]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        player.save(out / f"{rules}.npz")
        print(f"wrote {out / f'{rules}.npz'}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the shipped recipe")
    parser.add_argument("--rules", nargs="+", default=["classic", "poker"])
    parser.add_argument("--out", type=Path, help="where to write <rules>.npz")
    parser.add_argument(
        "--positions",
        type=Path,
        help="a folder keeping the positions and teacher values between runs",
    )
    args = parser.parse_args(argv)
    recipe = FULL if args.full else SMOKE
    out = args.out if args.out is not None else (WEIGHTS if args.full else None)
    for rules in args.rules:
        train(rules, recipe, out, args.positions)


if __name__ == "__main__":
    main()
