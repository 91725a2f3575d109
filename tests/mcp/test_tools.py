"""The agents' tools in process: whole games that leak nothing, refusals, explanations."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.mcp.harness import (
    PRESETS,
    ScriptedAgent,
    Table,
    Tally,
    decline_a_jump_in,
    hidden_cards,
)
from tests.server.harness import leaked
from tienlen import GameState
from tienlen.mcp.tools import MAX_OPEN_GAMES, AgentTools
from tienlen.rules import BaseRules


def _play(games: int, seed: int) -> Tally:
    tally = Tally()
    agent = ScriptedAgent(Table(tally), random.Random(seed))

    async def run() -> None:
        for number in range(games):
            await agent.play(PRESETS[number % len(PRESETS)], seed * 10_000 + number)

    asyncio.run(run())
    return tally


def test_whole_games_leak_nothing_and_accept_nothing_illegal() -> None:
    """Issue 38 item 7: games on the five presets through every tool.

    No answer (text or JSON) names a card another seat holds; no illegal action is
    accepted; every refusal comes in English and Vietnamese and changes nothing.
    """
    tally = _play(60, seed=1)
    assert tally.games == 60
    assert tally.refused > 20
    assert tally.answers_checked > 1000
    assert tally.illegal_accepted == 0
    assert not tally.leaks, tally.leaks[:3]
    assert not tally.problems, tally.problems[:3]


@pytest.mark.slow
def test_many_more_games_leak_nothing() -> None:
    """The same over 500 games."""
    tally = _play(500, seed=2)
    assert tally.illegal_accepted == 0
    assert not tally.leaks, tally.leaks[:3]
    assert not tally.problems, tally.problems[:3]


def test_the_leak_check_finds_a_leak() -> None:
    """The check itself: another seat's card, in notation or with its suit, is caught."""
    tools = AgentTools()
    tools.new_game(seat=0, opponents=["greedy"] * 3, seed=5)
    game = tools.games["g1"]
    other = next(iter(game.state.hand(1)))
    assert other in hidden_cards(game)
    assert leaked(json.dumps({"x": str(other)}), hidden_cards(game))
    assert leaked(f"top: {other.unicode()}", hidden_cards(game))
    for mine in game.state.hand(0):
        assert mine not in hidden_cards(game)


def _leading_game(tools: AgentTools) -> str:
    """A game where the agent leads the first trick (it holds the 3♠)."""
    for seed in range(100):
        reply = tools.new_game(seat=0, opponents=["greedy"] * 3, seed=seed)
        game_id = str(reply.data["game"])
        if tools.games[game_id].observation().is_leading:
            return game_id
    raise AssertionError


def test_a_refusal_has_its_rule_and_both_languages() -> None:
    """An illegal action: the engine's code and rule, a sentence in en and vi."""
    tools = AgentTools()
    game_id = _leading_game(tools)
    before = tools.observe(game_id)
    refused = tools.act(game_id, "pass", lang="vi")
    assert refused.error
    refusal = refused.data["refusal"]
    assert isinstance(refusal, dict)
    assert refusal["code"] == "CANNOT_PASS"
    assert refusal["rule"] == "rules-1-5-1"
    assert refusal["message"]["en"] == "You open this trick: you must play."
    assert refusal["message"]["vi"] in refused.text
    assert tools.observe(game_id) == before


def test_unreadable_text_is_refused_in_both_languages() -> None:
    """Text that names no action: refused with the card problem in en and vi."""
    tools = AgentTools()
    game_id = _leading_game(tools)
    refused = tools.act(game_id, "7x")
    assert refused.error
    refusal = refused.data["refusal"]
    assert isinstance(refusal, dict)
    assert refusal["code"] == "UNREADABLE"
    assert refusal["message"]["en"] != refusal["message"]["vi"]


def test_an_index_names_a_legal_action() -> None:
    """Acting by index takes that action of `legal_actions`; out of range is refused."""
    tools = AgentTools()
    game_id = _leading_game(tools)
    listed = tools.legal_actions(game_id).data["actions"]
    assert isinstance(listed, list)
    first = listed[0]["action"]
    assert tools.act(game_id, len(listed)).data["refusal"]["code"] == "bad-argument"  # type: ignore[index]
    accepted = tools.act(game_id, 0)
    assert accepted.data["action"]["action"] == first  # type: ignore[index]
    assert accepted.data["accepted"] is True


def test_explain_cites_the_rule() -> None:
    """explain: legal, no combination, does not beat; each with its rule's section."""
    tools = AgentTools()
    game_id = _leading_game(tools)
    game = tools.games[game_id]
    legal = tools.explain(game_id, 0)
    assert legal.data["legal"] is True
    assert legal.data["message"] == {
        "en": "Legal now.",
        "vi": "Được phép đánh lúc này.",
    }
    hand = list(game.observation().hand)
    broken = tools.explain(
        game_id, f"{hand[0]} {hand[-1]}"
    )  # no pair: 3 and a high card
    assert broken.data["legal"] is False
    assert broken.data["section"] is not None
    section = broken.data["section"]
    assert isinstance(section, dict)
    assert section["rule"] == broken.data["rule"]
    tools.act(game_id, 0)
    game_state: GameState = game.state
    if game.observation().top is not None and not game.state.is_over:
        lowest = str(game.observation().hand.cards[0])
        answer = tools.explain(game_id, lowest, lang="vi")
        assert answer.text == answer.data["message"]["vi"]  # type: ignore[index]
    assert game.state is game_state  # explaining changes nothing


