"""Game records (`tienlen.records`): round trips, the documented JSON shape, a fuzzed loader.

Records are written for every preset and for generated house rules, from random seeded
games (finished or not) and instant wins, and must load back to the very same game.
The loader treats records as untrusted input: whatever is done to a valid record
(fields dropped, types changed, hands swapped, a card duplicated, an action tampered
with, the text truncated, random JSON, unknown or contradictory rule settings), it
raises `RecordError` naming the place, or, when the mutation happens to leave a valid
record, returns one that replays in full. It never raises anything else.
"""

from __future__ import annotations

import copy
import io
import json
import random
from collections.abc import Callable
from typing import TypeAlias, TypeVar

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.strategies import valid_shapes
from tienlen import (
    CLASSIC,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Bomb,
    ComboKind,
    Direction,
    FirstLead,
    GameEnd,
    GameState,
    InstantWin,
    Play,
    Rank,
    Scoring,
    Shape,
    TienLenError,
)
from tienlen.records import (
    FORMAT,
    VERSION,
    GameRecord,
    RecordError,
    dump,
    dumps,
    load,
    loads,
    read_setting,
    record,
    rules_from_json,
    rules_to_json,
)
from tienlen.rules import two_decks

PRESETS: tuple[BaseRules, ...] = tuple(RULESETS.values())
PRESET_IDS = [rules.name for rules in PRESETS]
FIELDS = [
    "format",
    "version",
    "rules",
    "players",
    "seed",
    "dealer",
    "first_game",
    "leader",
    "after_instant_win",
    "hands",
    "actions",
    "result",
]
"""The top-level fields of a record (versions 1 and 2), in the order `dumps` writes them."""

_T = TypeVar("_T")

Json: TypeAlias = str | int | float | bool | list["Json"] | dict[str, "Json"] | None
"""A decoded JSON value as the tests handle it: `tienlen.records.JsonValue`, and floats."""


# -- strategies ---------------------------------------------------------------------


def _keep_or(draw: st.DrawFn, current: _T, changed: st.SearchStrategy[_T]) -> _T:
    """The preset's value half the time, a drawn one otherwise."""
    return current if draw(st.booleans()) else draw(changed)


_FOUR_ON_PAIRS = Bomb(
    bomb=Shape.of(ComboKind.FOUR_OF_A_KIND),
    target=Shape.of(ComboKind.PAIR),
    target_rank=Rank.TWO,
)


@st.composite
def house_rules(draw: st.DrawFn) -> BaseRules:
    """A preset with combination, bomb, game, scoring and deal settings changed by `evolve`.

    Only consistent settings are drawn (RULES §11): straights come and go, consecutive
    quads may come, the bomb table and chain keep a subset of the preset's rows (plus,
    maybe, four of a kind on a pair of 2s), the spare card goes with 17 cards for
    three, Poker points get a place value for every seat, and jump-in shapes and bomb
    values name combinations of the rule set.
    """
    preset = draw(st.sampled_from(PRESETS))
    kinds = set(preset.kinds)  # straights come and go; consecutive quads may come
    if draw(st.booleans()):
        kinds ^= {ComboKind.STRAIGHT}
    if draw(st.booleans()):
        kinds.add(ComboKind.CONSECUTIVE_QUADS)
    bombs = set(draw(st.sets(st.sampled_from(sorted(preset.bombs, key=str)))))
    if draw(st.booleans()):
        bombs.add(_FOUR_ON_PAIRS)
    chain = tuple(shape for shape in preset.bomb_chain if draw(st.booleans()))
    base = attrs.evolve(
        preset,
        kinds=_keep_or(draw, preset.kinds, st.just(frozenset(kinds))),
        twos_in_straights=_keep_or(draw, preset.twos_in_straights, st.booleans()),
        twos_in_consecutive_pairs=_keep_or(
            draw, preset.twos_in_consecutive_pairs, st.booleans()
        ),
        bombs=_keep_or(draw, preset.bombs, st.just(frozenset(bombs))),
        bomb_chain=_keep_or(draw, preset.bomb_chain, st.just(chain)),
        bomb_values=(),  # drawn below, for the bombs kept
    )
    shapes = valid_shapes(base)
    bomb_shapes = [
        shape for shape in shapes if base.is_bomb(shape)
    ]  # values need bombs
    three = _keep_or(draw, base.three_player_hand_size, st.sampled_from((13, 17)))
    spare = three == 17 and _keep_or(draw, base.spare_card_to_starter, st.booleans())
    scoring = _keep_or(draw, base.scoring, st.sampled_from(Scoring))
    place_points = base.place_points
    if draw(st.booleans()):
        place_points = tuple(  # never negative, never rising (RULES §6.6.1)
            sorted(
                draw(
                    st.lists(
                        st.integers(0, 9),
                        min_size=base.max_players,
                        max_size=base.max_players,
                    )
                ),
                reverse=True,
            )
        )
    elif scoring is Scoring.POKER_POINTS:
        place_points = (*place_points, *(0,) * (base.max_players - len(place_points)))
    kept_values = tuple(item for item in preset.bomb_values if base.is_bomb(item[0]))
    bomb_values = _keep_or(
        draw,
        kept_values,
        st.lists(
            st.tuples(st.sampled_from(bomb_shapes), st.integers(0, 12)),
            max_size=3,
            unique_by=lambda item: item[0],
        ).map(tuple)
        if bomb_shapes
        else st.just(()),
    )
    return attrs.evolve(
        base,
        name=draw(st.sampled_from(("house", base.name, "classic", "poker"))),
        direction=_keep_or(draw, base.direction, st.sampled_from(Direction)),
        hand_size=_keep_or(draw, base.hand_size, st.integers(4, 13)),
        three_player_hand_size=three,
        spare_card_to_starter=spare,
        two_deck_hand_size=_keep_or(
            draw, base.two_deck_hand_size, st.none() | st.integers(6, 13)
        ),
        jump_in=_keep_or(
            draw, base.jump_in, st.frozensets(st.sampled_from(shapes), max_size=2)
        ),
        first_lead=_keep_or(draw, base.first_lead, st.sampled_from(FirstLead)),
        may_decline_first_lead=_keep_or(
            draw, base.may_decline_first_lead, st.booleans()
        ),
        continuation=_keep_or(draw, base.continuation, st.booleans()),
        game_end=_keep_or(draw, base.game_end, st.sampled_from(GameEnd)),
        scoring=scoring,
        place_points=place_points,
        short_table_last_place_zero=_keep_or(
            draw, base.short_table_last_place_zero, st.booleans()
        ),
        two_values=_keep_or(
            draw,
            base.two_values,
            st.lists(st.integers(0, 9), min_size=4, max_size=4).map(tuple),
        ),
        bomb_values=bomb_values,
        frozen_penalty=_keep_or(draw, base.frozen_penalty, st.integers(0, 10)),
        instant_wins=_keep_or(
            draw, base.instant_wins, st.frozensets(st.sampled_from(InstantWin))
        ),
        instant_win_points=_keep_or(draw, base.instant_win_points, st.integers(0, 20)),
    )


