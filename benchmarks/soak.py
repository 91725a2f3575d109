"""Soak: many games of every preset and a few house-rule tables, with an invariant checker.

Run from the repository root, for a number of seconds (default 60)::

    .venv/bin/python benchmarks/soak.py 600              # ten minutes
    .venv/bin/python benchmarks/soak.py 20                # CI: stop at the first finding
    .venv/bin/python benchmarks/soak.py 600 --keep-going # report every kind of finding

The tables are the five presets at every table size they seat, their two-deck tables
(five to eight players) and the house-rule tables of `HOUSE_TABLES`. Each game is
played through one of the public ways to act, in turn (`WAYS`): the reference bots
through ``play_game``'s loop, ``GameState.apply`` with a listed action, with an action
built afresh from its text, ``GameState.play`` and ``pass_turn``, ``parse_action`` on
the action's text, and ``apply`` on a state read back from its own notation at every
step. Every way must reach the state that applying the listed action reaches.

Before every action the checker asserts that no card was lost or duplicated (RULES
§1.1), that the action was one of the legal actions (RULES §1.5), that the legal list
and `GameState.is_legal` agree on sampled actions (singles and random sets of the
cards of the player to act, passes and other seats' cards), that a forged action is
refused by `check`, `is_legal`, `apply` and membership alike and changes nothing, and,
at sampled positions, that the notation round-trips with the same legal actions. Every
game must end within a bound; its scores must be its items', every payment zero-sum
and, in the stake variants, the scores too (RULES §2.5, §6.6); its record, its
notation and its pickle must round-trip, and replaying the record must reach its final
state.

Prints one line of figures for docs/reliability.md and benchmarks/README.md; exits 1
when an invariant broke, with the table, the way and the seed to replay it.
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import attrs

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    GameState,
    GreedyPlayer,
    IllegalPlayError,
    Pass,
    Play,
    Player,
    RandomPlayer,
)
from tienlen import records as records_module
from tienlen.engine.referee import play_out
from tienlen.policies import LeaderAfterGoingOut
from tienlen.rules import Scoring, two_decks

MAX_ACTIONS = 5_000
"""No game may last longer (termination)."""
NOTATION_EVERY = 7
"""Outside the notation way, every 7th position's notation is read back and compared."""
SAMPLED_SINGLES = 4
"""Singles of the acting player checked against the legal list per action."""
SAMPLED_SETS = 4
"""Random sets of the acting player's cards checked against the legal list per action."""

HOUSE_TABLES: tuple[BaseRules, ...] = (
    attrs.evolve(
        CLASSIC,
        name="classic-house",
        pass_locks_out=False,
        leader_after_going_out=LeaderAfterGoingOut.AFTER_LAST_TO_ACT,
    ),
    attrs.evolve(
        JUSTUS_PANG,
        name="justus-pang-house",
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
    ),
    attrs.evolve(
        VIETCONG,
        name="vietcong-no-going-out",
        no_going_out_with_two=True,
        no_going_out_with_bomb=True,
    ),
    attrs.evolve(
        POKER,
        name="poker-house",
        chop_chain=False,
        frozen_multiplier=3,
        end_penalty_with_frozen=True,
        catch_with_last_cards_scores=True,
        no_going_out_with_two=True,
    ),
    attrs.evolve(
        KENNETH_LO,
        name="kenneth-lo-house",
        pass_locks_out=False,
        no_going_out_with_bomb=True,
    ),
)
"""House rules of RULES §12 on each preset (game flow, going out, Poker scoring)."""

TABLES: tuple[BaseRules, ...] = (
    *RULESETS.values(),
    CLASSIC_TWO_DECKS,
    two_decks(JUSTUS_PANG),
    two_decks(KENNETH_LO),
    *HOUSE_TABLES,
)
"""Every table soaked: presets, their two-deck tables and the house-rule tables."""

Action = Play | Pass


class SoakError(AssertionError):
    """An invariant broke."""


def _refuses_the_same(state: GameState, forged: Action) -> None:
    """*forged*, not legal, is refused by every way and changes nothing."""
    before = repr(state)
    try:
        state.apply(forged)
    except IllegalPlayError:
        pass
    else:
        raise SoakError(f"{forged!r} was applied")
    if state.is_legal(forged) or repr(state) != before:
        raise SoakError(f"the refusal of {forged!r} disagreed or changed the state")


