"""The ``tienlen serve`` and ``tienlen bot`` commands (registered by `tienlen.cli`).

Neither imports the server's dependencies until it runs: without the ``server``
extra they print how to install it and exit with status 2.

Example:
    >>> from tienlen.cli import main
    >>> main(["serve", "--help"])  # doctest: +ELLIPSIS
    usage: tienlen serve ...
    0
"""

from __future__ import annotations

import argparse
import os
import sys
from argparse import _SubParsersAction
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import IO, Final

from tienlen.errors import TienLenError
from tienlen.rules import BaseRules

__all__ = ["add_commands", "data_dir"]

_MISSING: Final = (
    'tienlen: error: the server needs its extra: pip install "tienlen[server]"'
)
_BOTS: Final = ("random", "greedy", "pimc", "ismcts")


def data_dir() -> Path:
    """The default ``--data`` directory: ``$XDG_DATA_HOME/tienlen`` or ``~/.local/share/tienlen``.

    Example:
        >>> data_dir().name
        'tienlen'
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tienlen"


def add_commands(
    commands: _SubParsersAction[argparse.ArgumentParser],
    formatter: type[argparse.HelpFormatter],
    read_rules: Callable[[argparse.Namespace], BaseRules],
) -> None:
    """Add ``serve`` and ``bot`` to the command line's *commands*.

    ``serve`` reads its main table's ``--rules``/``--rules-file`` with *read_rules*,
    the command line's own reader, so that every command reads them alike.

    Example:
        >>> import argparse
        >>> parser = argparse.ArgumentParser(prog="tienlen")
        >>> from tienlen.cli import rules_from_args
        >>> add_commands(parser.add_subparsers(), argparse.HelpFormatter, rules_from_args)
        >>> args = parser.parse_args(["bot", "--seat", "2"])
        >>> args.player, args.connect, args.table
        ('greedy', 'ws://127.0.0.1:8000/ws', 'main')
    """
    text = "run the game server: tables in the browser, bots, the WebSocket protocol"
    sub = commands.add_parser(
        "serve", help=text, description=text, formatter_class=formatter
    )
    sub.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    sub.add_argument("--port", type=int, default=8000, help="the port to listen on")
    rules = sub.add_mutually_exclusive_group()
    rules.add_argument("--rules", default="classic", help="the main table's preset")
    rules.add_argument(
        "--rules-file",
        help="the main table's rules, in the records' JSON form (docs/records.md)",
    )
    sub.add_argument("--players", type=int, default=4, help="seats at the main table")
    sub.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the main table's seed, for tests and demonstrations (random by default)",
    )
    sub.add_argument(
        "--data", type=Path, default=None, help=f"where tables are saved ({data_dir()})"
    )
    sub.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help="seconds a dropped seat is kept before its bot takes over",
    )
    sub.add_argument(
        "--clock",
        type=float,
        default=None,
        help="seconds a player may think before the seat's bot moves (off by default)",
    )
    sub.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before it moves, so people can follow",
    )
    _add_limits(sub)
    _add_connection_options(sub)
    sub.set_defaults(run=_serve, read_rules=read_rules)
    text = "play a seat of a server's table with one of the library's bots"
    sub = commands.add_parser(
        "bot", help=text, description=text, formatter_class=formatter
    )
    sub.add_argument(
        "--connect",
        default="ws://127.0.0.1:8000/ws",
        help="the server's WebSocket address",
    )
    sub.add_argument("--table", default="main", help="the table's id")
    sub.add_argument("--seat", type=int, required=True, help="the seat to take")
    sub.add_argument("--player", choices=_BOTS, default="greedy", help="the bot")
    sub.add_argument("--hands", type=int, default=None, help="leave after N hands")
    sub.add_argument("--seed", type=int, default=None, help="the bot's random seed")
    sub.set_defaults(run=_bot)


def _add_limits(sub: argparse.ArgumentParser) -> None:
    """``tienlen serve``'s limits against one client taking the server for itself."""
    limits = sub.add_argument_group(
        "limits", "per client address, against one client taking the server"
    )
    limits.add_argument(
        "--tables-per-address",
        type=int,
        default=10,
        help="tables the clients of one address may hold at once",
    )
    limits.add_argument(
        "--creates-per-minute",
        type=float,
        default=6.0,
        help="tables one address may create a minute (bursts of 5)",
    )
    limits.add_argument(
        "--server-creates-per-minute",
        type=float,
        default=60.0,
        help="tables all clients together may create a minute (bursts of 30)",
    )
    limits.add_argument(
        "--slow-bots-per-address",
        type=int,
        default=4,
        help="seats played by a search bot (pimc, ismcts) in one address's tables",
    )
    limits.add_argument(
        "--slow-workers",
        type=int,
        default=2,
        help="processes the search bots think in",
    )
    limits.add_argument(
        "--review-workers",
        type=int,
        default=1,
        help="processes the reviews of finished hands run in",
    )
    limits.add_argument(
        "--review-budget",
        type=int,
        default=16,
        help="worlds sampled per decision of a hand's review",
    )
    limits.add_argument(
        "--idle",
        type=float,
        default=600.0,
        help="seconds a table nobody is at is kept, unless a person there has moved",
    )
    limits.add_argument(
        "--abandoned",
        type=float,
        default=86_400.0,
        help="seconds a table nobody is at is kept when a person there has moved",
    )


