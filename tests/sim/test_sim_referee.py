"""The step driver of a table of people and bots: `tienlen.Referee` (issue 34 item 18).

A referee must ask exactly what `play_game` asks, in the same order (Poker's jump-in
polls first, RULES §6.4, D-15), whether a seat is a bot it asks itself or a person
whose decision comes through `Referee.decide`; a refused decision changes nothing.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping, Sequence

import attrs
import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    RULESETS,
    Action,
    ComboKind,
    GameState,
    GreedyPlayer,
    IllegalPlayError,
    IllegalReason,
    InvalidArgumentError,
    Match,
    Observation,
    Pass,
    Play,
    Player,
    PlayerError,
    RandomPlayer,
    Referee,
    RuleSet,
    Shape,
    play_game,
    play_match,
)

JUMP_INS = attrs.evolve(
    CLASSIC,
    name="classic-jump-ins",
    jump_in={
        Shape.of(ComboKind.SINGLE),
        Shape.of(ComboKind.PAIR),
        Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3),
        Shape.of(ComboKind.FOUR_OF_A_KIND),
    },
)
"""A house rule with frequent jump-ins: a higher 2 onto a 2, 2s onto 2s, bombs."""

PRESETS: list[tuple[RuleSet, int]] = [
    *((rules, 4) for rules in RULESETS.values()),
    (CLASSIC_TWO_DECKS, 6),
    (JUMP_INS, 4),
    (JUMP_INS, 3),
]


def poker_chop() -> GameState:
    """Poker, seat 0 has led a 2: seats 2 then 1 are polled about a jump-in first."""
    hands = [
        "2h 3s 9d",
        "4s 4c 5s 5c 6s 6c 7s 7c Kd",
        "8s 8c 9s 9c Ts Tc Js Jc Ad",
        "3c Qd",
    ]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=0)
    return state.play("2h")


@attrs.frozen
class Recording:
    """A bot that plays as *bot* and notes every decision it is asked (shared list)."""

    bot: Player
    asked: list[tuple[int, bool, tuple[str, ...]]]

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The wrapped bot's choice, noted."""
        shown = tuple(map(str, actions))
        self.asked.append((observation.seat, observation.jumping_in, shown))
        return self.bot.act(observation, actions, rng)


def mixed_bots(players: int) -> list[Player]:
    """Greedy on even seats, random on odd ones."""
    return [RandomPlayer() if seat % 2 else GreedyPlayer() for seat in range(players)]


def person_plays(
    referee: Referee, people: Mapping[int, Player], rng: random.Random
) -> list[tuple[int, bool, tuple[str, ...]]]:
    """Play *referee* to its end, the people deciding as their bots would; what they were asked."""
    asked = []
    while (decision := referee.advance()) is not None:
        bot = people[decision.seat]
        asked.append(
            (decision.seat, decision.jumping_in, tuple(map(str, decision.actions)))
        )
        referee.decide(bot.act(decision.observation, decision.actions, rng))
    return asked


# -- the same games as play_game ------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players"), PRESETS, ids=lambda v: str(getattr(v, "name", v))
)
def test_all_bots_play_the_game_play_game_plays(rules: RuleSet, players: int) -> None:
    """With bots in every seat, the referee plays play_game's game: same asks, same rng."""
    polls = 0
    for seed in range(12):
        state = GameState.deal(rules, players, seed=seed)
        bots = mixed_bots(players)
        expected_asked: list[tuple[int, bool, tuple[str, ...]]] = []
        asked: list[tuple[int, bool, tuple[str, ...]]] = []
        expected_rng, rng = random.Random(seed), random.Random(seed)
        expected = play_game(
            state, [Recording(b, expected_asked) for b in bots], expected_rng
        )
        referee = Referee(state, [Recording(b, asked) for b in bots], rng)
        assert referee.advance() is None
        assert referee.state == expected
        assert referee.state.history == expected.history
        assert asked == expected_asked
        assert rng.getstate() == expected_rng.getstate()
        polls += sum(jumping for _, jumping, _ in asked)
    if rules is JUMP_INS:
        assert polls > 0  # the polls were exercised


