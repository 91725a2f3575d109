"""Issue 20: the RL surface refuses what it must, and hands agents only their own view.

Item 5: `VectorEnv` never applies an action outside the legal set, whatever the mask
array it handed out says. Item 7: agents and bots get no `GameState` and no other
seat's cards; the perfect-information view is a privileged call with a fixed viewpoint.
Item 8: an illegal action is scored strictly below every legal outcome; the "human"
render mode. Item 9: argument types and values are refused with the library's errors.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

pytest.importorskip("numpy")
import numpy as np

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("rlcard")

from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import render_test

from tests.reach import hidden_reached
from tests.rl.walk import ONE_DECK, table_id
from tienlen import (
    CLASSIC,
    POKER,
    RULESETS,
    Action,
    BaseRules,
    Card,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Observation,
    Pass,
    Play,
    Player,
    RandomPlayer,
    TienLenError,
)
from tienlen.rl import ACTIONS
from tienlen.rl import pettingzoo as tienlen_pettingzoo
from tienlen.rl import rlcard as tienlen_rlcard
from tienlen.rl.gymnasium import SoloEnv
from tienlen.rl.observation import ObservationEncoder, ObservationLayout
from tienlen.rl.turns import IllegalActionError, Reward, Turns, worst_reward
from tienlen.rl.vector import VectorEnv
from tienlen.scoring import StakeScorer

# -- item 5: VectorEnv applies only legal actions ----------------------------------------


def unoffered(masks: np.ndarray[Any, Any], env: int, seed: int) -> tuple[int, int]:
    """A single and a multi-card class (a pair or more) game *env* is not offered now."""
    legal = set(np.flatnonzero(masks[env]).tolist())
    rng = random.Random(seed)
    singles = [
        index
        for index in (ACTIONS.index_of_mask(1 << card) for card in range(52))
        if index not in legal
    ]
    others = [
        index
        for index in range(1, masks.shape[1])
        if index not in legal
        and (entry := ACTIONS[index]) is not None
        and entry.shape.size > 1
    ]
    return rng.choice(singles), rng.choice(others)


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30))
def test_vector_env_never_applies_a_forged_mask_entry(
    rules: BaseRules, seed: int, moves: int
) -> None:
    """Issue 20 item 5.

    With ``copy=False`` the caller may write to the mask array, but
    an index outside the legal set (a single of a card not held or not legal now, a
    multi-card class not offered) is refused with `IllegalActionError` naming the game,
    never applied and never turned into a pass; the batch is unchanged.
    """
    envs = VectorEnv(3, rules, players=4, seed=seed, copy=False)
    _, masks, _ = envs.reset()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        _, masks, _, _, _ = envs.step([rng.choice(row.nonzero()[0]) for row in masks])
    for forged in unoffered(masks, 1, seed):
        legal = [int(row.nonzero()[0][0]) for row in masks]
        before = (envs.states, envs.episodes.copy(), masks.copy(), envs.polling)
        masks[1, forged] = 1  # the env's own buffer: copy=False
        with pytest.raises(IllegalActionError, match="of game 1"):
            envs.step([legal[0], forged, legal[2]])
        assert envs.states == before[0]
        assert np.array_equal(envs.episodes, before[1])
        assert np.array_equal(envs.polling, before[3])
        masks[1, forged] = 0
        assert np.array_equal(masks, before[2])
    _, masks, _, _, _ = envs.step([int(row.nonzero()[0][0]) for row in masks])


def test_vector_env_refuses_an_unheld_two_of_hearts() -> None:
    """Issue 20 item 5, the report's case.

    A mask entry for the single 2♥ of a hand that
    does not hold it (or may not lead it) is refused, and 2♥ never reaches the hand.
    """
    envs = VectorEnv(1, CLASSIC, players=4, seed=1, copy=False)
    _, masks, deciders = envs.reset()
    two = ACTIONS.index_of_mask(1 << Card.parse("2h").index)
    state = envs.states[0]
    masks[0, two] = 1
    with pytest.raises(IllegalActionError, match="52 for seat 0 of game 0"):
        envs.step([two])
    assert envs.states == (state,)
    assert not envs.states[0].history
    assert deciders.tolist() == [0]


def test_vector_env_refuses_booleans() -> None:
    """Issue 20 item 9: ``True`` is not an action index (a bool array is refused)."""
    envs = VectorEnv(2, CLASSIC, players=4, seed=1)
    envs.reset()
    before = envs.states
    with pytest.raises(TypeError, match="integers"):
        envs.step([True, True])
    assert envs.states == before


# -- item 8: illegal play never pays; the human render mode -------------------------


@pytest.mark.parametrize("table", ONE_DECK, ids=table_id)
def test_legal_outcomes_never_go_below_the_worst_reward(
    table: tuple[BaseRules, int],
) -> None:
    """Issue 20 item 8.

    Every seat's reward in random games, for every reward kind, is
    at least `worst_reward`, and `SoloEnv`'s default illegal reward is below it.
    """
    rules, players = table
    kinds: list[Reward] = ["score", "win", "place"]
    lowest = dict.fromkeys(kinds, 0.0)
    rng = random.Random(5)
    for _ in range(25):
        game = Turns.deal(rules, players, rng)
        while game.decider is not None:
            indices = game.legal_indices()
            # Eager play half of the time: 2s and bombs, so chops and penalties happen.
            pick = indices[-1] if rng.random() < 0.5 else rng.choice(indices)
            game.act(pick)
        for kind, least in lowest.items():
            lowest[kind] = min(least, *game.seat_rewards(kind))
    for kind, seen in lowest.items():
        worst = worst_reward(rules, players, kind)
        assert worst is not None
        assert seen >= worst, (kind, seen, worst)
        solo = SoloEnv(rules, players, reward=kind)
        assert solo.illegal_reward < worst


def test_the_worst_scores_of_the_report() -> None:
    """Issue 20 item 8.

    Classic at four pays at most 3 stakes, so an illegal action costs
    more than the −3 of a legal last place (the report: −1 was cheaper than an average
    legal loss).
    """
    assert worst_reward(CLASSIC, 4, "score") == -3.0
    solo = SoloEnv(CLASSIC, 4)
    assert solo.illegal_reward == -4.0
    _, info = solo.reset(seed=1)
    _, reward, done, _, info = solo.step(int(info["action_mask"].argmin()))
    assert (reward, done, info["illegal_action"]) == (-4.0, True, True)
    assert float(reward) < worst_reward(CLASSIC, 4, "score")  # type: ignore[operator]


@pytest.mark.parametrize(
    ("given_reward", "error"),
    [
        (-3.0, InvalidArgumentError),  # not below a legal last place
        (0, InvalidArgumentError),
        (float("nan"), InvalidArgumentError),
        (float("-inf"), InvalidArgumentError),
        (True, TypeError),
        ("-5", TypeError),
    ],
)
def test_the_illegal_reward_setting_is_validated(
    given_reward: object, error: type
) -> None:
    """Issue 20 item 8.

    An explicit illegal reward must be a finite number strictly below
    every legal outcome.
    """
    with pytest.raises(error):
        SoloEnv(CLASSIC, 4, illegal_reward=given_reward)  # type: ignore[arg-type]
    assert SoloEnv(CLASSIC, 4, illegal_reward=-3.5).illegal_reward == -3.5


def test_a_scorer_of_your_own_needs_an_illegal_reward() -> None:
    """Issue 20 item 8: with ``custom_scorer`` no bound is known: the setting is required."""
    rules = attrs.evolve(CLASSIC, name="own", custom_scorer=StakeScorer())
    assert worst_reward(rules, 4, "score") is None
    with pytest.raises(InvalidArgumentError, match="illegal_reward"):
        SoloEnv(rules, 4)
    assert SoloEnv(rules, 4, illegal_reward=-100).illegal_reward == -100.0
    assert SoloEnv(rules, 4, reward="win").illegal_reward == -1.0


def test_pettingzoo_render_test() -> None:
    """Issue 20 item 8: PettingZoo's ``render_test`` passes ("ansi" and "human")."""

    def make(render_mode: str | None = None) -> Any:
        return tienlen_pettingzoo.env(rules=POKER, players=4, render_mode=render_mode)

    render_test(make)


