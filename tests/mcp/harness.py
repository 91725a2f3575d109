"""A scripted agent for the agents' tools, and the checks every answer goes through.

`ScriptedAgent` plays whole games through a `Table` (the tools in process, or the
same tools over MCP, mirrored in process): mostly legal actions, by index or by
notation, and now and then an illegal one (the seat's own cards that are no legal
play, a pass where it must play, a card it does not hold that was already played),
whose refusal is checked in both languages, and that the view did not change.
Every answer, text and JSON, is checked against the engine's true hands: no card
another seat holds may appear in it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable

import attrs

from tests.server.harness import leaked
from tienlen import Card, Hand
from tienlen.mcp.session import AgentGame
from tienlen.mcp.tools import AgentTools, Reply
from tienlen.rules import RULESETS

PRESETS = sorted(RULESETS)
"""The five presets."""

Remote = Callable[[str, dict[str, object]], Awaitable[Reply]]
"""A tool call over some transport: its name and arguments, and the answer."""


RANK_PLURALS = re.compile(r"\b(?:pair of|three|four|five) (?:[2-9TJQKA]|10)s\b")
"""The English plural of a rank ("a pair of Qs", "four 2s"): words, not the card Q♠."""


def hidden_cards(game: AgentGame) -> list[Card]:
    """The cards the agent must not be told: other seats' hands.

    Once the game is over the result may name cards it scored (a caught 2, say),
    as the table shows them at the end; every other card held stays hidden.
    """
    state = game.state
    scored: set[Card] = set()
    if state.is_over:
        for item in state.final_result().items:
            scored.update(card for combo in item.combos for card in combo.cards)
    return sorted(
        card
        for other in range(state.players)
        if other != game.seat
        for card in state.hand(other)
        if card not in scored
    )


@attrs.define
class Tally:
    """What a run of games did and found."""

    games: int = 0
    decisions: int = 0
    jump_in_offers: int = 0
    refused: int = 0
    illegal_accepted: int = 0
    answers_checked: int = 0
    leaks: list[str] = attrs.Factory(list)
    problems: list[str] = attrs.Factory(list)


class Table:
    """The tools, called in process and, when *remote* is given, over it as well.

    Over a transport, each answer must equal the in-process one (the same seed and
    actions give the same game); the in-process games hold the true hands.
    """

    def __init__(self, tally: Tally, remote: Remote | None = None) -> None:
        self.tools = AgentTools()
        self.remote = remote
        self.tally = tally

    async def call(self, name: str, **args: object) -> Reply:
        """Call tool *name*; check the answer for leaks (and against the transport's)."""
        reply: Reply = getattr(self.tools, name)(**args)
        if self.remote is not None:
            far = await self.remote(name, args)
            near = json.loads(json.dumps(reply.data))
            if (far.text, far.data, far.error) != (reply.text, near, reply.error):
                self.tally.problems.append(f"{name}{args}: {far} != {reply}")
        self._check(reply)
        return reply

    def _check(self, reply: Reply) -> None:
        game_id = reply.data.get("game")
        game = self.tools.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            return
        self.tally.answers_checked += 1
        hidden = hidden_cards(game)
        for said in (reply.text, json.dumps(reply.data, ensure_ascii=False)):
            found = leaked(RANK_PLURALS.sub("…", said), hidden)
            if found:
                self.tally.leaks.append(f"seat {game.seat} told {found}: {said[:300]}")


class ScriptedAgent:
    """Plays games through a `Table` with its own randomness (never the game's)."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng

    async def play(self, preset: str, seed: int) -> None:
        """One whole game of *preset*: 2-4 players, any seat, random and greedy bots."""
        rng, tally = self.rng, self.table.tally
        players = rng.choice((2, 3, 4))
        kinds = [rng.choice(("random", "greedy")) for _ in range(players - 1)]
        lang = rng.choice(("en", "vi"))
        reply = await self.table.call(
            "new_game",
            rules=preset,
            seat=rng.randrange(players),
            opponents=kinds,
            seed=seed,
            lang=lang,
        )
        assert not reply.error, reply
        game_id = str(reply.data["game"])
        game = self.table.tools.games[game_id]
        tally.games += 1
        while not reply.data["over"]:
            tally.decisions += 1
            tally.jump_in_offers += bool(reply.data["view"]["jumpingIn"])  # type: ignore[index]
            if rng.random() < 0.25:
                await self.try_illegal(game_id, game)
            legal = await self.table.call("legal_actions", game=game_id, lang=lang)
            actions = [str(item["action"]) for item in legal.data["actions"]]  # type: ignore[attr-defined]
            expected = [str(action) for action in game.legal()]
            if actions != expected:
                tally.problems.append(f"legal {actions} != {expected}")
            index = rng.randrange(len(actions))
            choice: str | int = index if rng.random() < 0.5 else actions[index]
            if rng.random() < 0.1:
                await self.table.call("explain", game=game_id, action=choice, lang=lang)
            reply = await self.table.call("act", game=game_id, action=choice, lang=lang)
            if reply.error:
                tally.problems.append(f"a legal action {choice!r} was refused: {reply}")
                return
        await self.table.call("result", game=game_id, lang=lang)
        await self.table.call("observe", game=game_id, lang=lang)
        await self.table.call("close_game", game=game_id)

    async def try_illegal(self, game_id: str, game: AgentGame) -> None:
        """Try an action that is not legal now; it must be refused and change nothing."""
        tally = self.table.tally
        attempt = self.illegal_text(game)
        if attempt is None:
            return
        before = await self.table.call("observe", game=game_id)
        moves, state = len(game.moves), game.state
        reply = await self.table.call("act", game=game_id, action=attempt)
        if not reply.error:
            tally.illegal_accepted += 1
            tally.problems.append(f"accepted {attempt!r}, not among {game.legal()}")
            return
        tally.refused += 1
        refusal = reply.data["refusal"]
        assert isinstance(refusal, dict)
        message = refusal["message"]
        if not (message["en"] and message["vi"] and message["en"] != message["vi"]):
            tally.problems.append(f"refusal not in both languages: {refusal}")
        after = await self.table.call("observe", game=game_id)
        if (after.text, after.data) != (before.text, before.data):
            tally.problems.append(f"a refusal changed the view: {attempt!r}")
        if game.state is not state or len(game.moves) != moves:
            tally.problems.append(f"a refusal changed the game: {attempt!r}")
        why = await self.table.call("explain", game=game_id, action=attempt)
        if why.data.get("legal") is not False:
            tally.problems.append(f"explain calls {attempt!r} legal: {why.data}")

    def illegal_text(self, game: AgentGame) -> str | None:
        """An action the agent may not take now, in notation (``None``: none found)."""
        legal = {str(action) for action in game.legal()}
        own = list(game.observation().hand)
        played = [c for m in game.moves for c in getattr(m.action, "cards", ())]
        options = []
        for _ in range(6):
            size = self.rng.randint(1, min(3, len(own)))
            cards = str(Hand.from_cards(self.rng.sample(own, size)))
            if cards not in legal:
                options.append(cards)
        if "pass" not in legal:
            options.append("pass")
        if played:
            options.append(str(self.rng.choice(played)))
        return self.rng.choice(options) if options else None


JUMP_IN_GAME: dict[str, object] = {
    "rules": "poker",
    "seat": 1,
    "opponents": ["random"] * 3,
    "seed": 16,
}
"""A game where the agent, always taking its first legal action, is offered a jump-in."""


async def decline_a_jump_in(table: Table, lang: str = "en") -> Reply:
    """Play `JUMP_IN_GAME` until the agent is offered a jump-in; decline it; the answer."""
    reply = await table.call("new_game", **JUMP_IN_GAME, lang=lang)
    game = str(reply.data["game"])
    while not reply.data["view"]["jumpingIn"]:  # type: ignore[index]
        assert not reply.data["over"], "no jump-in was offered"
        reply = await table.call("act", game=game, action=0, lang=lang)
    listed = await table.call("legal_actions", game=game)
    assert listed.data["jumpingIn"] is True
    assert listed.data["actions"][-1]["action"] == "pass"  # type: ignore[index]
    return await table.call("act", game=game, action="pass", lang=lang)
