"""``join_table``: the agent at a seat of a real ``tienlen serve``, over the bot protocol.

The server runs as a subprocess on a free loopback port with a temporary data
folder (tests/server/serving.py). The agent plays through `AgentTools`, as over
MCP; every answer is checked against the hands the server reveals at each hand's
end: no card another seat held at the time may appear in it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from tests.mcp.harness import RANK_PLURALS
from tests.server.harness import leaked
from tests.server.serving import free_port, serving, start
from tienlen import Card, Hand, Play
from tienlen.mcp._remote import RemoteSeat
from tienlen.mcp.session import AgentError
from tienlen.mcp.tools import AgentTools, Reply

DEADLINE = 25.0
"""Seconds any one test may play for."""


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A running ``tienlen serve`` (its main table: classic, 4 seats, instant bots)."""
    with serving(tmp_path / "data", "--bot-delay", "0") as number:
        yield number


class Witness:
    """Every answer the agent got, with what the other seats held when it came.

    The server's ``handEnd`` reveals each hand's deal; the cards played before an
    answer are public. Checked once the hand is over, an answer may name none of
    the rest, except what the hand's result scored (as a local game's result).
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.dealt: dict[int, list[Hand]] = {}
        self.left: dict[int, list[Hand]] = {}
        self.answers: list[tuple[int, frozenset[Card] | None, Reply]] = []
        ended = RemoteSeat._ended

        def spy(seat: RemoteSeat, message: dict[str, object]) -> object:
            dealt, left = message["dealt"], message["left"]
            assert isinstance(dealt, list)
            assert isinstance(left, list)
            hand = int(str(message["hand"]))
            self.dealt[hand] = [Hand.parse(h) for h in dealt]
            self.left[hand] = [Hand.parse(h) for h in left]
            return ended(seat, message)

        monkeypatch.setattr(RemoteSeat, "_ended", spy)

    def saw(self, seat: RemoteSeat, reply: Reply) -> Reply:
        """Keep *reply* with the cards played so far in its hand.

        An answer showing a hand's end (or made in a hand since ended) is checked
        against what the other seats held at the end.
        """
        with seat._changed:  # one consistent snapshot of the seat's hand
            hand = seat.hand
            played = frozenset(
                card for a in seat.history if type(a) is Play for card in a.cards
            )
        said = reply.data.get("hand", hand)
        assert isinstance(said, int)
        ended = said != hand or reply.data.get("over") is True
        self.answers.append((said, None if ended else played, reply))
        return reply

    def shown_ends(self) -> set[int]:
        """The hands whose end, with its result, some answer showed the agent."""
        return {
            hand
            for hand, _, reply in self.answers
            if reply.data.get("over") is True and reply.data.get("result") is not None
        }

    def leaks(self, seat: RemoteSeat) -> list[str]:
        """What the kept answers of finished hands told of other seats' cards."""
        scored = {
            finished.hand: {
                card
                for item in finished.result.items
                for combo in item.combos
                for card in combo.cards
            }
            for finished in seat.finished
        }
        found = []
        for hand, played, reply in self.answers:
            if hand not in self.dealt:
                continue
            held = self.dealt[hand] if played is not None else self.left[hand]
            hidden = [
                card
                for other, cards in enumerate(held)
                if other != seat.seat
                for card in cards
                if card not in (played or ()) and card not in scored.get(hand, set())
            ]
            for said in (reply.text, json.dumps(reply.data, ensure_ascii=False)):
                told = leaked(RANK_PLURALS.sub("…", said), hidden)
                if told:
                    found.append(f"hand {hand}: told {told}: {said[:200]}")
        return found


def _illegal(view: dict[str, object]) -> str | None:
    """An action of the agent's own that is not legal now, if there is one."""
    legal = view["legal"]
    assert isinstance(legal, list)
    if view["top"] is None and "pass" not in legal:
        return "pass"
    held = Hand.parse(str(view["hand"]))
    return next((str(c) for c in held if str(c) not in legal), None)


def _create(port: int, **settings: object) -> str:
    """A new table on the server at *port*, made through the protocol; its id."""
    from websockets.sync.client import connect  # noqa: PLC0415

    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as socket:
        socket.send(json.dumps({"v": 1, "type": "create", **settings}))
        answer = json.loads(socket.recv(timeout=5))
    assert answer["type"] == "created", answer
    return str(answer["table"])


