"""`tienlen.batch.Batch`: many games stepped together on ints, one decision each."""

from __future__ import annotations

import copy as copy_module
import pickle
import random

import pytest

from tienlen import CLASSIC, POKER, RULESETS, GameState, Hand, IllegalPlayError
from tienlen.batch import Batch
from tienlen.errors import InvalidArgumentError
from tienlen.rules import BaseRules

PRESETS = [pytest.param(rules, id=rules.name) for rules in RULESETS.values()]


def _deal(rules: BaseRules, rng: random.Random) -> GameState:
    """A deal with a player to act (no instant win)."""
    state = GameState.deal(rules, 4, rng)
    while state.is_over:
        state = GameState.deal(rules, 4, rng)
    return state


def _deals(rules: BaseRules, count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    return [_deal(rules, rng) for _ in range(count)]


RUN_5_TO_8 = "5s 5c 6s 6c 7s 7c 8s 8c"
RUN_9_TO_Q = "9s 9c Ts Tc Js Jc Qs Qc"


def _poker_jump_in() -> GameState:
    """Seat 3 to act on a 2 (it may beat it); seats 2 and 1 may bomb it (RULES §6.4)."""
    hands = ["2s 9h", RUN_9_TO_Q, RUN_5_TO_8, "4d 2h"]
    start = GameState.from_hands(hands, POKER, first_game=False, leader=0)
    return start.play("2s")


@pytest.mark.parametrize("rules", PRESETS)
def test_a_batch_plays_the_games_one_game_plays(rules: BaseRules) -> None:
    """Each game of a batch is the game its own states play: same decisions, same moves."""
    rng = random.Random(rules.name)
    games = Batch(_deals(rules, 6, 1))
    alone = list(games.states)
    for _ in range(400):
        chosen = []
        for game, state in enumerate(alone):
            plays, passes = games.plays[game], games.passes[game]
            if not games.polling(game):
                own, may_pass, _ = state.legal_actions().by_seat()
                assert (plays, passes) == (own, may_pass)
            options = [*plays, 0] if passes else list(plays)
            chosen.append(options[int(rng.random() * len(options))])
        moved, seats, masks, over = games.step(chosen)
        for game, seat, mask in zip(moved, seats, masks, strict=True):
            alone[game] = alone[game].apply_mask(mask, seat)
        assert list(games.states) == alone
        for game in over:
            assert alone[game].is_over
            alone[game] = _deal(rules, rng)
            games.restart(game, alone[game])


def test_jump_ins_are_asked_first_in_play_order_and_may_be_declined() -> None:
    """Before the player to act, each seat that may bomb the 2 is asked (RULES §6.4)."""
    state = _poker_jump_in()
    games = Batch([state, state])
    assert (games.deciders, games.polling(0), games.passes) == (
        (2, 2),
        True,
        (True, True),
    )
    low, high = Hand.parse(RUN_5_TO_8).mask, Hand.parse(RUN_9_TO_Q).mask
    assert games.plays == ((low,), (low,))
    moved, seats, masks, over = games.step([0, low])  # game 0 declines, game 1 bombs
    assert (moved, seats, masks, over) == ([1], [2], [low], [])
    assert games.deciders == (1, 1)  # game 0 asks seat 1; game 1: seat 1 may answer
    assert (games.polling(0), games.plays[0]) == (True, (high,))
    assert not games.polling(1)
    games.step([0, 0])  # seat 1 declines in game 0, passes in game 1
    assert (games.deciders[0], games.polling(0), games.passes[0]) == (3, False, True)
    assert games.plays[0] == (Hand.parse("2h").mask,)


def test_refused_steps_move_no_game() -> None:
    """A bad mask anywhere refuses the whole step and leaves every game as it was."""
    games = Batch(_deals(CLASSIC, 3, 2))
    before = (games.states, games.deciders, games.plays)
    legal = [plays[0] for plays in games.plays]
    held = games.states[1].hand_masks[games.deciders[1]]
    unheld = next(1 << card for card in range(52) if not held >> card & 1)
    with pytest.raises(IllegalPlayError):  # the first lead may not pass
        games.step([*legal[:2], 0])
    with pytest.raises(IllegalPlayError):  # a card the decider does not hold
        games.step([legal[0], unheld, legal[2]])
    with pytest.raises(InvalidArgumentError, match="expected 3 masks, got 2"):
        games.step(legal[:2])
    with pytest.raises(TypeError, match="a card mask is an int, got True"):
        games.step([True, *legal[1:]])
    assert (games.states, games.deciders, games.plays) == before
    games.step(legal)
    assert all(len(state.history) == 1 for state in games.states)


def test_a_legal_mask_not_offered_is_refused() -> None:
    """While a seat is asked about a jump-in, the player to act's play is not offered."""
    state = _poker_jump_in()
    games = Batch([state])
    own = state.legal_actions().by_seat()[0]
    assert own == (Hand.parse("2h").mask,)  # seat 3 may play it, but seat 2 decides now
    with pytest.raises(IllegalPlayError):
        games.step([own[0]])
    games._plays[0] = ()  # forged: seat 2's own bomb, legal, no longer offered
    with pytest.raises(InvalidArgumentError, match="seat 2 is not offered the mask"):
        games.step([Hand.parse(RUN_5_TO_8).mask])
    assert games.states == (state,)


def test_only_games_in_progress_are_batched() -> None:
    """A finished game, or anything but a `GameState`, is refused."""
    over = GameState.from_hands(["3s", "4d 5d"], CLASSIC).play("3s")
    assert over.is_over
    with pytest.raises(InvalidArgumentError, match="the game is over"):
        Batch([over])
    with pytest.raises(TypeError, match="expected a GameState, not str"):
        Batch(["3s"])  # type: ignore[list-item]
    games = Batch([GameState.from_hands(["3s", "4d 5d"], CLASSIC)])
    with pytest.raises(InvalidArgumentError):
        games.restart(0, over)
    assert games.states[0] is not over


def test_a_batch_pickles_and_copies_with_its_polls() -> None:
    """A copy holds the same games and decisions, a jump-in poll half asked included."""
    state = _poker_jump_in()
    games = Batch([state, *_deals(POKER, 2, 3)])
    games.step([0, *(plays[0] for plays in games.plays[1:])])  # seat 2 declines
    for copy in (pickle.loads(pickle.dumps(games)), copy_module.deepcopy(games)):  # noqa: S301
        assert type(copy) is Batch
        assert (copy.states, copy.deciders, copy.plays, copy.passes) == (
            games.states,
            games.deciders,
            games.plays,
            games.passes,
        )
        assert copy.deciders[0] == 1  # still asking seat 1 about its jump-in
        copy.step([0, *(plays[0] for plays in copy.plays[1:])])
        assert copy.deciders[0] == 3  # then the player to act
        assert games.deciders[0] == 1  # the original is untouched
    broken = Batch([])
    with pytest.raises(InvalidArgumentError, match="one decision per game"):
        broken.__setstate__(([state], [1], [], [True], [()], [False], [[]]))
    with pytest.raises(TypeError, match="expected a GameState, not str"):
        broken.__setstate__((["3s"], [1], [()], [True], [()], [False], [[]]))  # type: ignore[list-item]
