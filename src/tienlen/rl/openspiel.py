"""Tiến Lên as OpenSpiel games: one per preset, registered on import (issue 24 §1).

Importing this module registers ``python_tienlen_classic``,
``python_tienlen_justus_pang``, ``python_tienlen_kenneth_lo``,
``python_tienlen_vietcong`` and ``python_tienlen_poker`` with
``pyspiel.register_game``; ``pyspiel.load_game`` then builds them. Needs the
``openspiel`` extra (OpenSpiel and Shimmy): ``pip install "tienlen[openspiel]"``, or
``pip install -e ".[openspiel]"`` from a checkout.

Game parameters:

- ``players`` (default 4): the table size. Five to eight play the rule set's two-deck
  form (`tienlen.rules.two_decks`).
- ``rules`` (default ``""``: the preset): any rule set in the records' self-contained
  JSON form, ``json.dumps(tienlen.records.rules_to_json(rules))``, or that JSON in
  base64url (`rules_parameter`; OpenSpiel's game strings cannot hold its commas);
  it replaces the preset, so house rules play under any of the five names.
- ``redeal_instant_wins`` (default ``False``): a deal that ends the game at once
  (an instant win, RULES §5.4, §6.7) is dealt again, as the RL environments do,
  instead of ending the game with its instant-win score. The information state
  counts the redeals but not their cards, which tell nothing about the deal played.

The game follows the library move for move:

- **Chance.** The deal is explicit: with two decks a first chance node draws the
  dealer (it breaks a tie of two 3♠, RULES §2.4); then one chance node per card,
  dealt round the table from seat 0, each outcome a card index (`tienlen.Card.index`)
  with probability proportional to its copies left. Kenneth Lo's three-player spare
  card goes to the starter with no chance node (it is the one card left, §4.1). The
  game is the first of a match (§2.4): the holder of the lowest card leads, and a
  Poker or Vietcong instant win ends it at the deal with its score.
- **Actions** are the indices of `tienlen.rl.table.ActionTable.for_rules` (616 for the
  presets on one deck, more with two decks or a house rule's own classes): PASS
  or a class, filled with the lowest suits the hand holds, exactly as
  `tienlen.rl.turns.Turns` plays them.
- **Poker jump-ins** (RULES §6.4). OpenSpiel has one player to move, so before the
  player to act decides, every other seat that could jump in is asked in play
  direction, one decision node each: its jump-in classes, or PASS to decline. The
  first to jump in plays and a new round of questions starts from the new state; a
  decline is seen only by the seat that made it (the others see the public plays).
  This is the order `tienlen.play_game` asks bots and the PettingZoo environment uses.
- **Returns** are the library's scores (`tienlen.GameResult.scores`: stakes, or Poker
  points), at the end only.
- **Observations.** The observation tensor is `tienlen.rl.observation`'s vector for
  the seat (the last 8 actions); the information-state tensor is the same vector
  with the whole public history (perfect recall) and one more number, 1 when the
  seat has declined a jump-in on the current play. The strings say the same in
  words: the information state lists the seat's dealt cards and every public action.
- **Resampling.** `TienLenState.resample_from_infostate` deals the unseen cards with
  `tienlen.search.sampling.sample_world` and replays the public history, keeping only
  worlds in which every play was the lowest-suit member of its class (a class says
  which cards a seat did not hold), so OpenSpiel's IS-MCTS runs on these games.
- **Serialisation** is OpenSpiel's for Python games (the history and the pickled
  state); `TienLenState.game_state` is the library's `tienlen.GameState`.

Example:
    >>> import pyspiel
    >>> import tienlen.rl.openspiel
    >>> game = pyspiel.load_game("python_tienlen_classic", {"players": 3})
    >>> game.num_players(), game.num_distinct_actions()
    (3, 616)
    >>> state = game.new_initial_state()
    >>> while state.is_chance_node():  # the deal: one card at a time
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> while not state.is_terminal():
    ...     state.apply_action(state.legal_actions()[-1])
    >>> state.returns() == list(map(float, state.game_state.result.scores))
    True
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import numbers
import operator
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Final

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel

from tienlen.cards import DECK, Hand
from tienlen.engine.shuffle import shuffle
from tienlen.errors import InvalidArgumentError, InvalidStateError
from tienlen.game import GameState, Play
from tienlen.players import Observation
from tienlen.records import rules_from_json, rules_to_json
from tienlen.rl.observation import ObservationEncoder
from tienlen.rl.table import ActionTable, card_value
from tienlen.rules import RULESETS, BaseRules, two_decks
from tienlen.search.sampling import SamplingError, sample_world

__all__ = [
    "GAME_NAMES",
    "ClassicGame",
    "JustusPangGame",
    "KennethLoGame",
    "PokerGame",
    "TienLenGame",
    "TienLenObserver",
    "TienLenState",
    "VietcongGame",
    "game_class",
    "game_name",
    "register_games",
    "rules_parameter",
]

_CARDS: Final = 52
_ONE_DECK_PLAYERS: Final = 4
_HISTORY: Final = 8
"""Past actions in the observation tensor (the environments' default)."""
_RESAMPLE_TRIES: Final = 1000
"""Worlds `TienLenState.resample_from_infostate` draws before giving up."""


def game_name(rules: BaseRules | str) -> str:
    """The OpenSpiel name of a preset: ``python_tienlen_`` and its name, ``-`` as ``_``.

    Example:
        >>> from tienlen import JUSTUS_PANG
        >>> game_name(JUSTUS_PANG), game_name("poker")
        ('python_tienlen_justus_pang', 'python_tienlen_poker')
    """
    if isinstance(rules, str):
        name = rules
    elif isinstance(rules, BaseRules):
        name = rules.name
    else:
        msg = f"expected a rule set or a preset's name, not {type(rules).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    return "python_tienlen_" + name.replace("-", "_")


class _GameNames(Mapping[str, str]):
    """Each game's name and the preset it plays, read from `tienlen.RULESETS` at each use."""

    def _names(self) -> dict[str, str]:
        return {game_name(preset): preset for preset in RULESETS}

    def __getitem__(self, name: str) -> str:
        return self._names()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(RULESETS)

    def __repr__(self) -> str:
        return repr(self._names())


GAME_NAMES: Final[Mapping[str, str]] = _GameNames()
"""Each game's name and the preset it plays, one per preset of `tienlen.RULESETS` (a
live view: a preset registered later is listed; `register_games` registers its game)."""


# -- the table: rules, size, action table, bounds ---------------------------------


@attrs.frozen(eq=False)
class _Table:
    """What every state of one game shares (immutable: clones share it)."""

    rules: BaseRules
    players: int
    decks: int
    size: int
    """Cards dealt to each seat by chance."""
    spare: bool
    """Kenneth Lo's spare card goes to the starter (RULES §4.1)."""
    table: ActionTable
    actions: int
    public_bound: int
    """At most this many public actions in a game (the history tensor's length)."""
    redeal: bool

    @property
    def dealt(self) -> int:
        """Cards dealt by chance nodes."""
        return self.players * self.size

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        return self  # immutable: OpenSpiel deep-copies a state's attributes on clone

    def __reduce__(self) -> tuple[Callable[..., _Table], tuple[object, ...]]:
        return _table_for, (self.rules, self.players, self.redeal)


@functools.cache
def _table_for(rules: BaseRules, players: int, redeal: bool) -> _Table:  # noqa: FBT001
    decks, size = rules.deal_size(players)
    spare = rules.deal_policy.gives_spare_card(players, decks * _CARDS - players * size)
    table = ActionTable.for_rules(rules)
    cards = players * size + spare
    # Plays take at least one card; between two plays each other seat passes at most
    # once (lock-out, RULES §1.5), plus one pass closing a trick (§3.4) or declining
    # the first lead (§3.3).
    public = cards * (players + 1)
    return _Table(
        rules=rules,
        players=players,
        decks=decks,
        size=size,
        spare=spare,
        table=table,
        actions=table.actions_for(players),
        public_bound=public,
        redeal=redeal,
    )


def _utility_bounds(rules: BaseRules, players: int) -> tuple[float, float, bool]:
    """``(least, most, zero_sum)`` a seat can score in one game (`Scorer.bounds`)."""
    bounds = rules.scorer.bounds(rules, players)
    if bounds is None:
        shown = type(rules.scorer).__name__
        msg = f"no utility bounds for a rule set scored by {shown} (Scorer.bounds)"
        raise InvalidArgumentError(msg)
    least, most, zero_sum = bounds
    return float(least), float(most), zero_sum


# -- the game -----------------------------------------------------------------------


def _rules_of(preset: str, params: Mapping[str, Any]) -> tuple[BaseRules, int]:
    """The rule set and table size that game parameters *params* ask for."""
    unknown = set(params) - set(_DEFAULTS)
    if unknown:
        msg = f"unknown game parameters {sorted(unknown)}; known: {sorted(_DEFAULTS)}"
        raise InvalidArgumentError(msg)
    players = params.get("players", _DEFAULTS["players"])
    text = params.get("rules", "")
    if type(players) is not int:
        msg = f"players must be an int, not {players!r}"
        raise TypeError(msg)
    if not isinstance(text, str):
        msg = f"rules must be a JSON string, not {type(text).__name__}"
        raise TypeError(msg)
    if text:
        rules = rules_from_json(_decoded(text), players=players)
    else:
        rules = RULESETS[preset]
    if rules.decks == 1 and players > _ONE_DECK_PLAYERS:
        rules = two_decks(rules)
    rules.deal_size(players)  # the table size is checked here
    return rules, players


def rules_parameter(rules: BaseRules) -> str:
    """The ``rules`` game parameter for *rules*: its records JSON, base64url-encoded.

    OpenSpiel writes a game as ``name(key=value,...)``, so a value may hold no comma;
    the parameter also takes the JSON itself, and the game shows it in this form.

    Raises:
        tienlen.records.RecordError: the rule set has no JSON form (a custom policy).

    Example:
        >>> import attrs, pyspiel
        >>> from tienlen import CLASSIC
        >>> house = attrs.evolve(CLASSIC, name="house", twos_in_straights=False)
        >>> game = pyspiel.load_game("python_tienlen_classic", {"rules": rules_parameter(house)})
        >>> game.rules == house, "," in rules_parameter(house)
        (True, False)
    """
    text = json.dumps(rules_to_json(rules), separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode()).decode("ascii").rstrip("=")


def _decoded(text: str) -> object:
    """The JSON value of a ``rules`` parameter: JSON, or JSON in base64url."""
    if not text.lstrip().startswith("{"):
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            text = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            msg = "rules is neither a rule set's JSON nor that JSON in base64url"
            raise InvalidArgumentError(msg) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        msg = f"rules is not JSON: {error}"
        raise InvalidArgumentError(msg) from None


_DEFAULTS: Final[Mapping[str, int | str | bool]] = {
    "players": 4,
    "rules": "",
    "redeal_instant_wins": False,
}


def _game_type(preset: str, *, zero_sum: bool) -> pyspiel.GameType:
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"Tiến Lên ({preset})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


class TienLenGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One registered Tiến Lên game: a preset, or the rule set of its parameters.

    ``pyspiel.load_game(name, params)`` builds it; ``TienLenGame(params,
    preset=...)`` does the same without the registry.

    Raises:
        TypeError: a parameter of the wrong type.
        ValueError: an unknown parameter, rules that are not a rule set's JSON, or a
            table size the rules do not allow.

    Example:
        >>> import json
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> from tienlen.records import rules_to_json
        >>> house = attrs.evolve(CLASSIC, name="no-2s", twos_in_straights=False)
        >>> game = TienLenGame({"rules": json.dumps(rules_to_json(house))})
        >>> game.rules == house, game.get_type().short_name
        (True, 'python_tienlen_classic')
    """

    preset: ClassVar[str] = "classic"
    """The preset played when the ``rules`` parameter is empty (the registered name's)."""

    def __init__(
        self, params: Mapping[str, Any] | None = None, *, preset: str | None = None
    ) -> None:
        preset = self.preset if preset is None else preset
        if preset not in RULESETS:
            msg = f"unknown preset {preset!r}; known: {', '.join(RULESETS)}"
            raise InvalidArgumentError(msg)
        if params is not None and not isinstance(params, Mapping):
            msg = f"params must be a mapping of parameter names, not {params!r}"  # type: ignore[unreachable]
            raise TypeError(msg)
        given = dict(params or {})
        rules, players = _rules_of(preset, given)
        redeal = given.get("redeal_instant_wins", False)
        if type(redeal) is not bool:
            msg = f"redeal_instant_wins must be a bool, not {redeal!r}"
            raise TypeError(msg)
        least, most, zero_sum = _utility_bounds(rules, players)
        self._table = _table_for(rules, players, redeal)
        table = self._table
        decisions = table.public_bound * players + players
        info = pyspiel.GameInfo(
            num_distinct_actions=table.actions,
            max_chance_outcomes=max(_CARDS, players),
            num_players=players,
            min_utility=least,
            max_utility=most,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=decisions,
        )
        full = {**_DEFAULTS, **given}
        if full["rules"]:  # shown without commas, so the game's string reads back
            full["rules"] = rules_parameter(rules)
        super().__init__(_game_type(preset, zero_sum=zero_sum), info, full)

    def __reduce__(self) -> tuple[type[TienLenGame], tuple[dict[str, Any]]]:
        """Pickle as the class and the game parameters (the rules base64url-encoded)."""
        return type(self), (dict(self.get_parameters()),)

    @property
    def rules(self) -> BaseRules:
        """The rule set played (the preset, or the ``rules`` parameter's).

        Example:
            >>> pyspiel.load_game("python_tienlen_poker").rules.name
            'poker'
        """
        return self._table.rules

    @property
    def action_table(self) -> ActionTable:
        """The action table: index → class (`tienlen.rl.table.ActionTable`).

        Example:
            >>> game = pyspiel.load_game("python_tienlen_classic")
            >>> game.action_table.actions_for(4) == game.num_distinct_actions() == 616
            True
        """
        return self._table.table

    def new_initial_state(self) -> TienLenState:
        """The start of a game: the deal's first chance node."""
        return TienLenState(self, self._table)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> TienLenObserver:
        """An observer: the observation (default) or, with perfect recall, the information state.

        Example:
            >>> game = pyspiel.load_game("python_tienlen_classic")
            >>> recall = pyspiel.IIGObservationType(perfect_recall=True)
            >>> observer = game.make_py_observer(recall)
            >>> observer.tensor.shape == (game.information_state_tensor_size(),)
            True
        """
        return TienLenObserver(self._table, iig_obs_type, params)

    def make_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> pyspiel.Observer:
        """OpenSpiel's C++ observer of `make_py_observer`'s view (arguments checked first)."""
        _check_observer_arguments(iig_obs_type, params)
        return super().make_observer(iig_obs_type, params)

    def deserialize_state(self, text: str) -> TienLenState:
        """The state `TienLenState.serialize` wrote (OpenSpiel's form for Python games).

        Raises:
            TypeError: *text* is not a string.
            ValueError: *text* is not a serialised state of this game.
        """
        if not isinstance(text, str):
            msg = f"expected a serialised state (str), not {type(text).__name__}"  # type: ignore[unreachable]
            raise TypeError(msg)
        try:
            state: object = super().deserialize_state(text)
        except (pyspiel.SpielError, ValueError, TypeError, EOFError) as error:
            msg = f"not a serialised state of {self}: {error}"
            raise InvalidArgumentError(msg) from None
        if not isinstance(state, TienLenState) or state._table is not self._table:
            msg = f"not a serialised state of {self}"
            raise InvalidArgumentError(msg)
        return state

    def new_initial_state_for_population(self, population: int) -> TienLenState:
        """Refused: Tiến Lên is not a mean-field game."""
        del population
        raise _unsupported("new_initial_state_for_population", "a mean-field game")


# -- the state ----------------------------------------------------------------------


class _Offers:
    """The decider and its choices, worked out from the state when first asked.

    A clone gets an empty one (deep copy and pickle), so copying stays cheap.
    """

    __slots__ = ("groups", "seat")

    def __init__(self) -> None:
        self.seat: int | None = None
        self.groups: dict[int, list[int]] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Offers:
        return _Offers()

    def __reduce__(self) -> tuple[type[_Offers], tuple[()]]:
        return _Offers, ()


class TienLenState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A game in progress: the deal, then the library's `tienlen.GameState`.

    Example:
        >>> import pyspiel
        >>> game = pyspiel.load_game("python_tienlen_poker")
        >>> state = game.new_initial_state()
        >>> state.is_chance_node(), len(state.chance_outcomes())
        (True, 52)
        >>> state.apply_action(0)  # seat 0 is dealt 3s
        >>> state.action_to_string(pyspiel.PlayerId.CHANCE, 0), state.game_state is None
        ('deal 3s', True)
    """

    def __init__(self, game: TienLenGame, table: _Table) -> None:
        if not isinstance(game, TienLenGame) or not isinstance(table, _Table):  # type: ignore[redundant-expr]
            msg = (  # type: ignore[unreachable]
                "a state needs its TienLenGame and that game's table "
                "(game.new_initial_state() builds one)"
            )
            raise TypeError(msg)
        if game._table is not table:
            msg = "the table is not this game's (game.new_initial_state() builds one)"
            raise InvalidArgumentError(msg)
        super().__init__(game)
        self._table = table
        self._dealer: int | None = None
        self._cards: tuple[int, ...] = ()
        """The chance cards dealt so far, in deal order (card indices)."""
        self._redeals = 0
        self._game: GameState | None = None
        self._declined: tuple[int, ...] = ()
        """Seats that declined to jump in on the current play (RULES §6.4)."""
        self._offers = _Offers()

    # -- what the library sees --------------------------------------------------

    @property
    def game_state(self) -> GameState | None:
        """The library's state of the game; ``None`` while the cards are dealt.

        Example:
            >>> import pyspiel
            >>> state = pyspiel.load_game("python_tienlen_classic").new_initial_state()
            >>> for _ in range(52):
            ...     state.apply_action(state.legal_actions()[0])
            >>> [len(hand) for hand in state.game_state.hands]
            [13, 13, 13, 13]
        """
        return self._game

    def dealt(self, seat: int) -> Hand:
        """The cards *seat* has been dealt so far (all of them once play starts).

        Example:
            >>> import pyspiel
            >>> state = pyspiel.load_game("python_tienlen_classic").new_initial_state()
            >>> for _ in range(8):
            ...     state.apply_action(state.legal_actions()[-1])
            >>> str(state.dealt(0)), str(state.dealt(1))
            ('Ah 2h', 'Ad 2d')
        """
        table = self._table
        _check_seat(seat, table.players)
        game = self._game
        if game is not None:
            played = Hand.from_cards(
                card
                for action in game.history
                if type(action) is Play and action.player == seat
                for card in action.cards
            )
            return game.hand(seat) + played
        return Hand.from_cards(
            DECK[card]
            for k, card in enumerate(self._cards)
            if k % table.players == seat
        )

    # -- OpenSpiel's API --------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, `pyspiel.PlayerId.CHANCE` or ``TERMINAL``."""
        game = self._game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat, _ = self._decision()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._game is not None and self._game.is_over

    def returns(self) -> list[float]:
        """Each seat's score once the game is over (the library's), else zeros."""
        game = self._game
        if game is None or game.result is None:
            return [0.0] * self._table.players
        return [float(score) for score in game.result.scores]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dealer (two decks), then the next card: each left copy equally likely."""
        table = self._table
        if table.decks == 2 and self._dealer is None:
            return [(seat, 1 / table.players) for seat in range(table.players)]
        left = [table.decks] * _CARDS
        for card in self._cards:
            left[card] -= 1
        total = sum(left)
        return [(card, n / total) for card, n in enumerate(left) if n]

    def _legal_actions(self, player: int) -> list[int]:
        if self._game is None:
            return [card for card, _ in self.chance_outcomes()]
        seat, groups = self._decision()
        return sorted(groups) if player == seat else []

    def _apply_action(self, action: int) -> None:
        game = self._game
        if game is None:
            self._deal(action)
            return
        seat, groups = self._decision()
        choices = groups.get(action)
        if seat is None or choices is None:
            msg = f"action {action} is not legal now" + (
                " (the game is over)" if seat is None else f" for seat {seat}"
            )
            raise InvalidArgumentError(msg)
        in_turn = seat == game.to_act
        if not in_turn and action == self._table.table.PASS:
            self._declined = (*self._declined, seat)
        else:
            # The lowest suits: the member of least card value (as `Turns.step`).
            chosen = min(choices, key=card_value)
            self._game = game.apply_mask(chosen, None if in_turn else seat)
            self._declined = ()
        self._offers = _Offers()

    def _action_to_string(self, player: int, action: int) -> str:
        table = self._table
        if player == pyspiel.PlayerId.CHANCE:
            if table.decks == 2 and self._dealer is None:
                if not 0 <= action < table.players:
                    msg = f"no dealer {action} at a {table.players}-player table"
                    raise InvalidArgumentError(msg)
                return f"dealer {action}"
            if not 0 <= action < _CARDS:
                msg = f"no card {action} to deal (cards are 0 to {_CARDS - 1})"
                raise InvalidArgumentError(msg)
            return f"deal {DECK[action]}"
        _check_seat(player, table.players)
        if not 0 <= action < table.actions:
            msg = f"no action {action} (actions are 0 to {table.actions - 1})"
            raise InvalidArgumentError(msg)
        if action == table.table.PASS:
            return "pass"
        return str(table.table[action])

    def __str__(self) -> str:
        game = self._game
        if game is None:
            hands = " | ".join(
                str(self.dealt(seat)) for seat in range(self._table.players)
            )
            dealer = "" if self._dealer is None else f"dealer {self._dealer}; "
            return f"{dealer}dealing: {hands}"
        lines = [str(game)]
        if not game.is_over:
            seat, _ = self._decision()
            lines.append(f"deciding: seat {seat}" + self._declined_text())
        return "\n".join(lines)

    def _declined_text(self) -> str:
        if not self._declined:
            return ""
        return "; declined: " + " ".join(map(str, self._declined))

    # -- OpenSpiel's entry points, arguments checked before they reach C++ -----

    def _player(self, args: tuple[object, ...], *, chance: bool = False) -> int:
        """The seat of an optional player argument (the current player if none)."""
        if len(args) > 1:
            msg = f"expected at most one player, got {len(args)} arguments"
            raise TypeError(msg)
        player = _index(args[0], "player") if args else self.current_player()
        if chance and player == self.current_player():
            return player
        _check_seat(player, self._table.players)
        return player

    def apply_action(self, action: int) -> None:
        """Play *action* (an index of `legal_actions`, or a chance outcome).

        Raises:
            TypeError: *action* is not an integer.
            ValueError: *action* is not legal now; the state is unchanged.
        """
        index = _index(action, "action")
        if index < 0:
            msg = f"action {index} is not legal now"
            raise InvalidArgumentError(msg)
        super().apply_action(index)

    def apply_action_with_legality_check(self, action: int) -> None:
        """`apply_action`, *action* first checked against `legal_actions`."""
        index = _index(action, "action")
        if index not in self.legal_actions():
            msg = f"action {index} is not legal now"
            raise InvalidArgumentError(msg)
        super().apply_action(index)

    def child(self, action: int) -> TienLenState:
        """A copy of this state with *action* applied (this state is unchanged)."""
        index = _index(action, "action")
        state: TienLenState = self.clone()
        state.apply_action(index)
        return state

    def legal_actions(self, *player: int) -> list[int]:
        """The actions *player* (default: the one to move, or chance) may take now."""
        seat = self._player(player, chance=True)
        result: list[int] = super().legal_actions(seat)
        return result

    def legal_actions_mask(self, *player: int) -> list[int]:
        """`legal_actions` as 0/1 over every action index."""
        seat = self._player(player, chance=True)
        result: list[int] = super().legal_actions_mask(seat)
        return result

    def information_state_string(self, *player: int) -> str:
        """*player*'s information state as OpenSpiel's string (`information_text`)."""
        result: str = super().information_state_string(self._player(player))
        return result

    def information_state_tensor(self, *player: int) -> list[float]:
        """*player*'s information state as OpenSpiel's tensor."""
        result: list[float] = super().information_state_tensor(self._player(player))
        return result

    def observation_string(self, *player: int) -> str:
        """What *player* sees as OpenSpiel's string (`observation_text`)."""
        result: str = super().observation_string(self._player(player))
        return result

    def observation_tensor(self, *player: int) -> list[float]:
        """What *player* sees as OpenSpiel's tensor."""
        result: list[float] = super().observation_tensor(self._player(player))
        return result

    def player_return(self, player: int) -> float:
        """*player*'s score once the game is over, else 0."""
        return self.returns()[self._player((player,))]

    def player_reward(self, player: int) -> float:
        """*player*'s reward for the last action (the score, on the final one)."""
        result: float = super().player_reward(self._player((player,)))
        return result

    def string_to_action(self, *args: object) -> int:
        """The action whose `action_to_string` is the text: ``([player,] text)``."""
        if not args or len(args) > 2:  # ([player,] text)
            msg = "expected ([player,] text)"
            raise TypeError(msg)
        text = args[-1]
        if not isinstance(text, str):
            msg = f"expected the action's text (str), not {type(text).__name__}"
            raise TypeError(msg)
        player = self._player(args[:-1], chance=True)
        for action in self.legal_actions(player):
            if self.action_to_string(player, action) == text:
                return action
        msg = f"no legal action of player {player} reads {text!r}"
        raise InvalidArgumentError(msg)

    def undo_action(self, player: int, action: int) -> None:
        """Refused: states do not undo actions (`clone` one before applying instead)."""
        _index(player, "player")
        _index(action, "action")
        msg = "undo_action: Tiến Lên states do not undo actions; clone a state instead"
        raise InvalidArgumentError(msg)

    def apply_actions(self, actions: object) -> None:
        """Refused: OpenSpiel's simultaneous moves; Tiến Lên is sequential."""
        del actions
        raise _unsupported("apply_actions", "a simultaneous-move game")

    def apply_actions_with_legality_checks(self, actions: object) -> None:
        """Refused: OpenSpiel's simultaneous moves; Tiến Lên is sequential."""
        del actions
        raise _unsupported("apply_actions_with_legality_checks", "a simultaneous game")

    def distribution_support(self) -> list[str]:
        """Refused: Tiến Lên is not a mean-field game."""
        raise _unsupported("distribution_support", "a mean-field game")

    def update_distribution(self, distribution: object) -> None:
        """Refused: Tiến Lên is not a mean-field game."""
        del distribution
        raise _unsupported("update_distribution", "a mean-field game")

    def mean_field_population(self) -> int:
        """Refused: Tiến Lên is not a mean-field game."""
        raise _unsupported("mean_field_population", "a mean-field game")

    def action_to_struct(self, *args: object) -> object:
        """Refused: the game has no OpenSpiel structs (`game_state` is the library's)."""
        del args
        raise _unsupported("action_to_struct", "a game with structs")

    def actions_to_struct(self, *args: object) -> object:
        """Refused: the game has no OpenSpiel structs."""
        del args
        raise _unsupported("actions_to_struct", "a game with structs")

    def get_action_struct_sampler(self, *args: object) -> object:
        """Refused: the game has no OpenSpiel structs."""
        del args
        raise _unsupported("get_action_struct_sampler", "a game with structs")

    def to_struct(self) -> object:
        """Refused: the game has no OpenSpiel structs (`game_state` is the library's)."""
        raise _unsupported("to_struct", "a game with structs")

    def to_observation_struct(self, *args: object) -> object:
        """Refused: the game has no OpenSpiel structs."""
        del args
        raise _unsupported("to_observation_struct", "a game with structs")

    def to_dict(self) -> object:
        """Refused: the game has no OpenSpiel structs (`serialize` writes a state)."""
        raise _unsupported("to_dict", "a game with structs")

    def to_json(self) -> object:
        """Refused: the game has no OpenSpiel structs (`serialize` writes a state)."""
        raise _unsupported("to_json", "a game with structs")

    # -- the deal ---------------------------------------------------------------

    def _deal(self, action: int) -> None:
        table = self._table
        if table.decks == 2 and self._dealer is None:
            if not 0 <= action < table.players:
                msg = f"no dealer {action} at a {table.players}-player table"
                raise InvalidArgumentError(msg)
            self._dealer = action
            return
        if action not in dict(self.chance_outcomes()):
            msg = f"card {action} is not left to deal"
            raise InvalidArgumentError(msg)
        self._cards = (*self._cards, action)
        if len(self._cards) < table.dealt:
            return
        game = self._start()
        if table.redeal and game.is_over:
            self._redeals += 1
            self._cards = ()
            return
        self._game = game

    def _start(self) -> GameState:
        """The library's game from the completed deal."""
        table = self._table
        players = table.players
        hands = [
            [DECK[c] for c in self._cards[seat::players]] for seat in range(players)
        ]
        if table.spare:  # the one card left goes to the starter (RULES §4.1, D-8)
            left = set(range(_CARDS)) - set(self._cards)
            lowest = min(self._cards)
            starter = self._cards.index(lowest) % players
            hands[starter].append(DECK[left.pop()])
        return GameState.from_hands(
            hands, table.rules, first_game=True, dealer=self._dealer
        )

    # -- decisions --------------------------------------------------------------

    def _decision(self) -> tuple[int | None, dict[int, list[int]]]:
        """The deciding seat and its choices by index, as card masks.

        A polled seat's PASS (0) declines. ``(None, {})`` while the cards are dealt and once the game is over.
        """
        offers = self._offers
        if offers.groups is not None:
            return offers.seat, offers.groups
        game = self._game
        to_act = None if game is None else game.to_act
        if game is None or to_act is None:
            return None, {}
        table = self._table.table
        plays, may_pass, jump_ins = game.legal_actions().by_seat()
        own = (*plays, 0) if may_pass else plays
        seat = to_act
        groups: dict[int, list[int]] | None = None
        for other, plays in jump_ins:  # in play direction (RULES §6.4)
            if other not in self._declined:
                seat = other
                groups = table.group_masks(plays)
                groups[table.PASS] = [0]
                break
        if groups is None:
            groups = table.group_masks(own)
        offers.seat, offers.groups = seat, groups
        return seat, groups

    # -- information ------------------------------------------------------------

    def information_text(self, seat: int) -> str:
        """*seat*'s information state as text: its dealt cards and every public action.

        Example:
            >>> import pyspiel
            >>> state = pyspiel.load_game("python_tienlen_classic", {"players": 2}).new_initial_state()
            >>> for _ in range(26):
            ...     state.apply_action(state.legal_actions()[0])
            >>> print(state.information_text(0))
            seat 0 of 2; dealt 3s 3d 4s 4d 5s 5d 6s 6d 7s 7d 8s 8d 9s
            history:
            to decide
            >>> state.apply_action(state.legal_actions()[0])  # seat 0 leads 3s
            >>> print(state.information_text(1))
            seat 1 of 2; dealt 3c 3h 4c 4h 5c 5h 6c 6h 7c 7h 8c 8h 9c
            history: 0:3s
            to decide
        """
        table = self._table
        _check_seat(seat, table.players)
        lines = [f"seat {seat} of {table.players}; dealt {self.dealt(seat)}"]
        if self._dealer is not None:
            lines[0] += f"; dealer {self._dealer}"
        if self._redeals:
            lines[0] += f"; redealt {self._redeals}"
        game = self._game
        if game is not None:
            lines.append(
                "history: "
                + ", ".join(f"{action.player}:{action}" for action in game.history)
            )
            lines[-1] = lines[-1].rstrip()
            if seat in self._declined:
                lines.append("declined a jump-in")
            if not game.is_over and self.current_player() == seat:
                lines.append("to decide")
        return "\n".join(lines)

    def observation_text(self, seat: int) -> str:
        """What *seat* sees now as text: its hand, the table and the last actions.

        Example:
            >>> import pyspiel
            >>> state = pyspiel.load_game("python_tienlen_classic", {"players": 2}).new_initial_state()
            >>> for _ in range(26):
            ...     state.apply_action(state.legal_actions()[0])
            >>> print(state.observation_text(0))
            seat 0 of 2; hand 3s 3d 4s 4d 5s 5d 6s 6d 7s 7d 8s 8d 9s
            cards 13 13; top -; to act 0; passed -; out -
            recent:
            to decide
        """
        table = self._table
        _check_seat(seat, table.players)
        game = self._game
        if game is None:
            return f"seat {seat} of {table.players}; dealt {self.dealt(seat)}"
        seen = Observation.of(game, seat)
        top = "-" if seen.top is None else f"{seen.last_player}:{seen.top}"
        recent = game.history[-_HISTORY:]
        lines = [
            f"seat {seat} of {table.players}; hand {seen.hand}",
            (
                f"cards {' '.join(map(str, seen.card_counts))}; top {top}; "
                f"to act {'-' if seen.to_act is None else seen.to_act}; "
                f"passed {_seats(seen.passed)}; out {_seats(seen.out)}"
            ),
            ("recent: " + ", ".join(f"{a.player}:{a}" for a in recent)).rstrip(),
        ]
        if seat in self._declined:
            lines.append("declined a jump-in")
        if not game.is_over and self.current_player() == seat:
            lines.append("to decide")
        return "\n".join(lines)

    # -- resampling -------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | random.Random
    ) -> TienLenState:
        """A state *player_id* cannot tell from this one, its hidden cards resampled.

        The unseen cards are dealt by `tienlen.search.sampling.sample_world` (uniform
        among the deals the seat's observation allows) and the public history is
        replayed; a world in which some play was not the lowest-suit member of its
        class is drawn again, so the state returned is one this game reaches.

        Args:
            player_id: The seat whose information is kept.
            probability_sampler: OpenSpiel's sampler (a callable returning a float in
                [0, 1), which seeds the draw) or a ``random.Random``.

        Raises:
            tienlen.search.sampling.SamplingError: no consistent world in the tries
                allowed.

        Example:
            >>> import random
            >>> import pyspiel
            >>> state = pyspiel.load_game("python_tienlen_classic").new_initial_state()
            >>> while state.is_chance_node():
            ...     state.apply_action(state.legal_actions()[0])
            >>> seat = state.current_player()
            >>> world = state.resample_from_infostate(seat, random.Random(1))
            >>> world.information_state_string(seat) == state.information_state_string(seat)
            True
        """
        rng = _rng(probability_sampler)
        table = self._table
        _check_seat(player_id, table.players)
        game = self._game
        if game is None:
            return self._resample_deal(player_id, rng)
        seen = Observation.of(game, player_id)
        for _ in range(_RESAMPLE_TRIES):
            world = sample_world(seen, rng)
            if not _lowest_fills(world, table.table):
                continue  # a quick refusal; the replay below is the full check
            state = self._replay(world, player_id)
            if state is not None:
                return state
        msg = (
            f"no world consistent with seat {player_id}'s information found in "
            f"{_RESAMPLE_TRIES} tries"
        )
        raise SamplingError(msg)

    def _fresh(self) -> TienLenState:
        state: TienLenState = self.get_game().new_initial_state()
        if self._dealer is not None:
            state.apply_action(self._dealer)
        return state

    def _resample_deal(self, seat: int, rng: random.Random) -> TienLenState:
        """Mid-deal: the other seats' cards so far redrawn from the cards not *seat*'s."""
        table = self._table
        mine = [card for k, card in enumerate(self._cards) if k % table.players == seat]
        pool = [card for card in range(_CARDS) for _ in range(table.decks)]
        for card in mine:
            pool.remove(card)
        shuffle(rng, pool)
        state = self._fresh()
        own, other = iter(mine), iter(pool)
        for k in range(len(self._cards)):
            state.apply_action(next(own) if k % table.players == seat else next(other))
        return state

    def _replay(self, world: GameState, seat: int) -> TienLenState | None:
        """This game's state for *world*, or ``None`` if the game would not reach it."""
        table = self._table
        state = self._fresh()
        hands = [_dealt_in(world, s) for s in range(table.players)]
        if table.spare:  # the starter's highest card stands for the spare card
            starter = max(range(table.players), key=lambda s: len(hands[s]))
            hands[starter] = hands[starter][:-1]
        for k in range(table.dealt):
            hand = hands[k % table.players]
            state.apply_action(hand[k // table.players])
        for action in world.history:
            while state.current_player() != action.player:
                if state._game is None or not state._poll_pass():
                    return None
            index = table.table.index(action)
            if index not in state._decision()[1]:
                return None
            state.apply_action(index)
            if state._game is None or state._game.history[-1] != action:
                return None  # the class's lowest suits are not the cards played
        self._settle_poll(state, seat)
        return state

    def _poll_pass(self) -> bool:
        """Decline for the polled seat deciding now; ``False`` if no seat is polled."""
        game = self._game
        if game is None or game.is_over:
            return False
        seat, _ = self._decision()
        if seat == game.to_act:
            return False
        self.apply_action(self._table.table.PASS)
        return True

    def _settle_poll(self, state: TienLenState, seat: int) -> None:
        """Bring *state*'s questions on the current play to where *seat* knows they are."""
        if self._game is None or self._game.is_over:
            return
        if self.current_player() == seat:
            while state.current_player() != seat and state._poll_pass():
                pass
        elif seat in self._declined:
            while seat not in state._declined and state._poll_pass():
                pass


def _index(value: object, what: str) -> int:
    """*value* as an ``int`` (NumPy's integers too), or `TypeError`."""
    if isinstance(value, bool):
        msg = f"{what} must be an integer, not {value!r}"
        raise TypeError(msg)
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        msg = f"{what} must be an integer, not {type(value).__name__}"
        raise TypeError(msg) from None


def _unsupported(name: str, kind: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{name}: Tiến Lên is not {kind}")


def _check_observer_arguments(iig_obs_type: object, params: object) -> None:
    """`TypeError` unless an observer's arguments have OpenSpiel's types."""
    if iig_obs_type is not None and not isinstance(
        iig_obs_type, pyspiel.IIGObservationType
    ):
        msg = f"iig_obs_type must be a pyspiel.IIGObservationType, not {iig_obs_type!r}"
        raise TypeError(msg)
    if params is not None and not isinstance(params, Mapping):
        msg = f"params must be a mapping, not {type(params).__name__}"
        raise TypeError(msg)


def _check_seat(seat: int, players: int) -> None:
    if type(seat) is not int or not 0 <= seat < players:
        msg = f"no seat {seat!r} at a {players}-player table"
        raise InvalidArgumentError(msg)


def _rng(sampler: Callable[[], float] | random.Random) -> random.Random:
    if isinstance(sampler, random.Random):
        return sampler
    if not callable(sampler):
        msg = f"expected a probability sampler or a random.Random, got {sampler!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    value: object = sampler()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = f"the probability sampler must return a float, not {value!r}"
        raise TypeError(msg)
    number = float(value)
    if not 0.0 <= number <= 1.0:
        msg = f"the probability sampler must return a float in [0, 1], not {value!r}"
        raise InvalidArgumentError(msg)
    return random.Random(int(number * 2**53))


def _lowest_fills(world: GameState, table: ActionTable) -> bool:
    """Whether every play of *world* is its class filled with the player's lowest suits.

    `ActionTable.fill` is always legal, so it is the member of least card value among
    the plays offered: the one this game plays for the class.
    """
    hands = [
        Hand.from_cards(DECK[c] for c in _dealt_in(world, s))
        for s in range(world.players)
    ]
    for action in world.history:
        if type(action) is Play:
            seat = action.player
            if table.fill(table.index(action), hands[seat], seat) != action:
                return False
            hands[seat] -= action.cards
    return True


def _dealt_in(world: GameState, seat: int) -> list[int]:
    """*seat*'s dealt cards in *world*, as card indices, lowest first."""
    cards = list(world.hand(seat))
    for action in world.history:
        if type(action) is Play and action.player == seat:
            cards.extend(action.cards)
    return sorted(card.index for card in cards)


def _seats(seats: frozenset[int]) -> str:
    return " ".join(map(str, sorted(seats))) or "-"


# -- observers ----------------------------------------------------------------------


class TienLenObserver:
    """OpenSpiel's Python observer: the observation, or the information state.

    ``tensor`` is the flat float32 vector and ``dict`` its fields by name (views),
    as `tienlen.rl.observation.ObservationLayout` lays them out; the information
    state (``perfect_recall``) holds the whole public history and one more field,
    ``declined``. Only one seat's private information is supported
    (``pyspiel.PrivateInfoType.SINGLE_PLAYER``, OpenSpiel's default).

    Example:
        >>> import pyspiel
        >>> from open_spiel.python.observation import make_observation
        >>> game = pyspiel.load_game("python_tienlen_classic")
        >>> seen = make_observation(game)
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.legal_actions()[0])
        >>> seen.set_from(state, player=0)
        >>> int(seen.dict["hand"].sum()), seen.tensor.shape
        (13, (874,))
    """

    def __init__(
        self,
        table: _Table,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(table, _Table):
            msg = (  # type: ignore[unreachable]
                "an observer needs a game's table: "
                "game.make_py_observer() or open_spiel's make_observation(game)"
            )
            raise TypeError(msg)
        _check_observer_arguments(iig_obs_type, params)
        if params:
            msg = f"observation parameters are not supported, got {dict(params)}"
            raise InvalidArgumentError(msg)
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            msg = (
                "only one seat's own view is supported "
                "(public_info=True, private_info=SINGLE_PLAYER)"
            )
            raise InvalidArgumentError(msg)
        self._table = table
        self._recall = bool(iig_obs_type.perfect_recall)
        history = table.public_bound if self._recall else _HISTORY
        self._encoder = ObservationEncoder(table.rules, table.players, history)
        layout = self._encoder.layout
        extra = 1 if self._recall else 0
        self.tensor: npt.NDArray[np.float32] = np.zeros(layout.size + extra, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            name: self.tensor[part] for name, part in layout.slices.items()
        }
        if self._recall:
            self.dict["declined"] = self.tensor[layout.size :]

    def set_from(self, state: TienLenState, player: int) -> None:
        """Write *player*'s view of *state* into `tensor`.

        Example:
            >>> game = pyspiel.load_game("python_tienlen_classic")
            >>> observer = game.make_py_observer()
            >>> state = game.new_initial_state()
            >>> state.apply_action(state.legal_actions()[0])  # the first card dealt
            >>> observer.set_from(state, 0)
            >>> int(observer.dict["hand"].sum())  # seat 0 holds the card dealt to it
            1
        """
        self._check_state(state)
        _check_seat(player, self._table.players)
        tensor = self.tensor
        tensor.fill(0.0)
        game = state.game_state
        layout = self._encoder.layout
        if game is None:  # the deal: only the seat's own cards so far
            hand = self.dict["hand"]
            for card in state.dealt(player):
                hand[card.index] += 1
            return
        if len(game.history) > layout.history and self._recall:
            msg = (  # the bound of `_table_for` is proven; this guards perfect recall
                f"{len(game.history)} public actions exceed the information state's "
                f"{layout.history}"
            )
            raise InvalidStateError(msg)
        self._encoder.reset(game)
        tensor[: layout.size] = self._encoder.encode(game, player)
        if self._recall:
            self.dict["declined"][0] = player in state._declined

    def string_from(self, state: TienLenState, player: int) -> str:
        """*player*'s view of *state* as text.

        Example:
            >>> game = pyspiel.load_game("python_tienlen_classic")
            >>> text = game.make_py_observer().string_from(game.new_initial_state(), 0)
            >>> isinstance(text, str)
            True
        """
        self._check_state(state)
        if self._recall:
            return state.information_text(player)
        return state.observation_text(player)

    def _check_state(self, state: object) -> None:
        if not isinstance(state, TienLenState):
            msg = f"expected a TienLenState, not {type(state).__name__}"
            raise TypeError(msg)
        if state._table is not self._table:
            msg = "the state is of another game than the observer's"
            raise InvalidArgumentError(msg)


# -- registration -------------------------------------------------------------------


def _class_name(preset: str) -> str:
    """The game class's name for *preset*: ``justus-pang`` → ``JustusPangGame``."""
    words = "".join(c if c.isalnum() else " " for c in preset).split()
    name = "".join(word[:1].upper() + word[1:] for word in words) + "Game"
    return name if name.isidentifier() else f"Preset{name}"


def game_class(preset: str) -> type[TienLenGame]:
    """The `TienLenGame` subclass that plays *preset* (a name in `tienlen.RULESETS`).

    Made on the first call and kept as an attribute of this module, so its games
    pickle by name: ``justus-pang`` is `JustusPangGame`.

    Raises:
        ValueError: no listed preset is called *preset*.

    Example:
        >>> game_class("justus-pang") is JustusPangGame
        True
    """
    made = _CLASSES.get(preset)
    if made is not None:
        return made
    if preset not in RULESETS:
        msg = f"unknown preset {preset!r}; known: {', '.join(RULESETS)}"
        raise InvalidArgumentError(msg)
    name = _class_name(preset)
    while name in globals():  # never shadow a name of this module (``tien-len``)
        name = f"Preset{name}"
    doc = f"""``{game_name(preset)}``: the preset ``{preset}`` unless the ``rules`` parameter says otherwise.

    Example:
        >>> from tienlen.rl.openspiel import {name}
        >>> {name}().rules.name, {name}().get_type().short_name
        ('{preset}', '{game_name(preset)}')
    """
    made = type(name, (TienLenGame,), {"preset": preset, "__doc__": doc})
    made.__module__ = __name__
    made.__qualname__ = name
    globals()[name] = made
    _CLASSES[preset] = made
    return made


_CLASSES: Final[dict[str, type[TienLenGame]]] = {}


def register_games() -> None:
    """Register one OpenSpiel game per listed preset (`tienlen.RULESETS`).

    Importing this module registers the presets known then; a preset registered
    later (``tienlen.rules.registry``) gets its game from a call to this. Registering
    again changes nothing. Each game's creator is a module-level class: a class
    outlives the interpreter's shutdown, while a plain callable freed then crashes it,
    and a class lets a game pickle.

    Example:
        >>> register_games()
        >>> "python_tienlen_poker" in pyspiel.registered_names()
        True
    """
    registered = set(pyspiel.registered_names())
    for preset, rules in RULESETS.items():
        name = game_name(preset)
        creator = game_class(preset)
        if name not in registered:
            bounds = rules.scorer.bounds(rules, rules.min_players)
            zero_sum = bounds is not None and bounds[2]
            pyspiel.register_game(_game_type(preset, zero_sum=zero_sum), creator)


register_games()

ClassicGame: Final = game_class("classic")
JustusPangGame: Final = game_class("justus-pang")
KennethLoGame: Final = game_class("kenneth-lo")
VietcongGame: Final = game_class("vietcong")
PokerGame: Final = game_class("poker")