def _play_a_hand(
    tools: AgentTools, game: str, witness: Witness, rng: random.Random
) -> int:
    """Play the seat's hand to its end, now and then illegally; how many refusals.

    Each illegal action is refused with the server's refusal in English and
    Vietnamese and changes nothing.
    """
    seat = tools.seats[game]
    refused = 0
    deadline = time.monotonic() + DEADLINE
    while not seat.finished:
        assert time.monotonic() < deadline, "the hand did not end in time"
        seen = witness.saw(seat, tools.observe(game, rng.choice(["en", "vi"])))
        if not seen.data["yourTurn"]:
            time.sleep(0.02)
            continue
        view = seen.data["view"]
        assert isinstance(view, dict)
        illegal = _illegal(view)
        if illegal is not None and rng.random() < 0.5:
            answer = witness.saw(seat, tools.act(game, illegal))
            assert answer.error
            refusal = answer.data["refusal"]
            assert isinstance(refusal, dict)
            assert refusal["code"] in {"CANNOT_PASS", "DOES_NOT_BEAT", "WRONG_SHAPE"}
            assert refusal["message"]["en"]
            assert refusal["message"]["vi"]
            assert refusal["message"]["en"] != refusal["message"]["vi"]
            assert tools.observe(game).data["view"] == view  # nothing changed
            refused += 1
        listed = witness.saw(seat, tools.legal_actions(game))
        actions = listed.data["actions"]
        assert isinstance(actions, list)
        assert [a["action"] for a in actions] == view["legal"]
        most = max(len(a["action"]) for a in actions)  # mostly shed the most cards
        longest = [a["index"] for a in actions if len(a["action"]) == most]
        choice = rng.choice(longest if rng.random() < 0.8 else range(len(actions)))
        by_text = rng.random() < 0.5
        answer = tools.act(game, actions[choice]["action"] if by_text else choice)
        witness.saw(seat, answer)
        assert not answer.error, answer.text
        assert answer.data["accepted"] is True
    return refused


def _check_result(result: Reply, hand: int) -> None:
    assert result.data["over"] is True
    assert result.data["hand"] == hand
    scores = result.data["scores"]
    assert isinstance(scores, list)
    assert sum(scores) == 0
    assert sorted(result.data["finishOrder"]) == [0, 1, 2, 3]  # type: ignore[call-overload]


