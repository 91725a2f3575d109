"""The analysis commands of the command line: ``tienlen solve`` and ``tienlen analyse``.

`add_commands` adds them to `tienlen.cli`'s parser, as `tienlen.server.cli` adds the
server's.

Example:
    >>> import argparse, io
    >>> parser = argparse.ArgumentParser(prog="tienlen")
    >>> add_commands(parser.add_subparsers(), argparse.HelpFormatter)
    >>> args = parser.parse_args(["solve", "tienlen 1; rules classic; hands 3s 9h / 5d 6d; to 0; first 3s"])
    >>> out = io.StringIO()
    >>> args.run(args, out)
    0
    >>> print(out.getvalue(), end="")
    value: player 0 +1, player 1 -1
    player 0 plays 3♠
    player 1 plays 5♦
    player 0 plays 9♥
    5 positions searched

.. versionadded:: 0.3
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, TYPE_CHECKING

from tienlen.analysis.explain import action_text, explain, say
from tienlen.analysis.review import GameAnalysis, analyse
from tienlen.analysis.solver import DEFAULT_MAX_NODES, solve
from tienlen.analysis.values import DEFAULT_BUDGET
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, GameState, Pass
from tienlen.messages import LANGUAGES, card_text, text
from tienlen.records import load
from tienlen.rules import RuleSet

if TYPE_CHECKING:
    from argparse import _SubParsersAction

__all__ = ["add_commands", "report"]


def add_commands(
    commands: _SubParsersAction[argparse.ArgumentParser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add ``solve`` and ``analyse`` to the command line's *commands*.

    Example:
        >>> import argparse
        >>> parser = argparse.ArgumentParser(prog="tienlen")
        >>> add_commands(parser.add_subparsers(), argparse.HelpFormatter)
        >>> args = parser.parse_args(["analyse", "game.json", "--workers", "2"])
        >>> args.game, args.budget, args.workers, args.lang
        ('game.json', 64, 2, 'en')
    """
    about = "solve a position with every hand known: its value and the winning line"
    sub = commands.add_parser(
        "solve", help=about, description=about, formatter_class=formatter
    )
    sub.add_argument("position", help='the position notation, e.g. "tienlen 1; …"')
    sub.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help="positions to search at most",
    )
    sub.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of the text"
    )
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.set_defaults(run=_solve)
    about = "review a finished game move by move: labels, the better play, accuracy"
    sub = commands.add_parser(
        "analyse", help=about, description=about, formatter_class=formatter
    )
    sub.add_argument("game", help="a game record (JSON, as tienlen.records writes it)")
    sub.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="worlds sampled per decision"
    )
    sub.add_argument("--workers", type=int, default=1, help="worker processes")
    sub.add_argument("--seed", type=int, default=0, help="the analysis's seed")
    sub.add_argument(
        "--quiet", action="store_true", help="no progress line on standard error"
    )
    sub.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of the text"
    )
    sub.add_argument("--json", action="store_true", help="print the analysis as JSON")
    sub.set_defaults(run=_analyse)


def action_line(action: Action, state: GameState, lang: str) -> str:
    """*action* as the command line's ``demo`` tells it (*state*: before it)."""
    if isinstance(action, Pass):
        return text("cli.passes", lang, player=action.player)
    key = "cli.plays" if action.player == state.to_act else "cli.jumps_in"
    return text(key, lang, player=action.player, cards=card_text(str(action.cards)))


def _solve(args: argparse.Namespace, out: IO[str]) -> int:
    state = GameState.from_notation(args.position)
    solution = solve(state, max_nodes=args.max_nodes)
    if args.json:
        data = {
            "scores": list(solution.scores),
            "line": [
                {
                    "player": action.player,
                    "cards": None if isinstance(action, Pass) else str(action.cards),
                }
                for action in solution.line
            ],
            "nodes": solution.nodes,
        }
        print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
        return 0
    scores = ", ".join(
        text("cli.score", args.lang, player=seat, points=f"{score:+d}")
        for seat, score in enumerate(solution.scores)
    )
    print(say("solve.value", args.lang, scores=scores), file=out)
    for action in solution.line:
        print(action_line(action, state, args.lang), file=out)
        state = state.apply(action)
    print(say("solve.searched", args.lang, nodes=solution.nodes), file=out)
    return 0


def _analyse(args: argparse.Namespace, out: IO[str]) -> int:
    try:
        with open(args.game, encoding="utf-8") as file:  # noqa: PTH123
            game = load(file)
    except OSError as error:  # not the output's failure: bad input
        msg = f"cannot read {args.game}: {error.strerror or error}"
        raise InvalidArgumentError(msg) from None
    lang: str = args.lang
    tell = _Progress(lang) if not args.quiet else None
    try:
        review = analyse(
            game,
            budget=args.budget,
            workers=args.workers,
            seed=args.seed,
            progress=tell,
        )
    finally:
        if tell is not None:
            tell.close()
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False, indent=2), file=out)
        return 0
    for line in report(review, game.rules, lang):
        print(line, file=out)
    return 0


class _Progress:
    """The progress line on standard error: rewritten in place on a terminal."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        stream = sys.stderr
        if stream is None:
            return
        line = say("report.progress", self.lang, done=done, total=total)
        if stream.isatty():
            stream.write(f"\r{line}")
        elif done == total or done * 10 // total != (done - 1) * 10 // total:
            stream.write(f"{line}\n")  # a log: every tenth of the way
        stream.flush()
        self.shown = True

    def close(self) -> None:
        """End the progress line."""
        if self.shown and sys.stderr is not None and sys.stderr.isatty():
            sys.stderr.write("\n")


def report(review: GameAnalysis, rules: RuleSet, lang: str = "en") -> list[str]:
    """The readable report of *review*: accuracy, the flagged moves explained, the biggest losses.

    Example:
        >>> from tienlen import CLASSIC
        >>> report(GameAnalysis("classic", 2, 8, 0, ()), CLASSIC)
        ['Analysis: classic, 2 players, 8 worlds per decision', 'accuracy: ', '0 flagged decision(s) of 0:', 'biggest losses:']
    """
    lines = [
        say(
            "report.header",
            lang,
            rules=review.rules,
            players=review.players,
            budget=review.budget,
        )
    ]
    figures = ", ".join(
        say("report.player", lang, player=seat, value=f"{value:.1f}")
        for seat, value in review.accuracy.items()
    )
    lines.append(say("report.accuracy", lang, figures=figures))
    flagged = review.labelled()
    lines.append(
        say("report.flagged", lang, count=len(flagged), total=len(review.decisions))
    )
    lines.extend(
        f"  {say('report.move', lang, number=d.index + 1)}: {explain(d, rules, lang)}"
        for d in flagged
    )
    lines.append(say("report.biggest", lang))
    lines.extend(
        "  "
        + say(
            "report.loss",
            lang,
            number=d.index + 1,
            player=d.seat,
            played=action_text(d.played.action, lang),
            loss=f"{d.loss.mean:.2f}",
            better=action_text(d.best[0].action, lang),
        )
        for d in review.biggest_losses()
        if d.loss.mean > 0
    )
    return lines
