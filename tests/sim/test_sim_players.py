"""Players and `play_game`: the observation contract, the bots, jump-in polling.

A player sees its own hand and the public table, never another player's cards
(`Observation`); it is offered exactly its own legal actions and must return one of
them (`PlayerError` otherwise); Poker jump-ins are polled in play direction from the
player to act (RULES §6.4, D-15).
"""

from __future__ import annotations

import enum
import gc
import hashlib
import pickle
import random
from collections.abc import Iterator, Sequence

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.forgery import PLAYS_FORGEABLE, forged_pass, forged_play
from tests.reach import hidden_reached, no_game_in
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    POKER,
    RULESETS,
    VIETCONG,
    Action,
    BaseRules,
    Card,
    Combo,
    GameState,
    GreedyPlayer,
    Hand,
    InvalidArgumentError,
    Observation,
    Pass,
    Play,
    Player,
    PlayerError,
    RandomPlayer,
    Rank,
    RuleSet,
    TienLenError,
    play_game,
)
from tienlen.engine.greedy import only_precious
from tienlen.engine.keys import bomb_answers
from tienlen.engine.referee import play_out

PRESETS = list(RULESETS.values())
PRESET_IDS = [rules.name for rules in PRESETS]

OBSERVATION_FIELDS = {
    "seat", "hand", "rules", "players", "direction", "to_act", "jumping_in", "top",
    "last_player", "passed", "out", "finish_order", "frozen", "card_counts", "played",
    "history", "must_include", "may_decline", "may_continue", "first_game",
    "after_instant_win",
}  # fmt: skip
"""Every field an observation has: a new field must be added to the leak checks below."""


def cards_in(value: object) -> Iterator[Card]:
    """Every card a field value holds; fails on a value of a type it does not know."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Hand | Combo):
        yield from value
    elif isinstance(value, Play):
        yield from value.cards
    elif isinstance(value, Pass):
        return
    elif isinstance(value, tuple | frozenset):
        for item in value:
            yield from cards_in(item)
    elif value is None or isinstance(value, int | str | enum.Enum):
        return
    else:
        pytest.fail(f"unexpected value in an observation: {value!r}")


def reachable(root: object, skip: object) -> Iterator[object]:
    """Every object reachable from *root* through references, except *skip* and classes."""
    seen: set[int] = {id(skip)}
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        yield item
        stack.extend(gc.get_referents(item))


def assert_private_to(observation: Observation, state: GameState) -> None:
    """The observation holds no card of another hand and no game state (every field)."""
    seat = observation.seat
    assert {f.name for f in attrs.fields(Observation)} == OBSERVATION_FIELDS
    hidden = {
        card
        for player, hand in enumerate(state.hands)
        if player != seat
        for card in hand
    }
    for field in attrs.fields(Observation):
        if field.name == "rules":
            assert observation.rules is state.rules
            continue
        leaked = set(cards_in(getattr(observation, field.name))) & hidden
        assert leaked == set(), (field.name, leaked)
    assert set(observation.hand) == set(state.hands[seat])
    assert not any(
        isinstance(item, GameState)
        for item in reachable(observation, skip=observation.rules)
    )


def random_states(rules: RuleSet, players: int, seed: int) -> Iterator[GameState]:
    """Every state of one random game."""
    rng = random.Random(seed)
    state = GameState.deal(rules, players, rng)
    yield state
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
        yield state


@attrs.frozen
class Spy:
    """Delegates to *inner* and keeps every observation and offer (and checks them)."""

    inner: Player
    seen: list[tuple[Observation, list[Action]]] = attrs.field(factory=list, eq=False)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Record, check that the offer is the seat's own and legal, then delegate."""
        offered = list(actions)
        self.seen.append((observation, offered))
        assert offered
        assert all(action.player == observation.seat for action in offered)
        choice = self.inner.act(observation, actions, rng)
        assert choice in offered
        return choice