def test_an_agent_plays_a_hand_at_a_server_table(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38 item 7, ``join_table``: a one-hand match, refusals, the result.

    No answer names a card another seat holds, the last view (the match over)
    included.
    """
    witness = Witness(monkeypatch)
    tools = AgentTools()
    table = _create(port, rules="classic", players=4, bots=["greedy"] * 4, hands=1)
    joined = tools.join_table(f"ws://127.0.0.1:{port}/ws", table, 1, name="Claude")
    assert not joined.error, joined.text
    game = str(joined.data["game"])
    seat = tools.seats[game]
    witness.saw(seat, joined)
    assert joined.data["view"]["seat"] == 1  # type: ignore[index]
    assert _play_a_hand(tools, game, witness, random.Random(38)) > 0
    _check_result(witness.saw(seat, tools.result(game, "vi")), 1)
    deadline = time.monotonic() + DEADLINE
    while not (seen := witness.saw(seat, tools.observe(game))).data["matchOver"]:
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.02)
    assert seen.data["over"] is True
    assert witness.saw(seat, tools.legal_actions(game)).data["actions"] == []
    late = witness.saw(seat, tools.act(game, 0))
    assert late.data["refusal"]["code"] == "game-over"  # type: ignore[index]
    assert witness.leaks(seat) == []
    assert tools.close_game(game).data == {"game": game, "closed": True}
    assert seat.closed is not None
    assert tools.observe(game).data["refusal"]["code"] == "no-game"  # type: ignore[index]


def test_the_table_plays_on_after_a_hand(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the main table, the hand's end is answered ``ready``: the next is dealt."""
    witness = Witness(monkeypatch)
    tools = AgentTools()
    joined = tools.join_table(f"ws://127.0.0.1:{port}/ws", "main", 3)
    game = str(joined.data["game"])
    seat = tools.seats[game]
    _play_a_hand(tools, game, witness, random.Random(7))
    assert witness.shown_ends() == {1}  # shown before the next hand was dealt
    _check_result(witness.saw(seat, tools.result(game)), 1)
    deadline = time.monotonic() + DEADLINE
    while (seen := witness.saw(seat, tools.observe(game))).data["hand"] == 1:
        assert time.monotonic() < deadline, "the next hand was not dealt"
        time.sleep(0.02)
    assert seen.data["hand"] == 2
    assert seen.data["over"] is False
    assert witness.saw(seat, tools.result(game)).data["hand"] == 1  # still the last
    assert witness.leaks(seat) == []
    tools.close_game(game)


def test_a_bad_address_is_refused(port: int) -> None:
    """Not a ws:// URL, nothing listening, no such table: refused, no hang."""
    tools = AgentTools()
    started = time.monotonic()
    for url, code in [
        (f"http://127.0.0.1:{port}/ws", "bad-argument"),
        ("ws://", "bad-argument"),
        (f"ws://127.0.0.1:{free_port()}/ws", "unreachable"),
        (f"ws://127.0.0.1:{port}/nowhere", "unreachable"),
    ]:
        answer = tools.join_table(url, "main", 0)
        assert answer.error, url
        assert answer.data["refusal"]["code"] == code, answer.text  # type: ignore[index]
    answer = tools.join_table(f"ws://127.0.0.1:{port}/ws", "no-such-table", 0)
    assert answer.data["refusal"]["code"] == "refused"  # type: ignore[index]
    assert "no-table" in answer.text
    assert tools.seats == {}
    assert time.monotonic() - started < 10


def test_a_taken_seat_is_refused_and_a_closed_one_is_free_again(port: int) -> None:
    """A seat somebody holds is refused; once left (``close_game``), it may be taken."""
    tools = AgentTools()
    url = f"ws://127.0.0.1:{port}/ws"
    first = tools.join_table(url, "main", 2)
    assert not first.error, first.text
    again = tools.join_table(url, "main", 2)
    assert again.data["refusal"]["code"] == "refused"  # type: ignore[index]
    assert "seat-taken" in again.text
    assert list(tools.seats) == [first.data["game"]]
    tools.close_game(str(first.data["game"]))
    deadline = time.monotonic() + DEADLINE
    while (answer := tools.join_table(url, "main", 2)).error:  # the leave is applied
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.05)
    tools.close_game(str(answer.data["game"]))


def test_explain_and_evaluate_refuse_a_remote_seat(port: int) -> None:
    """Both need the true game a local game has: refused with their own code."""
    tools = AgentTools()
    game = str(tools.join_table(f"ws://127.0.0.1:{port}/ws", "main", 0).data["game"])
    for answer in (tools.explain(game, "pass"), tools.evaluate([game])):
        assert answer.data["refusal"]["code"] == "remote-game"  # type: ignore[index]
    tools.close_game(game)


def test_a_server_that_stops_ends_the_seat(tmp_path: Path) -> None:
    """The server gone: the last view stays, an action is refused, nothing hangs."""
    port = free_port()
    process = start(tmp_path / "data", port, "--bot-delay", "0")
    try:
        tools = AgentTools()
        joined = tools.join_table(f"ws://127.0.0.1:{port}/ws", "main", 0)
        game = str(joined.data["game"])
        assert joined.data["connected"] is True
    finally:
        process.kill()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()
    deadline = time.monotonic() + DEADLINE
    while tools.observe(game).data["connected"]:
        assert time.monotonic() < deadline, "the closed connection went unnoticed"
        time.sleep(0.02)
    answer = tools.act(game, 0)
    assert answer.data["refusal"]["code"] == "disconnected"  # type: ignore[index]
    seen = tools.observe(game)
    assert seen.data["view"]["seat"] == 0  # type: ignore[index]
    assert "not at the table any more" in seen.text
    assert tools.close_game(game).data["closed"] is True