@attrs.frozen
class Game:
    """A game played at random from a seeded deal, with every state it went through."""

    seed: int
    states: tuple[GameState, ...]

    @property
    def final(self) -> GameState:
        """The last state."""
        return self.states[-1]


@st.composite
def games(
    draw: st.DrawFn,
    rules: st.SearchStrategy[BaseRules] | None = None,
    *,
    finish: bool | None = None,
) -> Game:
    """A seeded deal under *rules*, played at random for a drawn number of actions.

    First games and later games (with a leader, or after an instant win) are dealt;
    With *finish* the game is played to the end, otherwise for a drawn number of
    actions (often to the end, often not).
    """
    chosen = draw(st.sampled_from(PRESETS) if rules is None else rules)
    players = draw(st.integers(chosen.min_players, chosen.max_players))
    seed = draw(st.integers(0, 2**32))
    first_game = draw(st.booleans())
    after_instant_win = not first_game and draw(st.booleans())
    spare = chosen.spare_card_to_starter and players == 3
    leader = None
    if not first_game and (
        spare
        or not chosen.lead_must_include(
            first_game=False, after_instant_win=after_instant_win
        )
    ):
        leader = draw(st.integers(0, players - 1))
    rng = random.Random(seed)
    state = GameState.deal(
        chosen,
        players,
        rng,
        first_game=first_game,
        leader=leader,
        after_instant_win=after_instant_win,
    )
    states = [state]
    steps = 10_000 if finish else draw(st.integers(0, 120))
    for _ in range(steps):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        if isinstance(action, Play) and rng.random() < 0.5:
            action = Play(player=action.player, cards=str(action.cards))  # checked
        state = state.apply(action)
        states.append(state)
    return Game(seed=seed, states=tuple(states))


def any_games() -> st.SearchStrategy[Game]:
    """Games under the presets or generated house rules."""
    return games(st.one_of(st.sampled_from(PRESETS), house_rules()))


# -- helpers --------------------------------------------------------------------------


def record_json(state: GameState, seed: int | None = None) -> dict[str, Json]:
    """The record of *state* as a decoded JSON object."""
    data = json.loads(dumps(record(state, seed=seed)))
    assert isinstance(data, dict)
    return data


def assert_fully_valid(game: GameRecord, data: dict[str, Json]) -> None:
    """*game*, returned by the loader for *data*, is whole: it replays and re-reads."""
    states = list(game.states())
    assert len(states) == len(game.actions) + 1
    assert len(game.hands) == data["players"] == len(states[0].hands)
    final = states[-1]
    if final.result is None:
        assert data["result"] is None
    else:
        assert data["result"] == {
            "finish_order": list(final.result.finish_order),
            "scores": list(final.result.scores),
        }
    assert loads(dumps(game)) == game


def load_outcome(data: object) -> GameRecord | RecordError:
    """`loads` of *data* as JSON text: the record, or the `RecordError` raised."""
    try:
        return loads(json.dumps(data))
    except RecordError as error:
        return error


def expect_error(data: object, where: str | set[str]) -> RecordError:
    """`loads` refuses *data* with a `RecordError` at *where* (one place or a set)."""
    outcome = load_outcome(data)
    assert isinstance(outcome, RecordError), f"loaded: {json.dumps(data)[:300]}"
    places = {where} if isinstance(where, str) else where
    assert outcome.where in places, str(outcome)
    assert str(outcome).startswith(f"invalid game record at {outcome.where}: ")
    return outcome


def finished_game(rules: BaseRules, players: int, seed: int) -> GameState:
    """A finished random game (not an instant win) under *rules*."""
    for attempt in range(100):
        rng = random.Random(f"{seed}:{attempt}")
        state = GameState.deal(rules, players, rng)
        if not state.is_over:
            return play_out(state, rng)
    raise AssertionError  # pragma: no cover - instant wins are rare