def poker_jump_in_state() -> GameState:
    """Poker, four players: player 3 has put 2h on 3s; players 1 and 0 hold 4 pairs.

    Play goes counterclockwise (RULES §6.1): 0 → 3 → 2 → 1. Player 2 is to act; players
    1 and 0 (in that order from player 2) may jump in (RULES §6.4).
    """
    state = GameState.from_hands(
        [
            "3s Ts Tc Js Jc Qs Qc Ks Kc",
            "5s 5c 6s 6c 7s 7c 8s 8c 9c",
            "Ad Ah 4h",
            "2h 9d 4s",
        ],
        POKER,
    )
    state = state.play("3s").play("2h")
    assert state.to_act == 2
    return state


# -- the observation ------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_observation_never_holds_another_players_cards(rules: BaseRules) -> None:
    """Every field of every seat's observation, at every moment of a game, is public."""
    for number, state in enumerate(random_states(rules, 4, seed=7)):
        if number % 5:
            continue
        for seat in range(state.players):
            assert_private_to(Observation.of(state, seat), state)


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
def test_what_players_are_given_is_private(rules: BaseRules) -> None:
    """Inside `play_game` neither the observation nor the offered actions reach a state."""
    rng = random.Random(3)
    start = GameState.deal(rules, 4, rng)
    spies = [
        Spy(GreedyPlayer()),
        Spy(RandomPlayer()),
        Spy(GreedyPlayer()),
        Spy(RandomPlayer()),
    ]
    final = play_game(start, spies, rng)
    states = [start]
    for action in final.history:
        states.append(states[-1].apply(action))
    for spy in spies:
        for observation, offered in spy.seen[::7]:
            state = states[len(observation.history)]
            assert observation == Observation.of(state, observation.seat)
            assert_private_to(observation, state)
            assert not any(
                isinstance(item, GameState)
                for item in reachable(offered, skip=observation.rules)
            )


def test_observation_fields() -> None:
    """The observation shows counts, the pile, the played cards and the history."""
    state = GameState.from_hands(["3s 7h 8h", "4d 9c", "5c Jd 2s"], CLASSIC)
    state = state.play("3s").play("4d").pass_turn()
    seen = Observation.of(state, 0)
    assert seen.seat == 0
    assert seen.hand == Hand.parse("7h 8h")
    assert seen.players == 3
    assert seen.to_act == 0
    assert not seen.jumping_in
    assert str(seen.top) == "4d"
    assert seen.last_player == 1
    assert seen.passed == frozenset({2})
    assert seen.card_counts == (2, 1, 3)
    assert seen.played == Hand.parse("3s 4d")
    assert [(a.player, str(a)) for a in seen.history] == [
        (0, "3s"),
        (1, "4d"),
        (2, "pass"),
    ]
    assert seen.must_include is None
    assert not seen.may_decline
    assert not seen.may_continue
    assert not seen.is_leading
    assert seen.opponents == (1, 2)
    assert seen.fewest_opponent_cards == 1
    other = Observation.of(state, 1)
    assert other.jumping_in  # asked out of turn
    assert other.fewest_opponent_cards == 2
    assert seen.first_game
    assert not seen.after_instant_win
    # built without attrs' init, each field computed when read, equal to a rebuilt one
    assert set(vars(seen)) <= OBSERVATION_FIELDS | {"_view"}
    assert set(vars(Observation.of(state, 0))) == {"_view"}
    assert attrs.evolve(seen) == seen
    assert hash(attrs.evolve(seen)) == hash(seen)


def test_state_hand_is_one_of_the_hands() -> None:
    """GameState.hand(p) is hands[p], built alone."""
    state = GameState.from_hands(["3s 7h 8h", "4d 9c", "5c Jd 2s"], CLASSIC)
    assert [state.hand(p) for p in range(3)] == list(state.hands)
    with pytest.raises(InvalidArgumentError):
        state.hand(3)
    with pytest.raises(TypeError):
        state.hand(True)


