"""The preset registry: a sixth preset reaches every consumer; collisions are refused (issue 35 §5)."""

from __future__ import annotations

import importlib.util
import pickle
from collections.abc import Iterator

import attrs
import pytest

from tienlen import CLASSIC, POKER, RULESETS, VIETCONG, get_rules
from tienlen.errors import InvalidRulesError, UnknownVariantError
from tienlen.explain import explain_beats
from tienlen.rules.registry import (
    Preset,
    find_preset,
    presets,
    register_preset,
    unregister_preset,
)
from tienlen.scoring import StakeScorer


@attrs.frozen(kw_only=True)
class QuietStakes(StakeScorer):
    """A stake scorer that adds nothing: it answers its bounds as its base does."""


SIXTH = attrs.evolve(
    CLASSIC,
    name="spike-house",
    aliases=("spike", "Sixth Table"),
    twos_in_straights=False,
    custom_scorer=QuietStakes(),
)


@pytest.fixture
def sixth() -> Iterator[Preset]:
    """A sixth preset, registered for one test and removed after it."""
    preset = Preset(SIXTH, bomb_section="rules-12")
    register_preset(preset)
    try:
        yield preset
    finally:
        unregister_preset(SIXTH.name)


def test_sixth_preset_is_a_rule_set(sixth: Preset) -> None:
    """`RULESETS`, `get_rules` (name and aliases, normalised) and `presets` list it."""
    assert list(RULESETS)[-1] == "spike-house"
    assert RULESETS["spike-house"] is SIXTH
    assert (
        get_rules("spike")
        is get_rules("sixth_table")
        is get_rules("Spike House")
        is SIXTH
    )
    assert presets()[-1] is sixth


def test_sixth_preset_is_gone_after_cleanup() -> None:
    """The fixture leaves no trace: unregistering removes the name and aliases."""
    assert "spike-house" not in RULESETS
    with pytest.raises(UnknownVariantError):
        get_rules("spike")


def test_sixth_preset_cites_its_own_bomb_table(sixth: Preset) -> None:
    """`explain_beats` cites the section the preset declares, not the custom table's."""
    verdict = explain_beats("5s 5c 5d 5h", "2h", sixth.rules)
    assert verdict.rule == "rules-12"
    assert "RULES §12" in str(verdict)


@pytest.mark.usefixtures("sixth")
def test_sixth_preset_is_a_golden_table() -> None:
    """The golden generator records games of it at every size it seats."""
    from tests.golden.generate import preset_tables  # noqa: PLC0415

    tables = preset_tables()
    assert [(SIXTH, n) for n in (2, 3, 4)] == [t for t in tables if t[0] is SIXTH]
    assert tables[-1][0].name == "classic-two-decks"  # the unlisted ones stay last


@pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None, reason="needs the rl extra"
)
def test_sixth_preset_has_an_environment_id(sixth: Preset) -> None:
    """It has a versioned environment id."""
    from tienlen.rl.registration import ENV_IDS  # noqa: PLC0415

    assert ENV_IDS["tienlen/spike-house-v1"] == sixth.name


@pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="needs open_spiel"
)
@pytest.mark.usefixtures("sixth")
def test_sixth_preset_is_an_openspiel_game() -> None:
    """It becomes an OpenSpiel game whose bounds its scorer subclass answers; it pickles."""
    import pyspiel  # noqa: PLC0415

    from tienlen.rl import openspiel  # noqa: PLC0415

    openspiel.register_games()
    assert openspiel.GAME_NAMES["python_tienlen_spike_house"] == "spike-house"
    game = pyspiel.load_game("python_tienlen_spike_house", {"players": 3})
    assert type(game).__name__ == "SpikeHouseGame"
    assert game.rules is SIXTH
    assert (game.min_utility(), game.max_utility()) == (
        -2.0,
        2.0,
    )  # QuietStakes' bounds
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    again = pickle.loads(pickle.dumps(game))  # noqa: S301  # our own bytes
    assert again.rules is SIXTH
    assert str(again) == str(game)


@pytest.mark.skipif(
    importlib.util.find_spec("starlette") is None, reason="needs the server extra"
)
@pytest.mark.usefixtures("sixth")
def test_sixth_preset_is_a_browser_option() -> None:
    """The browser page offers it, and ``GET /api/presets`` lists it."""
    from starlette.testclient import TestClient  # noqa: PLC0415

    from tienlen.server.app import create_app  # noqa: PLC0415
    from tienlen.server.tables import Hub  # noqa: PLC0415

    with TestClient(create_app(Hub())) as http:
        page = http.get("/").text
        listed = http.get("/api/presets").json()
    assert "<option>spike-house</option>" in page
    assert page.count("<option>") == len(RULESETS)
    assert listed[-1] == {"name": "spike-house", "aliases": ["spike", "Sixth Table"]}