def play_out(state: GameState, rng: random.Random) -> GameState:
    """*state* played to the end with random legal actions."""
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# -- round trips ----------------------------------------------------------------------


@given(game=any_games())
def test_round_trip_gives_the_same_game(game: Game) -> None:
    """``loads(dumps(record(state))).final == state``, history and setup included."""
    original = record(game.final, seed=game.seed)
    loaded = loads(dumps(original))
    assert loaded == original
    assert loaded.final == game.final
    assert loaded.final.history == game.final.history
    assert loaded.final.setup == game.final.setup
    assert loaded.rules == game.final.rules
    assert loaded.seed == game.seed


@given(game=any_games())
def test_every_intermediate_state_replays(game: Game) -> None:
    """`GameRecord.states` rebuilds every state of the game, in order, from the deal."""
    loaded = loads(dumps(record(game.final)))
    replayed = list(loaded.states())
    assert replayed == list(game.states)
    assert [state.history for state in replayed] == [
        state.history for state in game.states
    ]


@given(game=any_games())
def test_dumps_is_stable(game: Game) -> None:
    """The same record always gives the same text, also after a round trip or with indent."""
    original = record(game.final, seed=game.seed)
    text = dumps(original)
    assert text == dumps(original)
    assert text == dumps(record(game.final, seed=game.seed))
    assert text == dumps(loads(text))
    indented = dumps(original, indent=2)
    assert json.loads(indented) == json.loads(text)
    assert loads(indented) == original


@given(rules=house_rules())
@example(rules=CLASSIC)
@example(rules=attrs.evolve(POKER, name="house", instant_wins=frozenset()))
def test_rules_json_round_trip(rules: BaseRules) -> None:
    """`rules_from_json(rules_to_json(r)) == r`, and every setting is written (version 2)."""
    data = rules_to_json(rules)
    assert set(data) == {"name", "settings"}
    assert data["name"] == rules.name
    settings = data["settings"]
    assert isinstance(settings, dict)
    assert list(settings) == written_settings(rules)
    decoded = rules_from_json(json.loads(json.dumps(data)))
    assert decoded == rules
    assert decoded.name == rules.name


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_presets_are_stored_whole(rules: BaseRules) -> None:
    """A preset is written like any rule set, every setting's value, and read back as itself."""
    data = rules_to_json(rules)
    assert data["name"] == rules.name
    settings = data["settings"]
    assert isinstance(settings, dict)
    assert list(settings) == written_settings(rules)
    assert "base" not in data
    assert rules_from_json(data) == rules


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_finished_games_of_every_preset(rules: BaseRules) -> None:
    """A whole game of each preset round-trips with its result, for every table size."""
    for players in range(rules.min_players, rules.max_players + 1):
        state = finished_game(rules, players, seed=players)
        assert state.result is not None
        data = record_json(state)
        assert data["players"] == players
        assert data["result"] == {
            "finish_order": list(state.result.finish_order),
            "scores": list(state.result.scores),
        }
        assert loads(json.dumps(data)).final == state


def test_record_and_file_functions() -> None:
    """`dump`/`load` write and read a file; `record` keeps the seed it is given."""
    state = finished_game(KENNETH_LO, 3, seed=4)
    game = record(state, seed=12)
    buffer = io.StringIO()
    dump(game, buffer, indent=2)
    buffer.seek(0)
    loaded = load(buffer)
    assert loaded == game
    assert loaded.seed == 12
    assert loaded.final == state
    assert loads(dumps(game).encode()) == game  # bytes are read as UTF-8


# -- instant wins and unfinished games -----------------------------------------------

INSTANT_WINS = [
    pytest.param(
        VIETCONG,
        ["3s 4s 5s 6s 7s 8s 9s Ts Js 2s 2c 2d 2h", "3c 4c", "5c 6c"],
        InstantWin.FOUR_TWOS,
        id="vietcong-four-twos",
    ),
    pytest.param(
        POKER,
        ["3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s", "4s 6d", "8h Ts"],
        InstantWin.SIX_PAIRS,
        id="poker-six-pairs",
    ),
    pytest.param(
        POKER,
        ["3s 4s", "5s 5c 6s 6c 7s 7c 8s 8c 9s 9c Jd", "Qh Kh"],
        InstantWin.FIVE_CONSECUTIVE_PAIRS,
        id="poker-five-consecutive-pairs",
    ),
]


@pytest.mark.parametrize(("rules", "hands", "win"), INSTANT_WINS)
def test_instant_win_games(rules: BaseRules, hands: list[str], win: InstantWin) -> None:
    """A game won at the deal has no actions and a result, and round-trips (RULES §5.4, §6.7)."""
    state = GameState.from_hands(hands, rules)
    assert state.result is not None
    assert state.result.instant_win is win
    data = record_json(state)
    assert data["actions"] == []
    assert data["result"] == {
        "finish_order": list(state.result.finish_order),
        "scores": list(state.result.scores),
    }
    assert loads(json.dumps(data)).final == state
    tampered = copy.deepcopy(data)
    tampered["result"] = None
    expect_error(tampered, "result")


@given(game=games(finish=False))
def test_unfinished_games_have_a_null_result(game: Game) -> None:
    """A game still going on is written with ``"result": null`` and read back as such."""
    data = record_json(game.final)
    if game.final.is_over:
        assert data["result"] is not None
    else:
        assert data["result"] is None
        assert loads(json.dumps(data)).final.result is None


