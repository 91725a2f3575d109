"""Doctest collection: `tienlen.rl` needs the ``rl`` extra, which ``.[test]`` lacks."""

from importlib.util import find_spec

collect_ignore_glob = (
    []
    if all(find_spec(name) for name in ("numpy", "pettingzoo", "gymnasium", "rlcard"))
    else ["src/tienlen/rl/*"]
)
