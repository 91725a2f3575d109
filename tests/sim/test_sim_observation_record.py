"""Observations are cheap and share the game's record (issue 11 §1, issue 12).

`play_game` builds an `Observation` per decision without copying the history: its
`history` and `played` are read from the state's own record of actions when first
read. The fields, equality, pickling and immutability stay those of a value, and the
setup flags (`first_game`, `after_instant_win`) come from `GameState.setup`.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import attrs
import pytest

from tests.strategies import PRESETS
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    POKER,
    Action,
    BaseRules,
    GameState,
    GreedyPlayer,
    Hand,
    Observation,
    Play,
    Player,
    RandomPlayer,
    play_game,
)
from tienlen.engine.view import LOG

PRESET_IDS = [rules.name for rules in PRESETS]


@attrs.frozen
class Reader:
    """Reads every field (lazy ones included) before delegating, and keeps them."""

    inner: Player = attrs.field(factory=RandomPlayer)
    seen: list[tuple[Observation, GameState | None]] = attrs.field(
        factory=list, eq=False
    )

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Read `history` and `played` (a mutation check must not object), then act."""
        assert observation.history is observation.history  # computed once
        assert isinstance(observation.played, Hand)
        self.seen.append((observation, None))
        return self.inner.act(observation, actions, rng)


def _played(state: GameState) -> Hand:
    """Every card played: the dealt hands less the hands held."""
    played = Hand(0)
    for dealt, hand in zip(state.dealt, state.hands, strict=True):
        played += dealt - hand
    return played


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_lazy_fields_equal_the_states_own(rules: BaseRules) -> None:
    """Every decision's history and played cards are the state's (RULES §1.5)."""
    rng = random.Random(4)
    for _ in range(3):
        state = GameState.deal(rules, players=4, seed=rng)
        while not state.is_over:
            for seat in range(4):
                seen = Observation.of(state, seat)
                assert seen.history == state.history
                assert seen.played == _played(state)
                assert seen.first_game == state.setup.first_game
                assert seen.after_instant_win == state.setup.after_instant_win
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_lazy_fields_of_a_game_played_by_masks(rules: BaseRules) -> None:
    """A game stepped by `apply_mask` (as the RL environments do) observes the same.

    The record keeps an action applied by its mask as an int; `history` still holds
    `Play` and `Pass` objects and `played` every card played.
    """
    rng = random.Random(5)
    state = GameState.deal(rules, players=4, seed=rng)
    while not state.is_over:
        masks = state.legal_actions().masks
        state = state.apply_mask(masks[rng.randrange(len(masks))])
        for seat in range(4):
            seen = Observation.of(state, seat)
            assert seen.history == state.history
            assert seen.played == _played(state)


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_play_game_observations_read_lazily_without_a_player_error(
    rules: BaseRules,
) -> None:
    """A bot reading the lazy fields is not taken for one that changed its observation.

    What it read equals `Observation.of` of the same position, whatever the seat.
    """
    readers = [Reader(GreedyPlayer()) for _ in range(4)]
    final = play_game(
        GameState.deal(rules, players=4, seed=9), readers, random.Random(9)
    )
    replay = GameState.deal(rules, players=4, seed=9)
    assert final.is_over
    decisions = sorted(
        (len(seen.history), seen.seat, seen) for r in readers for seen, _ in r.seen
    )
    states = {0: replay}
    for action in final.history:
        replay = replay.apply(action)
        states[len(replay.history)] = replay
    for steps, seat, seen in decisions:
        assert seen == Observation.of(states[steps], seat)


def test_observations_share_the_states_record() -> None:
    """No history is copied per decision: observations hold the state's record."""
    state = GameState.from_hands(["3s 7h 8h", "4d 9c", "5c Jd 2s"], CLASSIC).play("3s")
    seen = Observation.of(state, 1)
    assert seen.__dict__["_view"][LOG] is state._log
    assert set(vars(seen)) == {"_view"}  # nothing computed until read
    assert [str(action) for action in seen.history] == ["3s"]
    assert seen.played == Hand.parse("3s")


def test_a_lazy_observation_pickles_copies_and_compares_as_a_value() -> None:
    """Pickling and copying keep every field; equality and hashing are by value."""
    state = GameState.deal(CLASSIC, players=4, seed=3)
    for action in list(state.legal_actions())[:1]:
        state = state.apply(action)
    seen = Observation.of(state, 1)
    back = pickle.loads(pickle.dumps(seen))  # noqa: S301 - our own bytes
    assert back == seen
    assert hash(back) == hash(seen)
    assert back.history == seen.history
    assert all(
        type(action) is not Play or action in back.history for action in seen.history
    )
    assert attrs.evolve(seen, seat=1) == seen
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        seen.history = ()  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = seen.nothing  # type: ignore[attr-defined]


def test_setup_flags_follow_the_deal() -> None:
    """`first_game` and `after_instant_win` are the setup's (RULES §2.4, D-16)."""
    state = GameState.deal(
        POKER, players=4, seed=5, first_game=False, after_instant_win=True
    )
    seen = Observation.of(state, 2)
    assert (seen.first_game, seen.after_instant_win) == (False, True)
    built = attrs.evolve(seen)
    assert (built.first_game, built.after_instant_win) == (False, True)


def _reference(state: GameState, seat: int) -> dict[str, object]:
    """Every observation field of *seat*, from the state's public API alone."""
    acting = seat == state.to_act
    return {
        "seat": seat,
        "hand": state.hand(seat),
        "rules": state.rules,
        "players": state.players,
        "direction": state.rules.direction,
        "to_act": state.to_act,
        "jumping_in": state.to_act is not None and not acting,
        "top": state.top,
        "last_player": state.last_player,
        "passed": state.passed,
        "out": frozenset(p for p in range(state.players) if state.out >> p & 1),
        "finish_order": state.finish_order,
        "frozen": state.frozen,
        "card_counts": tuple(len(hand) for hand in state.hands),
        "played": Hand(sum(a.cards.mask for a in state.history if isinstance(a, Play))),
        "history": state.history,
        "must_include": state.must_include if acting else None,
        "may_decline": acting and state.may_decline,
        "may_continue": acting and seat == state.last_player and state.is_continuing,
        "first_game": state.setup.first_game,
        "after_instant_win": state.setup.after_instant_win,
    }


@pytest.mark.parametrize("rules", [CLASSIC, POKER, JUSTUS_PANG], ids=lambda r: r.name)
def test_every_lazy_field_reads_as_the_state_says(rules: BaseRules) -> None:
    """Issue 21 item 3: each field, read alone from a fresh lazy observation, is right.

    Fields are read one per fresh observation (so none is computed by another), and
    compared with the state's public API; the quick properties too.
    """
    rng = random.Random(11)
    state = GameState.deal(rules, 4, rng)
    while not state.is_over:
        for seat in range(4):
            expected = _reference(state, seat)
            for name, value in expected.items():
                assert getattr(Observation.of(state, seat), name) == value, name
            seen = Observation.of(state, seat)
            assert seen.hand_mask == state.hand(seat).mask
            assert seen.is_leading == (seat == state.to_act and state.top is None)
            others = [
                len(state.hand(p))
                for p in range(4)
                if p != seat and not state.out >> p & 1
            ]
            assert seen.fewest_opponent_cards == (min(others) if others else None)
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