def _check_limits(args: argparse.Namespace) -> None:
    """Check ``tienlen serve``'s limits (`_add_limits`).

    Raises:
        ValueError: a count below 1, or a rate or time that is not positive.
    """
    counts = (
        "tables_per_address",
        "slow_bots_per_address",
        "slow_workers",
        "review_workers",
        "review_budget",
    )
    times = ("creates_per_minute", "server_creates_per_minute", "idle", "abandoned")
    for name in counts:
        if getattr(args, name) < 1:
            msg = f"--{name.replace('_', '-')} must be at least 1"
            raise ValueError(msg)
    for name in times:
        if not 0 < getattr(args, name) < float("inf"):
            msg = f"--{name.replace('_', '-')} must be a positive number"
            raise ValueError(msg)


def _positive_int(text: str) -> int:
    """An option's whole number above zero (argparse reports the refusal)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        msg = f"{text!r} is not a whole number above zero"
        raise argparse.ArgumentTypeError(msg)
    return value


def _positive_float(text: str) -> float:
    """An option's finite number above zero (argparse reports the refusal)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        msg = f"{text!r} is not a finite number above zero"
        raise argparse.ArgumentTypeError(msg)
    return value


def _add_connection_options(sub: argparse.ArgumentParser) -> None:
    """``serve``'s limits on connections (`tienlen.server.connections.ConnectionLimits`)."""
    sub.add_argument(
        "--max-connections",
        type=_positive_int,
        default=1000,
        help="connections held at once, HTTP and WebSocket; one more is closed at once",
    )
    sub.add_argument(
        "--max-per-address",
        type=_positive_int,
        default=50,
        help="connections held at once from one client address (but a --proxy)",
    )
    sub.add_argument(
        "--proxy",
        action="append",
        metavar="ADDRESS",
        help="a reverse proxy's address, not capped per address (repeatable;"
        " default: 127.0.0.1 and ::1)",
    )
    sub.add_argument(
        "--header-timeout",
        type=_positive_float,
        default=10.0,
        help="seconds a connection has to send a request's headers",
    )
    sub.add_argument(
        "--keep-alive",
        type=_positive_int,
        default=5,
        help="seconds an HTTP connection may idle between requests",
    )
    sub.add_argument(
        "--ws-ping",
        type=_positive_float,
        default=20.0,
        help="seconds between WebSocket pings, and to wait for each answer",
    )


def _warn_quarantined(quarantined: dict[str, str], path: str) -> None:
    """One line on standard error naming the database and the tables set aside."""
    ids = sorted(quarantined)
    shown = ", ".join(ids[:10]) + (
        f" and {len(ids) - 10} more" if len(ids) > 10 else ""
    )
    print(
        f"tienlen: warning: {len(ids)} table(s) in {path} could not be restored"
        f" and were set aside: {shown}",
        file=sys.stderr,
        flush=True,
    )


def _available(*modules: str) -> bool:
    if all(find_spec(name) for name in modules):
        return True
    print(_MISSING, file=sys.stderr)
    return False


def _serve(args: argparse.Namespace, out: IO[str]) -> int:
    if not _available("starlette", "uvicorn"):
        return 2
    import uvicorn  # noqa: PLC0415  # the extra, only now

    from tienlen.server.app import create_app  # noqa: PLC0415
    from tienlen.server.connections import ConnectionLimits  # noqa: PLC0415
    from tienlen.server.storage import open_data  # noqa: PLC0415
    from tienlen.server.tables import Hub, ServerError  # noqa: PLC0415

    rules = args.read_rules(args)
    _check_limits(args)
    limits = ConnectionLimits(
        max_connections=args.max_connections,
        per_address=args.max_per_address,
        proxies=args.proxy or ConnectionLimits().proxies,
        header_timeout=args.header_timeout,
        keep_alive=args.keep_alive,
        ws_ping=args.ws_ping,
    )
    folder = data_dir() if args.data is None else Path(args.data)
    with open_data(folder) as storage:
        hub = Hub(
            storage,
            grace=args.grace,
            clock_seconds=args.clock,
            bot_delay=args.bot_delay,
            tables_per_address=args.tables_per_address,
            creates_per_minute=args.creates_per_minute,
            server_creates_per_minute=args.server_creates_per_minute,
            slow_bots_per_address=args.slow_bots_per_address,
            slow_workers=args.slow_workers,
            review_workers=args.review_workers,
            review_budget=args.review_budget,
            idle=args.idle,
            abandoned=args.abandoned,
        )
        try:
            restored = hub.restore()
            if "main" in hub.tables:
                hub.tables["main"].permanent = True
            else:
                hub.create_table(
                    rules, args.players, table_id="main", seed=args.seed, permanent=True
                )
        except ServerError as error:
            raise ValueError(str(error)) from None
        if hub.quarantined:
            _warn_quarantined(hub.quarantined, storage.path)
        print(
            f"tienlen: {restored} table(s) restored from {folder}; "
            f"open http://{args.host}:{args.port}/#main",
            file=out,
            flush=True,
        )
        uvicorn.run(
            create_app(hub),
            host=args.host,
            port=args.port,
            log_level="warning",
            ws_max_size=64 * 1024,
            **limits.uvicorn_options(),
        )
    return 0


def _bot(args: argparse.Namespace, out: IO[str]) -> int:
    if not _available("websockets"):
        return 2
    import asyncio  # noqa: PLC0415
    import random  # noqa: PLC0415

    from tienlen.server.bots import RemoteBot  # noqa: PLC0415
    from tienlen.server.tables import BOTS  # noqa: PLC0415

    bot = RemoteBot(
        args.connect,
        args.table,
        args.seat,
        BOTS[args.player](),
        name=f"{args.player} bot",
        hands=args.hands,
        rng=random.Random(args.seed),
    )
    try:
        records = asyncio.run(bot.run())
    except (ConnectionError, TienLenError) as error:
        print(f"tienlen: error: {error}", file=sys.stderr)
        return 2
    print(f"tienlen: {len(records)} hand(s) played at seat {args.seat}", file=out)
    return 0