def test_human_render_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 20 item 8: "human" prints the table and returns None, in both envs."""
    solo = SoloEnv(CLASSIC, 4, render_mode="human")
    solo.reset(seed=2)
    assert solo.render() is None
    assert str(solo.state) in capsys.readouterr().out
    game = tienlen_pettingzoo.raw_env(render_mode="human")
    game.reset(seed=2)
    assert game.render() is None
    assert str(game.final_state) in capsys.readouterr().out
    with pytest.raises(InvalidArgumentError, match="render_mode"):
        SoloEnv(render_mode="rgb_array")


@pytest.mark.parametrize("mode", ["ansi", "human", None])
def test_both_envs_render_alike(
    mode: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both envs render through one helper: the same text for the same table, per mode."""
    solo = SoloEnv(CLASSIC, 4, render_mode=mode)
    game = tienlen_pettingzoo.raw_env(rules=CLASSIC, players=4, render_mode=mode)
    solo.reset(seed=3)
    game.reset(seed=3)
    shown = [
        solo.render(),
        capsys.readouterr().out,
        game.render(),
        capsys.readouterr().out,
    ]
    solo_text, game_text = str(solo.state), str(game.final_state)
    expected = {
        "ansi": [solo_text, "", game_text, ""],
        "human": [None, solo_text + "\n", None, game_text + "\n"],
        None: [None, "", None, ""],
    }
    assert shown == expected[mode]
    for bad in ("rgb_array", 1, "ANSI"):
        with pytest.raises(InvalidArgumentError, match="render_mode must be"):
            tienlen_pettingzoo.raw_env(render_mode=bad)