@pytest.mark.parametrize(
    ("rules", "players"), PRESETS, ids=lambda v: str(getattr(v, "name", v))
)
def test_people_are_asked_what_play_game_asks_their_bots(
    rules: RuleSet, players: int
) -> None:
    """People deciding as their bots would are asked what play_game asks those bots."""
    for seed in range(6):
        state = GameState.deal(rules, players, seed=seed)
        bots = mixed_bots(players)
        people = {seat: bots[seat] for seat in range(0, players, 2)}
        expected_asked: list[tuple[int, bool, tuple[str, ...]]] = []
        expected_rng, rng = random.Random(seed), random.Random(seed)
        recorded = [
            Recording(b, expected_asked) if seat in people else b
            for seat, b in enumerate(bots)
        ]
        expected = play_game(state, recorded, expected_rng)
        seats = [None if seat in people else bot for seat, bot in enumerate(bots)]
        referee = Referee(state, seats, rng)
        assert person_plays(referee, people, rng) == expected_asked
        assert referee.state == expected
        assert rng.getstate() == expected_rng.getstate()


@pytest.mark.parametrize("seed", range(40))
def test_poker_polls_in_play_direction_as_play_game(seed: int) -> None:
    """A Poker chop: people and bots polled in play direction, as play_game polls."""
    state = poker_chop()
    bots = [RandomPlayer()] * 4
    expected_asked: list[tuple[int, bool, tuple[str, ...]]] = []
    expected = play_game(
        state, [Recording(b, expected_asked) for b in bots], random.Random(seed)
    )
    assert expected_asked[0][:2] == (2, True)  # 3 is to act; 2 then 1 are polled
    for people in ({1, 2}, {0, 3}, {2}, {1, 3}):
        rng = random.Random(seed)
        seats = [None if seat in people else RandomPlayer() for seat in range(4)]
        referee = Referee(state, seats, rng)
        asked = person_plays(referee, {seat: RandomPlayer() for seat in people}, rng)
        assert referee.state == expected
        assert asked == [entry for entry in expected_asked if entry[0] in people]


def test_a_declined_jump_in_asks_the_next_seat_then_the_player_to_act() -> None:
    """Each polled seat may decline; then the player to act decides."""
    referee = Referee(poker_chop(), [None] * 4)
    first = referee.pending
    assert first is not None
    assert (first.seat, first.jumping_in) == (2, True)
    assert [str(a) for a in first.actions] == ["8s 8c 9s 9c Ts Tc Js Jc", "pass"]
    assert first.observation == Observation.of(referee.state, 2)
    referee.decide(Pass(player=2))
    second = referee.pending
    assert second is not None
    assert (second.seat, second.jumping_in) == (1, True)
    referee.decide(Pass(player=1))
    own = referee.pending
    assert own is not None
    assert (own.seat, own.jumping_in, [str(a) for a in own.actions]) == (
        3,
        False,
        ["pass"],
    )
    assert referee.state == poker_chop()  # declining is no action
    referee.decide(Pass(player=3))
    assert referee.state == poker_chop().pass_turn()


def test_a_jump_in_is_played_and_the_turn_goes_on_from_the_jumper() -> None:
    """A person's jump-in is played; the others may chop it in their turn."""
    referee = Referee(poker_chop(), [None] * 4)
    referee.decide(Pass(player=2))
    referee.decide(referee.state.parse_action("4s 4c 5s 5c 6s 6c 7s 7c", player=1))
    assert referee.state == poker_chop().play("4s 4c 5s 5c 6s 6c 7s 7c", player=1)
    assert referee.state.to_act == 0  # the seat after the jumper (counterclockwise)
    chop = referee.pending  # but seat 2 may jump in on the jump-in first
    assert chop is not None
    assert (chop.seat, chop.jumping_in) == (2, True)
    referee.decide(Pass(player=2))
    assert referee.pending is not None
    assert (referee.pending.seat, referee.pending.jumping_in) == (0, False)


# -- refusals change nothing ------------------------------------------------------------


def snapshot(referee: Referee) -> bytes:
    """Everything a referee holds, to see that a refusal changed nothing."""
    return pickle.dumps(referee)


