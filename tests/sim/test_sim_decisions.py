"""The checks of each decision in `play_game` are cheap and still whole (issue 11 §1, 14 §4).

What a player is handed is immutable by construction or fingerprinted: the
observation's fields (a dict of immutable values), the actions' attributes (their
lists sealed into tuples), a lazy lead list's contents, and every play it returns
(its trust token is bound to its player and cards). Whatever a bot changes, the game
ends with a `PlayerError` for its seat, and nothing it changed is applied.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import attrs
import pytest

import tienlen.engine.view
import tienlen.players
from tienlen import (
    CLASSIC,
    POKER,
    Action,
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
from tienlen.engine.movegen import Leads
from tienlen.engine.referee import play_out


class Tampering:
    """Plays at random; when *when* holds, returns what *tamper* makes of its actions."""

    def __init__(
        self,
        when: Callable[[Observation, Sequence[Action]], bool],
        tamper: Callable[[Sequence[Action]], Action],
    ) -> None:
        self.when = when
        self.tamper = tamper

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """A random action, tampered with at the chosen moment."""
        choice = actions[int(rng.random() * len(actions))]
        if self.when(observation, actions):
            return self.tamper(actions)
        return choice


def _leading(_observation: Observation, actions: Sequence[Action]) -> bool:
    return type(actions) is Actions and type(actions._masks) is Leads


def _following(observation: Observation, actions: Sequence[Action]) -> bool:
    return observation.top is not None and any(type(a) is Play for a in actions)


def _changed_cards(actions: Sequence[Action]) -> Action:
    """The first play, given a card of the deck's top rank nobody may hold twice."""
    play = next(a for a in actions if type(a) is Play)
    object.__setattr__(play, "_mask", play._mask ^ 1 << 51)
    return play


def _changed_seat(actions: Sequence[Action]) -> Action:
    play = next(a for a in actions if type(a) is Play)
    object.__setattr__(play, "_player", (play.player + 1) % 4)
    return play


def _changed_leads(actions: Sequence[Action]) -> Action:
    """Replaces the first listed set of the lazy lead list by all four 2s."""
    leads = actions._masks  # type: ignore[attr-defined]  # the private lead list
    leads._head[0] = 0b1111 << 48
    return actions[0]


def _dropped_runs(actions: Sequence[Action]) -> Action:
    """Empties the maximal runs the lazy lead list expands when iterated."""
    leads = actions._masks  # type: ignore[attr-defined]  # the private lead list
    leads._found.clear()
    return actions[0]


def _changed_masks(actions: Sequence[Action]) -> Action:
    masks = actions._masks  # type: ignore[attr-defined]  # a tuple: this raises
    masks[0] = 0b1111 << 48
    return actions[0]


def _run(bot: Tampering, seed: int = 4) -> PlayerError:
    state = GameState.deal(CLASSIC, 4, seed)
    with pytest.raises(PlayerError) as caught:
        play_game(state, [bot] * 4, random.Random(seed))
    return caught.value


def test_a_returned_play_changed_after_it_was_listed_is_refused() -> None:
    """A play's cards or seat changed by the bot: not one of its legal actions."""
    for tamper in (_changed_cards, _changed_seat):
        error = _run(Tampering(_following, tamper))
        assert "which is not one of its" in error.problem


def test_a_changed_lead_list_is_seen() -> None:
    """The lazy lead list's own lists are fingerprinted (RULES §1.5.1 leads).

    Its listed sets, and the maximal runs that iterating it expands.
    """
    for tamper in (_changed_leads, _dropped_runs):

        def leading_with_runs(
            observation: Observation, actions: Sequence[Action]
        ) -> bool:
            return _leading(observation, actions) and bool(actions._masks._found)  # type: ignore[attr-defined]

        error = _run(Tampering(leading_with_runs, tamper))
        assert error.problem == "changed the observation or the actions it was handed"


def test_the_actions_hold_no_list_a_bot_could_change() -> None:
    """Following, the plays are a tuple: changing it raises inside the bot."""

    def sealed(observation: Observation, actions: Sequence[Action]) -> bool:
        return _following(observation, actions) and type(actions) is Actions

    error = _run(Tampering(sealed, _changed_masks))
    assert type(error.__cause__) is TypeError
    assert error.problem.startswith("raised TypeError")


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
@pytest.mark.parametrize("seed", range(6))
def test_checked_decisions_change_no_game(rules: object, seed: int) -> None:
    """The fast paths accept exactly what `apply` accepts: games equal a replay.

    Every action of a game between reference bots, replayed as a plain untrusted
    action through `GameState.apply` (checked in full), gives the same final state.
    """
    bots: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        GreedyPlayer(),
        RandomPlayer(),
    ]
    start = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
    final = play_game(start, bots, random.Random(seed))
    replay = start
    for action in final.history:
        plain = (
            Play(player=action.player, cards=action.cards)
            if type(action) is Play
            else action
        )
        replay = replay.apply(plain)
    assert replay == final
    assert replay.result == final.result


class _Hostile:
    """A value whose comparison raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing me")

    __hash__ = object.__hash__


def test_a_planted_value_that_cannot_be_compared_is_a_change() -> None:
    """A bot replacing an observation field by a hostile object ends with PlayerError."""

    def plant(observation: Observation, _actions: Sequence[Action]) -> bool:
        object.__setattr__(observation, "hand", _Hostile())
        return False

    error = _run(Tampering(plant, _changed_cards))
    assert error.problem == "changed the observation or the actions it was handed"


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_the_unchecked_entry_plays_the_same_games(rules: object) -> None:
    """`players.play_out(..., checked=False)` (search rollouts) gives `play_game`'s games."""
    bots: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        GreedyPlayer(),
        RandomPlayer(),
    ]
    for seed in range(8):
        start = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
        checked = play_game(start, bots, random.Random(seed))
        fast = play_out(start, bots, random.Random(seed), None, checked=False)
        assert fast == checked
        assert fast.history == checked.history


