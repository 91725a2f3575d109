"""Players (bots): what a player may see, the `Player` protocol, two bots and `play_game`.

A bot is any object with an ``act(observation, actions, rng)`` method (`Player`). It
sees an `Observation` (its own hand and everything public at the table, never another
player's cards) and the legal actions available to its seat, and returns one of them.
Randomness comes from the *rng* the caller passes, so bots stay stateless and
picklable and a game is reproducible from its seed (STYLE R33).

`play_game` referees a game between bots with the engine (`GameState.apply`), asking
Poker players about jump-ins out of turn (RULES §6.4, D-15). `RandomPlayer` and
`GreedyPlayer` are reference bots; `simulate` plays many games between them.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState
    >>> rng = random.Random(3)
    >>> state = GameState.deal(CLASSIC, players=4, seed=rng)
    >>> bots = [GreedyPlayer(), RandomPlayer(), RandomPlayer(), RandomPlayer()]
    >>> final = play_game(state, bots, rng)
    >>> final.is_over, sorted(final.result.finish_order)
    (True, [0, 1, 2, 3])

.. versionadded:: 0.1
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Protocol

import attrs

from tienlen.actions import make_play
from tienlen.cards import Card, Hand, Rank
from tienlen.combos import Combo
from tienlen.errors import TienLenError
from tienlen.game import Action, GameState, Pass, Play
from tienlen.rules import RuleSet
from tienlen.rules._base import Direction

__all__ = [
    "GreedyPlayer",
    "Observation",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "play_game",
    "poll_jump_ins",
]


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _int_set(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values)


def _actions(values: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(values)


@attrs.frozen(kw_only=True, slots=False)
class Observation:
    """What one seat may see of a game: its own hand and everything played in public.

    It never holds another player's cards, nor the `GameState`: only card counts for
    the others. Build one with `Observation.of`; `play_game` builds one for every
    decision it asks of a `Player`.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d 9c", "5c Jd"], CLASSIC).play("3s")
        >>> seen = Observation.of(state, 1)
        >>> str(seen.hand), str(seen.top), seen.card_counts, str(seen.played)
        ('4d 9c', '3s', (1, 2, 2), '3s')
        >>> seen.to_act, seen.jumping_in, seen.fewest_opponent_cards
        (1, False, 1)

    .. versionadded:: 0.1
    """

    seat: int
    """The observing player's index."""
    hand: Hand
    """The observing player's own cards."""
    rules: RuleSet
    """The variant being played."""
    players: int
    """How many players sit at the table."""
    direction: Direction
    """Play direction (RULES §2.1, §6.1)."""
    to_act: int | None
    """Whose turn it is; ``None`` once the game is over."""
    jumping_in: bool
    """Whether the seat is asked out of turn, about a Poker jump-in (RULES §6.4)."""
    top: Combo | None
    """The combination to beat; ``None`` when the player to act leads."""
    last_player: int | None
    """Who played `top`."""
    passed: frozenset[int] = attrs.field(converter=_int_set)
    """The players locked out of the current trick (RULES §1.5.3)."""
    out: frozenset[int] = attrs.field(converter=_int_set)
    """The players out of the game, finished or frozen (RULES §1.5.5, §6.6.3)."""
    finish_order: tuple[int, ...] = attrs.field(converter=_ints)
    """The players who have gone out, first out first."""
    frozen: tuple[int, ...] = attrs.field(converter=_ints)
    """Poker players frozen out when first place was taken (RULES §6.6.3)."""
    card_counts: tuple[int, ...] = attrs.field(converter=_ints)
    """How many cards each player holds, by player index (the seat's own included)."""
    played: Hand
    """Every card played so far in this game."""
    history: tuple[Action, ...] = attrs.field(converter=_actions)
    """Every action of the game so far, in order (as in `GameState.history`)."""
    must_include: Card | None
    """The card the seat's lead must include (3♠ or the lowest dealt card), if any."""
    may_decline: bool
    """Whether the seat may decline the first lead by passing (RULES §3.3, D-6)."""
    may_continue: bool
    """Whether the seat may continue its own trick or close it by passing (RULES §3.4)."""

    @classmethod
    def of(cls, state: GameState, player: int) -> Observation:
        """What *player* may see of *state*.

        A player other than the one to act is observing out of turn (`jumping_in`):
        the only actions it may take then are Poker jump-ins (RULES §6.4).

        Raises:
            ValueError: *player* is not at the table.

        Example:
            >>> from tienlen import POKER, GameState
            >>> state = GameState.from_hands(["4s 5s", "3s 9h"], POKER)
            >>> seen = Observation.of(state, 1)
            >>> seen.must_include, seen.card_counts, seen.direction.name
            (Card.parse('3s'), (2, 2), 'COUNTERCLOCKWISE')
        """
        if type(player) is not int or not 0 <= player < state.players:
            msg = f"no player {player!r} at a {state.players}-player table"
            raise ValueError(msg)
        return _observe(state, player, state.history, _played(state), _counts(state))

    @property
    def is_leading(self) -> bool:
        """Whether the seat leads, being to act with nothing to beat."""
        return self.top is None and self.seat == self.to_act

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the game, in play direction from the seat."""
        step = self.direction.value
        seats = ((self.seat + step * i) % self.players for i in range(1, self.players))
        return tuple(seat for seat in seats if seat not in self.out)

    @property
    def fewest_opponent_cards(self) -> int | None:
        """The smallest hand among the opponents still in the game (``None``: no one)."""
        counts = [self.card_counts[seat] for seat in self.opponents]
        return min(counts) if counts else None


def _observe(
    state: GameState,
    player: int,
    history: tuple[Action, ...],
    played: Hand,
    counts: tuple[int, ...],
) -> Observation:
    """`Observation.of` with the public history, played cards and card counts known.

    Built without attrs' init, every field at once: `play_game` makes an observation
    for every decision (hot path). A test checks these are exactly the attrs fields.
    """
    to_act = state.to_act
    acting = player == to_act
    rules = state.rules
    new = _new(Observation)
    _set_fields(
        new,
        "__dict__",
        {
            "seat": player,
            "hand": state.hand(player),
            "rules": rules,
            "players": len(counts),
            "direction": rules.direction,
            "to_act": to_act,
            "jumping_in": to_act is not None and not acting,
            "top": state.top,
            "last_player": state.last_player,
            "passed": _SEAT_SETS[state.locked],
            "out": _SEAT_SETS[state.out],
            "finish_order": state.finish_order,
            "frozen": state.frozen,
            "card_counts": counts,
            "played": played,
            "history": history,
            "must_include": state.must_include if acting else None,
            "may_decline": acting and state.may_decline,
            "may_continue": acting and state.is_continuing,
        },
    )
    return new


_new: Final = object.__new__
_set_fields: Final = object.__setattr__
_SEAT_SETS: Final = tuple(
    frozenset(seat for seat in range(8) if mask >> seat & 1) for mask in range(256)
)
"""``_SEAT_SETS[mask]``: the seats whose bits are set in *mask* (at most 8 players)."""


class Player(Protocol):
    """A bot: anything with this `act` method plays (a ``typing.Protocol``).

    Keep players stateless and picklable (frozen attrs classes work well): the same
    player object may be asked about several games at once, in other processes.

    .. versionadded:: 0.1
    """

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose one of *actions*.

        Args:
            observation: What the seat may see now.
            actions: The legal actions of this seat, never empty. When the seat is
                asked out of turn (``observation.jumping_in``), they are its Poker
                jump-ins plus a `Pass` meaning "do not jump in".
            rng: The only source of randomness a player may use.

        Returns:
            One of *actions* (an equal `Play` or `Pass` is accepted too).
        """
        ...