def test_result_before_and_after_the_end() -> None:
    """result: "not over" during the game; then order, scores and every point's reason."""
    tools = AgentTools()
    game_id = str(tools.new_game(opponents=["greedy"] * 3, seed=3).data["game"])
    assert tools.result(game_id).data == {"game": game_id, "over": False}
    while not tools.observe(game_id).data["over"]:
        tools.act(game_id, 0)
    final = tools.result(game_id, lang="vi")
    game = tools.games[game_id]
    assert final.data["scores"] == list(game.state.final_result().scores)
    assert final.data["finishOrder"] == list(game.state.final_result().finish_order)
    items = final.data["items"]
    assert isinstance(items, list)
    assert all(set(item["message"]) == {"en", "vi"} for item in items)
    assert "thứ tự về" in final.text


def test_house_rules_change_the_preset() -> None:
    """house_rules: settings changed from the preset; a bad setting is refused."""
    tools = AgentTools()
    reply = tools.new_game(
        rules="classic", house_rules={"twos_in_straights": False}, seed=1
    )
    assert not reply.error
    rules = tools.games["g1"].state.rules
    assert isinstance(rules, BaseRules)
    assert rules.twos_in_straights is False
    bad = tools.new_game(rules="classic", house_rules={"no_such_setting": 1}, seed=1)
    assert bad.error
    assert bad.data["refusal"]["code"] == "bad-argument"  # type: ignore[index]
    assert list(tools.games) == ["g1"]


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"rules": "chess"}, "bad-argument"),
        ({"seat": 9}, "bad-argument"),
        ({"opponents": ["clever"]}, "bad-argument"),
        ({"lang": "fr"}, "bad-argument"),
        ({"seed": "x"}, "bad-argument"),
    ],
)
def test_bad_new_games_are_refused(arguments: dict[str, object], code: str) -> None:
    """Bad arguments are refused with a code; no game opens."""
    tools = AgentTools()
    reply = tools.new_game(**arguments)  # type: ignore[arg-type]
    assert reply.error
    assert reply.data["refusal"]["code"] == code  # type: ignore[index]
    assert tools.games == {}


@pytest.mark.parametrize("tool", ["observe", "legal_actions", "result"])
def test_an_unknown_game_is_refused(tool: str) -> None:
    """Every tool refuses a game id that is not open."""
    reply = getattr(AgentTools(), tool)("g7")
    assert reply.error
    assert reply.data["refusal"]["code"] == "no-game"


def test_open_games_are_bounded() -> None:
    """At the bound, a new game replaces the oldest finished one, or is refused."""
    tools = AgentTools()
    for seed in range(MAX_OPEN_GAMES):
        tools.new_game(opponents=["greedy"], seed=seed)
    refused = tools.new_game(opponents=["greedy"], seed=0)
    assert refused.data["refusal"]["code"] == "too-many-games"  # type: ignore[index]
    while not tools.observe("g2").data["over"]:
        tools.act("g2", 0)
    assert (
        tools.new_game(opponents=["greedy"], seed=0).data["game"]
        == f"g{MAX_OPEN_GAMES + 1}"
    )
    assert "g2" not in tools.games
    assert len(tools.games) == MAX_OPEN_GAMES


def test_a_refusal_stays_short_whatever_was_sent() -> None:
    """A megabyte of rules name is refused in a line, not echoed back."""
    reply = AgentTools().new_game(rules="x" * 100_000)
    assert reply.error
    assert len(reply.text) < 300
    assert "known: classic" in reply.text


def test_a_drawn_seed_is_exact_in_any_json() -> None:
    """Without a seed one is drawn and reported, small enough for a JSON double."""
    seeds = {AgentTools().new_game(opponents=["random"]).data["seed"] for _ in range(5)}
    assert all(isinstance(seed, int) and 0 <= seed < 2**53 for seed in seeds)
    assert len(seeds) > 1


def test_a_jump_in_is_offered_and_declined() -> None:
    """Poker: the agent is asked out of turn; a pass declines and the game goes on."""
    tally = Tally()
    reply = asyncio.run(decline_a_jump_in(Table(tally), lang="vi"))
    assert not reply.error
    first = reply.data["events"][0]  # type: ignore[index]
    assert first == {
        "seat": 1,
        "action": "pass",
        "jumpIn": True,
        "wentOut": [],
        "wonTrick": None,
    }
    assert "bạn không chặt ngoài lượt" in reply.text
    assert not tally.leaks