def test_a_game_in_progress_claiming_a_result_is_refused() -> None:
    """A result on a record whose actions do not finish the game is refused at ``result``."""
    state = GameState.deal(CLASSIC, 4, seed=3)
    state = state.apply(state.legal_actions()[0])
    data = record_json(state)
    data["result"] = {"finish_order": [0, 1, 2, 3], "scores": [1, 1, 1, -3]}
    error = expect_error(data, "result")
    assert "do not finish the game" in str(error)


# -- the documented shape ------------------------------------------------------------


def test_documented_json_shape() -> None:
    """The version-2 object: its fields in order and their JSON types (docs/records.md)."""
    state = GameState.from_hands(["3s 9h", "8d", "5c"], CLASSIC)
    state = state.play("3s").play("8d").pass_turn().pass_turn().play("5c")
    text = dumps(record(state))
    data = json.loads(text)
    assert list(data) == FIELDS
    assert list(data["rules"]) == ["name", "settings"]
    assert list(data["rules"]["settings"]) == written_settings(CLASSIC)
    assert data == {
        "format": "tienlen-game",
        "version": 2,
        "rules": {"name": "classic", "settings": rules_to_json(CLASSIC)["settings"]},
        "players": 3,
        "seed": None,
        "dealer": 2,
        "first_game": True,
        "leader": None,
        "after_instant_win": False,
        "hands": ["3s 9h", "8d", "5c"],
        "actions": [
            {"player": 0, "play": "3s"},
            {"player": 1, "play": "8d"},
            {"player": 2, "pass": True},
            {"player": 0, "pass": True},
            {"player": 2, "play": "5c"},
        ],
        "result": {"finish_order": [1, 2, 0], "scores": [-2, 1, 1]},
    }
    assert FORMAT == "tienlen-game"
    assert VERSION == 2
    assert "\n" not in text
    assert dumps(record(state), indent=2).startswith('{\n  "format": "tienlen-game",')


def test_setting_encodings() -> None:
    """Each kind of setting has the JSON encoding docs/records.md describes."""
    four = Shape.of(ComboKind.FOUR_OF_A_KIND)
    pairs3 = Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3)
    house = attrs.evolve(
        CLASSIC,
        name="house",
        direction=Direction.COUNTERCLOCKWISE,
        two_deck_hand_size=None,
        kinds=frozenset(ComboKind),  # five of a kind too, which one deck never forms
        bombs=[Bomb(bomb=four, target=Shape.of(ComboKind.PAIR), target_rank=Rank.TWO)],
        bomb_chain=[pairs3, four],
        jump_in=[Shape.of(ComboKind.CONSECUTIVE_PAIRS, 4)],
        first_lead=FirstLead.EVERY_GAME,
        bomb_values=[(four, 6)],
        instant_wins=[InstantWin.FOUR_TWOS, InstantWin.SIX_PAIRS],
        two_values=(1, 1, 2, 2),
    )
    data = rules_to_json(house)
    settings = data["settings"]
    assert isinstance(settings, dict)
    assert data["name"] == "house"
    changed = {key: settings[key] for key in settings if key in EXPECTED_ENCODINGS}
    assert changed == EXPECTED_ENCODINGS
    assert settings["hand_size"] == 13
    assert settings["continuation"] is False
    assert rules_from_json(data) == house


EXPECTED_ENCODINGS: dict[str, Json] = {
    "direction": "counterclockwise",
    "two_deck_hand_size": None,
    "kinds": [
        "consecutive_pairs",
        "consecutive_quads",
        "consecutive_triples",
        "five_of_a_kind",
        "four_of_a_kind",
        "pair",
        "single",
        "straight",
        "triple",
    ],
    "bombs": [{"bomb": "four_of_a_kind:4", "target": "pair:2", "target_rank": "two"}],
    "bomb_chain": ["consecutive_pairs:6", "four_of_a_kind:4"],
    "jump_in": ["consecutive_pairs:8"],
    "first_lead": "every_game",
    "two_values": [1, 1, 2, 2],
    "bomb_values": [["four_of_a_kind:4", 6]],
    "instant_wins": ["four_twos", "six_pairs"],
}
"""The JSON of the settings `test_setting_encodings` changes, one per kind of type."""


SETTINGS = {
    field.name: str(field.type)
    for field in attrs.fields(BaseRules)
    if field.init
    and field.eq
    and field.name != "name"
    and not field.name.startswith("custom_")  # policies are code, never written
}
"""Every setting of `BaseRules` (RULES §11) a record stores, with its type, in field order."""


def written_settings(rules: BaseRules) -> list[str]:
    """The `SETTINGS` *rules* writes: one `WRITTEN_WHEN_SET` only when not its default."""
    fields = attrs.fields_dict(BaseRules)
    return [
        name
        for name in SETTINGS
        if not fields[name].metadata.get("written_when_set")
        or getattr(rules, name) != fields[name].default
    ]


def test_house_rule_keeps_its_name_whatever_its_settings() -> None:
    """A rule set keeps its own name, also a preset's name with changed settings."""
    house = attrs.evolve(POKER, name="our-table", frozen_penalty=6)
    data = rules_to_json(house)
    assert data["name"] == "our-table"
    assert isinstance(data["settings"], dict)
    assert data["settings"]["frozen_penalty"] == 6
    renamed = attrs.evolve(JUSTUS_PANG, continuation=False)
    decoded = rules_from_json(rules_to_json(renamed))
    assert decoded.name == "justus-pang"
    assert decoded == renamed
    assert decoded != JUSTUS_PANG


