"""The preset registry: every named rule set, its aliases and what it cites.

A preset is one module declaring a `Preset` and one line in `tienlen.rules` that
registers it. Everything that lists presets reads this registry: `RULESETS` and
`get_rules`, `tienlen.explain`'s citations, the OpenSpiel games, the Gymnasium ids,
the browser page's options and the golden corpus.

A name or alias answers case-insensitively, with ``_`` and spaces read as ``-``;
`register_preset` refuses one that another preset already answers to.

Example:
    >>> import attrs
    >>> from tienlen import CLASSIC, RULESETS, get_rules
    >>> from tienlen.rules.registry import Preset, register_preset, unregister_preset
    >>> house = attrs.evolve(CLASSIC, name="house", aliases=("our-table",))
    >>> register_preset(Preset(house, bomb_section="rules-2-3"))
    >>> get_rules("Our Table") is house, list(RULESETS)[-1]
    (True, 'house')
    >>> register_preset(Preset(attrs.evolve(CLASSIC, name="pagat")))
    Traceback (most recent call last):
    ...
    tienlen.errors.InvalidRulesError: preset name 'pagat' is already an alias of 'classic'
    >>> unregister_preset("house")
    >>> "house" in RULESETS
    False
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from tienlen.errors import InvalidRulesError, UnknownVariantError
from tienlen.rules.base import BaseRules

__all__ = [
    "LISTED",
    "Preset",
    "find_preset",
    "normalise_name",
    "preset_named",
    "presets",
    "register_preset",
    "unregister_preset",
]


def normalise_name(name: str) -> str:
    """*name* as presets are looked up: case-folded, ``_`` and spaces as ``-``.

    Example:
        >>> normalise_name(" Justus_Pang ")
        'justus-pang'
    """
    return name.strip().casefold().replace("_", "-").replace(" ", "-")


def _check_rules(
    _preset: Preset, _attribute: attrs.Attribute[BaseRules], rules: object
) -> None:
    if not isinstance(rules, BaseRules):
        msg = f"a preset's rules must be a BaseRules, not {type(rules).__name__}"
        raise InvalidRulesError(msg)


def _check_section(
    _preset: Preset, _attribute: attrs.Attribute[str | None], section: object
) -> None:
    if section is not None and (
        not isinstance(section, str) or not section.startswith("rules-")
    ):
        msg = f"bomb_section must be a rules-reference label such as 'rules-2-3', not {section!r}"
        raise InvalidRulesError(msg)


@attrs.frozen
class Preset:
    """A named rule set and what the rest of the library needs to know of it.

    Example:
        >>> from tienlen import VIETCONG
        >>> from tienlen.rules.registry import Preset
        >>> preset = Preset(VIETCONG, bomb_section="rules-5-2")
        >>> preset.name, preset.aliases
        ('vietcong', ('viet-cong', 'vc', 'killer'))
    """

    rules: BaseRules = attrs.field(validator=_check_rules)
    """The rule set; its ``name`` and ``aliases`` are the preset's."""
    bomb_section: str | None = attrs.field(default=None, validator=_check_section)
    """The rules-reference label of its bomb table (``"rules-2-3"``), which
    `tienlen.explain` cites; ``None`` cites the custom-table section (RULES §11)."""
    listed: bool = True
    """Listed in `RULESETS` and so given an OpenSpiel game, a Gymnasium id, a place in
    the browser's options and golden games; an unlisted preset (`CLASSIC_TWO_DECKS`)
    only answers `get_rules`."""

    @property
    def name(self) -> str:
        """The canonical name (the rule set's).

        Example:
            >>> from tienlen import POKER
            >>> from tienlen.rules.registry import Preset
            >>> Preset(POKER).name
            'poker'
        """
        return self.rules.name

    @property
    def aliases(self) -> tuple[str, ...]:
        """The other names it answers to (the rule set's).

        Example:
            >>> from tienlen import JUSTUS_PANG
            >>> from tienlen.rules.registry import Preset
            >>> Preset(JUSTUS_PANG).aliases
            ('justus', 'jp')
        """
        return self.rules.aliases


_LOCK: Final = threading.Lock()
_PRESETS: Final[dict[str, Preset]] = {}
"""Every preset by canonical name, in the order registered."""
_ANSWERS: Final[dict[str, str]] = {}
"""Every normalised name and alias, and the preset it answers for."""
_LISTED: Final[dict[str, BaseRules]] = {}

LISTED: Final[Mapping[str, BaseRules]] = MappingProxyType(_LISTED)
"""The listed presets' rule sets by name, in the order registered (a live view:
`tienlen.RULESETS` is this mapping)."""


