"""The position notation (`tienlen.notation`, issue 13 §3): round trips and refusals.

Every state a game reaches, under every preset at every table size and under
generated house rules, is written and read back: the state read is equal to the one
written (`GameState.__eq__` compares every field of the position), writes the same
text, lists the same legal actions and plays the rest of the game identically. The
positions random play rarely reaches are built on purpose: a Poker chop chain
(RULES §6.6.2), a jump-in (§6.4), frozen players (§6.6.3), a player who rotted
(§12.12), an instant win (§5.4, §6.7), the declinable first lead (§3.3) and a later
game's setup (§2.4). Bad text raises `NotationError`, a `TienLenError` and a
`ValueError` naming the field and the character, and never anything else.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.game.helpers import deal_configs
from tests.game.helpers import house_rules as flow_house_rules
from tests.strategies import house_rules as combo_house_rules
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    BaseRules,
    CustomInstantWin,
    GameState,
    InstantWin,
    Play,
    TienLenError,
)
from tienlen.notation import MAX_LENGTH, NotationError, PositionSetup, read, write
from tienlen.policies import TurnPolicy


def assert_round_trip(state: GameState) -> GameState:
    """*state* written and read back: equal, same text, same legal actions."""
    text = state.notation()
    back = GameState.from_notation(text)
    assert back == state, text
    assert hash(back) == hash(state)
    assert back.notation() == text
    assert list(back.legal_actions()) == list(state.legal_actions())
    assert (back.is_over, back.result) == (state.is_over, state.result)
    assert isinstance(back.setup, PositionSetup)
    assert back.setup.position == text
    assert attrs.astuple(back.setup)[:4] == attrs.astuple(state.setup)[:4]
    return back


def random_game(state: GameState, seed: int) -> list[GameState]:
    """Every state of a game played on from *state* by uniformly random legal actions."""
    rng = random.Random(seed)
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(list(state.legal_actions())))
        states.append(state)
    return states


def assert_game_round_trips(states: list[GameState], cut: int) -> None:
    """Every state round-trips; from the one at *cut* the game replays the same."""
    for state in states:
        assert_round_trip(state)
    cut %= len(states)
    restored = GameState.from_notation(states[cut].notation())
    done = len(states[0].history) + cut
    for action, expected in zip(
        states[-1].history[done:], states[cut + 1 :], strict=True
    ):
        restored = restored.apply(action)
        assert restored == expected
    assert restored.result == states[-1].result


@given(
    config=st.sampled_from(deal_configs()),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 10**6),
)
def test_every_state_of_a_preset_game_round_trips(
    config: tuple[BaseRules, int], seed: int, cut: int
) -> None:
    """Issue 13 §3: every preset, every table size (classic 2–8, two decks above four)."""
    rules, players = config
    assert_game_round_trips(
        random_game(GameState.deal(rules, players, seed), seed), cut
    )


@given(
    rules=st.one_of(flow_house_rules(), combo_house_rules()),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 10**6),
)
def test_every_state_under_house_rules_round_trips(
    rules: BaseRules, players: int, seed: int, cut: int
) -> None:
    """A non-preset rule set is written as its nearest preset and the changed settings."""
    players = min(max(players, rules.min_players), rules.max_players)
    state = GameState.deal(rules, players, seed)
    assert GameState.from_notation(state.notation()).rules == rules
    assert_game_round_trips(random_game(state, seed), cut)


def test_a_preset_is_written_by_name_and_house_rules_by_their_changes() -> None:
    """The rules field: a preset's name, else the nearest preset plus changed settings."""
    assert write(GameState.from_hands(["3s", "4s"], KENNETH_LO)).startswith(
        "tienlen 1; rules kenneth-lo; "
    )
    house = attrs.evolve(
        JUSTUS_PANG, name="my table; home", hand_size=10, frozen_penalty=5
    )
    text = GameState.from_hands(["3s", "4s"], house).notation()
    assert text.startswith(
        'tienlen 1; rules justus-pang name="my table; home" hand_size=10 '
        "frozen_penalty=5; "
    )
    assert GameState.from_notation(text).rules == house


