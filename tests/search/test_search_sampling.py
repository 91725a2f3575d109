"""`sample_world`: the determinized world gives back the seat's observation (issue 12 §3).

The sampler is proven against the engine: at every decision of random games, for
every preset and table size, the sampled world's `Observation` equals the original
field by field and offers the seat the same legal actions. The hard constraints of
the deal (RULES §2.4, §3.3, §4.1, §5.4, §6.7) are checked on their own.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    Action,
    BaseRules,
    Card,
    GameState,
    GreedyPlayer,
    Hand,
    ISMCTSPlayer,
    Observation,
    Pass,
    PIMCPlayer,
    Play,
    Player,
    RandomPlayer,
    RuleSet,
    SamplingError,
    TienLenError,
    play_game,
    sample_world,
)

TABLES = [
    (rules, players)
    for rules in (*RULESETS.values(), CLASSIC_TWO_DECKS)
    for players in range(rules.min_players, rules.max_players + 1)
]
TABLE_IDS = [f"{rules.name}-{players}p" for rules, players in TABLES]
THREE_OF_SPADES = Card.parse("3s")


def own_actions(world: GameState, observation: Observation) -> set[Action]:
    """The actions `play_game` offers the seat in *world* (jump-ins plus "no" out of turn)."""
    seat = observation.seat
    mine = {action for action in world.legal_actions() if action.player == seat}
    if observation.jumping_in:
        mine.add(Pass(player=seat))
    return mine


@attrs.define
class Checker:
    """A player that samples a world at each of its decisions and checks it, then plays."""

    inner: Player
    rng: random.Random
    first_game: bool = True
    after_instant_win: bool = False
    checked: int = 0
    worlds: list[tuple[Observation, GameState]] = attrs.field(factory=list)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Check a sampled world, then let the inner player choose."""
        world = sample_world(
            observation,
            self.rng,
            first_game=self.first_game,
            after_instant_win=self.after_instant_win,
        )
        assert Observation.of(world, observation.seat) == observation
        assert own_actions(world, observation) == set(actions)
        assert world.history == observation.history
        self.worlds.append((observation, world))
        self.checked += 1
        return self.inner.act(observation, actions, rng)


def play_checked(
    rules: RuleSet, players: int, games: int, seed: int, **setup: bool | int
) -> Checker:
    """Play *games* with a `Checker` in every seat (random and greedy play mixed)."""
    first_game = bool(setup.get("first_game", True))
    after = bool(setup.get("after_instant_win", False))
    checker = Checker(RandomPlayer(), random.Random(seed), first_game, after)
    greedy = Checker(GreedyPlayer(), random.Random(seed + 1), first_game, after)
    seats: list[Player] = [checker if seat % 2 else greedy for seat in range(players)]
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        fixed = rules.lead_must_include(first_game=first_game, after_instant_win=after)
        leader = None if fixed else rng.randrange(players)
        state = GameState.deal(
            rules,
            players,
            rng,
            first_game=first_game,
            leader=leader,
            after_instant_win=after,
        )
        play_game(state, seats, rng)
    checker.checked += greedy.checked
    checker.worlds += greedy.worlds
    return checker


@pytest.mark.parametrize(("rules", "players"), TABLES, ids=TABLE_IDS)
def test_sampled_world_gives_back_the_observation(rules: RuleSet, players: int) -> None:
    """Issue 12 §3: at every decision, the world's observation and actions are the seat's."""
    checker = play_checked(rules, players, games=3, seed=players)
    assert checker.checked > 20


