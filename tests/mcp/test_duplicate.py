"""Duplicate deals for agents: the agent's games counted as `tienlen.evaluate` counts bots."""

from __future__ import annotations

import random

import pytest

from tienlen import GreedyPlayer, evaluate
from tienlen.evaluation import frozen_deals
from tienlen.mcp.duplicate import duplicate_stats, frozen_deal
from tienlen.mcp.session import AgentError, AgentGame
from tienlen.mcp.tools import AgentTools


def _greedy_games(set_name: str, deals: int) -> list[AgentGame]:
    """Each deal of the set played from every seat, the agent choosing as Greedy does."""
    games = []
    greedy = GreedyPlayer()
    for index in range(deals):
        name = f"{set_name}:{index}"
        start = frozen_deal(name)
        for seat in range(4):
            game = AgentGame(
                start.rules,
                seat=seat,
                opponents=["greedy"] * 3,
                seed=index,
                start=start,
                deal=name,
            )
            while game.waiting:
                legal = game.legal()
                choice = greedy.act(game.observation(), legal, random.Random())
                game.act(legal.index(choice))
            games.append(game)
    return games


@pytest.mark.parametrize("set_name", ["classic-150-v1", "poker-150-v1"])
def test_an_agent_playing_greedy_scores_as_greedy_does(set_name: str) -> None:
    """The stats equal `evaluate`'s for four Greedy bots on the same frozen deals.

    Greedy never uses randomness, so the games are the same games: the counting
    (players relative to the agent, rotations, sums over deals) must be the same.
    """
    deals = frozen_deals(set_name)
    expected = evaluate(
        [GreedyPlayer()] * 4, 6, rules=deals.rules, seed=deals.seed, batch_size=25
    )
    assert duplicate_stats(_greedy_games(set_name, 6)) == expected


def test_a_frozen_deal_is_the_sets_deal() -> None:
    """``SET:INDEX`` is the set's deal of that index; bad names are refused."""
    assert (
        frozen_deal("classic-150-v1:4")
        == list(frozen_deals("classic-150-v1").states())[4]
    )
    for bad in ("classic-150-v1:150", "classic-150-v1:x", "chess-1-v1:0", "classic"):
        with pytest.raises(AgentError) as refused:
            frozen_deal(bad)
        assert refused.value.code == "bad-argument"


def test_a_deal_not_played_from_every_seat_is_refused() -> None:
    """Missing seats, a seat twice, or a game not over: no stats."""
    games = _greedy_games("classic-150-v1", 1)
    with pytest.raises(AgentError, match=r"seat\(s\) \[3\]"):
        duplicate_stats(games[:3])
    with pytest.raises(AgentError, match="played twice"):
        duplicate_stats([*games, games[0]])
    with pytest.raises(AgentError, match="no games"):
        duplicate_stats([])
    running = AgentGame(games[0].state.rules, seat=0, opponents=["greedy"] * 3, seed=1)
    with pytest.raises(AgentError, match="not over"):
        duplicate_stats([running])


def test_the_evaluate_tool_reports_the_interval() -> None:
    """The tool: seeds played from every seat give deals, means and 95% intervals."""
    tools = AgentTools()
    ids = []
    for seed in range(3):
        for seat in range(2):
            reply = tools.new_game(seat=seat, opponents=["random"], seed=seed)
            game = str(reply.data["game"])
            while not tools.observe(game).data["over"]:
                tools.act(game, 0)
            ids.append(game)
    answer = tools.evaluate(ids)
    assert not answer.error
    assert answer.data["deals"] == 3
    low, high = answer.data["confidenceIntervals"][0]  # type: ignore[index]
    mean = answer.data["meanScores"][0]  # type: ignore[index]
    assert low <= mean <= high
    assert answer.text.startswith("3 deals x 2 rotations = 6 games")
    assert tools.evaluate(ids[:-1]).data["refusal"]["code"] == "bad-argument"  # type: ignore[index]


def test_a_frozen_deal_through_new_game() -> None:
    """new_game(deal=...) plays that deal on its set's rules; other rules are refused."""
    tools = AgentTools()
    reply = tools.new_game(deal="poker-150-v1:7", seat=2, seed=1)
    assert reply.data["rules"] == "poker"
    game = tools.games[str(reply.data["game"])]
    assert game.deal == "poker-150-v1:7"
    assert game.state.dealt == frozen_deal("poker-150-v1:7").dealt
    refused = tools.new_game(deal="poker-150-v1:7", rules="classic")
    assert refused.data["refusal"]["code"] == "bad-argument"  # type: ignore[index]