def test_an_agent_that_does_not_look_does_not_stall_the_table(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not shown a hand's end, the seat still says ``ready`` after its wait."""
    witness = Witness(monkeypatch)
    tools = AgentTools()
    game = str(tools.join_table(f"ws://127.0.0.1:{port}/ws", "main", 0).data["game"])
    seat = tools.seats[game]
    seat.ready_after = 0.2
    seat.wait = 0.0  # act answers at once: the agent does not see the end
    deadline = time.monotonic() + DEADLINE
    while not seat.finished:
        assert time.monotonic() < deadline, "the hand did not end in time"
        if seat.waiting:
            tools.act(game, 0)
        time.sleep(0.01)
    while seat.hand == 1:  # nobody looked at the end: the seat said ready anyway
        assert time.monotonic() < deadline, "the next hand was not dealt"
        time.sleep(0.02)
    assert witness.leaks(seat) == []
    tools.close_game(game)


def test_the_next_hand_waits_until_the_agent_saw_the_end(port: int) -> None:
    """The hand's end is shown, with its result, however late the agent looks.

    Before, the seat said ``ready`` at once and the next hand's view replaced the
    end before a slow agent saw it.
    """
    tools = AgentTools()
    game = str(tools.join_table(f"ws://127.0.0.1:{port}/ws", "main", 2).data["game"])
    seat = tools.seats[game]
    seat.wait = 0.0
    deadline = time.monotonic() + DEADLINE
    while not seat.finished:  # played without a look at the table's answers
        assert time.monotonic() < deadline, "the hand did not end in time"
        if seat.waiting:
            seat.act(0)
        time.sleep(0.01)
    time.sleep(0.5)
    seen = tools.observe(game)
    assert (seen.data["hand"], seen.data["over"]) == (1, True)
    result = seen.data["result"]
    assert isinstance(result, dict)
    assert result["scores"] == tools.result(game).data["scores"]
    while tools.observe(game).data["hand"] == 1:  # seen: the next hand is dealt
        assert time.monotonic() < deadline, "the next hand was not dealt"
        time.sleep(0.02)
    tools.close_game(game)


def test_a_hand_at_a_server_table_over_stdio(port: int) -> None:
    """The SDK's own client joins through ``python -m tienlen mcp`` and plays a hand."""
    from tests.mcp.test_stdio import connect, remote  # noqa: PLC0415  # needs mcp

    async def run() -> tuple[Reply, Reply, Reply]:
        async with connect() as session:
            call = remote(session)
            url = f"ws://127.0.0.1:{port}/ws"
            joined = await call("join_table", {"url": url, "table": "main", "seat": 0})
            game = joined.data["game"]
            refused = None
            deadline = time.monotonic() + DEADLINE
            seen = joined
            while seen.data["handsFinished"] == 0:
                assert time.monotonic() < deadline, "the hand did not end in time"
                view = seen.data["view"]
                assert isinstance(view, dict)
                illegal = _illegal(view) if seen.data["yourTurn"] else None
                if refused is None and illegal is not None:
                    action = {"game": game, "action": illegal, "lang": "vi"}
                    refused = await call("act", action)
                    again = await call("observe", {"game": game})
                    assert again.data["view"] == seen.data["view"]  # nothing changed
                if seen.data["yourTurn"]:
                    seen = await call("act", {"game": game, "action": 0})
                    assert not seen.error, seen.text
                else:
                    await asyncio.sleep(0.02)
                    seen = await call("observe", {"game": game})
            result = await call("result", {"game": game})
            closed = await call("close_game", {"game": game})
            assert closed.data == {"game": game, "closed": True}
            assert refused is not None
            return joined, refused, result

    joined, refused, result = asyncio.run(run())
    assert joined.data["view"]["seat"] == 0  # type: ignore[index]
    assert refused.error
    refusal = refused.data["refusal"]
    assert isinstance(refusal, dict)
    assert refusal["code"] in {"CANNOT_PASS", "DOES_NOT_BEAT", "WRONG_SHAPE"}
    assert refused.text.startswith("Không hợp lệ")
    _check_result(result, 1)


def test_a_server_that_never_answers_is_given_up_on() -> None:
    """A port that accepts the connection but never answers: refused in time, no hang."""
    import socket  # noqa: PLC0415

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"ws://127.0.0.1:{silent.getsockname()[1]}/ws"
        started = time.monotonic()
        with pytest.raises(AgentError) as refused:
            RemoteSeat(url, "main", 0, timeout=0.5)
        assert refused.value.code == "unreachable"
        assert time.monotonic() - started < 5
