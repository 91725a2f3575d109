"""Issue 21 item 3: `act` is always called; trust is a capability any bot declares.

A bot class declaring ``changes_nothing = True`` is asked without the snapshot and
fingerprint; the library's bots declare it like anyone may. Nothing is trusted by
type: a subclass, a patched ``act`` or a wrapper of a library bot is called.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from typing import ClassVar

import attrs
import pytest

import tienlen
from tienlen import (
    CLASSIC,
    POKER,
    Action,
    BaseRules,
    GameState,
    GreedyPlayer,
    Observation,
    Play,
    Player,
    PlayerError,
    RandomPlayer,
    play_game,
)
from tienlen.actions import Actions
from tienlen.engine.referee import trusts


@attrs.define
class Counting:
    """Counts the calls of *inner*'s ``act`` and keeps what each call was handed."""

    inner: object
    calls: int = 0
    handed: list[Sequence[Action]] = attrs.field(factory=list)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Count, keep the actions, delegate."""
        self.calls += 1
        self.handed.append(actions)
        return self.inner.act(observation, actions, rng)  # type: ignore[attr-defined, no-any-return]


class DeclaredCounting(Counting):
    """A `Counting` wrapper that declares it changes nothing, as any bot may."""

    changes_nothing: ClassVar[bool] = True


def test_the_library_bots_declare_it_like_anyone() -> None:
    """`RandomPlayer` and `GreedyPlayer` declare it on the class; an instance cannot."""
    assert RandomPlayer.changes_nothing is True
    assert GreedyPlayer.changes_nothing is True
    assert trusts(RandomPlayer())
    assert trusts(GreedyPlayer())

    class Instance:
        def act(
            self, observation: object, actions: Sequence[Action], rng: object
        ) -> Action:
            del observation, rng
            return actions[0]

    bot = Instance()
    bot.changes_nothing = True  # type: ignore[attr-defined]
    assert not trusts(bot)


def test_a_users_declared_bot_gets_the_same_path() -> None:
    """A user's declared bot is handed the state's own actions, an undeclared one a copy."""
    declared = DeclaredCounting(RandomPlayer())
    guarded = Counting(RandomPlayer())
    play_game(
        GameState.deal(CLASSIC, 4, 2),
        [declared, guarded, declared, guarded],
        random.Random(2),
    )
    assert declared.calls
    assert guarded.calls
    assert all(type(a) is Actions and a._state is not None for a in declared.handed)
    assert all(type(a) is Actions and a._state is None for a in guarded.handed)


@pytest.mark.parametrize("base", [RandomPlayer, GreedyPlayer])
def test_a_subclass_overriding_act_is_called(base: type) -> None:
    """A subclass of a library bot that overrides ``act`` is asked every decision."""
    calls = []

    class Sub(base):  # type: ignore[misc]
        def act(
            self,
            observation: Observation,
            actions: Sequence[Action],
            rng: random.Random,
        ) -> Action:
            calls.append(observation.seat)
            return super().act(observation, actions, rng)  # type: ignore[no-any-return]

    final = play_game(GameState.deal(CLASSIC, 4, 5), [Sub()] * 4, random.Random(5))
    assert len(calls) == len(final.history)


@pytest.mark.parametrize("base", [RandomPlayer, GreedyPlayer])
def test_a_patched_act_is_called(base: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """A monkeypatched ``act`` on a library bot's class is what the referee calls."""
    calls = []
    original = base.act  # type: ignore[attr-defined]

    def patched(
        self: object,
        observation: Observation,
        actions: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        calls.append(observation.seat)
        return original(self, observation, actions, rng)  # type: ignore[no-any-return]

    monkeypatch.setattr(base, "act", patched)
    final = play_game(GameState.deal(CLASSIC, 4, 6), [base()] * 4, random.Random(6))
    assert len(calls) == len(final.history)


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_a_wrapper_is_called_and_plays_the_same_games(rules: object) -> None:
    """A wrapper of a library bot is called every decision and changes no game."""
    for seed in range(3):
        start = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
        bots: list[Player] = [
            GreedyPlayer(),
            RandomPlayer(),
            GreedyPlayer(),
            RandomPlayer(),
        ]
        wrapped: list[Counting] = [Counting(bot) for bot in bots]
        plain = play_game(start, bots, random.Random(seed))
        final = play_game(start, wrapped, random.Random(seed))
        assert final.history == plain.history
        assert sum(w.calls for w in wrapped) >= len(final.history)


class ForgingDeclared:
    """Declares ``changes_nothing``, then changes the cards of a play it was handed."""

    changes_nothing: ClassVar[bool] = True

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The first play, its cards swapped for another seat's (the token kept)."""
        del observation, rng
        play = actions[0]
        if isinstance(play, Play) and len(play.cards) == 1:
            object.__setattr__(play, "_mask", play._mask << 1 or 1)
        return play


def test_a_declared_bot_that_changes_a_play_is_still_caught() -> None:
    """The referee checks a declared bot's play on its cards, whatever its token."""
    with pytest.raises(PlayerError, match="not one of its"):
        play_game(
            GameState.from_hands(["3s 5s", "4d 6d"], CLASSIC),
            [ForgingDeclared()] * 2,
            random.Random(0),
        )


class MaskSetting:
    """Sets the mask of the first play it was handed to *mask*, around `Play`."""

    def __init__(self, mask: object) -> None:
        self.mask = mask

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The first play (the token kept), holding no hand's cards."""
        del observation, rng
        play = next(action for action in actions if isinstance(action, Play))
        object.__setattr__(play, "_mask", self.mask)  # compiled: an int, or TypeError
        return play


class DeclaredMaskSetting(MaskSetting):
    """`MaskSetting`, declaring ``changes_nothing``."""

    changes_nothing: ClassVar[bool] = True


@pytest.mark.parametrize("bot", [MaskSetting, DeclaredMaskSetting])
@pytest.mark.parametrize("mask", [-1, 1 << 200, 1 << 52, "3s", 1.5, None])
def test_a_play_set_to_no_hand_is_a_player_error(
    mask: object, bot: type[MaskSetting]
) -> None:
    """A mask no hand has (negative, too long, a second copy alone, not an int).

    The referee refuses it as any other choice it did not offer, never with the
    card error reading such a mask raises. Compiled, a play's mask is typed: a
    non-int cannot be stored, and the bot's own `TypeError` is its error.
    """
    start = GameState.from_hands(["3s 5s", "4d 6d"], CLASSIC)
    with pytest.raises(PlayerError) as caught:
        play_game(start, [bot(mask)] * 2, random.Random(0))
    if type(mask) is int or not tienlen.COMPILED:
        assert "not one of its" in caught.value.problem
    else:
        assert isinstance(caught.value.__cause__, TypeError)


class BlankPlaying:
    """Returns a `Play` built around its constructor: no field set."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """A blank play."""
        del observation, actions, rng
        return Play.__new__(Play)


class DeclaredBlankPlaying(BlankPlaying):
    """`BlankPlaying`, declaring ``changes_nothing``."""

    changes_nothing: ClassVar[bool] = True


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
@pytest.mark.parametrize("bot", [BlankPlaying, DeclaredBlankPlaying])
def test_a_play_with_no_field_set_is_a_player_error(
    rules: BaseRules, bot: type[BlankPlaying]
) -> None:
    """Reading a field the play lacks raises inside the referee: refused, not raised.

    Poker asks about jump-ins too, on offers of plays built for them.
    """
    for seed in range(5):
        with pytest.raises(PlayerError) as caught:
            play_game(GameState.deal(rules, 4, seed), [bot()] * 4, random.Random(seed))
        assert "not one of its" in caught.value.problem
        copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
        assert copy.seat == caught.value.seat


class Returning:
    """Declares ``changes_nothing`` and returns *answer* (or raises it)."""

    changes_nothing: ClassVar[bool] = True

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def act(self, observation: object, actions: object, rng: object) -> object:
        """*answer*, raised if it is an exception."""
        del observation, actions, rng
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize("answer", [None, "3s", KeyError("x")], ids=repr)
def test_a_declared_bot_that_breaks_is_a_player_error(answer: object) -> None:
    """A declared bot that raises or returns a non-action ends the game cleanly."""
    state = GameState.from_hands(["3s 5s", "4d 6d"], CLASSIC)
    with pytest.raises(PlayerError) as caught:
        play_game(state, [Returning(answer)] * 2, random.Random(0))  # type: ignore[list-item]
    assert caught.value.seat == 0


class Scribbling:
    """Writes into its observation's fields, then plays its first action."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Plant another hand in the observation."""
        del rng
        observation.__dict__["hand"] = observation.hand | observation.hand
        observation.__dict__["card_counts"] = (0,) * observation.players
        return actions[0]


class DeclaredScribbling(Scribbling):
    """The same, declaring ``changes_nothing`` (a broken promise)."""

    changes_nothing: ClassVar[bool] = True


def test_what_the_referee_sees_of_a_broken_promise() -> None:
    """A change to the observation is caught for a guarded bot, not a declared one.

    The documented limit (docs/bots.md, "Fast bots"): a declared bot is asked without
    the snapshot, so a change that leaves its choice an offered action goes unseen;
    the game it plays is still legal.
    """
    state = GameState.from_hands(["3s 5s", "4d 6d"], CLASSIC)
    with pytest.raises(PlayerError, match="changed the observation"):
        play_game(state, [Scribbling()] * 2, random.Random(0))
    assert play_game(state, [DeclaredScribbling()] * 2, random.Random(0)).is_over


def test_a_time_limit_guards_a_declared_bot() -> None:
    """Under a time limit a declared bot is checked like any other."""
    state = GameState.from_hands(["3s 5s", "4d 6d"], CLASSIC)
    with pytest.raises(PlayerError, match="changed the observation"):
        play_game(state, [DeclaredScribbling()] * 2, random.Random(0), time_limit=60)
