"""The analysis commands of the command line: ``tienlen solve``.

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
from typing import IO, TYPE_CHECKING

from tienlen.analysis.solver import DEFAULT_MAX_NODES, solve
from tienlen.game import Action, GameState, Pass
from tienlen.messages import LANGUAGES, card_text, text

if TYPE_CHECKING:
    from argparse import _SubParsersAction

__all__ = ["add_commands"]


def add_commands(
    commands: _SubParsersAction[argparse.ArgumentParser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add ``solve`` to the command line's *commands*."""
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
    print(f"{_VALUE[args.lang]}: {scores}", file=out)
    for action in solution.line:
        print(action_line(action, state, args.lang), file=out)
        state = state.apply(action)
    print(_SEARCHED[args.lang].format(nodes=solution.nodes), file=out)
    return 0


_VALUE = {"en": "value", "vi": "giá trị"}
_SEARCHED = {"en": "{nodes} positions searched", "vi": "đã xét {nodes} thế bài"}
