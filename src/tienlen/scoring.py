"""Game results and their itemised scores (RULES §2.5, §4.4, §5.4, §6.6–§6.7).

A `GameResult` holds the finishing order and each player's score change, and lists
the `ScoreItem` transfers behind it, so a table can show why a player got what they
got. Stakes variants pay one stake per item; Poker adds place points, chops, frozen
and end penalties.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from tienlen.cards import DECK, Hand
from tienlen.combos import Combo
from tienlen.errors import InvalidArgumentError

if TYPE_CHECKING:
    from tienlen.rules import RuleSet
    from tienlen.rules.base import InstantWinHand

__all__ = [
    "Catch",
    "ChopChain",
    "Finish",
    "GameResult",
    "PokerScorer",
    "ScoreItem",
    "ScoreKind",
    "Scorer",
    "StakeScorer",
    "instant_win_result",
    "settle",
]


class ScoreKind(enum.Enum):
    """What a `ScoreItem` pays for.

    Example:
        >>> from tienlen import ScoreKind
        >>> ScoreKind("chop"), ScoreKind.END_PENALTY.value
        (<ScoreKind.CHOP: 'chop'>, 'end-penalty')
    """

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


def _hands(values: Iterable[Hand]) -> tuple[Hand, ...]:
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
    instant_win: InstantWinHand | None = None
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
        instant_win: InstantWinHand | None = None,
        frozen: Iterable[int] = (),
    ) -> GameResult:
        """Build a result whose scores are the sum of *items*.

        Example:
            >>> from tienlen import GameResult, ScoreItem, ScoreKind
            >>> items = [ScoreItem(kind=ScoreKind.STAKE, player=p, payer=2, points=1) for p in (1, 0)]
            >>> GameResult.from_items(players=3, finish_order=(1, 0, 2), items=items).scores
            (1, 1, -2)
        """
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
        """The first player out (or the instant winner).

        Example:
            >>> from tienlen import GameResult
            >>> GameResult(finish_order=(2, 0, 1), scores=(-1, -1, 2)).winner
            2
        """
        return self.finish_order[0]

    @property
    def loser(self) -> int:
        """The last player in the finishing order.

        Example:
            >>> from tienlen import GameResult
            >>> GameResult(finish_order=(2, 0, 1), scores=(1, -2, 1)).loser
            1
        """
        return self.finish_order[-1]


@attrs.frozen(kw_only=True)
class ChopChain:
    """The open Poker chop chain of a trick (RULES §6.6.2, D-18).

    Example:
        >>> from tienlen import POKER, ChopChain, classify
        >>> chain = ChopChain(points=4, victim=1, catcher=0, caught=(classify("2h", POKER),))
        >>> chain.points, chain.victim, chain.catcher
        (4, 1, 0)
    """

    points: int
    """The accumulated value of the catches so far."""
    victim: int
    """The owner of the last caught combination, who pays when the trick ends."""
    catcher: int
    """The last catcher, who is paid."""
    caught: tuple[Combo, ...]
    """The caught combinations, in order."""

    def item(self) -> ScoreItem:
        """The chain as a score item: the last victim pays the last catcher.

        Example:
            >>> from tienlen import POKER, ChopChain, classify
            >>> chain = ChopChain(points=4, victim=1, catcher=0, caught=(classify("2h", POKER),))
            >>> str(chain.item())
            "chop: player 1 pays player 0 4 for '2h'"
        """
        return ScoreItem(
            kind=ScoreKind.CHOP,
            player=self.catcher,
            payer=self.victim,
            points=self.points,
            combos=self.caught,
        )


@attrs.frozen(kw_only=True)
class Catch:
    """A catch being made (*chặt*, RULES §6.6.2): a bomb played onto a chop target.

    The engine builds one for the scorer's `Scorer.on_catch` hook.

    Example:
        >>> from tienlen import POKER, classify
        >>> from tienlen.scoring import Catch
        >>> catch = Catch(
        ...     catcher=0, victim=1, caught=classify("2h", POKER),
        ...     victim_went_out=False, catcher_goes_out=False,
        ... )
        >>> POKER.chop_value(catch.caught)
        4
    """

    catcher: int
    """Who catches."""
    victim: int
    """Who owns the caught combination."""
    caught: Combo
    """The combination caught."""
    victim_went_out: bool
    """Whether it was its owner's final play (then it is worth 0, D-18)."""
    catcher_goes_out: bool
    """Whether the catch is the catcher's last cards (D-23)."""


