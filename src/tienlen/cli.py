"""The ``tienlen`` command line (also ``python -m tienlen``).

Commands: ``classify``, ``beats``, ``plays`` (the rule questions), ``play`` (an
interactive game against bots), ``demo`` (a game among bots, trick by trick) and
``simulate`` (many games, a results table). ``--json`` gives machine-readable output
on the non-interactive commands. Exit codes: 0 for a positive answer, 1 for a
negative one (not a combination, does not beat, no legal play), 2 for bad input, with
the error on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Final

from tienlen.cards import parse_cards
from tienlen.combos import Combo, ComboKind
from tienlen.errors import TienLenError
from tienlen.explain import explain_beats, why_not_combination
from tienlen.game import GameState, Pass, Play
from tienlen.players import GreedyPlayer, Observation, Player, RandomPlayer, play_game
from tienlen.rules import RULESETS, as_combo, beats, get_rules, legal_plays
from tienlen.rules._base import as_hand
from tienlen.simulation import MapExecutor, SimulationStats, simulate

__all__ = ["main"]

_PLAYERS: Final[dict[str, Callable[[], Player]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


class _ExitRequestError(Exception):
    """Leave the program with an exit code (raised by commands, caught by `main`)."""

    def __init__(self, code: int) -> None:
        self.code = code


def _print_json(data: object, out: IO[str]) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False), file=out)


def _finite(value: float) -> float | None:
    """JSON has no NaN: an undefined statistic (one game's spread) is null."""
    return value if math.isfinite(value) else None


def _combo_json(combo: Combo) -> dict[str, object]:
    return {
        "kind": combo.kind.name,
        "cards": str(combo),
        "top": str(combo.top),
        "size": len(combo),
    }


def _describe(combo: Combo) -> str:
    return f"{combo.shape}, {combo.top.unicode()} high: {combo.unicode()}"


# -- classify / beats / plays ---------------------------------------------------


def _classify(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    cards = parse_cards(" ".join(args.cards))
    combo = rules.classify(cards)
    reason = None if combo is not None else why_not_combination(cards, rules)
    if args.json:
        _print_json(
            {
                "combination": None if combo is None else _combo_json(combo),
                "reason": reason,
            },
            out,
        )
    elif combo is not None:
        print(_describe(combo), file=out)
    else:
        print(f"not a combination under {rules.name}: {reason}", file=out)
    return 0 if combo is not None else 1


def _beats(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    play = as_combo(args.play, rules)
    top = as_combo(args.top, rules)
    verdict = beats(play, top, rules)
    explanation = explain_beats(play, top, rules)
    if args.json:
        _print_json({"beats": verdict, "reason": explanation.split(": ", 1)[1]}, out)
    else:
        print(explanation, file=out)
    return 0 if verdict else 1


def _plays(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    hand = as_hand(args.hand)
    top = None if args.on is None else as_combo(args.on, rules)
    plays = legal_plays(hand, top, rules)
    groups: dict[ComboKind, list[Combo]] = {}
    for play in plays:
        groups.setdefault(play.kind, []).append(play)
    if args.json:
        _print_json(
            {
                kind.name: [str(play) for play in group]
                for kind, group in groups.items()
            },
            out,
        )
        return 0 if plays else 1
    against = f" that beat {top.unicode()}" if top is not None else " to lead"
    print(f"{len(plays)} plays{against} ({rules.name}):", file=out)
    for kind in ComboKind:
        if kind in groups:
            shown = "  ".join(play.unicode() for play in groups[kind])
            print(f"  {kind.label} ({len(groups[kind])}): {shown}", file=out)
    return 0 if plays else 1


# -- demo / play ------------------------------------------------------------------


def _action_text(action: Play | Pass) -> str:
    return "passes" if isinstance(action, Pass) else f"plays {action.cards.unicode()}"


def _finish(state: GameState, out: IO[str]) -> None:
    result = state.result
    assert result is not None
    if result.instant_win is not None:
        print(
            f"player {result.winner} wins at the deal ({result.instant_win.value})",
            file=out,
        )
    print(
        f"finish order: {', '.join(f'player {p}' for p in result.finish_order)}",
        file=out,
    )
    print(f"scores: {', '.join(f'{s:+d}' for s in result.scores)}", file=out)
    for item in result.items:
        print(f"  {item}", file=out)


def _demo(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)
    start = GameState.deal(rules, args.players, rng)
    players: list[Player] = [
        GreedyPlayer() if seat % 2 == 0 else RandomPlayer()
        for seat in range(args.players)
    ]
    final = play_game(start, players, rng)
    print(
        f"{rules.name}, {args.players} players, seed {args.seed}; even seats greedy, odd seats random",
        file=out,
    )
    for seat, hand in enumerate(start.hands):
        print(f"  player {seat}: {hand.unicode()}", file=out)
    state = start
    trick = 0
    for action in final.history:
        if state.top is None:
            trick += 1
            print(f"trick {trick}:", file=out)
        jump = " (jumps in)" if state.to_act != action.player else ""
        finished = len(state.finish_order)
        state = state.apply(action)
        print(f"  player {action.player} {_action_text(action)}{jump}", file=out)
        if len(state.finish_order) > finished:
            print(f"  player {action.player} is out", file=out)
    _finish(final, out)
    return 0


def _play(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)
    state = GameState.deal(rules, args.players, rng)
    bot = GreedyPlayer()
    print(
        f"{rules.name}: you are player 0 against {args.players - 1} greedy bots.",
        file=out,
    )
    print(
        "Type cards to play (e.g. '7h 7s' or '10♥'), 'pass', 'hint' or 'quit'.",
        file=out,
    )
    while not state.is_over:
        actions = state.legal_actions()
        assert state.to_act is not None
        order = state.seats_after(state.to_act)
        chosen: Play | Pass | None = None
        for seat in order:  # jump-ins first, in play direction (RULES §6.4)
            own = [action for action in actions if action.player == seat]
            if not own:
                continue
            if seat == 0:
                chosen = _ask(state, out, jumping_in=True)
            else:
                pick = bot.act(
                    Observation.of(state, seat), [*own, Pass(player=seat)], rng
                )
                chosen = pick if isinstance(pick, Play) else None
            if chosen is not None and not isinstance(chosen, Pass):
                break
            chosen = None
        if chosen is None:
            if state.to_act == 0:
                chosen = _ask(state, out, jumping_in=False)
            else:
                own = [action for action in actions if action.player == state.to_act]
                chosen = bot.act(Observation.of(state, state.to_act), own, rng)
        state = state.apply(chosen)
        if chosen.player != 0:
            print(f"player {chosen.player} {_action_text(chosen)}", file=out)
    _finish(state, out)
    return 0


def _table(state: GameState) -> str:
    top = state.top.unicode() if state.top is not None else "(none: you lead)"
    others = ", ".join(
        f"player {p}: {len(state.hands[p])} cards{' (passed)' if p in state.passed else ''}"
        for p in range(1, state.players)
    )
    return f"top: {top}\n{others}\nyour hand: {state.hands[0].unicode()}"


def _ask(state: GameState, out: IO[str], *, jumping_in: bool) -> Play | Pass:
    """Ask the human at seat 0 for an action until the engine accepts it."""
    print(_table(state), file=out)
    if jumping_in:
        print(
            "you may jump in with four consecutive pairs (RULES §6.4), or 'pass'",
            file=out,
        )
    while True:
        print("> ", end="", file=out, flush=True)
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            raise _ExitRequestError(0)
        text = line.strip()
        if text == "hint":
            mine = [
                action.cards.unicode() if isinstance(action, Play) else "pass"
                for action in state.legal_actions()
                if action.player == 0
            ]
            print(f"legal: {' | '.join(mine)}", file=out)
            continue
        try:
            action: Play | Pass = (
                Pass(player=0) if text == "pass" else Play(player=0, cards=text)
            )
            if not (jumping_in and isinstance(action, Pass)):
                state.check(action)
        except TienLenError as error:
            print(f"not allowed: {error}", file=out)
            continue
        return action


# -- simulate ---------------------------------------------------------------------


def _simulate(args: argparse.Namespace, out: IO[str]) -> int:
    rules = get_rules(args.rules)
    names = [name.strip() for name in args.players.split(",")]
    unknown = [name for name in names if name not in _PLAYERS]
    if unknown:
        msg = f"unknown player {unknown[0]!r} (known: {', '.join(_PLAYERS)})"
        raise _BadInputError(msg)
    if args.games < 1 or args.workers < 1:
        msg = "--games and --workers must be at least 1"
        raise _BadInputError(msg)
    players = [_PLAYERS[name]() for name in names]
    show = not args.json and sys.stderr.isatty()
    batch = 250
    chunk = batch * 4 * args.workers
    stats = SimulationStats.empty(len(players))
    with _executor(args.workers) as executor:
        done = 0
        while done < args.games:
            games = min(chunk, args.games - done)
            part = simulate(
                games, rules=rules, players=players, seed=args.seed, executor=executor,
                batch_size=batch, first_batch=done // batch,
            )  # fmt: skip
            stats = stats.merge(part)
            done += games
            if show:
                _progress(done, args.games)
    if args.json:
        _print_json(_stats_json(stats, names), out)
        return 0
    print(
        f"{rules.name}, players: {', '.join(f'{seat}={name}' for seat, name in enumerate(names))}",
        file=out,
    )
    print(stats.summary(), file=out)
    print(f"bombs played: {stats.bombs}, chops: {stats.chops}", file=out)
    return 0


def _stats_json(stats: SimulationStats, names: list[str]) -> dict[str, object]:
    return {
        "games": stats.games,
        "players": names,
        "win_rates": [_finite(rate) for rate in stats.win_rates],
        "mean_scores": [_finite(score) for score in stats.mean_scores],
        "confidence_intervals": [
            [_finite(bound) for bound in stats.confidence_interval(seat)]
            for seat in range(stats.seats)
        ],
        "places": [list(row) for row in stats.places],
        "mean_actions": _finite(stats.mean_actions),
        "bombs": stats.bombs,
        "chops": stats.chops,
    }


@contextlib.contextmanager
def _executor(workers: int) -> Iterator[MapExecutor | None]:
    if workers == 1:
        yield None
        return
    with multiprocessing.Pool(workers) as pool:
        yield pool


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    print(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
        end="",
        file=sys.stderr,
    )
    if done >= total:
        print(file=sys.stderr)


# -- argument parsing ---------------------------------------------------------------


class _BadInputError(TienLenError, ValueError):
    """Bad command-line input."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tienlen", description="Tiến Lên rules from the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    variants = ", ".join(RULESETS)

    def command(
        name: str, help_text: str, *, json_option: bool = True
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument(
            "--rules",
            default="classic",
            help=f"the variant ({variants}); default classic",
        )
        if json_option:
            sub.add_argument("--json", action="store_true", help="print JSON")
        return sub

    sub = command("classify", "name the combination the cards form, or say why not")
    sub.add_argument("cards", nargs="+", help="cards, e.g. 3s 4s 5h")
    sub.set_defaults(run=_classify)
    sub = command("beats", "say whether a play beats the top, and which rule decides")
    sub.add_argument("play", help='the play, e.g. "5s 5c 5d 5h"')
    sub.add_argument("top", help="the top of the pile, e.g. 2h")
    sub.set_defaults(run=_beats)
    sub = command("plays", "list the legal plays of a hand, grouped by kind")
    sub.add_argument("hand", help='the hand, e.g. "3s 4s 5h 9d 9c"')
    sub.add_argument("--on", help="the combination to beat (omit to lead)")
    sub.set_defaults(run=_plays)
    sub = command(
        "play", "play a game in the terminal against greedy bots", json_option=False
    )
    sub.add_argument("--players", type=int, default=4)
    sub.add_argument("--seed", type=int, default=None)
    sub.set_defaults(run=_play)
    sub = command(
        "demo", "a whole game among bots, printed trick by trick", json_option=False
    )
    sub.add_argument("--players", type=int, default=4)
    sub.add_argument("--seed", type=int, default=7)
    sub.set_defaults(run=_demo)
    sub = command("simulate", "simulate many games among bots and print the results")
    sub.add_argument("--games", type=int, default=1000)
    sub.add_argument(
        "--players",
        default="greedy,random,random,random",
        help="comma-separated: greedy, random",
    )
    sub.add_argument("--seed", type=int, default=0)
    sub.add_argument("--workers", type=int, default=1, help="worker processes")
    sub.set_defaults(run=_simulate)
    return parser


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the command line with *argv* (default: ``sys.argv[1:]``); return the exit code.

    Example:
        >>> main(["classify", "3s", "4s", "5h"])
        3-card straight, 5♥ high: 3♠ 4♠ 5♥
        0
        >>> main(["beats", "5s 5c 5d 5h", "Ah"])
        no: a four of a kind cannot beat a single A: different shapes, and no bomb applies (RULES §1.3)
        1
    """
    stream = sys.stdout if out is None else out
    parser = _parser()
    try:
        with contextlib.redirect_stdout(stream):  # --help goes to *out* too
            args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    run: Callable[[argparse.Namespace, IO[str]], int] = args.run
    try:
        return run(args, stream)
    except _ExitRequestError as leave:
        return leave.code
    except BrokenPipeError:  # the reader went away (`tienlen demo | head`)
        sys.stderr.close()
        return 0
    except (TienLenError, ValueError) as error:
        print(f"tienlen: error: {error}", file=sys.stderr)
        return 2
