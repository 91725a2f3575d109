"""Game results and their itemised scores (RULES §2.5, §4.4, §5.4, §6.6–§6.7).

A `GameResult` holds the finishing order and each player's score change, and lists
the `ScoreItem` transfers behind it, so a table can show why a player got what they
got. Stakes variants pay one stake per item; Poker adds place points, chops, frozen
and end penalties.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

from tienlen.combos import Combo
from tienlen.rules._base import InstantWin

__all__ = ["GameResult", "ScoreItem", "ScoreKind"]


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
