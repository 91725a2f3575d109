"""The shipped learned baseline: loading, weights, legal and deterministic play, strength."""

from __future__ import annotations

import pathlib
import pickle
import random
from importlib import resources

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")

import numpy as np

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    GameState,
    GreedyPlayer,
    Observation,
    RuleSet,
    play_game,
)
from tienlen.errors import InvalidArgumentError, TienLenError, UnknownVariantError
from tienlen.evaluation import DealSet
from tienlen.players import Player
from tienlen.rl import LearnedPlayer, pretrained
from tienlen.rl.learned import (
    CANDIDATES,
    FEATURES,
    features,
    rollout_values,
    shipped,
)
from tienlen.rules import BaseRules
from tienlen.search.rollouts import candidates

PRESETS = [CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER]


def test_shipped_weights_load_by_name_and_rule_set() -> None:
    """Both shipped presets load by rule set and by any spelling of the name."""
    assert set(shipped()) >= {"classic", "poker"}
    for rules in (CLASSIC, POKER):
        by_set, by_name = pretrained(rules), pretrained(rules.name.upper())
        assert isinstance(by_set, LearnedPlayer)
        assert by_set.name == rules.name
        assert np.array_equal(by_set.hidden, by_name.hidden)
        assert by_set.hidden.shape[0] == FEATURES
    assert not np.array_equal(pretrained(CLASSIC).output, pretrained(POKER).output)


def test_weights_are_small_files_of_the_right_shape() -> None:
    """The shipped weights total at most 2 MB and each file holds a trained network."""
    folder = resources.files("tienlen.rl") / "weights"
    files = [entry for entry in folder.iterdir() if entry.name.endswith(".npz")]
    assert sorted(entry.name for entry in files) == [f"{n}.npz" for n in shipped()]
    assert sum(len(entry.read_bytes()) for entry in files) <= 2 * 1024 * 1024
    for entry in files:
        bot = LearnedPlayer.load(entry)
        assert bot.hidden.shape[0] == FEATURES
        assert np.abs(bot.output).sum() > 0
        assert bot.greedy_bonus >= 0


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ("no such game", UnknownVariantError),
        (JUSTUS_PANG, InvalidArgumentError),
        ("vietcong", InvalidArgumentError),
        (attrs.evolve(CLASSIC, suited_straights=True), InvalidArgumentError),
        (3, TypeError),
    ],
)
def test_pretrained_refuses_what_it_has_no_weights_for(
    rules: object, error: type[Exception]
) -> None:
    """Unknown names, presets without weights, changed presets and non-rules are refused."""
    with pytest.raises(error) as caught:
        pretrained(rules)  # type: ignore[arg-type]
    if isinstance(caught.value, TienLenError):
        again = pickle.loads(pickle.dumps(caught.value))  # noqa: S301
        assert str(again) == str(caught.value)


@pytest.mark.parametrize(
    ("hidden", "bias", "output", "bonus"),
    [
        (np.zeros((FEATURES - 1, 2)), np.zeros(2), np.zeros(2), 0.0),
        (np.zeros(FEATURES), np.zeros(1), np.zeros(1), 0.0),
        (np.zeros((FEATURES, 2)), np.zeros(3), np.zeros(2), 0.0),
        (np.zeros((FEATURES, 2)), np.zeros(2), [np.nan, 0.0], 0.0),
        (np.zeros((FEATURES, 2)), np.zeros(2), np.zeros(2), np.inf),
        ("weights", np.zeros(2), np.zeros(2), 0.0),
    ],
)
def test_learned_player_refuses_bad_weights(
    hidden: object, bias: object, output: object, bonus: float
) -> None:
    """Arrays of the wrong shapes, or not finite, are refused with a ValueError."""
    with pytest.raises(InvalidArgumentError) as caught:
        LearnedPlayer(hidden, bias, output, bonus)
    assert isinstance(caught.value, ValueError)


def test_weights_are_read_only_and_the_player_pickles() -> None:
    """The weights cannot be changed in place, and a pickled player is the same player."""
    bot = pretrained(CLASSIC)
    with pytest.raises(ValueError, match="read-only"):
        bot.hidden[0, 0] = 1.0
    again = pickle.loads(pickle.dumps(bot))  # noqa: S301
    for name in ("hidden", "hidden_bias", "output"):
        assert np.array_equal(getattr(again, name), getattr(bot, name))
    assert again.greedy_bonus == bot.greedy_bonus
    assert (
        repr(again) == repr(bot) == "LearnedPlayer(<classic weights, 64 hidden units>)"
    )


