"""Hidden-hand sampling: a full game consistent with what one seat has seen.

A search bot cannot see its opponents' cards. `sample_world` *determinizes* its
`Observation`: it deals the cards the seat has not seen to the opponents, by the card
counts it knows, adds back what each opponent has played (public through the
history), and replays the history from that deal. The world it returns gives back
the same observation for the seat, so it offers the seat the same legal actions.

Deals are drawn uniformly among those consistent with the hard constraints:

- with two or three players on one deck, the first lead had to include the lowest
  dealt card (RULES §2.4, D-4), so no unseen card below it was dealt;
- a Justus Pang leader who declined the first lead held 3♠ (RULES §3.3, D-6);
- Kenneth Lo's three-player starter holds 3♠: dealt it, or given it as the spare
  card (RULES §4.1, D-8);
- with two decks the cards come from both (RULES §2.1);
- nobody was dealt an instant-win hand (RULES §5.4, §6.7), or the game would have
  ended at the deal.

Passes are voluntary and tell nothing for certain.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> state = GameState.deal(CLASSIC, players=4, seed=5)
    >>> state = state.apply(state.legal_actions()[0])
    >>> seen = Observation.of(state, 2)
    >>> world = sample_world(seen, random.Random(1))
    >>> Observation.of(world, 2) == seen, world.hand(2) == state.hand(2)
    (True, True)

.. versionadded:: 0.2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from tienlen.cards import DECK, Card, Hand
from tienlen.engine.shuffle import shuffle
from tienlen.errors import (
    IllegalPlayError,
    InvalidArgumentError,
    InvalidStateError,
    TienLenError,
)
from tienlen.game import GameState, Play
from tienlen.players import Observation

__all__ = ["SamplingError", "sample_world"]

_THREE_OF_SPADES: Final = DECK[0]
_MAX_TRIES: Final = 1000
"""Deals drawn before `sample_world` gives up (almost every observation needs one)."""


class SamplingError(TienLenError, ValueError):
    """No deal is consistent with an observation (or none was found in the tries allowed).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> import attrs
        >>> seen = Observation.of(GameState.deal(CLASSIC, players=4, seed=1), 0)
        >>> sample_world(attrs.evolve(seen, card_counts=(13, 13, 13, 14)), random.Random())
        Traceback (most recent call last):
        ...
        tienlen.search.sampling.SamplingError: inconsistent observation: seats were dealt (13, 13, 13, 14) cards, classic deals 13 each to 4 players

    .. versionadded:: 0.2
    """


def sample_world(
    observation: Observation,
    rng: random.Random,
    *,
    first_game: bool | None = None,
    after_instant_win: bool | None = None,
    max_tries: int = _MAX_TRIES,
) -> GameState:
    """A full game state consistent with *observation*, drawn from *rng*.

    The seat's own cards and everything public are kept; the unseen cards are dealt
    uniformly at random among the deals that respect the constraints of the module
    description, then the history is replayed. ``Observation.of(world, seat)``
    equals *observation*, checked before the world is returned.

    Whether the game is the first of a match, and whether the previous one ended by
    an instant win, are read from the observation (`Observation.first_game`,
    `Observation.after_instant_win`); they decide whether the first lead had to
    include the lowest card and who leads.

    Args:
        observation: What the seat has seen.
        rng: The only source of randomness.
        first_game: Whether the game is the first of its match (RULES §2.4);
            ``None`` (the default) reads `Observation.first_game`. A value that
            differs from the observation's gives a `SamplingError`.
        after_instant_win: Whether the previous game ended by an instant win (D-16);
            ``None`` reads `Observation.after_instant_win`.
        max_tries: Deals to draw before giving up. Most observations need one;
            a draw is redone only when an opponent would hold an instant win or,
            before the first lead, when the leader would not hold the lowest card.

    Returns:
        A new `GameState` whose history is the observation's.

    Raises:
        TypeError: *observation* is not an `Observation` or *rng* not a ``random.Random``.
        ValueError: *max_tries* is below 1.
        SamplingError: the observation is inconsistent (a seat not at the table,
            card counts that no deal gives, a card seen twice too often), or no
            consistent deal was found.

    Example:
        >>> import random
        >>> from tienlen import POKER, GameState, Observation
        >>> state = GameState.deal(POKER, players=3, seed=2)
        >>> seen = Observation.of(state, state.to_act)
        >>> world = sample_world(seen, random.Random(0))
        >>> [len(hand) for hand in world.hands], list(world.legal_actions()) == list(state.legal_actions())
        ([13, 13, 13], True)
    """
    if not isinstance(observation, Observation):
        msg = f"expected an Observation, got {type(observation).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if not isinstance(rng, random.Random):
        msg = f"expected a random.Random, got {type(rng).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if type(max_tries) is not int or max_tries < 1:
        msg = f"max_tries must be a positive int, got {max_tries!r}"
        raise InvalidArgumentError(msg)
    deal = Deal.of(
        observation, first_game=first_game, after_instant_win=after_instant_win
    )
    return deal.sample(rng, max_tries)


def _played_by(observation: Observation) -> list[Hand]:
    """The cards each seat has played, from the public history."""
    played = [Hand(0)] * observation.players
    for action in observation.history:
        if isinstance(action, Play):
            played[action.player] += action.cards
    return played


def _leader(observation: Observation) -> int | None:
    """Who led the game: the first to act (``None`` for a game ended at the deal)."""
    if observation.history:
        return observation.history[0].player
    return observation.to_act


class Deal:
    """What is known of the deal: the fixed part of each hand and the unseen cards.

    The search package's own (not in `__all__`): `sample_world` draws from it, and the
    search and learned bots keep one per decision.
    """

    def __init__(
        self,
        observation: Observation,
        setup: tuple[bool, bool],
        known: list[Hand],
        pool: list[Card],
        forced: dict[int, Card],
    ) -> None:
        self.observation = observation
        self.first_game, self.after_instant_win = setup
        self.known = known
        """Per seat, the cards it certainly was dealt."""
        self.pool = pool
        """The cards that may have been dealt to the opponents (some maybe undealt)."""
        self.forced = forced
        """A card (3♠) that an opponent certainly holds, out of the pool."""

    @classmethod
    def of(
        cls,
        observation: Observation,
        *,
        first_game: bool | None = None,
        after_instant_win: bool | None = None,
    ) -> Deal:
        """The known part of the deal behind *observation*.

        *first_game* and *after_instant_win* default (``None``) to the observation's.

        Raises:
            SamplingError: no deal of the rules gives these hands and counts.
        """
        if first_game is None:
            first_game = observation.first_game
        if after_instant_win is None:
            after_instant_win = observation.after_instant_win
        rules = observation.rules
        seats = observation.players
        seat = observation.seat
        counts = observation.card_counts
        if type(seat) is not int or type(seats) is not int:
            msg = f"inconsistent observation: seat {seat!r} of {seats!r} players"
            raise TypeError(msg)
        if not 0 <= seat < seats:
            msg = f"inconsistent observation: seat {seat} at a table of {seats}"
            raise SamplingError(msg)
        if len(counts) != seats or len(observation.hand) != counts[seat]:
            msg = f"inconsistent observation: card counts {counts} for {seats} seats, own hand of {len(observation.hand)}"
            raise SamplingError(msg)
        decks, size = rules.deal_size(seats)
        known = _played_by(observation)
        dealt = tuple(n + len(played) for n, played in zip(counts, known, strict=True))
        known[seat] += observation.hand
        starter = _spare_starter(observation, dealt, size)
        expected = [size] * seats
        if starter is not None:
            expected[starter] += 1
        if list(dealt) != expected:
            msg = f"inconsistent observation: seats were dealt {dealt} cards, {rules.name} deals {size} each to {seats} players"
            raise SamplingError(msg)
        full = Hand.from_cards(DECK * decks)
        taken = Hand(0)
        for hand in known:
            taken += hand
        if not taken <= full:
            msg = f"inconsistent observation: the cards seen ({taken}) exceed {decks} deck(s)"
            raise SamplingError(msg)
        pool = list((full - taken).cards)
        forced: dict[int, Card] = {}
        leader = _leader(observation)
        must_lead_low = rules.lead_must_include(
            first_game=first_game, after_instant_win=after_instant_win
        )
        holder = _three_of_spades_holder(observation, starter, first_game, leader)
        if (
            holder is not None
            and holder != seat
            and _THREE_OF_SPADES not in known[holder]
        ):
            if _THREE_OF_SPADES not in pool:
                msg = f"inconsistent observation: player {holder} must hold 3s, which is seen elsewhere"
                raise SamplingError(msg)
            pool.remove(_THREE_OF_SPADES)
            forced[holder] = _THREE_OF_SPADES
        floor = _lowest_dealt(observation, starter, leader, must_lead_low)
        if floor is not None:
            pool = [card for card in pool if card >= floor]
        return cls(observation, (first_game, after_instant_win), known, pool, forced)

    def sample(self, rng: random.Random, max_tries: int = _MAX_TRIES) -> GameState:
        """A random consistent world: `sample_world`, the known part worked out once.

        Raises:
            SamplingError: no consistent deal found in *max_tries* draws.
        """
        for _ in range(max_tries):
            world = self.draw(rng)
            if world is not None:
                return world
        msg = (
            f"no deal consistent with the observation of seat "
            f"{self.observation.seat} found in {max_tries} tries"
        )
        raise SamplingError(msg)

    def draw(self, rng: random.Random) -> GameState | None:
        """One random deal replayed to the observation, or ``None`` if it is refused."""
        observation = self.observation
        rules = observation.rules
        seat = observation.seat
        counts = observation.card_counts
        pool = self.pool[:]
        shuffle(rng, pool)
        hands = self.known[:]
        start = 0
        for player in range(observation.players):
            if player == seat:
                continue
            take = counts[player] - (player in self.forced)
            hidden = pool[start : start + take]
            start += take
            if player in self.forced:
                hidden.append(self.forced[player])
            hands[player] += Hand.from_cards(hidden)
        over_at_deal = observation.to_act is None and not observation.history
        if not over_at_deal and any(
            rules.instant_win(hand) is not None for hand in hands
        ):
            return None
        return _replay(observation, hands, self.first_game, self.after_instant_win)


def _spare_starter(
    observation: Observation, dealt: Sequence[int], size: int
) -> int | None:
    """Kenneth Lo's three-player starter, who was dealt the spare 52nd card (RULES §4.1)."""
    rules = observation.rules
    if not (rules.deal_policy.spare_card_to_starter and observation.players == 3):
        return None
    if 3 * size + 1 != len(DECK):
        return None  # pragma: no cover - the rules check needs 17 cards each
    larger = [p for p, n in enumerate(dealt) if n == size + 1]
    return larger[0] if len(larger) == 1 else None


