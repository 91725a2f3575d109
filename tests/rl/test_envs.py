"""The framework adapters (issue 12 §2), each under its framework's own checker."""

from __future__ import annotations

import pickle
import random
from typing import Any, SupportsFloat

import pytest

pytest.importorskip("numpy")
import numpy as np

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("rlcard")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from tests.rl.walk import ONE_DECK, TABLES, decider, table_id
from tienlen import (
    CLASSIC,
    POKER,
    RULESETS,
    BaseRules,
    GameResult,
    GameState,
    GreedyPlayer,
    Observation,
    play_game,
)
from tienlen.records import record
from tienlen.rl import ACTIONS
from tienlen.rl import pettingzoo as tienlen_pettingzoo
from tienlen.rl import rlcard as tienlen_rlcard
from tienlen.rl.gymnasium import ENV_ID, SoloEnv
from tienlen.rl.imitation import arrays
from tienlen.rl.observation import reference_observation
from tienlen.rl.turns import IllegalActionError, Turns, rewards
from tienlen.rl.vector import VectorEnv


def result_of(state: GameState) -> GameResult:
    """The result of a finished game."""
    assert state.result is not None
    return state.result


# PettingZoo's checker warns about every Dict observation space (its own chess does too).
DICT_WARNINGS = [
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.parametrize("table", ONE_DECK, ids=table_id)
@pytest.mark.filterwarnings(*DICT_WARNINGS)
def test_pettingzoo_api_and_seed_tests(table: tuple[BaseRules, int]) -> None:
    """Issue 12 §2.

    ``tienlen_v0`` passes PettingZoo's ``api_test`` and ``seed_test`` for every preset
    and 2-4 players.
    """
    rules, players = table
    api_test(tienlen_pettingzoo.env(rules=rules, players=players), num_cycles=300)
    seed_test(
        lambda: tienlen_pettingzoo.env(rules=rules, players=players), num_cycles=300
    )


def test_pettingzoo_masks_jump_ins_and_termination() -> None:
    """Issue 12 §2.

    The mask sits in the observation (zeros for non-deciding agents); Poker jump-ins are
    decisions of other agents; every agent terminates together.
    """
    env = tienlen_pettingzoo.raw_env(rules=POKER, players=4, reward="place")
    env.reset(seed=3)
    final: dict[str, float] = {}
    rng = random.Random(3)
    while env.agents:
        agent = env.agent_selection
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        observation, _, terminated, _, _ = env.last()
        if terminated:
            assert all(env.terminations.values())
            final = final or dict(env._cumulative_rewards)
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        env.step(int(rng.choice(list(legal))))
    assert sorted(final.values()) == pytest.approx([-1.0, -1 / 3, 1 / 3, 1.0])
    size = env.observation_spaces["player_0"]["observation"].shape
    assert size is not None
    assert env.state().shape[0] > size[0]


def test_pettingzoo_jump_in_is_polled_out_of_turn() -> None:
    """RULES §6.4.

    Onto a 2, the seat holding four consecutive pairs decides before the player to act;
    PASS declines, then the player to act decides.
    """
    hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=0).play("2s")
    turns = Turns(state)
    assert turns.decider == 2
    assert turns.polling
    assert turns.legal_indices()[0] == ACTIONS.PASS
    assert len(turns.legal_indices()) == 2
    turns.act(ACTIONS.PASS)
    assert (turns.decider, turns.polling) == (3, False)
    with pytest.raises(IllegalActionError):
        turns.act(5)


@pytest.mark.parametrize("table", ONE_DECK, ids=table_id)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env(table: tuple[BaseRules, int]) -> None:
    """Issue 12 §2.

    ``tienlen/Solo-v0`` passes Gymnasium's ``check_env`` (which steps unmasked actions:
    an illegal one ends the episode below every legal outcome, pgx's convention).
    """
    rules, players = table
    check_env(gymnasium.make(ENV_ID, rules=rules, players=players).unwrapped)


