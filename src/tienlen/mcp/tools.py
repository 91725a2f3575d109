"""The agents' tools: open games, and what each tool answers, as text and as JSON.

`AgentTools` holds the open games by id. Each tool method returns a `Reply`: a text
for the agent in English or Vietnamese (the library's own wording: the command
line's table lines, `tienlen.messages`, `tienlen.explain`; cards with suit symbols)
and a JSON object (the per-seat view of the server's protocol,
``tienlen.server.protocol.seat_view``, and its refusal and result shapes). Every
answer is built from the agent's own `Observation`, its own legal actions and the
public moves: no other seat's cards, ever. ``tienlen.mcp.server`` serves these over
MCP; they need no SDK.

Example:
    >>> tools = AgentTools()
    >>> reply = tools.new_game(rules="classic", seat=0, opponents=["greedy"] * 3, seed=7)
    >>> reply.data["game"], reply.data["view"]["seat"], reply.data["view"]["toAct"]
    ('g1', 0, 0)
    >>> print(reply.text.splitlines()[0])
    game g1, classic: you are player 0 of 4
    >>> refused = tools.act("g1", "pass")
    >>> refused.error, refused.data["refusal"]["code"], refused.data["refusal"]["message"]["vi"]
    (True, 'CANNOT_PASS', 'Bạn đang mở vòng nên phải đánh, không được bỏ lượt.')
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from tienlen.cards import Hand
from tienlen.errors import (
    IllegalPlayError,
    IllegalReason,
    InvalidCardError,
    TienLenError,
)
from tienlen.explain import explain_beats, why_not_combination
from tienlen.game import Action, Pass, Play
from tienlen.mcp._remote import RemoteRefusalError, RemoteSeat
from tienlen.mcp.duplicate import duplicate_stats, frozen_deal
from tienlen.mcp.session import AgentError, AgentGame, Move, rules_named
from tienlen.messages import (
    LANGUAGES,
    instant_win_name,
    place_name,
    score_line,
    text,
)
from tienlen.players import Observation
from tienlen.records import RecordError, rules_from_json, rules_to_json
from tienlen.rules import BaseRules, RuleSet
from tienlen.scoring import GameResult
from tienlen.sections import rule_section
from tienlen.server.protocol import action_json, refusal_json, seat_view

__all__ = ["MAX_OPEN_GAMES", "AgentTools", "Reply"]

MAX_OPEN_GAMES: Final = 100
"""The most games open at once; a new one closes the oldest finished game first."""

Json = dict[str, object]


@attrs.frozen
class Reply:
    """A tool's answer: *text* for the agent, *data* as JSON, *error* if refused.

    Example:
        >>> Reply("ok", {"game": "g1"}).error
        False
    """

    text: str
    """The answer in words, in the language asked for."""
    data: Json
    """The answer as a JSON object."""
    error: bool = False
    """Whether the request was refused (nothing changed)."""


def _refused(error: TienLenError, lang: str) -> Reply:
    """A refused request as a `Reply`: its code and its sentence in both languages."""
    if isinstance(error, RemoteRefusalError):
        refusal = error.refusal
    elif isinstance(error, IllegalPlayError):
        refusal = refusal_json(error)
    elif isinstance(error, InvalidCardError):
        refusal = {
            "code": "UNREADABLE",
            "reason": error.problem,
            "rule": None,
            "action": None,
            "message": {each: error.message(each) for each in LANGUAGES},
        }
    else:
        code = error.code if isinstance(error, AgentError) else "bad-argument"
        refusal = {"code": code, "message": {"en": str(error), "vi": str(error)}}
    said = refusal["message"]
    assert isinstance(said, dict)
    line = text("cli.not_allowed", lang, why=said[lang])
    return Reply(line, {"accepted": False, "refusal": refusal}, error=True)


def _check_lang(lang: object) -> str:
    if lang not in LANGUAGES:
        msg = f"unknown language {lang!r:.20} (known: {', '.join(LANGUAGES)})"
        raise AgentError("bad-argument", msg)
    return str(lang)


def _shown(action: Action, lang: str) -> str:
    """An action as players read it: cards with suit symbols, or the word for a pass."""
    if type(action) is Play:
        return action.cards.unicode()
    return text("word.pass", lang)


def _count(cards: int, lang: str) -> str:
    if cards == 1:
        return text("cli.cards.one", lang)
    return text("cli.cards.many", lang, count=cards)


def _move_lines(move: Move, seat: int, lang: str) -> list[str]:
    """A move as the command line's ``play`` prints it, in the agent's second person."""
    action = move.action
    if action.player == seat:
        if type(action) is Pass:
            key = "agent.declined" if move.jumped_in else "cli.you_pass"
            lines = [text(key, lang)]
        else:
            lines = [text("cli.you_play", lang, cards=_shown(action, lang))]
    elif type(action) is Pass:
        lines = [text("cli.passes", lang, player=action.player)]
    else:
        key = "cli.jumps_in" if move.jumped_in else "cli.plays"
        lines = [text(key, lang, player=action.player, cards=_shown(action, lang))]
    for player in move.went_out:
        lines.append(
            text("cli.out.you", lang)
            if player == seat
            else text("cli.out", lang, player=player)
        )
    if move.won_trick is not None:
        winner = move.won_trick
        lines.append(
            text("cli.trick_won.you", lang)
            if winner == seat
            else text("cli.trick_won", lang, player=winner)
        )
    return lines


def _kind(game: AgentGame, action: Action) -> str:
    """A legal action's kind: ``"pass"``, or its combination's (``"straight"``)."""
    if type(action) is not Play:
        return "pass"
    combo = game.state.rules.classify(action.cards)
    assert combo is not None  # a legal play is a combination
    return combo.kind.name.lower()


def _move_json(move: Move) -> Json:
    data = action_json(move.action)
    data.update(
        jumpIn=move.jumped_in, wentOut=list(move.went_out), wonTrick=move.won_trick
    )
    return data


def _finite(value: float) -> float | None:
    """*value*, or ``None`` for the ``nan`` of too few games (JSON has no NaN)."""
    return None if math.isnan(value) else round(value, 6)


def _section(label: str | None) -> Json | None:
    """The rules reference's section *label*: number, title and address."""
    if label is None:
        return None
    section = rule_section(label)
    return {"rule": label, "number": section.number, "title": section.title}