@attrs.frozen(kw_only=True)
class Finish:
    """A finished game as a scorer sees it (no `GameState`): places, hands, what is open.

    Raises:
        InvalidArgumentError: *order* is not every seat once, or *frozen* is not
            distinct seats other than first place (RULES §6.6.3).

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> from tienlen.scoring import Finish, settle
        >>> finish = Finish(order=(1, 0), hands=(Hand.parse("3s"), Hand(0)))
        >>> [str(item) for item in settle(CLASSIC, finish).items]
        ['stake: player 0 pays player 1 1']
    """

    order: tuple[int, ...] = attrs.field(converter=_ints)
    """Every player, first place first; the last is the loser."""
    hands: tuple[Hand, ...] = attrs.field(converter=_hands)
    """The cards each player still holds, by player index."""
    frozen: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""
    items: tuple[ScoreItem, ...] = attrs.field(default=(), converter=_items)
    """Score items already settled during play."""
    chop: ChopChain | None = None
    """The open chop chain, closed by the end of the game (RULES §6.6.2)."""

    def __attrs_post_init__(self) -> None:
        """Refuse places that are not every seat once, and a frozen first place.

        Example:
            >>> from tienlen import Hand
            >>> Finish(order=(1, 0), hands=(Hand(0), Hand(0)), frozen=(1,))
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidArgumentError: frozen players are distinct seats other than first place (seat 1), got [1]
        """
        seats = len(self.hands)
        if sorted(self.order) != list(range(seats)):
            msg = (
                f"the order lists every seat 0-{seats - 1} once, got {list(self.order)}"
            )
            raise InvalidArgumentError(msg)
        frozen = self.frozen
        if frozen and (
            len(set(frozen)) != len(frozen) or not set(frozen) <= set(self.order[1:])
        ):
            first = f" (seat {self.order[0]})" if self.order else ""
            msg = (
                f"frozen players are distinct seats other than first place{first}, "
                f"got {list(frozen)}"
            )
            raise InvalidArgumentError(msg)