def test_gymnasium_masks_illegal_actions_and_seeds() -> None:
    """Issue 12 §2.

    ``action_masks()`` equals ``info["action_mask"]``; an illegal action loses (or
    raises when configured); the same seed replays the same game.
    """

    def play(seed: int) -> np.ndarray[Any, Any]:
        env = SoloEnv(rules=CLASSIC, players=4, opponents=[GreedyPlayer()] * 3)
        observation, info = env.reset(seed=seed)
        trace = [observation]
        done = False
        reward: SupportsFloat = 0.0
        while not done:
            assert np.array_equal(env.action_masks(), info["action_mask"])
            action = int(info["action_mask"].nonzero()[0][0])
            observation, reward, done, _, info = env.step(action)
            trace.append(observation)
        assert reward == result_of(env.state).scores[0]
        return np.stack(trace)

    assert np.array_equal(play(5), play(5))
    env = SoloEnv(rules=CLASSIC, players=3)
    _, info = env.reset(seed=1)
    illegal = int((info["action_mask"] == 0).nonzero()[0][0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-3.0, True, True)
    strict = SoloEnv(rules=CLASSIC, players=3, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="seat 4"):
        SoloEnv(players=4, seat=4)
    with pytest.raises(ValueError, match="reward"):
        SoloEnv(reward="money")


def test_rlcard_run_features_and_seeding() -> None:
    """Issue 12 §2.

    ``rlcard.make("tienlen")`` after ``register()``; ``env.run`` plays a game; legal
    actions carry DMC-sized features; seeding needs numpy's global RNG.
    """
    import rlcard  # noqa: PLC0415
    from rlcard.agents import RandomAgent  # noqa: PLC0415
    from rlcard.utils import set_seed  # noqa: PLC0415

    tienlen_rlcard.register()
    tienlen_rlcard.register()  # twice is harmless

    def play(seed: int) -> tuple[Any, Any, Any]:
        set_seed(seed)
        env = rlcard.make("tienlen", {"game_rules": "classic", "seed": seed})
        env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
        trajectories, payoffs = env.run()
        return trajectories, payoffs, env

    trajectories, payoffs, env = play(4)
    assert payoffs.sum() == 0
    assert max(payoffs.tolist()) > 0
    state = trajectories[0][0]
    assert state["obs"].shape == tuple(env.state_shape[0])
    for feature in state["legal_actions"].values():
        assert feature.shape == tuple(env.action_shape[0])
    assert play(4)[1].tolist() == payoffs.tolist()
    info = env.get_perfect_information()
    assert info["current_player"] is None
    assert len(info["hands"]) == 4


def test_vector_env_auto_redeals_and_matches_single_games() -> None:
    """Issue 12 §2.

    N games at once, auto-redeal, per-env seeds (seed, env, episode): the same seed
    gives the same games; masks are the table's masks of each state.
    """

    def run(seed: int) -> tuple[Any, Any, Any]:
        envs = VectorEnv(6, POKER, players=4, seed=seed)
        observations, masks, deciders = envs.reset()
        rng = np.random.default_rng(1)
        total = np.zeros(4)
        for _ in range(400):
            polling = envs.polling
            for env, state in enumerate(envs.states):
                if not polling[env]:
                    expected = ACTIONS.mask(state, int(deciders[env]))
                    assert np.array_equal(masks[env], expected)
            actions = [rng.choice(row.nonzero()[0]) for row in masks]
            observations, masks, deciders, reward, terminated = envs.step(actions)
            assert not reward[~terminated].any()
            total += reward.sum(axis=0)
        return envs.episodes.copy(), total, observations

    episodes, _total, observations = run(9)
    assert episodes.sum() >= 6
    again = run(9)
    assert np.array_equal(again[0], episodes)
    assert np.array_equal(again[2], observations)
    assert not np.array_equal(run(10)[2], observations)
    with pytest.raises(IllegalActionError, match="reset"):
        VectorEnv(2).step([0, 0])
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)