def poker_chop_chain() -> list[GameState]:
    """A 2 caught by four 6s, caught in turn by four 7s (RULES §6.6.2, D-18)."""
    state = GameState.from_hands(
        ["3s 2h 9c", "7s 7c 7d 7h 8d", "5s 6s 6c 6d 6h 9s"], POKER
    )
    states = [state]
    for cards in ("3s", "5s", "8d", "2h", "6s 6c 6d 6h", "7s 7c 7d 7h"):
        states.append(states[-1].play(cards))
    return states


def test_a_chop_chain_round_trips() -> None:
    """The open chain and the items it settles are part of the position (RULES §6.6.2)."""
    states = poker_chop_chain()
    assert states[5].chop is not None
    assert "; chop 0 pays 2 4 for 2h" in states[5].notation()
    assert "items chop 2 pays 1 10 for 2h / 6s 6c 6d 6h" in states[6].notation()
    assert_game_round_trips(random_game(states[-1], 0), 0)
    for state in states:
        assert_round_trip(state)


def test_a_jump_in_round_trips() -> None:
    """Players who may jump in out of turn are listed the same after a round trip (§6.4)."""
    state = GameState.from_hands(
        ["3s 2h 9c", "5s 5c 6s 6c 7s 7c 8s 8c 4d", "4s 9d Kd"], POKER
    )
    state = state.play("3s").play("4s").play("4d").play("2h")
    back = assert_round_trip(state)
    jump = next(action for action in back.legal_actions() if action.player == 1)
    assert state.to_act == 2
    assert back.apply(jump) == state.apply(jump)
    assert_round_trip(state.apply(jump))


def test_frozen_players_round_trip() -> None:
    """Players frozen at the first out (cóng, RULES §6.6.3) and their items."""
    state = GameState.deal(POKER, 3, seed=0)
    leader = state.to_act
    states = [state]
    while not state.is_over:  # the leader plays on, the others pass
        if state.to_act == leader:
            state = state.apply(
                next(a for a in state.legal_actions() if isinstance(a, Play))
            )
        else:
            state = state.pass_turn()
        states.append(state)
    assert len(state.frozen) == 2
    assert "; frozen " in state.notation()
    for each in states:
        assert_round_trip(each)


def test_a_player_who_rotted_round_trips() -> None:
    """A leader stuck with a 2 they may not go out with rots (RULES §12.12): ``bottom``."""
    rules = attrs.evolve(CLASSIC, name="no-two-out", no_going_out_with_two=True)
    state = GameState.from_hands(["3s 9h 2h", "4d 5d", "5c 6c"], rules)
    for cards in ("3s", "4d", "5c", "9h"):
        state = state.play(cards)
    state = state.pass_turn().pass_turn()
    assert state.rotted == (0,)
    assert "; bottom 0" in state.notation()
    assert_game_round_trips(random_game(state, 1), 0)


def test_an_instant_win_round_trips() -> None:
    """A game won at the deal (RULES §6.7): ``won <seat> <hand>``, its result rebuilt."""
    state = GameState.from_hands(["2s 2c 2d 2h 3s", "4s 5s 6s 7s 9h"], POKER)
    assert state.result is not None
    assert state.result.instant_win is InstantWin.FOUR_TWOS
    assert state.notation().endswith("; to -; won 0 four-twos")
    assert_round_trip(state)


def test_the_declinable_first_lead_round_trips() -> None:
    """3♠ may be declined at tables allowing it (RULES §3.3): ``first 3s declinable``."""
    rules = attrs.evolve(CLASSIC, name="decline", may_decline_first_lead=True)
    state = GameState.from_hands(["3s 7h", "4d 9c"], rules)
    assert state.notation().endswith("; to 0; first 3s declinable")
    back = assert_round_trip(state)
    assert back.pass_turn() == state.pass_turn()


def test_a_later_game_keeps_its_setup() -> None:
    """The setup (not part of equality) survives: a later game's leader and dealer (§2.4)."""
    state = GameState.deal(
        CLASSIC, 4, seed=3, first_game=False, leader=2, after_instant_win=True, dealer=1
    )
    assert state.notation().endswith(
        "; setup later leader 2 dealer 1 after-instant-win"
    )
    assert_round_trip(state)