@attrs.frozen(kw_only=True)
class Scorer:
    """How a game is paid: the hooks `GameState` calls (RULES §2.5, §4.4, §6.6).

    The base pays nothing during play; `settle` must be given by a subclass. A
    table with its own scoring passes an instance as ``custom_scorer`` of a rule set:

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, GameResult, GameState, ScoreItem, ScoreKind
        >>> from tienlen.scoring import Scorer
        >>> @attrs.frozen
        ... class WinnerTakesTen(Scorer):
        ...     def settle(self, rules, finish):
        ...         item = ScoreItem(kind=ScoreKind.STAKE, player=finish.order[0], points=10)
        ...         return GameResult.from_items(players=len(finish.hands), finish_order=finish.order, items=[item])
        >>> rules = attrs.evolve(CLASSIC, name="ten", custom_scorer=WinnerTakesTen())
        >>> GameState.from_hands(["3s", "4d"], rules).play("3s").result.scores
        (10, 0)
    """

    scores_catches: bool = attrs.field(default=False, init=False)
    """Whether the engine reports catches to `on_catch` (Poker points)."""

    @property
    def freezes(self) -> bool:
        """Whether the engine reports first place to `on_first_out` (RULES §6.6.3).

        A capability the scorer declares, as `scores_catches`: by default, whether its
        class answers `on_first_out` other than `Scorer` does.

        Example:
            >>> from tienlen import CLASSIC, POKER
            >>> CLASSIC.scorer.freezes, POKER.scorer.freezes
            (False, True)
        """
        return type(self).on_first_out is not Scorer.on_first_out

    def bounds(self, rules: RuleSet, players: int) -> tuple[int, int, bool] | None:
        """``(least, most, zero_sum)`` one seat can score in a game of *rules* and *players*.

        ``None`` when the scorer does not know (the base, and a custom scorer that does
        not say); the OpenSpiel games need bounds (``tienlen.rl.openspiel``).

        Example:
            >>> from tienlen import CLASSIC, POKER
            >>> from tienlen.scoring import Scorer
            >>> CLASSIC.scorer.bounds(CLASSIC, 4), POKER.scorer.bounds(POKER, 4)
            ((-3, 3, True), (-250, 426, False))
            >>> Scorer().bounds(CLASSIC, 4) is None
            True
        """
        del rules, players
        return None

    def on_catch(
        self,
        rules: RuleSet,  # noqa: ARG002  # a scorer that scores catches uses them
        catch: Catch,  # noqa: ARG002
        chain: ChopChain | None,
    ) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
        """A catch was made: the trick's chain after it and the items paid at once.

        The base scores no catch: the chain stays as it was and nothing is paid.

        Example:
            >>> from tienlen import CLASSIC, classify
            >>> from tienlen.scoring import Catch, Scorer
            >>> catch = Catch(
            ...     catcher=0, victim=1, caught=classify("2h"),
            ...     victim_went_out=False, catcher_goes_out=False,
            ... )
            >>> Scorer().on_catch(CLASSIC, catch, None)
            (None, ())
        """
        return chain, ()

    def on_trick_end(self, chain: ChopChain | None) -> tuple[ScoreItem, ...]:
        """The trick ended: the items its chain pays (RULES §6.6.2).

        Example:
            >>> from tienlen import POKER, ChopChain, classify
            >>> from tienlen.scoring import Scorer
            >>> chain = ChopChain(points=4, victim=1, catcher=0, caught=(classify("2h", POKER),))
            >>> [str(item) for item in Scorer().on_trick_end(chain)]
            ["chop: player 1 pays player 0 4 for '2h'"]
            >>> Scorer().on_trick_end(None)
            ()
        """
        if chain is not None and chain.points:
            return (chain.item(),)
        return ()

    def on_first_out(
        self,
        rules: RuleSet,  # noqa: ARG002  # a scorer that freezes players uses them
        order: Sequence[int],  # noqa: ARG002
        hands: Sequence[Hand],  # noqa: ARG002
        dealt: Sequence[Hand],  # noqa: ARG002
    ) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
        """``order[0]`` took first place: the players frozen out, and what they pay.

        The base freezes nobody.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> from tienlen.scoring import Scorer
            >>> hands = (Hand(0), Hand.parse("4s 5s"))
            >>> Scorer().on_first_out(CLASSIC, (0, 1), hands, hands)
            ((), ())
        """
        return (), ()

    def settle(self, rules: RuleSet, finish: Finish) -> GameResult:
        """The result of a finished game.

        Every scorer gives it; the base has no payment to make.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> from tienlen.scoring import Finish, Scorer, StakeScorer
            >>> finish = Finish(order=(1, 0), hands=(Hand.parse("3s"), Hand(0)))
            >>> StakeScorer().settle(CLASSIC, finish).scores
            (-1, 1)
            >>> Scorer().settle(CLASSIC, finish)
            Traceback (most recent call last):
            NotImplementedError
        """
        raise NotImplementedError  # pragma: no cover - every scorer gives it

    def instant_win(
        self, rules: RuleSet, order: Sequence[int], win: object
    ) -> GameResult:
        """A game won at the deal by ``order[0]``: each other player pays the stake (D-14).

        Example:
            >>> from tienlen import VIETCONG, InstantWin
            >>> from tienlen.scoring import Scorer
            >>> result = Scorer().instant_win(VIETCONG, (2, 0, 1), InstantWin.FOUR_TWOS)
            >>> result.scores, result.instant_win
            ((-1, -1, 2), <InstantWin.FOUR_TWOS: 'four-twos'>)
        """
        stake = rules.instant_win_stake
        items = [
            ScoreItem(kind=ScoreKind.STAKE, player=order[0], payer=p, points=stake)
            for p in order[1:]
        ]
        return GameResult.from_items(
            players=len(order),
            finish_order=order,
            items=items,
            instant_win=win,  # type: ignore[arg-type]  # opaque
        )


_SETTLED: Final[dict[tuple[object, ...], tuple[object, GameResult]]] = {}
"""The results `StakeScorer` and `PokerScorer` settled for games that paid nothing in
play, by what decides them: a result is an immutable value, so such games share one.
Each entry holds the rule set it was settled under, compared by identity (a rule set
is immutable: the `RuleSet` protocol); thread-safe, as it only ever holds correct
entries."""
_SETTLED_LIMIT: Final = 1 << 12
"""The most results `_SETTLED` keeps: it is emptied when full."""


def _settled(key: tuple[object, ...], rules: object) -> GameResult | None:
    """The result `_SETTLED` holds for *key* under *rules* (the same object), if any."""
    entry = _SETTLED.get(key)
    return entry[1] if entry is not None and entry[0] is rules else None


