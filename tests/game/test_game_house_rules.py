"""The game-flow house rules of RULES §12.7, §12.8, §12.10-§12.12 and §7 ⚙, as settings.

Each is a `BaseRules` setting with a default that keeps the presets; each is validated
when a rule set is built, played in a worked scenario, and combined with the others in
random whole games over non-preset rule sets (`tests.game.helpers.house_rules`).
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import (
    assert_cards_conserved,
    assert_legal_actions_exact,
    house_rules,
    refuse,
)
from tests.scoring.scoring_helpers import items_of, result_of, run
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    BaseRules,
    GameState,
    IllegalReason,
    InvalidRulesError,
    Pass,
    Play,
    ScoreItem,
    ScoreKind,
)
from tienlen.cards import DECK, Hand
from tienlen.policies import LeaderAfterGoingOut, Seating, TurnPolicy
from tienlen.records import RecordError, rules_to_json


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("pass_locks_out", 1),
        ("chop_chain", None),
        ("end_penalty_with_frozen", "no"),
        ("catch_with_last_cards_scores", 0),
        ("no_going_out_with_two", 1.0),
        ("no_going_out_with_bomb", "yes"),
        ("frozen_multiplier", -1),
        ("frozen_multiplier", 2.0),
        ("frozen_multiplier", True),
        ("leader_after_going_out", "next-with-cards"),
        ("custom_turn_policy", object()),
        ("custom_deal_policy", 1),
        ("custom_scorer", "poker"),
    ],
)
def test_settings_are_checked_when_the_rule_set_is_built(
    setting: str, value: object
) -> None:
    """A wrong type or value raises `InvalidRulesError` naming the setting (issue 10 §3)."""
    with pytest.raises(InvalidRulesError, match=setting):
        attrs.evolve(CLASSIC, **{setting: value})  # type: ignore[arg-type]


def test_the_presets_keep_the_defaults() -> None:
    """No preset plays a §12 game-flow house rule (RULES §12: defaults unchanged)."""
    for rules in (CLASSIC, POKER):
        policy = rules.turn_policy
        assert policy.pass_locks_out
        assert policy.leader_after_going_out is LeaderAfterGoingOut.NEXT_WITH_CARDS
        assert not policy.limits_going_out


# -- §12.8: passing does not lock out ------------------------------------------------


def test_without_lock_out_a_player_who_passed_plays_again() -> None:
    """RULES §12.8: a pass skips the player only until the next play."""
    rules = attrs.evolve(CLASSIC, name="rejoin", pass_locks_out=False)
    state = GameState.from_hands(
        ["5c 3d", "8s 9s", "6c 4d"], rules, first_game=False, leader=0
    )
    state = run(state, "5c", "pass", "6c")
    assert state.to_act == 0
    state = run(state, "pass")  # player 0 passes; player 1 passed before 6c
    assert state.to_act == 1
    assert state.is_legal(Play(player=1, cards="8s"))
    locking = GameState.from_hands(
        ["5c 3d", "8s 9s", "6c 4d"], CLASSIC, first_game=False, leader=0
    )
    locking = run(locking, "5c", "pass", "6c", "pass")
    assert locking.to_act == 2  # player 1 is locked out: the trick ends on 6c
    assert locking.top is None


def test_without_lock_out_the_trick_ends_when_all_others_passed_since_the_play() -> (
    None
):
    """RULES §12.8: the trick ends when the turn comes back to the last player."""
    rules = attrs.evolve(CLASSIC, name="rejoin", pass_locks_out=False)
    state = GameState.from_hands(
        ["5c 3d", "8s 9s", "6c 4d"], rules, first_game=False, leader=0
    )
    state = run(state, "5c", "pass", "pass")
    assert (state.to_act, state.top) == (0, None)


def test_review_case_the_player_after_one_who_went_out_faces_the_play() -> None:
    """RULES §12.8 with §1.5.5: after p4 goes out with 7d, p2 (who passed) faces 7d."""
    rules = attrs.evolve(CLASSIC_TWO_DECKS, name="rejoin", pass_locks_out=False)
    state = GameState.from_hands(
        ["3s", "4s", "5d Ks", "6d Qs", "7d"], rules, first_game=False, leader=0
    )
    state = run(state, "3s", "4s")  # p0, p1 out; the trick goes on
    state = run(state, "pass", "pass", "7d")  # p2, p3 pass; p4 goes out with 7d
    assert state.to_act == 2
    assert state.top is not None
    assert str(state.top) == "7d"
    assert state.is_legal(Play(player=2, cards="Ks"))


# -- §12.10: the leader after a player goes out unbeaten -------------------------


@pytest.mark.parametrize(
    ("reading", "leader"),
    [
        (LeaderAfterGoingOut.NEXT_WITH_CARDS, 3),
        (LeaderAfterGoingOut.AFTER_LAST_TO_ACT, 1),
        (LeaderAfterGoingOut.BEATEN_PLAYER, 0),
    ],
)
def test_leader_after_going_out_readings(
    reading: LeaderAfterGoingOut, leader: int
) -> None:
    """RULES §12.10, D-1: p0 leads, p1 passes, p2 goes out on p0's play, p3 and p0 pass.

    D-1: p3 (next after p2); after the last to act (p0): p1, who passed; the one
    whose play p2 beat: p0.
    """
    rules = attrs.evolve(CLASSIC, name="leader", leader_after_going_out=reading)
    state = GameState.from_hands(
        ["5c 6d 7h", "4h 8s", "Kc", "3d 9s"], rules, first_game=False, leader=0
    )
    state = run(state, "5c", "pass", "Kc", "pass", "pass")
    assert state.top is None
    assert state.to_act == leader


# -- §12.7: other chop money ---------------------------------------------------------


def test_without_a_chain_each_catch_is_paid_at_once_by_its_own_victim() -> None:
    """RULES §12.7: A 2♥, B 3-3-4-4-5-5 (A pays B 4), C 9-9-9-9 (B pays C 4)."""
    rules = attrs.evolve(POKER, name="no-chain", chop_chain=False)
    state = GameState.from_hands(
        ["2h 6s 7s", "8h 8d Tc", "9s 9c 9d 9h Js", "3s 3c 4s 4c 5s 5c Ks"],
        rules,
        first_game=False,
        leader=0,
    )
    state = run(state, "2h", "3s 3c 4s 4c 5s 5c")
    assert state.chop is None
    assert [(i.payer, i.player, i.points) for i in state.items] == [(0, 3, 4)]
    state = run(state, "9s 9c 9d 9h")
    assert [(i.payer, i.player, i.points) for i in state.items] == [
        (0, 3, 4),
        (3, 2, 4),
    ]


_FROZEN_HANDS = [
    "3s Ts",
    "6d 7d 2h",
    "Js Jc Qs Qc Ks Kc Ah 3c 5c 6c 7c 8c 9c",
    "4s 4c 4d 4h 5h 3h 6h 7h 8h 9h Th Jh Qh",
]


def test_frozen_doubled() -> None:
    """RULES §12.7 "frozen doubled": what frozen players pay is multiplied."""
    rules = attrs.evolve(POKER, name="frozen-x2", frozen_multiplier=2)
    state = GameState.from_hands(_FROZEN_HANDS, rules)
    result = result_of(run(state, "3s", "pass", "pass", "6d", "Ts"))
    assert items_of(result, ScoreKind.FROZEN) == (
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=3, points=2 * (4 + 6)),
        ScoreItem(kind=ScoreKind.FROZEN, player=0, payer=2, points=2 * (4 + 4)),
    )


def test_no_end_penalty_with_frozen_bottoms() -> None:
    """D-22, the literal reading: with frozen players at the bottom nobody pays it."""
    rules = attrs.evolve(POKER, name="d22", end_penalty_with_frozen=False)
    state = GameState.from_hands(_FROZEN_HANDS, rules)
    result = result_of(run(state, "3s", "pass", "pass", "6d", "Ts"))
    assert items_of(result, ScoreKind.END_PENALTY) == ()
    default = result_of(
        run(
            GameState.from_hands(_FROZEN_HANDS, POKER), "3s", "pass", "pass", "6d", "Ts"
        )
    )
    assert len(items_of(default, ScoreKind.END_PENALTY)) == 1


def test_a_catch_with_the_catchers_last_cards_scores_nothing() -> None:
    """D-23, the other reading: 9-9-9-9 catching 2♥ as the catcher's last cards is worth 0."""
    hands = ["2h Kh", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h", "Qs Qd"]
    rules = attrs.evolve(POKER, name="d23", catch_with_last_cards_scores=False)
    state = GameState.from_hands(hands, rules, first_game=False, leader=0)
    state = run(state, "2h", "pass", "9s 9c 9d 9h")
    assert items_of(state, ScoreKind.CHOP) == ()
    default = GameState.from_hands(hands, POKER, first_game=False, leader=0)
    default = run(default, "2h", "pass", "9s 9c 9d 9h")
    assert len(items_of(default, ScoreKind.CHOP)) == 1


# -- §12.12: no 2 (or bomb) as the last card; rotting ----------------------------


def test_going_out_with_a_two_is_refused() -> None:
    """RULES §12.12: a play emptying the hand with a 2 is illegal, with its own reason."""
    rules = attrs.evolve(CLASSIC, name="no-2-out", no_going_out_with_two=True)
    state = GameState.from_hands(["2h", "4d 5d"], rules, first_game=False, leader=1)
    state = state.play("4d")
    refuse(state, Play(player=0, cards="2h"), IllegalReason.CANNOT_GO_OUT)
    assert list(state.legal_actions()) == [Pass(player=0)]
    assert_legal_actions_exact(state)


def test_going_out_with_a_bomb_is_refused() -> None:
    """RULES §12.12: with the bomb setting, four of a kind may not be the last cards."""
    rules = attrs.evolve(CLASSIC, name="no-bomb-out", no_going_out_with_bomb=True)
    state = GameState.from_hands(
        ["9s 9c 9d 9h", "4d 5d"], rules, first_game=False, leader=0
    )
    refuse(state, Play(player=0, cards="9s 9c 9d 9h"), IllegalReason.CANNOT_GO_OUT)
    assert state.is_legal(Play(player=0, cards="9s 9c"))
    assert_legal_actions_exact(state)


def test_a_stuck_leader_rots_and_is_the_loser() -> None:
    """RULES §12.12: a leader whose only play would end on a 2 rots: last place at once."""
    rules = attrs.evolve(CLASSIC, name="no-2-out", no_going_out_with_two=True)
    state = GameState.from_hands(
        ["2h", "4d 5d", "6c 7c"], rules, first_game=False, leader=0
    )
    assert state.rotted == (0,)
    assert state.to_act == 1
    assert not state.in_game(0)
    state = run(state, "4d", "6c", "pass", "7c")
    result = result_of(state)
    assert result.finish_order == (2, 1, 0)
    assert result.loser == 0


def test_rotting_ends_the_game_when_one_player_is_left() -> None:
    """RULES §12.12: with two players, the rotten one loses at once."""
    rules = attrs.evolve(CLASSIC, name="no-2-out", no_going_out_with_two=True)
    state = GameState.from_hands(["2h", "4d 5d"], rules, first_game=False, leader=0)
    assert state.is_over
    assert result_of(state).finish_order == (1, 0)


# -- all of them, combined, in whole games -------------------------------------------


def _random_hands(rng: random.Random, players: int, size: int) -> list[list[int]]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [deck[i * size : (i + 1) * size] for i in range(players)]


@settings(deadline=None)
@given(rules=house_rules(), seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_games_under_combined_house_rules(
    rules: BaseRules, seed: int, players: int
) -> None:
    """Small random deals played to the end, under any mix of house rules.

    The legal actions are exactly what `is_legal` accepts at every step, cards are
    conserved, and the result adds up.
    """
    rng = random.Random(seed)
    hands = [
        Hand.from_cards(DECK[i] for i in cards)
        for cards in _random_hands(rng, players, 4)
    ]
    state = GameState.from_hands(hands, rules)
    while not state.is_over:
        actions = assert_legal_actions_exact(state)
        assert actions, "a player to act always has an action"
        state = state.apply(rng.choice(actions))
        assert_cards_conserved(state)
    assert state.result is not None
    assert sorted(state.result.finish_order) == list(range(players))
    assert sum(state.result.scores) == sum(
        item.points for item in state.result.items if item.payer is None
    )


@settings(deadline=None)
@given(rules=house_rules(), seed=st.integers(0, 2**32))
def test_full_deals_under_combined_house_rules(rules: BaseRules, seed: int) -> None:
    """Full four-player deals played to the end, under any mix of house rules.

    Every listed action is legal, membership is legality, and every player is placed.
    """
    rng = random.Random(seed)
    state = GameState.deal(rules, 4, seed=seed)
    while not state.is_over:
        actions = state.legal_actions()
        assert len(actions) > 0
        action = rng.choice(actions)
        assert state.is_legal(action)
        assert action in actions
        state = state.apply(action)
    assert state.result is not None
    assert sorted(state.result.finish_order) == [0, 1, 2, 3]


# -- custom policies, without subclassing the rule set -----------------------------


@attrs.frozen
class _TopSeatLeads(TurnPolicy):
    """A table's own turn policy: after a trick, player 0 leads whenever they can."""

    def trick_leader(
        self,
        seating: Seating,
        *,
        last: int,
        out: int,
        last_to_act: int,
        beaten: int | None,
    ) -> int:
        """Player 0 if they hold cards, else the usual leader."""
        if not out & 1:
            return 0
        return super().trick_leader(
            seating, last=last, out=out, last_to_act=last_to_act, beaten=beaten
        )


def test_a_custom_turn_policy_is_a_setting() -> None:
    """A policy value given as ``custom_turn_policy`` is asked by the engine."""
    rules = attrs.evolve(CLASSIC, name="seat-0", custom_turn_policy=_TopSeatLeads())
    state = GameState.from_hands(["3s 4s", "5d 6d", "7c 8c"], rules)
    state = run(state, "3s", "5d", "7c", "pass", "pass")
    assert (state.top, state.to_act) == (None, 0)  # player 2 won the trick


def test_a_rule_set_with_a_custom_policy_is_not_recorded() -> None:
    """A custom policy is code: a record of it is refused with `RecordError`."""
    rules = attrs.evolve(CLASSIC, name="seat-0", custom_turn_policy=_TopSeatLeads())
    with pytest.raises(RecordError, match="custom_turn_policy"):
        rules_to_json(rules)
