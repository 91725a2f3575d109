"""Doctest collection: the modules of extras that ``.[test]`` lacks are skipped.

`tienlen.rl` needs the ``rl`` extra; `tienlen.server.app` and `tienlen.server.bots`
need the ``server`` extra.
"""

from importlib.util import find_spec

collect_ignore_glob = (
    []
    if all(find_spec(name) for name in ("numpy", "pettingzoo", "gymnasium", "rlcard"))
    else ["src/tienlen/rl/*"]
)
if not all(find_spec(name) for name in ("starlette", "uvicorn", "websockets")):
    collect_ignore_glob += [
        "src/tienlen/server/app.py",
        "src/tienlen/server/bots.py",
    ]