def test_observation_of_the_first_lead() -> None:
    """The leader's observation carries the first-lead card and, in JP, the decline."""
    state = GameState.from_hands(["3s 7h", "4d 9c"], JUSTUS_PANG)
    seen = Observation.of(state, 0)
    assert seen.must_include == Card.parse("3s")
    assert seen.may_decline
    assert seen.is_leading
    assert Observation.of(state, 1).must_include is None


def test_observation_of_a_continuation() -> None:
    """RULES §3.4: the last player, all others passed, may continue (Justus Pang)."""
    state = GameState.from_hands(["3s 5h 9h", "4d 6c"], JUSTUS_PANG)
    state = state.play("3s").pass_turn()
    assert Observation.of(state, 0).may_continue


def test_observation_after_players_go_out() -> None:
    """Out and finished players are listed; opponents skip them."""
    state = GameState.from_hands(["3s", "4d 9c", "5c Jd"], CLASSIC).play("3s")
    seen = Observation.of(state, 1)
    assert seen.out == frozenset({0})
    assert seen.finish_order == (0,)
    assert seen.opponents == (2,)


def test_observation_of_unknown_seat() -> None:
    """Asking for a seat that is not at the table is an error."""
    state = GameState.from_hands(["3s", "4d"], CLASSIC)
    with pytest.raises(ValueError, match="no player 2 at a 2-player table"):
        Observation.of(state, 2)
    with pytest.raises(TypeError, match="expected a GameState, got str"):
        Observation.of("3s", 0)  # type: ignore[arg-type]


# -- the interface contract ------------------------------------------------------------


@attrs.frozen
class Fixed:
    """Always returns the same (possibly illegal) object."""

    choice: object

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The fixed choice, whatever is offered."""
        del observation, actions, rng
        return self.choice  # type: ignore[return-value]  # a bot that breaks the protocol


def test_an_illegal_choice_raises_a_player_error() -> None:
    """A player returning an action it was not offered gets a clear error naming it."""
    state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
    bad = Play(player=0, cards="4s")
    with pytest.raises(PlayerError) as caught:
        play_game(state, [Fixed(bad), RandomPlayer()], random.Random(0))
    error = caught.value
    assert isinstance(error, TienLenError)
    assert isinstance(error, ValueError)
    assert error.seat == 0
    assert error.action == bad
    message = str(error)
    assert message.startswith(
        "player 0 (Fixed) chose Play(player=0, cards=Hand.parse('4s'))"
    )
    assert "'3s', '3s 4s 5s'" in message


def test_a_player_error_pickles() -> None:
    """The error travels back from a worker process intact."""
    state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
    with pytest.raises(PlayerError) as caught:
        play_game(state, [Fixed("3s"), RandomPlayer()], random.Random(0))
    copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert type(copy) is PlayerError
    assert str(copy) == str(caught.value)
    assert (copy.seat, copy.player, copy.action) == (0, Fixed("3s"), "3s")


@pytest.mark.parametrize(
    "choice",
    [
        None,
        "3s",
        Play(player=1, cards="5d"),
        Pass(player=0),
        Play(player=0, cards="3s 4s"),
    ],
    ids=["none", "text", "other-seat", "pass-on-lead", "not-a-combo"],
)
def test_every_kind_of_bad_choice_is_refused(choice: object) -> None:
    """Whatever a player returns that it was not offered, `play_game` refuses it."""
    state = GameState.from_hands(["3s 4s 5s", "5d 6d"], CLASSIC)
    with pytest.raises(PlayerError, match=r"player 0 \(Fixed\) chose"):
        play_game(state, [Fixed(choice), RandomPlayer()], random.Random(0))


def test_an_equal_action_built_by_the_player_is_accepted() -> None:
    """A player may build its action itself: an equal `Play` counts as offered."""

    @attrs.frozen
    class Builder:
        def act(
            self,
            observation: Observation,
            actions: Sequence[Action],
            rng: random.Random,
        ) -> Action:
            del rng
            first = actions[0]
            if isinstance(first, Pass):
                return Pass(player=observation.seat)
            return Play(player=observation.seat, cards=str(first.cards))

    state = GameState.deal(CLASSIC, 4, 5)
    final = play_game(state, [Builder()] * 4, random.Random(5))
    assert final.is_over


def test_wrong_number_of_players() -> None:
    """`play_game` needs one player per seat."""
    state = GameState.deal(CLASSIC, 4, 1)
    with pytest.raises(ValueError, match="3 players for a 4-player game"):
        play_game(state, [RandomPlayer()] * 3, random.Random(1))


def test_a_finished_game_is_returned_as_it_is() -> None:
    """RULES §5.4: a deal won at once needs no player."""
    state = GameState.from_hands(["2s 2c 2d 2h", "3s 4s 5s 6s"], VIETCONG)
    assert state.is_over
    assert play_game(state, [RandomPlayer(), RandomPlayer()], random.Random(0)) is state


# -- jump-in polling (RULES §6.4, D-15) --------------------------------------------------


@attrs.frozen
class JumpLogger:
    """Declines (or takes) every jump-in and logs who was asked what; greedy otherwise."""

    log: list[tuple[int, bool, list[str]]]
    jump: bool = False

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Log the question; decline or take the jump-in; else play greedily."""
        offered = list(actions)
        self.log.append(
            (observation.seat, observation.jumping_in, [str(a) for a in offered])
        )
        if observation.jumping_in:
            assert isinstance(offered[-1], Pass)
            return offered[0] if self.jump else offered[-1]
        return GreedyPlayer().act(observation, actions, rng)