def test_an_illegal_decision_is_refused_by_the_rules_and_changes_nothing() -> None:
    """An illegal decision raises the engine's refusal, in Vietnamese too."""
    state = GameState.from_hands(["3s 9h", "4d 5c", "6h Kd"], CLASSIC)
    referee = Referee(state, [None, GreedyPlayer(), None], random.Random(1))
    before = snapshot(referee)
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(state.parse_action("9h", player=0))
    assert refused.value.reason is IllegalReason.MUST_INCLUDE
    assert refused.value.message("vi") == "Lượt đánh đầu tiên của ván phải có 3♠."
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(state.parse_action("2h", player=0))
    assert refused.value.reason is IllegalReason.CARDS_NOT_IN_HAND
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(Pass(player=0))
    assert refused.value.reason is IllegalReason.CANNOT_PASS
    assert snapshot(referee) == before


def test_another_seat_is_refused_as_not_its_turn() -> None:
    """A decision for a seat not asked now is not its turn."""
    state = GameState.from_hands(["3s 9h", "4d 5c", "6h Kd"], CLASSIC)
    referee = Referee(state, [None, GreedyPlayer(), None])
    before = snapshot(referee)
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(Play(player=2, cards="6h"))
    assert refused.value.reason is IllegalReason.NOT_YOUR_TURN
    assert refused.value.message("vi") == "Chưa đến lượt bạn."
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(Play(player=7, cards="6h"))
    assert refused.value.reason is IllegalReason.UNKNOWN_PLAYER
    assert snapshot(referee) == before


def test_a_legal_action_out_of_the_polls_order_is_refused() -> None:
    """The player to act may not play before the seats polled about a jump-in answer."""
    referee = Referee(poker_chop(), [None] * 4)
    before = snapshot(referee)
    assert poker_chop().is_legal(Pass(player=3))  # the state alone would take it
    for early in (Pass(player=3), Play(player=1, cards="4s 4c 5s 5c 6s 6c 7s 7c")):
        with pytest.raises(IllegalPlayError) as refused:
            referee.decide(early)
        assert refused.value.reason is IllegalReason.NOT_YOUR_TURN
        assert refused.value.rule == "rules-6-4"
        assert "the rules ask player 2 whether to jump in now" in str(refused.value)
    with pytest.raises(IllegalPlayError) as refused:  # no jump-in with a single
        referee.decide(Play(player=2, cards="Ad"))
    assert refused.value.reason is IllegalReason.NOT_YOUR_TURN
    assert snapshot(referee) == before


def test_a_bot_seat_is_never_decided_for() -> None:
    """A bot's seat, or a bot's turn, is never decided through decide()."""
    state = GameState.from_hands(["3s 9h", "4d 5c", "6h Kd"], CLASSIC)
    referee = Referee(state, [GreedyPlayer(), None, None])
    before = snapshot(referee)
    with pytest.raises(
        InvalidArgumentError, match=r"a bot plays seat 0 \(GreedyPlayer\)"
    ):
        referee.decide(Play(player=0, cards="3s"))
    with pytest.raises(
        InvalidArgumentError, match=r"a bot plays seat 0 .* call advance"
    ):
        referee.decide(Play(player=1, cards="4d"))  # a person, but the bot decides now
    referee.advance()
    with pytest.raises(InvalidArgumentError, match="a bot plays seat 0"):
        referee.decide(Pass(player=0))  # a person decides now: the action names a bot
    assert snapshot(referee) != before  # advance() played the bot's lead
    assert [str(a) for a in referee.state.history] == ["3s"]


def test_a_non_action_is_a_type_error_naming_parse_action() -> None:
    """Text instead of an action points to parse_action."""
    referee = Referee(GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC), [None, None])
    with pytest.raises(
        TypeError, match=r"got '3s': read text with referee.state.parse_action"
    ):
        referee.decide("3s")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Play or Pass, got None"):
        referee.decide(None)  # type: ignore[arg-type]


