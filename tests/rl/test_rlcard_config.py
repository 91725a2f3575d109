"""The RLCard env built directly, not through ``rlcard.make`` (issue 12 §2, issue 14)."""

from __future__ import annotations

import pytest

pytest.importorskip("rlcard")

from tienlen.errors import InvalidArgumentError
from tienlen.rl.rlcard import TienLenRLCardEnv


def test_direct_construction_fills_rlcards_defaults() -> None:
    """A config without ``allow_step_back``/``seed`` works as ``rlcard.make`` would."""
    env = TienLenRLCardEnv({"game_rules": "poker", "game_num_players": 3})
    state, seat = env.reset()
    assert seat == state["raw_obs"].to_act
    assert env.num_players == 3


def test_direct_construction_refuses_bad_config() -> None:
    """A config that is not a dict is a TypeError; step_back is refused clearly."""
    with pytest.raises(TypeError, match="config must be a dict"):
        TienLenRLCardEnv(["poker"])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="step_back"):
        TienLenRLCardEnv({"allow_step_back": True})
