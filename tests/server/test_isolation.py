"""The core never imports the server's dependencies."""

from __future__ import annotations

import subprocess
import sys


def test_core_imports_no_web_framework() -> None:
    """Importing tienlen, its CLI and the framework-free server modules loads no Starlette."""
    code = (
        "import sys, tienlen, tienlen.cli, tienlen.match, tienlen.records, tienlen.svg;"
        "import tienlen.server.tables, tienlen.server.protocol, tienlen.server.storage;"
        "import tienlen.server.cli;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'websockets')];"
        "sys.exit(repr(bad) if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603
