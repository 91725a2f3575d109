"""Record format versions: self-contained rule sets (v2) and version-1 records forever.

A version-2 record holds every setting's value, so it replays the same game whatever a
later release does to the presets (issue 10 §4). A version-1 record names a preset and
the settings changed from it; the loader reads that preset as it was in version 1, from
the snapshot ``tienlen/presets-v1.json``, never from today's registry. The fixtures in
``tests/records/fixtures/`` were written by the version-1 writer (commit 8c152e1) with
the legal actions at every step, as the golden corpus pins them.
"""

from __future__ import annotations

import enum
import hashlib
import importlib.resources
import json
import pickle
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest

import tienlen
import tienlen.rules
from tests.golden.generate import step_digest
from tienlen import (
    CLASSIC,
    KENNETH_LO,
    POKER,
    RULESETS,
    BaseRules,
    ComboKind,
    Direction,
    GameState,
    Shape,
    get_rules,
)
from tienlen.records import (
    GameRecord,
    RecordError,
    dumps,
    loads,
    record,
    rules_from_json,
    rules_to_json,
)
from tienlen.rules.registry import (
    Preset,
    preset_named,
    register_preset,
    unregister_preset,
)

FIXTURES = Path(__file__).parent / "fixtures"
V1_FIXTURES = sorted(FIXTURES.glob("v1-*.json"))
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
"""Per fixture: the legal-action count at every step, their digest, the score items."""

SNAPSHOT = json.loads(
    importlib.resources.files("tienlen")
    .joinpath("presets-v1.json")
    .read_text(encoding="utf-8")
)["presets"]
"""What each preset meant in version 1, every setting encoded as in version 2."""

SETTINGS = [
    field.name
    for field in attrs.fields(BaseRules)
    if field.init
    and field.eq
    and field.name != "name"
    and not field.name.startswith("custom_")  # policies are code, never written
]
"""Every setting a version-2 record stores, in field order."""

CHANGED_SINCE_V1: dict[str, set[str]] = {}
"""Settings in which a preset deliberately differs from what it meant in version 1.

A release that changes a preset (a **Rules** entry in the changelog) lists the settings
here; the snapshot itself is never edited, so version-1 records keep their meaning.
"""

_evolve: Callable[..., BaseRules] = attrs.evolve  # settings named at run time


def replay_digest(game: GameRecord) -> dict[str, object]:
    """The golden-corpus view of a replay: legal-action counts and digest, score items."""
    state = game.start()
    digest = hashlib.sha256()
    counts = []
    for action in (*game.actions, None):
        count, listed = step_digest(state)
        counts.append(count)
        digest.update(listed.encode())
        digest.update(b"\n")
        if action is not None:
            state = state.apply(action)
    items = None if state.result is None else [str(i) for i in state.result.items]
    return {"counts": counts, "digest": digest.hexdigest(), "items": items}


@pytest.fixture
def registry() -> Iterator[Callable[[BaseRules], None]]:
    """A function that registers (or replaces) a preset by name for one test."""
    before: dict[str, Preset | None] = {}

    def register(rules: BaseRules) -> None:
        known = preset_named(rules.name)
        section = None if known is None else known.bomb_section
        register_preset(Preset(rules, bomb_section=section), replace=True)
        before.setdefault(rules.name, known)

    yield register
    for name, known in before.items():
        if known is None:
            unregister_preset(name)
        else:
            register_preset(known, replace=True)


# -- the version-1 snapshot ----------------------------------------------------------


def test_snapshot_holds_the_five_presets_with_the_same_settings() -> None:
    """The snapshot has the five presets of version 1, each with the same settings."""
    assert set(SNAPSHOT) == {
        "classic",
        "justus-pang",
        "kenneth-lo",
        "vietcong",
        "poker",
    }
    names = {frozenset(settings) for settings in SNAPSHOT.values()}
    assert len(names) == 1
    assert set(SETTINGS) >= next(iter(names))


@pytest.mark.parametrize("name", sorted(SNAPSHOT))
def test_snapshot_is_what_the_presets_meant_in_version_1(name: str) -> None:
    """A version-1 preset reads as today's preset, except the listed deliberate changes.

    Fails when a preset changes, or when a setting added later has a preset value
    other than its default (version-1 records then need that value in the snapshot's
    stead): list such settings in `CHANGED_SINCE_V1`, never edit the snapshot.
    """
    v1 = rules_from_json({"name": name, "base": name, "changes": {}}, version=1)
    today = RULESETS[name]
    differ = {s for s in SETTINGS if getattr(v1, s) != getattr(today, s)}
    assert differ == CHANGED_SINCE_V1.get(name, set())


