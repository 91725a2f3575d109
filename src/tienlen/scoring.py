"""Game results and their itemised scores (RULES §2.5, §4.4, §5.4, §6.6–§6.7).

A `GameResult` holds the finishing order and each player's score change, and lists
the `ScoreItem` transfers behind it, so a table can show why a player got what they
got. Stakes variants pay one stake per item; Poker adds place points, chops, frozen
and end penalties.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from tienlen.combos import Combo
from tienlen.rules._base import GameEnd, InstantWin, Scoring

if TYPE_CHECKING:
    from tienlen.game import GameState
    from tienlen.rules import RuleSet

__all__ = [
    "ChopChain",
    "GameResult",
    "ScoreItem",
    "ScoreKind",
    "instant_win_result",
    "settle",
]


class ScoreKind(enum.Enum):
    """What a `ScoreItem` pays for."""

    STAKE = "stake"
    """One stake from the loser, or to the winner (RULES §2.5, §4.4, §5.4)."""
    PLACE = "place"
    """Poker place points (RULES §6.6.1)."""
    CHOP = "chop"
    """A chop chain, the last victim paying the last catcher (*chặt*, RULES §6.6.2)."""
    FROZEN = "frozen"
    """A frozen player pays the first-place player (*cóng*, RULES §6.6.3)."""
    END_PENALTY = "end-penalty"
    """The last player pays for their 2s and bombs (*thối*, RULES §6.6.4)."""
    INSTANT_WIN = "instant-win"
    """Points for an instant win (*tới trắng*, RULES §6.7)."""


def _combos(values: Iterable[Combo]) -> tuple[Combo, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class ScoreItem:
    """One line of a game's score: *player* gains `points`, *payer* (if any) loses them.

    Example:
        >>> item = ScoreItem(kind=ScoreKind.STAKE, player=0, payer=3, points=1)
        >>> str(item)
        'stake: player 3 pays player 0 1'
    """

    kind: ScoreKind
    """What the points are for."""
    player: int
    """Who gains the points."""
    payer: int | None = None
    """Who loses them; ``None`` for place and instant-win points, which nobody pays."""
    points: int
    """How many points change hands."""
    combos: tuple[Combo, ...] = attrs.field(default=(), converter=_combos)
    """For a chop, the combinations caught in the chain, in order."""

    def __str__(self) -> str:
        if self.payer is None:
            return f"{self.kind.value}: player {self.player} scores {self.points}"
        caught = (
            f" for {', '.join(repr(str(c)) for c in self.combos)}"
            if self.combos
            else ""
        )
        return f"{self.kind.value}: player {self.payer} pays player {self.player} {self.points}{caught}"


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _items(values: Iterable[ScoreItem]) -> tuple[ScoreItem, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True)
class GameResult:
    """How a game ended: the finishing order and every player's score change.

    Example:
        >>> result = GameResult.from_items(
        ...     players=2, finish_order=(1, 0), items=[ScoreItem(kind=ScoreKind.STAKE, player=1, payer=0, points=1)]
        ... )
        >>> result.scores, result.winner, result.loser
        ((-1, 1), 1, 0)
    """

    finish_order: tuple[int, ...] = attrs.field(converter=_ints)
    """Every player, first out first; the last is the loser."""
    scores: tuple[int, ...] = attrs.field(converter=_ints)
    """Each player's score change in this game, by player index."""
    items: tuple[ScoreItem, ...] = attrs.field(default=(), converter=_items)
    """The transfers and points the scores add up from, in the order they arose."""
    instant_win: InstantWin | None = None
    """The instant-win hand that ended the game at the deal, if any (RULES §5.4, §6.7)."""
    frozen: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""

    @classmethod
    def from_items(
        cls,
        *,
        players: int,
        finish_order: Iterable[int],
        items: Iterable[ScoreItem],
        instant_win: InstantWin | None = None,
        frozen: Iterable[int] = (),
    ) -> GameResult:
        """Build a result whose scores are the sum of *items*."""
        items = tuple(items)
        scores = [0] * players
        for item in items:
            scores[item.player] += item.points
            if item.payer is not None:
                scores[item.payer] -= item.points
        return cls(
            finish_order=finish_order,
            scores=scores,
            items=items,
            instant_win=instant_win,
            frozen=frozen,
        )

    @property
    def winner(self) -> int:
        """The first player out (or the instant winner)."""
        return self.finish_order[0]

    @property
    def loser(self) -> int:
        """The last player in the finishing order."""
        return self.finish_order[-1]


