"""Train a small policy with numpy only against `RandomPlayer`, and watch it improve.

The policy scores each legal play by a linear function of its exact features (its
cards, its kind, pass: `tienlen.rl.observation.action_feature`, DouZero's idea) and
samples a softmax over them; REINFORCE with a running baseline trains it in the
Gymnasium environment ``tienlen/Solo-v0``, one seat against three random bots. The
win rate over the same 200 evaluation deals is printed before and after training.

Needs the rl extra: ``pip install "tienlen[rl]"`` (from a checkout:
``pip install -e ".[rl]"``).
"""

from __future__ import annotations

import sys

try:
    import numpy as np

    from tienlen.rl import ACTIONS
    from tienlen.rl.gymnasium import SoloEnv
    from tienlen.rl.observation import ACTION_FEATURES, action_features
except ImportError:  # the rl extra is not installed
    print(
        'skipped: this example needs the rl extra: pip install "tienlen[rl]"'
        ' (from a checkout: pip install -e ".[rl]")'
    )
    sys.exit(0)

from tienlen import CLASSIC

EPISODES = 400
LEARNING_RATE = 0.05
EVALUATION_SEEDS = range(10_000, 10_200)


def choices(env: SoloEnv, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The legal indices and the features of the play each stands for."""
    indices = mask.nonzero()[0]
    hand = env.state.hand(env.seat)
    plays = [ACTIONS.fill(int(i), hand, env.seat) for i in indices]
    return indices, action_features(plays)


def policy(weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    """Softmax probabilities of the legal plays."""
    scores = features @ weights
    scores -= scores.max()
    odds = np.exp(scores)
    probabilities: np.ndarray = odds / odds.sum()
    return probabilities


def play(
    env: SoloEnv, weights: np.ndarray, seed: int, rng: np.random.Generator
) -> tuple[float, list[tuple[np.ndarray, int]]]:
    """One game; returns the win (1 or 0) and the (features, choice) of each decision."""
    _, info = env.reset(seed=seed)
    steps = []
    done = False
    reward = 0.0
    while not done:
        indices, features = choices(env, info["action_mask"])
        choice = int(rng.choice(len(indices), p=policy(weights, features)))
        steps.append((features, choice))
        _, outcome, done, _, info = env.step(int(indices[choice]))
        reward = float(outcome)
    return reward, steps


def win_rate(env: SoloEnv, weights: np.ndarray) -> float:
    """Wins over the fixed evaluation deals."""
    rng = np.random.default_rng(0)
    return float(
        np.mean([play(env, weights, seed, rng)[0] for seed in EVALUATION_SEEDS])
    )


def main() -> None:
    env = SoloEnv(rules=CLASSIC, players=4, reward="win")
    weights = np.zeros(ACTION_FEATURES)
    before = win_rate(env, weights)
    rng = np.random.default_rng(1)
    baseline = 0.25
    for episode in range(EPISODES):
        reward, steps = play(env, weights, seed=episode, rng=rng)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for features, choice in steps:  # REINFORCE: grad log pi = f(a) - E[f]
            expected = policy(weights, features) @ features
            weights += LEARNING_RATE * advantage * (features[choice] - expected)
    after = win_rate(env, weights)
    print(
        f"win rate against three RandomPlayers: {before:.0%} before, {after:.0%} after {EPISODES} games"
    )
    top = np.argsort(weights[52:-1])[::-1]
    kinds = ["single", "pair", "triple", "four", "straight", "pair run", "quad run"]
    print(
        "kinds it learnt to prefer:",
        ", ".join(kinds[i] for i in top[:3] if i < len(kinds)),
    )


if __name__ == "__main__":
    main()
