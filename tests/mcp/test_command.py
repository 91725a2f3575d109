"""``tienlen mcp`` on the command line: listed, and a clear error without the extra."""

from __future__ import annotations

import io

import pytest

from tienlen import cli


def test_the_command_is_listed() -> None:
    """``tienlen --help`` names ``mcp``."""
    out = io.StringIO()
    assert cli.main(["--help"], out=out) == 0
    assert "mcp" in out.getvalue()


def test_without_the_extra_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``mcp`` SDK: exit status 2 and the pip command, no traceback."""
    monkeypatch.setattr(cli, "find_spec", lambda _name: None)
    assert cli.main(["mcp"], out=io.StringIO()) == 2
    error = capsys.readouterr().err
    assert "pip install" in error
    assert "tienlen[mcp]" in error
    assert "Traceback" not in error


def test_import_tienlen_needs_no_sdk() -> None:
    """The package, and the tools in process, import without the ``mcp`` SDK."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    code = (
        "import sys; sys.modules['mcp'] = None; import tienlen, tienlen.mcp.tools, "
        "tienlen.cli; print('ok')"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr
