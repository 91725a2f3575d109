"""The referee: asks each seat's bot for its decisions and checks every answer.

`play_out` plays a state to its end, asking the bots (`tienlen.players.Player`) through
a `Referee`; `tienlen.players.play_game`, `tienlen.simulation.simulate` and the search's
rollouts all go through it. `poll` asks the seats that may jump in (Poker, RULES §6.4).

**One path.** Every decision calls the bot's ``act`` with a lazy
`tienlen.players.Observation` and the seat's own actions, detached from the state.
A bot may declare, with the class attribute ``changes_nothing = True``, that it
changes nothing it is handed and needs no isolation: without a time limit it is
then handed the state's own actions and asked without the snapshot and
fingerprint taken around ``act`` (`trusts`). `RandomPlayer` and `GreedyPlayer`
declare it; any class may. What the referee still checks of a declared bot: that
it did not raise, and that its choice is one of the actions it was offered, on the
cards (`listed`); `GameState.apply` checks any action without the state's trust
token. What it no longer sees: a change to the observation, or to the actions
object, that leaves the choice one of the offered actions.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, RandomPlayer
    >>> state = GameState.deal(CLASSIC, players=4, seed=5)
    >>> play_out(state, [RandomPlayer()] * 4, random.Random(5), None).is_over
    True
"""

from __future__ import annotations

import operator
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from tienlen._checks import short_repr
from tienlen.actions import FIELDS as ACTION_FIELDS
from tienlen.actions import Actions, make_play
from tienlen.cards import Hand
from tienlen.engine.movegen import Leads
from tienlen.engine.view import FIELDS, card_counts, game_view, seat_view
from tienlen.errors import InvalidArgumentError, InvalidCardError
from tienlen.game import COMPILED, Action, GameState, Pass, Play
from tienlen.passes import PASSES
from tienlen.seat import Observation, PlayerError

if TYPE_CHECKING:
    from tienlen.seat import Player

__all__ = [
    "Referee",
    "Tally",
    "changed",
    "fingerprint",
    "listed",
    "play_out",
    "poll",
    "resolve",
    "trusts",
    "turn_offers",
]


def trusts(player: object) -> bool:
    """Whether *player* declares that it changes nothing it is handed.

    The declaration is a class attribute, ``changes_nothing = True`` (exactly
    ``True``); an instance attribute does not count.

    Example:
        >>> from tienlen import GreedyPlayer
        >>> class Mine:
        ...     changes_nothing = True
        ...     def act(self, observation, actions, rng):
        ...         return actions[0]
        >>> trusts(GreedyPlayer()), trusts(Mine()), trusts(object())
        (True, True, False)
    """
    return getattr(type(player), "changes_nothing", False) is True


class Tally(Protocol):
    """What `play_out` tells about each play (`tienlen.simulation` counts bombs)."""

    def count(self, state: GameState, play: Play, mask: int) -> None:
        """Note *play* (its cards *mask*), about to be applied to *state*.

        Passes are not told.
        """
        ...


