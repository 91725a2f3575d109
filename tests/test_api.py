"""The public namespace: `__all__`, `__version__` and `dir()` (STYLE R50)."""

from __future__ import annotations

import re

import tienlen


def _isort_key(name: str) -> tuple[int, str]:
    """Ruff's RUF022 order: CONSTANTS, then CamelCase, then everything else."""
    if name.isupper():
        return (0, name)
    if name[0].isupper():
        return (1, name)
    return (2, name)


def test_all_is_sorted_and_unique() -> None:
    """STYLE R50: `__all__` lists each public name once, in isort-style order."""
    names = list(tienlen.__all__)
    assert len(set(names)) == len(names)
    assert sorted(names, key=_isort_key) == names


def test_every_name_in_all_resolves() -> None:
    """STYLE R50: every name in `__all__` is an attribute of the package."""
    missing = [name for name in tienlen.__all__ if not hasattr(tienlen, name)]
    assert missing == []


def test_core_names_are_public() -> None:
    """STYLE R50: the core API named in the docs is exported from the top level."""
    core = {
        "Card", "Rank", "Suit", "Hand", "DECK", "parse_cards", "Combo", "ComboKind",
        "Shape", "Plays", "RuleSet", "BaseRules", "Bomb", "Direction", "FirstLead",
        "GameEnd", "InstantWin", "Scoring", "CLASSIC", "JUSTUS_PANG", "KENNETH_LO",
        "VIETCONG", "POKER", "RULESETS", "classify", "beats", "legal_plays",
        "get_rules", "TienLenError", "InvalidCardError", "InvalidComboError",
        "InvalidRulesError", "UnknownVariantError", "__version__",
    }  # fmt: skip
    assert core - set(tienlen.__all__) == set()


def test_version_is_a_pep440_string() -> None:
    """STYLE R50: `__version__` is a version string."""
    assert isinstance(tienlen.__version__, str)
    assert re.fullmatch(
        r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", tienlen.__version__
    )


def test_dir_lists_exactly_the_public_names() -> None:
    """STYLE R50: `dir(tienlen)` shows the public names and nothing else (dir() sorts them)."""
    assert sorted(tienlen.__all__) == dir(tienlen)


def test_public_objects_live_in_the_package() -> None:
    """STYLE R50: every exported class and function is defined inside `tienlen`."""
    for name in tienlen.__all__:
        module = getattr(getattr(tienlen, name), "__module__", None)
        if isinstance(getattr(tienlen, name), type) or callable(getattr(tienlen, name)):
            assert module is not None
            assert module.startswith("tienlen"), (name, module)
