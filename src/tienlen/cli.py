"""The ``tienlen`` command line (also ``python -m tienlen``).

Commands: ``classify``, ``beats``, ``plays`` (the rule questions), ``play`` (an
interactive game against bots), ``demo`` (a game among bots, trick by trick) and
``simulate`` (many games, a results table). ``--json`` gives machine-readable output
on the non-interactive commands; ``--lang vi`` speaks Vietnamese, errors included;
``--rules-file`` reads a table's own rule set (the JSON form of records). Exit codes:
0 for a positive answer, 1 for a negative one (not a combination, does not beat, no
legal play), 2 for bad input, with the error on standard error, 3 when the output
cannot be written, 130 when interrupted (Ctrl-C). Where standard output cannot encode
the suit symbols (``PYTHONIOENCODING=ascii``), cards are written with suit letters.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib.util import find_spec
from typing import IO, Final, TypeVar

from tienlen._version import __version__
from tienlen.analysis.cli import add_commands as add_analysis_commands
from tienlen.cards import as_hand, normal_text, parse_cards
from tienlen.combos import Combo, ComboKind
from tienlen.errors import (
    IllegalPlayError,
    InvalidCardError,
    TienLenError,
    UnknownVariantError,
)
from tienlen.explain import explain_beats, why_not_combination
from tienlen.game import GameState, Pass, Play
from tienlen.messages import (
    CATALOGUE,
    LANGUAGES,
    instant_win_name,
    kind_name,
    place_name,
    score_line,
    shape_name,
    text,
)
from tienlen.players import GreedyPlayer, Observation, Player, RandomPlayer, play_game
from tienlen.records import rules_from_file
from tienlen.rules import (
    BaseRules,
    as_combo,
    get_rules,
    legal_plays,
    two_decks,
)
from tienlen.rules.registry import presets
from tienlen.sections import rule_section
from tienlen.server.cli import add_commands as add_server_commands
from tienlen.simulation import MapExecutor, SimulationStats, process_pool, simulate

__all__ = ["main"]

_T = TypeVar("_T")
_R = TypeVar("_R")

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


def _describe(combo: Combo, lang: str) -> str:
    return text(
        "cli.describe",
        lang,
        shape=shape_name(combo.shape, lang),
        top=combo.top.unicode(),
        cards=combo.unicode(),
    )


# -- classify / beats / plays ---------------------------------------------------


def _classify(args: argparse.Namespace, out: IO[str]) -> int:
    rules = rules_from_args(args)
    cards = parse_cards(" ".join(args.cards))
    combo = rules.classify(cards)
    why = None if combo is not None else why_not_combination(cards, rules)
    if args.json:
        _print_json(
            {
                "rules": rules.name,
                "combination": None if combo is None else _combo_json(combo),
                "reason": None if why is None else why.clause("en"),
                "rule": None if why is None else why.rule,
                "section": None if why is None else _section_json(why.rule),
            },
            out,
        )
    elif combo is not None:
        print(_describe(combo, args.lang), file=out)
    else:
        assert why is not None
        reason = why.clause(args.lang)
        print(
            text("cli.not_combo", args.lang, rules=rules.name, reason=reason), file=out
        )
        print(_rule_line(why.rule, args.lang), file=out)
    return 0 if combo is not None else 1


def _rule_line(label: str, lang: str) -> str:
    """The line that cites the deciding rule: its number, and in English its title."""
    section = rule_section(label)
    mark = "§" if section.number[0].isdigit() else ""
    shown = f"{mark}{section.number}"
    if lang == "en":
        shown = f"{shown} {section.title}"
    return text("cli.rule", lang, section=shown)


def _section_json(label: str) -> dict[str, str]:
    """A rule's section for ``--json``: its number, title and address."""
    section = rule_section(label)
    return {"number": section.number, "title": section.title, "url": section.url}


def _beats(args: argparse.Namespace, out: IO[str]) -> int:
    rules = rules_from_args(args)
    play = _combination(args.play, rules, args.lang)
    top = _combination(args.top, rules, args.lang)
    explanation = explain_beats(play, top, rules)
    if args.json:
        _print_json(
            {
                "rules": rules.name,
                "beats": explanation.beats,
                "reason": explanation.reason("en"),
                "rule": explanation.rule,
                "section": _section_json(explanation.rule),
            },
            out,
        )
    else:
        print(explanation.message(args.lang), file=out)
        print(_rule_line(explanation.rule, args.lang), file=out)
    return 0 if explanation.beats else 1