def test_a_game_over_with_an_open_chain_is_refused() -> None:
    """A game ends on a play: a catch that ends it is paid at once, so no chain is open.

    This line (seat 0's 2♥ on the pile, yet "caught" by seat 1) was read before
    issue 20 and scored the chain; it is a position no game reaches.
    """
    text = (
        "tienlen 1; rules poker; hands - / 9s; played 3s 2h / 4s 4c 4d 4h; "
        "to -; top 2h by 0; out 0; chop 0 pays 1 4 for 2h; over 0 1"
    )
    with pytest.raises(NotationError) as caught:
        GameState.from_notation(text)
    assert caught.value.field == "chop"


def test_rule_sets_holding_code_are_refused() -> None:
    """A custom policy, a custom instant win or a subclass is code, not notation."""
    custom = [
        attrs.evolve(CLASSIC, name="t", custom_turn_policy=TurnPolicy()),
        attrs.evolve(
            CLASSIC,
            name="w",
            instant_wins={CustomInstantWin(name="x", test=lambda _: False)},
        ),
    ]
    for rules in custom:
        state = GameState.from_hands(["3s 7h", "4d 9c"], rules)
        with pytest.raises(NotationError) as caught:
            state.notation()
        assert caught.value.field == "rules"
        assert isinstance(caught.value, ValueError)


BASE = "tienlen 1; rules classic; hands 3s 7h / 4d 9c; "
BAD: list[tuple[str, str]] = [
    ("", "header"),
    ("tienlen 2; rules classic; hands 3s / 4s; to 0", "header"),
    ("chess 1", "header"),
    ("tienlen 1; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic; to 0", "hands"),
    ("tienlen 1; rules classic; hands 3s / 4s", "to"),
    (BASE + "to 0; colour red", "notation"),
    (BASE + "to 0; to 1", "to"),
    ("tienlen 1; rules chess; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic twos=1; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic hand_size=true; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic hand_size=[1; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic min_players=9; hands 3s / 4s; to 0", "rules"),
    ("tienlen 1; rules classic; hands 3s / 4x; to 0", "hands"),
    ("tienlen 1; rules classic; hands 3s / 3s; to 0", "hands"),
    ("tienlen 1; rules classic; hands 3s /  ; to 0", "hands"),
    ("tienlen 1; rules classic; hands 3s; to 0", "hands"),
    ("tienlen 1; rules poker; hands 3s / 4s / 5s / 6s / 7s; to 0", "hands"),
    (BASE + "played 5s; to 0", "played"),
    (BASE + "played 3s / -; to 0", "played"),
    (BASE + "to 2", "to"),
    (BASE + "to x", "to"),
    (BASE + "to -", "to"),
    ("tienlen 1; rules classic; hands - / 4d; played 3s / -; to 0; out 0", "to"),
    ("tienlen 1; rules classic; hands - / 4d; played 3s / -; to 1", "hands"),
    (BASE + "to 0; out 0", "out"),
    (BASE + "to 0; top 3s", "top"),
    (BASE + "to 0; top 3s by 0", "top"),
    (BASE + "to 0; top 3s 9c by 0", "top"),
    (BASE + "played 5s / -; to 0; top 5s by 1", "top"),
    (
        BASE.replace("/ 4d 9c", "/ 9c") + "played - / 4d; to 0; top 4d by 1 beat 0",
        "top",
    ),
    (BASE + "to 0; passed 0 0", "passed"),
    (BASE + "to 0; passed 5", "passed"),
    (BASE + "to 0; first 4d", "first"),
    (BASE + "to 0; first 3s 7h", "first"),
    (BASE + "to 0; first 3s maybe", "first"),
    (BASE + "to 0; frozen 1; bottom 0", "bottom"),
    (BASE + "to 0; chop 0 pays 1", "chop"),
    (BASE + "to 0; chop 0 pays 1 x for 2h", "chop"),
    (BASE + "to 0; chop 0 pays 1 4 for 3s 7h", "chop"),
    (BASE + "to 0; items bonus 0 scores 1", "items"),
    (BASE + "to 0; items stake 0 gives 1", "items"),
    (BASE + "to 0; items stake 0 pays 7 1", "items"),
    (BASE + "to 0; over 0 1", "over"),
    (BASE + "to -; over 0 0", "over"),
    (BASE + "to -; over 1 0 2", "over"),
    (BASE + "to -; over 0 1", "over"),
    (
        "tienlen 1; rules classic; hands - / 4d / 5d; played 3s / - / -; to 1; out 0; over 0 1 2",
        "over",
    ),
    ("tienlen 1; rules classic; hands - / 4d; played 3s / -; to 1; out 0", "out"),
    (BASE + "to -; won 0 four-twos", "won"),
    (BASE + "to -; won 0 four-twos; over 0 1", "won"),
    (BASE + "to 0; setup later later", "setup"),
    (BASE + "to 0; setup dealer", "setup"),
    (BASE + "to 0; setup dealer 4", "setup"),
    (BASE + "to 0; setup", "setup"),
    ("x" * (MAX_LENGTH + 1), "notation"),
]