def test_over_the_game_every_decision_is_refused_as_the_state_refuses_it() -> None:
    """Once the game is over, nothing is pending and every decision is refused."""
    referee = Referee(GameState.from_hands(["3s", "4d 5c"], CLASSIC), [None, None])
    referee.decide(Play(player=0, cards="3s"))
    assert referee.is_over
    assert referee.pending is None
    assert referee.advance() is None
    with pytest.raises(IllegalPlayError) as refused:
        referee.decide(Pass(player=1))
    assert refused.value.reason is IllegalReason.GAME_OVER


# -- construction, failing bots, pickling ------------------------------------------------


def test_bad_seating_is_refused() -> None:
    """Wrong seat counts, non-players, a bad rng or time limit are refused."""
    state = GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC)
    with pytest.raises(InvalidArgumentError, match="3 players for a 2-player game"):
        Referee(state, [None, None, None])
    with pytest.raises(
        TypeError, match=r"seat 1 is neither None \(a person\) nor a Player"
    ):
        Referee(state, [None, "greedy"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="players must be a sequence"):
        Referee(state, "ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Referee(state.notation(), [None, None])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Referee(state, [None, None], rng=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        Referee(state, [None, None], time_limit=-1)
    with pytest.raises(InvalidArgumentError, match="no seat 2"):
        Referee(state, [None, None]).is_person(2)


@attrs.frozen
class BreaksLate:
    """A greedy bot that raises once three actions have been played."""

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Greedy, until three actions have been played."""
        if len(observation.history) >= 3:
            raise ZeroDivisionError("the bot divided by zero")
        return GreedyPlayer().act(observation, actions, rng)


def test_a_failing_bot_raises_player_error_and_its_decision_stays_pending() -> None:
    """A failing bot's PlayerError leaves its decision pending, the game unchanged."""
    state = GameState.deal(CLASSIC, 4, seed=3)
    referee = Referee(
        state, [None, BreaksLate(), None, GreedyPlayer()], random.Random(3)
    )
    people = {0: GreedyPlayer(), 2: GreedyPlayer()}
    with pytest.raises(PlayerError) as failed:
        person_plays(referee, people, random.Random(3))
    assert failed.value.seat == 1
    assert isinstance(failed.value.__cause__, ZeroDivisionError)
    stuck = snapshot(referee)
    assert referee.pending is not None
    assert referee.pending.seat == 1
    assert len(referee.state.history) >= 3
    with pytest.raises(PlayerError):
        referee.advance()  # asked again, failing again
    assert snapshot(referee) == stuck


def test_a_referee_pickled_mid_poll_plays_on_the_same_game() -> None:
    """A referee pickled between two polled seats plays on the same game."""
    state = poker_chop()
    rng = random.Random(8)
    referee = Referee(state, [RandomPlayer(), None, None, RandomPlayer()], rng)
    referee.decide(Pass(player=2))  # seat 1 is asked next
    copy = pickle.loads(pickle.dumps(referee))  # noqa: S301 - our own bytes
    assert (
        repr(copy)
        == repr(referee)
        == "<Referee poker, 4 players: seat 1 (a person) decides, whether to jump in>"
    )
    people = {1: RandomPlayer(), 2: RandomPlayer()}
    person_plays(referee, people, random.Random(1))
    person_plays(copy, people, random.Random(1))
    assert copy.state == referee.state
    assert copy.state.is_over


def test_a_pickled_referee_with_a_poll_position_not_of_its_state_is_refused() -> None:
    """A pickle whose poll position does not fit its state is refused."""
    referee = Referee(GameState.from_hands(["3s 9h", "4d 5c"], CLASSIC), [None, None])
    saved = referee.__getstate__()
    saved["asked"] = 3
    copy = Referee.__new__(Referee)
    with pytest.raises(InvalidArgumentError, match="poll position 3"):
        copy.__setstate__(saved)


def test_a_match_records_the_games_a_referee_plays() -> None:
    """Each game of a match, refereed, records as play_match plays and records it."""
    bots = mixed_bots(4)
    expected = play_match(Match.start(POKER, seed=5), bots, random.Random(5), games=3)
    match, rng = Match.start(POKER, seed=5), random.Random(5)
    for _ in range(3):
        referee = Referee(match.deal(), bots, rng)
        assert referee.advance() is None
        match = match.record(referee.state)
    assert match == expected
