"""Build tienlen's native move generator (``src/tienlen/engine/_native.c``), opt in.

Compiles the C extension with the compiler Python was built with (``sysconfig``'s
``CC``) and puts it beside the package's engine, where `tienlen.engine.native` finds
it; ``tienlen.NATIVE`` then says ``True``. Without a compiler it says so and the
package stays pure. Nothing else builds it yet: ``pip install -e .`` stays pure.

    python tools/build_native.py                 # beside src/tienlen/engine
    python tools/build_native.py --out DIR       # into DIR instead
    python tools/build_native.py --sanitize      # with AddressSanitizer and UBSan
    python tools/build_native.py --remove        # back to pure

Exit status: 0 built (or removed), 1 when it could not compile.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "src" / "tienlen" / "engine"
SOURCE = ENGINE / "_native.c"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
SANITIZERS = ("-fsanitize=address,undefined", "-fno-sanitize-recover=undefined")
"""Flags of a sanitizer build: any report of undefined behaviour aborts."""


def compiler() -> list[str]:
    """The C compiler command: ``$CC``, else Python's own, else ``cc``."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shlex.split(cc)


def command(out: Path, *, sanitize: bool = False) -> list[str]:
    """The compile command writing the extension to *out*."""
    flags = ["-std=c11", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror"]
    flags += ["-O1", "-g", *SANITIZERS] if sanitize else ["-O2"]
    include = sysconfig.get_paths()["include"]
    return [*compiler(), *flags, f"-I{include}", str(SOURCE), "-o", str(out)]


def build(directory: Path = ENGINE, *, sanitize: bool = False) -> Path | None:
    """Compile into *directory*; the extension's path, or ``None`` (reported on stderr)."""
    out = directory / f"_native{SUFFIX}"
    partial = directory / f"_native{SUFFIX}.part"
    cmd = command(partial, sanitize=sanitize)
    if shutil.which(cmd[0]) is None:
        print(f"no C compiler ({cmd[0]}): tienlen stays pure", file=sys.stderr)
        return None
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)  # noqa: S603  # the compiler
    if result.returncode:
        print(result.stderr, file=sys.stderr)
        print(
            "the native generator did not compile: tienlen stays pure", file=sys.stderr
        )
        partial.unlink(missing_ok=True)
        return None
    partial.replace(out)  # a new file: a process that loaded the old one keeps it
    return out


def libasan() -> str:
    """The AddressSanitizer runtime the compiler links (for ``LD_PRELOAD``)."""
    result = subprocess.run(  # noqa: S603  # the compiler
        [*compiler(), "-print-file-name=libasan.so"],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Build, or remove with ``--remove``; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ENGINE, help="directory to write")
    parser.add_argument("--sanitize", action="store_true", help="ASan and UBSan build")
    parser.add_argument("--remove", action="store_true", help="delete the extension")
    args = parser.parse_args(argv)
    if args.remove:
        (args.out / f"_native{SUFFIX}").unlink(missing_ok=True)
        return 0
    out = build(args.out, sanitize=args.sanitize)
    if out is None:
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
