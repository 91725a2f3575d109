"""The versioned environment ids (issue 24 §4): Gymnasium's registry and `make_env`."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import tienlen.rl.gymnasium  # noqa: F401  # registers the ids
from tienlen import RULESETS, InvalidArgumentError
from tienlen.records import rules_to_json
from tienlen.rl import ENV_IDS, make_env
from tienlen.rl.gymnasium import SoloEnv
from tienlen.rl.pettingzoo import TienLenEnv
from tienlen.rl.registration import VERSION, env_name

IDS = list(ENV_IDS)
# Gymnasium's id grammar: an optional namespace, a name, an optional -v<version>.
_GYMNASIUM_ID = re.compile(
    r"^(?:(?P<namespace>[\w:.-]+)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$"
)


def test_one_id_per_preset() -> None:
    """Every preset has exactly one id, ``tienlen/<preset>-v<VERSION>``, in preset order."""
    assert list(ENV_IDS.values()) == list(RULESETS)
    assert [f"tienlen/{name}-v{VERSION}" for name in RULESETS] == IDS
    for env_id, preset in ENV_IDS.items():
        match = _GYMNASIUM_ID.match(env_id)
        assert match is not None
        assert (match["namespace"], match["name"], match["version"]) == (
            "tienlen",
            preset,
            str(VERSION),
        )


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_make(env_id: str) -> None:
    """``gymnasium.make(id)`` gives the preset's `SoloEnv`, which passes ``check_env``."""
    spec = gymnasium.spec(env_id)
    assert (spec.namespace, spec.name, spec.version) == (
        "tienlen",
        ENV_IDS[env_id],
        VERSION,
    )
    made = gymnasium.make(env_id, players=3)
    solo = made.unwrapped
    assert isinstance(solo, SoloEnv)
    assert solo.rules is RULESETS[ENV_IDS[env_id]]
    assert solo.players == 3
    check_env(solo, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_same_as_direct(env_id: str) -> None:
    """An id's environment plays exactly as `SoloEnv` built with the preset's rules."""
    made = gymnasium.make(env_id).unwrapped
    assert isinstance(made, SoloEnv)
    direct = SoloEnv(RULESETS[ENV_IDS[env_id]])
    first, _ = made.reset(seed=11)
    second, _ = direct.reset(seed=11)
    assert np.array_equal(first, second)
    assert made.state == direct.state


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.filterwarnings(  # PettingZoo's checker warns about every Dict space
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
def test_make_env_pettingzoo(env_id: str) -> None:
    """`make_env` gives the preset's AEC env, named like PettingZoo's, passing ``api_test``."""
    game = make_env(env_id, players=3)
    raw = game.unwrapped
    assert isinstance(raw, TienLenEnv)
    assert raw.rules is RULESETS[ENV_IDS[env_id]]
    assert game.metadata["name"] == env_name(env_id)
    assert env_name(env_id) == "tienlen_" + ENV_IDS[env_id].replace("-", "_") + "_v1"
    api_test(game, num_cycles=40)


def test_make_env_same_as_direct() -> None:
    """An id's AEC env deals and observes as `TienLenEnv` with the preset's rules."""
    made = make_env("tienlen/poker-v1", players=4)
    direct = TienLenEnv(RULESETS["poker"], players=4)
    made.reset(seed=5)
    direct.reset(seed=5)
    assert made.unwrapped.final_state == direct.final_state
    for agent in direct.possible_agents:
        ours, theirs = made.observe(agent), direct.observe(agent)
        assert np.array_equal(ours["observation"], theirs["observation"])
        assert np.array_equal(ours["action_mask"], theirs["action_mask"])


def test_make_env_keeps_the_class_metadata() -> None:
    """Naming one environment leaves the class's metadata (``tienlen_v0``) alone."""
    make_env("tienlen/classic-v1")
    assert TienLenEnv.metadata["name"] == "tienlen_v0"
    assert TienLenEnv(RULESETS["classic"]).metadata["name"] == "tienlen_v0"


@pytest.mark.parametrize("bad", ["tienlen/classic-v0", "tienlen/Solo-v0", "classic", 3])
def test_unknown_id(bad: object) -> None:
    """An id that is not registered is refused with the list of known ids."""
    with pytest.raises(InvalidArgumentError, match="unknown environment id"):
        make_env(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tienlen/classic-v1"):
        env_name(bad)  # type: ignore[arg-type]


def test_rules_argument_refused() -> None:
    """The id fixes the rules: a ``rules`` or ``preset`` argument is a `TypeError`."""
    with pytest.raises(TypeError, match="fixes its rules"):
        make_env("tienlen/classic-v1", rules=RULESETS["poker"])
    with pytest.raises(TypeError, match="fixes its rules"):
        gymnasium.make("tienlen/classic-v1", rules=RULESETS["poker"])
    with pytest.raises(TypeError, match="preset"):
        gymnasium.make("tienlen/classic-v1", preset="poker")


def test_registering_again_changes_nothing() -> None:
    """`register_gymnasium` may run again: the ids and their creators stay."""
    from tienlen.rl.registration import register_gymnasium  # noqa: PLC0415

    before = {env_id: gymnasium.spec(env_id) for env_id in IDS}
    register_gymnasium()
    assert {env_id: gymnasium.spec(env_id) for env_id in IDS} == before


def _fingerprint(env_id: str) -> str:
    """A hash of what *env_id* promises: its rules, and seeded games' observations.

    With the masks and rewards, in the AEC env and in Gymnasium's `SoloEnv`.
    """
    digest = hashlib.sha256()
    rules = RULESETS[ENV_IDS[env_id]]
    digest.update(json.dumps(rules_to_json(rules), sort_keys=True).encode())
    game = make_env(env_id, players=4)
    game.reset(seed=2024)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        mask = observation["action_mask"]
        digest.update(agent.encode())
        digest.update(observation["observation"].tobytes())
        digest.update(mask.tobytes())
        digest.update(repr(float(reward)).encode())
        game.step(None if terminated or truncated else int(np.flatnonzero(mask)[-1]))
    solo = gymnasium.make(env_id, players=4).unwrapped
    flat, info = solo.reset(seed=2024)
    done = False
    while not done:
        digest.update(flat.tobytes())
        action = int(np.flatnonzero(info["action_mask"])[0])
        flat, reward, done, _, info = solo.step(action)
        digest.update(repr(float(reward)).encode())
    return digest.hexdigest()[:16]


# What each id promised when its version was set. A change here means the id's rules,
# rewards or observations changed: bump `VERSION` (a new id) rather than the pin.
_PINNED = {
    "tienlen/classic-v1": "d97d815367e295d9",
    "tienlen/justus-pang-v1": "aac7b7389c4489a8",
    "tienlen/kenneth-lo-v1": "b986d1f4ce2f65c4",
    "tienlen/vietcong-v1": "1630f36a41b9f9a7",
    "tienlen/poker-v1": "1bf7b65c2cab2279",
}


@pytest.mark.parametrize("env_id", IDS)
def test_an_id_keeps_its_promise(env_id: str) -> None:
    """An id's rules, observations and rewards are those pinned for its version.

    This is the versioning rule made a test: changing any of them without a new
    version fails here.
    """
    assert _fingerprint(env_id) == _PINNED[env_id], (
        f"{env_id} changed its rules, rewards or observations: give it a new version"
    )
