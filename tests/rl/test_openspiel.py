"""The OpenSpiel games (issue 24 §1) under OpenSpiel's, Shimmy's and PettingZoo's checks."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")
pytest.importorskip("shimmy")

import attrs
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from tienlen import (
    CLASSIC,
    DECK,
    KENNETH_LO,
    POKER,
    RULESETS,
    BaseRules,
    GameState,
    InvalidArgumentError,
    Play,
)
from tienlen.records import rules_to_json
from tienlen.rl.observation import ObservationEncoder
from tienlen.rl.openspiel import (
    GAME_NAMES,
    TienLenGame,
    TienLenState,
    game_name,
    rules_parameter,
)
from tienlen.rl.table import ActionTable
from tienlen.rl.turns import Turns
from tienlen.rules import two_decks

PRESETS = list(RULESETS)


def load(preset: str, **params: object) -> TienLenGame:
    """The registered game of *preset* with *params*."""
    game: TienLenGame = pyspiel.load_game(game_name(preset), params)
    return game


def deal(
    game: TienLenGame, hands: Sequence[Sequence[int]], dealer: int = 0
) -> TienLenState:
    """A state dealt *hands* (card indices per seat) through the chance nodes, round the table."""
    state = game.new_initial_state()
    players = game.num_players()
    if game.rules.decks == 2:
        state.apply_action(dealer)
    for k in range(players * len(hands[0])):
        state.apply_action(hands[k % players][k // players])
    return state


def library_hands(world: GameState) -> list[list[int]]:
    """The cards the chance nodes deal for *world*'s hands (Kenneth Lo's spare left out)."""
    hands = [sorted(card.index for card in hand) for hand in world.hands]
    sizes = {len(hand) for hand in hands}
    if len(sizes) == 2:  # the starter's 18th card is the spare: drop its highest
        starter = max(range(len(hands)), key=lambda seat: len(hands[seat]))
        hands[starter] = hands[starter][:-1]
    return hands


def play_random(game: TienLenGame, rng: random.Random) -> TienLenState:
    """One game with uniform chance and uniform legal actions."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def replayed(state: TienLenState) -> GameState:
    """The library's game from *state*'s deal, replayed action by action."""
    world = state.game_state
    assert world is not None
    players = world.players
    hands = [state.dealt(seat) for seat in range(players)]
    replay = GameState.from_hands(hands, world.rules, first_game=True)
    for action in world.history:
        replay = replay.apply(action)
    return replay


def test_registered() -> None:
    """Importing the module registers one game per preset, named as OpenSpiel names games."""
    names = set(pyspiel.registered_names())
    assert set(GAME_NAMES) <= names
    assert GAME_NAMES == {
        "python_tienlen_classic": "classic",
        "python_tienlen_justus_pang": "justus-pang",
        "python_tienlen_kenneth_lo": "kenneth-lo",
        "python_tienlen_vietcong": "vietcong",
        "python_tienlen_poker": "poker",
    }
    for name, preset in GAME_NAMES.items():
        game = pyspiel.load_game(name)
        kind = game.get_type()
        assert game.rules is RULESETS[preset]
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        zero_sum = preset != "poker"
        utility = pyspiel.GameType.Utility
        assert kind.utility == (utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM)
        assert game.num_distinct_actions() == 616
        assert game.max_chance_outcomes() == 52