@pytest.mark.parametrize(("text", "field"), BAD)
def test_bad_text_is_refused_naming_the_field(text: str, field: str) -> None:
    """Bad text: a `NotationError` (`TienLenError`, `ValueError`) naming field and place."""
    with pytest.raises(NotationError) as caught:
        read(text)
    error = caught.value
    assert isinstance(error, TienLenError)
    assert isinstance(error, ValueError)
    assert error.field == field, str(error)
    assert error.position is not None
    assert 0 <= error.position <= len(text)
    assert f"at {field} (character {error.position})" in str(error)
    assert len(str(error)) < 400
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301  # our own bytes
    assert (type(copy), str(copy), copy.field, copy.position) == (
        type(error),
        str(error),
        error.field,
        error.position,
    )


def test_a_refusal_points_at_the_bad_card() -> None:
    """The position is the character where the fault is, not just the field."""
    text = "tienlen 1; rules classic; hands 3s 7h / 4d 9x; to 0"
    with pytest.raises(NotationError) as caught:
        read(text)
    assert text[caught.value.position :].startswith("4d 9x")


def test_wrong_types_are_type_errors() -> None:
    """Only text is notation (a wrong type is a `TypeError`)."""
    with pytest.raises(TypeError):
        read(b"tienlen 1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        write("tienlen 1")  # type: ignore[arg-type]


@given(st.text(max_size=200))
def test_any_text_is_read_or_refused(text: str) -> None:
    """Random text never crashes the reader: a state or a `NotationError`."""
    try:
        state = read(BASE + text)
    except NotationError:
        return
    assert read(state.notation()) == state


@given(st.data())
def test_mutated_notation_is_read_or_refused(data: st.DataObject) -> None:
    """A valid line with a character changed, dropped or doubled: a state or a refusal."""
    states = poker_chop_chain()
    text = data.draw(st.sampled_from(states)).notation()
    at = data.draw(st.integers(0, len(text) - 1))
    replacement = data.draw(
        st.sampled_from(["", text[at] * 2, "0", "9", "/", ";", " ", "-"])
    )
    mutated = text[:at] + replacement + text[at + 1 :]
    try:
        state = read(mutated)
    except NotationError:
        return
    assert read(state.notation()) == state


def test_a_state_from_notation_pickles_with_its_position() -> None:
    """A restored state crosses a process pool: equal, same setup, same history."""
    state = GameState.from_notation(poker_chop_chain()[5].notation())
    state = state.play("7s 7c 7d 7h")
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301  # our own bytes
    assert copy == state
    assert copy.setup == state.setup
    assert copy.history == state.history


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000", "\u202f"])
def test_unicode_spaces_read_as_spaces(space: str) -> None:
    """Issue 20 finding 9: any Unicode space separates words, as in card text."""
    text = "tienlen 1; rules classic; hands 7h / 9c; played 3s / 4d; to 0; top 4d by 1"
    assert read(text.replace(" ", space)) == read(text)


def test_unicode_spaces_inside_a_name_are_kept() -> None:
    """A space inside a JSON string (a rule set's name) is part of the name."""
    rules = attrs.evolve(CLASSIC, name="our\u00a0table")
    state = GameState.from_hands(["3s 7h", "4d 9c"], rules)
    assert read(write(state)).rules.name == "our\u00a0table"
    spaced = write(state).replace(" ", "\u3000")
    assert read(spaced).rules.name == "our\u00a0table"