# -- refusals ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "aliases", "message"),
    [
        ("classic", (), "preset name 'classic' is already the name of 'classic'"),
        ("pagat", (), "preset name 'pagat' is already an alias of 'classic'"),
        ("house", ("Poker",), "alias 'Poker' is already the name of 'poker'"),
        ("house", ("VC",), "alias 'VC' is already an alias of 'vietcong'"),
        ("house", ("house",), "alias 'house' is already the name of 'house'"),
        ("house", ("ours", "Ours"), "alias 'Ours' is already an alias of 'house'"),
        ("House Rules", (), "is not canonical"),
    ],
)
def test_colliding_name_or_alias_is_refused(
    name: str, aliases: tuple[str, ...], message: str
) -> None:
    """A name or alias some preset answers to is refused, and nothing changes."""
    before = (dict(RULESETS), presets(listed_only=False))
    rules = attrs.evolve(CLASSIC, name=name, aliases=aliases)
    with pytest.raises(InvalidRulesError, match=message) as refused:
        register_preset(Preset(rules))
    assert (dict(RULESETS), presets(listed_only=False)) == before  # nothing changed
    assert find_preset("ours") is None
    assert get_rules("pagat") is CLASSIC
    assert get_rules("vc") is VIETCONG
    assert get_rules("poker") is POKER
    copy = pickle.loads(pickle.dumps(refused.value))  # noqa: S301  # our own bytes
    assert str(copy) == str(refused.value)


def test_preset_needs_base_rules_and_a_section_label() -> None:
    """A preset holds a `BaseRules` and a rules-reference label, or it is refused."""
    with pytest.raises(InvalidRulesError, match="must be a BaseRules"):
        Preset("classic")  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match="rules-reference label"):
        Preset(CLASSIC, bomb_section="§2.3")


def test_unregistering_an_unknown_preset_is_refused() -> None:
    """Only a canonical name unregisters; an alias is refused and changes nothing."""
    with pytest.raises(UnknownVariantError, match="no preset is called 'pagat'"):
        unregister_preset("pagat")  # an alias, not a name
    assert get_rules("pagat") is CLASSIC


def test_the_five_presets_cite_their_bomb_tables() -> None:
    """Each preset module declares the section `explain` cited from a hand list before."""
    sections = {p.name: p.bomb_section for p in presets()}
    assert sections == {
        "classic": "rules-2-3",
        "justus-pang": "rules-3-2",
        "kenneth-lo": "rules-4-3",
        "vietcong": "rules-5-2",
        "poker": "rules-6-3",
    }


def test_registering_the_same_preset_again_changes_nothing(sixth: Preset) -> None:
    """An equal preset again is a no-op (a module imported twice); another is refused."""
    register_preset(Preset(SIXTH, bomb_section="rules-12"))
    assert presets()[-1] is sixth
    with pytest.raises(InvalidRulesError, match="already the name of 'spike-house'"):
        register_preset(Preset(SIXTH, bomb_section="rules-2-3"))


def test_replacing_a_preset_keeps_its_place(sixth: Preset) -> None:
    """``replace=True`` swaps a preset in place; its old aliases no longer answer."""
    order = list(RULESETS)
    other = attrs.evolve(SIXTH, aliases=("spike-2",), hand_size=9)
    register_preset(Preset(other), replace=True)
    try:
        assert list(RULESETS) == order
        assert get_rules("spike-2") is other
        with pytest.raises(UnknownVariantError):
            get_rules("spike")
        with pytest.raises(InvalidRulesError, match="already an alias of 'vietcong'"):
            register_preset(Preset(attrs.evolve(other, aliases=("vc",))), replace=True)
        assert get_rules("spike-2") is other
    finally:
        register_preset(sixth, replace=True)
    assert get_rules("spike") is SIXTH


@pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="needs open_spiel"
)
def test_a_preset_game_class_never_shadows_the_module() -> None:
    """A preset called ``tien-len`` gets its own class, not the base `TienLenGame`."""
    from tienlen.rl import openspiel  # noqa: PLC0415
    from tienlen.rules import classic  # noqa: PLC0415

    base = openspiel.TienLenGame
    freed = attrs.evolve(CLASSIC, aliases=("pagat", "thirteen"))  # "tien-len" freed
    register_preset(Preset(freed, bomb_section="rules-2-3"), replace=True)
    try:
        register_preset(Preset(attrs.evolve(CLASSIC, name="tien-len", aliases=())))
        made = openspiel.game_class("tien-len")
        assert made.__name__ == "PresetTienLenGame"
        assert made.preset == "tien-len"
        assert openspiel.game_class("classic") is openspiel.ClassicGame
    finally:
        unregister_preset("tien-len")
        register_preset(classic.PRESET, replace=True)
    assert openspiel.TienLenGame is base
    assert get_rules("tien-len") is CLASSIC