@pytest.mark.parametrize(
    ("rules", "after_instant_win"),
    [(CLASSIC, False), (KENNETH_LO, False), (VIETCONG, False), (POKER, True)],
    ids=["classic", "kenneth-lo", "vietcong", "poker-after-instant-win"],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_later_games_are_sampled_too(
    rules: RuleSet, after_instant_win: bool, players: int
) -> None:
    """RULES §2.4, §5.3, §6.5, D-16: a later game leads freely or with the lowest card."""
    checker = play_checked(
        rules,
        players,
        games=2,
        seed=10 + players,
        first_game=False,
        after_instant_win=after_instant_win,
    )
    assert checker.checked > 10


@pytest.mark.parametrize("players", [2, 3])
def test_no_card_below_the_first_lead_is_dealt(players: int) -> None:
    """RULES §2.4, D-4: with 2-3 players the first lead shows the lowest dealt card."""
    checker = play_checked(CLASSIC, players, games=4, seed=20)
    checked = 0
    for observation, world in checker.worlds:
        first = observation.history[0] if observation.history else None
        if not isinstance(first, Play):
            continue
        lowest = first.cards.cards[0]
        for hand in world.dealt:
            assert min(hand.cards) >= lowest
        checked += 1
    assert checked > 20


def test_kenneth_lo_starter_holds_three_of_spades() -> None:
    """RULES §4.1, D-8: the three-player starter was dealt 3♠ or given it as the spare."""
    checker = play_checked(KENNETH_LO, 3, games=4, seed=30)
    for observation, world in checker.worlds:
        starter = observation.history[0].player if observation.history else None
        sizes = [len(hand) for hand in world.dealt]
        assert sorted(sizes) == [17, 17, 18]
        assert starter is None or sizes[starter] == 18
        assert THREE_OF_SPADES in world.dealt[sizes.index(18)]


def test_a_declined_first_lead_shows_who_holds_three_of_spades() -> None:
    """RULES §3.3, D-6: a Justus Pang leader who passes the first lead held 3♠."""
    state = GameState.deal(JUSTUS_PANG, players=4, seed=4)
    leader = state.to_act
    assert leader is not None
    assert state.may_decline
    state = state.pass_turn()
    observer = state.to_act
    assert observer is not None
    seen = Observation.of(state, observer)
    rng = random.Random(0)
    for _ in range(50):
        world = sample_world(seen, rng)
        assert THREE_OF_SPADES in world.hand(leader)


@pytest.mark.parametrize("rules", [POKER, VIETCONG], ids=["poker", "vietcong"])
def test_no_one_is_dealt_an_instant_win(rules: RuleSet) -> None:
    """RULES §5.4, §6.7: a game that goes on had no instant-win hand at the deal.

    Unconstrained deals do hold instant wins at this rate, so the test can fail.
    """
    rng = random.Random(1)
    states: list[GameState] = []
    while len(states) < 40:
        state = GameState.deal(rules, players=4, seed=rng)
        if not state.is_over:
            states.append(state)
    instant = sum(
        rules.instant_win(hand) is not None
        for _ in range(2000)
        for hand in GameState.deal(rules, 4, rng).dealt
    )
    assert instant > 4  # in 8000 hands: the constraint bites
    for state in states:
        seen = Observation.of(state, (state.to_act or 0) ^ 1)
        for _ in range(50):
            world = sample_world(seen, rng)
            assert all(rules.instant_win(hand) is None for hand in world.dealt)


def test_unseen_cards_reach_every_opponent() -> None:
    """The deal is random: each unseen card is dealt to each opponent in some world."""
    state = GameState.deal(CLASSIC, players=4, seed=8)
    state = state.apply(state.legal_actions()[0])
    seat = 2
    seen = Observation.of(state, seat)
    rng = random.Random(3)
    holders: Counter[tuple[Card, int]] = Counter()
    for _ in range(200):
        world = sample_world(seen, rng)
        for player in range(4):
            if player != seat:
                holders.update((card, player) for card in world.hand(player))
    unseen = [
        card for card in DECK if card not in seen.hand and card not in seen.played
    ]
    assert len(unseen) == 39 - len(seen.played) + len(seen.played)  # 39 minus played
    for card in unseen:
        for player in (0, 1, 3):
            assert holders[card, player] > 20, (card, player)


def test_the_rng_is_the_only_randomness() -> None:
    """STYLE R33: the same rng seed gives the same world."""
    state = GameState.deal(POKER, players=3, seed=5)
    seen = Observation.of(state, 1)
    first = sample_world(seen, random.Random(9))
    second = sample_world(seen, random.Random(9))
    assert first == second
    assert first.dealt == second.dealt


def test_bad_arguments_are_refused() -> None:
    """COMMON: a wrong type is a TypeError, a bad count a ValueError."""
    seen = Observation.of(GameState.deal(CLASSIC, 4, seed=1), 0)
    with pytest.raises(TypeError, match="expected an Observation"):
        sample_world("3s", random.Random())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"expected a random\.Random"):
        sample_world(seen, 7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_tries"):
        sample_world(seen, random.Random(), max_tries=0)


def test_inconsistent_observations_raise_sampling_error() -> None:
    """No deal gives these counts, or these cards: a clear `SamplingError`."""
    state = GameState.deal(CLASSIC, 4, seed=1)
    seen = Observation.of(state, 0)
    with pytest.raises(SamplingError, match="deals 13 each"):
        sample_world(attrs.evolve(seen, card_counts=(13, 13, 13, 14)), random.Random())
    with pytest.raises(SamplingError, match="own hand"):
        sample_world(attrs.evolve(seen, card_counts=(12, 13, 13, 14)), random.Random())
    doubled = attrs.evolve(
        seen,
        history=[Play(player=1, cards=str(seen.hand.cards[0]))],
        card_counts=(13, 12, 13, 13),
    )
    with pytest.raises(SamplingError, match="exceed 1 deck"):
        sample_world(doubled, random.Random())


def test_an_impossible_lead_gives_up_with_a_clear_error() -> None:
    """Sampling terminates: when no deal fits, `SamplingError` after *max_tries* draws."""
    state = GameState.deal(CLASSIC, 4, seed=1)
    holder = state.to_act
    assert holder is not None
    seen = Observation.of(state, holder)  # holds 3♠, yet someone else is to lead
    other = attrs.evolve(seen, to_act=(holder + 1) % 4, must_include=None)
    with pytest.raises(SamplingError, match="in 25 tries") as caught:
        sample_world(other, random.Random(), max_tries=25)
    assert isinstance(caught.value, TienLenError)
    assert isinstance(caught.value, ValueError)
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)  # noqa: S301 - our own bytes


