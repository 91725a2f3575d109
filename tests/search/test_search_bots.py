"""`PIMCPlayer` and `ISMCTSPlayer`: legal, seeded, picklable, bounded, usable in `simulate`.

Issue 12 §3: both implement the `Player` protocol, draw only from the rng they are
given, keep a per-decision budget and run on any executor. Their strength is measured
by ``benchmarks/bench_strength.py`` (docs/search.md); here a tiny budget must already
beat random play.
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
import time

import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    RULESETS,
    Action,
    GameState,
    GreedyPlayer,
    Hand,
    ISMCTSPlayer,
    Observation,
    Pass,
    PIMCPlayer,
    Play,
    Player,
    PlayerError,
    RandomPlayer,
    RuleSet,
    evaluate,
    play_game,
    simulate,
)
from tienlen.errors import InvalidArgumentError
from tienlen.search import ismcts, rollouts
from tienlen.search.ismcts import _Node, _Spread
from tienlen.search.rollouts import candidates
from tienlen.search.sampling import Deal

TINY: list[Player] = [
    PIMCPlayer(worlds=2, max_candidates=3),
    ISMCTSPlayer(iterations=6, max_candidates=3),
]
TINY_IDS = ["pimc", "ismcts"]
TABLES = [
    *(
        (rules, players)
        for rules in RULESETS.values()
        for players in range(rules.min_players, rules.max_players + 1)
    ),
    (CLASSIC_TWO_DECKS, 5),
]
TABLE_IDS = [f"{rules.name}-{players}p" for rules, players in TABLES]


@pytest.mark.parametrize("bot", TINY, ids=TINY_IDS)
@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
def test_bots_play_whole_games_legally(
    bot: Player, rules: RuleSet, players: int
) -> None:
    """The `Player` protocol: `play_game` accepts every action (jump-ins included)."""
    seats: list[Player] = [bot] + [GreedyPlayer()] * (players - 1)
    state = GameState.deal(rules, players, seed=players)
    final = play_game(state, seats, random.Random(players))
    assert final.is_over


@pytest.mark.parametrize("bot", TINY, ids=TINY_IDS)
def test_bots_are_reproducible_and_picklable(bot: Player) -> None:
    """STYLE R33: the same seed gives the same games; a bot survives pickling."""
    assert pickle.loads(pickle.dumps(bot)) == bot  # noqa: S301 - our own bytes
    team: list[Player] = [bot, GreedyPlayer(), RandomPlayer()]
    first = simulate(3, rules=POKER, players=team, seed=4, record_games=True)
    second = simulate(3, rules=POKER, players=team, seed=4, record_games=True)
    assert first == second


@pytest.mark.parametrize("bot", TINY, ids=TINY_IDS)
def test_bots_run_on_a_process_pool(bot: Player) -> None:
    """Issue 12 §3: usable in `simulate` on any executor, with the serial result."""
    team: list[Player] = [bot, GreedyPlayer()]
    serial = simulate(4, rules=CLASSIC, players=team, seed=6, batch_size=2)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pooled = simulate(
            4, rules=CLASSIC, players=team, seed=6, batch_size=2, executor=pool
        )
    assert serial == pooled


@pytest.mark.parametrize(
    "bot",
    [PIMCPlayer(worlds=2, max_candidates=4), ISMCTSPlayer(iterations=8)],
    ids=TINY_IDS,
)
def test_a_tiny_budget_beats_random_play(bot: Player) -> None:
    """Search with greedy rollouts is far stronger than random play (heads-up)."""
    stats = evaluate([bot, RandomPlayer()], 8, rules=CLASSIC, seed=2)
    assert stats.mean_scores[0] > 0.5
    assert stats.ratings[0] > 100


def test_a_single_action_is_returned_without_search() -> None:
    """A decision with one legal action costs nothing (it is not searched)."""
    state = GameState.from_hands(["3s 9h", "4d"], CLASSIC)
    actions = state.legal_actions()
    assert len(actions) == 1
    for bot in (PIMCPlayer(worlds=10**6), ISMCTSPlayer(iterations=10**6)):
        assert bot.act(Observation.of(state, 0), actions, random.Random()) == actions[0]


@pytest.mark.parametrize(
    "bot",
    [
        PIMCPlayer(worlds=10**6, seconds=0.05),
        ISMCTSPlayer(iterations=10**6, seconds=0.05),
    ],
    ids=TINY_IDS,
)
def test_the_time_budget_ends_a_decision(bot: Player) -> None:
    """The per-decision budget: *seconds* stops the search, whatever the count allows."""
    state = GameState.deal(CLASSIC, 4, seed=1)
    seen = Observation.of(state, state.to_act or 0)
    start = time.perf_counter()
    action = bot.act(seen, state.legal_actions(), random.Random(0))
    assert time.perf_counter() - start < 2.0
    assert action in state.legal_actions()


def jump_in_position() -> tuple[GameState, int]:
    """The first state of seeded random Poker games where a seat not to act may jump in."""
    rng = random.Random(0)
    while True:
        state = GameState.deal(POKER, 4, rng)
        while state.to_act is not None:
            actions = state.legal_actions()
            for action in actions:
                if action.player != state.to_act:
                    return state, action.player
            state = state.apply(actions[int(rng.random() * len(actions))])


def test_a_declined_jump_in_is_searched() -> None:
    """RULES §6.4: out of turn the bots choose among the jump-ins and "do not jump in"."""
    state, seat = jump_in_position()
    seen = Observation.of(state, seat)
    assert seen.jumping_in
    offered = [a for a in state.legal_actions() if a.player == seat]
    offered.append(Pass(player=seat))
    for bot in (PIMCPlayer(worlds=3), ISMCTSPlayer(iterations=12)):
        assert bot.act(seen, offered, random.Random(1)) in offered


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: PIMCPlayer(worlds=0), "worlds"),
        (lambda: ISMCTSPlayer(iterations=0), "iterations"),
        (lambda: PIMCPlayer(max_candidates=0), "max_candidates"),
        (lambda: PIMCPlayer(seconds=0.0), "seconds"),
        (lambda: ISMCTSPlayer(exploration=-1.0), "exploration"),
        (lambda: ISMCTSPlayer(iterations_per_world=0), "iterations_per_world"),
    ],
    ids=["worlds", "iterations", "candidates", "seconds", "exploration", "per-world"],
)
def test_bad_budgets_are_refused(make: object, field: str) -> None:
    """COMMON: a bad count is a ValueError, named in the message."""
    with pytest.raises(ValueError, match=field):
        make()  # type: ignore[operator]


def test_budgets_of_the_wrong_type_are_refused() -> None:
    """COMMON: a wrong type is a TypeError."""
    with pytest.raises(TypeError, match="worlds"):
        PIMCPlayer(worlds=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seconds"):
        ISMCTSPlayer(seconds="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="baseline"):
        ISMCTSPlayer(baseline=1)  # type: ignore[arg-type]


def test_candidates_keep_one_play_per_class_greedy_first() -> None:
    """Pruning: one play per (kind, length, top card), Greedy's choice first, the limit kept."""
    state = GameState.from_hands(["3s 5s 5c 5d 6h 7h 8h 9h Ts", "4c 4d"], CLASSIC)
    seen = Observation.of(state, 0)
    actions = list(state.legal_actions())
    chosen = candidates(seen, actions, 100)
    assert chosen[0] == GreedyPlayer().act(seen, actions, random.Random())
    keys = [
        (combo.kind, len(combo), combo.top)
        for combo in (CLASSIC.classify(a.cards) for a in chosen if isinstance(a, Play))
        if combo is not None
    ]
    assert len(keys) == len(set(keys))
    every = {
        (combo.kind, len(combo), combo.top)
        for combo in (CLASSIC.classify(a.cards) for a in actions if isinstance(a, Play))
        if combo is not None
    }
    assert set(keys) == every
    assert candidates(seen, actions, 3) == chosen[:3]