def _keep_settled(
    key: tuple[object, ...], rules: object, result: GameResult
) -> GameResult:
    """Remember *result* for *key* under *rules*, and return it."""
    if len(_SETTLED) >= _SETTLED_LIMIT:
        _SETTLED.clear()
    _SETTLED[key] = (rules, result)
    return result


@attrs.frozen(kw_only=True)
class StakeScorer(Scorer):
    """One stake per player: the loser pays each, or each pays the winner (RULES §2.5, §4.4).

    Example:
        >>> from tienlen import CLASSIC, KENNETH_LO
        >>> from tienlen.scoring import StakeScorer
        >>> CLASSIC.scorer, KENNETH_LO.scorer.each_pays_winner
        (StakeScorer(scores_catches=False, each_pays_winner=False), True)
    """

    each_pays_winner: bool = False
    """Every other player pays the winner (Kenneth Lo) instead of the loser paying each."""

    def bounds(self, rules: RuleSet, players: int) -> tuple[int, int, bool]:
        """At most one stake (or the instant-win stake) from or to each other seat.

        Example:
            >>> from tienlen import KENNETH_LO
            >>> KENNETH_LO.scorer.bounds(KENNETH_LO, 3)
            (-2, 2, True)
        """
        most = (players - 1) * max(1, rules.instant_win_stake)
        return -most, most, True

    def settle(self, rules: RuleSet, finish: Finish) -> GameResult:  # noqa: ARG002
        """One stake from the loser to each player, or from each player to the winner.

        Example:
            >>> from tienlen import CLASSIC, Hand
            >>> from tienlen.scoring import Finish, StakeScorer
            >>> finish = Finish(order=(1, 0, 2), hands=(Hand(0), Hand(0), Hand.parse("3s")))
            >>> StakeScorer().settle(CLASSIC, finish).scores
            (1, 1, -2)
            >>> StakeScorer(each_pays_winner=True).settle(CLASSIC, finish).scores
            (-1, 2, -1)
        """
        order = finish.order
        items = [*finish.items, *self.on_trick_end(finish.chop)]
        known = (
            type(self),
            self.each_pays_winner,
            order,
            len(finish.hands),
            finish.frozen,
        )
        if not items:  # nothing paid in play: the places alone decide
            result = _settled(known, None)
            if result is not None:
                return result
        if self.each_pays_winner:
            stakes = [
                ScoreItem(kind=ScoreKind.STAKE, player=order[0], payer=p, points=1)
                for p in order[1:]
            ]
        else:
            stakes = [
                ScoreItem(kind=ScoreKind.STAKE, player=p, payer=order[-1], points=1)
                for p in order[:-1]
            ]
        result = GameResult.from_items(
            players=len(finish.hands),
            finish_order=order,
            items=items + stakes,
            frozen=finish.frozen,
        )
        return _keep_settled(known, None, result) if not items else result