class Referee:
    """What `play_out` keeps for one game: the players, the rng, the time limit.

    It asks a player for each decision and checks the answer (issue 14 §4): a player
    that raises, changes what it was handed, exceeds the time limit or chooses an
    action it was not offered ends the game with a `PlayerError`.

    Nothing a guarded bot's code is handed reaches another seat's cards (issue 20
    item 7): the observation holds a snapshot of what the seat may see
    (`seat_view`), and the actions are a copy detached from the state, holding only
    the seat's own actions. A bot that declares ``changes_nothing`` promises it
    needs no such isolation: it is handed the state's own `Actions` (no copy).

    What a bot raises that is not an ``Exception`` (``SystemExit``,
    ``KeyboardInterrupt``) goes on up unless *owns_exit* says it is the bot's own:
    then it is a `PlayerError` too (`tienlen.simulate` tells a bot's exit from a
    signal so).
    """

    __slots__ = (
        "_declared",
        "_game",
        "_limit",
        "_owns_exit",
        "_players",
        "_rng",
        "_trusted",
    )

    def __init__(
        self,
        state: GameState,
        players: Sequence[Player],
        rng: random.Random,
        time_limit: float | None,
        *,
        checked: bool = True,
        owns_exit: Callable[[BaseException], bool] | None = None,
    ) -> None:
        self._players = players
        self._owns_exit = owns_exit
        self._rng = rng
        self._limit = time_limit
        self._game = game_view(state)
        self._declared = tuple(
            time_limit is None and trusts(player) for player in players
        )
        """Per seat: whether its bot declares ``changes_nothing`` (no time limit)."""
        self._trusted = tuple(not checked or declared for declared in self._declared)
        """Per seat: whether its decisions go without snapshot (`decide`)."""

    def poll_turn(
        self, state: GameState, actions: Actions, counts: tuple[int, ...]
    ) -> Action:
        """The action of *state*'s turn when other seats may jump in (`poll`).

        They are asked first (Poker, RULES §6.4); then the player to act.
        """

        def ask(seat: int, offer: tuple[Action, ...]) -> Action:
            return self.ask(state, seat, offer, counts)

        own, jump_in = poll(state, actions, ask)
        if jump_in is not None:
            return jump_in
        return self.ask(state, actions._player, own, counts)

    def ask(
        self,
        state: GameState,
        seat: int,
        offered: Actions | tuple[Action, ...],
        counts: tuple[int, ...],
    ) -> Action:
        """*seat*'s choice among *offered* in *state*, checked.

        The player's ``act`` is always called, with a lazy observation. A bot that
        declares ``changes_nothing`` (`trusts`) is handed *offered* itself and asked
        without the snapshot (no time limit); any other bot gets the actions detached
        from the state and is asked through `decide`. A Poker jump-in offer is
        always asked through `decide`. Then the choice is checked: a play made by
        the state's legal actions (its trust token) on its cards against *offered*,
        the referee's own copy (`listed`); anything else in full (`resolve`).

        Raises:
            PlayerError: the player raised, failed `decide`'s checks, or chose an
                action it was not offered.
        """
        seen = _new(_OBSERVATION)  # `tienlen.players.observe`, inlined: the hot path
        view = seat_view(state, seat, counts, self._game)
        if COMPILED:  # one C call (`PyObject_GenericSetAttr`): no dict made yet
            object.__setattr__(seen, "_view", view)
        else:  # where ``object.__setattr__`` is a checked Python call
            seen.__dict__["_view"] = view
        player = self._players[seat]
        # Whatever the bot returned is read untyped until checked: compiled, a call
        # typed to return an `Action` would refuse ``None`` before `resolve` could.
        bot: Any = player
        choice: object
        if type(offered) is not Actions:  # a jump-in offer (rare)
            choice = self.decide(seat, seen, offered)
        elif not self._trusted[seat]:
            choice = self.decide(seat, seen, offered._detached())
        else:
            handed = offered if self._declared[seat] else offered._detached()
            try:
                choice = bot.act(seen, handed, self._rng)
            except Exception as error:
                raise _raised(seat, player, error) from error
            except BaseException as error:  # `SystemExit`, `KeyboardInterrupt`
                if not self._owns(error):
                    raise
                raise _raised(seat, player, error) from error
        if type(choice) is Play:
            if _still_listed(choice, state, seat, offered):
                return choice
        elif choice is _PASSES[seat] and type(offered) is Actions and offered._pass:
            return choice
        return resolve(seat, player, choice, offered, state)

    def decide(
        self,
        seat: int,
        seen: Observation,
        handed: Actions | tuple[Action, ...],
    ) -> object:
        """Ask *seat*'s player to choose among *handed*: its choice, not yet checked.

        The observation is compared before and after with its snapshot and *handed*
        with its fingerprint, and the call is timed against the time limit.

        Raises:
            PlayerError: the player raised, changed *seen* or *handed*, or took
                longer than the time limit.
        """
        player = self._players[seat]
        bot: Any = player  # its answer read untyped (see `ask`)
        printed = fingerprint(handed)
        limit = self._limit
        start = elapsed = 0.0
        if limit is not None:
            start = time.perf_counter()
        try:
            choice = bot.act(seen, handed, self._rng)
        except Exception as error:
            raise _raised(seat, player, error) from error
        except BaseException as error:  # `SystemExit`, `KeyboardInterrupt`
            if not self._owns(error):
                raise
            raise _raised(seat, player, error) from error
        if limit is not None:
            elapsed = time.perf_counter() - start
        if changed(seen, handed, printed):
            problem = "changed the observation or the actions it was handed"
            raise PlayerError(seat, player, choice, problem=problem)
        if limit is not None and elapsed > limit:
            problem = (
                f"took {elapsed:.3f} s to decide, over the time limit of {limit:g} s"
            )
            raise PlayerError(seat, player, choice, problem=problem)
        return choice

    def _owns(self, error: BaseException) -> bool:
        """Whether *error*, not an ``Exception``, is the bot's own (``owns_exit``)."""
        owns_exit = self._owns_exit
        return owns_exit is not None and owns_exit(error)


