"""Property tests of whole games: random legal walks and a state machine (STYLE R53).

For every preset at 2–4 players and the two-deck tables of classic, Justus Pang and
Kenneth Lo at 5–8 (`two_decks`, RULES §2.1, §10) a seeded deal is played out by random legal actions.
At every step: cards are conserved, `legal_actions()` is not empty and each of its
actions passes `check`, random other actions are refused unless legal and leave the
state unchanged, and `apply` never changes the state it is called on. At the end:
the game terminated, the finishing order is a permutation of the players, stakes sum
to zero and Poker's points follow its table (RULES §2.5, §4.4, §5.4, §6.6).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from tests.game.helpers import (
    PRESETS,
    TABLES,
    actions_of,
    assert_cards_conserved,
    assert_fields_complete,
    assert_result_consistent,
    hand_sum,
    player_counts,
    random_sub_multiset,
    refuse,
    snapshot,
)
from tienlen import (
    DECK,
    POKER,
    Action,
    BaseRules,
    GameState,
    Hand,
    IllegalReason,
    Pass,
    Play,
    Rank,
    ScoreKind,
)


def step_bound(state: GameState) -> int:
    """More actions than any game can take: each trick has a play, and at most n passes per play."""
    cards = sum(len(hand) for hand in state.hands)
    return (cards + 1) * (2 * state.players + 2)


def assert_position_sane(state: GameState, played: Hand | None = None) -> None:
    """The bookkeeping of a game agrees with RULES §1.5 (*played*: the cards played so far)."""
    assert_fields_complete(state)
    if played is None:
        assert_cards_conserved(state)
    else:
        assert hand_sum(state.dealt) == hand_sum(state.hands) + played
    assert (state.top is None) == (state.last_player is None)
    for player in state.finish_order:
        assert not state.hands[player]
    full = state.rules.deal_size(state.players)[1]  # 13 in Poker (RULES §6.1)
    for player in state.frozen:  # RULES §6.6.3: frozen players keep all 13 dealt cards
        assert state.dealt[player] == state.hands[player]
        assert len(state.hands[player]) == full
    assert len(set(state.finish_order)) == len(state.finish_order)
    if state.is_over:
        assert state.to_act is None
        return
    actor = state.to_act
    assert actor is not None
    assert state.hands[actor]
    assert actor not in state.finish_order
    assert actor not in state.frozen


def random_probe(rng: random.Random, state: GameState) -> Action:
    """A random action by anyone: a pass, part of a hand, or any cards at all."""
    player = rng.randrange(state.players)
    hand = state.hands[player]
    roll = rng.random()
    if roll < 0.2 or not hand:
        return Pass(player=player)
    if roll < 0.85:
        return Play(player=player, cards=random_sub_multiset(rng, hand))
    return Play(
        player=player, cards=Hand.from_cards(rng.sample(DECK, rng.randint(1, 5)))
    )


def rebuilt(action: Action) -> Action:
    """A fresh copy of *action*, not the object `legal_actions()` made."""
    if isinstance(action, Play):
        return Play(player=action.player, cards=Hand(action.cards.mask))
    return Pass(player=action.player)


def check_step(
    state: GameState, rng: random.Random, probes: int, played: Hand
) -> Action:
    """Check one position as STYLE R53 asks, and pick the random legal action to take."""
    assert_position_sane(state, played)
    actions = actions_of(state)
    assert actions, "legal_actions() is empty before the end"
    for action in actions:
        state.check(action)
        assert state.is_legal(action)
    legal = set(actions)
    for _ in range(probes):
        probe = random_probe(rng, state)
        if probe in legal:
            assert state.is_legal(probe)
            twin = next(a for a in actions if a == probe)
            assert state.apply(twin) == state.apply(probe)
        else:
            refuse(state, probe)
    return rng.choice(actions)


def play_out(state: GameState, rng: random.Random, probes: int) -> GameState:
    """Play *state* to the end by random legal actions, checking every step."""
    played = Hand(0)
    for _ in range(step_bound(state)):
        if state.is_over:
            break
        action = check_step(state, rng, probes, played)
        if isinstance(action, Play):
            played += action.cards
        before = snapshot(state)
        digest = hash(state)
        after = state.apply(action)
        assert before == snapshot(state)
        assert digest == hash(state)
        assert (*state.history, action) == after.history
        assert after == state.apply(rebuilt(action))  # checked, not taken on trust
        state = after
    assert state.is_over, "the game did not end within the step bound"
    assert_position_sane(state)
    assert_result_consistent(state)
    assert len(state.legal_actions()) == 0
    refuse(state, Pass(player=0), IllegalReason.GAME_OVER)
    return state


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.name)
@given(data=st.data())
def test_random_legal_walks(rules: BaseRules, data: st.DataObject) -> None:
    """STYLE R53, RULES §1.5, §2–§6: random legal walks conserve cards, refuse illegal actions, end and score."""
    counts = player_counts(rules)
    players = data.draw(st.integers(counts.start, counts.stop - 1), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    walk = data.draw(st.integers(0, 2**32 - 1), label="walk")
    state = GameState.deal(rules, players, seed=seed)
    play_out(state, random.Random(walk), probes=3)


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.name)
def test_random_self_play(rules: BaseRules) -> None:
    """RULES §1.5, §2.5, §4.4, §6.6: fixed-seed random self-play ends every game with a consistent score."""
    counts = list(player_counts(rules))
    finished = 0
    for game in range(150):
        players = counts[game % len(counts)]
        state = GameState.deal(rules, players, seed=game)
        rng = random.Random(game)
        for _ in range(step_bound(state)):
            if state.is_over:
                break
            actions = state.legal_actions()
            assert len(actions) > 0
            state = state.apply(rng.choice(actions))
        assert state.is_over
        assert_cards_conserved(state)
        assert_result_consistent(state)
        assert state.result is not None
        finished += state.result.instant_win is None
    assert finished > 0


def hoarding_choice(rng: random.Random, state: GameState, passive: int) -> Action:
    """A random action, but *passive* passes whenever allowed and nobody plays a 2 by choice.

    Such players keep their 2s to the end and sometimes never play at all, so the end
    penalty and frozen players of RULES §6.6.3–§6.6.4 turn up in random games.
    """
    actions = list(state.legal_actions())
    passes = [a for a in actions if isinstance(a, Pass)]
    if state.to_act == passive and passes:
        return passes[0]
    calm = [
        a
        for a in actions
        if isinstance(a, Pass) or not any(c.rank is Rank.TWO for c in a.cards)
    ]
    return rng.choice(calm or actions)


def test_poker_self_play_scores_every_kind() -> None:
    """RULES §6.6–§6.7: in many Poker games every kind of score turns up, always consistent."""
    seen: set[tuple[int, ScoreKind]] = set()
    for game in range(240):
        players = 4 - game % 3
        state = GameState.deal(POKER, players, seed=game)
        rng = random.Random(-game)
        for _ in range(step_bound(state)):
            if state.is_over:
                break
            state = state.apply(hoarding_choice(rng, state, game % players))
        assert state.result is not None
        assert_cards_conserved(state)
        assert_result_consistent(state)
        seen.update((players, item.kind) for item in state.result.items)
    for players in (2, 3, 4):
        kinds = {kind for n, kind in seen if n == players}
        assert {ScoreKind.PLACE, ScoreKind.END_PENALTY, ScoreKind.INSTANT_WIN} <= kinds
    assert {kind for _, kind in seen} == set(ScoreKind) - {ScoreKind.STAKE}


class GameMachine(RuleBasedStateMachine):
    """STYLE R53: a state machine over `GameState`: legal moves and random probes, invariants checked."""

    def __init__(self) -> None:
        super().__init__()
        self.state = GameState.from_hands(["3s", "4s"], PRESETS[0])

    @initialize(rules=st.sampled_from(TABLES), data=st.data())
    def deal(self, rules: BaseRules, data: st.DataObject) -> None:
        """RULES §2.1: a seeded deal for an allowed table size."""
        players = data.draw(st.sampled_from(list(player_counts(rules))))
        seed = data.draw(st.integers(0, 2**32 - 1))
        self.state = GameState.deal(rules, players, seed=seed)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_a_legal_action(self, data: st.DataObject) -> None:
        """RULES §1.5: every listed action is accepted and `apply` leaves the old state alone."""
        actions = actions_of(self.state)
        assert actions
        action = data.draw(st.sampled_from(actions))
        self.state.check(action)
        before = snapshot(self.state)
        after = self.state.apply(action)
        assert before == snapshot(self.state)
        self.state = after

    @rule(data=st.data())
    def try_any_action(self, data: st.DataObject) -> None:
        """RULES §1.5: an arbitrary action is applied when legal and refused, harmlessly, when not."""
        state = self.state
        player = data.draw(st.integers(0, state.players - 1))
        cards = state.hands[player].cards
        if not cards or data.draw(st.booleans()):
            action: Action = Pass(player=player)
        else:
            picks = data.draw(
                st.sets(st.integers(0, len(cards) - 1), min_size=1, max_size=8)
            )
            action = Play(player=player, cards=Hand.from_cards(cards[i] for i in picks))
        if action in set(state.legal_actions()):
            self.state = state.apply(action)
        else:
            refuse(state, action)

    @invariant()
    def position_is_sane(self) -> None:
        """RULES §1.5: cards conserved, the actor holds cards, finished players hold none."""
        assert_position_sane(self.state)

    @invariant()
    def legal_actions_until_the_end(self) -> None:
        """RULES §1.5.1–§1.5.2: someone can always act until the game is over."""
        assert (len(self.state.legal_actions()) == 0) == self.state.is_over
        if self.state.is_over:
            assert_result_consistent(self.state)


TestGameMachine = GameMachine.TestCase
