"""One agent's game: the bots' turn order, jump-in offers, refusals that change nothing."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

from tests.mcp.harness import PRESETS
from tienlen import (
    CLASSIC,
    POKER,
    Action,
    GameState,
    GreedyPlayer,
    IllegalPlayError,
    InvalidCardError,
    Observation,
    Pass,
    Play,
    Player,
    PlayerError,
    RandomPlayer,
    get_rules,
    play_game,
)
from tienlen.mcp.session import BOT_KINDS, AgentError, AgentGame


class OwnRandom:
    """Chooses at random from its own generator, never the game's."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of *actions*, from the player's own randomness."""
        del observation, rng
        return actions[self.rng.randrange(len(actions))]


def _jump_in_state() -> GameState:
    """Poker: seat 0 led a 2; seat 2 is to act; seat 1 holds four consecutive pairs."""
    return GameState.from_hands(
        ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"],
        POKER,
        first_game=False,
        leader=0,
    ).play("2h", 0)


@pytest.mark.parametrize(
    ("preset", "games"),
    [
        *((preset, 40) for preset in PRESETS),
        pytest.param("poker", 400, marks=pytest.mark.slow, id="poker-jump-ins"),
    ],
)
def test_the_bots_play_in_the_librarys_order(preset: str, games: int) -> None:
    """The same seed and the same choices give `play_game`'s game, jump-ins included.

    The agent's choices come from its own generator, in `AgentGame` and in
    `play_game` alike; the bots share the game's, so any difference in who is asked
    when (a jump-in poll out of order, a bot asked twice) changes the game.
    """
    jumps = 0
    for seed in range(games):
        seat, kinds = seed % 4, ["random", "greedy", "random"]
        game = AgentGame(get_rules(preset), seat=seat, opponents=kinds, seed=seed)
        agent = OwnRandom(seed)
        while game.waiting:
            legal = game.legal()
            game.act(legal.index(agent.act(game.observation(), legal, random.Random())))
        rng = random.Random(seed)
        start = GameState.deal(get_rules(preset), 4, rng)
        others = iter(kinds)
        players: list[Player] = [
            OwnRandom(seed) if s == seat else BOT_KINDS[next(others)]()
            for s in range(4)
        ]
        final = play_game(start, players, rng)
        taken = [
            m.action for m in game.moves if not (m.jumped_in and type(m.action) is Pass)
        ]
        assert taken == list(final.history), (preset, seed)
        assert game.state == final
        jumps += sum(m.jumped_in for m in game.moves)
    assert games < 400 or jumps > 0  # the poll was exercised


def test_the_agent_is_offered_a_jump_in_out_of_turn() -> None:
    """A Poker jump-in is offered to the agent's seat with a pass meaning "no"."""
    game = AgentGame(
        POKER, seat=1, opponents=["greedy", "greedy"], seed=0, start=_jump_in_state()
    )
    assert game.jumping_in
    assert game.state.to_act == 2
    assert [str(a) for a in game.legal()] == ["4s 4c 5s 5c 6s 6c 7s 7c", "pass"]
    assert game.observation().jumping_in
    moves = game.act("4s 4c 5s 5c 6s 6c 7s 7c")
    assert moves[0].jumped_in
    assert moves[0].action.player == 1


def test_declining_a_jump_in_lets_the_player_to_act_go_on() -> None:
    """Declined, the poll goes on: the player to act (a bot) plays; the agent is not asked again."""
    game = AgentGame(
        POKER, seat=1, opponents=["greedy", "greedy"], seed=0, start=_jump_in_state()
    )
    moves = game.act("pass")
    assert moves[0] == moves[0].__class__(Pass(player=1), jumped_in=True)
    assert moves[1].action.player == 2  # seat 2, to act, answered the 2
    assert not game.jumping_in or game.state.history != _jump_in_state().history


def test_a_bot_polled_before_the_agent_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seats polled before the agent and declining are not asked a second time."""
    polls: list[int] = []

    class Declining:
        def act(
            self,
            observation: Observation,
            actions: Sequence[Action],
            rng: random.Random,
        ) -> Action:
            del rng
            if observation.jumping_in:
                polls.append(observation.seat)
                return actions[-1]  # the pass: "do not jump in"
            return actions[0]

    monkeypatch.setitem(BOT_KINDS, "declining", Declining)
    state = GameState.from_hands(
        ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8s 8c 9s 9c Ts Tc Js Jc Qd", "8d Kd"],
        POKER,
        first_game=False,
        leader=0,
    ).play("2h", 0)
    assert state.to_act == 3
    assert state.seats_after(3)[:2] == (2, 1)
    game = AgentGame(
        POKER, seat=1, opponents=["greedy", "declining", "greedy"], seed=0, start=state
    )
    assert polls == [2]
    assert game.jumping_in
    moves = game.act("pass")
    assert polls == [2]  # seat 2 declined this state already
    assert moves[1].action.player == 3  # the player to act went on


class BreaksOnSecondDecision:
    """Plays its first action once, then raises: a bot that fails mid-game."""

    def __init__(self) -> None:
        self.decisions = 0

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The first action, the first time; then a `ValueError`."""
        del observation, rng
        self.decisions += 1
        if self.decisions > 1:
            msg = "broken"
            raise ValueError(msg)
        return actions[0]