# -- the loader under attack ---------------------------------------------------------

JsonPath = tuple[str | int, ...]
"""Keys and indexes from the top of a decoded JSON value down to one value."""

NULLABLE = {"seed", "leader", "dealer", "result", "two_deck_hand_size", "target_rank"}
"""Fields whose value may be ``null`` or something else in a valid record."""


def paths(value: Json, prefix: JsonPath = ()) -> list[JsonPath]:
    """Every path into a decoded JSON value (the value itself is ``()``)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def child(value: Json, step: str | int) -> Json:
    """The item *step* of an object or array."""
    if isinstance(value, dict):
        return value[str(step)]
    assert isinstance(value, list)
    assert isinstance(step, int)
    return value[step]


def get(data: Json, path: JsonPath) -> Json:
    """The value at *path*."""
    for step in path:
        data = child(data, step)
    return data


def put(data: Json, path: JsonPath, value: Json) -> None:
    """Replace (or add, in an object) the value at non-empty *path*."""
    parent = get(data, path[:-1])
    step = path[-1]
    if isinstance(parent, dict):
        parent[str(step)] = value
    else:
        assert isinstance(parent, list)
        assert isinstance(step, int)
        parent[step] = value


def drop(data: Json, path: JsonPath) -> None:
    """Delete the value at non-empty *path* (an object's key or an array's item)."""
    parent = get(data, path[:-1])
    step = path[-1]
    if isinstance(parent, dict):
        del parent[str(step)]
    else:
        assert isinstance(parent, list)
        assert isinstance(step, int)
        del parent[step]


def json_kind(value: Json | float) -> str:
    """The JSON type of a decoded value (numbers are one type)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def json_values() -> st.SearchStrategy[Json]:
    """Any JSON value of small size (no floats: the format has none)."""
    scalars: st.SearchStrategy[Json] = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.text(max_size=12),
        st.sampled_from(["3s", "2h 2h 2h", "pass", "classic", "single:1", "two"]),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.sampled_from([*FIELDS, "player", "play", "pass", "x"]),
                inner,
                max_size=4,
            ),
        ),
        max_leaves=12,
    )


MUTATIONS = ("drop", "retype", "swap_hands", "duplicate_card", "tamper_action")


@st.composite
def mutated_records(draw: st.DrawFn) -> tuple[str, dict[str, Json], JsonPath]:
    """A valid record with one mutation applied: (mutation, record, path mutated)."""
    game = draw(any_games())
    data = record_json(game.final, seed=game.seed)
    mutation = draw(st.sampled_from(MUTATIONS))
    if mutation == "drop":
        path = draw(st.sampled_from(paths(data)[1:]))
        drop(data, path)
        return mutation, data, path
    if mutation == "retype":
        path = draw(st.sampled_from(paths(data)[1:]))
        old = get(data, path)
        new = draw(json_values().filter(lambda v: json_kind(v) != json_kind(old)))
        put(data, path, new)
        return mutation, data, path
    hands = data["hands"]
    assert isinstance(hands, list)
    if mutation == "swap_hands":
        i, j = draw(
            st.lists(
                st.integers(0, len(hands) - 1), min_size=2, max_size=2, unique=True
            )
        )
        hands[i], hands[j] = hands[j], hands[i]
        return mutation, data, ("hands",)
    if mutation == "duplicate_card":
        i = draw(st.integers(0, len(hands) - 1))
        j = draw(st.integers(0, len(hands) - 1))
        source = str(hands[i]).split()
        hands[j] = f"{hands[j]} {draw(st.sampled_from(source))}"
        return mutation, data, ("hands", j)
    actions = data["actions"]
    assert isinstance(actions, list)
    if not actions:
        data["actions"] = [draw(json_values())]
        return mutation, data, ("actions", 0)
    k = draw(st.integers(0, len(actions) - 1))
    player: Json = draw(st.integers(-1, 8))
    play: Json = {"player": player, "play": str(draw(st.sampled_from(DECK)))}
    passing: Json = {"player": player, "pass": True}
    tampered = draw(st.sampled_from((play, passing, draw(json_values()))))
    actions[k] = tampered
    return mutation, data, ("actions", k)


@given(case=mutated_records())
def test_fuzzed_records_raise_record_error_or_load_whole(
    case: tuple[str, dict[str, Json], JsonPath],
) -> None:
    """A mutated record raises `RecordError` (nothing else), or loads whole if still valid."""
    mutation, data, path = case
    game = load_outcome(data)
    if isinstance(game, RecordError):
        assert str(game).startswith(f"invalid game record at {game.where}: ")
        return
    assert_fully_valid(game, data)
    if mutation == "retype":
        # Only a field that may be null can change its JSON type and stay valid.
        names = {step for step in path if isinstance(step, str)}
        assert names & NULLABLE, f"loaded with {path} retyped: {json.dumps(data)}"


@given(game=games(), indent=st.sampled_from((None, 2)), data=st.data())
def test_truncated_text_is_refused(
    game: Game, indent: int | None, data: st.DataObject
) -> None:
    """A record cut anywhere is not JSON: `RecordError` at ``record``."""
    text = dumps(record(game.final), indent=indent)
    cut = data.draw(st.integers(0, len(text) - 1))
    with pytest.raises(RecordError) as caught:
        loads(text[:cut])
    assert caught.value.where == "record"