def _combination(cards: str, rules: BaseRules, lang: str) -> Combo:
    """The combination *cards* form under *rules*.

    Raises:
        _BadInputError: they form none; the message says why, in *lang*.
    """
    parsed = parse_cards(cards)
    combo = rules.classify(parsed)
    if combo is None:
        why = why_not_combination(parsed, rules)
        reason = "" if why is None else why.clause(lang)
        shown = " ".join(card.unicode() for card in parsed) or repr(cards)
        line = text("cli.not_combo", lang, rules=rules.name, reason=reason)
        raise _BadInputError(f"{shown}: {line}")  # already in *lang*
    return combo


def _plays(args: argparse.Namespace, out: IO[str]) -> int:
    rules = rules_from_args(args)
    lang = args.lang
    hand = as_hand(args.hand)
    top = None if args.on is None else as_combo(args.on, rules)
    plays = legal_plays(hand, top, rules)
    groups: dict[ComboKind, list[Combo]] = {}
    for play in plays:
        groups.setdefault(play.kind, []).append(play)
    if args.json:
        _print_json(
            {
                "rules": rules.name,
                "plays": {
                    kind.name: [str(play) for play in group]
                    for kind, group in groups.items()
                },
            },
            out,
        )
        return 0 if plays else 1
    one = ".one" if len(plays) == 1 else ""
    if top is None:
        heading = text(f"cli.plays_lead{one}", lang, count=len(plays), rules=rules.name)
    else:
        heading = text(
            f"cli.plays_on{one}",
            lang,
            count=len(plays),
            top=top.unicode(),
            rules=rules.name,
        )
    print(heading, file=out)
    for kind in ComboKind:
        if kind in groups:
            shown = "  ".join(play.unicode() for play in groups[kind])
            print(f"  {kind_name(kind, lang)} ({len(groups[kind])}): {shown}", file=out)
    return 0 if plays else 1


# -- demo / play ------------------------------------------------------------------


def _count(cards: int, lang: str) -> str:
    """A number of cards, "1 card" or "5 cards" (never "1 cards")."""
    if cards == 1:
        return text("cli.cards.one", lang)
    return text("cli.cards.many", lang, count=cards)


def _say(key: str, player: int, human: int | None, lang: str, **fields: object) -> str:
    """The catalogue line *key* about *player*, in the second person for the human."""
    if player == human and f"{key}.you" in CATALOGUE:
        return text(f"{key}.you", lang, **fields)
    return text(key, lang, player=player, **fields)


def _action_line(
    action: Play | Pass, *, jumps_in: bool, human: int | None, lang: str
) -> str:
    if action.player == human:
        if isinstance(action, Pass):
            return text("cli.you_pass", lang)
        return text("cli.you_play", lang, cards=action.cards.unicode())
    if isinstance(action, Pass):
        return text("cli.passes", lang, player=action.player)
    key = "cli.jumps_in" if jumps_in else "cli.plays"
    return text(key, lang, player=action.player, cards=action.cards.unicode())


def _aftermath(
    before: GameState,
    action: Play | Pass,
    after: GameState,
    human: int | None,
    lang: str,
) -> list[str]:
    """Who went out and who won the trick, after *action* took *before* to *after*."""
    lines = [
        _say("cli.out", player, human, lang)
        for player in after.finish_order[len(before.finish_order) :]
    ]
    trick_over = before.top is not None and after.top is None and not after.is_over
    if trick_over:
        winner = action.player if isinstance(action, Play) else before.last_player
        assert winner is not None
        lines.append(_say("cli.trick_won", winner, human, lang))
    return lines