def test_jump_ins_are_polled_in_play_direction_before_the_player_to_act() -> None:
    """RULES §6.4: players 1 then 0 are asked (counterclockwise from 2), then player 2."""
    log: list[tuple[int, bool, list[str]]] = []
    players = [JumpLogger(log) for _ in range(4)]
    state = poker_jump_in_state()
    play_game(state, players, random.Random(0))
    assert log[0] == (1, True, ["5s 5c 6s 6c 7s 7c 8s 8c", "pass"])
    assert log[1] == (0, True, ["Ts Tc Js Jc Qs Qc Ks Kc", "pass"])
    assert log[2][:2] == (2, False)
    assert "5s 5c 6s 6c 7s 7c 8s 8c" not in log[2][2]


def test_a_jump_in_is_applied_and_play_goes_on() -> None:
    """RULES §6.4: the first player to accept jumps in; the turn passes after the jumper."""
    log: list[tuple[int, bool, list[str]]] = []
    players = [
        JumpLogger(log),
        JumpLogger(log, jump=True),
        JumpLogger(log),
        JumpLogger(log),
    ]
    state = poker_jump_in_state()
    final = play_game(state, players, random.Random(0))
    jump = final.history[len(state.history)]
    assert (jump.player, str(jump)) == (1, "5s 5c 6s 6c 7s 7c 8s 8c")
    assert [entry[0] for entry in log[:1]] == [
        1
    ]  # player 0 was not asked: 1 jumped first
    assert log[1][:2] == (0, False)  # player 0 (after 1 counterclockwise) acts next


def test_greedy_jumps_in_only_against_a_threat() -> None:
    """GreedyPlayer declines a jump-in unless an opponent is close to going out."""
    state = poker_jump_in_state()
    seen = Observation.of(state, 1)
    offered: list[Action] = [
        Play(player=1, cards="5s 5c 6s 6c 7s 7c 8s 8c"),
        Pass(player=1),
    ]
    assert seen.fewest_opponent_cards == 2
    assert GreedyPlayer(danger=1).act(seen, offered, random.Random()) == Pass(player=1)
    assert GreedyPlayer(danger=2).act(seen, offered, random.Random()) == offered[0]