@given(value=json_values())
@example(value=[])
@example(value={})
@example(value={"format": "tienlen-game"})
def test_random_json_is_refused(value: Json) -> None:
    """Any JSON value that is not a record raises `RecordError`."""
    with pytest.raises(RecordError):
        loads(json.dumps(value))


@given(text=st.text(max_size=40) | st.binary(max_size=40).map(repr))
def test_random_text_is_refused(text: str) -> None:
    """Arbitrary text raises `RecordError`, never another exception."""
    with pytest.raises(RecordError):
        loads(text)


@given(blob=st.binary(max_size=40))
@example(blob=b"\xff\xfe{")
@example(blob=b'{"format": "\xc3"}')
def test_random_bytes_are_refused(blob: bytes) -> None:
    """Arbitrary bytes (not UTF-8, not JSON) raise `RecordError`."""
    with pytest.raises(RecordError):
        loads(blob)


def test_deeply_nested_json_is_refused() -> None:
    """JSON nested past the parser's recursion limit raises `RecordError`, not RecursionError."""
    with pytest.raises(RecordError) as caught:
        loads("[" * 100_000 + "]" * 100_000)
    assert caught.value.where == "record"


def test_record_error_is_a_tienlen_value_error() -> None:
    """`RecordError` is a `TienLenError` and a `ValueError`, with a ``where``."""
    error = RecordError("actions[3]", "bad")
    assert isinstance(error, TienLenError)
    assert isinstance(error, ValueError)
    assert error.where == "actions[3]"
    assert str(error) == "invalid game record at actions[3]: bad"


# -- targeted mutations: where the loader points --------------------------------------

Mutation = Callable[[dict[str, Json]], None]


def _set(*path: str | int, value: Json) -> Mutation:
    def mutate(data: dict[str, Json]) -> None:
        put(data, path, value)

    return mutate


def _drop(*path: str | int) -> Mutation:
    def mutate(data: dict[str, Json]) -> None:
        drop(data, path)

    return mutate


def _change(**settings: Json) -> Mutation:
    def mutate(data: dict[str, Json]) -> None:
        rules = data["rules"]
        assert isinstance(rules, dict)
        written = rules["settings"]
        assert isinstance(written, dict)
        written.update(settings)

    return mutate


_BOMB: dict[str, Json] = {
    "bomb": "four_of_a_kind:4",
    "target": "pair:2",
    "target_rank": "two",
}

