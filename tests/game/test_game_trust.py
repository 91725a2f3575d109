"""The trusted fast path of `GameState.apply` cannot be forged (issue 14, items 1, 8, 9).

A `Play` listed by `GameState.legal_actions` is applied without a second check; the
trust token it carries is never pickled or copied, and no other game or process can
produce it, so a play that travelled is always checked in full (RULES §1.5).
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle  # the tests pickle their own objects

import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    Action,
    GameState,
    IllegalPlayError,
    IllegalReason,
    Pass,
    Play,
)
from tienlen.players import poll_jump_ins


def _pickled_first_play(seed: int) -> bytes:
    """In a fresh process: the first legal play of a seeded deal, pickled."""
    state = GameState.deal(CLASSIC, 4, seed=seed)
    return pickle.dumps(state.legal_actions()[0])


def test_a_play_pickled_in_another_game_is_checked_in_full() -> None:
    """A trusted play of game A, pickled and applied in game B, is refused there."""
    game_a = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    game_b = GameState.from_hands(["5d 6d", "3s 4s"], CLASSIC)
    play = game_a.legal_actions()[0]
    travelled_plays = (pickle.loads(pickle.dumps(play)), copy.copy(play), play)  # noqa: S301
    for travelled in travelled_plays:
        with pytest.raises(IllegalPlayError) as error:
            game_b.apply(travelled)
        assert error.value.reason is IllegalReason.NOT_YOUR_TURN


def test_a_play_pickled_in_another_process_is_checked_in_full() -> None:
    """A play pickled in a spawned process (pid semantics as a container's pid 1).

    The same deal there and here: the play is checked in full, refused where illegal.
    """
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        data = pool.apply(_pickled_first_play, (5,))
    play = pickle.loads(data)  # noqa: S301
    state = GameState.deal(CLASSIC, 4, seed=5)
    assert state.apply(play) == state.apply(state.legal_actions()[0])
    after = state.apply(play)
    assert not after.is_legal(play)
    with pytest.raises(IllegalPlayError):
        after.apply(play)


def test_pickled_actions_lose_their_trust() -> None:
    """`Actions` pickle as a plain tuple of untrusted actions."""
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    actions = pickle.loads(pickle.dumps(state.legal_actions()))  # noqa: S301
    assert actions == (Play(player=0, cards="3s"),)
    other = GameState.from_hands(["5d 6d", "3s 4s"], CLASSIC)
    with pytest.raises(IllegalPlayError):
        other.apply(actions[0])


@pytest.mark.parametrize("player", [True, 1.0, "1", None])
def test_non_int_players_are_refused_at_construction(player: object) -> None:
    """`Play` and `Pass` refuse a player that is not an integer with `TypeError`."""
    with pytest.raises(TypeError):
        Pass(player=player)
    with pytest.raises(TypeError):
        Play(player=player, cards="3s")  # type: ignore[arg-type]


class _Liar(int):
    """An int whose ``==`` is always true."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


def test_an_int_subclass_player_is_read_as_its_plain_value() -> None:
    """``check``, ``is_legal``, ``apply`` and ``in`` agree on a lying int subclass."""
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    for action in (Pass(player=_Liar(1)), Play(player=_Liar(1), cards="5d")):
        assert type(action.player) is int
        assert action.player == 1
        assert not state.is_legal(action)
        assert action not in state.legal_actions()
        with pytest.raises(IllegalPlayError):
            state.check(action)
        with pytest.raises(IllegalPlayError):
            state.apply(action)


def test_a_play_never_initialised_is_refused_as_no_seat() -> None:
    """``Play.__new__(Play)`` is a play of seat -1 with no cards: every check refuses it."""
    blank = Play.__new__(Play)
    assert (blank.player, blank.mask, str(blank)) == (-1, 0, "")
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    assert not state.is_legal(blank)
    with pytest.raises(IllegalPlayError) as caught:
        state.apply(blank)
    assert caught.value.reason is IllegalReason.UNKNOWN_PLAYER


def test_deepcopy_and_pickle_of_a_long_game() -> None:
    """A game of more than 329 actions deep-copies and pickles (no recursion limit)."""
    state = GameState.deal(CLASSIC_TWO_DECKS, 8, seed=1)
    while not state.is_over:  # lead the lowest card, everyone else passes
        actions = state.legal_actions()
        state = state.apply(
            actions[-1] if isinstance(actions[-1], Pass) else actions[0]
        )
    assert len(state.history) > 329
    assert copy.deepcopy(state) is state
    copied = pickle.loads(pickle.dumps(state))  # noqa: S301
    assert copied == state
    assert copied.history == state.history


def test_a_bot_cannot_add_a_play_to_its_jump_in_offer() -> None:
    """The offer is an immutable tuple and only an offered play jumps in (RULES §6.4)."""
    state = GameState.from_hands(
        ["3s 2h", "4s 4c 5s 5c 6s 6c 7s 7c 9d", "8d Kd"],
        POKER,
        first_game=False,
        leader=0,
    ).play("2h", 0)
    invented = Play(player=1, cards="9d")

    def ask(_seat: int, offer: tuple[Action, ...]) -> Play:
        assert isinstance(offer, tuple)
        return invented

    own, chosen = poll_jump_ins(state, ask)
    assert chosen is None
    assert invented not in own