def _three_of_spades_holder(
    observation: Observation,
    starter: int | None,
    first_game: bool,  # noqa: FBT001
    leader: int | None,
) -> int | None:
    """The seat that certainly was dealt 3♠, if the public play says so."""
    if starter is not None:
        return starter if first_game else None  # RULES §4.1, D-8
    history = observation.history
    if history and not isinstance(history[0], Play):
        return leader  # a declined first lead (RULES §3.3, D-6)
    return None


def _lowest_dealt(
    observation: Observation,
    starter: int | None,
    leader: int | None,
    must_lead_low: bool,  # noqa: FBT001
) -> Card | None:
    """The lowest dealt card, when the first lead shows it (RULES §2.4, D-4).

    The first lead had to include the lowest dealt card, so that card is its lowest.
    """
    if starter is not None or not must_lead_low:
        return None
    history = observation.history
    if history and isinstance(history[0], Play):
        return history[0].cards.cards[0]
    if leader == observation.seat:
        return observation.must_include
    return None


def _replay(
    observation: Observation,
    hands: list[Hand],
    first_game: bool,  # noqa: FBT001
    after_instant_win: bool,  # noqa: FBT001
) -> GameState | None:
    """The game dealt *hands*, replayed to the observation; ``None`` if it differs."""
    rules = observation.rules
    leader = _leader(observation)
    fixed_lead = not rules.lead_must_include(
        first_game=first_game, after_instant_win=after_instant_win
    ) or (rules.deal_policy.spare_card_to_starter and not first_game)
    dealer = None
    if leader is not None:
        step = rules.direction.value
        dealer = (leader - step) % observation.players  # the leader comes first
    try:
        world = GameState.from_hands(
            hands,
            rules,
            first_game=first_game,
            leader=leader if fixed_lead else None,
            after_instant_win=after_instant_win,
            dealer=dealer,
        )
        for action in observation.history:
            world = world.apply(action)
    except (IllegalPlayError, InvalidStateError):
        return None
    if Observation.of(world, observation.seat) != observation:
        return None
    return world