@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test_every_preset(preset: str) -> None:
    """OpenSpiel's own random simulation test, with serialisation, for every preset."""
    pyspiel.random_sim_test(load(preset), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("preset", "players"),
    [("classic", 2), ("kenneth-lo", 3), ("poker", 3), ("classic", 6)],
)
def test_random_sim_test_table_sizes(preset: str, players: int) -> None:
    """The same test at other table sizes, six players on two decks."""
    game = load(preset, players=players)
    assert game.num_players() == players
    assert game.rules.decks == (2 if players > 4 else 1)
    assert game.num_distinct_actions() == (829 if players > 4 else 616)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("rules", "players"),
    [(CLASSIC, 4), (CLASSIC, 2), (KENNETH_LO, 3), (POKER, 4), (two_decks(CLASSIC), 6)],
)
def test_deal_matches_the_library(rules: BaseRules, players: int) -> None:
    """Dealing a library deal's cards through the chance nodes gives the library's state."""
    game = load(rules.name.removesuffix("-two-decks"), players=players)
    for seed in range(6):
        world = GameState.deal(rules, players, seed=seed)
        state = deal(game, library_hands(world), dealer=world.setup.dealer)
        assert state.game_state == world
        assert state.game_state.to_act == world.to_act
        assert [state.dealt(seat) for seat in range(players)] == list(world.hands)


def test_kenneth_lo_spare_card() -> None:
    """Kenneth Lo with three: the card left after 51 goes to the holder of the lowest dealt.

    Here 3♠ is that card, so the holder of 3♣ starts with 18 cards and leads freely
    (RULES §4.1, D-8).
    """
    game = load("kenneth-lo", players=3)
    cards = list(range(1, 52))  # every card but 3s (index 0)
    hands = [cards[seat::3] for seat in range(3)]  # 3c (index 1) goes to seat 0
    state = deal(game, hands)
    world = state.game_state
    assert world is not None
    assert [len(hand) for hand in world.hands] == [18, 17, 17]
    assert DECK[0] in world.hand(0)
    assert world.to_act == 0
    assert world.must_include is None


def test_two_deck_chance_outcomes() -> None:
    """With two decks, the dealer is drawn first, then each card by its copies left."""
    game = load("classic", players=6)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(seat, 1 / 6) for seat in range(6)]
    state.apply_action(2)
    state.apply_action(0)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[0] == pytest.approx(1 / 103)
    assert outcomes[1] == pytest.approx(2 / 103)
    assert sum(outcomes.values()) == pytest.approx(1)
    state.apply_action(0)
    assert 0 not in dict(state.chance_outcomes())
    with pytest.raises(InvalidArgumentError, match="not left to deal"):
        state.apply_action(0)


def _deals(rules: BaseRules, players: int, rng: random.Random) -> list[list[int]]:
    """Card indices per seat; under Poker seat 1 holds a jump-in (5-5-6-6-7-7-8-8)."""
    if rules is not POKER:
        return library_hands(GameState.deal(rules, players, seed=rng.randrange(10**6)))
    run = [
        card.index
        for card in DECK
        if card.rank.symbol in "5678" and card.suit.value < 2
    ]
    rest = [card.index for card in DECK if card.index not in run]
    rng.shuffle(rest)
    hands = [run + rest[:5]]
    others = iter(rest[5:])
    hands += [[next(others) for _ in range(13)] for _ in range(players - 1)]
    hands.insert(0, hands.pop(1))  # seat 1 holds the run
    return [sorted(hand) for hand in hands]


@pytest.mark.parametrize(
    ("preset", "players"), [("poker", 4), ("poker", 3), ("classic", 3)]
)
def test_decisions_match_turns(preset: str, players: int) -> None:
    """Decision for decision, the game asks what `Turns` (the RL environments) asks.

    The same deciders (Poker jump-in polls included), the same legal indices, the
    same library state after every action, and returns that are the library's scores.
    """
    game = load(preset, players=players)
    rng = random.Random(7)
    polls = 0
    for _ in range(6):
        state = deal(game, _deals(game.rules, players, rng))
        world = state.game_state
        assert world is not None
        turns = Turns(world, ActionTable.for_rules(game.rules))
        while not state.is_terminal():
            assert state.current_player() == turns.decider
            assert state.legal_actions() == turns.legal_indices()
            assert state.game_state == turns.state
            polls += turns.polling
            index = rng.choice(state.legal_actions())
            state.apply_action(index)
            turns.act(index)
        assert turns.decider is None
        assert state.game_state == turns.state
        result = replayed(state).result
        assert result is not None
        assert state.returns() == [float(score) for score in result.scores]
    if preset == "poker":
        assert polls > 0  # the jump-in questions were exercised