def _samples(state: GameState, rng: random.Random) -> Iterator[Action]:
    """Actions to ask both the legal list and `is_legal` about.

    Singles and random sets of the cards of the player to act, the passes of two
    seats and a set of another seat's cards.
    """
    player = state.to_act
    if player is None:
        return
    hand = list(state.hand(player))
    for card in rng.sample(hand, min(SAMPLED_SINGLES, len(hand))):
        yield Play(player=player, cards=[card])
    for _ in range(SAMPLED_SETS):
        yield Play(player=player, cards=rng.sample(hand, rng.randint(1, len(hand))))
    other = (player + 1) % state.players
    yield Pass(player=player)
    yield Pass(player=other)
    held = list(state.hand(other))
    if held:  # a jump-in out of turn, or a play out of turn
        yield Play(player=other, cards=rng.sample(held, rng.randint(1, len(held))))


class Checker:
    """Checks every action of a game as it is applied (a `tienlen.engine.referee.Tally`)."""

    def __init__(self, rng: random.Random) -> None:
        self.actions = 0
        self.rng = rng

    def count(self, state: GameState, action: Action, mask: int = 0) -> None:
        """Check *state* and *action* (its cards *mask*) before the engine applies it."""
        del mask
        self.actions += 1
        if self.actions > MAX_ACTIONS:
            raise SoakError("the game does not end")
        dealt = sum(len(hand) for hand in state.dealt)
        held = sum(len(hand) for hand in state.hands)
        played = 0
        for start, hand in zip(state.dealt, state.hands, strict=True):
            played += len(start - hand)
            if hand.mask & ~start.mask:
                raise SoakError("a player holds a card not dealt to them")
        if held + played != dealt:
            raise SoakError("cards were lost or created")
        legal = state.legal_actions()
        if action not in legal:
            raise SoakError(f"{action!r} is not a legal action")
        refused = None
        for sample in _samples(state, self.rng):
            listed = sample in legal
            if state.is_legal(sample) != listed:
                raise SoakError(
                    f"{sample!r}: is_legal says {not listed}, the legal list {listed}"
                    f" at {state.notation()!r}"
                )
            if not listed:
                refused = sample
        if refused is not None:  # the last refused sample: refused by every way
            _refuses_the_same(state, refused)
        if self.actions % NOTATION_EVERY == 0:
            _same_notation(state)


def _same_notation(state: GameState) -> GameState:
    """*state* read back from its notation: equal, with the same legal actions."""
    copy = GameState.from_notation(state.notation())
    if copy != state or copy.notation() != state.notation():
        raise SoakError(f"the notation does not round-trip: {state.notation()!r}")
    if list(copy.legal_actions()) != list(state.legal_actions()):
        raise SoakError(f"the notation changes the legal actions: {state.notation()!r}")
    return copy


def _text(action: Action) -> str:
    """*action* as `GameState.parse_action` reads it, with its seat."""
    shown = "pass" if isinstance(action, Pass) else str(action.cards)
    return f"{action.player}: {shown}"


def _rebuilt(state: GameState, action: Action) -> GameState:
    """Apply *action* built afresh (not the listed object)."""
    if isinstance(action, Pass):
        return state.apply(Pass(player=action.player))
    return state.apply(Play(player=action.player, cards=str(action.cards)))


def _methods(state: GameState, action: Action) -> GameState:
    """Apply *action* through `GameState.play` and `GameState.pass_turn`."""
    if isinstance(action, Pass):
        return state.pass_turn(action.player)
    return state.play(action.cards, player=action.player)


def _parsed(state: GameState, action: Action) -> GameState:
    """Apply *action* read from its text by `GameState.parse_action`."""
    return state.apply(state.parse_action(_text(action)))


def _from_notation(state: GameState, action: Action) -> GameState:
    """Apply *action* on *state* read back from its notation."""
    return _same_notation(state).apply(action)


Way = Callable[[GameState, Action], GameState]
WAYS: dict[str, Way | None] = {
    "bots": None,  # play_game's loop, with the reference bots
    "apply": GameState.apply,
    "rebuilt": _rebuilt,
    "methods": _methods,
    "parse_action": _parsed,
    "notation": _from_notation,
}
"""The public ways to act; each must reach what applying the listed action reaches."""


