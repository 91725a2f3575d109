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
from tienlen.errors import InvalidArgumentError
from tienlen.scoring import Finish, PokerScorer, Scorer, StakeScorer

if TYPE_CHECKING:
    from tienlen.cards import Hand
    from tienlen.combos import Combo
    from tienlen.rules import RuleSet
    from tienlen.rules.base import InstantWinHand

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

    Example:
        >>> from tienlen import CLASSIC
        >>> CLASSIC.leader_after_going_out
        <LeaderAfterGoingOut.NEXT_WITH_CARDS: 'next-with-cards'>
        >>> LeaderAfterGoingOut("beaten-player").name
        'BEATEN_PLAYER'
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
        """Precompute the seating of *players* (2 to 8) in direction *step* (1 or -1).

        Raises:
            TypeError: *step* or *players* is not an int.
            InvalidArgumentError: *step* is not 1 or -1, or *players* not 2 to 8.
        """
        for name, value in (("step", step), ("players", players)):
            if type(value) is not int:
                msg = f"{name} must be an int, got {value!r}"
                raise TypeError(msg)
        if step not in (1, -1):
            msg = f"step must be 1 (clockwise) or -1 (counter-clockwise), got {step}"
            raise InvalidArgumentError(msg)
        if not 2 <= players <= _MAX_SEATS:
            msg = f"a table seats 2 to {_MAX_SEATS} players, not {players}"
            raise InvalidArgumentError(msg)
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
        """The seating for *players* in direction *step* (1 clockwise, -1 counter).

        Example:
            >>> Seating.of(-1, 4).order_from(0), Seating.of(1, 4) is Seating.of(1, 4)
            ((0, 3, 2, 1), True)
        """
        return _seating(step, players)

    def seats_after(self, seat: int) -> tuple[int, ...]:
        """The other seats in play direction after *seat*.

        Example:
            >>> Seating.of(1, 3).seats_after(1)
            (2, 0)
        """
        return self._after[seat][:-1]

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat in play direction, *seat* first.

        Example:
            >>> Seating.of(1, 3).order_from(1)
            (1, 2, 0)
        """
        return (seat, *self._after[seat][:-1])

    def next_to_act(self, actor: int, last: int | None, skip: int) -> int | None:
        """The first seat after *actor* not in the mask *skip* (passed or out).

        ``None`` when the turn would reach *last*, who made the last play: everyone
        else still in the game has passed, so the trick is over (RULES §1.5.4).

        Example:
            >>> seating = Seating.of(1, 4)
            >>> seating.next_to_act(0, 0, skip=0b0010), seating.next_to_act(3, 0, skip=0b0110)
            (2, None)
        """
        return self._next[actor][0 if last is None else last + 1][skip]


_MAX_SEATS = 8
"""The most seats at a table (RULES §2.1: two decks, five to eight players)."""


@functools.cache
def _seating(step: int, players: int) -> Seating:
    return Seating(step, players)


@attrs.frozen(kw_only=True)
class TurnPolicy:
    """Who acts next, who leads, when the game ends (RULES §1.5, §3.4, §4.4, §6.4, §12).

    ``locked`` is a mask of players who may not act again until the trick ends (or,
    without lock-out, until the next play); ``out`` a mask of players out of the game.

    A policy is a frozen value: its answers depend only on its arguments. The engine
    asks each distinct question once per policy and seating and remembers the answer,
    so a pass or a play is a table lookup; a table's own policy (a subclass given as
    ``custom_turn_policy``) is remembered the same way.

    Example:
        >>> from tienlen import CLASSIC, JUSTUS_PANG
        >>> seating = Seating.of(1, 4)
        >>> CLASSIC.turn_policy.after_pass(seating, 3, 2, 0b0011, 0)  # all passed
        (None, 11)
        >>> JUSTUS_PANG.turn_policy.after_pass(seating, 3, 2, 0b0011, 0)  # continue
        (2, 11)
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
        """Whether some plays may not empty a hand, so a leader may be stuck (§12.12).

        Example:
            >>> TurnPolicy().limits_going_out, TurnPolicy(no_going_out_with_two=True).limits_going_out
            (False, True)
        """
        return self.no_going_out_with_two or self.no_going_out_with_bomb

    def may_go_out_with(self, rules: RuleSet, combo: Combo) -> bool:
        """Whether a player may go out by playing *combo* (RULES §12.12).

        Example:
            >>> from tienlen import CLASSIC, classify
            >>> policy = TurnPolicy(no_going_out_with_two=True)
            >>> policy.may_go_out_with(CLASSIC, classify("2h")), policy.may_go_out_with(CLASSIC, classify("Ah"))
            (False, True)
        """
        if self.no_going_out_with_two and any(
            card.rank is Rank.TWO for card in combo.cards
        ):
            return False
        return not (self.no_going_out_with_bomb and rules.is_bomb(combo.shape))

    def after_play(
        self, seating: Seating, player: int, locked: int, out: int
    ) -> tuple[int | None, int]:
        """After *player*'s play: who acts (``None``: the trick ends) and the lock-outs.

        Example:
            >>> seating = Seating.of(1, 4)
            >>> TurnPolicy().after_play(seating, 0, locked=0b0010, out=0)  # 1 passed
            (2, 2)
            >>> TurnPolicy(pass_locks_out=False).after_play(seating, 0, 0b0010, 0)
            (1, 0)
        """
        if not self.pass_locks_out:
            locked = 0
        nxt = seating._next[player][player + 1][locked | out]  # `next_to_act`
        if nxt is None and self.continuation and not out >> player & 1:
            nxt = player  # all others passed: continue or close (RULES §3.4)
        return nxt, locked

    def after_pass(
        self, seating: Seating, player: int, last: int | None, locked: int, out: int
    ) -> tuple[int | None, int]:
        """After *player*'s pass on *last*'s play (``None``: a declined first lead).

        Example:
            >>> TurnPolicy().after_pass(Seating.of(1, 4), 1, 0, locked=0, out=0)
            (2, 2)
        """
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
        """What a play remembers of the player it beat (only what `trick_leader` uses).

        Example:
            >>> reading = LeaderAfterGoingOut.BEATEN_PLAYER
            >>> TurnPolicy().beaten(2), TurnPolicy(leader_after_going_out=reading).beaten(2)
            (None, 2)
        """
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
        """Who leads the next trick, which ended on *last*'s play (RULES §1.5.4-§1.5.5).

        Example:
            >>> seating = Seating.of(1, 4)
            >>> TurnPolicy().trick_leader(seating, last=1, out=0, last_to_act=0, beaten=None)
            1
            >>> TurnPolicy().trick_leader(seating, last=1, out=0b0110, last_to_act=0, beaten=None)
            3
        """
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

        Example:
            >>> TurnPolicy().is_over(4, out=0b0111, finished=3), TurnPolicy().is_over(4, 0b0001, 1)
            (True, False)
            >>> TurnPolicy(ends_at_first_out=True).is_over(4, out=0b0001, finished=1)
            True
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

        Example:
            >>> from tienlen import Hand
            >>> hands = [Hand.parse(text) for text in ("", "3s 4s", "5d", "6c 7c 8c")]
            >>> TurnPolicy(ends_at_first_out=True).places([0], [1, 2, 3], hands, [])
            (0, 2, 1, 3)
        """
        left = list(remaining)
        if self.ends_at_first_out:
            left.sort(key=lambda p: len(hands[p]))  # stable: play order breaks ties
        return (*finish_order, *left, *bottom)


@attrs.frozen(kw_only=True)
class DealPolicy:
    """The spare card and instant wins at the deal (RULES §4.1, §5.4, §6.7, D-8).

    Example:
        >>> from tienlen import CLASSIC, KENNETH_LO
        >>> KENNETH_LO.deal_policy.spare_card_to_starter, CLASSIC.deal_policy
        (True, DealPolicy(spare_card_to_starter=False))
    """

    spare_card_to_starter: bool = False
    """With three players of 17 cards, the 52nd card goes to the starter (D-8)."""

    def gives_spare_card(self, players: int, spare: int) -> bool:
        """Whether the *spare* undealt cards of a *players* deal go to the starter.

        Example:
            >>> policy = DealPolicy(spare_card_to_starter=True)
            >>> policy.gives_spare_card(3, spare=1), policy.gives_spare_card(4, spare=0)
            (True, False)
        """
        return self.spare_card_to_starter and players == 3 and spare == 1

    def spare_holder(self, sizes: Sequence[int], size: int) -> int | None:
        """Of given hands' *sizes*, the starter holding the spare card, if any (§4.1).

        Example:
            >>> DealPolicy(spare_card_to_starter=True).spare_holder([17, 18, 17], 17)
            1
        """
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

        Example:
            >>> from tienlen import POKER, Hand
            >>> hand = Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s")
            >>> POKER.deal_policy.instant_win(POKER, hand, first_game=True)
            <InstantWin.SIX_PAIRS: 'six-pairs'>
        """
        return rules.instant_win(hand, first_game=first_game)