@pytest.mark.parametrize("preset", PRESETS)
def test_returns_are_the_library_scores(preset: str) -> None:
    """Returns equal the scores of the same game replayed by the library, within the bounds."""
    game = load(preset)
    rng = random.Random(3)
    for _ in range(4):
        state = play_random(game, rng)
        library = replayed(state)
        assert library == state.game_state
        assert library.result is not None
        assert state.returns() == [float(score) for score in library.result.scores]
        assert all(
            game.min_utility() <= r <= game.max_utility() for r in state.returns()
        )
        if preset != "poker":
            assert sum(state.returns()) == 0


@pytest.mark.parametrize("preset", ["classic", "poker"])
def test_history_within_the_bounds(preset: str) -> None:
    """Public actions fit the information-state tensor; decisions fit ``max_game_length``."""
    game = load(preset, players=3)
    bound = game._table.public_bound
    rng = random.Random(9)
    for _ in range(5):
        state = play_random(game, rng)
        assert state.game_state is not None
        assert len(state.game_state.history) <= bound
        decisions = [item for item in state.full_history() if item.player >= 0]
        assert len(decisions) <= game.max_game_length()


def test_serialisation_round_trips() -> None:
    """A state serialised and read back is the same state and plays on the same."""
    game = load("poker")
    rng = random.Random(4)
    for stop in (0, 20, 60, 90):
        state = game.new_initial_state()
        while len(state.history()) < stop and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        text = pyspiel.serialize_game_and_state(game, state)
        game_back, back = pyspiel.deserialize_game_and_state(text)
        assert str(game_back) == str(game)
        assert str(back) == str(state)
        assert back.history() == state.history()
        assert back.game_state == state.game_state
        if not state.is_chance_node() and not state.is_terminal():
            for seat in range(4):
                ours = state.information_state_string(seat)
                assert back.information_state_string(seat) == ours
        moves = random.Random(stop)
        while not state.is_terminal():
            action = moves.choice(state.legal_actions())
            state.apply_action(action)
            back.apply_action(action)
        assert back.returns() == state.returns()


def test_interpreter_exits_cleanly() -> None:
    """A process that registered and loaded the games exits with status 0.

    OpenSpiel keeps each game's creator until the interpreter is gone; a creator that
    is freed then (a plain callable) aborts the process at exit.
    """
    code = (
        "import pyspiel, tienlen.rl.openspiel;"
        "pyspiel.load_game('python_tienlen_poker').new_initial_state()"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_pickle() -> None:
    """Games and states pickle (for multiprocessing): the same game, the same state."""
    house = attrs.evolve(CLASSIC, name="house", twos_in_straights=False)
    for game in (
        load("poker", players=3),
        load("kenneth-lo", rules=rules_parameter(house)),
    ):
        back = pickle.loads(pickle.dumps(game))  # noqa: S301 - our own bytes
        assert type(back) is type(game)
        assert str(back) == str(game)
        assert back.rules == game.rules
        state = play_random(game, random.Random(1))
        copied = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
        assert str(copied) == str(state)
        assert copied.returns() == state.returns()


def _ismcts_game(preset: str, seed: int) -> TienLenState:
    """One game: seat 0 is OpenSpiel's IS-MCTS bot (small budget), the others random."""
    game = load(preset)
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed)
    )
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=6,
        random_state=np.random.RandomState(seed),
    )
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", ["classic", "poker"])
def test_ismcts_plays_full_games(preset: str) -> None:
    """OpenSpiel's IS-MCTS, resampling worlds with the game's own resampler, plays to the end."""
    state = _ismcts_game(preset, seed=1)
    assert state.is_terminal()
    assert state.returns() == [float(s) for s in replayed(state).result.scores]  # type: ignore[union-attr]


