"""Tables of four remote bots on one `tienlen serve` process, over real WebSockets.

Starts ``tienlen serve`` on a free loopback port (127.0.0.1 only), creates N tables
and seats four `RemoteBot` clients (greedy) at each, all in this process's asyncio
loop, lets them play for a fixed time, and reports moves per second, the move latency
(a bot sending its move until it sees the move in the next ``gameState``: p50, p99)
and the server's resident memory. Needs the ``server`` extra. These runs lift the
per-address limits (every client is 127.0.0.1): they measure throughput.

``--flood`` measures the limits instead (issue 34): one table of four bots from
127.0.0.1, unloaded, then while one hostile client from 127.0.0.2 (another process)
holds ``--flood-connections`` connections, tries ``--flood-creates`` creates (the
first ones with a search bot, the rest plain), sits at every table it got and lets
its search bots think. Besides the victim's moves and latency it times a ``ping``
every 50 ms (the event loop's responsiveness) and one ``GET /api/tables``.

    .venv/bin/python benchmarks/bench_server.py                 # 1, 50 and 200 tables, 20 s each
    .venv/bin/python benchmarks/bench_server.py --tables 1 10 --seconds 5
    .venv/bin/python benchmarks/bench_server.py --flood --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from tienlen import GreedyPlayer
from tienlen.server.bots import RemoteBot

ROOT = Path(__file__).resolve().parents[1]
FLOOD_HOST = "127.0.0.2"
"""The hostile client's address: another loopback address than the victim's."""
UNLIMITED = (
    "--tables-per-address",
    "100000",
    "--creates-per-minute",
    "1e9",
    "--server-creates-per-minute",
    "1e9",
)
"""The throughput runs create every table from 127.0.0.1: no per-address limit."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mib(pid: int) -> float:
    """The resident memory of process *pid* in MiB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process *pid* so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    data: Path,
    port: int,
    options: tuple[str, ...] = UNLIMITED,
    src: Path = ROOT / "src",
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen(  # noqa: S603
        [
            sys.executable,
            "-m",
            "tienlen",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data),
            "--bot-delay",
            "0",
            *options,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    for _ in range(200):
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1),
        ):
            return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


async def pinger(url: str, rtts: list[float]) -> None:
    """Send a ``ping`` every 50 ms and note each round trip, until cancelled."""
    async with connect(url) as ws:
        while True:
            start = time.perf_counter()
            await ws.send('{"v":1,"type":"ping"}')
            await ws.recv()
            rtts.append(time.perf_counter() - start)
            await asyncio.sleep(0.05)


async def run(
    url: str,
    tables: int,
    seconds: float,
    pid: int,
    pings: list[float] | None = None,
) -> tuple[list[float], float, float]:
    ids = []
    for _ in range(tables):  # a connection creates a few tables at most
        async with connect(url) as ws:
            await ws.send(json.dumps({"v": 1, "type": "create", "rules": "classic"}))
            answer = json.loads(await ws.recv())
            if answer["type"] != "created":
                raise RefusedError(answer.get("code", answer["type"]))
            ids.append(answer["table"])
    bots = [
        RemoteBot(url, table, seat, GreedyPlayer(), rng=random.Random(seat))
        for table in ids
        for seat in range(4)
    ]
    tasks: list[asyncio.Task[object]] = [asyncio.create_task(bot.run()) for bot in bots]
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not all(bot.latencies for bot in bots):  # noqa: ASYNC110  # polling the bots is the point
        await asyncio.sleep(0.2)  # until every bot is seated and has moved once
    before = [len(bot.latencies) for bot in bots]
    if pings is not None:
        tasks.append(asyncio.create_task(pinger(url, pings)))
    start, cpu = time.perf_counter(), cpu_seconds(pid)
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(pid) - cpu
    window = sorted(
        x for bot, seen in zip(bots, before, strict=True) for x in bot.latencies[seen:]
    )
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return window, len(window) / elapsed, cpu / max(len(window), 1)


class RefusedError(Exception):
    """The server refused the benchmark's own table (the flood closed it)."""