def test_version_1_ignores_todays_registry(
    registry: Callable[[BaseRules], None],
) -> None:
    """A version-1 ``classic`` is the classic of version 1, whatever is registered now."""
    before = rules_from_json(
        {"name": "classic", "base": "classic", "changes": {}}, version=1
    )
    registry(attrs.evolve(CLASSIC, twos_in_straights=False, bombs=frozenset()))
    assert get_rules("classic").bombs == frozenset()  # the registry did change
    after = rules_from_json(
        {"name": "classic", "base": "classic", "changes": {}}, version=1
    )
    assert after == before == CLASSIC


def test_version_1_knows_only_its_settings() -> None:
    """A version-1 record may change a setting of version 1 (and ``aliases``), no other."""
    old = {"name": "kl", "base": "kenneth-lo", "changes": {"aliases": ["x"]}}
    assert rules_from_json(old, version=1).aliases == ("x",)
    v1_settings = set(SNAPSHOT["classic"])
    for setting in [*(s for s in SETTINGS if s not in v1_settings), "bogus"]:
        changed = {"name": "x", "base": "classic", "changes": {setting: True}}
        with pytest.raises(RecordError) as caught:
            rules_from_json(changed, version=1)
        assert caught.value.where == "rules.changes"


V1_TARGETED: list[tuple[str, dict[str, object], str]] = [
    ("unknown-base", {"base": "hearts"}, "rules.base"),
    ("base-not-a-name", {"base": ["classic"]}, "rules.base"),
    ("base-today-only", {"base": "Classic"}, "rules.base"),
    ("changes-not-object", {"changes": []}, "rules.changes"),
    ("unknown-setting", {"changes": {"bogus": 1}}, "rules.changes"),
    ("bool-type", {"changes": {"continuation": "no"}}, "rules.changes.continuation"),
    ("aliases-type", {"changes": {"aliases": [1]}}, "rules.changes.aliases[0]"),
    ("shape", {"changes": {"jump_in": ["pair:\uff12"]}}, "rules.changes.jump_in[0]"),
    ("two-values-length", {"changes": {"two_values": [1]}}, "rules.changes.two_values"),
    (
        "contradiction",
        {"changes": {"min_consecutive_pairs": 5, "max_consecutive_pairs": 4}},
        "rules.changes",
    ),
    ("version-2-shape", {"settings": {}}, "rules"),
]


@pytest.mark.parametrize(
    ("change", "where"),
    [pytest.param(change, where, id=name) for name, change, where in V1_TARGETED],
)
def test_version_1_rule_sets_are_checked_as_strictly(
    change: dict[str, object], where: str
) -> None:
    """A bad version-1 rule set is refused at the place it is wrong."""
    data = json.loads((FIXTURES / "v1-poker-house-4p.json").read_text("utf-8"))
    data["rules"].update(change)
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(data))
    assert caught.value.where == where, str(caught.value)


# -- the version-1 fixtures ------------------------------------------------------------


def test_fixtures_are_version_1_records_of_several_rule_sets() -> None:
    """The fixtures are version-1 records: presets, house rules, finished or not."""
    assert len(V1_FIXTURES) == len(EXPECTED) >= 6
    bases = set()
    for path in V1_FIXTURES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["version"] == 1
        bases.add(data["rules"]["base"])
    assert bases == {"classic", "justus-pang", "kenneth-lo", "vietcong", "poker"}


@pytest.mark.parametrize("path", V1_FIXTURES, ids=lambda path: path.stem)
def test_version_1_fixture_replays_as_recorded(path: Path) -> None:
    """Each version-1 fixture loads and replays with the recorded legal actions and scores."""
    game = loads(path.read_text(encoding="utf-8"))
    assert replay_digest(game) == EXPECTED[path.name]


