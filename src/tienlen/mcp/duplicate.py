"""Duplicate deals for agents: frozen deals by name, and the agent's games as `EvaluationStats`.

An agent is measured as `tienlen.evaluate` measures a bot: every deal played once
from every seat, so the luck of the deal cancels, and a 95% confidence interval over
deals. `frozen_deal` names a deal of a frozen deal set (``"classic-150-v1:17"``);
`duplicate_stats` counts finished games (`AgentGame`) into `EvaluationStats`, player 0
being the agent and player *p* the bot *p* seats after it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from tienlen.errors import TienLenError
from tienlen.evaluation import EvaluationStats, frozen_deals
from tienlen.game import GameState
from tienlen.mcp.session import AgentError, AgentGame
from tienlen.rules import RuleSet

__all__ = ["duplicate_stats", "frozen_deal"]


def frozen_deal(name: str) -> GameState:
    """The deal *name* names: a frozen deal set and an index, ``"poker-150-v1:3"``.

    Raises:
        AgentError: no such set or deal (``bad-argument``).

    Example:
        >>> from tienlen.evaluation import frozen_deals
        >>> frozen_deal("poker-150-v1:2") == list(frozen_deals("poker-150-v1").states())[2]
        True
    """
    set_name, _, index = str(name).rpartition(":")
    try:
        deals = frozen_deals(set_name)
    except TienLenError as error:
        raise AgentError("bad-argument", f"{error} (a deal is SET:INDEX)") from None
    if not index.isdigit() or not 0 <= int(index) < deals.deals:
        msg = f"no deal {index!r:.20} in {set_name} (0 to {deals.deals - 1})"
        raise AgentError("bad-argument", msg)
    return next(itertools.islice(deals.states(), int(index), None))


def duplicate_stats(games: Sequence[AgentGame]) -> EvaluationStats:
    """The agent's finished *games* as a duplicate evaluation (`tienlen.evaluate`'s stats).

    Every deal (`AgentGame.deal`) must have been played once from every seat, under
    one rule set, with the same bot kinds at the same places relative to the agent.
    Player 0 is the agent; player *p* is the bot *p* seats after it.

    Raises:
        AgentError: no games, a game not over, mixed rules or tables, or a deal
            not played from every seat exactly once (``bad-argument``).
        TypeError: *games* is not a sequence of `AgentGame`.

    Example:
        >>> start = frozen_deal("classic-150-v1:0")
        >>> games = []
        >>> for seat in range(4):
        ...     game = AgentGame(start.rules, seat=seat, opponents=["greedy"] * 3,
        ...                      seed=1, start=start, deal="classic-150-v1:0")
        ...     while game.waiting:
        ...         _ = game.act(0)
        ...     games.append(game)
        >>> stats = duplicate_stats(games)
        >>> stats.deals, stats.games, sum(stats.score_sums)
        (1, 4, 0)
    """
    given: object = games  # checked: a tool passes what the client sent
    if not isinstance(given, Sequence) or not all(
        isinstance(game, AgentGame) for game in given
    ):
        msg = f"expected a sequence of AgentGame, got {games!r:.80}"
        raise TypeError(msg)
    if not games:
        raise AgentError("bad-argument", "no games to evaluate")
    first = games[0]
    players, rules = first.state.players, first.state.rules
    lineup = _lineup(first)
    by_deal: dict[str, dict[int, AgentGame]] = {}
    for game in games:
        if not game.state.is_over:
            raise AgentError("bad-argument", f"deal {game.deal}: a game is not over")
        if (game.state.players, game.state.rules) != (players, rules):
            raise AgentError("bad-argument", "the games are of different tables")
        if _lineup(game) != lineup:
            raise AgentError("bad-argument", "the bots differ between the games")
        seats = by_deal.setdefault(game.deal, {})
        if game.seat in seats:
            msg = f"deal {game.deal}: seat {game.seat} played twice"
            raise AgentError("bad-argument", msg)
        seats[game.seat] = game
    for deal, seats in by_deal.items():
        missing = sorted(set(range(players)) - set(seats))
        if missing:
            msg = f"deal {deal}: not yet played from seat(s) {missing}"
            raise AgentError("bad-argument", msg)
    return _count(by_deal, players, rules)


def _lineup(game: AgentGame) -> tuple[str, ...]:
    """The bot kinds in play order from the agent's seat (by seat number)."""
    n = game.state.players
    return tuple(game.kinds[(game.seat + p) % n] for p in range(1, n))


def _count(
    by_deal: dict[str, dict[int, AgentGame]], n: int, rules: RuleSet
) -> EvaluationStats:
    places = [[0] * n for _ in range(n)]
    sums, squares = [0] * n, [0] * n
    ahead = [[0] * n for _ in range(n)]
    for seats in by_deal.values():
        deal_sums = [0] * n
        for seat, game in seats.items():
            result = game.state.final_result()
            order = [(done - seat) % n for done in result.finish_order]
            for place, player in enumerate(order):
                places[place][player] += 1
                for behind in order[place + 1 :]:
                    ahead[player][behind] += 1
            for at, score in enumerate(result.scores):
                deal_sums[(at - seat) % n] += score
        for player, total in enumerate(deal_sums):
            sums[player] += total
            squares[player] += total * total
    return EvaluationStats(
        players=n,
        rotations=n,
        deals=len(by_deal),
        places=places,
        score_sums=sums,
        deal_score_squares=squares,
        ahead=ahead,
        rules=rules,
    )