def _raised(seat: int, player: Player, error: BaseException) -> PlayerError:
    """The `PlayerError` of *seat*'s *player* raising *error* while deciding.

    Its cause is *error*, set here: compiled by mypyc, ``raise ... from error``
    raises without setting the cause.
    """
    problem = PlayerError(seat, player, None, problem=f"raised {short_repr(error)}")
    problem.__cause__ = error
    return problem


def fingerprint(offered: Actions | tuple[Action, ...]) -> object:
    """What *offered* holds, to compare before and after a player's decision.

    `Actions` are their attributes, and a lazy `Leads` of the move generator the
    lists it holds; a tuple (a Poker jump-in offer) is the seat and cards of each of
    its actions.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> actions = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).legal_actions()
        >>> fingerprint(actions) == fingerprint(actions)
        True
    """
    if type(offered) is not Actions:
        items: list[object] = []
        for action in offered:
            fields: Any = action  # read untyped (see `resolve`): the bot may set them
            if type(action) is Play:
                items.append((fields._player, fields._mask))
            else:
                items.append((action, fields.player))
        return tuple(items)
    printed = _ACTION_FIELDS(offered)
    masks = offered._masks
    if type(masks) is Leads:
        blocks = masks._blocks
        return (
            printed,
            tuple(masks._head),
            masks._hand,
            tuple(masks._found),  # the maximal runs iterating expands
            tuple(blocks),
            masks._len,
            *[tuple(block[1]) for block in blocks],  # each block's rank states
        )
    return printed


_ACTION_FIELDS: Final = operator.attrgetter(*ACTION_FIELDS)
_new: Final = object.__new__
# Compiled, a `Final` name is read from a C static, an imported one from the globals.
_OBSERVATION: Final = Observation
_PASSES: Final = PASSES


def changed(
    seen: Observation, handed: Actions | tuple[Action, ...], printed: object
) -> bool:
    """Whether *seen* or *handed* (fingerprinted *printed*) changed during a decision.

    An observation has changed when its snapshot was replaced or a field it holds
    differs from the field computed afresh from the snapshot. Something a player put
    in their place that cannot even be compared (its ``__eq__`` raises) counts as a
    change.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> seen, actions = Observation.of(state, 0), state.legal_actions()
        >>> changed(seen, actions, fingerprint(actions))
        False
        >>> seen.__dict__["hand"] = seen.hand | state.hand(1)
        >>> changed(seen, actions, fingerprint(actions))
        True
    """
    try:
        fields = seen.__dict__
        view = fields.get("_view")
        if view is None or type(view) is not tuple:
            return True
        for name, value in fields.items():
            if name == "_view":
                continue
            compute = FIELDS.get(name)
            if compute is None:
                return True
            expected = compute(view)
            if value is not expected and expected != value:
                return True
        return fingerprint(handed) != printed
    except Exception:  # noqa: BLE001 - a hostile __eq__ planted by the player
        return True


