"""Doctest collection: `tienlen.rl` needs the ``rl`` extra, which ``.[test]`` lacks.

`tienlen.rl.openspiel` needs the ``openspiel`` extra besides (OpenSpiel and Shimmy).
"""

from importlib.util import find_spec

_RL = ("numpy", "pettingzoo", "gymnasium", "rlcard")
_OPENSPIEL = ("pyspiel", "shimmy")

collect_ignore_glob = (
    [] if all(find_spec(name) for name in _RL) else ["src/tienlen/rl/*"]
)
if not all(find_spec(name) for name in _OPENSPIEL):
    collect_ignore_glob.append("src/tienlen/rl/openspiel.py")