class PlayerError(TienLenError, ValueError):
    """A player returned an action that is not among the legal actions it was offered.

    Attributes:
        seat: The seat of the player at fault.
        player: The player object.
        action: What it returned.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, Pass
        >>> class Stubborn:
        ...     def act(self, observation, actions, rng):
        ...         return Pass(player=observation.seat)
        >>> state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
        >>> play_game(state, [Stubborn(), Stubborn()], random.Random(0))
        Traceback (most recent call last):
        ...
        tienlen.players.PlayerError: player 0 (Stubborn) chose Pass(player=0), which is not one of its 2 legal actions: '3s', '3s 4s 5s'

    .. versionadded:: 0.1
    """

    def __init__(
        self, seat: int, player: object, action: object, offered: Sequence[Action]
    ) -> None:
        self.seat = seat
        self.player = player
        self.action = action
        shown = ", ".join(repr(str(a)) for a in offered[:8])
        more = ", ..." if len(offered) > 8 else ""
        super().__init__(
            f"player {seat} ({type(player).__name__}) chose {action!r}, which is not "
            f"one of its {len(offered)} legal actions: {shown}{more}"
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Picklable, so that the error travels back from a worker process.
        return _restore_player_error, (self.seat, self.player, self.action, str(self))


def _restore_player_error(
    seat: int, player: object, action: object, message: str
) -> PlayerError:
    """A `PlayerError` rebuilt from its pickled fields."""
    error = PlayerError.__new__(PlayerError)
    Exception.__init__(error, message)
    error.seat = seat
    error.player = player
    error.action = action
    return error


def _resolve(
    seat: int, player: Player, choice: object, offered: Sequence[Action]
) -> Action:
    """*choice*, checked to be one of the offered actions (or equal to one).

    Raises:
        PlayerError: *choice* is not one of the offered actions.
    """
    if (
        isinstance(choice, Play | Pass)
        and choice.player == seat
        and choice in offered  # `Actions` answers without building its actions
    ):
        return choice
    raise PlayerError(seat, player, choice, offered)


class _Tally(Protocol):
    """What `tienlen.simulation` counts while a game is played (private)."""

    def count(self, state: GameState, action: Action) -> None:
        """Note *action*, about to be applied to *state*."""
        ...


def play_game(
    state: GameState, players: Sequence[Player], rng: random.Random
) -> GameState:
    """Play *state* to the end, asking each seat's `Player` for its actions.

    Each turn, before the player to act chooses, every other player who has Poker
    jump-ins (RULES §6.4) is asked, in play direction from the player to act, whether
    to jump in: its `Player.act` gets an `Observation` with ``jumping_in`` set and its
    jump-in plays plus a `Pass` meaning "do not jump in". The first to choose a play
    jumps in, and the turn goes on from the new state. Then the player to act chooses
    among its own legal actions. A player only ever gets its own cards, the public
    table and its own actions.

    Args:
        state: Where to start (a fresh deal, or any state).
        players: One player per seat, by player index.
        rng: Passed to every `Player.act`: the game's only randomness.

    Returns:
        The final state, whose ``result`` holds the finishing order and scores.

    Raises:
        ValueError: *players* does not have one player per seat.
        PlayerError: a player chose an action it was not offered.

    Example:
        >>> import random
        >>> from tienlen import KENNETH_LO, GameState
        >>> state = GameState.deal(KENNETH_LO, players=3, seed=11)
        >>> final = play_game(state, [RandomPlayer()] * 3, random.Random(11))
        >>> final.result.winner == final.finish_order[0]
        True
    """
    return _play(state, players, rng, None)


def _play(
    state: GameState,
    players: Sequence[Player],
    rng: random.Random,
    tally: _Tally | None,
) -> GameState:
    """`play_game`, telling *tally* about every action before it is applied."""
    if len(players) != state.players:
        msg = f"{len(players)} players for a {state.players}-player game"
        raise ValueError(msg)
    played = _played(state)
    history = state.history
    counts = _counts(state)
    while state.to_act is not None:
        to_act = state.to_act
        public = (history, played, counts)

        def ask(seat: int, offer: tuple[Action, ...]) -> Action:
            seen = _observe(state, seat, *public)  # noqa: B023  # called at once
            player = players[seat]
            return _resolve(seat, player, player.act(seen, offer, rng), offer)

        actions, jump_in = poll_jump_ins(state, ask)
        chosen: Action
        if jump_in is not None:
            chosen = jump_in
        else:
            player = players[to_act]
            seen = _observe(state, to_act, history, played, counts)
            chosen = _resolve(to_act, player, player.act(seen, actions, rng), actions)
        if tally is not None:
            tally.count(state, chosen)
        state = state.apply(chosen)
        history = (*history, chosen)
        if isinstance(chosen, Play):
            played += chosen.cards
            left = list(counts)
            left[chosen.player] -= len(chosen.cards)
            counts = tuple(left)
    return state


def _played(state: GameState) -> Hand:
    """Every card played so far: the dealt hands less the hands held."""
    played = Hand(0)
    for dealt, hand in zip(state.dealt, state.hands, strict=True):
        played += dealt - hand
    return played


def _counts(state: GameState) -> tuple[int, ...]:
    """How many cards each player holds."""
    return tuple(len(hand) for hand in state.hands)


def poll_jump_ins(
    state: GameState, ask: Callable[[int, tuple[Action, ...]], Action]
) -> tuple[Sequence[Action], Play | None]:
    """Ask every seat with Poker jump-ins now whether to jump in (RULES §6.4, D-15).

    The one poller of the library (`play_game` and the CLI use it). Seats are asked
    in play direction from the player to act, each with its jump-in plays plus a `Pass`
    meaning "do not jump in", as an immutable tuple: ``ask(seat, offer)`` returns the
    choice. The first seat to choose one of its offered plays jumps in.

    Args:
        state: The state, with a player to act.
        ask: Called once per seat with jump-ins, until one jumps in.

    Returns:
        The player to act's own legal actions, and the jump-in chosen (``None`` if
        nobody jumped in; the player to act then chooses among their own actions).

    Example:
        >>> from tienlen import POKER, GameState
        >>> from tienlen.players import poll_jump_ins
        >>> state = GameState.from_hands(
        ...     ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"], POKER, first_game=False, leader=0
        ... ).play("2h", 0)
        >>> own, chosen = poll_jump_ins(state, lambda seat, offer: offer[0])
        >>> chosen, [str(action) for action in own]
        (Play(player=1, cards=Hand.parse('4s 4c 5s 5c 6s 6c 7s 7c')), ['pass'])
    """
    actions = state.legal_actions()
    if not actions._others:  # the common case: nobody may jump in
        return actions, None
    to_act = state.to_act
    own = tuple(action for action in actions if action.player == to_act)
    for seat, group in actions._others:
        plays = tuple(make_play(seat, mask, actions._serial) for mask in group)
        offer: tuple[Action, ...] = (*plays, Pass(player=seat))
        choice = ask(seat, offer)
        if type(choice) is Play and choice in plays:
            return own, choice
    return own, None


# -- the reference bots --------------------------------------------------------------


@attrs.frozen
class RandomPlayer:
    """Chooses uniformly among the actions offered (passes and jump-ins included).

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> actions = list(state.legal_actions())
        >>> RandomPlayer().act(Observation.of(state, 0), actions, random.Random(1)) in actions
        True

    .. versionadded:: 0.1
    """

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of *actions*, uniformly at random from *rng*."""
        del observation
        return actions[int(rng.random() * len(actions))]


_TWO: Final = Rank.TWO


@attrs.frozen(kw_only=True)
class GreedyPlayer:
    """A simple heuristic bot: shed low cards, keep 2s and bombs for when they matter.

    A *precious* play holds a 2 or is a bomb. In order:

    1. A play that empties the hand is always taken.
    2. **Jump-in** (Poker, out of turn): jump in with the lowest jump-in only to stop an
       opponent holding at most `danger` cards; otherwise do not.
    3. **Lead**: never a precious play while another exists. Dump the longest straight
       or run of pairs first (lowest top card among equals); without one, lead the
       lowest rank, with as many cards of it as form a play (a pair over a single).
       Never decline the first lead.
    4. **Continuation** (Justus Pang): continue with the lowest non-precious play,
       else close by passing.
    5. **Follow**: play the lowest non-precious play that beats the top (more cards
       first among equals). Play a precious one (a 2 before a bomb, lowest first) only
       when an opponent holds at most `danger` cards, or when the play leaves this
       seat at most `danger` cards, or when the hand holds nothing but precious
       cards; otherwise pass.

    It never uses *rng*, so its choices depend only on what it sees.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s 9h Td Ks", "5d 6d 8h Jc 2h", "7c 8c Qs Qd As"], CLASSIC)
        >>> state = state.play("3s").play("5d").play("7c")
        >>> bot, rng = GreedyPlayer(), random.Random()
        >>> str(bot.act(Observation.of(state, 0), state.legal_actions(), rng))  # lowest
        '9h'
        >>> state = state.play("Ks")
        >>> str(bot.act(Observation.of(state, 1), state.legal_actions(), rng))  # keeps the 2
        'pass'

    .. versionadded:: 0.1
    """

    danger: int = 2
    """An opponent with at most this many cards is about to go out."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The heuristic's choice among *actions* (see the class description)."""
        del rng
        rules = observation.rules
        hand_size = len(observation.hand)
        plays: list[tuple[Combo, Action]] = []
        pass_action: Action | None = None
        for action in actions:
            if isinstance(action, Pass):
                pass_action = action
                continue
            if len(action.cards) == hand_size:
                return action  # going out
            combo = rules.classify(action.cards)
            assert combo is not None
            plays.append((combo, action))
        if not plays:
            assert pass_action is not None
            return pass_action
        normal = [
            (combo, action)
            for combo, action in plays
            if combo.rank is not _TWO and not rules.is_bomb(combo.shape)
        ]
        fewest = observation.fewest_opponent_cards
        threat = fewest is not None and fewest <= self.danger
        if observation.jumping_in:
            if threat or pass_action is None:
                return min(plays, key=_lowest)[1]
            return pass_action
        if observation.top is None:
            return _lead(normal or plays)
        if normal:
            return min(normal, key=_lowest)[1]
        if pass_action is None:  # pragma: no cover - following may always pass
            return min(plays, key=_precious_order)[1]
        if observation.may_continue:
            return pass_action
        combo, action = min(plays, key=_precious_order)
        if (
            threat
            or hand_size - len(combo) <= self.danger
            or _only_precious(observation.hand, rules)
        ):
            return action
        return pass_action


def _lowest(item: tuple[Combo, Action]) -> tuple[int, int]:
    """Lowest top card first; more cards first among equals."""
    combo = item[0]
    return combo.top.index, -len(combo)


def _precious_order(item: tuple[Combo, Action]) -> tuple[bool, int]:
    """2s before bombs, then the lowest top card."""
    combo = item[0]
    return combo.rank is not _TWO, combo.top.index


def _lead(plays: list[tuple[Combo, Action]]) -> Action:
    """The longest sequence (lowest top among equals), else the lowest rank, fullest."""
    sequences = [item for item in plays if item[0].kind.is_sequence]
    if sequences:
        return min(sequences, key=lambda item: (-len(item[0]), item[0].top.index))[1]
    lowest = min(item[0].rank for item in plays)
    return min(
        (item for item in plays if item[0].rank is lowest),
        key=lambda item: (-len(item[0]), item[0].top.index),
    )[1]


def _only_precious(hand: Hand, rules: RuleSet) -> bool:
    """Whether every card of *hand* is a 2 or part of a bomb it holds."""
    covered = 0
    for combo in rules.legal_plays(hand):
        if combo.rank is _TWO or rules.is_bomb(combo.shape):
            covered |= combo.mask
    return hand.mask & ~covered == 0