def register_preset(preset: Preset, *, replace: bool = False) -> None:
    """Add *preset*: `get_rules` and every consumer of the registry then know it.

    Registering an equal preset (same rules, aliases and section) again changes nothing.
    With *replace*, a preset of the same name is replaced where it stands (a test that
    changes a preset puts the old one back so).

    Raises:
        InvalidRulesError: its name is not canonical (lower-case kebab), or its name
            or an alias is one another preset (or itself) already answers to (the
            preset it replaces aside); the registry is then unchanged.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC
        >>> from tienlen.rules.registry import Preset, register_preset
        >>> register_preset(Preset(attrs.evolve(CLASSIC, name="house", aliases=("VC",))))
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidRulesError: preset 'house': alias 'VC' is already an alias of 'vietcong'
    """
    if not isinstance(preset, Preset):
        msg = f"expected a Preset, not {type(preset).__name__}"  # type: ignore[unreachable]
        raise InvalidRulesError(msg)
    name = preset.name
    if normalise_name(name) != name or not name:
        msg = f"preset name {name!r} is not canonical (lower-case, '-' between words)"
        raise InvalidRulesError(msg)
    with _LOCK:
        known = _PRESETS.get(name)
        if known == preset and known.aliases == preset.aliases:
            return  # the same preset again (a module imported twice)
        ignored = name if replace and known is not None else None
        answers = _answers_of(preset, ignored)
        if ignored is not None:
            for answer in [key for key, owner in _ANSWERS.items() if owner == name]:
                del _ANSWERS[answer]
            if not preset.listed:
                _LISTED.pop(name, None)
        _PRESETS[name] = preset
        _ANSWERS.update(dict.fromkeys(answers, name))
        if preset.listed:
            _LISTED[name] = preset.rules


def _answers_of(preset: Preset, ignored: str | None) -> list[str]:
    """The normalised names *preset* answers to, refused if any is taken (but by *ignored*)."""
    answers: list[str] = []
    for index, given in enumerate((preset.name, *preset.aliases)):
        wanted = normalise_name(given)
        what = "preset name" if index == 0 else f"preset {preset.name!r}: alias"
        owner = _ANSWERS.get(wanted)
        if owner is not None and owner == ignored:
            owner = None
        if owner is None and wanted in answers:
            owner = preset.name
        if owner is not None:
            role = "the name" if wanted == owner else "an alias"
            msg = f"{what} {given!r} is already {role} of {owner!r}"
            raise InvalidRulesError(msg)
        answers.append(wanted)
    return answers


def unregister_preset(name: str) -> None:
    """Remove the preset called *name* (its canonical name), as a test cleans up.

    Raises:
        UnknownVariantError: no preset has that name.

    Example:
        >>> import attrs
        >>> from tienlen import CLASSIC, get_rules
        >>> from tienlen.rules.registry import Preset, register_preset, unregister_preset
        >>> register_preset(Preset(attrs.evolve(CLASSIC, name="brief", aliases=())))
        >>> unregister_preset("brief")
        >>> get_rules("brief")
        Traceback (most recent call last):
        ...
        tienlen.errors.UnknownVariantError: unknown variant: 'brief' (known: classic, justus-pang, kenneth-lo, vietcong, poker, classic-two-decks)
    """
    with _LOCK:
        preset = _PRESETS.pop(name, None)
        if preset is None:
            msg = f"no preset is called {name!r}"
            raise UnknownVariantError(msg)
        for answer in [key for key, owner in _ANSWERS.items() if owner == name]:
            del _ANSWERS[answer]
        _LISTED.pop(name, None)


def presets(*, listed_only: bool = True) -> tuple[Preset, ...]:
    """The presets in the order registered (the listed ones unless *listed_only* is false).

    Example:
        >>> from tienlen.rules.registry import presets
        >>> [preset.name for preset in presets()]
        ['classic', 'justus-pang', 'kenneth-lo', 'vietcong', 'poker']
        >>> presets(listed_only=False)[-1].name
        'classic-two-decks'
    """
    return tuple(p for p in _PRESETS.values() if p.listed or not listed_only)


def find_preset(name: str) -> Preset | None:
    """The preset that *name* or its normalised form names or aliases, or ``None``.

    Example:
        >>> from tienlen.rules.registry import find_preset
        >>> find_preset("KL").name, find_preset("nobody")
        ('kenneth-lo', None)
    """
    owner = _ANSWERS.get(normalise_name(name))
    return None if owner is None else _PRESETS.get(owner)


def preset_named(name: str) -> Preset | None:
    """The preset whose canonical name is exactly *name*, or ``None`` (no aliases).

    Example:
        >>> from tienlen.rules.registry import preset_named
        >>> preset_named("poker").bomb_section, preset_named("pk")
        ('rules-6-3', None)
    """
    return _PRESETS.get(name)