# -- the bots -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_only_choose_offered_actions(rules: BaseRules, players: int) -> None:
    """RandomPlayer and GreedyPlayer always return one of the actions offered."""
    rng = random.Random(players)
    bots = [
        Spy(GreedyPlayer() if seat % 2 else RandomPlayer()) for seat in range(players)
    ]
    for _ in range(4):
        final = play_game(GameState.deal(rules, players, rng), bots, rng)
        assert final.is_over
        result = final.result
        assert result is not None
        assert sorted(result.finish_order) == list(range(players))


def test_play_game_is_reproducible() -> None:
    """The same deal and the same rng seed give the same game."""
    bots: list[Player] = [
        GreedyPlayer(),
        RandomPlayer(),
        RandomPlayer(),
        GreedyPlayer(),
    ]
    games = [
        play_game(GameState.deal(POKER, 4, 21), bots, random.Random(8)).history
        for _ in range(2)
    ]
    assert games[0] == games[1]


@pytest.mark.parametrize(
    "bot", [RandomPlayer(), GreedyPlayer(), GreedyPlayer(danger=4)]
)
def test_bots_are_picklable_values(bot: Player) -> None:
    """Players travel to worker processes: they pickle and compare by value."""
    assert pickle.loads(pickle.dumps(bot)) == bot  # noqa: S301 - our own bytes


def test_random_player_is_uniform() -> None:
    """RandomPlayer picks every offered action about equally often."""
    state = GameState.from_hands(["3s 4s 5s 6d", "7d 8d"], CLASSIC)
    actions = state.legal_actions()
    seen = Observation.of(state, 0)
    rng = random.Random(4)
    counts = [0] * len(actions)
    for _ in range(2000):
        counts[list(actions).index(RandomPlayer().act(seen, actions, rng))] += 1
    assert min(counts) > 2000 / len(actions) * 0.8


def greedy_choice(
    hands: list[str],
    rules: BaseRules,
    moves: Sequence[str],
    seat: int,
    leader: int | None = None,
) -> str:
    """What GreedyPlayer plays for *seat* after *moves* (card text or "pass").

    With a *leader*, the game is a later one that *leader* opens freely.
    """
    if leader is None:
        state = GameState.from_hands(hands, rules)
    else:
        state = GameState.from_hands(hands, rules, first_game=False, leader=leader)
    for move in moves:
        state = state.pass_turn() if move == "pass" else state.play(move)
    seen = Observation.of(state, seat)
    return str(GreedyPlayer().act(seen, state.legal_actions(), random.Random()))


def test_greedy_goes_out_when_it_can() -> None:
    """A play that empties the hand is always taken, a 2 included."""
    assert (
        greedy_choice(["3s 9h", "5d 6d 7c 8c", "2s"], CLASSIC, ["3s", "5d"], 2) == "2s"
    )


def test_greedy_leads_the_longest_sequence() -> None:
    """Long straights are dumped first when leading."""
    hands = ["3s 4d 5c 6h 9s 9c Kd", "Ts Jh", "Qs Qc"]
    assert greedy_choice(hands, CLASSIC, [], 0) == "3s 4d 5c 6h"


def test_greedy_leads_the_lowest_rank_with_all_its_cards() -> None:
    """Without a sequence, the lowest rank leads, a pair rather than a single."""
    assert greedy_choice(["3s 3c 9h Kd", "5d Jh", "Qs Qc"], CLASSIC, [], 0) == "3s 3c"
    hands = ["4s 4c 9h 2d 2h", "5d Jh", "Qs Qc"]
    assert greedy_choice(hands, CLASSIC, [], 0, leader=0) == "4s 4c"


def test_greedy_does_not_lead_a_two_while_it_has_other_cards() -> None:
    """2s and bombs are kept: the lead is the lowest other play."""
    hands = ["Ks 2d 2h", "5d Jh", "Qs Qc"]
    assert greedy_choice(hands, CLASSIC, [], 0, leader=0) == "Ks"