# -- item 9: argument types and values ----------------------------------------------


def test_preset_names_are_rule_sets_everywhere() -> None:
    """Issue 20 item 9.

    Every entry point of `tienlen.rl` takes a preset's name, and
    refuses anything else that is not a rule set with `TypeError`.
    """
    assert SoloEnv(rules="classic").rules is CLASSIC
    assert tienlen_pettingzoo.raw_env(rules="poker").rules is POKER
    assert VectorEnv(1, "poker").rules is POKER
    assert ObservationLayout("classic", 4) == ObservationLayout(CLASSIC, 4)
    assert ObservationEncoder("poker", 4).layout.rules is POKER
    assert Turns.deal("poker", 4, random.Random(1)).state.rules is POKER
    assert worst_reward("classic", 4, "score") == -3.0
    for make in (
        lambda: SoloEnv(rules=3),  # type: ignore[arg-type]
        lambda: tienlen_pettingzoo.raw_env(rules=None),
        lambda: VectorEnv(1, rules=b"classic"),  # type: ignore[arg-type]
        lambda: ObservationLayout(1.5, 4),
    ):
        with pytest.raises(TypeError, match="preset name or a BaseRules"):
            make()
    with pytest.raises(TienLenError, match="unknown variant"):
        SoloEnv(rules="chess")


@pytest.mark.parametrize("history", [-1, 10**9])
def test_a_bad_history_is_a_library_error(history: int) -> None:
    """Issue 20 item 9.

    ``history=-1`` was numpy's ValueError; now the library's, naming
    the argument (and a history too long to allocate is refused the same way).
    """
    for make in (
        lambda: SoloEnv(history=history),
        lambda: tienlen_pettingzoo.raw_env(history=history),
        lambda: VectorEnv(2, history=history),
    ):
        with pytest.raises(InvalidArgumentError, match="history"):
            make()
    with pytest.raises(TypeError, match="history"):
        SoloEnv(history=2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [0.7, "0", True, np.bool_(True), None, 1.0])