TARGETED: list[tuple[str, Mutation, str | set[str]]] = [
    ("not-an-object", lambda data: data.clear(), "record"),
    ("missing-hands", _drop("hands"), "record"),
    ("missing-result", _drop("result"), "record"),
    ("unknown-field", _set("comment", value="hi"), "record"),
    ("format", _set("format", value="chess-pgn"), "format"),
    ("version-3", _set("version", value=3), "version"),
    ("version-0", _set("version", value=0), "version"),
    ("version-string", _set("version", value="2"), "version"),
    ("version-true", _set("version", value=True), "version"),
    ("format-list", _set("format", value=["tienlen-game"]), "format"),
    ("rules-null", _set("rules", value=None), "rules"),
    ("rules-missing-settings", _drop("rules", "settings"), "rules"),
    ("rules-version-1-shape", _set("rules", "base", value="classic"), "rules"),
    ("rule-set-not-a-name", _set("rules", "name", value=["classic"]), "rules.name"),
    ("empty-name", _set("rules", "name", value=""), "rules.name"),
    ("settings-not-object", _set("rules", "settings", value=[]), "rules.settings"),
    ("unknown-setting", _change(bogus=1), "rules.settings"),
    ("name-is-no-setting", _change(name="x"), "rules.settings"),
    ("aliases-are-no-setting", _change(aliases=["x"]), "rules.settings"),
    ("bool-setting-type", _change(continuation="yes"), "rules.settings.continuation"),
    ("bool-setting-int", _change(continuation=1), "rules.settings.continuation"),
    ("int-setting-type", _change(hand_size=None), "rules.settings.hand_size"),
    ("int-setting-bool", _change(frozen_penalty=True), "rules.settings.frozen_penalty"),
    ("int-setting-float", _change(frozen_penalty=4.0), "rules.settings.frozen_penalty"),
    (
        "optional-int-setting",
        _change(two_deck_hand_size="13"),
        "rules.settings.two_deck_hand_size",
    ),
    ("enum-setting", _change(direction="sideways"), "rules.settings.direction"),
    ("enum-setting-case", _change(direction="CLOCKWISE"), "rules.settings.direction"),
    ("kind-name", _change(kinds=["single", "quintuple"]), "rules.settings.kinds[1]"),
    ("kinds-not-a-list", _change(kinds="single"), "rules.settings.kinds"),
    ("shape-text", _change(jump_in=["pairs"]), "rules.settings.jump_in[0]"),
    ("shape-size", _change(bomb_chain=["straight:-3"]), "rules.settings.bomb_chain[0]"),
    ("shape-no-such", _change(bomb_chain=["pair:3"]), "rules.settings.bomb_chain[0]"),
    ("shape-full-width", _change(jump_in=["pair:\uff12"]), "rules.settings.jump_in[0]"),
    ("shape-plus", _change(jump_in=["pair:+2"]), "rules.settings.jump_in[0]"),
    (
        "shape-underscore",
        _change(jump_in=["straight:1_0"]),
        "rules.settings.jump_in[0]",
    ),
    ("shape-space", _change(jump_in=["pair: 2"]), "rules.settings.jump_in[0]"),
    ("shape-newline", _change(jump_in=["pair:2\n"]), "rules.settings.jump_in[0]"),
    ("shape-leading-zero", _change(jump_in=["pair:02"]), "rules.settings.jump_in[0]"),
    ("shape-upper-case", _change(jump_in=["PAIR:2"]), "rules.settings.jump_in[0]"),
    ("shape-long-s", _change(jump_in=["\u017fingle:1"]), "rules.settings.jump_in[0]"),
    (
        "bomb-fields",
        _change(bombs=[{"bomb": "four_of_a_kind:4"}]),
        "rules.settings.bombs[0]",
    ),
    (
        "bomb-extra-field",
        _change(bombs=[{**_BOMB, "note": "x"}]),
        "rules.settings.bombs[0]",
    ),
    (
        "bomb-rank",
        _change(bombs=[{**_BOMB, "target_rank": "eleven"}]),
        "rules.settings.bombs[0].target_rank",
    ),
    (
        "bomb-own-shape",
        _change(bombs=[{**_BOMB, "target": "four_of_a_kind:4"}]),
        "rules.settings.bombs[0]",
    ),
    (
        "bomb-values-entry",
        _change(bomb_values=[["four_of_a_kind:4"]]),
        "rules.settings.bomb_values[0]",
    ),
    (
        "bomb-values-points",
        _change(bomb_values=[["four_of_a_kind:4", "6"]]),
        "rules.settings.bomb_values[0][1]",
    ),
    ("int-list", _change(two_values=[1, 2, "3", 4]), "rules.settings.two_values[2]"),
    (
        "contradictory-spare",
        _change(spare_card_to_starter=True, three_player_hand_size=13),
        "rules.settings",
    ),
    (
        "contradictory-pairs",
        _change(min_consecutive_pairs=5, max_consecutive_pairs=4),
        "rules.settings",
    ),
    ("two-values-length", _change(two_values=[1, 2]), "rules.settings.two_values"),
    (
        "contradictory-pair-limits",
        _change(min_consecutive_pairs=5, max_consecutive_pairs=4),
        "rules.settings",
    ),
    ("no-singles", _change(kinds=["pair"]), "rules.settings"),
    ("too-many-players", _change(max_players=3), "players"),
    ("players-count", _set("players", value=5), "players"),
    ("players-none", _set("players", value=None), "players"),
    ("players-string", _set("players", value="4"), "players"),
    ("players-true", _set("players", value=True), "players"),
    ("hands-object", _set("hands", value={}), "hands"),
    ("hand-number", _set("hands", 1, value=42), "hands[1]"),
    ("hand-bad-card", _set("hands", 2, value="3s 1x"), "hands[2]"),
    ("hand-three-copies", _set("hands", 0, value="7h 7h 7h"), "hands[0]"),
    ("hand-empty", _set("hands", 3, value=""), "hands"),
    ("seed-float", _set("seed", value=1.5), "seed"),
    ("seed-string", _set("seed", value="1"), "seed"),
    ("dealer-bool", _set("dealer", value=False), "dealer"),
    ("leader-string", _set("leader", value="0"), "leader"),
    ("leader-out-of-range", _set("leader", value=9), "leader"),
    ("dealer-out-of-range", _set("dealer", value=4), "dealer"),
    ("dealer-negative", _set("dealer", value=-1), "dealer"),
    ("first-game-string", _set("first_game", value="true"), "first_game"),
    (
        "later-game-without-leader",
        _set("first_game", value=False),
        {"first_game", "leader"},
    ),
    (
        "after-instant-win-null",
        _set("after_instant_win", value=None),
        "after_instant_win",
    ),
    ("actions-object", _set("actions", value={}), "actions"),
    ("action-not-object", _set("actions", 2, value="pass"), "actions[2]"),
    ("action-no-player", _drop("actions", 2, "player"), "actions[2]"),
    ("action-player-bool", _set("actions", 2, "player", value=True), "actions[2]"),
    (
        "action-pass-false",
        _set("actions", 2, value={"player": 0, "pass": False}),
        "actions[2]",
    ),
    (
        "action-play-and-pass",
        _set("actions", 2, value={"player": 0, "play": "3s", "pass": True}),
        "actions[2]",
    ),
    (
        "action-bad-card",
        _set("actions", 2, value={"player": 0, "play": "3x"}),
        "actions[2]",
    ),
    ("action-unknown-player", _set("actions", 4, "player", value=7), "actions[4]"),
    ("result-tampered", _set("result", "scores", 0, value=99), "result"),
    ("result-extra-key", _set("result", "winner", value=0), "result"),
    ("result-null", _set("result", value=None), "result"),
    ("result-score-bool", _set("result", "scores", 1, value=True), "result"),
    ("result-order-bool", _set("result", "finish_order", 1, value=True), "result"),
    ("result-too-short", _drop("result", "scores", 3), "result"),
    ("result-list", _set("result", value=[[0, 1, 2, 3], [1, 1, 1, -3]]), "result"),
]