def test_greedy_follows_low_and_keeps_its_twos() -> None:
    """The lowest card that beats; a 2 only when someone is about to go out."""
    hands = ["3s 4s 9h Td Ks", "5d 6d 8h Jc 2h", "7c 8c Qs Qd As"]
    assert greedy_choice(hands, CLASSIC, ["3s"], 1) == "5d"
    assert greedy_choice(hands, CLASSIC, ["3s", "5d", "7c", "Ks"], 1) == "pass"
    short = ["3s Ks 9h", "5d 6d 8h Jc 2h", "7c 8c Qs Qd As"]
    assert greedy_choice(short, CLASSIC, ["3s", "5d", "7c", "Ks"], 1) == "2h"


def test_greedy_bombs_a_two_only_when_it_matters() -> None:
    """A bomb on a 2 when the hand holds nothing else worth keeping; else a pass."""
    others = ["2h 9d 9s Js Jc", "6d 7d 8d Qs"]
    precious = [others[0], "5s 5c 5d 5h 2s 2c 2d", others[1]]
    assert greedy_choice(precious, CLASSIC, ["2h"], 1, leader=0) == "5s 5c 5d 5h"
    mixed = [others[0], "5s 5c 5d 5h 8c 9c 9h", others[1]]
    assert greedy_choice(mixed, CLASSIC, ["2h"], 1, leader=0) == "pass"


def test_greedy_continues_low_then_closes() -> None:
    """RULES §3.4: continue with a low play while it has one, else close by passing."""
    opponent = "4d 6c 9s Qh"
    assert (
        greedy_choice(["3s 5h 2d 9c 9d", opponent], JUSTUS_PANG, ["3s", "pass"], 0)
        == "5h"
    )
    pairs = ["3s 3c 2d 2h 9c", opponent]
    assert greedy_choice(pairs, JUSTUS_PANG, ["3s 3c", "pass"], 0) == "pass"


def test_greedy_never_declines_the_first_lead() -> None:
    """RULES §3.3: GreedyPlayer leads rather than declining."""
    assert greedy_choice(["3s 7h", "4d 9c"], JUSTUS_PANG, [], 0) == "3s"


def _precious_by_listing(hand: Hand, rules: BaseRules) -> bool:
    """Every card of *hand* a 2 or in one of the bombs it holds: its plays, listed."""
    covered = 0
    for combo in rules.legal_plays(hand):
        if combo.top.rank is Rank.TWO or rules.is_bomb(combo.shape):
            covered |= combo.mask
    return hand.mask & ~covered == 0


NO_BOMBS = attrs.evolve(CLASSIC, name="no-bombs", bombs=frozenset(), bomb_chain=())


@pytest.mark.parametrize("rules", [CLASSIC, POKER, NO_BOMBS], ids=lambda r: r.name)
@given(
    cards=st.sets(st.sampled_from([*range(24), *range(48, 52)]), max_size=12)
    | st.sets(st.sampled_from(range(32, 52)), max_size=8)  # J…2: runs up to the 2
)
@example(cards={32, 37, 42, 47, 48})  # J♠ Q♣ K♦ A♥ 2♠: a straight holding a 2
def test_greedy_knows_a_hand_of_only_2s_and_bombs(
    rules: BaseRules, cards: set[int]
) -> None:
    """`GreedyPlayer`'s quick test answers as listing the hand's plays does.

    The quick test: no rank but the 2s holds fewer cards than any bomb takes of one.
    """
    hand = Hand(sum(1 << card for card in cards))
    assert only_precious(hand.mask, rules, bomb_answers(rules)) is _precious_by_listing(
        hand, rules
    )


GREEDY_GAMES = "d93bbc0555e38c15dfb55905c7d6436eaeb49dcdc63e978e8b90ea224230c664"
"""The SHA-256 of 120 games between `GreedyPlayer`s, recorded before its speed work of
session 6 (commit 885346a), as `test_greedy_plays_its_recorded_games` digests them."""