def _finish(
    state: GameState, out: IO[str], lang: str, human: int | None = None
) -> None:
    result = state.final_result()
    if result.instant_win is not None:
        hand = instant_win_name(result.instant_win, lang)
        print(text("cli.instant_win", lang, player=result.winner, hand=hand), file=out)
        if human is not None:
            dealt = state.dealt[human].unicode()
            print(text("cli.dealt", lang, cards=dealt), file=out)
    order = ", ".join(text("cli.player", lang, player=p) for p in result.finish_order)
    print(text("cli.finish_order", lang, order=order), file=out)
    scores = ", ".join(
        text("cli.score", lang, player=player, points=f"{points:+d}")
        for player, points in enumerate(result.scores)
    )
    print(text("cli.scores", lang, scores=scores), file=out)
    for item in result.items:
        print(f"  {score_line(item, lang)}", file=out)
    if human is not None and human in result.finish_order:
        place = place_name(
            result.finish_order.index(human) + 1, len(result.finish_order), lang
        )
        print(
            text("cli.your_place", lang, place=place, players=state.players), file=out
        )


_MAX_RULES_FILE: Final = 1_000_000
"""The most bytes ``--rules-file`` reads: a rule set is a few kilobytes."""


def rules_from_args(args: argparse.Namespace) -> BaseRules:
    """The rule set of ``--rules-file`` when given, else the preset ``--rules`` names.

    The file holds a rule set as `tienlen.records.rules_to_json` writes it, or a whole
    game record (`tienlen.records.to_json`), whose rules are taken.

    Raises:
        _BadInputError: the file cannot be read, or is no JSON.
        RecordError: the JSON is no rule set.
    """
    path = getattr(args, "rules_file", None)
    if path is None:
        try:
            return get_rules(args.rules)
        except UnknownVariantError as error:
            known = ", ".join(p.name for p in presets(listed_only=False))
            name = repr(args.rules[:40])
            raise _BadInputError(
                str(error), "cli.unknown_variant", name=name, known=known
            ) from None
    try:
        with open(path, "rb") as file:  # noqa: PTH123 (a user's path, as given)
            raw = file.read(_MAX_RULES_FILE + 1)
    except OSError as error:
        msg = f"cannot read the rules file {path!r}: {error.strerror or error}"
        raise _BadInputError(msg, "cli.rules_file", path=repr(path)) from None
    if len(raw) > _MAX_RULES_FILE:
        msg = f"the rules file {path!r} is larger than {_MAX_RULES_FILE:,} bytes"
        raise _BadInputError(msg, "cli.rules_file", path=repr(path))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        msg = f"the rules file {path!r} is not JSON: {error}"
        raise _BadInputError(msg, "cli.rules_file", path=repr(path)) from None
    return rules_from_file(data)


def _table_rules(args: argparse.Namespace) -> BaseRules:
    """The variant ``--rules`` names on ``--decks`` decks, for ``--players`` (RULES §2.1).

    Raises:
        _BadInputError: five or more players on one deck, or ``--decks 1`` for a
            two-deck variant.
    """
    rules = rules_from_args(args)
    if args.decks == 2:
        return two_decks(rules)
    if args.decks == 1 and rules.decks == 2:
        msg = f"{rules.name} is played with two decks: drop --decks 1, or choose a one-deck variant"
        raise _BadInputError(msg, "cli.two_decks", rules=rules.name)
    if rules.decks == 1 and 4 < args.players <= 8:  # one deck seats four
        msg = f"{rules.name} on one deck seats 2-4 players, not {args.players}: add --decks 2 for five to eight"
        raise _BadInputError(
            msg, "cli.one_deck", rules=rules.name, players=args.players
        )
    return rules


def _demo(args: argparse.Namespace, out: IO[str]) -> int:
    rules = _table_rules(args)
    lang = args.lang
    rng = random.Random(args.seed)
    start = GameState.deal(rules, args.players, rng)
    players: list[Player] = [
        GreedyPlayer() if seat % 2 == 0 else RandomPlayer()
        for seat in range(args.players)
    ]
    final = play_game(start, players, rng)
    header = text(
        "cli.demo_header", lang, rules=rules.name, players=args.players, seed=args.seed
    )
    print(header, file=out)
    for seat, hand in enumerate(start.hands):
        print(
            f"  {text('cli.seat', lang, player=seat, cards=hand.unicode())}", file=out
        )
    state = start
    trick = 0
    for action in final.history:
        if state.top is None:
            trick += 1
            print(text("cli.trick", lang, number=trick), file=out)
        jumps_in = state.to_act != action.player
        after = state.apply(action)
        line = _action_line(action, jumps_in=jumps_in, human=None, lang=lang)
        print(f"  {line}", file=out)
        for note in _aftermath(state, action, after, None, lang):
            print(f"  {note}", file=out)
        state = after
    _finish(final, out, lang)
    return 0