def _play_by_way(start: GameState, way: Way, rng: random.Random) -> GameState:
    """Play *start* out with random listed actions, each applied through *way*."""
    checker = Checker(rng)
    state = start
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        assert isinstance(action, Play | Pass)
        checker.count(state, action)
        after = way(state, action)
        expected = state.apply(action)
        if after != expected:
            raise SoakError(f"acting differs from applying {action!r}")
        state = after
    return state


def soak_game(
    rules: BaseRules, players: list[Player], seed: int, way: str
) -> tuple[GameState, int]:
    """Play and check one game through *way*; its final state and number of actions."""
    rng = random.Random(seed)
    start = GameState.deal(rules, len(players), rng)
    acting = WAYS[way]
    if acting is None:
        checker = Checker(random.Random(~seed))
        final = play_out(start, players, rng, checker)
        actions = checker.actions
    else:
        final = _play_by_way(start, acting, rng)
        actions = len(final.history)
    _check_end(rules, final, seed)
    return final, actions


def _check_end(rules: BaseRules, final: GameState, seed: int) -> None:
    """The result, the record, the notation and the pickle of a finished game."""
    result = final.result
    if result is None:
        raise SoakError("the game ended without a result")
    expected = [0] * final.players
    for item in result.items:  # a payment moves points from its payer: zero-sum
        expected[item.player] += item.points
        if item.payer is not None:
            expected[item.payer] -= item.points
    if tuple(expected) != result.scores:
        raise SoakError(f"scores {result.scores} are not the items' {expected}")
    if rules.scoring is not Scoring.POKER_POINTS and sum(result.scores) != 0:
        raise SoakError(f"stakes {result.scores} are not zero-sum")
    record = records_module.record(final, seed=seed)
    loaded = records_module.loads(records_module.dumps(record))
    if loaded != record:
        raise SoakError("the record does not round-trip")
    if loaded.final != final or loaded.final.result != result:
        raise SoakError("replaying the record does not reach the final state")
    _same_notation(final)
    copy = pickle.loads(pickle.dumps(final))  # noqa: S301 - our own bytes
    if copy != final or copy.history != final.history or copy.result != result:
        raise SoakError("the final state does not pickle")


def _commit() -> str:
    """The short hash of the checked-out commit (empty outside git)."""
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607 - the developer's git
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()


def _tables() -> Iterator[tuple[BaseRules, int]]:
    """Every table of `TABLES` at every size it seats."""
    for rules in TABLES:
        for size in range(rules.min_players, rules.max_players + 1):
            yield rules, size


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=60.0)
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="report the first finding of each table and way, and go on",
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Soak for the seconds in *argv* (60 by default); 0 when nothing was found."""
    options = _arguments(argv)
    commit = _commit()  # the code soaked, read before it may change
    started = time.monotonic()
    deadline = started + options.seconds
    games = actions = broken = 0
    found: set[tuple[str, str]] = set()
    bots: list[Player] = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(danger=4)]
    tables = list(_tables())
    ways = list(WAYS)
    for seed in itertools.count():
        if time.monotonic() >= deadline:
            break
        rules, size = tables[seed % len(tables)]
        way = ways[(seed + seed // len(tables)) % len(ways)]  # every way at every table
        players = [bots[(seed + i) % len(bots)] for i in range(size)]
        try:
            _, count = soak_game(rules, players, seed, way)
        except SoakError as error:
            broken += 1
            line = f"FOUND ({rules.name}, {size} players, {way}, seed {seed}): {error}"
            if not options.keep_going:
                print(line)
                return 1
            if (rules.name, way) not in found:
                found.add((rules.name, way))
                print(line, flush=True)
            continue
        games += 1
        actions += count
    elapsed = time.monotonic() - started
    today = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    verdict = f"{broken:,} games broke an invariant" if broken else "nothing"
    print(
        f"| {today} | {commit} | {elapsed:,.0f} s | {len(tables)} | {games:,} |"
        f" {actions:,} | {actions / elapsed:,.0f} | {verdict} |"
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
