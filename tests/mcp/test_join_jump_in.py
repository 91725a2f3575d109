"""``join_table`` at a Poker table: the agent is offered a jump-in out of turn and declines.

The server sends every seat its legal actions, a Poker jump-in included (RULES
§6.4); a bot-protocol seat declines by not sending one (as ``tienlen bot`` does).
The deal is the main table's, from a seed found here with the engine; every seat is
held by the test, so nothing moves but the script's moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from tests.server.serving import serving
from tienlen import POKER, Action, GameState, Play
from tienlen.match import Match
from tienlen.mcp._remote import RemoteSeat
from tienlen.mcp.tools import AgentTools

DEADLINE = 20.0
"""Seconds any one wait may take."""


def _choose(own: Sequence[Action]) -> Action:
    """The script's move: a 2 when it may, else the fewest, lowest cards."""
    plays = [a for a in own if type(a) is Play]
    twos = [a for a in plays if all(str(card)[0] == "2" for card in a.cards)]
    if twos:
        return min(twos, key=str)
    if plays:
        return min(plays, key=lambda a: (len(a.cards), str(a)))
    return own[0]


def _a_jump_in_offered() -> tuple[int, list[Action], GameState]:
    """A seed whose first deal, played by `_choose`, offers a seat a jump-in.

    Returns the seed, the actions up to the offer, and the state offering it.
    """
    for seed in range(5000):
        state = Match.start(POKER, 4, seed).deal()
        script: list[Action] = []
        while not state.is_over:
            legal = list(state.legal_actions())
            if any(a.player != state.to_act for a in legal):
                return seed, script, state
            script.append(_choose([a for a in legal if a.player == state.to_act]))
            state = state.apply(script[-1])
    pytest.fail("no deal offers a jump-in")


def _until(ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not ready():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _play(seat: RemoteSeat, ply: int, action: Action) -> None:
    """*seat* plays *action* once its view is at *ply* and it must decide."""
    _until(lambda: seat.ply == ply and seat.waiting, f"ply {ply}")
    seat.act(str(action))


def _seated(
    tools: AgentTools, url: str, order: Sequence[int], agent: int
) -> tuple[dict[int, RemoteSeat], str]:
    """Every seat of the main table joined in *order*, *agent*'s by ``join_table``.

    Returns the seats and the agent's game id.
    """
    seats: dict[int, RemoteSeat] = {}
    game = ""
    for index in order:
        if index == agent:
            joined = tools.join_table(url, "main", index, name="Claude")
            assert not joined.error, joined.text
            game = str(joined.data["game"])
            seats[index] = tools.seats[game]
            seats[index].wait = 0.1  # its moves of the script: no long wait after
        else:
            seats[index] = RemoteSeat(url, "main", index, f"P{index}", wait=0.1)
    return seats, game


def test_a_joined_seat_declines_a_poker_jump_in(tmp_path: Path) -> None:
    """Offered a jump-in, ``act("pass")`` sends nothing: the table plays on without it."""
    seed, script, offer = _a_jump_in_offered()
    jumps = [a for a in offer.legal_actions() if a.player != offer.to_act]
    jumper = jumps[0].player
    leader, to_act = Match.start(POKER, 4, seed).deal().to_act, offer.to_act
    assert leader is not None
    assert to_act is not None
    assert to_act != jumper
    order = [leader, *(s for s in range(4) if s != leader)]  # no house bot moves
    tools = AgentTools()
    with serving(
        tmp_path / "data", "--rules", "poker", "--seed", str(seed), "--bot-delay", "0"
    ) as port:
        seats, game = _seated(tools, f"ws://127.0.0.1:{port}/ws", order, jumper)
        try:
            for ply, action in enumerate(script):
                _play(seats[action.player], ply, action)
            agent = seats[jumper]
            _until(lambda: agent.ply == len(script) and agent.waiting, "the offer")
            assert agent.jumping_in
            listed = tools.legal_actions(game).data
            assert listed["jumpingIn"] is True
            actions = listed["actions"]
            assert isinstance(actions, list)
            offered = [item["action"] for item in actions]
            assert offered == [*(str(a) for a in jumps), "pass"]

            declined = tools.act(game, "pass")
            assert not declined.error, declined.text
            assert declined.data["action"] == {
                "seat": jumper,
                "action": "pass",
                "jumpIn": True,
                "wentOut": [],
                "wonTrick": None,  # unknown: nothing was played
            }
            assert agent.legal == ()  # asked once at this ply
            assert tools.legal_actions(game).data["actions"] == []
            time.sleep(0.3)  # nothing was sent: the table still waits for its turn
            assert all(seat.ply == len(script) for seat in seats.values())

            mover = seats[to_act]  # the seat to act plays on
            move = _choose([a for a in offer.legal_actions() if a.player == to_act])
            mover.act(str(move))
            _until(lambda: agent.ply == len(script) + 1, "the next ply")
            assert agent.history[-1] == move
            assert not any(
                a.player == jumper and type(a) is Play
                for a in agent.history[len(script) :]
            )
            after = offer.apply(move)
            again = any(a.player == jumper for a in after.legal_actions())
            assert bool(agent.legal) == again  # a new ply: offered again if it may
        finally:
            for seat in seats.values():
                seat.close()