def test_greedy_plays_its_recorded_games() -> None:
    """`GreedyPlayer`'s choices are pinned: speeding it up must not change one of them.

    Classic and Poker, 60 deals each, four bots of dangers 2, 0, 4 and 2, digested as
    each game's actions in order.
    """
    digest = hashlib.sha256()
    for rules in (CLASSIC, POKER):
        for seed in range(60):
            bots: list[Player] = [
                GreedyPlayer(),
                GreedyPlayer(danger=0),
                GreedyPlayer(danger=4),
                GreedyPlayer(),
            ]
            final = play_game(GameState.deal(rules, 4, seed), bots, random.Random(seed))
            digest.update(" ".join(str(a) for a in final.history).encode() + b"\n")
    assert digest.hexdigest() == GREEDY_GAMES


# -- nothing handed to a bot reaches another seat's cards (issue 20 item 7) -----------


@attrs.frozen
class Peeker:
    """Delegates to *inner*, walking everything it is handed for the other seats' cards.

    *start* is the game's first state: the other seats' dealt hands stay secret all
    game. Findings go to *leaks*; every actions object handed is kept in *offers*.
    """

    inner: Player
    start: GameState
    leaks: list[str] = attrs.field(factory=list, eq=False)
    offers: list[Sequence[Action]] = attrs.field(factory=list, eq=False)

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Walk the observation and the actions themselves (not a copy), then delegate."""
        self.leaks.extend(
            hidden_reached([observation, actions], self.start, observation.seat)
        )
        self.offers.append(actions)
        return self.inner.act(observation, actions, rng)


@pytest.mark.parametrize("rules", PRESETS, ids=PRESET_IDS)
@pytest.mark.parametrize("way", ["checked", "time limit", "unchecked"])
def test_nothing_a_bot_is_handed_reaches_a_hidden_hand(
    rules: BaseRules, way: str
) -> None:
    """Issue 20 item 7.

    From what a bot's ``act`` gets (the observation and the actions
    object itself, followed through ``gc.get_referents``) no `GameState` and no other
    seat's hand or dealt hand is reachable: checked bots, bots under a time limit,
    and the unchecked path of the search's rollouts. The rule set, shared by every
    game, is walked once and holds no game.
    """
    assert no_game_in(rules)
    for seed in range(3):
        rng = random.Random(seed)
        start = GameState.deal(rules, 4, rng)
        peekers = [
            Peeker(inner, start)
            for inner in (
                GreedyPlayer(),
                RandomPlayer(),
                GreedyPlayer(),
                RandomPlayer(),
            )
        ]
        if way == "unchecked":
            final = play_out(start, peekers, rng, None, checked=False)
        else:
            limit = 60.0 if way == "time limit" else None
            final = play_game(start, peekers, rng, time_limit=limit)
        assert final.is_over
        for peeker in peekers:
            assert peeker.leaks == []
            assert peeker.offers


def test_the_actions_a_bot_gets_answer_membership_on_their_own() -> None:
    """Issue 20 item 7.

    The detached actions a bot is handed list exactly the seat's own
    actions, and ``in`` agrees with `GameState.is_legal` for every action of the
    seat, listed or not (look-alike seats refused), without the state.
    """
    rng = random.Random(4)
    for rules in PRESETS:
        state = GameState.deal(rules, 4, rng)
        while not state.is_over:
            actions = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            detached = actions._detached()
            own = [action for action in actions if action.player == seat]
            assert list(detached) == own
            assert len(detached) == len(own)
            probes: list[object] = [
                *own,
                Pass(player=seat),
                *(Play(player=seat, cards=[card]) for card in state.hand(seat)),
                Play(player=(seat + 1) % 4, cards="3s"),
                *([forged_play(True, "3s")] if PLAYS_FORGEABLE else []),
                forged_pass(True),
                "pass",
            ]
            for probe in probes:
                legal = type(probe) in (Play, Pass) and state.is_legal(probe)  # type: ignore[arg-type]
                assert (probe in detached) == legal, probe
            state = state.apply(actions[rng.randrange(len(actions))])