@attrs.frozen(kw_only=True)
class PokerScorer(Scorer):
    """Poker points: places, chops, frozen and end penalties (RULES §6.6, §12.7, §12.11).

    The `POKER` preset's scorer; the rule set builds it from its settings.

    Example:
        >>> import attrs
        >>> from tienlen import POKER
        >>> POKER.scorer.frozen_multiplier
        1
        >>> attrs.evolve(POKER, name="doubled", frozen_multiplier=2).scorer.frozen_multiplier
        2
    """

    scores_catches: bool = attrs.field(default=True, init=False)
    chop_chain: bool = True
    """Catches in a trick accumulate, the last victim paying the last catcher (D-18);
    when False each catch is paid at once by its own victim (RULES §12.7)."""
    frozen_multiplier: int = 1
    """What a frozen player pays is multiplied by this ("frozen doubled", §12.7)."""
    end_penalty_with_frozen: bool = True
    """With frozen players at the bottom, the last player still holding cards pays
    the end penalty (D-22); when False nobody does (the literal reading)."""
    catch_with_last_cards_scores: bool = True
    """A catch made with the catcher's own last cards scores; when False it is worth 0 (D-23)."""

    def bounds(self, rules: RuleSet, players: int) -> tuple[int, int, bool]:
        """Place points plus what chops, frozen hands and the end penalty can move.

        Each of those is at most the value of the 2s and bombs in the whole deal.

        Example:
            >>> from tienlen import POKER
            >>> POKER.scorer.bounds(POKER, 2)
            (-250, 254, False)
        """
        decks, _ = rules.deal_size(players)
        value = rules.hand_value(Hand.from_cards(DECK * decks))
        frozen = self.frozen_multiplier * (rules.frozen_penalty + value)
        places = rules.place_points_for(players)
        most = max(
            max(places) + 2 * value + (players - 1) * frozen,
            rules.instant_win_points,
        )
        least = min(0, *places) - 2 * value - frozen
        return least, most, False

    def on_catch(
        self, rules: RuleSet, catch: Catch, chain: ChopChain | None
    ) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
        """Add the catch to the chain, or pay it at once (RULES §6.6.2, D-18, D-23).

        Example:
            >>> from tienlen import POKER, classify
            >>> from tienlen.scoring import Catch
            >>> catch = Catch(
            ...     catcher=0, victim=1, caught=classify("2h", POKER),
            ...     victim_went_out=False, catcher_goes_out=False,
            ... )
            >>> chain, paid = POKER.scorer.on_catch(POKER, catch, None)
            >>> chain.points, paid
            (4, ())
        """
        worthless = catch.victim_went_out or (
            catch.catcher_goes_out and not self.catch_with_last_cards_scores
        )
        value = 0 if worthless else rules.chop_value(catch.caught)
        if not self.chop_chain:
            new = ChopChain(
                points=value,
                victim=catch.victim,
                catcher=catch.catcher,
                caught=(catch.caught,),
            )
            return None, self.on_trick_end(new)
        points = value + (chain.points if chain is not None else 0)
        caught = (*chain.caught, catch.caught) if chain is not None else (catch.caught,)
        new = ChopChain(
            points=points, victim=catch.victim, catcher=catch.catcher, caught=caught
        )
        if catch.catcher_goes_out:  # paid at once (RULES §6.6.2)
            return None, self.on_trick_end(new)
        return new, ()

    def on_first_out(
        self,
        rules: RuleSet,
        order: Sequence[int],
        hands: Sequence[Hand],
        dealt: Sequence[Hand],
    ) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
        """Freeze every player still holding a full deal (*cóng*, RULES §6.6.3, D-19).

        That is all the cards of a full deal for the table: players of a shorter hand
        (a scenario from `GameState.from_hands`) are never frozen.

        Example:
            >>> from tienlen import POKER, Hand
            >>> dealt = tuple(Hand.parse(text) for text in ("3s 4s 5s", "6h 7h 8h"))
            >>> hands = (Hand(0), dealt[1])
            >>> POKER.scorer.on_first_out(POKER, (0, 1), hands, dealt)
            ((), ())
        """
        winner = order[0]
        full = -1  # the cards of a full deal, read once a hand is still as dealt
        frozen: list[int] = []
        items: list[ScoreItem] = []
        for player in order[1:]:
            if hands[player].mask != dealt[player].mask:  # most hands: played from
                continue
            if full < 0:
                full = rules.deal_size(len(hands))[1]
            if len(dealt[player]) == full:
                frozen.append(player)
                points = rules.frozen_penalty + rules.hand_value(hands[player])
                items.append(
                    ScoreItem(
                        kind=ScoreKind.FROZEN,
                        player=winner,
                        payer=player,
                        points=points * self.frozen_multiplier,
                    )
                )
        return tuple(frozen), tuple(items)

    def settle(self, rules: RuleSet, finish: Finish) -> GameResult:
        """Place points and the end penalty (RULES §6.6.1, §6.6.4, D-17, D-19, D-22).

        Example:
            >>> from tienlen import POKER, Hand
            >>> from tienlen.scoring import Finish
            >>> finish = Finish(order=(0, 1), hands=(Hand(0), Hand.parse("2h 5c")))
            >>> [str(item) for item in POKER.scorer.settle(POKER, finish).items]
            ['place: player 0 scores 4', 'end-penalty: player 1 pays player 0 4']
        """
        order = finish.order
        items = [*finish.items, *self.on_trick_end(finish.chop)]
        playing = [p for p in order if p not in finish.frozen]
        last = playing[-1]
        value = rules.hand_value(finish.hands[last])
        known: tuple[object, ...] = (type(self), self.end_penalty_with_frozen)
        known += (id(rules), order, len(finish.hands), finish.frozen, value)
        paid_in_play = bool(items)
        if not paid_in_play:  # the places and the last hand decide
            result = _settled(known, rules)
            if result is not None:
                return result
        points = rules.place_points_for(len(finish.hands))
        items += [
            ScoreItem(kind=ScoreKind.PLACE, player=player, points=points[place])
            for place, player in enumerate(order)
            if player not in finish.frozen and points[place]
        ]
        penalised = self.end_penalty_with_frozen or not finish.frozen
        if value and len(playing) > 1 and penalised:
            items.append(
                ScoreItem(
                    kind=ScoreKind.END_PENALTY,
                    player=playing[-2],
                    payer=last,
                    points=value,
                )
            )
        result = GameResult.from_items(
            players=len(finish.hands),
            finish_order=order,
            items=items,
            frozen=finish.frozen,
        )
        return result if paid_in_play else _keep_settled(known, rules, result)

    def instant_win(
        self, rules: RuleSet, order: Sequence[int], win: object
    ) -> GameResult:
        """The instant winner scores `tienlen.BaseRules.instant_win_points`, nobody else (RULES §6.7).

        Example:
            >>> from tienlen import POKER, InstantWin
            >>> result = POKER.scorer.instant_win(POKER, (2, 0, 1), InstantWin.FOUR_TWOS)
            >>> [str(item) for item in result.items]
            ['instant-win: player 2 scores 12']
        """
        items = [
            ScoreItem(
                kind=ScoreKind.INSTANT_WIN,
                player=order[0],
                points=rules.instant_win_points,
            )
        ]
        return GameResult.from_items(
            players=len(order),
            finish_order=order,
            items=items,
            instant_win=win,  # type: ignore[arg-type]  # opaque
        )


