"""Start ``tienlen serve`` as a real process on a free loopback port, for tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    """A TCP port nobody listens on (loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(data: Path, port: int, *options: str) -> subprocess.Popen[bytes]:
    """``tienlen serve`` on *port* with *data*; returns once it answers."""
    env = {
        **os.environ,
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
    }
    process = subprocess.Popen(  # noqa: S603  # our own command line
        [
            sys.executable,
            "-m",
            "tienlen",
            "serve",
            "--port",
            str(port),
            "--data",
            str(data),
            *options,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1),
        ):
            return process
        if process.poll() is not None:
            raise RuntimeError(
                process.stderr.read().decode() if process.stderr else "exited"
            )
        time.sleep(0.1)
    process.kill()
    process.wait(10)
    raise RuntimeError("the server did not start")


@contextlib.contextmanager
def serving(data: Path, *options: str) -> Iterator[int]:
    """A running server's port; the process is stopped afterwards."""
    port = free_port()
    process = start(data, port, *options)
    try:
        yield port
    finally:
        process.kill()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()
