"""Build hook: compile tienlen's integer core with mypyc into a platform wheel.

The hook is off by default, so ``pip install .``, ``python -m build`` and the sdist
stay pure Python. Turn it on for one build with either environment variable::

    HATCH_BUILD_HOOKS_ENABLE=1 pip install .
    HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 python -m build --wheel

It type-checks the whole package with mypy, compiles only `COMPILED_MODULES` (the
engine, `tienlen.engine`: plain classes, `GameState` among them, and functions over int
masks; the attrs classes of the object layer do not compile, so they stay pure), and builds the C extensions in
a temporary directory, never in the source tree: a stale ``.so`` left in ``src/`` would
otherwise ship in the next pure wheel. The extensions are added to the
wheel with ``force_include``, and the wheel is tagged for this interpreter and
platform. Editable installs stay pure.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = "tienlen"
COMPILED_MODULES = (
    # the public modules that define the engine's classes (issue 35: a public class is
    # defined in a public module)
    "combos.py",
    "actions.py",
    "game.py",
    "batch.py",
    "engine/bits.py",
    "engine/counts.py",
    "engine/kinds.py",
    "engine/shapes.py",
    "engine/shuffle.py",
    "engine/movegen.py",
    "engine/turns.py",
    "engine/rulebook.py",
    "engine/positions.py",
    "engine/keys.py",
    "engine/view.py",
    # reads what a bot returned through `Any` (compiled, a read typed `int` checks the
    # type) and sets its PlayerError's cause by hand (mypyc ignores `raise ... from`)
    "engine/referee.py",
    "engine/classification.py",
    "engine/greedy.py",
    # a table's own policy asked: reads its answers through `object`, sets the
    # InvalidRulesError's cause by hand (mypyc ignores `raise ... from`)
    "engine/answers.py",
)
"""The modules of `PACKAGE` that mypyc compiles: the four public modules that define the
engine's classes, and every module of ``engine/`` that compiles and behaves the same
compiled; the rest stay Python. ``tests/test_compiled.py``
checks that every engine module is here or in `PURE_ENGINE_MODULES`."""
PURE_ENGINE_MODULES: tuple[str, ...] = (
    "engine/interned.py",  # Interned is a dict subclass: mypyc compiles none
    # loads the optional C extension `_native` once, at import (issue 36): no loop
    "engine/native.py",
)
"""Modules of ``engine/`` left pure on purpose, each with its reason in a comment."""
NATIVE_EXTENSIONS: tuple[str, ...] = ("engine/_native",)
"""C extensions of ``engine/`` built apart, from their ``.c`` source, by
``tools/build_native.py`` (issue 36); never by this hook yet."""
EXTRA_PACKAGES = ("mcp", "rl", "server")
"""Subpackages that import an extra's dependencies (numpy…), absent from the build:
mypyc neither compiles nor type-checks them."""
EXTRA_IMPORTS = ("mcp", "starlette", "uvicorn", "websockets")
"""What the server and mcp extras' modules import, lazily from the core's command line: absent
from the build, so the build's type check takes them as unknown (`MYPY_CONFIG`)."""
MYPY_CONFIG = "[mypy]\n" + "".join(
    f"[mypy-{name}.*]\nignore_missing_imports = True\n" for name in EXTRA_IMPORTS
)
"""The build's mypy configuration, written beside the setup script."""
GROUP = "tienlen"
"""Name of the shared library mypyc builds for them (``tienlen__mypyc``)."""

SETUP_SCRIPT = """\
import sys
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup

from mypyc_docstrings import keep_docstrings

package = Path({package!r})
checked = sorted(
    str(path)
    for path in package.rglob("*.py")
    if path.relative_to(package).parts[0] not in {extras!r}
)
compiled = [str(package / name) for name in {modules!r}]
sys.argv[1:] = ["build_ext", "--build-lib", "lib", "--build-temp", "tmp"]
extensions = mypycify(
    checked, only_compile_paths=compiled, group_name={group!r}, opt_level="3"
)
keep_docstrings(Path("build"), compiled)
setup(name={package!r}, ext_modules=extensions)
"""


class MypycBuildHook(BuildHookInterface):
    """Compile `COMPILED_MODULES` with mypyc and put the extensions in the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the extensions and register them in *build_data*."""
        if self.target_name != "wheel" or version == "editable":
            return
        self._workdir = Path(tempfile.mkdtemp(prefix="tienlen-mypyc-"))
        source = Path(self.root) / "src" / PACKAGE
        shutil.copytree(
            source,
            self._workdir / PACKAGE,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
        (self._workdir / "mypy.ini").write_text(MYPY_CONFIG, encoding="utf-8")
        shutil.copy(Path(self.root) / "mypyc_docstrings.py", self._workdir)
        script = self._workdir / "setup_mypyc.py"
        script.write_text(
            SETUP_SCRIPT.format(
                package=PACKAGE,
                modules=COMPILED_MODULES,
                group=GROUP,
                extras=EXTRA_PACKAGES,
            ),
            encoding="utf-8",
        )
        process = subprocess.run(  # noqa: S603 - our own script, this interpreter
            [sys.executable, script.name],
            cwd=self._workdir,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        if process.returncode:
            msg = f"mypyc failed to compile the {PACKAGE} engine:\n{process.stdout}"
            raise RuntimeError(msg)
        built = self._workdir / "lib"
        extensions = [
            path for path in built.rglob("*") if path.suffix in {".so", ".pyd"}
        ]
        expected = {f"{PACKAGE}/{name[:-3]}" for name in COMPILED_MODULES}
        found = {
            path.relative_to(built).as_posix().split(".")[0] for path in extensions
        }
        if not expected <= found:
            msg = f"mypyc built {sorted(found)}, expected {sorted(expected)}"
            raise RuntimeError(msg)
        for path in extensions:
            build_data["force_include"][str(path)] = path.relative_to(built).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(  # the interface's signature
        self,
        version: str,  # noqa: ARG002
        build_data: dict[str, Any],  # noqa: ARG002
        artifact_path: str,  # noqa: ARG002
    ) -> None:
        """Remove the temporary build directory."""
        workdir = getattr(self, "_workdir", None)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