def _still_listed(
    play: Play, state: GameState, seat: int, offered: Actions | tuple[Action, ...]
) -> bool:
    """Whether *state* listed *play* for *seat* (its token) and it is unchanged since.

    Compiled, a play's fields hold ints (typed); pure, they are read as stored, maybe
    forged. A play built around its constructor may lack a field: it is then checked
    in full (`resolve`).
    """
    try:
        owner: object = play._player
        return (
            play._origin == state._serial  # made by the state's legal actions
            and type(owner) is int
            and owner == seat
            and listed(play, offered)
        )
    except AttributeError:  # a field never set (``Play.__new__(Play)``)
        return False


def listed(play: Play, offered: Actions | tuple[Action, ...]) -> bool:
    """Whether *play*'s cards are among the plays *offered* lists (for its seat).

    The trust token says a play was made by the state's legal actions, not that the
    player left it as it was: this is what makes a trusted play safe to apply.
    Computed on masks, without building the actions.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> actions = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC).legal_actions()
        >>> listed(actions[0], actions)
        True
    """
    if type(offered) is not Actions:
        return play in offered  # the offer's plays are fingerprinted unchanged
    mask = play._mask  # the bot may have set it: any int when compiled (typed field)
    if not COMPILED and type(mask) is not int:  # pure, anything (`_well_formed`)
        return False
    if not mask & (mask - 1) and mask & offered._singles:
        return True
    return mask in offered._masks


def resolve(
    seat: int,
    player: Player,
    choice: object,
    offered: Actions | tuple[Action, ...],
    state: GameState,
) -> Action:
    """*choice*, checked to be one of the offered actions (or equal to one).

    Only a real `Play` or `Pass` for a real ``int`` seat qualifies: a subclass, or a
    look-alike player number (``True``, ``1.0``, an ``int`` subclass) never does. A
    play is checked on its cards, whatever trust token it carries.

    Raises:
        PlayerError: *choice* is not one of the offered actions.

    Example:
        >>> from tienlen import CLASSIC, GameState, Play
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> resolve(0, None, Play(player=0, cards="3s"), state.legal_actions(), state)
        Play(player=0, cards=Hand.parse('3s'))
    """
    if type(choice) is Play or type(choice) is Pass:
        # Read untyped (`getattr`): compiled by mypyc, reading a field typed `int`
        # checks its type and raises `TypeError`, where a forged action (a `Pass`
        # whose player is ``1.0``) must be refused as Python refuses it, a
        # `PlayerError`; an action built around its constructor may lack the field.
        owner: object = getattr(choice, "player", None)
        if (
            type(owner) is int
            and owner == seat
            and _well_formed(choice)
            and _offers(offered, choice, state)
        ):
            return choice
    raise PlayerError(seat, player, choice, offered)


def _well_formed(action: Play | Pass) -> bool:
    """Whether *action* is a pass, or a play whose cards are a hand's.

    A bot may set a play's mask around its constructor (``object.__setattr__``):
    to a negative or too long int, or, in the pure build, to anything at all.
    """
    if type(action) is Pass:
        return True
    mask: object = getattr(action, "_mask", None)  # as stored, untyped, maybe unset
    if type(mask) is not int:
        return False
    try:
        Hand(mask)
    except InvalidCardError:
        return False
    return True


def _offers(
    offered: Actions | tuple[Action, ...], choice: Play | Pass, state: GameState
) -> bool:
    """Whether *choice* (a real action for the right seat) is one of *offered*."""
    if type(offered) is Actions:  # on its cards, whatever token it carries
        return state.is_legal(choice)
    return choice in offered


