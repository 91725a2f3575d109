"""The game: an immutable `GameState` that referees a whole game (RULES §1.5, §2–§6).

Players are numbered ``0 … n−1`` clockwise; play moves to ``i + 1`` clockwise and to
``i − 1`` counterclockwise (RULES §2.1, §6.1). A state never changes: `GameState.apply`
returns the next state. `GameState.check` says why an action is illegal,
`GameState.is_legal` whether it is, and `GameState.legal_actions` lists exactly the
actions `GameState.is_legal` accepts, including Poker jump-ins by players whose turn it
is not (RULES §6.4).

This is the public module; the state and its one transition live in the engine
(`tienlen.engine.state`, `tienlen.engine.successor`, docs/engine.md).
"""

from __future__ import annotations

from tienlen.actions import Action, Actions, Pass, Play
from tienlen.engine.state import GameSetup, GameState

__all__ = ["Action", "Actions", "GameSetup", "GameState", "Pass", "Play"]
