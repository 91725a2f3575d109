"""Game flow as small frozen policy values a rule set carries (RULES §1.5, §2–§6, §12).

`GameState` asks three policies at named points instead of asking which variant it
plays: a `TurnPolicy` (who acts after a play or a pass, who leads a new trick, when
the game ends, RULES §1.5, §3.4, §4.4, §12.8, §12.10), a `DealPolicy` (the spare card
and instant wins, RULES §4.1, §5.4, §6.7) and a `tienlen.scoring.Scorer` (stakes or
Poker points, RULES §2.5, §6.6, §12.7, §12.11). `tienlen.BaseRules` builds them from
its settings (``BaseRules.turn_policy``, ``deal_policy``, ``scorer``),
so presets and records stay data; a table with a rule of its own passes a policy value
instead (``custom_turn_policy=``, ``custom_deal_policy=``, ``custom_scorer=``), without
subclassing the rule set.

Example:
    >>> from tienlen import CLASSIC, JUSTUS_PANG
    >>> CLASSIC.turn_policy.pass_locks_out, JUSTUS_PANG.turn_policy.continuation
    (True, True)
    >>> type(CLASSIC.scorer).__name__, CLASSIC.scorer.each_pays_winner
    ('StakeScorer', False)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from tienlen.cards import Rank
from tienlen.scoring import Finish, PokerScorer, Scorer, StakeScorer

if TYPE_CHECKING:
    from tienlen.cards import Hand
    from tienlen.combos import Combo
    from tienlen.rules import RuleSet
    from tienlen.rules._base import InstantWinHand

__all__ = [
    "DealPolicy",
    "Finish",
    "LeaderAfterGoingOut",
    "PokerScorer",
    "Scorer",
    "Seating",
    "StakeScorer",
    "TurnPolicy",
]


class LeaderAfterGoingOut(enum.Enum):
    """Who leads when a trick ends on the play of a player who went out (RULES §12.10).

    A player whose last cards are left unbeaten cannot lead the next trick; these are
    the readings tables play. Each applies only then: otherwise the player who made the
    last play leads (RULES §1.5.4).
    """

    NEXT_WITH_CARDS = "next-with-cards"
    """The first player in play direction after the one who went out who still has
    cards, even one who passed in that trick (D-1, RULES §1.5.5)."""
    AFTER_LAST_TO_ACT = "after-last-to-act"
    """The first player with cards in play direction after the player whose action
    ended the trick (the last to pass, or the one who went out if nobody could act)."""
    BEATEN_PLAYER = "beaten-player"
    """The player whose play the one who went out beat (who made the play before it in
    the trick), if they still have cards; otherwise, or if the last cards were a lead,
    as `NEXT_WITH_CARDS`."""


def _seats_after(step: int, players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple((seat + step * i) % players for i in range(1, players + 1))
        for seat in range(players)
    )


def _first_to_act(seats: tuple[int, ...], last: int | None, skip: int) -> int | None:
    """The first of *seats* not in *skip*, or ``None`` when the turn reaches *last*."""
    for seat in seats:
        if seat == last:
            return None
        if not skip >> seat & 1:
            return seat
    return None


class Seating:
    """Seat order and who acts next at a table, precomputed (RULES §1.5.4, §1.5.6, §2.1).

    Example:
        >>> from tienlen.policies import Seating
        >>> seating = Seating.of(step=1, players=4)
        >>> seating.seats_after(2), seating.next_to_act(0, None, skip=0b0010)
        ((3, 0, 1), 2)
    """

    __slots__ = ("_after", "_next", "players")

    players: int
    """How many seats."""

    def __init__(self, step: int, players: int) -> None:
        self.players = players
        self._after = _seats_after(step, players)
        self._next = tuple(
            tuple(
                tuple(_first_to_act(seats, last, skip) for skip in range(1 << players))
                for last in (None, *range(players))
            )
            for seats in self._after
        )

    @staticmethod
    def of(step: int, players: int) -> Seating:
        """The seating for *players* in direction *step* (1 clockwise, -1 counter)."""
        return _seating(step, players)

    def seats_after(self, seat: int) -> tuple[int, ...]:
        """The other seats in play direction after *seat*."""
        return self._after[seat][:-1]

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat in play direction, *seat* first."""
        return (seat, *self._after[seat][:-1])

    def next_to_act(self, actor: int, last: int | None, skip: int) -> int | None:
        """The first seat after *actor* not in the mask *skip* (passed or out).

        ``None`` when the turn would reach *last*, who made the last play: everyone
        else still in the game has passed, so the trick is over (RULES §1.5.4).
        """
        return self._next[actor][0 if last is None else last + 1][skip]


@functools.cache
def _seating(step: int, players: int) -> Seating:
    return Seating(step, players)