def percentile(values: list[float], share: float) -> float:
    """The *share* percentile of *values* in ms (nan for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def flood(
    url: str, connections: int, creates: int, slow: int
) -> dict[str, object]:
    """The hostile client: its connections, creates and seats; what the server answered.

    Returns once the flood is in place; its sockets stay open (module global) until
    the process ends.
    """
    codes: collections.Counter[str] = collections.Counter()
    sockets: list[ClientConnection] = []
    start = time.perf_counter()
    for _ in range(connections):
        try:
            sockets.append(await connect(url, local_addr=(FLOOD_HOST, 0)))
        except (OSError, TimeoutError) as error:
            codes[f"connect: {type(error).__name__}"] += 1
    created: list[str] = []
    thinking: list[str] = []
    for attempt in range(creates):
        ws = sockets[attempt % len(sockets)]
        bots = ["ismcts", "greedy", "greedy", "greedy"] if attempt < slow else []
        message = {"v": 1, "type": "create", "bots": bots, "clock": 1}
        await ws.send(json.dumps(message))
        answer = json.loads(await ws.recv())
        codes[answer.get("code", answer["type"])] += 1
        if answer["type"] == "created":
            created.append(answer["table"])
            if bots:
                thinking.append(answer["table"])
    for table in thinking:  # a person sits there, never moving: the search bots play
        ws = await connect(url, local_addr=(FLOOD_HOST, 0))
        join = {"v": 1, "type": "join", "table": table, "seat": 3, "name": "x"}
        await ws.send(json.dumps(join))
        _FLOOD_TASKS.append(asyncio.create_task(_drain(ws)))
        sockets.append(ws)
    _FLOOD_SOCKETS.extend(sockets)
    return {
        "connections": len(sockets),
        "creates": creates,
        "answers": dict(codes),
        "tables": len(created),
        "search-bot tables": len(thinking),
        "seconds": round(time.perf_counter() - start, 2),
    }


_FLOOD_SOCKETS: list[ClientConnection] = []
_FLOOD_TASKS: list[asyncio.Task[None]] = []


def flood_process(
    url: str,
    connections: int,
    creates: int,
    slow: int,
    pipe: multiprocessing.connection.Connection,
) -> None:
    """Run `flood` in this process, send its report on *pipe*, hold on until told to stop."""

    async def hold() -> None:
        pipe.send(await flood(url, connections, creates, slow))
        while not pipe.poll():  # noqa: ASYNC110  # the parent's word to stop
            await asyncio.sleep(0.2)

    asyncio.run(hold())


def api_tables(port: int) -> tuple[int, float]:
    """One ``GET /api/tables``: its bytes and milliseconds."""
    start = time.perf_counter()
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/api/tables", timeout=10
    ) as answer:
        size = len(answer.read())
    return size, (time.perf_counter() - start) * 1000


def measure_flood(args: argparse.Namespace) -> None:
    """The victim's table unloaded, then under one client's flood (``--flood``)."""
    print(
        f"{'run':>9} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'ping p50':>8}"
        f" {'ping p99':>8} {'list B':>7} {'list ms':>7} {'tables':>6} {'CPU ms/move':>11}"
    )
    rows = {}
    for loaded in (False, True):
        with tempfile.TemporaryDirectory() as data:
            port = free_port()
            server = start_server(Path(data), port, (), args.src)
            url = f"ws://127.0.0.1:{port}/ws"
            context = multiprocessing.get_context("spawn")
            here, there = context.Pipe()
            flooder = None
            report: dict[str, object] = {}
            try:
                if loaded:
                    flooder = context.Process(
                        target=flood_process,
                        args=(
                            url,
                            args.flood_connections,
                            args.flood_creates,
                            args.flood_slow,
                            there,
                        ),
                    )
                    flooder.start()
                    if not here.poll(args.flood_wait):
                        raise RuntimeError("the flood did not start")
                    report = here.recv()
                    time.sleep(2)  # its search bots are thinking
                pings: list[float] = []
                try:
                    latencies, rate, cost = asyncio.run(
                        run(url, 1, args.seconds, server.pid, pings)
                    )
                except RefusedError as error:
                    print(f"the victim's create was refused: {error}")
                    latencies, rate, cost = [], 0.0, float("nan")
                size, listed = api_tables(port)
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/health", timeout=10
                ) as answer:
                    held = json.load(answer)["tables"]
            finally:
                if flooder is not None:
                    here.send("stop")
                    flooder.join(20)
                    if flooder.is_alive():
                        flooder.kill()
                server.terminate()  # its slow bots' workers stop too
                try:
                    server.wait(20)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(10)
        name = "flooded" if loaded else "unloaded"
        rows[name] = (rate, percentile(latencies, 0.99), percentile(pings, 0.99))
        print(
            f"{name:>9} {rate:>8.0f} {percentile(latencies, 0.5):>7.1f}"
            f" {percentile(latencies, 0.99):>7.1f} {percentile(pings, 0.5):>8.1f}"
            f" {percentile(pings, 0.99):>8.1f} {size:>7} {listed:>7.1f} {held:>6}"
            f" {cost * 1000:>11.2f}",
            flush=True,
        )
        if report:
            print(f"{'':>9} flood from {FLOOD_HOST}: {json.dumps(report)}", flush=True)
    (rate0, p990, ping0), (rate1, p991, ping1) = rows["unloaded"], rows["flooded"]
    print(
        f"flooded / unloaded: moves/s {rate1 / rate0:.2f}x, move p99 {p991 / p990:.2f}x,"
        f" ping p99 {ping1 / ping0:.2f}x (the target: moves/s at least 0.5x, p99 at"
        " most 2x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flood", action="store_true", help="measure the limits")
    parser.add_argument("--flood-connections", type=int, default=200)
    parser.add_argument("--flood-creates", type=int, default=1000)
    parser.add_argument(
        "--flood-wait",
        type=float,
        default=120,
        help="seconds the flood may take to start",
    )
    parser.add_argument(
        "--flood-slow", type=int, default=30, help="creates asking for an IS-MCTS seat"
    )
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the server's source (another commit's)",
    )
    args = parser.parse_args()
    if args.flood:
        measure_flood(args)
        return
    print(
        f"{'tables':>6} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'RSS MiB':>8}"
        f" {'server CPU ms/move':>19}"
    )
    for count in args.tables:
        with tempfile.TemporaryDirectory() as data:
            port = free_port()
            server = start_server(Path(data), port)
            try:
                latencies, rate, cost = asyncio.run(
                    run(f"ws://127.0.0.1:{port}/ws", count, args.seconds, server.pid)
                )
                memory = rss_mib(server.pid)
            finally:
                server.kill()
                server.wait(10)
        p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
        p99 = (
            latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
            if latencies
            else float("nan")
        )
        print(
            f"{count:>6} {rate:>9.0f} {p50:>8.1f} {p99:>8.1f} {memory:>8.1f}"
            f" {cost * 1000:>19.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
