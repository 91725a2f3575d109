"""Bots that fail on purpose, for the fault tests (importable, so they pickle).

Each plays like `GreedyPlayer` (which never uses its rng, so a faulty bot's games are
the greedy games up to the fault) until the decision asked with exactly `at` actions
in the history, where it fails in its own way; ``append-jump-in`` fails whenever it
is asked about a Poker jump-in.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Sequence

import attrs

from tests.forgery import AlwaysEqual, forged_pass, forged_play
from tienlen import Action, GreedyPlayer, Observation, Play


@attrs.frozen
class Faulty:
    """A greedy bot that fails in the way *fault* names at history length *at*."""

    fault: str
    at: int = 0

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The greedy choice, except at the chosen moment."""
        choice = GreedyPlayer().act(observation, actions, rng)
        if self.fault == "append-jump-in" and observation.jumping_in:
            actions.append(choice)  # type: ignore[attr-defined]  # a tuple, not a list
        if len(observation.history) != self.at:
            return choice
        return self.fail(observation, actions, choice)

    def fail(
        self, observation: Observation, actions: Sequence[Action], choice: Action
    ) -> Action:
        """What the bot does instead of *choice*."""
        seat = observation.seat
        match self.fault:
            case "raise":
                raise ZeroDivisionError("the bot divided by zero")
            case "illegal":
                return Play(player=seat, cards=observation.played or "2h 2d")
            case "none":
                return None  # type: ignore[return-value]  # breaks the protocol
            case "text":
                return str(choice)  # type: ignore[return-value]  # breaks the protocol
            case "unpicklable":
                return lambda: choice  # type: ignore[return-value]  # breaks the protocol
            case "pass-as-true":  # `Pass` refuses True: forged around it
                return forged_pass(True)
            case "pass-as-float":
                return forged_pass(1.0)
            case "always-equal":
                return forged_play(AlwaysEqual(seat), str(observation.hand.cards[0]))
            case "mutate-observation":
                object.__setattr__(observation, "hand", observation.played)
                return choice
            case "mutate-actions":
                object.__setattr__(
                    actions, "_pass", not getattr(actions, "_pass", True)
                )
                return choice
            case "slow":
                time.sleep(0.2)
                return choice
            case "hang":
                time.sleep(3600)
                return choice
            case "die":
                os.kill(os.getpid(), signal.SIGKILL)
            case "exit":
                raise SystemExit(3)
            case "interrupt":
                raise KeyboardInterrupt
            case "thread":  # a non-daemon thread that outlives the game
                threading.Thread(target=time.sleep, args=(600,)).start()
                return choice
        msg = f"unknown fault {self.fault!r}"
        raise AssertionError(msg)