@pytest.fixture(scope="module")
def classic_record() -> dict[str, Json]:
    """A finished four-player classic game whose second score is 1 and runner-up is player 1."""
    for seed in range(200):
        state = finished_game(CLASSIC, 4, seed)
        assert state.result is not None
        if state.result.scores[1] == 1 and state.result.finish_order[1] == 1:
            return record_json(state, seed=seed)
    raise AssertionError  # pragma: no cover


@pytest.mark.parametrize(
    ("mutate", "where"),
    [pytest.param(mutate, where, id=name) for name, mutate, where in TARGETED],
)
def test_targeted_mutation_names_the_place(
    classic_record: dict[str, Json], mutate: Mutation, where: str | set[str]
) -> None:
    """A targeted mutation raises `RecordError` whose ``where`` names the field."""
    data = copy.deepcopy(classic_record)
    mutate(data)
    expect_error(data, where)


@given(game=any_games().filter(lambda game: len(game.states) > 1), data=st.data())
def test_tampered_action_is_named(game: Game, data: st.DataObject) -> None:
    """A play of a card the player does not hold is refused at that action's index."""
    k = data.draw(st.integers(0, len(game.states) - 2))
    before = game.states[k]
    action = game.final.history[k]
    missing = next(card for card in DECK if card not in before.hands[action.player])
    recorded = record_json(game.final)
    actions = recorded["actions"]
    assert isinstance(actions, list)
    actions[k] = {"player": action.player, "play": str(missing)}
    expect_error(recorded, f"actions[{k}]")


@given(game=games(finish=True), data=st.data())
def test_swapped_hands_fail_at_the_first_illegal_action(
    game: Game, data: st.DataObject
) -> None:
    """Swapped hands are refused where the replay first breaks, or load if still legal."""
    recorded = record_json(game.final)
    hands = recorded["hands"]
    assert isinstance(hands, list)
    i, j = data.draw(
        st.lists(st.integers(0, len(hands) - 1), min_size=2, max_size=2, unique=True)
    )
    hands[i], hands[j] = hands[j], hands[i]
    start = game.states[0]
    try:
        state = GameState.from_hands(
            [str(hand) for hand in hands],
            start.rules,
            first_game=start.setup.first_game,
            leader=start.setup.leader,
            after_instant_win=start.setup.after_instant_win,
            dealer=start.setup.dealer,
        )
    except TienLenError:
        expect_error(recorded, "hands")
        return
    for k, action in enumerate(game.final.history):
        if not state.is_legal(action):
            expect_error(recorded, f"actions[{k}]")
            return
        state = state.apply(action)
    outcome = load_outcome(recorded)
    if isinstance(outcome, RecordError):
        assert outcome.where == "result"
    else:
        assert_fully_valid(outcome, recorded)


@given(game=games(st.sampled_from((VIETCONG, POKER)), finish=False), data=st.data())
def test_duplicated_card_is_refused_at_hands(game: Game, data: st.DataObject) -> None:
    """With one deck, a card written into two hands is refused at ``hands``."""
    recorded = record_json(game.final)
    hands = recorded["hands"]
    assert isinstance(hands, list)
    i, j = data.draw(
        st.lists(st.integers(0, len(hands) - 1), min_size=2, max_size=2, unique=True)
    )
    card = data.draw(st.sampled_from(str(hands[i]).split()))
    hands[j] = f"{hands[j]} {card}"
    expect_error(recorded, "hands")


@pytest.mark.parametrize(
    "rules",
    [two_decks(rules) for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO)],
    ids=["classic", "justus-pang", "kl"],
)
def test_two_deck_games_round_trip(rules: BaseRules) -> None:
    """Two-deck games (five or more players) keep duplicate cards and the dealer (RULES §2.1)."""
    assert rules_from_json(rules_to_json(rules)).decks == 2
    for players in (5, 8):
        state = finished_game(rules, players, seed=players)
        dealt = [card for hand in state.dealt for card in hand]
        assert len(dealt) > len(set(dealt))  # some card is dealt twice
        loaded = loads(dumps(record(state)))
        assert loaded.final == state
        assert loaded.dealer == state.setup.dealer


@given(game=any_games())
def test_dropping_an_action_never_loads_a_different_result(game: Game) -> None:
    """Removing any one action raises `RecordError` or loads a record that replays whole."""
    recorded = record_json(game.final)
    actions = recorded["actions"]
    assert isinstance(actions, list)
    if not actions:
        return
    del actions[len(actions) // 2]
    outcome = load_outcome(recorded)
    if isinstance(outcome, GameRecord):
        assert_fully_valid(outcome, recorded)


def test_custom_policy_is_refused_when_written() -> None:
    """A table's own policy object is code: a record cannot hold it (RULES §11)."""
    house = attrs.evolve(
        CLASSIC, name="own-turns", custom_turn_policy=CLASSIC.turn_policy
    )
    with pytest.raises(RecordError) as caught:
        rules_to_json(house)
    assert caught.value.where == "rules.settings.custom_turn_policy"


def test_read_setting_refuses_junk_names() -> None:
    """`read_setting` takes a setting's name and a place as text, clearly refusing else."""
    assert read_setting("kinds", ["single"], "rules") == frozenset({ComboKind.SINGLE})
    with pytest.raises(RecordError, match="unknown setting 'nope'"):
        read_setting("nope", 3, "rules")
    for name, where in (([], "rules"), ("kinds", 5)):
        with pytest.raises(TypeError, match="must be a str"):
            read_setting(name, ["single"], where)  # type: ignore[arg-type]
