"""Tables of four remote bots on one `tienlen serve` process, over real WebSockets.

Starts ``tienlen serve`` on a free loopback port (127.0.0.1 only), creates N tables
and seats four `RemoteBot` clients (greedy) at each, all in this process's asyncio
loop, lets them play for a fixed time, and reports moves per second, the move latency
(a bot sending its move until it sees the move in the next ``gameState``: p50, p99)
and the server's resident memory. Needs the ``server`` extra.

    .venv/bin/python benchmarks/bench_server.py                 # 1, 50 and 200 tables, 20 s each
    .venv/bin/python benchmarks/bench_server.py --tables 1 10 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
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

from websockets.asyncio.client import connect

from tienlen import GreedyPlayer
from tienlen.server.bots import RemoteBot

ROOT = Path(__file__).resolve().parents[1]


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


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
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


async def run(
    url: str, tables: int, seconds: float, pid: int
) -> tuple[list[float], float, float]:
    ids = []
    for _ in range(tables):  # a connection creates a few tables at most
        async with connect(url) as ws:
            await ws.send(json.dumps({"v": 1, "type": "create", "rules": "classic"}))
            ids.append(json.loads(await ws.recv())["table"])
    bots = [
        RemoteBot(url, table, seat, GreedyPlayer(), rng=random.Random(seat))
        for table in ids
        for seat in range(4)
    ]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not all(bot.latencies for bot in bots):  # noqa: ASYNC110  # polling the bots is the point
        await asyncio.sleep(0.2)  # until every bot is seated and has moved once
    before = [len(bot.latencies) for bot in bots]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
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