@attrs.frozen(kw_only=True)
class TurnPolicy:
    """Who acts next, who leads, when the game ends (RULES §1.5, §3.4, §4.4, §6.4, §12).

    ``locked`` is a mask of players who may not act again until the trick ends (or,
    without lock-out, until the next play); ``out`` a mask of players out of the game.
    """

    continuation: bool = False
    """When everyone else passed, the last player may continue or close (Justus
    Pang, RULES §3.4, D-7)."""
    pass_locks_out: bool = True
    """A pass locks the player out of the trick (RULES §1.5.3). When False (§12.8), a
    pass only skips the player until the next play; the trick still ends when the turn
    would come back to the last player with everyone else having passed since it."""
    leader_after_going_out: LeaderAfterGoingOut = LeaderAfterGoingOut.NEXT_WITH_CARDS
    """Who leads after a player goes out unbeaten (RULES §12.10, D-1)."""
    ends_at_first_out: bool = False
    """The game ends when the first player goes out (Kenneth Lo, RULES §4.4, D-11)."""
    jump_ins: bool = False
    """Whether players other than the one to act may play (Poker, RULES §6.4); which
    plays may is the rule set's `tienlen.RuleSet.may_jump_in`."""
    no_going_out_with_two: bool = False
    """A play that empties the hand may not hold a 2 (RULES §12.12)."""
    no_going_out_with_bomb: bool = False
    """A play that empties the hand may not be a bomb (RULES §12.12)."""

    @property
    def limits_going_out(self) -> bool:
        """Whether some plays may not empty a hand, so a leader may be stuck (§12.12)."""
        return self.no_going_out_with_two or self.no_going_out_with_bomb

    def may_go_out_with(self, rules: RuleSet, combo: Combo) -> bool:
        """Whether a player may go out by playing *combo* (RULES §12.12)."""
        if self.no_going_out_with_two and any(
            card.rank is Rank.TWO for card in combo.cards
        ):
            return False
        return not (self.no_going_out_with_bomb and rules.is_bomb(combo.shape))

    def after_play(
        self, seating: Seating, player: int, locked: int, out: int
    ) -> tuple[int | None, int]:
        """After *player*'s play: who acts (``None``: the trick ends) and the lock-outs."""
        if not self.pass_locks_out:
            locked = 0
        nxt = seating._next[player][player + 1][locked | out]  # `next_to_act`
        if nxt is None and self.continuation and not out >> player & 1:
            nxt = player  # all others passed: continue or close (RULES §3.4)
        return nxt, locked

    def after_pass(
        self, seating: Seating, player: int, last: int | None, locked: int, out: int
    ) -> tuple[int | None, int]:
        """After *player*'s pass on *last*'s play (``None``: a declined first lead)."""
        if player == last:  # closing a continuation (RULES §3.4, D-7)
            return None, locked
        locked |= 1 << player
        nxt = seating._next[player][0 if last is None else last + 1][locked | out]
        if (
            nxt is None
            and self.continuation
            and last is not None
            and not out >> last & 1
        ):
            nxt = last
        return nxt, locked

    def beaten(self, previous: int | None) -> int | None:
        """What a play remembers of the player it beat (only what `trick_leader` uses)."""
        if self.leader_after_going_out is LeaderAfterGoingOut.BEATEN_PLAYER:
            return previous
        return None

    def trick_leader(
        self,
        seating: Seating,
        *,
        last: int,
        out: int,
        last_to_act: int,
        beaten: int | None,
    ) -> int:
        """Who leads the next trick, which ended on *last*'s play (RULES §1.5.4-§1.5.5)."""
        if not out >> last & 1:
            return last
        start = last
        reading = self.leader_after_going_out
        if reading is LeaderAfterGoingOut.AFTER_LAST_TO_ACT:
            start = last_to_act
        elif (
            reading is LeaderAfterGoingOut.BEATEN_PLAYER
            and beaten is not None
            and not out >> beaten & 1
        ):
            return beaten
        leader = seating.next_to_act(start, None, out)
        if leader is None:  # pragma: no cover - the game is over before
            msg = "no player left to lead"
            raise AssertionError(msg)
        return leader

    def is_over(self, players: int, out: int, finished: int) -> bool:
        """Whether the game ends (RULES §2.5, §4.4).

        *out* is the mask of players out of the game, *finished* how many of them
        went out by playing their cards.
        """
        return (
            self.ends_at_first_out and finished > 0
        ) or players - out.bit_count() <= 1

    def places(
        self,
        finish_order: Sequence[int],
        remaining: Sequence[int],
        hands: Sequence[Hand],
        bottom: Sequence[int],
    ) -> tuple[int, ...]:
        """Every player's place, first first: those out, those left, then *bottom*.

        *remaining* are the players still holding cards, in play order from the last
        one out; under `ends_at_first_out` they rank by fewest cards left, play order
        breaking ties (RULES §4.4). *bottom* (frozen players) take the last places.
        """
        left = list(remaining)
        if self.ends_at_first_out:
            left.sort(key=lambda p: len(hands[p]))  # stable: play order breaks ties
        return (*finish_order, *left, *bottom)


@attrs.frozen(kw_only=True)
class DealPolicy:
    """The spare card and instant wins at the deal (RULES §4.1, §5.4, §6.7, D-8)."""

    spare_card_to_starter: bool = False
    """With three players of 17 cards, the 52nd card goes to the starter (D-8)."""

    def gives_spare_card(self, players: int, spare: int) -> bool:
        """Whether the *spare* undealt cards of a *players* deal go to the starter."""
        return self.spare_card_to_starter and players == 3 and spare == 1

    def spare_holder(self, sizes: Sequence[int], size: int) -> int | None:
        """Of given hands' *sizes*, the starter holding the spare card, if any (§4.1)."""
        if not self.gives_spare_card(len(sizes), 1):
            return None
        if sorted(sizes) != [size, size, size + 1]:
            return None
        return list(sizes).index(size + 1)

    def instant_win(
        self, rules: RuleSet, hand: Hand, *, first_game: bool
    ) -> InstantWinHand | None:
        """The instant win *hand* holds at the deal of a game, as the rule set says.

        *first_game*: whether the game is a match's first (RULES §5.4, §6.7, §12.5).
        """
        return rules.instant_win(hand, first_game=first_game)