class AgentTools:
    """The open games of one server, and the tools that play them.

    Example:
        >>> tools = AgentTools()
        >>> tools.new_game(opponents=["random"], seed=3).data["game"]
        'g1'
        >>> tools.observe("g2").data["refusal"]["code"]
        'no-game'
    """

    def __init__(self) -> None:
        self.games: dict[str, AgentGame] = {}
        """The open games, by id, oldest first."""
        self.seats: dict[str, RemoteSeat] = {}
        """The seats taken at servers' tables (`join_table`), by game id."""
        self._next = 1

    # -- the tools -------------------------------------------------------------------

    def new_game(
        self,
        *,
        rules: str | None = None,
        house_rules: Mapping[str, object] | None = None,
        seat: int = 0,
        opponents: Sequence[str] = ("greedy", "greedy", "greedy"),
        seed: int | None = None,
        deal: str | None = None,
        lang: str = "en",
    ) -> Reply:
        """Deal a new game: the agent at *seat*, a bot of each *opponents* kind elsewhere.

        *rules* names a preset (classic by default); *house_rules* changes its
        settings (a mapping of setting to value, as `tienlen.records.rules_to_json`
        writes them, or a whole rule set as it writes it). *seed* seeds the deal
        and the bots (drawn, and reported, when omitted): every seat of one seed
        is dealt the same hands. *deal* plays a frozen deal instead
        (``"classic-150-v1:17"``, `tienlen.mcp.duplicate.frozen_deal`) on its
        set's rules. The bots play until the agent must act; the answer is the
        agent's view then.

        Example:
            >>> reply = AgentTools().new_game(rules="poker", seat=1, opponents=["random"] * 2, seed=5)
            >>> reply.data["rules"], reply.data["players"], reply.data["bots"]
            ('poker', 3, {'0': 'random', '2': 'random'})
        """
        try:
            lang = _check_lang(lang)
            table: RuleSet = self._rules(
                "classic" if rules is None else rules, house_rules
            )
            if seed is None:
                seed = random.SystemRandom().randrange(10**9)  # exact in any JSON
            elif type(seed) is not int:
                msg = f"a seed is an integer, not {type(seed).__name__}"
                raise AgentError("bad-argument", msg)
            start = None if deal is None else frozen_deal(deal)
            if start is not None:
                if rules is not None and rules != start.rules.name:
                    msg = f"the deal {deal} is of {start.rules.name}, not {rules!r:.40}"
                    raise AgentError("bad-argument", msg)
                table = start.rules
            self._make_room()
            game = AgentGame(
                table,
                seat=seat,
                opponents=list(opponents),
                seed=seed,
                start=start,
                deal=deal,
            )
        except TienLenError as error:
            return _refused(error, lang if lang in LANGUAGES else "en")
        game_id = f"g{self._next}"
        self._next += 1
        self.games[game_id] = game
        return self._view(game_id, game, lang)

    def join_table(
        self,
        url: str,
        table: str,
        seat: int,
        name: str = "agent",
        lang: str = "en",
    ) -> Reply:
        """Take *seat* at *table* of a running ``tienlen serve`` at *url* (``ws://…/ws``).

        The seat is claimed as a remote bot claims it (docs/server.md), under
        *name*; the answer is a game id and the seat's view, and `observe`,
        `legal_actions`, `act`, `result` and `close_game` then play it as a local
        game (`explain` and `evaluate` work on local games only). A hand's end is
        shown as a local game's; once shown (or after
        30 seconds) the seat says ``ready`` and the
        table deals the next hand; `result` gives the last finished hand's result. Refused (nothing joined): a bad URL
        (``bad-argument``), no server answering in time (``unreachable``), a seat
        the server refuses (``refused``: taken, no such table).

        Example:
            >>> AgentTools().join_table("ws://127.0.0.1:9/ws", "main", 0).data["refusal"]["code"]
            'unreachable'
        """
        try:
            lang = _check_lang(lang)
            self._make_room()
            joined = RemoteSeat(url, table, seat, name)
        except TienLenError as error:
            return _refused(error, lang if lang in LANGUAGES else "en")
        game_id = f"g{self._next}"
        self._next += 1
        self.seats[game_id] = joined
        return self._seat_view(game_id, joined, lang)

    def observe(self, game: str, lang: str = "en") -> Reply:
        """The agent's view of *game*: the table, its hand, the moves since it last acted.

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(seat=0, opponents=["greedy"], seed=2)
            >>> view = tools.observe("g1", "vi").data["view"]
            >>> view["seat"], view["counts"]
            (0, [13, 13])
        """
        try:
            lang = _check_lang(lang)
            if game in self.seats:
                return self._seat_view(game, self.seats[game], lang)
            return self._view(game, self._game(game), lang)
        except TienLenError as error:
            return _refused(error, "en")

    def legal_actions(self, game: str, lang: str = "en") -> Reply:
        """The agent's legal actions now, each with its index and notation.

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(seat=0, opponents=["greedy"], seed=2)
            >>> tools.legal_actions("g1").data["actions"][0]["index"]
            0
        """
        try:
            lang = _check_lang(lang)
            if game in self.seats:
                return self._seat_legal(game, self.seats[game], lang)
            found = self._game(game)
        except TienLenError as error:
            return _refused(error, "en")
        legal = found.legal()
        listed: list[Json] = [
            {
                "index": index,
                "action": str(action),
                "cards": _shown(action, "en") if type(action) is Play else None,
                "kind": _kind(found, action),
            }
            for index, action in enumerate(legal)
        ]
        shown = " | ".join(
            text("agent.legal_action", lang, index=i, action=_shown(a, lang))
            for i, a in enumerate(legal)
        )
        line = (
            text("cli.legal", lang, plays=shown) if legal else text("agent.over", lang)
        )
        data: Json = {
            "game": game,
            "jumpingIn": found.jumping_in,
            "actions": listed,
        }
        return Reply(line, data)

    def act(self, game: str, action: str | int, lang: str = "en") -> Reply:
        """Take the agent's *action* (notation, or an index of `legal_actions`).

        Refused, it changes nothing: the answer holds the engine's refusal, its
        code, rule and sentence in English and Vietnamese. Accepted, the bots play
        until the agent must act again or the game ends; the answer lists their
        moves and the agent's view then.

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(seat=0, opponents=["greedy"], seed=2)
            >>> tools.act("g1", "7x").data["refusal"]["code"]
            'UNREADABLE'
            >>> tools.act("g1", 0).data["accepted"]
            True
        """
        try:
            lang = _check_lang(lang)
            if game in self.seats:
                return self._seat_act(game, self.seats[game], action, lang)
            found = self._game(game)
            moves = found.act(action)
        except TienLenError as error:
            return _refused(error, lang if lang in LANGUAGES else "en")
        reply = self._view(game, found, lang)
        data = dict(reply.data, accepted=True, action=_move_json(moves[0]))
        return Reply(reply.text, data)

    def explain(self, game: str, action: str | int, lang: str = "en") -> Reply:
        """Why *action* is, or is not, legal for the agent now, with the rule's section.

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(seat=0, opponents=["greedy"], seed=2)
            >>> answer = tools.explain("g1", "pass")
            >>> answer.data["legal"], answer.data["code"], answer.data["section"]["number"]
            (False, 'CANNOT_PASS', '1.5.1')
        """
        try:
            lang = _check_lang(lang)
            found = self._game(game)
            if found.state.is_over or type(action) is int:
                chosen = found.resolve(action)  # an index, or "game-over"
            else:
                chosen = found.state.parse_action(str(action)[:200], player=found.seat)
        except InvalidCardError as error:
            return _refused(error, lang)
        except TienLenError as error:
            return _refused(error, "en")
        return self._explain(game, found, chosen, lang)

    def result(self, game: str, lang: str = "en") -> Reply:
        """The finished game's finishing order, scores and the reason of each point.

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(seat=0, opponents=["greedy"], seed=2)
            >>> tools.result("g1").data["over"]
            False
        """
        try:
            lang = _check_lang(lang)
            if game in self.seats:
                return self._seat_result(game, self.seats[game], lang)
            found = self._game(game)
        except TienLenError as error:
            return _refused(error, "en")
        data: Json = {"game": game, "over": found.state.is_over}
        if not found.state.is_over:
            return Reply(text("agent.not_over", lang), data)
        result = found.state.final_result()
        data.update(self._result_json(result))
        lines = self._result_lines(result, found.seat, lang)
        return Reply("\n".join(lines), data)

    def evaluate(self, games: Sequence[str], lang: str = "en") -> Reply:
        """The agent's duplicate evaluation over finished *games*, as `tienlen.evaluate`'s.

        Every deal among them must have been played once from every seat (the same
        ``seed``, or the same frozen ``deal``, at every ``seat``), against the same
        bots. Player 0 is the agent, player *p* the bot *p* seats after it; the
        answer has each one's mean score with its 95% confidence interval over
        deals, its rating and its places.

        Example:
            >>> tools = AgentTools()
            >>> for seat in range(2):
            ...     game = tools.new_game(seat=seat, opponents=["random"], seed=4).data["game"]
            ...     while not tools.observe(game).data["over"]:
            ...         _ = tools.act(game, 0)
            >>> answer = tools.evaluate(["g1", "g2"])
            >>> answer.data["deals"], answer.data["games"]
            (1, 2)
        """
        try:
            lang = _check_lang(lang)
            if isinstance(games, str) or not isinstance(games, Sequence):
                msg = "games are a list of game ids"
                raise AgentError("bad-argument", msg)
            stats = duplicate_stats([self._game(game) for game in games])
        except TienLenError as error:
            return _refused(error, "en")
        intervals = [stats.confidence_interval(p) for p in range(stats.players)]
        data: Json = {
            "games": stats.games,
            "deals": stats.deals,
            "rotations": stats.rotations,
            "rules": stats.rules.name if stats.rules is not None else None,
            "meanScores": [_finite(mean) for mean in stats.mean_scores],
            "confidenceIntervals": [[_finite(lo), _finite(hi)] for lo, hi in intervals],
            "ratings": [_finite(rating) for rating in stats.ratings],
            "places": [list(row) for row in stats.places],
        }
        return Reply(stats.summary(), data)

    def close_game(self, game: str) -> Reply:
        """Forget *game* (finished or not).

        Example:
            >>> tools = AgentTools()
            >>> _ = tools.new_game(opponents=["greedy"], seed=2)
            >>> tools.close_game("g1").data, list(tools.games)
            ({'game': 'g1', 'closed': True}, [])
        """
        if game in self.seats:
            self.seats.pop(game).close()
            return Reply(f"closed {game}", {"game": game, "closed": True})
        try:
            self._game(game)
        except TienLenError as error:
            return _refused(error, "en")
        del self.games[game]
        return Reply(f"closed {game}", {"game": game, "closed": True})

    # -- helpers ---------------------------------------------------------------------

    def _game(self, game: object) -> AgentGame:
        found = self.games.get(game) if isinstance(game, str) else None
        if found is None and game in self.seats:
            msg = f"{game} is a seat at a server's table: explain and evaluate need a local game"
            raise AgentError("remote-game", msg)
        if found is None:
            msg = f"no open game {game!r:.40} (open: {', '.join(self.games) or 'none'})"
            raise AgentError("no-game", msg)
        return found

    def _make_room(self) -> None:
        if len(self.games) + len(self.seats) < MAX_OPEN_GAMES:
            return
        for game_id, game in self.games.items():
            if game.state.is_over:
                del self.games[game_id]
                return
        msg = f"{MAX_OPEN_GAMES} games are open and none is over: close one first"
        raise AgentError("too-many-games", msg)

    @staticmethod
    def _rules(name: object, house: object) -> BaseRules:
        if not isinstance(name, str):
            msg = f"rules are named by a preset, not {type(name).__name__}"
            raise AgentError("bad-argument", msg)
        preset = rules_named(name)
        if house is None:
            return preset
        if not isinstance(house, Mapping):
            msg = f"house rules are a JSON object, not {type(house).__name__}"
            raise AgentError("bad-argument", msg)
        data = dict(house) if set(house) == {"name", "settings"} else None
        if data is None:
            written = rules_to_json(preset)
            settings = written["settings"]
            assert isinstance(settings, dict)
            data = {"name": preset.name, "settings": {**settings, **house}}
        try:
            return rules_from_json(data, "house_rules")
        except RecordError as error:
            raise AgentError("bad-argument", str(error)) from None

    def _view(self, game_id: str, game: AgentGame, lang: str) -> Reply:
        """The agent's view of *game*: text and JSON."""
        seen = game.observation()
        legal = [str(action) for action in game.legal()]
        view = seat_view(seen, legal)
        view["jumpingIn"] = game.jumping_in
        recent = game.moves[game.last_decision :]
        data: Json = {
            "game": game_id,
            "rules": seen.rules.name,
            "seat": game.seat,
            "players": seen.players,
            "bots": {str(seat): kind for seat, kind in game.kinds.items()},
            "seed": game.seed,
            "view": view,
            "events": [_move_json(move) for move in recent],
            "yourTurn": game.waiting,
            "over": game.state.is_over,
            "result": self._result_json(game.state.final_result())
            if game.state.is_over
            else None,
        }
        return Reply("\n".join(self._view_lines(game_id, game, lang)), data)

    @staticmethod
    def _view_lines(game_id: str, game: AgentGame, lang: str) -> list[str]:
        seen = game.observation()
        header = text(
            "agent.header",
            lang,
            game=game_id,
            rules=seen.rules.name,
            seat=game.seat,
            players=seen.players,
        )
        lines = [header]
        recent = game.moves[game.last_decision :]
        if recent:
            lines.append(text("agent.since", lang))
            lines += [
                f"  {line}"
                for move in recent
                for line in _move_lines(move, game.seat, lang)
            ]
        if game.state.is_over:
            result = game.state.final_result()
            return [*lines, *AgentTools._result_lines(result, game.seat, lang)]
        if seen.top is None:
            lines.append(text("cli.top.none", lang))
        else:
            lines.append(
                text(
                    "agent.top", lang, cards=seen.top.unicode(), player=seen.last_player
                )
            )
        for other in seen.opponents:
            key = "cli.seat.passed" if other in seen.passed else "cli.seat"
            cards = _count(seen.card_counts[other], lang)
            lines.append(text(key, lang, player=other, cards=cards))
        lines.append(text("cli.your_hand", lang, cards=seen.hand.unicode()))
        if game.jumping_in:
            lines.append(text("cli.jump_in", lang))
        else:
            lines.append(text("agent.your_turn", lang))
        return lines

    # -- a seat at a server's table ------------------------------------------------

    def _seat_view(self, game_id: str, seat: RemoteSeat, lang: str) -> Reply:
        """The agent's view of its seat at a server's table: text and JSON."""
        view = dict(seat.view)
        over = seat.between or seat.match_over
        last = seat.finished[-1].result if seat.finished else None
        recent = seat.moves[seat.last_decision :]
        data: Json = {
            "game": game_id,
            "rules": None if seat.rules is None else seat.rules.name,
            "seat": seat.seat,
            "players": view.get("players"),
            "bots": {},
            "seed": None,
            "view": view,
            "events": [_move_json(move) for move in recent],
            "yourTurn": seat.waiting,
            "over": over,
            "result": None if not over or last is None else self._result_json(last),
            "table": seat.table,
            "hand": seat.hand,
            "handsFinished": len(seat.finished),
            "matchOver": seat.match_over,
            "connected": seat.closed is None,
        }
        rules = data["rules"]
        header = text(
            "agent.header",
            lang,
            game=game_id,
            rules=rules,
            seat=seat.seat,
            players=data["players"],
        )
        lines = [
            f"{header} ({_REMOTE['hand'][lang].format(table=seat.table, hand=seat.hand)})"
        ]
        if recent:
            lines.append(text("agent.since", lang))
            lines += [
                f"  {line}"
                for move in recent
                for line in _move_lines(move, seat.seat, lang)
            ]
        if over and last is not None:
            lines += self._result_lines(last, seat.seat, lang)
        elif seat.rules is not None and view:
            lines += self._table_lines(seat.observation(), lang)
            if seat.waiting:
                key = "cli.jump_in" if seat.jumping_in else "agent.your_turn"
                lines.append(text(key, lang))
            elif view.get("toAct") is not None:
                lines.append(_REMOTE["waiting"][lang].format(player=view["toAct"]))
        if seat.closed is not None:
            lines.append(_REMOTE["closed"][lang].format(why=seat.closed))
        if over:
            seat.shown_end()
        return Reply("\n".join(lines), data)

    @staticmethod
    def _table_lines(seen: Observation, lang: str) -> list[str]:
        """The top, every other seat's count of cards, and the agent's hand."""
        if seen.top is None:
            lines = [text("cli.top.none", lang)]
        else:
            top = seen.top.unicode()
            lines = [text("agent.top", lang, cards=top, player=seen.last_player)]
        for other in seen.opponents:
            key = "cli.seat.passed" if other in seen.passed else "cli.seat"
            cards = _count(seen.card_counts[other], lang)
            lines.append(text(key, lang, player=other, cards=cards))
        lines.append(text("cli.your_hand", lang, cards=seen.hand.unicode()))
        return lines

    @staticmethod
    def _seat_legal(game_id: str, seat: RemoteSeat, lang: str) -> Reply:
        """The seat's legal actions, as `legal_actions` lists a local game's."""
        legal = seat.legal
        rules = seat.rules
        listed: list[Json] = []
        for index, action in enumerate(legal):
            combo = None
            if action != "pass" and rules is not None:
                combo = rules.classify(Hand.parse(action))
            listed.append(
                {
                    "index": index,
                    "action": action,
                    "cards": None if action == "pass" else Hand.parse(action).unicode(),
                    "kind": "pass" if combo is None else combo.kind.name.lower(),
                }
            )
        shown = " | ".join(
            text(
                "agent.legal_action",
                lang,
                index=item["index"],
                action=item["cards"] or text("word.pass", lang),
            )
            for item in listed
        )
        line = (
            text("cli.legal", lang, plays=shown) if legal else text("agent.over", lang)
        )
        data: Json = {"game": game_id, "jumpingIn": seat.jumping_in, "actions": listed}
        return Reply(line, data)

    def _seat_act(
        self, game_id: str, seat: RemoteSeat, action: str | int, lang: str
    ) -> Reply:
        """Play the agent's *action* at its seat; its view once the server answered."""
        before = (seat.hand, len(seat.moves))
        seat.act(action)
        reply = self._seat_view(game_id, seat, lang)
        mine = [
            move
            for move in seat.moves[before[1] :]
            if seat.hand == before[0]
            if move.action.player == seat.seat
        ]
        played = _move_json(mine[0]) if mine else None
        return Reply(reply.text, dict(reply.data, accepted=True, action=played))

    def _seat_result(self, game_id: str, seat: RemoteSeat, lang: str) -> Reply:
        """The last finished hand's result at the agent's seat."""
        data: Json = {"game": game_id, "over": bool(seat.finished)}
        if not seat.finished:
            return Reply(text("agent.not_over", lang), data)
        last = seat.finished[-1]
        data.update(
            self._result_json(last.result), hand=last.hand, matchOver=last.match_over
        )
        lines = self._result_lines(last.result, seat.seat, lang)
        seat.shown_end()
        return Reply("\n".join(lines), data)

    @staticmethod
    def _result_json(result: GameResult) -> Json:
        win = result.instant_win
        return {
            "finishOrder": list(result.finish_order),
            "scores": list(result.scores),
            "instantWin": None if win is None else instant_win_name(win, "en"),
            "items": [
                {
                    "kind": item.kind.name.lower(),
                    "player": item.player,
                    "payer": item.payer,
                    "points": item.points,
                    "cards": [str(combo) for combo in item.combos],
                    "message": {each: score_line(item, each) for each in LANGUAGES},
                }
                for item in result.items
            ],
        }

    @staticmethod
    def _result_lines(result: GameResult, seat: int, lang: str) -> list[str]:
        lines = [text("agent.over", lang)]
        if result.instant_win is not None:
            hand = instant_win_name(result.instant_win, lang)
            lines.append(text("cli.instant_win", lang, player=result.winner, hand=hand))
        order = ", ".join(
            text("cli.player", lang, player=p) for p in result.finish_order
        )
        lines.append(text("cli.finish_order", lang, order=order))
        scores = ", ".join(
            text("cli.score", lang, player=player, points=f"{points:+d}")
            for player, points in enumerate(result.scores)
        )
        lines.append(text("cli.scores", lang, scores=scores))
        lines += [f"  {score_line(item, lang)}" for item in result.items]
        if seat in result.finish_order:
            place = result.finish_order.index(seat) + 1
            players = len(result.scores)
            named = place_name(place, len(result.finish_order), lang)
            lines.append(text("cli.your_place", lang, place=named, players=players))
        return lines

    @staticmethod
    def _explain(game_id: str, game: AgentGame, action: Action, lang: str) -> Reply:
        """Whether *action* is legal for the agent now, and the rule that decides."""
        legal = action in game.legal()
        data: Json = {"game": game_id, "action": str(action), "legal": legal}
        refusal = None if legal else _refusal_of(game, action)
        if refusal is None:
            messages = {each: text("agent.legal_now", each) for each in LANGUAGES}
            rule: str | None = None
            data["code"] = None
        else:
            messages = {each: refusal.message(each) for each in LANGUAGES}
            rule = refusal.rule
            data["code"] = refusal.reason.name
        reason = None if refusal is None else refusal.reason
        top = game.observation().top
        if type(action) is Play:
            rules = game.state.rules
            why = why_not_combination(action.cards, rules)
            combo = rules.classify(action.cards)
            data["combination"] = None if combo is None else combo.kind.name.lower()
            if why is not None and reason is IllegalReason.NOT_A_COMBO:
                messages = {each: why.message(each) for each in LANGUAGES}
                rule = why.rule
            elif combo is not None and top is not None and reason in _BEATING:
                verdict = explain_beats(combo, top, rules)
                data["beats"] = verdict.beats
                messages = {each: verdict.message(each) for each in LANGUAGES}
                rule = verdict.rule
        data.update(message=messages, rule=rule, section=_section(rule))
        return Reply(messages[lang], data)


_REMOTE: Final = {
    "hand": {"en": "table {table}, hand {hand}", "vi": "bàn {table}, ván {hand}"},
    "waiting": {
        "en": "waiting for player {player}",
        "vi": "đang chờ người chơi {player}",
    },
    "closed": {
        "en": "not at the table any more: {why}",
        "vi": "không còn ở bàn nữa: {why}",
    },
}
"""The few lines only a seat at a server's table needs, in both languages."""

_BEATING: Final = frozenset(
    {None, IllegalReason.DOES_NOT_BEAT, IllegalReason.WRONG_SHAPE}
)
"""The verdicts `explain_beats` explains best: legal over a top, or not beating it."""


def _refusal_of(game: AgentGame, action: Action) -> IllegalPlayError:
    """The engine's refusal of *action*, which is not among the agent's legal actions."""
    try:
        game.state.check(action)
    except IllegalPlayError as error:
        return error
    # Legal for the engine but not offered: a play out of turn that is no jump-in.
    return IllegalPlayError(
        IllegalReason.NOT_YOUR_TURN, action.player, str(action), "not offered now"
    )
