"""Doctest collection: the modules of extras that are not installed are skipped.

The README's test command installs them all (``.[test-all]``); with ``.[test]`` only
(the wheels' run in ``.ci/run``), these are left out.

`tienlen.rl` needs the ``rl`` extra, `tienlen.rl.openspiel` the ``openspiel``
extra besides (OpenSpiel and Shimmy); `tienlen.server.app` and
`tienlen.server.bots` need the ``server`` extra; `tienlen.mcp.server` the ``mcp``
extra.
"""

from importlib.util import find_spec

_RL = ("numpy", "pettingzoo", "gymnasium", "rlcard")
_OPENSPIEL = ("pyspiel", "shimmy")

collect_ignore_glob = (
    [] if all(find_spec(name) for name in _RL) else ["src/tienlen/rl/*"]
)
if not all(find_spec(name) for name in _OPENSPIEL):
    collect_ignore_glob.append("src/tienlen/rl/openspiel.py")
if not all(find_spec(name) for name in ("starlette", "uvicorn", "websockets")):
    collect_ignore_glob += [
        "src/tienlen/server/app.py",
        "src/tienlen/server/bots.py",
    ]
if find_spec("mcp") is None:  # the mcp extra: `tienlen mcp` (docs/agents.md)
    collect_ignore_glob.append("src/tienlen/mcp/server.py")