def test_mcts_bot_plays_a_full_game() -> None:
    """OpenSpiel's MCTS bot (it sees the whole state) plays a game to the end too."""
    game = load("classic", players=2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(0))
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node() or state.current_player() == 1:
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize(
    ("preset", "players"), [("classic", 4), ("poker", 4), ("kenneth-lo", 3)]
)
def test_resample_keeps_the_information_state(preset: str, players: int) -> None:
    """A resampled state looks the same to the seat, plays the same, and hides new cards.

    The seat's information state, hand and legal actions are kept for the deciding
    seat and for every other seat; the public history is the same; over a game some
    worlds deal the hidden cards differently.
    """
    game = load(preset, players=players)
    rng = random.Random(12)
    state = game.new_initial_state()
    moved = 0
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if len(state.history()) in (0, 20):  # mid-deal too
                seat = rng.randrange(players)
                world = state.resample_from_infostate(seat, rng)
                assert world.information_state_string(
                    seat
                ) == state.information_state_string(seat)
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        step += 1
        seats = range(players) if step % 4 == 1 else ()
        for seat in seats:
            world = state.resample_from_infostate(seat, rng)
            assert world.information_state_string(
                seat
            ) == state.information_state_string(seat)
            assert world.observation_string(seat) == state.observation_string(seat)
            assert world.game_state is not None
            assert state.game_state is not None
            assert world.game_state.history == state.game_state.history
            assert world.game_state.hand(seat) == state.game_state.hand(seat)
            if seat == state.current_player():
                assert world.current_player() == seat
                assert world.legal_actions() == state.legal_actions()
            moved += world.game_state.hands != state.game_state.hands
        state.apply_action(rng.choice(state.legal_actions()))
    assert moved > 0