@attrs.frozen(kw_only=True)
class ChopChain:
    """The open Poker chop chain of a trick (RULES §6.6.2, D-18)."""

    points: int
    """The accumulated value of the catches so far."""
    victim: int
    """The owner of the last caught combination, who pays when the trick ends."""
    catcher: int
    """The last catcher, who is paid."""
    caught: tuple[Combo, ...]
    """The caught combinations, in order."""

    def item(self) -> ScoreItem:
        """The chain as a score item: the last victim pays the last catcher."""
        return ScoreItem(
            kind=ScoreKind.CHOP,
            player=self.catcher,
            payer=self.victim,
            points=self.points,
            combos=self.caught,
        )


def instant_win_result(
    rules: RuleSet, order: Sequence[int], win: InstantWin
) -> GameResult:
    """The result of a game won at the deal by ``order[0]`` (RULES §5.4, §6.7, D-14, D-21).

    Under Poker points the winner scores ``rules.instant_win_points`` and nobody else;
    under stakes each other player pays ``rules.instant_win_stake``. *order* is every player,
    the winner first, then the others in play order.
    """
    winner = order[0]
    if rules.scoring is Scoring.POKER_POINTS:
        items = [
            ScoreItem(
                kind=ScoreKind.INSTANT_WIN,
                player=winner,
                points=rules.instant_win_points,
            )
        ]
    else:
        stake = rules.instant_win_stake
        items = [
            ScoreItem(kind=ScoreKind.STAKE, player=winner, payer=p, points=stake)
            for p in order[1:]
        ]
    return GameResult.from_items(
        players=len(order), finish_order=order, items=items, instant_win=win
    )


def settle(state: GameState) -> GameResult:
    """Score a finished game: its finishing order and every item (RULES §2.5, §4.4, §6.6).

    The players still in the game follow those who went out, in play order from the
    last one out; under Kenneth Lo they are ordered by fewest cards left (play order
    breaks ties); Poker's frozen players take the bottom places.
    """
    rules = state.rules
    last_out = state.finish_order[-1]
    active = [p for p in (last_out, *state.seats_after(last_out)) if state.in_game(p)]
    if rules.game_end is GameEnd.FIRST_OUT:
        active.sort(key=lambda p: len(state.hands[p]))  # stable: play order breaks ties
    order = [*state.finish_order, *active, *state.frozen]
    items = list(state.items)
    if state.chop is not None and state.chop.points:
        items.append(state.chop.item())  # the game ends the trick (RULES §6.6.2)
    if rules.scoring is Scoring.LOSER_PAYS_EACH:
        loser = order[-1]
        items += [
            ScoreItem(kind=ScoreKind.STAKE, player=p, payer=loser, points=1)
            for p in order[:-1]
        ]
    elif rules.scoring is Scoring.EACH_PAYS_WINNER:
        winner = order[0]
        items += [
            ScoreItem(kind=ScoreKind.STAKE, player=winner, payer=p, points=1)
            for p in order[1:]
        ]
    else:
        items += _poker_end(state, order)
    return GameResult.from_items(
        players=state.players, finish_order=order, items=items, frozen=state.frozen
    )


def _poker_end(state: GameState, order: list[int]) -> list[ScoreItem]:
    """Place points and the end penalty (RULES §6.6.1, §6.6.4, D-17, D-19)."""
    rules = state.rules
    points = rules.place_points_for(state.players)
    items = [
        ScoreItem(kind=ScoreKind.PLACE, player=player, points=points[place])
        for place, player in enumerate(order)
        if player not in state.frozen and points[place]
    ]
    playing = [p for p in order if p not in state.frozen]
    last = playing[-1]
    value = rules.hand_value(state.hands[last])
    if value and len(playing) > 1:
        items.append(
            ScoreItem(
                kind=ScoreKind.END_PENALTY, player=playing[-2], payer=last, points=value
            )
        )
    return items