def test_solo_step_takes_only_integers(action: object) -> None:
    """Issue 20 item 9.

    `SoloEnv.step` refused ``0.7``, ``"0"``, ``True`` only by luck:
    now any non-integer is a `TypeError` and the game does not move.
    """
    solo = SoloEnv(CLASSIC, 4)
    solo.reset(seed=1)
    before = solo.state
    with pytest.raises(TypeError, match="int index"):
        solo.step(action)  # type: ignore[arg-type]
    assert solo.state is before
    legal = int(solo.action_masks().nonzero()[0][0])
    solo.step(np.int64(legal))  # numpy integers are indices


def test_pettingzoo_step_after_the_end_follows_pettingzoo() -> None:
    """Issue 20 item 9.

    A step after every agent is done was a `KeyError`; now, as
    PettingZoo's order-enforcing wrapper does, it logs a warning and changes nothing.
    A step before reset is the library's error; a dead agent's action must be None.
    """
    game = tienlen_pettingzoo.raw_env(players=2)
    with pytest.raises(IllegalActionError, match="reset"):
        game.step(0)
    game.reset(seed=1)
    while game.agents:
        observation, _, terminated, _, _ = game.last()
        if terminated:
            with pytest.raises(InvalidArgumentError, match="None"):
                game.step(0)
        game.step(
            None if terminated else int(observation["action_mask"].nonzero()[0][0])
        )
    final = game.final_state
    game.step(None)
    game.step(0)
    assert game.final_state is final
    assert game.agents == []
    game.reset(seed=1)
    with pytest.raises(TypeError, match="int index"):
        game.step(True)


# -- item 7: agents see only their own seat ------------------------------------------


def test_rlcard_raw_obs_is_the_seats_observation() -> None:
    """Issue 20 item 7.

    RLCard's ``raw_obs`` was the whole `GameState`; now every state
    handed to an agent is the seat's `Observation`, and nothing in the state dict
    reaches another seat's cards.
    """
    import rlcard  # noqa: PLC0415

    tienlen_rlcard.register()
    env = rlcard.make("tienlen", {"game_rules": "poker", "seed": 4})
    start = env.game.turns.state
    state, seat = env.reset()
    start = env.game.turns.state
    for _ in range(40):
        if env.is_over():
            break
        raw = state["raw_obs"]
        assert type(raw) is Observation
        assert raw == Observation.of(env.game.turns.state, seat)
        assert hidden_reached([state], start, seat) == []
        state, seat = env.step(min(state["legal_actions"]))


def test_pettingzoo_state_is_privileged_with_a_fixed_viewpoint() -> None:
    """Issue 20 item 7.

    ``state()`` has a ``state_space`` and a fixed viewpoint (seat 0
    and every hand from seat 0 on, then the decider), whoever decides; an agent's
    observation is its own.
    """
    game = tienlen_pettingzoo.raw_env(rules=POKER, players=4)
    game.reset(seed=8)
    turns = game._turns
    layout = turns.encoder.layout
    deciders = set()
    while game.agents:
        observation, _, terminated, _, _ = game.last()
        view = game.state()
        assert game.state_space.contains(view)
        state = game.final_state
        expected = turns.encoder.perfect(state, 0)
        assert np.array_equal(view[: len(expected)], expected)
        hands = view[layout.size : layout.size + 4 * 52].reshape(4, 52)
        rows = sorted(tuple(row.nonzero()[0].tolist()) for row in hands)
        held = [tuple(card.index for card in state.hand(seat)) for seat in range(4)]
        assert rows == sorted(held)  # every hand, in play direction from seat 0
        assert tuple(hands[0].nonzero()[0].tolist()) == held[0]
        decider = turns.decider
        assert view[-4:].tolist() == [float(seat == decider) for seat in range(4)]
        deciders.add(decider)
        game.step(
            None if terminated else int(observation["action_mask"].nonzero()[0][0])
        )
    assert len(deciders) > 2