def test_save_and_load_round_trip(tmp_path: pathlib.Path) -> None:
    """A saved player loads back with the same choices (float32 storage)."""
    bot = pretrained(POKER)
    bot.save(tmp_path / "poker.npz")
    again = LearnedPlayer.load(tmp_path / "poker.npz", "poker")
    for seed in range(3):
        start = GameState.deal(POKER, 4, seed=seed)
        rng = random.Random(seed)
        assert play_game(start, [again] * 4, rng) == play_game(start, [bot] * 4, rng)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from(PRESETS),
    players=st.integers(2, 4),
    weights=st.sampled_from(["classic", "poker"]),
)
def test_learned_player_always_chooses_a_legal_action(
    seed: int, rules: BaseRules, players: int, weights: str
) -> None:
    """Whole games (jump-ins included) under every preset: play_game checks every choice."""
    players = max(players, rules.min_players)
    bot = pretrained(weights)
    final = play_game(
        GameState.deal(rules, players, seed=seed), [bot] * players, random.Random(seed)
    )
    assert final.is_over


def test_learned_player_is_deterministic_and_ignores_rng() -> None:
    """The same deal gives the same game whatever the rng seed."""
    bots: list[Player] = [pretrained(POKER), GreedyPlayer(), pretrained(POKER)]
    for seed in range(5):
        start = GameState.deal(POKER, 3, seed=seed)
        first = play_game(start, bots, random.Random(1)).history
        second = play_game(start, bots, random.Random(2)).history
        assert first == second


def test_zero_weights_play_as_greedy() -> None:
    """With all-zero weights the first candidate, Greedy's choice, is always taken."""
    zero, greedy = LearnedPlayer.zero(4), GreedyPlayer()
    for seed in range(8):
        start = GameState.deal(CLASSIC, 4, seed=seed)
        rng = random.Random(seed)
        assert play_game(start, [zero] * 4, rng) == play_game(start, [greedy] * 4, rng)


def test_features_mark_the_greedy_choice_and_passes() -> None:
    """Row 0 is flagged as Greedy's choice; a pass's row has the pass flag and no kind."""
    state = GameState.from_hands(["3s 4s 5s 6h 6d 2c", "7c 8c 9c Td Jd 2h"], CLASSIC)
    state = state.play("3s 4s 5s")
    seen = Observation.of(state, 1)
    searched = candidates(seen, state.legal_actions(), CANDIDATES)
    rows = features(seen, searched).reshape(len(searched), -1, 11)[:, :, 0]
    assert rows[0, 2] == 1.0
    assert rows[1:, 2].tolist() == [0.0] * (len(searched) - 1)
    passes = [i for i, action in enumerate(searched) if str(action) == "pass"]
    assert len(passes) == 1
    assert rows[passes[0], 1] == 1.0
    assert rows[passes[0], 3:9].tolist() == [0.0] * 6


def test_rollout_values_refuse_bad_budgets() -> None:
    """The teacher refuses a non-positive or non-int number of worlds and no actions."""
    state = GameState.deal(CLASSIC, 4, seed=3)
    seat = state.to_act
    assert seat is not None
    seen = Observation.of(state, seat)
    for worlds in (0, 1.5):
        with pytest.raises(InvalidArgumentError):
            rollout_values(seen, state.legal_actions(), random.Random(0), worlds)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        rollout_values(seen, [], random.Random(0), 1)


STRENGTH_DEALS = DealSet(
    name="pretrained-test", rules=CLASSIC, players=4, deals=100, seed="pretrained-test"
)
"""Deals no training or ladder run uses."""


def _passes_strength_bar(bot: Player, rules: RuleSet, margin: float) -> bool:
    """Whether *bot* beats the GreedyPlayer control by *margin* on the test deals.

    The lower end of its 95% interval must also be above the control.
    """
    deal_set = DealSet(
        name=STRENGTH_DEALS.name,
        rules=rules,
        players=4,
        deals=STRENGTH_DEALS.deals,
        seed=STRENGTH_DEALS.seed,
    )
    control = deal_set.evaluate([GreedyPlayer()] * 4).mean_scores[0]
    stats = deal_set.evaluate([bot, GreedyPlayer(), GreedyPlayer(), GreedyPlayer()])
    low, _ = stats.confidence_interval(0)
    return stats.mean_scores[0] >= control + margin and low > control


@pytest.mark.slow
def test_pretrained_classic_beats_greedy_where_greedy_itself_fails() -> None:
    """The classic bot beats three Greedys on 100 fixed deals; Greedy fails the same bar.

    The bar: at least 0.1 stakes a game above the Greedy control, with the 95%
    interval above the control.
    """
    assert _passes_strength_bar(pretrained(CLASSIC), CLASSIC, 0.1)
    assert not _passes_strength_bar(GreedyPlayer(), CLASSIC, 0.1)


@pytest.mark.slow
def test_pretrained_poker_beats_greedy_where_greedy_itself_fails() -> None:
    """The Poker bot beats three Greedys on 100 fixed deals; Greedy fails the same bar.

    The bar: at least 0.1 points a game above the Greedy control (Poker is not
    zero-sum: the control is Greedy's own mean in the seat, about +1.79), with the 95%
    interval above the control.
    """
    assert _passes_strength_bar(pretrained(POKER), POKER, 0.1)
    assert not _passes_strength_bar(GreedyPlayer(), POKER, 0.1)
