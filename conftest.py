"""Doctest collection: `tienlen.rl` needs the ``rl`` extra, which ``.[test]`` lacks;
`tienlen.server.app` and `tienlen.server.bots` need the ``server`` extra."""

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