def test_the_unchecked_entry_still_refuses_an_illegal_action() -> None:
    """Unchecked, a bot's illegal action is still refused (RULES §1.5).

    The referee checks in full every choice that is not a play the state listed.
    """

    class Illegal:
        def act(
            self, observation: Observation, actions: Sequence[Action], rng: object
        ) -> Action:
            del actions, rng
            return Play(player=observation.seat, cards="2h 2d")

    start = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(PlayerError, match="not one of its"):
        play_out(start, [Illegal()] * 4, random.Random(1), None, checked=False)


def test_a_play_changed_inside_a_jump_in_offer_is_seen() -> None:
    """A Poker bot changing an offered jump-in's cards ends with a `PlayerError`.

    Player 3 has put 2h on 3s; player 1, asked first, holds four pairs (RULES §6.4).
    """
    state = (
        GameState.from_hands(
            ["3s Ts Tc Js Jc Qs Qc Ks Kc", "5s 5c 6s 6c 7s 7c 8s 8c 9c",
             "Ad Ah 4h", "2h 9d 4s"],
            POKER,
        )
        .play("3s")
        .play("2h")
    )  # fmt: skip

    def jumping(observation: Observation, _actions: Sequence[Action]) -> bool:
        return observation.jumping_in

    def widened(actions: Sequence[Action]) -> Action:
        play = actions[0]
        assert type(play) is Play
        object.__setattr__(
            play, "_mask", play._mask | 1 << 32
        )  # one card more (Js, not held)
        return play

    with pytest.raises(PlayerError) as caught:
        play_game(state, [Tampering(jumping, widened)] * 4, random.Random(0))
    assert caught.value.seat == 1
    assert caught.value.problem == (
        "changed the observation or the actions it was handed"
    )


class _CheckedRandom(RandomPlayer):
    """`RandomPlayer` under another type: `play_game` checks its every decision."""


class _CheckedGreedy(GreedyPlayer):
    """`GreedyPlayer` under another type: `play_game` checks its every decision."""


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_the_trusted_library_bots_play_the_checked_games(rules: object) -> None:
    """Trusting the library's own bots changes no game.

    Without a snapshot (and, for `RandomPlayer`, without an observation), their games
    equal those of the same bots checked in full, and those under a time limit.
    """
    trusted: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        GreedyPlayer(danger=4),
        RandomPlayer(),
    ]
    checked: list[Player] = [
        _CheckedGreedy(),
        _CheckedRandom(),
        _CheckedGreedy(danger=4),
        _CheckedRandom(),
    ]
    for seed in range(8):
        start = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
        fast = play_game(start, trusted, random.Random(seed))
        slow = play_game(start, checked, random.Random(seed))
        timed = play_game(start, trusted, random.Random(seed), time_limit=60)
        assert fast == slow == timed
        assert fast.history == slow.history == timed.history


def test_a_trusted_bot_that_raises_is_a_player_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A library bot that raises still ends the game with a `PlayerError` for its seat."""

    def broken(*_: object, **__: object) -> int:
        raise RuntimeError("broken heuristic")

    monkeypatch.setattr(tienlen.players, "greedy_act", broken)
    state = GameState.deal(CLASSIC, 4, 2)
    with pytest.raises(PlayerError) as caught:
        play_game(state, [RandomPlayer(), GreedyPlayer()] * 2, random.Random(2))
    assert caught.value.seat in {1, 3}
    assert caught.value.problem == "raised RuntimeError('broken heuristic')"
    assert type(caught.value.__cause__) is RuntimeError


def test_a_time_limit_checks_the_library_bots_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a time limit, a library bot is timed like any other (issue 14 §4)."""
    think = GreedyPlayer.act

    def slow(
        self: GreedyPlayer,
        seen: Observation,
        actions: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        time.sleep(0.03)
        return think(self, seen, actions, rng)

    monkeypatch.setattr(GreedyPlayer, "act", slow)
    state = GameState.deal(CLASSIC, 4, 3)
    with pytest.raises(PlayerError, match=r"over the time limit of 0\.01 s"):
        play_game(state, [GreedyPlayer()] * 4, random.Random(3), time_limit=0.01)


@pytest.mark.parametrize("name", ["hand_mask", "is_leading", "fewest_opponent_cards"])
def test_a_quick_property_is_read_by_its_engine_function(name: str) -> None:
    """The property's getter is `tienlen.engine.view`'s function: one call a read."""
    documented = vars(Observation)[name]
    assert documented.fget is getattr(tienlen.engine.view, name)
    assert "Example:" in documented.__doc__


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=["classic", "poker"])
def test_a_lazy_observation_reads_as_a_whole_one(rules: object) -> None:
    """Read from the snapshot, the quick properties equal a whole observation's.

    `attrs.evolve` builds the observation whole (every field through ``__init__``),
    so its properties are computed from its fields, not from the snapshot.
    """
    rng = random.Random(7)
    for seed in range(6):
        state = GameState.deal(rules, 4, seed)  # type: ignore[arg-type]
        while not state.is_over:
            for seat in range(4):
                lazy = Observation.of(state, seat)
                whole = attrs.evolve(Observation.of(state, seat))
                assert "_view" not in vars(whole)
                for name in ("hand_mask", "is_leading", "fewest_opponent_cards"):
                    assert getattr(lazy, name) == getattr(whole, name), name
                assert lazy == whole
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