@pytest.mark.parametrize(
    ("iterations", "per_world", "baseline"),
    [(12, 4, True), (10, 4, True), (7, 1, True), (9, 3, False)],
)
def test_ucb_root_spends_its_budget_exactly(
    monkeypatch: pytest.MonkeyPatch, iterations: int, per_world: int, baseline: bool
) -> None:
    """The iteration budget of ``root="ucb"``, spent exactly.

    One rollout per iteration, a world per *iterations_per_world* iterations, and with
    *baseline* one more rollout per world.
    """
    counts = count_rollouts_and_worlds(monkeypatch)
    state = GameState.deal(CLASSIC, 4, seed=1)
    seen = Observation.of(state, state.to_act or 0)
    bot = ISMCTSPlayer(
        iterations=iterations,
        iterations_per_world=per_world,
        baseline=baseline,
        root="ucb",
    )
    bot.act(seen, state.legal_actions(), random.Random(0))
    expected_worlds = -(-iterations // per_world)
    assert counts["worlds"] == expected_worlds
    assert counts["rollouts"] == iterations + (expected_worlds if baseline else 0)


def count_rollouts_and_worlds(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counters of ISMCTS's rollouts and sampled worlds, kept up while the test runs."""
    counts = {"rollouts": 0, "worlds": 0}
    real_play_out, real_sample = rollouts.play_out, Deal.sample

    def counted_play_out(*args: object, **kwargs: object) -> tuple[int, ...]:
        counts["rollouts"] += 1
        return real_play_out(*args, **kwargs)  # type: ignore[arg-type]

    def counted_sample(*args: object, **kwargs: object) -> GameState:
        counts["worlds"] += 1
        return real_sample(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "play_out", counted_play_out)  # where ismcts looks
    monkeypatch.setattr(Deal, "sample", counted_sample)
    return counts


def eight_move_decision() -> tuple[Observation, list[Action]]:
    """A classic free lead (a later game of a match) with at least eight searched moves."""
    state = GameState.deal(CLASSIC, 4, seed=1, first_game=False, leader=0)
    seen = Observation.of(state, 0)
    actions = list(state.legal_actions())
    assert len(candidates(seen, actions, 8)) == 8
    return seen, actions


@pytest.mark.parametrize(
    ("iterations", "worlds", "rollouts"),
    [
        (24, 1 + 2 + 4, 8 + 4 * 2 + 2 * 4),
        (25, 1 + 2 + 4, 8 + 4 * 2 + 2 * 4),  # the last round's share: 9, 4 sweeps of 2
        (40, 1 + 4 + 8, 8 + 4 * 4 + 2 * 8),  # shares 13, 16 and 16
        (4, 1, 8),  # the first sweep is always finished, then the budget is spent
    ],
)
def test_halving_spends_its_budget_in_rounds(
    monkeypatch: pytest.MonkeyPatch, iterations: int, worlds: int, rollouts: int
) -> None:
    """Sequential halving: ⌈log₂ 8⌉ = 3 rounds of 8, 4 and 2 moves.

    Each round gets an even share of the iterations left; a sweep costs one rollout
    per surviving move in one new world; a round has at least one sweep, and after the
    first sweep the count budget is never exceeded.
    """
    counts = count_rollouts_and_worlds(monkeypatch)
    seen, actions = eight_move_decision()
    ISMCTSPlayer(iterations=iterations).act(seen, actions, random.Random(0))
    assert (counts["worlds"], counts["rollouts"]) == (worlds, rollouts)


def test_halving_keeps_the_better_half_over_common_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each round keeps the better half by total score over the same worlds.

    The sweeps are replaced by fixed scores per move: move *i* scores ``i % 5`` in
    every world, so the survivors and the choice are known.
    """
    seen, actions = eight_move_decision()
    moves = candidates(seen, actions, 8)
    value = {move: index % 5 for index, move in enumerate(moves)}
    swept: list[list[Action]] = []

    def fixed_sweep(*args: object) -> list[int]:
        survivors = args[3]  # (self, root, world, survivors, ...)
        assert isinstance(survivors, list)
        swept.append(list(survivors))
        return [value[move] for move in survivors]

    monkeypatch.setattr(ISMCTSPlayer, "_sweep", fixed_sweep)
    choice = ISMCTSPlayer(iterations=24).act(seen, actions, random.Random(0))
    rounds = [swept[0], swept[1], swept[3]]
    assert [len(r) for r in rounds] == [8, 4, 2]
    assert swept[1] == swept[2]
    assert swept[3:] == [swept[3]] * 4
    assert rounds[1] == [moves[4], moves[3], moves[2], moves[7]]  # ties keep order
    assert rounds[2] == [moves[4], moves[3]]
    assert choice == moves[4]


def test_halving_rewards_are_measured_against_the_sweep_mean() -> None:
    """The control variate of the halving: a reward is the score less the sweep's mean.

    After one sweep the seat's rewards at the root's children sum to zero; without
    *baseline* they are the raw scores, which `_sweep` also returns.
    """
    state = GameState.deal(CLASSIC, 4, seed=7)
    seat = state.to_act or 0
    seen = Observation.of(state, seat)
    world = Deal.of(seen).sample(random.Random(3))
    for baseline in (True, False):
        bot = ISMCTSPlayer(baseline=baseline)
        moves = candidates(seen, state.legal_actions(), bot.max_candidates)
        root = _Node(seat)
        scores = bot._sweep(root, world, moves, _Spread(), random.Random(4), None)
        assert scores is not None
        children = [root.children[move] for move in moves]
        assert all(child.visits == 1 for child in children)
        rewards = [child.total for child in children]
        if baseline:
            assert sum(rewards) == pytest.approx(0, abs=1e-9)
            assert rewards == pytest.approx(
                [s - sum(scores) / len(scores) for s in scores]
            )
        else:
            assert rewards == scores


def test_ismcts_rewards_are_measured_against_the_world_baseline() -> None:
    """The control variate: a reward is the score less the baseline's.

    The baseline is the rollout policy's own score in the same world, so the rollout
    policy's own move (Greedy's, tried first), played out by the rollout policy, gains
    exactly 0; without *baseline* the baseline is 0.
    """
    state = GameState.deal(CLASSIC, 4, seed=7)
    seat = state.to_act or 0
    seen = Observation.of(state, seat)
    bot = ISMCTSPlayer(iterations=1, iterations_per_world=1, root="ucb")
    moves = candidates(seen, state.legal_actions(), bot.max_candidates)
    world = Deal.of(seen, first_game=True, after_instant_win=False).sample(
        random.Random(3)
    )
    rng = random.Random(4)
    base = bot._baseline(world, rng)
    root = _Node(seat)
    bot._iterate(root, world, moves, (_Spread(), base), rng)
    greedy = root.children[moves[0]]
    assert (greedy.visits, greedy.total) == (1, 0)
    plain = ISMCTSPlayer(iterations=1, baseline=False, root="ucb")
    assert plain._baseline(world, rng) == (0,) * 4


def test_rollouts_check_every_policy_but_the_librarys_own() -> None:
    """Rollouts: Greedy and Random play unchecked, with `play_game`'s very games.

    Any other rollout policy is checked as in `play_game`: one that raises ends the
    rollout with a `PlayerError` (issue 14 §4), not with its own exception.
    """
    state = GameState.deal(POKER, 4, seed=6)
    assert not state.is_over
    for policy in (GreedyPlayer(), RandomPlayer()):
        final = play_game(state, [policy] * 4, random.Random(8))
        assert final.result is not None
        scores = rollouts.play_out(state, policy, random.Random(8))
        assert scores == final.result.scores

    class Faulty:
        def act(self, *args: object) -> Action:
            del args
            raise RuntimeError("broken")

    with pytest.raises(PlayerError, match="broken"):
        rollouts.play_out(state, Faulty(), random.Random(8))


def test_rollout_helpers_refuse_junk_before_acting() -> None:
    """The shared search helpers refuse wrong types and values with clear errors."""
    state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
    seen = Observation.of(state, 0)
    actions = state.legal_actions()
    with pytest.raises(TypeError, match="world must be a GameState"):
        rollouts.is_declined_jump_in(None, Pass(player=0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="action must be a Play or a Pass"):
        rollouts.apply_searched(state, "3s")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="observation must be an Observation"):
        candidates(None, actions, 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="limit"):
        candidates(seen, actions, 0)
    with pytest.raises(InvalidArgumentError, match="no combination"):
        candidates(seen, [Play(player=0, cards=Hand.parse("3s 4s"))], 3)
    with pytest.raises(TypeError, match="rng must be a Random"):
        rollouts.play_out(state, GreedyPlayer(), None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rollout must be a Player"):
        rollouts.play_out(state, None, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="declining must be a seat"):
        rollouts.play_out(state, GreedyPlayer(), random.Random(0), 2)