def test_resample_with_openspiel_sampler_and_bad_seat() -> None:
    """OpenSpiel's probability sampler works as the source; a seat off the table is refused.

    So is it by every method that takes a seat.
    """
    game = load("classic")
    state = deal(game, library_hands(GameState.deal(CLASSIC, 4, seed=2)))
    seat = state.current_player()
    world = state.resample_from_infostate(
        seat, pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    assert world.information_state_string(seat) == state.information_state_string(seat)
    with pytest.raises(InvalidArgumentError, match="no seat 4"):
        state.resample_from_infostate(4, random.Random(0))
    with pytest.raises(TypeError, match="probability sampler"):
        state.resample_from_infostate(seat, 0.5)  # type: ignore[arg-type]
    for wrong in (-1, 4, True):
        with pytest.raises(InvalidArgumentError, match="no seat"):
            state.dealt(wrong)
        with pytest.raises(InvalidArgumentError, match="no seat"):
            state.information_text(wrong)
        with pytest.raises(InvalidArgumentError, match="no seat"):
            state.observation_text(wrong)
        with pytest.raises(InvalidArgumentError, match="no seat"):
            make_observation(game).set_from(state, wrong)


def test_resampled_plays_are_lowest_suit_fills() -> None:
    """Every play of a resampled world is what its class gives the seat's hand then.

    A class is filled with the lowest suits, so a play tells which lower cards its
    player lacked; the resampler keeps only worlds that agree.
    """
    game = load("classic")
    table = game.action_table
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        state = play_random(game, rng)
        history = state.history()
        # rewind to a mid-game decision and resample there
        cut = state.game_state.history  # type: ignore[union-attr]
        mid = game.new_initial_state()
        for action in history[: len(history) * 2 // 3]:
            mid.apply_action(action)
        if mid.is_terminal():
            continue
        world = mid.resample_from_infostate(mid.current_player(), rng)
        assert world.game_state is not None
        hands = {seat: world.dealt(seat) for seat in range(4)}
        for action in world.game_state.history:
            if type(action) is Play:
                index = table.index(action)
                assert table.fill(index, hands[action.player], action.player) == action
                hands[action.player] -= action.cards
                checked += 1
        assert cut
    assert checked > 0


def test_observation_tensor_is_the_encoder() -> None:
    """The observation tensor is `ObservationEncoder`'s vector; the deal shows own cards only."""
    game = load("poker")
    observer = make_observation(game)
    state = game.new_initial_state()
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    observer.set_from(state, player=0)
    assert observer.dict["hand"].nonzero()[0].tolist() == [0, 4, 8]
    assert observer.tensor.sum() == 3
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(10):
        world = state.game_state
        assert world is not None
        encoder = ObservationEncoder(POKER, 4)
        encoder.reset(world)
        for seat in range(4):
            expected = encoder.encode(world, seat)
            assert np.array_equal(state.observation_tensor(seat), expected)
            observer.set_from(state, player=seat)
            assert np.array_equal(observer.tensor, expected)
        state.apply_action(rng.choice(state.legal_actions()))


def test_information_state_tensor_has_perfect_recall() -> None:
    """The information-state tensor holds every public action, and a seat's own declines.

    Resampling keeps a jump-in question and a seat's decline where the seat saw them.
    """
    game = load("poker")
    rng = random.Random(2)
    declined = 0
    size = game.observation_tensor_shape()[0]
    layout = ObservationEncoder(POKER, 4, game._table.public_bound).layout
    assert game.information_state_tensor_shape() == [layout.size + 1]
    assert size == ObservationEncoder(POKER, 4).layout.size
    for _ in range(8):
        if declined >= 3:
            break
        state = deal(game, _deals(POKER, 4, rng))
        while not state.is_terminal():
            world = state.game_state
            assert world is not None
            seat = state.current_player()
            tensor = np.asarray(state.information_state_tensor(seat))
            history = tensor[layout.slices["history"]].reshape(layout.history, -1)
            assert int(history.any(axis=1).sum()) == len(world.history)
            if seat != world.to_act:  # a jump-in question: decline it
                asked = state.resample_from_infostate(seat, rng)  # asked in every world
                assert asked.current_player() == seat
                assert asked.legal_actions() == state.legal_actions()
                state.apply_action(0)
                after = np.asarray(state.information_state_tensor(seat))
                assert after[-1] == 1
                assert tensor[-1] == 0
                info = state.information_state_string(seat)
                assert "declined a jump-in" in info
                again = state.resample_from_infostate(seat, rng)  # and declined in each
                assert again.information_state_string(seat) == info
                declined += 1
                continue
            state.apply_action(rng.choice(state.legal_actions()))
    assert declined > 0


def test_strings() -> None:
    """The strings name the seat's cards and the public actions; the deciding seat is marked."""
    game = load("classic", players=2)
    world = GameState.deal(CLASSIC, 2, seed=4)
    state = deal(game, library_hands(world))
    seat = state.current_player()
    info = state.information_state_string(seat)
    assert f"dealt {world.hand(seat)}" in info
    assert info.endswith("to decide")
    assert "to decide" not in state.information_state_string(1 - seat)
    action = state.legal_actions()[0]
    text = state.action_to_string(seat, action)
    state.apply_action(action)
    play = state.game_state.history[-1]  # type: ignore[union-attr]
    assert f"{seat}:{play}" in state.information_state_string(1 - seat)
    assert f"hand {state.game_state.hand(seat)}" in state.observation_string(seat)  # type: ignore[union-attr]
    assert text == str(game.action_table[action])
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == f"deal {DECK[0]}"


def test_illegal_actions_refused() -> None:
    """An action that is not legal now is refused and changes nothing."""
    game = load("classic", players=2)
    state = game.new_initial_state()
    with pytest.raises(InvalidArgumentError, match="not left to deal"):
        state.apply_action(60)
    assert state.history() == []
    state = deal(game, library_hands(GameState.deal(CLASSIC, 2, seed=1)))
    before = (str(state), state.history())
    with pytest.raises(
        InvalidArgumentError, match=f"for seat {state.current_player()}"
    ):
        state.apply_action(ActionTable.for_rules(CLASSIC).PASS)  # the first lead
    assert (str(state), state.history()) == before
    state = play_random(game, random.Random(1))
    before = (str(state), state.history())
    with pytest.raises(InvalidArgumentError, match="the game is over"):
        state.apply_action(0)
    assert (str(state), state.history()) == before


def test_unsupported_observers_refused() -> None:
    """Only a seat's own view is offered: a public or all-seeing observer is refused."""
    game = load("classic")
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        kind = pyspiel.IIGObservationType(perfect_recall=False, private_info=private)
        with pytest.raises(InvalidArgumentError, match="SINGLE_PLAYER"):
            game.make_py_observer(kind)
    with pytest.raises(InvalidArgumentError, match="parameters"):
        game.make_py_observer(None, {"x": 1})


def test_junk_refused_before_openspiel() -> None:
    """Wrong types and values get the library's errors, never OpenSpiel's (or a crash).

    Each is checked in Python before it reaches pyspiel's C++ (where ``TienLenState``
    built on a foreign object crashed the interpreter), and changes nothing.
    """
    game = load("classic", players=2)
    state = deal(game, library_hands(GameState.deal(CLASSIC, 2, seed=1)))
    before = (str(state), state.history())
    for bad in (None, "x", object()):
        with pytest.raises(TypeError):
            TienLenState(bad, game._table)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            TienLenState(game, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="table"):
        TienLenState(game, load("classic")._table)
    for call in (
        lambda: state.apply_action(-1),
        lambda: state.child(-1),
        lambda: state.apply_action_with_legality_check(0),
        lambda: state.legal_actions(-1),
        lambda: state.information_state_string(2),
        lambda: state.information_state_tensor(-1),
        lambda: state.observation_string(5),
        lambda: state.observation_tensor(-3),
        lambda: state.player_return(2),
        lambda: state.player_reward(-1),
        lambda: state.string_to_action("no such action"),
        lambda: state.action_to_string(-1),  # not wrapped round to the table's last
        lambda: state.action_to_string(pyspiel.PlayerId.CHANCE, 99),
        lambda: state.action_to_string(-5, 0),
        lambda: state.undo_action(0, 0),
        lambda: state.resample_from_infostate(0, lambda: 5.0),
        lambda: state.apply_actions([0, 0]),
        state.to_struct,
        state.mean_field_population,
        lambda: game.deserialize_state("junk"),
        lambda: game.new_initial_state_for_population(0),
    ):
        with pytest.raises(InvalidArgumentError):
            call()
    loose: Any = state  # the calls below break the signatures on purpose
    loose_game: Any = game
    loose_none: Any = None
    for call in (
        lambda: loose.apply_action("0"),
        lambda: loose.apply_action(True),
        lambda: loose.legal_actions(1.0),
        lambda: loose.string_to_action(0),
        lambda: loose.resample_from_infostate(0, lambda: "x"),
        lambda: loose_game.deserialize_state(b"x"),
        lambda: loose_game.make_py_observer("x"),
        lambda: loose_game.make_observer(None, "x"),
        lambda: loose_game.make_py_observer().set_from("state", 0),
        lambda: loose_game.make_py_observer().string_from(None, 0),
        lambda: game_name(loose_none),
    ):
        with pytest.raises(TypeError):
            call()
    assert (str(state), state.history()) == before
    seat = state.current_player()
    legal = state.legal_actions()
    assert state.string_to_action(state.action_to_string(seat, legal[0])) == legal[0]
    assert loose.legal_actions(np.int64(seat)) == legal  # NumPy's integers too
    assert game.deserialize_state(state.serialize()).history() == state.history()
    with pytest.raises(InvalidArgumentError, match="another game"):
        load("classic").make_py_observer().set_from(state, 0)


def _instant_win_deal() -> list[list[int]]:
    """A Poker deal in which seat 1 holds all four 2s (an instant win, RULES §6.7)."""
    hands = library_hands(GameState.deal(POKER, 4, seed=8))
    twos = {card.index for card in DECK if card.rank.symbol == "2"}
    spare = [card for card in hands[1] if card not in twos]
    for seat in (0, 2, 3):  # each 2 held elsewhere changes places with a seat-1 card
        hands[seat] = [spare.pop() if card in twos else card for card in hands[seat]]
    hands[1] = sorted(set(range(52)).difference(*(hands[s] for s in (0, 2, 3))))
    return [sorted(hand) for hand in hands]


def test_instant_win_ends_at_the_deal() -> None:
    """A Poker instant win ends the game at the deal with the library's score."""
    hands = _instant_win_deal()
    assert sorted(card for hand in hands for card in hand) == list(range(52))
    state = deal(load("poker"), hands)
    world = GameState.from_hands([[DECK[c] for c in hand] for hand in hands], POKER)
    assert world.result is not None
    assert world.result.instant_win is not None
    assert state.is_terminal()
    assert state.game_state == world
    assert state.returns() == [float(score) for score in world.result.scores]
    assert state.returns()[1] == 12.0


def test_redeal_instant_wins() -> None:
    """With ``redeal_instant_wins`` the deal starts again, as the environments deal."""
    game = load("poker", redeal_instant_wins=True)
    state = deal(game, _instant_win_deal())
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 52
    assert "redealt 1" in state.information_state_string(0)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_house_rules_json() -> None:
    """The ``rules`` parameter plays any rule set in the records' JSON form."""
    house = attrs.evolve(
        CLASSIC, name="house", twos_in_straights=False, may_decline_first_lead=True
    )
    text = json.dumps(rules_to_json(house))
    game = load("poker", rules=text, players=3)
    assert game.rules == house
    assert load("classic", rules=rules_parameter(house)).rules == house
    assert pyspiel.load_game(str(game)).rules == house  # the game's string reads back
    assert game.get_type().short_name == "python_tienlen_poker"
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == ActionTable.for_rules(house).actions_for(3)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = play_random(game, random.Random(0))
    assert state.game_state is not None
    assert state.game_state.rules == house


def test_bad_parameters() -> None:
    """Bad parameters are refused with clear errors, by OpenSpiel or by the game."""
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        load("classic", seats=4)
    with pytest.raises(ValueError, match="not JSON"):
        load("classic", rules="{")
    with pytest.raises(ValueError, match="name and settings"):
        load("classic", rules='{"name": "x"}')
    with pytest.raises(ValueError, match="not JSON"):
        load("classic", rules="!!!")  # no base64url, no JSON
    with pytest.raises(ValueError, match="not 9"):
        load("classic", players=9)
    with pytest.raises(ValueError, match="place_points"):
        load("poker", players=8)  # Poker's four place points for eight places
    with pytest.raises(TypeError, match="players must be an int"):
        TienLenGame({"players": "4"})
    with pytest.raises(TypeError, match="redeal_instant_wins must be a bool"):
        TienLenGame({"redeal_instant_wins": 1})
    with pytest.raises(InvalidArgumentError, match="unknown preset"):
        TienLenGame(preset="bridge")
    with pytest.raises(InvalidArgumentError, match="unknown game parameters"):
        TienLenGame({"seats": 4})


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's checker on Box spaces
@pytest.mark.parametrize(
    ("preset", "params"),
    [("classic", {}), ("poker", {"redeal_instant_wins": True, "players": 3})],
)
def test_shimmy_pettingzoo_api_test(preset: str, params: dict[str, object]) -> None:
    """Shimmy's PettingZoo view of the game passes PettingZoo's ``api_test``.

    Shimmy crashes on a game that ends at the deal, so Poker redeals instant wins here.
    """
    env = OpenSpielCompatibilityV0(game_name=game_name(preset), config=params)
    api_test(env, num_cycles=400)