@attrs.frozen
class Peeker:
    """A bot that walks what `SoloEnv` hands it for the other seats' cards."""

    env: list[SoloEnv]
    leaks: list[str] = attrs.field(factory=list, eq=False)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Walk the observation and actions, then play the first action."""
        del rng
        state = self.env[0].state  # the game now: its hands and dealt hands
        self.leaks.extend(
            hidden_reached([observation, actions], state, observation.seat)
        )
        return actions[0]


def test_solo_env_bots_see_only_their_seat() -> None:
    """Issue 20 item 7: the bots of `SoloEnv` are handed their seat's view only."""
    holder: list[SoloEnv] = []
    peekers: list[Player] = [Peeker(holder) for _ in range(3)]
    solo = SoloEnv(POKER, 4, opponents=peekers)
    holder.append(solo)
    for seed in range(3):
        _, info = solo.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = solo.step(int(info["action_mask"].nonzero()[0][0]))
    assert all(not peeker.leaks for peeker in peekers)  # type: ignore[attr-defined]


def test_library_bots_still_play_solo() -> None:
    """Issue 20 item 7: `RandomPlayer` and `GreedyPlayer` play `SoloEnv` games to the end."""
    solo = SoloEnv(RULESETS["vietcong"], 3, opponents=[RandomPlayer(), GreedyPlayer()])
    _, info = solo.reset(seed=4)
    done = False
    while not done:
        _, _, done, _, info = solo.step(int(info["action_mask"].nonzero()[0][-1]))
    assert solo.state.is_over


def test_turns_apply_takes_only_the_deciders_actions() -> None:
    """Issue 20 item 5.

    `Turns.apply` refuses an action of a seat that is not deciding (a pass of the
    player to act while another seat is asked about a jump-in no longer skips the
    poll) and anything that is not an action; the game does not move.
    """
    hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
    start = GameState.from_hands(hands, POKER, first_game=False, leader=0).play("2s")
    game = Turns(start)
    assert (game.decider, game.state.to_act) == (2, 3)
    before = game.state
    for wrong in (Pass(player=3), Play(player=3, cards="4d"), "pass", None):
        with pytest.raises((IllegalActionError, TypeError)):
            game.apply(wrong)  # type: ignore[arg-type]
        assert (game.decider, game.state) == (2, before)
    game.apply(Pass(player=2))  # seat 2 declines: seat 3 decides
    assert game.decider == 3


def test_the_contract_suite_walks_rl() -> None:
    """Issue 20 item 9: tests/contract discovers `tienlen.rl`'s modules and methods."""
    from tests.contract.surface import callables  # noqa: PLC0415

    names = {name for name, _, _ in callables()}
    for expected in (
        "tienlen.rl.vector.VectorEnv.step",
        "tienlen.rl.gymnasium.SoloEnv.step",
        "tienlen.rl.pettingzoo.TienLenEnv.step",
        "tienlen.rl.turns.worst_reward",
        "tienlen.rl.ActionTable.fill",
        "tienlen.rl.observation.ObservationBatch.record",
        "tienlen.rl.imitation.arrays",
    ):
        assert expected in names


def test_solo_episode_over_means_over() -> None:
    """Issue 20 item 8.

    After an illegal action ends the episode, the game cannot be played on (a step
    is refused until `reset`) and the mask is all zeros; a step before the first
    `reset` is refused too.
    """
    solo = SoloEnv(CLASSIC, 4)
    with pytest.raises(IllegalActionError, match="reset"):
        solo.step(0)
    _, info = solo.reset(seed=3)
    legal = int(info["action_mask"].nonzero()[0][0])
    _, _, done, _, info = solo.step(int(info["action_mask"].argmin()))
    assert done
    assert not info["action_mask"].any()
    assert not solo.action_masks().any()
    before = solo.state
    with pytest.raises(IllegalActionError, match="reset"):
        solo.step(legal)
    assert solo.state is before
    _, info = solo.reset(seed=3)
    assert info["action_mask"][legal] == 1