def step_beside_turns(
    envs: VectorEnv, turns: list[Turns], seed: int, steps: int
) -> int:
    """Step *envs* and one `Turns` per game with the same random choices.

    At every decision each game's state, decider, mask and observation equal those of
    its `Turns` (and the observation the reference encoder's); a game that ends does
    so in both, with the same rewards, and both deal the same next game. Returns how
    many decisions were jump-in polls.
    """
    observations, masks, deciders = envs._decisions()
    rng = np.random.default_rng(seed)
    polls = 0
    for _ in range(steps):
        polling = envs.polling
        for env, game in enumerate(turns):
            seat = decider(game)
            assert game.state == envs.states[env]
            assert (seat, game.polling) == (deciders[env], polling[env])
            assert np.array_equal(game.mask(), masks[env])
            reference = reference_observation(Observation.of(game.state, seat))
            assert np.array_equal(
                np.concatenate(list(reference.values())), observations[env]
            )
            polls += game.polling
        legal = [row.nonzero()[0] for row in masks]
        eager = rng.random(len(masks)) < 0.5  # the highest class: 2s and bombs
        choice = [
            row[-1] if hot else rng.choice(row)
            for row, hot in zip(legal, eager, strict=True)
        ]
        observations, masks, deciders, reward, terminated = envs.step(choice)
        for env, game in enumerate(turns):
            game.act(int(choice[env]))
            assert terminated[env] == (game.decider is None)
            if terminated[env]:
                assert reward[env].tolist() == game.seat_rewards(envs.reward)
                episode = int(envs.episodes[env])
                rng_env = random.Random(f"{envs.seed}:{env}:{episode}")
                turns[env] = Turns.deal(envs.rules, envs.players, rng_env, envs.table)
    return polls


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_vector_env_equals_turns_and_reference_at_every_step(
    table: tuple[BaseRules, int],
) -> None:
    """Contract (issue 12 §2, §4).

    The batched step, with its incremental observations and key-table masks, is the
    slow path game for game: states, deciders, masks (the legal action set), lowest-
    suit fills, observations (equal to `reference_observation`), rewards and redeals.
    """
    rules, players = table
    envs = VectorEnv(4, rules, players, seed=players)
    envs.reset()
    turns = [
        Turns.deal(rules, players, random.Random(f"{players}:{env}:0"), envs.table)
        for env in range(4)
    ]
    step_beside_turns(envs, turns, seed=players, steps=30 * players)
    assert envs.episodes.sum() > 0


def test_vector_env_polls_jump_ins_like_turns() -> None:
    """RULES §6.4.

    Started from a Poker position where a seat may jump in onto a 2, the batched env
    asks that seat first (PASS declines), exactly as `Turns` does.
    """
    hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
    start = GameState.from_hands(hands, POKER, first_game=False, leader=0).play("2s")
    for seed in range(6):
        envs = VectorEnv(3, POKER, players=4, seed=seed)
        _, _, deciders = envs.reset([start] * 3)
        assert deciders.tolist() == [2, 2, 2]
        assert envs.polling.all()
        turns = [Turns(start, envs.table) for _ in range(3)]
        assert step_beside_turns(envs, turns, seed=seed, steps=4) >= 3


def test_vector_env_refuses_bad_actions_and_changes_nothing() -> None:
    """Bad input (issue 14 contracts).

    Illegal, out-of-range, non-integer or wrongly sized actions are refused with a
    clear error, and no game moves; a start of another table is refused.
    """
    envs = VectorEnv(3, CLASSIC, players=4, seed=2)
    _, masks, _ = envs.reset()
    before = envs.states
    legal = [int(row.nonzero()[0][0]) for row in masks]
    illegal = int((masks[1] == 0).nonzero()[0][0])
    bad_actions: list[tuple[list[Any], type[Exception]]] = [
        ([legal[0], illegal, legal[2]], IllegalActionError),
        ([legal[0], -1, legal[2]], IllegalActionError),
        ([legal[0], 10_000, legal[2]], IllegalActionError),
        ([0.0, 1.0, 2.0], TypeError),
        (legal[:2], ValueError),
    ]
    for bad, error in bad_actions:
        with pytest.raises(error):
            envs.step(bad)
        assert envs.states == before
    with pytest.raises(ValueError, match="4 players of classic"):
        envs.reset([GameState.deal(POKER, 4, seed=1)] * 3)
    with pytest.raises(ValueError, match="GameStates"):
        envs.reset(before[:2])
    assert envs.states == before
    _, again, _ = envs.reset()
    assert np.array_equal(again, masks)
    with pytest.raises(TypeError):
        VectorEnv(2, rules=3)  # type: ignore[arg-type]