def play_out(
    state: GameState,
    players: Sequence[Player],
    rng: random.Random,
    tally: Tally | None,
    time_limit: float | None = None,
    *,
    checked: bool = True,
    owns_exit: Callable[[BaseException], bool] | None = None,
) -> GameState:
    """`tienlen.players.play_game` (arguments unchecked), telling *tally* every play.

    With *checked* false, every seat is asked as a declared bot is (no snapshot, no
    time limit; one that raises is still a `PlayerError`): only for bots whose
    choices are offered actions (the search's rollouts). *owns_exit* tells which
    ``SystemExit`` or ``KeyboardInterrupt`` a bot raises is its own (`Referee`).

    Raises:
        InvalidArgumentError: *players* does not have one player per seat.
        PlayerError: as `tienlen.players.play_game`.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> [str(a) for a in play_out(state, [GreedyPlayer()] * 2, random.Random(0), None).history]
        ['3s', '5d', 'pass', '6d']
    """
    if len(players) != state.players:
        msg = f"{len(players)} players for a {state.players}-player game"
        raise InvalidArgumentError(msg)
    referee = Referee(
        state, players, rng, time_limit, checked=checked, owns_exit=owns_exit
    )
    left = list(card_counts(state))  # cards held, by seat
    counts = tuple(left)
    while state.to_act is not None:
        actions = state.legal_actions()
        if actions._others:  # somebody may jump in (Poker, RULES §6.4)
            chosen = referee.poll_turn(state, actions, counts)
        else:
            chosen = referee.ask(state, actions._player, actions, counts)
        if type(chosen) is not Play:
            state = state.apply(chosen)
            continue
        if tally is not None:
            tally.count(state, chosen, chosen._mask)
        state = state.apply(chosen)
        left[chosen._player] -= chosen._mask.bit_count()
        counts = tuple(left)
    return state


def poll(
    state: GameState,
    actions: Actions,
    ask: Callable[[int, tuple[Action, ...]], Action],
) -> tuple[Actions | tuple[Action, ...], Play | None]:
    """`tienlen.players.poll_jump_ins` with the state's legal *actions* known.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> actions = state.legal_actions()
        >>> poll(state, actions, lambda seat, offer: offer[0]) == (actions, None)
        True
    """
    if not actions._others:  # the common case: nobody may jump in
        return actions, None
    own, offers = turn_offers(state, actions)
    for seat, offer in offers:
        choice = ask(seat, offer)
        if type(choice) is Play and choice in offer:  # a pass is no play of the offer
            return own, choice
    return own, None


def turn_offers(
    state: GameState, actions: Actions
) -> tuple[Actions | tuple[Action, ...], tuple[tuple[int, tuple[Action, ...]], ...]]:
    """What each seat of *state*'s turn is offered, in the order they are asked.

    The jump-in offers come first (Poker, RULES §6.4): one per seat that may jump in,
    in play direction from the player to act, each its jump-in plays and then a
    `Pass` meaning "do not jump in". Then the player to act chooses among its own
    actions: *actions* itself when nobody may jump in, else a tuple of them. `poll`
    asks in this order; `tienlen.referee.Referee` steps through it.

    Args:
        state: The state, with a player to act.
        actions: Its legal actions (`GameState.legal_actions`).

    Returns:
        The player to act's own actions, and the jump-in offers as (seat, offer) pairs.

    Example:
        >>> from tienlen import POKER, GameState
        >>> state = GameState.from_hands(
        ...     ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"], POKER, first_game=False, leader=0
        ... ).play("2h", 0)
        >>> own, offers = turn_offers(state, state.legal_actions())
        >>> [str(action) for action in own], [(seat, [str(a) for a in offer]) for seat, offer in offers]
        (['pass'], [(1, ['4s 4c 5s 5c 6s 6c 7s 7c', 'pass'])])
    """
    others = actions._others
    if not others:
        return actions, ()
    to_act = state.to_act
    own = tuple(action for action in actions if action.player == to_act)
    offers: list[tuple[int, tuple[Action, ...]]] = []
    for seat, group in others:
        plays = [make_play(seat, mask, actions._serial) for mask in group]
        offers.append((seat, (*plays, Pass(player=seat))))
    return own, tuple(offers)
