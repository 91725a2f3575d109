"""Matches: a series of games under one rule set, with running totals (RULES §1.5, §2.1).

A `Match` deals each game from its own seed, so a whole match is reproducible from
`Match.seed` alone. Between games it carries what the rules carry over: the loser of a
game deals the next (RULES §2.1), and the previous winner leads, unless the variant fixes
the lead by 3♠ (RULES §2.4, §5.3, §6.5, D-16).

Example:
    >>> from tienlen import POKER, Match
    >>> match = Match.start(POKER, players=4, seed=7)
    >>> match = match.play_games(3, lambda state, actions: actions[0])
    >>> match.game_count, sum(match.totals) == sum(sum(g.scores) for g in match.games)
    (3, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from tienlen._checks import check_count
from tienlen.errors import IllegalPlayError, InvalidArgumentError, InvalidStateError
from tienlen.game import Action, Actions, GameState
from tienlen.rules import RuleSet
from tienlen.scoring import GameResult

if TYPE_CHECKING:
    from tienlen.players import Player

__all__ = ["Match", "play_match"]

Chooser = Callable[[GameState, Actions], Action]
"""A player policy: given a state and its legal actions, the action to take."""

_SEED_BITS = 64


def _results(values: Iterable[GameResult]) -> tuple[GameResult, ...]:
    return tuple(values)


def _check_players(match: Match, _: object, players: int) -> None:
    match.rules.deal_size(players)  # raises InvalidRulesError for a wrong count


def _check_first_dealer(match: Match, _: object, dealer: int) -> None:
    if not 0 <= dealer < match.players:
        msg = f"first dealer {dealer!r} is not a player (0-{match.players - 1})"
        raise InvalidStateError(msg)


def _check_games(match: Match, _: object, games: tuple[GameResult, ...]) -> None:
    for number, result in enumerate(games, 1):
        if len(result.scores) != match.players:
            msg = f"game {number} has {len(result.scores)} players, the match {match.players}"
            raise InvalidStateError(msg)


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


@attrs.frozen(kw_only=True)
class Match:
    """A series of games under one rule set: immutable, reproducible from its `seed`.

    Build one with `Match.start`. `deal` gives the next game's first state; play it with
    `GameState.apply` and add it with `record` (or let `play` do both with a policy).
    Every method returns a new match and leaves this one unchanged.

    Between games (RULES §2.1, §2.4, §4.1, §5.3, §6.5):

    - the loser of a game (`GameResult.loser`) deals the next; the first dealer is
      drawn from the seed;
    - the previous winner (`GameResult.winner`: the first player out, or Poker's first
      place) leads the next game with any combination, except when the rules fix the
      lead by 3♠: Vietcong in every game, Poker after a game ended by an instant win
      (D-16), and every variant in the first game;
    - under Kenneth Lo with three players, the spare 52nd card goes to that leader
      (RULES §4.1, D-8).

    Example:
        >>> from tienlen import CLASSIC
        >>> match = Match.start(CLASSIC, players=4, seed=1)
        >>> match.next_dealer, match.next_leader  # 3♠ leads the first game
        (3, None)
        >>> match = match.play(lambda state, actions: actions[0])
        >>> match.games[0].finish_order, match.totals
        ((2, 3, 0, 1), (1, -3, 1, 1))
        >>> match.next_dealer, match.next_leader  # the loser deals, the winner leads
        (1, 2)

    .. versionadded:: 0.1
    """

    rules: RuleSet
    """The variant every game of the match is played under."""
    players: int = attrs.field(validator=_check_players)
    """How many players sit at the table."""
    seed: int
    """The seed every game is dealt from, with the game's index; the match's identity."""
    first_dealer: int = attrs.field(validator=_check_first_dealer)
    """Who deals the first game; by default drawn from `seed` (RULES §2.1)."""
    games: tuple[GameResult, ...] = attrs.field(
        default=(), converter=_results, validator=_check_games
    )
    """The results of the games played so far, first game first."""

    @first_dealer.default
    def _first_dealer_from_seed(self) -> int:
        seats = max(self.players, 1)  # a bad count is reported by its validator
        return random.Random(f"tienlen-match:{self.seed}:dealer").randrange(seats)

    # -- construction -------------------------------------------------------------

    @classmethod
    def start(cls, rules: RuleSet, players: int = 4, seed: int | None = None) -> Match:
        """A new match with no games played yet.

        Args:
            rules: The variant.
            players: How many players.
            seed: The match's seed; ``None`` draws one from ``random.SystemRandom`` and
                stores it, so the match can be replayed from `seed` afterwards.

        Raises:
            InvalidRulesError: the rules do not allow that many players.

        Example:
            >>> from tienlen import POKER
            >>> Match.start(POKER, players=3, seed=42).seed
            42
            >>> isinstance(Match.start(POKER).seed, int)
            True
        """
        if seed is None:
            seed = random.SystemRandom().getrandbits(_SEED_BITS)
        return cls(rules=rules, players=players, seed=seed)

    # -- queries ------------------------------------------------------------------

    @property
    def game_count(self) -> int:
        """How many games have been recorded.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, RandomPlayer, play_game
            >>> match = Match.start(CLASSIC, seed=7)
            >>> final = play_game(match.deal(), [RandomPlayer()] * 4, random.Random(1))
            >>> match.game_count, match.record(final).game_count
            (0, 1)
        """
        return len(self.games)

    @property
    def totals(self) -> tuple[int, ...]:
        """Every player's cumulative score over the games recorded, by player index.

        Example:
            >>> from tienlen import KENNETH_LO
            >>> Match.start(KENNETH_LO, players=3, seed=5).totals
            (0, 0, 0)
        """
        totals = [0] * self.players
        for result in self.games:
            for player, points in enumerate(result.scores):
                totals[player] += points
        return tuple(totals)

    @property
    def next_dealer(self) -> int:
        """Who deals the next game, the loser of the last game or else the first dealer.

        RULES §2.1. After an instant win the loser is the last player of
        `GameResult.finish_order`, the one just before the winner in play order.

        Example:
            >>> import random
            >>> from tienlen import CLASSIC, RandomPlayer, play_game
            >>> match = Match.start(CLASSIC, seed=7)
            >>> match.next_dealer == match.first_dealer
            True
            >>> final = play_game(match.deal(), [RandomPlayer()] * 4, random.Random(1))
            >>> match.record(final).next_dealer == final.result.loser
            True
        """
        return self.games[-1].loser if self.games else self.first_dealer

    @property
    def next_leader(self) -> int | None:
        """Who leads the next game, or ``None`` when the holder of 3♠ leads with it.

        The previous winner (RULES §2.4, §4.1, §6.5); ``None`` in the first game, in
        every Vietcong game (RULES §5.3) and in a Poker game after an instant win
        (D-16), when the holder of 3♠ (or of the lowest dealt card, D-4) must lead it.

        Example:
            >>> from tienlen import VIETCONG
            >>> Match.start(VIETCONG, seed=3).play(lambda s, a: a[0]).next_leader is None
            True
        """
        if self._fixed_lead:
            return None
        return self.games[-1].winner

    @property
    def _after_instant_win(self) -> bool:
        return bool(self.games) and self.games[-1].instant_win is not None

    @property
    def _fixed_lead(self) -> bool:
        return self.rules.lead_must_include(
            first_game=not self.games, after_instant_win=self._after_instant_win
        )

    # -- playing ------------------------------------------------------------------

    def deal(self) -> GameState:
        """The first state of the next game.

        The deal depends only on `seed` and the game's index, never on how earlier
        games were played; the dealer and the leader follow the rules (see `Match`).

        Example:
            >>> from tienlen import POKER
            >>> match = Match.start(POKER, seed=11)
            >>> match.deal() == match.deal()
            True
            >>> [len(hand) for hand in match.deal().hands]
            [13, 13, 13, 13]
        """
        rng = random.Random(f"tienlen-match:{self.seed}:{self.game_count}")
        return GameState.deal(
            self.rules,
            self.players,
            rng,
            first_game=not self.games,
            leader=self.next_leader,
            after_instant_win=self._after_instant_win,
            dealer=self.next_dealer,
        )

    def record(self, state: GameState) -> Match:
        """This match with the finished game *state* added.

        *state* must be the next game: played under the match's rules from the state
        `deal` gives, to the end. Its hands, its setup (leader, dealer, first-lead
        obligation) and its history, replayed from that deal, are checked.

        Raises:
            InvalidStateError: *state* has other rules or another number of players,
                is not over, was not dealt or set up by this match, or its history
                does not lead to it from that deal. This match is unchanged.

        Example:
            >>> from tienlen import CLASSIC
            >>> match = Match.start(CLASSIC, seed=4)
            >>> state = match.deal()
            >>> match.record(state)
            Traceback (most recent call last):
            ...
            tienlen.errors.InvalidStateError: game 1 is not over: player 2 is to act
            >>> while not state.is_over:
            ...     state = state.apply(state.legal_actions()[0])
            >>> match.record(state).game_count
            1
        """
        number = self.game_count + 1
        if state.rules != self.rules:
            shown = (
                f"other settings of {self.rules.name!r}"
                if state.rules.name == self.rules.name
                else f"{state.rules.name!r}"
            )
            msg = f"game {number} was played under {shown}, the match under {self.rules.name!r}"
            raise InvalidStateError(msg)
        if state.players != self.players:
            msg = f"game {number} has {state.players} players, the match {self.players}"
            raise InvalidStateError(msg)
        if state.result is None:
            msg = f"game {number} is not over: player {state.to_act} is to act"
            raise InvalidStateError(msg)
        dealt = self.deal()
        if state.dealt != dealt.dealt:
            msg = f"game {number} was not dealt by this match: its hands differ from match.deal() (seed {self.seed})"
            raise InvalidStateError(msg)
        if state.setup != dealt.setup:
            msg = f"game {number} was not set up as this match deals it: {state.setup!r} instead of {dealt.setup!r}"
            raise InvalidStateError(msg)
        replayed = dealt
        for step, action in enumerate(state.history, 1):
            try:
                replayed = replayed.apply(action)
            except IllegalPlayError as error:
                msg = f"game {number} does not follow from this match's deal: action {step} is illegal ({error})"
                raise InvalidStateError(msg) from None
        if replayed != state:
            msg = f"game {number} does not follow from this match's deal: its history leads to another state"
            raise InvalidStateError(msg)
        return attrs.evolve(self, games=(*self.games, state.result))

    def play(self, choose: Chooser) -> Match:
        """This match with one more game, played to the end by *choose*.

        Args:
            choose: Called as ``choose(state, state.legal_actions())`` until the game
                is over; returns the action to apply (any player's, for a Poker
                jump-in).

        Raises:
            IllegalPlayError: *choose* returned an illegal action. This match is
                unchanged.

        Example:
            >>> from tienlen import POKER
            >>> match = Match.start(POKER, seed=8).play(lambda state, actions: actions[0])
            >>> match.games[0].finish_order
            (0, 2, 1, 3)
        """
        state = self.deal()
        while state.result is None:
            state = state.apply(choose(state, state.legal_actions()))
        return attrs.evolve(self, games=(*self.games, state.result))

    def play_games(self, count: int, choose: Chooser) -> Match:
        """This match with *count* more games, each played to the end by *choose* (see `play`).

        Example:
            >>> from tienlen import KENNETH_LO
            >>> Match.start(KENNETH_LO, players=3, seed=2).play_games(5, lambda s, a: a[0]).game_count
            5
        """
        match = self
        for _ in range(count):
            match = match.play(choose)
        return match

    # -- text ---------------------------------------------------------------------

    def table(self) -> str:
        """The score table: one row per game, then the totals.

        Each row shows the game's number, every player's score change, the finishing
        order (first out first) and, when it applies, the instant win or the frozen
        players (RULES §6.6.3, §6.7).

        Example:
            >>> from tienlen import CLASSIC
            >>> match = Match.start(CLASSIC, players=3, seed=1)
            >>> print(match.play_games(2, lambda state, actions: actions[0]).table())
            classic, 3 players, seed 1
            game      p0    p1    p2  order
               1      -2    +1    +1  2 1 0
               2      +1    +1    -2  1 0 2
            total     -1    +2    -1
        """
        players = range(self.players)
        lines = [f"{self.rules.name}, {self.players} players, seed {self.seed}"]
        lines.append("game  " + "".join(f"{f'p{p}':>6}" for p in players) + "  order")
        for number, result in enumerate(self.games, 1):
            scores = "".join(f"{_signed(points):>6}" for points in result.scores)
            notes = " ".join(map(str, result.finish_order))
            if result.instant_win is not None:
                notes += f"  instant win: {result.instant_win.value}"
            if result.frozen:
                notes += f"  frozen: {' '.join(map(str, result.frozen))}"
            lines.append(f"{number:>4}  {scores}  {notes}")
        totals = "".join(f"{_signed(points):>6}" for points in self.totals)
        lines.append(f"total {totals}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def play_match(
    match: Match,
    players: Sequence[Player],
    rng: random.Random,
    *,
    games: int = 1,
    time_limit: float | None = None,
) -> Match:
    """*match* with *games* more games, each dealt by `Match.deal` and played by *players*.

    The adapter between a `Match` and `tienlen.Player` bots: each game is
    played by `tienlen.play_game` (so under Poker every other seat is asked whether to
    jump in, RULES §6.4, and each `Player` only ever sees its own cards and actions),
    then added with `Match.record`.

    Args:
        match: The match to continue.
        players: One `tienlen.Player` per seat, by player index.
        rng: Passed to every `Player.act`: the games' only randomness.
        games: How many games to play (at least 0).
        time_limit: The most seconds one `Player.act` call may take (see
            `tienlen.play_game`).

    Raises:
        InvalidArgumentError: *games* is negative, or *players* does not have one
            player per seat.
        TypeError: *match* is not a `Match`, or *games* is not an ``int``.
        PlayerError: a player failed (see `tienlen.play_game`).

    Example:
        >>> import random
        >>> from tienlen import POKER, GreedyPlayer, Match, RandomPlayer, play_match
        >>> bots = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(), RandomPlayer()]
        >>> match = play_match(Match.start(POKER, seed=3), bots, random.Random(3), games=2)
        >>> match.game_count, len(match.games[1].finish_order)
        (2, 4)
    """
    from tienlen.players import play_game  # noqa: PLC0415 (players imports game too)

    if not isinstance(match, Match):
        msg = f"expected a Match, got {type(match).__name__}"  # type: ignore[unreachable]
        raise TypeError(msg)
    check_count("games", games, 0)
    if len(players) != match.players:
        msg = f"the match seats {match.players} players, {len(players)} were given"
        raise InvalidArgumentError(msg)
    for _ in range(games):
        final = play_game(match.deal(), players, rng, time_limit=time_limit)
        match = match.record(final)
    return match