def test_a_declined_lead_with_three_of_spades_seen_elsewhere_is_refused() -> None:
    """RULES §3.3: if the seat itself holds 3♠, nobody else can have declined with it."""
    state = GameState.deal(JUSTUS_PANG, players=4, seed=4).pass_turn()
    observer = state.to_act
    assert observer is not None
    seen = Observation.of(state, observer)
    swapped = Hand.from_cards([THREE_OF_SPADES, *seen.hand.cards[1:]])
    with pytest.raises(SamplingError, match="must hold 3s"):
        sample_world(attrs.evolve(seen, hand=swapped), random.Random())


@pytest.mark.parametrize("rules", [CLASSIC, POKER], ids=lambda rules: rules.name)
@pytest.mark.parametrize("after_instant_win", [False, True])
def test_the_setup_flags_come_from_the_observation(
    rules: BaseRules, after_instant_win: bool
) -> None:
    """RULES §2.4, D-16: a later game's observation says so; no flag is needed.

    `sample_world` and the search bots read `Observation.first_game` and
    `Observation.after_instant_win`; a flag contradicting the observation is refused.
    """
    state = GameState.deal(
        rules,
        4,
        seed=8,  # no instant win; after one, the 3s holder (seat 2) leads
        first_game=False,
        leader=2,
        after_instant_win=after_instant_win,
    )
    assert state.to_act is not None
    seen = Observation.of(state, state.to_act)
    assert (seen.first_game, seen.after_instant_win) == (False, after_instant_win)
    world = sample_world(seen, random.Random(1))
    assert Observation.of(world, seen.seat) == seen
    assert world.setup.first_game is False
    with pytest.raises(SamplingError):
        sample_world(seen, random.Random(1), first_game=True)
    actions = state.legal_actions()
    for bot in (PIMCPlayer(worlds=2), ISMCTSPlayer(iterations=8)):
        assert bot.act(seen, actions, random.Random(2)) in actions
