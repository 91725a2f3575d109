"""The analysis commands of the command line: ``tienlen solve``, ``analyse`` and ``puzzle``.

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
import random
import sys
from typing import IO, TYPE_CHECKING

from tienlen.analysis.explain import action_text, explain, say
from tienlen.analysis.puzzles import Puzzle, PuzzleSet, load_puzzles
from tienlen.analysis.review import GameAnalysis, analyse
from tienlen.analysis.solver import DEFAULT_MAX_NODES, SolverLimitError, solve
from tienlen.analysis.values import DEFAULT_BUDGET
from tienlen.errors import InvalidArgumentError, TienLenError
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
    """Add ``solve``, ``analyse`` and ``puzzle`` to the command line's *commands*.

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
    _add_puzzle(commands, formatter)


def _add_puzzle(
    commands: _SubParsersAction[argparse.ArgumentParser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    about = "a puzzle from the shipped set: find the only best play"
    sub = commands.add_parser(
        "puzzle", help=about, description=about, formatter_class=formatter
    )
    sub.add_argument(  # a set ships per preset: no --rules/--rules-file here
        "--preset",
        default="classic",
        help="the preset whose shipped set to use (default classic)",
    )
    which = sub.add_mutually_exclusive_group()
    which.add_argument(
        "--number", type=int, help="the puzzle's number in the set, from 1"
    )
    which.add_argument(
        "--random", action="store_true", help="a random puzzle (the default)"
    )
    sub.add_argument("--seed", type=int, help="the seed choosing the random puzzle")
    sub.add_argument(
        "--answer", action="store_true", help="show the answer; ask nothing"
    )
    sub.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of the text"
    )
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.set_defaults(run=_puzzle)


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


def _puzzle(args: argparse.Namespace, out: IO[str]) -> int:
    """Show a puzzle, read a play, say whether it is the answer: 0 right, 1 wrong."""
    puzzles = load_puzzles(args.preset)
    number = _puzzle_number(args, len(puzzles.puzzles))
    puzzle = puzzles.puzzles[number - 1]
    lang: str = args.lang
    shown = {"number": number, "total": len(puzzles.puzzles), **_puzzle_json(puzzle)}
    if not args.json:
        for line in puzzle_lines(puzzle, number, puzzles, lang):
            print(line, file=out)
    given = None if args.answer else _read_play(puzzle, out, lang)
    if given is None and not args.answer:  # nothing read: the puzzle alone
        if args.json:
            print(json.dumps(shown, ensure_ascii=False, indent=2), file=out)
        return 0
    right = given is None or puzzle.is_answer(given)
    after = None if given is None or right else _refutation(puzzle, given)
    if args.json:
        shown |= _answer_json(puzzle)
        if given is not None:
            shown |= {"given": _action_json(given), "correct": right}
            shown["refutation"] = (
                None if after is None else [_action_json(a) for a in after]
            )
        print(json.dumps(shown, ensure_ascii=False, indent=2), file=out)
    else:
        for line in verdict_lines(puzzle, given, after, lang):
            print(line, file=out)
    return 0 if right else 1


def _puzzle_number(args: argparse.Namespace, total: int) -> int:
    """The number of the puzzle asked for: ``--number``, or drawn with ``--seed``."""
    if args.number is None:
        return random.Random(args.seed).randrange(total) + 1
    if args.seed is not None:
        msg = "--seed chooses a random puzzle: give it without --number"
        raise InvalidArgumentError(msg)
    if not 1 <= args.number <= total:
        msg = f"--number must be 1 to {total} (the set's size), got {args.number}"
        raise InvalidArgumentError(msg)
    return int(args.number)


def _puzzle_json(puzzle: Puzzle) -> dict[str, object]:
    """What the player is shown of *puzzle*: no answer, no themes."""
    state = puzzle.state
    return {
        "rules": state.rules.name,
        "fingerprint": puzzle.fingerprint,
        "position": puzzle.position,
        "seat": puzzle.seat,
    }


def _answer_json(puzzle: Puzzle) -> dict[str, object]:
    return {
        "answer": _action_json(puzzle.answer),
        "line": [_action_json(action) for action in puzzle.line],
        "themes": list(puzzle.themes),
        "moves": puzzle.moves,
    }


def _action_json(action: Action) -> dict[str, object]:
    return {
        "player": action.player,
        "cards": None if isinstance(action, Pass) else str(action.cards),
    }


def puzzle_lines(
    puzzle: Puzzle, number: int, puzzles: PuzzleSet, lang: str = "en"
) -> list[str]:
    r"""*puzzle* as ``tienlen puzzle`` shows it: who plays, the table, every hand.

    Every hand is shown (a puzzle is a position with every hand known); the seat to
    play reads as ``your hand``, as in ``tienlen play``.

    Example:
        >>> puzzles = load_puzzles("classic")
        >>> print("\n".join(puzzle_lines(puzzles.puzzles[2], 3, puzzles)))
        Puzzle 3 of 300 (classic, 5054e85a09865e4b): player 0 to play. Find the best play: only one is.
        top: 7♠
        player 3: 9♣ 9♦
        your hand: 6♥ 7♥ 8♦ 10♥
    """
    state = puzzle.state
    lines = [
        say(
            "puzzle.header",
            lang,
            number=number,
            total=len(puzzles.puzzles),
            rules=puzzles.rules,
            fingerprint=puzzle.fingerprint,
            player=puzzle.seat,
        )
    ]
    top = state.top
    if top is None:
        lines.append(text("cli.top.none", lang))
    else:
        lines.append(text("cli.top", lang, cards=top.unicode()))
    for seat in range(state.players):
        hand = state.hands[seat]
        if seat == puzzle.seat or not hand:
            continue
        key = "cli.seat.passed" if seat in state.passed else "cli.seat"
        lines.append(text(key, lang, player=seat, cards=hand.unicode()))
    lines.append(text("cli.your_hand", lang, cards=state.hands[puzzle.seat].unicode()))
    return lines


def verdict_lines(
    puzzle: Puzzle,
    given: Action | None,
    refutation: tuple[Action, ...] | None = None,
    lang: str = "en",
) -> list[str]:
    r"""Right or wrong, the answer and the winning line; *given* ``None``: the answer alone.

    Example:
        >>> puzzle = load_puzzles("classic").puzzles[2]
        >>> print("\n".join(verdict_lines(puzzle, puzzle.answer, lang="vi")))
        Đúng: 10♥ là nước tốt nhất.
        đường thắng:
          người chơi 0 đánh 10♥
          người chơi 3 bỏ lượt
          người chơi 0 đánh 6♥ 7♥ 8♦
    """
    answer = action_text(puzzle.answer, lang)
    if given is None:
        first = say("puzzle.answer", lang, answer=answer)
    elif puzzle.is_answer(given):
        first = say("puzzle.right", lang, answer=answer)
    else:
        key = "puzzle.wrong.pass" if isinstance(given, Pass) else "puzzle.wrong"
        first = say(key, lang, given=action_text(given, lang), answer=answer)
    lines = [first, say("puzzle.line", lang)]
    lines.extend(_line_text(puzzle.state, puzzle.line, lang))
    if refutation is not None and given is not None:
        lines.append(say("puzzle.refutation", lang, given=action_text(given, lang)))
        lines.extend(_line_text(puzzle.state.apply(given), refutation, lang))
    return lines


def _line_text(state: GameState, line: tuple[Action, ...], lang: str) -> list[str]:
    """*line* from *state*, one action a line, as ``tienlen solve`` tells it."""
    told = []
    for action in line:
        told.append(f"  {action_line(action, state, lang)}")
        state = state.apply(action)
    return told


def _refutation(puzzle: Puzzle, given: Action) -> tuple[Action, ...] | None:
    """The best play after *given* (the line that shows it falls short), if solved."""
    after = puzzle.state.apply(given)
    if after.is_over:
        return ()
    try:
        return solve(after, max_nodes=DEFAULT_MAX_NODES).line
    except SolverLimitError:  # pragma: no cover - the set's positions are small
        return None


def _read_play(puzzle: Puzzle, out: IO[str], lang: str) -> Action | None:
    """The play read from standard input; ``None`` at its end.

    On a terminal the play is asked for, and a line that is not a legal play is
    explained and asked again; otherwise one line is read, and a bad one is an error
    (exit code 2).
    """
    state = puzzle.state
    asking = _is_terminal(sys.stdin)
    while True:
        if asking:
            print(say("puzzle.ask", lang), end=" ", file=out, flush=True)
        line = _read_line()
        if not line.strip():
            if asking and line:
                continue
            return None
        try:
            action = state.parse_action(line, player=puzzle.seat)
            state.check(action)
        except TienLenError as error:
            if not asking:
                raise
            print(text("cli.not_allowed", lang, why=_error_text(error, lang)), file=out)
            continue
        return action


def _error_text(error: TienLenError, lang: str) -> str:
    """*error* in *lang* where it has a player's sentence (`IllegalPlayError`), else as is."""
    message = getattr(error, "message", None)
    if callable(message):
        said = message(lang)
        if isinstance(said, str):
            return said
    return str(error)


def _is_terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def _read_line() -> str:
    """One line of standard input; ``""`` at its end, or when it is closed or unreadable."""
    stdin = sys.stdin
    if stdin is None:
        return ""
    try:
        return stdin.readline()
    except (OSError, ValueError):
        return ""