class FirstAction:
    """Always the first of its actions (the agent's ``act(0)``)."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The first action."""
        del observation, rng
        return actions[0]


def _play_first_actions(game: AgentGame) -> None:
    """Take the agent's first legal action until the game ends."""
    while game.waiting:
        game.act(0)


def test_a_failing_bot_is_refused_as_play_game_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bots are asked and checked as `play_game` asks them: the same `PlayerError`.

    The moves made before the failure stay recorded.
    """
    monkeypatch.setitem(BOT_KINDS, "breaking", BreaksOnSecondDecision)
    game = AgentGame(CLASSIC, seat=0, opponents=["breaking"], seed=5)
    with pytest.raises(PlayerError) as failed:
        _play_first_actions(game)
    rng = random.Random(5)
    start = GameState.deal(CLASSIC, 2, rng)
    with pytest.raises(PlayerError) as expected:
        play_game(start, [FirstAction(), BreaksOnSecondDecision()], rng)
    assert str(failed.value) == str(expected.value)
    assert type(failed.value.__cause__) is ValueError
    assert [m.action for m in game.moves] == list(game.state.history)
    assert len(game.moves) >= 2


def test_an_illegal_action_changes_nothing() -> None:
    """A refusal leaves the state, the moves and the offer as they were."""
    game = next(
        game
        for seed in range(100)
        if (game := AgentGame(CLASSIC, seat=0, opponents=["greedy"] * 3, seed=seed))
        .observation()
        .is_leading
    )
    state, moves, legal = game.state, list(game.moves), game.legal()
    with pytest.raises(IllegalPlayError) as refused:
        game.act("pass")  # the first lead must be played
    assert refused.value.reason.name == "CANNOT_PASS"
    with pytest.raises(InvalidCardError):
        game.act("7x")
    with pytest.raises(AgentError, match="no action 99"):
        game.act(99)
    assert game.state is state
    assert game.moves == moves
    assert game.legal() == legal


def test_a_finished_game_takes_no_action() -> None:
    """Once the game is over, acting is refused as ``game-over``."""
    game = AgentGame(get_rules("classic"), seat=0, opponents=["greedy"], seed=1)
    while game.waiting:
        game.act(0)
    with pytest.raises(AgentError) as refused:
        game.act(0)
    assert refused.value.code == "game-over"
    assert game.legal() == ()


@pytest.mark.parametrize(
    ("seat", "opponents", "needle"),
    [
        (4, ["greedy"] * 3, "seat 4 is not at a 4-player table"),
        (0, ["greedy", "clever"], "unknown bot kind 'clever'"),
        (0, ["greedy"] * 7, "players"),
        (0, [], "players"),
    ],
)
def test_bad_tables_are_refused(seat: int, opponents: list[str], needle: str) -> None:
    """A seat off the table, an unknown bot, a table size the rules do not seat."""
    with pytest.raises(AgentError, match=needle) as refused:
        AgentGame(get_rules("classic"), seat=seat, opponents=opponents, seed=1)
    assert refused.value.code == "bad-argument"
    copy = pickle.loads(pickle.dumps(refused.value))  # noqa: S301 - our own bytes
    assert (copy.code, str(copy)) == ("bad-argument", str(refused.value))


def test_every_bot_kind_is_a_library_bot() -> None:
    """The kinds name the library's bots (the search bots built only when asked for)."""
    assert isinstance(BOT_KINDS["random"](), RandomPlayer)
    assert isinstance(BOT_KINDS["greedy"](), GreedyPlayer)
    assert {type(BOT_KINDS[k]()).__name__ for k in ("pimc", "ismcts")} == {
        "PIMCPlayer",
        "ISMCTSPlayer",
    }


def test_the_agents_moves_are_recorded_in_order() -> None:
    """Every action of the game is a move, the agent's included, with who won tricks."""
    game = AgentGame(get_rules("classic"), seat=2, opponents=["greedy"] * 3, seed=9)
    while game.waiting:
        game.act(len(game.legal()) - 1)
    assert [m.action for m in game.moves] == list(game.state.history)
    outs = [p for m in game.moves for p in m.went_out]
    assert outs == list(game.state.finish_order)
    assert any(m.won_trick is not None for m in game.moves)
    assert isinstance(game.moves[0].action, Play | Pass)
