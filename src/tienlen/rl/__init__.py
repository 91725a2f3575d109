"""Reinforcement learning on Tiến Lên: a fixed action table, observations, environments.

Needs the ``rl`` extra (numpy, PettingZoo, Gymnasium, RLCard): ``pip install
"tienlen[rl]"``, or ``pip install -e ".[rl]"`` from a checkout. See the RL guide
(docs/rl.md).
"""

from __future__ import annotations

from tienlen.batch import Batch
from tienlen.rl.learned import LearnedPlayer, pretrained
from tienlen.rl.registration import ENV_IDS, make_env
from tienlen.rl.table import ACTIONS, ActionClass, ActionTable, UnknownActionError

__all__ = [
    "ACTIONS",
    "ENV_IDS",
    "ActionClass",
    "ActionTable",
    "Batch",
    "LearnedPlayer",
    "UnknownActionError",
    "make_env",
    "pretrained",
]