@pytest.mark.parametrize("path", V1_FIXTURES, ids=lambda path: path.stem)
def test_version_1_fixture_is_rewritten_as_version_2(path: Path) -> None:
    """A version-1 record written again is a version-2 record of the very same game."""
    game = loads(path.read_text(encoding="utf-8"))
    text = dumps(game)
    assert json.loads(text)["version"] == 2
    again = loads(text)
    assert again == game
    assert again.final == game.final
    assert replay_digest(again) == EXPECTED[path.name]


@pytest.mark.parametrize("path", V1_FIXTURES, ids=lambda path: path.stem)
def test_version_1_fixture_replays_after_its_preset_changes(
    path: Path, registry: Callable[[BaseRules], None]
) -> None:
    """Changing every preset today does not change what a version-1 record replays."""
    for rules in tuple(RULESETS.values()):
        registry(attrs.evolve(rules, hand_size=7, direction=Direction.COUNTERCLOCKWISE))
    game = loads(path.read_text(encoding="utf-8"))
    assert replay_digest(game) == EXPECTED[path.name]


def test_version_1_house_rule_is_its_preset_plus_the_changes() -> None:
    """The Poker house-rule fixture reads as Poker of version 1 with its four changes."""
    game = loads((FIXTURES / "v1-poker-house-4p.json").read_text(encoding="utf-8"))
    data = json.loads((FIXTURES / "v1-poker-house-4p.json").read_text("utf-8"))
    changes = data["rules"]["changes"]
    assert set(changes) == {
        "max_consecutive_pairs",
        "two_values",
        "frozen_penalty",
        "instant_wins",
    }
    assert game.rules.name == "our-table"
    assert game.rules.frozen_penalty == 6
    assert game.rules.two_values == (1, 1, 2, 2)
    for setting in SETTINGS:
        if setting not in changes:
            assert getattr(game.rules, setting) == getattr(POKER, setting), setting


# -- version 2: self-contained --------------------------------------------------------


def test_record_written_today_replays_after_its_preset_changes(
    registry: Callable[[BaseRules], None],
) -> None:
    """A record of a registered preset replays the same game after the preset changes.

    A throwaway preset is registered, a game played under it and written; then the
    registry entry changes (other hand size, no 2s in straights, no bombs). The record
    still reads the rules it was played under and replays to the same end.
    """
    throwaway = attrs.evolve(CLASSIC, name="throwaway", aliases=(), hand_size=9)
    registry(throwaway)
    state = GameState.deal(get_rules("throwaway"), 3, seed=7)
    rng = random.Random(7)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    text = dumps(record(state, seed=7))
    registry(
        attrs.evolve(throwaway, hand_size=5, twos_in_straights=False, bombs=frozenset())
    )
    assert get_rules("throwaway").hand_size == 5  # the registry did change
    game = loads(text)
    assert game.rules == throwaway
    assert game.final == state
    assert dumps(game) == text


def test_rules_are_written_without_the_registry(
    registry: Callable[[BaseRules], None],
) -> None:
    """What `rules_to_json` writes depends on the rule set alone, not on the presets."""
    before = rules_to_json(KENNETH_LO)
    registry(attrs.evolve(KENNETH_LO, hand_size=4))
    assert rules_to_json(KENNETH_LO) == before


def field_values(setting: str) -> list[object]:
    """Values of *setting* to try: the presets', the default, and values derived by type.

    Enums give every member, sets of enum members all members and fewer, so a member
    or setting added later is tried too.
    """
    values: list[object] = [getattr(preset, setting) for preset in RULESETS.values()]
    values.append(getattr(BaseRules(name="defaults"), setting))
    derived: list[object] = []
    for value in values:
        if isinstance(value, bool):
            derived.append(not value)
        elif isinstance(value, int):
            derived += [value + 1, max(value - 1, 1)]
        elif isinstance(value, enum.Enum):
            derived += list(type(value))
        elif isinstance(value, frozenset):
            members = {type(item) for item in value if isinstance(item, enum.Enum)}
            derived += [frozenset(m for cls in members for m in cls), frozenset()]
            derived += [value - {item} for item in value]
        elif isinstance(value, tuple):
            derived += [value[::-1], value[:-1], (*value, *value[:1])]
    distinct: list[object] = []
    for value in [*values[:2], *derived, *values[2:]]:
        if value not in distinct:
            distinct.append(value)
    return distinct[:10]


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_setting_round_trips_through_the_codec(setting: str) -> None:
    """Every `BaseRules` setting, whatever its type, is written and read back unchanged.

    The values are derived from the field's values in the presets by type, so a setting
    added later is covered without new test code.
    """
    written = set()
    for base in (CLASSIC, POKER):
        for value in field_values(setting):
            try:
                rules = _evolve(base, name="mixed", **{setting: value})
            except (tienlen.InvalidRulesError, TypeError, ValueError):
                continue  # contradicts another setting of this base
            data = json.loads(json.dumps(rules_to_json(rules)))
            decoded = rules_from_json(data)
            assert decoded == rules
            assert getattr(decoded, setting) == getattr(rules, setting)
            written.add(json.dumps(data["settings"].get(setting)))  # WRITTEN_WHEN_SET
    assert written


