"""Versioned environment ids, one per preset: ``tienlen/classic-v1`` … (issue 24 §4).

Each id names a preset's rules, its rewards and its observations. **An id's version
is bumped whenever any of the three changes**, so a result reported against an id
reproduces with it: ``tienlen/classic-v1`` stays what it is, and a change makes
``tienlen/classic-v2``.

The same ids serve both libraries:

- Gymnasium: importing `tienlen.rl.gymnasium` registers every id, and
  ``gymnasium.make("tienlen/poker-v1", players=3)`` gives the single-agent
  `tienlen.rl.gymnasium.SoloEnv` of that preset (one learner seat against bots).
- PettingZoo has no registry: `make_env` gives the multi-agent AEC environment,
  ``tienlen.rl.make_env("tienlen/poker-v1", players=3)``, in PettingZoo's
  order-enforcing wrapper, named like PettingZoo's own environments
  (``metadata["name"] == "tienlen_poker_v1"``). Card games are turn-based, so there
  is no parallel form (PettingZoo's classic games have none either).

Keyword arguments go to the environment (``players``, ``reward``, ``history``,
``render_mode``; ``seat``, ``opponents`` and ``illegal`` for Gymnasium), all but
``rules``: the id fixes the rule set. House rules use the classes directly.

Example:
    >>> from tienlen.rl.registration import ENV_IDS, make_env
    >>> list(ENV_IDS)
    ['tienlen/classic-v1', 'tienlen/justus-pang-v1', 'tienlen/kenneth-lo-v1', 'tienlen/vietcong-v1', 'tienlen/poker-v1']
    >>> game = make_env("tienlen/justus-pang-v1", players=3)
    >>> game.metadata["name"], game.unwrapped.rules.name, len(game.possible_agents)
    ('tienlen_justus_pang_v1', 'justus-pang', 3)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from tienlen.errors import InvalidArgumentError
from tienlen.rules import RULESETS

if TYPE_CHECKING:
    from pettingzoo import AECEnv

__all__ = [
    "ENV_IDS",
    "VERSION",
    "env_name",
    "make_env",
    "preset_of",
    "refuse_rules",
    "register_gymnasium",
]

VERSION: Final = 1
"""The version of every id: bumped when a preset's rules, rewards or observations change."""


class _EnvIds(Mapping[str, str]):
    """Each id and the preset it plays, read from `tienlen.RULESETS` at each use."""

    def _ids(self) -> dict[str, str]:
        return {f"tienlen/{preset}-v{VERSION}": preset for preset in RULESETS}

    def __getitem__(self, env_id: str) -> str:
        return self._ids()[env_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(RULESETS)

    def __repr__(self) -> str:
        return repr(self._ids())


ENV_IDS: Final[Mapping[str, str]] = _EnvIds()
"""Each id and the preset it plays, in the order of `tienlen.RULESETS` (a live view:
a preset registered later has an id; `register_gymnasium` registers it)."""


def env_name(env_id: str) -> str:
    """The PettingZoo-style name of *env_id*: ``tienlen_<preset>_v<N>``.

    Raises:
        ValueError: no such id.

    Example:
        >>> env_name("tienlen/kenneth-lo-v1")
        'tienlen_kenneth_lo_v1'
    """
    preset = preset_of(env_id)
    return f"tienlen_{preset.replace('-', '_')}_v{VERSION}"


def make_env(env_id: str, **kwargs: Any) -> AECEnv:
    """The PettingZoo AEC environment of *env_id* (``tienlen.rl.pettingzoo.env``).

    Raises:
        ValueError: no such id.
        TypeError: a ``rules`` argument (the id fixes the rules).

    Example:
        >>> game = make_env("tienlen/poker-v1", players=4, reward="win")
        >>> game.reset(seed=3)
        >>> game.unwrapped.reward, game.unwrapped.final_state.rules.name
        ('win', 'poker')
    """
    preset = preset_of(env_id)
    refuse_rules(env_id, kwargs)
    from tienlen.rl.pettingzoo import env  # noqa: PLC0415  # needs the rl extra

    made = env(rules=RULESETS[preset], **kwargs)
    made.unwrapped.metadata = {**made.unwrapped.metadata, "name": env_name(env_id)}
    return made


_SOLO_ENV: Final = "tienlen.rl.gymnasium:solo_env"
"""The Gymnasium entry point of every id, loaded by Gymnasium when one is made."""


def register_gymnasium() -> None:
    """Register every id with Gymnasium (`tienlen.rl.gymnasium` does it on import).

    Registering again changes nothing.

    Example:
        >>> import gymnasium
        >>> register_gymnasium()
        >>> spec = gymnasium.spec("tienlen/classic-v1")
        >>> spec.namespace, spec.name, spec.version
        ('tienlen', 'classic', 1)
    """
    import gymnasium  # noqa: PLC0415  # needs the rl extra

    for env_id in ENV_IDS:
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_SOLO_ENV, kwargs={"env_id": env_id})


def preset_of(env_id: str) -> str:
    """The name of the preset whose rules *env_id* plays.

    Raises:
        ValueError: *env_id* is no id of `ENV_IDS` (an `InvalidArgumentError`).

    Example:
        >>> preset_of("tienlen/kenneth-lo-v1")
        'kenneth-lo'
    """
    given: object = env_id  # checked at run time: callers may pass anything
    preset = ENV_IDS.get(given) if isinstance(given, str) else None
    if preset is None:
        msg = f"unknown environment id {env_id!r}; known: {', '.join(ENV_IDS)}"
        raise InvalidArgumentError(msg)
    return preset


def refuse_rules(env_id: str, kwargs: Mapping[str, object]) -> None:
    """Refuse a ``rules`` keyword: an id fixes its rule set.

    Raises:
        TypeError: *kwargs* holds ``rules``.

    Example:
        >>> refuse_rules("tienlen/classic-v1", {"players": 3})
        >>> refuse_rules("tienlen/classic-v1", {"rules": None})
        Traceback (most recent call last):
        ...
        TypeError: tienlen/classic-v1 fixes its rules; for other rules use the environment classes (tienlen.rl.gymnasium.SoloEnv, tienlen.rl.pettingzoo.env)
    """
    if "rules" in kwargs:
        msg = (
            f"{env_id} fixes its rules; for other rules use the environment "
            "classes (tienlen.rl.gymnasium.SoloEnv, tienlen.rl.pettingzoo.env)"
        )
        raise TypeError(msg)