def instant_win_result(
    rules: RuleSet, order: Sequence[int], win: InstantWinHand
) -> GameResult:
    """The result of a game won at the deal by ``order[0]`` (RULES §5.4, §6.7, D-14, D-21).

    *order* is every player, the winner first, then the others in play order; the
    rule set's scorer pays it.

    Raises:
        TypeError: *order* is not a sequence of seats, or *rules* no rule set.
        InvalidArgumentError: *order* does not list each seat of a table once.

    Example:
        >>> from tienlen import POKER, VIETCONG, InstantWin
        >>> from tienlen.scoring import instant_win_result
        >>> instant_win_result(VIETCONG, (2, 0, 1), InstantWin.FOUR_TWOS).scores
        (-1, -1, 2)
        >>> instant_win_result(POKER, (2, 0, 1), InstantWin.FOUR_TWOS).scores
        (0, 0, 12)
    """
    given: object = order  # checked at run time: callers may pass anything
    if isinstance(given, str) or not isinstance(given, Sequence):
        msg = f"expected the seats in order, got {given!r}"
        raise TypeError(msg)
    if any(type(seat) is not int for seat in order):
        msg = f"seats are ints, got {order!r}"
        raise TypeError(msg)
    if not order or sorted(order) != list(range(len(order))):
        msg = f"the order must list each seat 0-{len(order) - 1} once, got {order!r}"
        raise InvalidArgumentError(msg)
    return _scorer_of(rules).instant_win(rules, order, win)


def settle(rules: RuleSet, finish: Finish) -> GameResult:
    """Score a finished game by the rule set's scorer (RULES §2.5, §4.4, §6.6).

    Example:
        >>> from tienlen import POKER, Hand
        >>> from tienlen.scoring import Finish, settle
        >>> finish = Finish(order=(0, 1), hands=(Hand(0), Hand.parse("2h 5c")))
        >>> [str(item) for item in settle(POKER, finish).items]
        ['place: player 0 scores 4', 'end-penalty: player 1 pays player 0 4']

    Raises:
        TypeError: *rules* is no rule set, or *finish* no `Finish`.
    """
    if not isinstance(finish, Finish):
        msg = f"expected a Finish, got {finish!r}"  # type: ignore[unreachable]  # a defensive runtime check
        raise TypeError(msg)
    return _scorer_of(rules).settle(rules, finish)


def _scorer_of(rules: RuleSet) -> Scorer:
    """*rules*' scorer; anything without one is no rule set (`TypeError`)."""
    try:
        return rules.scorer
    except AttributeError:
        msg = f"expected a rule set, got {rules!r}"
        raise TypeError(msg) from None