def test_a_setting_with_no_json_form_is_refused_naming_it() -> None:
    """A value with no JSON form (a callable, a float) is refused, naming the setting."""
    rules = attrs.evolve(POKER, name="odd")
    object.__setattr__(rules, "place_points", (4, 2, len, 0))  # forged past validation
    with pytest.raises(RecordError) as caught:
        rules_to_json(rules)
    assert caught.value.where == "rules.settings.place_points[2]"
    assert "builtin_function_or_method" in str(caught.value)
    object.__setattr__(rules, "place_points", (4, 2, 1, 0))
    object.__setattr__(rules, "hand_size", 13.0)
    with pytest.raises(RecordError) as caught:
        rules_to_json(rules)
    assert caught.value.where == "rules.settings.hand_size"


def test_a_rule_set_subclass_is_refused() -> None:
    """A `BaseRules` subclass may change what its settings mean: it cannot be written."""

    @attrs.frozen(kw_only=True)
    class Quirky(BaseRules):
        def is_leadable(self, kind: ComboKind) -> bool:
            return kind is ComboKind.SINGLE

    quirky = Quirky(name="quirky")
    with pytest.raises(RecordError, match="class Quirky") as caught:
        dumps(record(GameState.deal(quirky, 2, seed=1)))
    assert caught.value.where == "rules"


def test_missing_setting_takes_its_default() -> None:
    """A version-2 setting left out reads as the `BaseRules` default."""
    data = rules_to_json(attrs.evolve(CLASSIC, name="short", hand_size=13))
    settings = data["settings"]
    assert isinstance(settings, dict)
    del settings["hand_size"]
    assert rules_from_json(data).hand_size == 13


def test_equal_rule_sets_are_read_once() -> None:
    """Reading equal settings twice gives the same (immutable) rule set object."""
    data = rules_to_json(attrs.evolve(POKER, name="cached", frozen_penalty=3))
    assert rules_from_json(data) is rules_from_json(json.loads(json.dumps(data)))


def test_rules_from_json_knows_two_versions() -> None:
    """`rules_from_json` reads rule sets of versions 1 and 2 only."""
    with pytest.raises(RecordError, match="version 3"):
        rules_from_json(rules_to_json(CLASSIC), version=3)


def test_record_error_pickles_to_an_equal_error() -> None:
    """A `RecordError` survives pickling (process pools): same type, place and message."""
    error = RecordError("actions[3]", "x" * 10_000)
    error.add_note("from worker 2")
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301  # our own bytes
    assert type(copy) is RecordError
    assert (copy.where, copy.problem, copy.args) == (
        error.where,
        error.problem,
        error.args,
    )
    assert str(copy) == str(error)
    assert copy.__notes__ == ["from worker 2"]
    assert len(str(copy)) < 400  # the problem is cut


def test_shape_text_is_ascii_only() -> None:
    """A shape is a kind name and ASCII digits; look-alikes are refused (issue 14 item 9)."""
    data = rules_to_json(POKER)
    settings = data["settings"]
    assert isinstance(settings, dict)
    assert settings["jump_in"] == ["consecutive_pairs:8"]
    for text in (
        "consecutive_pairs:\uff18",
        "consecutive_pairs:+8",
        "consecutive_pairs:8 ",
    ):
        settings["jump_in"] = [text]
        with pytest.raises(RecordError) as caught:
            rules_from_json(data)
        assert caught.value.where == "rules.settings.jump_in[0]"
    settings["jump_in"] = ["consecutive_pairs:8"]
    assert rules_from_json(data).jump_in == {Shape.of(ComboKind.CONSECUTIVE_PAIRS, 4)}