_HUMAN: Final = 0
"""The human's seat in ``play``."""


def _play(args: argparse.Namespace, out: IO[str]) -> int:
    rules = _table_rules(args)
    lang = args.lang
    rng = random.Random(args.seed)
    state = GameState.deal(rules, args.players, rng)  # checks the table size
    bots = _bots(args.bots, args.players - 1)
    seats: dict[int, Player] = dict(enumerate(bots, start=1))
    names = ", ".join(_bot_name(bot) for bot in bots)
    one = ".one" if len(bots) == 1 else ""
    welcome = text(
        f"cli.welcome{one}", lang, rules=rules.name, count=len(bots), names=names
    )
    print(welcome, file=out)
    print(text("cli.commands", lang), file=out)
    if state.is_over:
        print(
            text("cli.your_hand", lang, cards=state.hands[_HUMAN].unicode()), file=out
        )
    while not state.is_over:
        jump = _jump_in(state, seats, out, rng, lang)
        chosen: Play | Pass
        if jump is not None:
            chosen = jump
        elif state.to_act == _HUMAN:
            chosen = _ask(state, out, lang, jumping_in=False)
        else:
            assert state.to_act is not None
            own = [a for a in state.legal_actions() if a.player == state.to_act]
            observation = Observation.of(state, state.to_act)
            chosen = seats[state.to_act].act(observation, own, rng)
        after = state.apply(chosen)
        print(
            _action_line(chosen, jumps_in=jump is not None, human=_HUMAN, lang=lang),
            file=out,
        )
        for note in _aftermath(state, chosen, after, _HUMAN, lang):
            print(note, file=out)
        state = after
    _finish(state, out, lang, human=_HUMAN)
    return 0


def _jump_in(
    state: GameState,
    seats: dict[int, Player],
    out: IO[str],
    rng: random.Random,
    lang: str,
) -> Play | None:
    """The first out-of-turn jump-in taken, in play direction (RULES §6.4), or ``None``.

    The one place ``play`` polls the players who may jump in.
    """
    assert state.to_act is not None
    actions = state.legal_actions()
    for seat in state.seats_after(state.to_act):
        own = [action for action in actions if action.player == seat]
        if not own:
            continue
        if seat == _HUMAN:
            pick: Play | Pass = _ask(state, out, lang, jumping_in=True)
        else:
            observation = Observation.of(state, seat)
            pick = seats[seat].act(observation, [*own, Pass(player=seat)], rng)
        if isinstance(pick, Play):
            return pick
    return None


def _table(state: GameState, lang: str) -> str:
    top = state.top
    lines = [
        text("cli.top.none", lang)
        if top is None
        else text("cli.top", lang, cards=top.unicode())
    ]
    for seat in range(state.players):
        if seat == _HUMAN or not state.hands[seat]:  # the human, or a player out
            continue
        key = "cli.seat.passed" if seat in state.passed else "cli.seat"
        cards = _count(len(state.hands[seat]), lang)
        lines.append(text(key, lang, player=seat, cards=cards))
    lines.append(text("cli.your_hand", lang, cards=state.hands[_HUMAN].unicode()))
    return "\n".join(lines)


def _read_line() -> str:
    """One line of standard input; ``""`` at its end, or when it is closed or unreadable."""
    stdin = sys.stdin
    if stdin is None:  # started with standard input closed (`tienlen play <&-`)
        return ""
    try:
        return stdin.readline()
    except (OSError, ValueError):  # closed, or not readable
        return ""