def test_vector_env_copy_false_returns_its_own_buffers() -> None:
    """Contract: with ``copy=False`` the arrays are the env's, rewritten by each step."""
    envs = VectorEnv(2, CLASSIC, players=4, seed=1, copy=False)
    observations, masks, _ = envs.reset()
    first = observations.copy()
    legal = [int(row.nonzero()[0][0]) for row in masks]
    after, masks_after, _, _, _ = envs.step(legal)
    assert after is observations
    assert masks_after is masks
    assert not np.array_equal(after, first)


def test_a_vector_env_pickles_and_steps_on_like_the_original() -> None:
    """A pickled `VectorEnv` (Poker, polls under way) plays on exactly as the original."""
    envs = VectorEnv(4, POKER, players=4, seed=3)
    _, masks, _ = envs.reset()
    rng = np.random.default_rng(3)
    for _ in range(30):
        _, masks, _, _, _ = envs.step([rng.choice(row.nonzero()[0]) for row in masks])
    copy = pickle.loads(pickle.dumps(envs))  # noqa: S301 - our own bytes
    assert copy.states == envs.states
    assert (copy.polling == envs.polling).all()
    for _ in range(30):
        actions = [rng.choice(row.nonzero()[0]) for row in masks]
        observations, masks, deciders, rewards_out, done = envs.step(actions)
        copied = copy.step(actions)
        assert np.array_equal(observations, copied[0])
        assert np.array_equal(masks, copied[1])
        assert np.array_equal(deciders, copied[2])
        assert np.array_equal(rewards_out, copied[3])
        assert np.array_equal(done, copied[4])


def test_imitation_arrays_from_records() -> None:
    """Issue 12 §2.

    Records become (observation, mask, action) arrays, one row per recorded action,
    every action legal in its own mask.
    """
    rng = random.Random(6)
    games = [
        record(play_game(GameState.deal(POKER, 4, seed=rng), [GreedyPlayer()] * 4, rng))
        for _ in range(3)
    ]
    observations, masks, actions = arrays(games)
    assert (
        len(observations)
        == len(masks)
        == len(actions)
        == sum(len(g.actions) for g in games)
    )
    assert masks[np.arange(len(actions)), actions].all()
    only = arrays(games, seats=[1])[2]
    assert len(only) == sum(a.player == 1 for g in games for a in g.actions)
    with pytest.raises(ValueError, match="no records"):
        arrays([])
    with pytest.raises(ValueError, match="no decision of seats"):
        arrays(games, seats=[7])


def test_rewards_kinds() -> None:
    """Issue 12 §2: score, win and place rewards; an unknown kind is refused."""
    final = play_game(
        GameState.deal(CLASSIC, 4, seed=1), [GreedyPlayer()] * 4, random.Random(1)
    )
    result = result_of(final)
    assert rewards(result, "score") == [float(s) for s in result.scores]
    assert sum(rewards(result, "win")) == pytest.approx(1.0)
    assert sorted(rewards(result, "place")) == pytest.approx([-1.0, -1 / 3, 1 / 3, 1.0])
    with pytest.raises(ValueError, match="reward must be one of"):
        rewards(result, "gold")  # type: ignore[arg-type]


def test_every_preset_has_an_env() -> None:
    """Every preset builds each environment (sanity for the parametrised checkers)."""
    for rules in RULESETS.values():
        assert SoloEnv(rules=rules).action_space.n == ACTIONS.size  # type: ignore[attr-defined]
