"""Game records as imitation-learning arrays: ``(observation, mask, action)`` per decision.

`arrays` replays `tienlen.records.GameRecord` games through the environments' decision
driver (`tienlen.rl.turns.Turns`) and gives, for every decision a chosen seat made, the
seat's flat observation, its int8 mask and the index of the action it took. Records
hold engine actions only, so Poker seats that were asked about a jump-in and declined
leave no trace: only the actions in the record become examples.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
    >>> from tienlen.records import record
    >>> final = play_game(GameState.deal(CLASSIC, 4, seed=2), [GreedyPlayer()] * 4, random.Random(2))
    >>> observations, masks, actions = arrays([record(final)])
    >>> len(observations) == len(final.history), bool(masks[range(len(actions)), actions].all())
    (True, True)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from tienlen.errors import InvalidArgumentError
from tienlen.records import GameRecord
from tienlen.rl._checks import check_count
from tienlen.rl.observation import MAX_HISTORY
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import Turns

__all__ = ["arrays"]


def arrays(
    records: Iterable[GameRecord],
    seats: Iterable[int] | None = None,
    history: int = 8,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Every decision of *records* as ``(observations, masks, actions)`` arrays.

    Args:
        records: Games of one rule set and table size.
        seats: Only the decisions of these seats (default: every seat).
        history: Past actions in each observation.

    Raises:
        ValueError: no records, records of different tables, or no decision of *seats*.
        TypeError: a record is not a `tienlen.records.GameRecord`, a seat or
            *history* not an ``int``.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, RandomPlayer, play_game
        >>> from tienlen.records import record
        >>> from tienlen.rl.imitation import arrays
        >>> games = [
        ...     record(play_game(GameState.deal(CLASSIC, 4, seed=seed), [RandomPlayer()] * 4, random.Random(seed)))
        ...     for seed in range(3)
        ... ]
        >>> observations, masks, actions = arrays(games, seats=[0])
        >>> len(actions) == sum(action.player == 0 for game in games for action in game.actions)
        True
        >>> observations.dtype.name, masks.dtype.name, actions.dtype.name
        ('float32', 'int8', 'int64')
        >>> bool(masks[range(len(actions)), actions].all())  # every choice was legal
        True
        >>> arrays([])
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: no records
    """
    check_count(history, "history", 0, MAX_HISTORY)
    wanted = None if seats is None else {check_count(seat, "a seat") for seat in seats}
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    table_of: tuple[object, int] | None = None
    for game in records:
        if type(game) is not GameRecord:
            msg = f"expected GameRecords, not {type(game).__name__}"
            raise TypeError(msg)
        start = game.start()
        if table_of is None:
            table_of = (start.rules, start.players)
        elif table_of != (start.rules, start.players):
            msg = "records of different rule sets or table sizes"
            raise InvalidArgumentError(msg)
        turns = Turns(start, ActionTable.for_rules(game.rules), history)
        for action in game.actions:
            while turns.polling and turns.decider != action.player:
                turns.step(turns.table.PASS)  # this seat did not jump in
            seat = action.player
            if wanted is None or seat in wanted:
                observations.append(turns.observe(seat))
                masks.append(turns.mask())
                actions.append(turns.table.index(action))
            turns.apply(action)
    if table_of is None:
        msg = "no records"
        raise InvalidArgumentError(msg)
    if not actions:  # no decision of the chosen seats
        msg = f"the records hold no decision of seats {sorted(wanted or ())}"
        raise InvalidArgumentError(msg)
    return np.stack(observations), np.stack(masks), np.array(actions, dtype=np.int64)