def _ask(state: GameState, out: IO[str], lang: str, *, jumping_in: bool) -> Play | Pass:
    """Ask the human for an action until the engine accepts it.

    Commands are read case-insensitively, in English or Vietnamese (`_COMMANDS`); an
    empty line asks again; actions are read by `GameState.parse_action` (``pass``,
    ``p``, *bỏ*, *bỏ lượt*, *qua* or cards).
    """
    print(_table(state, lang), file=out)
    if jumping_in:
        print(text("cli.jump_in", lang), file=out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = _read_line()
        command = _COMMANDS.get(" ".join(normal_text(line).casefold().split()))
        if not line or command == "quit":
            raise _ExitRequestError(0)
        if not line.strip():
            continue
        if command == "help":
            print(text("cli.help", lang), file=out)
            continue
        if command == "hint":
            mine = [
                action.cards.unicode()
                if isinstance(action, Play)
                else text("word.pass", lang)
                for action in state.legal_actions()
                if action.player == _HUMAN
            ]
            print(text("cli.legal", lang, plays=" | ".join(mine)), file=out)
            continue
        try:
            action = state.parse_action(line, player=_HUMAN)
            if not (jumping_in and isinstance(action, Pass)):
                state.check(action)
        except IllegalPlayError as error:
            print(text("cli.not_allowed", lang, why=error.message(lang)), file=out)
            continue
        except InvalidCardError as error:  # text that names no action
            shown = repr(line.strip())
            print(
                text("cli.unreadable", lang, text=shown, why=error.message(lang)),
                file=out,
            )
            continue
        except TienLenError as error:  # a seat that is not the human's
            print(text("cli.not_allowed", lang, why=_error_text(error, lang)), file=out)
            continue
        return action


_COMMANDS: Final = {
    "quit": "quit",
    "exit": "quit",
    "thoát": "quit",
    "thoat": "quit",
    "hint": "hint",
    "gợi ý": "hint",
    "goi y": "hint",
    "help": "help",
    "?": "help",
    "trợ giúp": "help",
    "tro giup": "help",
}
"""The commands ``play`` reads besides actions, in both languages, by their word."""


# -- simulate ---------------------------------------------------------------------


def _bots(names: str, seats: int) -> list[Player]:
    """The bots named in *names* for *seats* seats; the last name fills the rest.

    Raises:
        _BadInputError: an unknown name, or more names than seats.
    """
    chosen = [name.strip().casefold() for name in names.split(",")]
    unknown = [name for name in chosen if name not in _PLAYERS]
    if unknown:
        known = ", ".join(_PLAYERS)
        msg = f"unknown bot {unknown[0]!r} (known: {known})"
        raise _BadInputError(
            msg, "cli.unknown_bot", name=repr(unknown[0][:40]), known=known
        )
    if len(chosen) > seats:
        msg = f"{len(chosen)} bots named for {seats} seats"
        raise _BadInputError(msg, "cli.too_many_bots", bots=len(chosen), seats=seats)
    chosen += [chosen[-1]] * (seats - len(chosen))
    return [_PLAYERS[name]() for name in chosen]


def _bot_name(bot: Player) -> str:
    """The name ``--bots`` knows *bot* by."""
    return next(name for name, kind in _PLAYERS.items() if isinstance(bot, kind))  # type: ignore[arg-type]


def _max_workers() -> int:
    """The most worker processes ``simulate`` starts: four per CPU."""
    return 4 * (os.cpu_count() or 1)


_BATCH: Final = 250
"""Games per batch of ``simulate`` (the library's default: results depend on it)."""


def _simulate(args: argparse.Namespace, out: IO[str]) -> int:
    rules = _table_rules(args)
    if args.games < 1 or args.workers < 1:
        msg = "--games and --workers must be at least 1"
        raise _BadInputError(msg, "cli.at_least_one")
    if args.workers > _max_workers():
        msg = f"--workers must be at most {_max_workers()} (four per CPU), not {args.workers}"
        raise _BadInputError(
            msg, "cli.workers", most=_max_workers(), workers=args.workers
        )
    rules.deal_size(args.players)  # the table size first: a clear error
    players = _bots(args.bots, args.players)
    names = [_bot_name(player) for player in players]
    progress = _Progress(args.games, enabled=not args.json and _is_tty(sys.stderr))
    with _executor(args.workers) as executor:
        stats = simulate(
            args.games, rules=rules, players=players, seed=args.seed,
            executor=_Counted(executor, progress), batch_size=_BATCH,
        )  # fmt: skip
    progress.close()
    if args.json:
        _print_json(_stats_json(stats, names, rules.name, args.seed), out)
        return 0
    for line in _stats_lines(stats, names, rules.name, args.lang):
        print(line, file=out)
    return 0


def _stats_lines(
    stats: SimulationStats, names: list[str], rules: str, lang: str
) -> list[str]:
    """``simulate``'s results in words, one line per seat, every number labelled."""
    seats = ", ".join(f"{seat}={name}" for seat, name in enumerate(names))
    lines = [text("sim.header", lang, rules=rules, games=stats.games, seats=seats)]
    lines.append(text("sim.actions", lang, actions=f"{stats.mean_actions:.1f}"))
    for seat, name in enumerate(names):
        low, high = stats.confidence_interval(seat)
        places = ", ".join(
            text(
                "sim.place",
                lang,
                place=place_name(place, stats.seats, lang),
                count=row[seat],
            )
            for place, row in enumerate(stats.places, 1)
        )
        lines.append(
            text(
                "sim.seat",
                lang,
                player=seat,
                bot=name,
                wins=f"{stats.win_rates[seat]:.3f}",
                score=f"{stats.mean_scores[seat]:+.3f}",
                low=f"{low:+.3f}",
                high=f"{high:+.3f}",
                places=places,
            )
        )

    def per_seat(counts: Sequence[int]) -> str:
        return ", ".join(
            text("sim.count", lang, player=seat, count=count)
            for seat, count in enumerate(counts)
        )

    lines.append(
        text(
            "sim.bombs", lang, bombs=per_seat(stats.bombs), chops=per_seat(stats.chops)
        )
    )
    return lines


def _stats_json(
    stats: SimulationStats, names: list[str], rules: str, seed: int
) -> dict[str, object]:
    """The ``--json`` object of ``simulate``: every per-seat list is indexed by seat."""
    seats = range(stats.seats)
    return {
        "rules": rules,
        "seed": seed,
        "games": stats.games,
        "players": names,
        "win_rates": [_finite(rate) for rate in stats.win_rates],
        "mean_scores": [_finite(score) for score in stats.mean_scores],
        "confidence_intervals": [
            [_finite(bound) for bound in stats.confidence_interval(seat)]
            for seat in seats
        ],
        "places": [[row[seat] for row in stats.places] for seat in seats],
        "mean_actions": _finite(stats.mean_actions),
        "bombs": list(stats.bombs),
        "chops": list(stats.chops),
    }


@contextlib.contextmanager
def _executor(workers: int) -> Iterator[MapExecutor | None]:
    """No executor for one worker, else a pool that survives killed workers and signals."""
    if workers == 1:
        yield None
        return
    with process_pool(workers) as pool:
        yield pool


def _is_tty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


class _Progress:
    """A progress bar on standard error: games done, games per second, time left."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.done = 0
        self.start = time.monotonic()

    def advance(self, games: int) -> None:
        """Count *games* more and redraw."""
        self.done = min(self.total, self.done + games)
        if self.enabled:
            _write_error(f"\r{self.line(time.monotonic() - self.start)}", end="")

    def line(self, elapsed: float) -> str:
        """The bar after *elapsed* seconds.

        Example:
            >>> _Progress(1000, enabled=False).line(0.0)
            '[..............................] 0/1000 games'
            >>> bar = _Progress(1000, enabled=False)
            >>> bar.done = 500
            >>> bar.line(2.0)
            '[###############...............] 500/1000 games, 250 games/s, 0:02 left'
        """
        width = 30
        filled = width * self.done // self.total
        bar = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games"
        if not self.done or elapsed <= 0:
            return bar
        rate = self.done / elapsed
        left = round((self.total - self.done) / rate)
        return f"{bar}, {rate:.0f} games/s, {left // 60}:{left % 60:02d} left"

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled and self.done:
            _write_error("")


class _Counted:
    """An executor that reports each batch to a `_Progress` as its result arrives."""

    def __init__(self, executor: MapExecutor | None, progress: _Progress) -> None:
        self.executor = executor
        self.progress = progress

    def map(self, fn: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
        """``fn`` over *items*, in order, lazily where the executor allows it."""
        if self.executor is None:
            results: Iterable[_R] = map(fn, items)
        else:
            lazy = getattr(self.executor, "imap", self.executor.map)
            results = lazy(fn, items)
        for result in results:
            # `simulate`'s tasks return (batch index, stats)
            stats = result[1] if isinstance(result, tuple) else result
            if isinstance(stats, SimulationStats):
                self.progress.advance(stats.games)
            yield result


# -- argument parsing ---------------------------------------------------------------


class _BadInputError(TienLenError, ValueError):
    """Bad command-line input; *key* names its sentence in the message catalogue."""

    def __init__(self, msg: str, key: str | None = None, **fields: object) -> None:
        super().__init__(msg)
        self.key = key
        self.fields = fields

    def message(self, lang: str = "en") -> str:
        """The error in *lang*: its catalogue sentence, or the English text."""
        if self.key is None:
            return str(self)
        return text(self.key, lang, **self.fields)


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows every option's default, and no "(default: None)" or "(default: False)"."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tienlen",
        description="Tiến Lên rules from the command line.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tienlen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    variants = ", ".join(p.name for p in presets(listed_only=False))
    bots = ", ".join(_PLAYERS)

    def command(
        name: str, help_text: str, *, json_option: bool = True
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name, help=help_text, description=help_text, formatter_class=_HelpFormatter
        )
        table = sub.add_mutually_exclusive_group()
        table.add_argument(
            "--rules", default="classic", help=f"the variant ({variants})"
        )
        table.add_argument(
            "--rules-file",
            metavar="FILE",
            help="a table's own rule set: a JSON file as the records write it",
        )
        sub.add_argument(
            "--lang", default="en", choices=LANGUAGES, help="the language of the text"
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
    sub = command("play", "play a game in the terminal against bots", json_option=False)
    sub.add_argument(
        "--players", type=int, default=4, help="players at the table, you included"
    )
    _decks_option(sub)
    sub.add_argument(
        "--bots",
        default="greedy",
        help=f"the bots in seats 1, 2, … ({bots}); the last fills the rest",
    )
    sub.add_argument(
        "--seed", type=int, default=None, help="the deal's seed (random when omitted)"
    )
    sub.set_defaults(run=_play)
    sub = command(
        "demo", "a whole game among bots, printed trick by trick", json_option=False
    )
    sub.add_argument("--players", type=int, default=4, help="players at the table")
    _decks_option(sub)
    sub.add_argument("--seed", type=int, default=7, help="the game's seed")
    sub.set_defaults(run=_demo)
    sub = command("simulate", "simulate many games among bots and print the results")
    sub.add_argument("--games", type=int, default=1000, help="games to play")
    sub.add_argument("--players", type=int, default=4, help="players at the table")
    _decks_option(sub)
    sub.add_argument(
        "--bots",
        default="greedy,random",
        help=f"the bots from seat 0 ({bots}), comma-separated; the last fills the rest",
    )
    sub.add_argument("--seed", type=int, default=0, help="the simulation's seed")
    sub.add_argument(
        "--workers", type=int, default=1, help="worker processes (at most four per CPU)"
    )
    sub.set_defaults(run=_simulate)
    add_server_commands(commands, _HelpFormatter, rules_from_args)  # serve, bot
    help_text = "serve the agents' tools over MCP on stdio, for LLM clients"
    sub = commands.add_parser(  # docs/agents.md
        "mcp", help=help_text, description=help_text, formatter_class=_HelpFormatter
    )
    sub.set_defaults(run=_mcp)

    add_analysis_commands(commands, _HelpFormatter)  # solve, analyse (issue 37)
    return parser


# -- mcp ----------------------------------------------------------------------------


_MCP_MISSING: Final = (
    'tienlen mcp needs the mcp extra: pip install "tienlen[mcp]" '
    '(from a checkout: pip install -e ".[mcp]")'
)


def _mcp(args: argparse.Namespace, out: IO[str]) -> int:
    del args, out  # standard output is the protocol's channel
    if find_spec("mcp") is None:
        raise _BadInputError(_MCP_MISSING)
    from tienlen.mcp.server import build_server  # noqa: PLC0415  # the extra, only now

    build_server().run("stdio")
    return 0


def _decks_option(sub: argparse.ArgumentParser) -> None:
    """``--decks``: one deck seats 2–4 players, two decks 5–8 (RULES §2.1)."""
    sub.add_argument(
        "--decks",
        type=int,
        choices=(1, 2),
        default=None,
        help="decks shuffled together: 1 for 2-4 players, 2 for 5-8 "
        "(default: the variant's own, 1 for every preset)",
    )


def _write_error(line: str, end: str = "\n") -> None:
    """Write *line* to standard error, if there is one that accepts it."""
    stream = sys.stderr
    if stream is None:  # started with standard error closed: the exit code tells
        return
    with contextlib.suppress(OSError, ValueError):
        encoding = getattr(stream, "encoding", None)
        if isinstance(encoding, str) and not _can_encode(encoding):
            with contextlib.suppress(LookupError):  # ASCII suits, "?" for the rest
                line = _AsciiSuits(stream, encoding).plain(line)
        stream.write(line + end)
        stream.flush()


def _can_encode(encoding: str) -> bool:
    """Whether *encoding* has the suit symbols."""
    try:
        "♠♣♦♥".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _silence_stdout() -> None:
    """Point standard output at the null device, so exiting does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _error_text(error: BaseException, lang: str) -> str:
    """An error for the person at the terminal: its player's sentence where it has one."""
    message = getattr(error, "message", None)
    if lang != "en" and isinstance(error, TienLenError) and callable(message):
        try:
            said = message(lang)
        except TypeError:  # a ``message`` that is not the catalogue's
            said = None
        if isinstance(said, str):
            return said
    return str(error)


class _AsciiSuits:
    """A text stream that writes suit letters for suit symbols.

    `main`'s output where ♠ ♥ ♦ ♣ cannot be encoded (``PYTHONIOENCODING=ascii``);
    the rest of what the encoding lacks is written ``?``.
    """

    _SUITS: Final = str.maketrans("♠♣♦♥♤♧♢♡", "scdhscdh")
    _LETTERS: Final = str.maketrans("đĐ", "dD")

    def __init__(self, stream: IO[str], encoding: str) -> None:
        self.stream = stream
        self.encoding = encoding

    def plain(self, data: str) -> str:
        """*data* with suits as letters, and ``?`` for what the encoding lacks."""
        plain = data.translate(self._SUITS)
        try:
            plain.encode(self.encoding)
        except UnicodeEncodeError:  # Vietnamese without its marks: "nguoi choi"
            bare = unicodedata.normalize("NFKD", plain.translate(self._LETTERS))
            plain = "".join(char for char in bare if not unicodedata.combining(char))
        return plain.encode(self.encoding, "replace").decode(self.encoding)

    def write(self, data: str) -> int:
        """Write *data*, suits as letters, the unencodable as ``?``."""
        return self.stream.write(self.plain(data))

    def flush(self) -> None:
        """Flush the stream."""
        self.stream.flush()

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        return _is_tty(self.stream)


def _encodable(stream: IO[str]) -> IO[str]:
    """*stream*, or an `_AsciiSuits` around it when it cannot encode the suit symbols."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str) or _can_encode(encoding):
        return stream
    return _AsciiSuits(stream, encoding)  # type: ignore[return-value]


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the command line with *argv* (default: ``sys.argv[1:]``); return the exit code.

    Exit codes: 0 yes, 1 no, 2 bad input, 3 when the output cannot be written, 130
    when interrupted (Ctrl-C: one line on standard error, no traceback).

    Example:
        >>> main(["classify", "3s", "4s", "5h"])
        3-card straight, 5♥ high: 3♠ 4♠ 5♥
        0
        >>> main(["beats", "5s 5c 5d 5h", "Ah"])
        No: a four of a kind cannot beat a single A: different shapes, and no bomb applies.
        rule: §1.3 Shape, and beating the same shape
        1
    """
    stream = _encodable(sys.stdout) if out is None else out
    parser = _parser()
    try:
        with contextlib.redirect_stdout(stream):  # --help goes to *out* too
            args = parser.parse_args(argv)
            if args.command is None:  # bare `tienlen`: the help
                parser.print_help()
                return 0
    except SystemExit as exit_:
        return int(exit_.code or 0)
    except KeyboardInterrupt:
        _write_error("tienlen: interrupted")
        return 130
    run: Callable[[argparse.Namespace, IO[str]], int] = args.run
    lang: str = getattr(args, "lang", "en")
    try:
        code = run(args, stream)
        stream.flush()
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's code for SIGINT
        _write_error(f"tienlen: {text('cli.interrupted', lang)}")
        return 130
    except _ExitRequestError as leave:
        return leave.code
    except BrokenPipeError:  # the reader went away (`tienlen demo | head`)
        _silence_stdout()
        return 0
    except (TienLenError, ValueError) as error:
        why = _error_text(error, lang)
        _write_error(f"tienlen: {text('cli.error', lang, why=why)}")
        return 2
    except OSError as error:  # a full disk, `> /dev/full`
        _silence_stdout()
        _write_error(
            f"tienlen: error: cannot write the output: {error.strerror or error}"
        )
        return 3
    return code
