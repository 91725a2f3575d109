"""Game flow, scenario by scenario, on small hands (RULES §1.5, §2–§6, §9 rows 17–20).

Each test builds a position with `GameState.from_hands`, plays the moves RULES.md
describes and checks whose turn it is, what is on the pile, who is locked out, which
actions are refused and why, and how the game is scored.

Seats: players are 0 … n−1 clockwise; Poker plays counterclockwise, so with four
players its order is 0 → 3 → 2 → 1 (RULES §6.1).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.game.helpers import (
    PRESETS,
    assert_legal_actions_exact,
    assert_result_consistent,
    hand_sum,
    refuse,
)
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    Action,
    BaseRules,
    Card,
    GameState,
    Hand,
    IllegalPlayError,
    IllegalReason,
    Pass,
    Play,
    ScoreItem,
    ScoreKind,
    classify,
)

R = IllegalReason
FOUR_PAIRS = "3s 3c 4s 4c 5s 5c 6s 6c"
QUADS_78 = "7s 7c 7d 7h 8s 8c 8d 8h"


def later(hands: list[str], rules: BaseRules, leader: int = 0) -> GameState:
    """A later game of a match, so the leader is free (RULES §2.4)."""
    return GameState.from_hands(hands, rules, first_game=False, leader=leader)


def run(state: GameState, *moves: str) -> GameState:
    """Apply moves written ``"2:7h 7s"`` (a play) or ``"2:pass"``."""
    for move in moves:
        seat, _, what = move.partition(":")
        player = int(seat)
        action: Action = (
            Pass(player=player) if what == "pass" else Play(player=player, cards=what)
        )
        state = state.apply(action)
    return state


def top_text(state: GameState) -> str | None:
    """The pile's top as card text, or ``None`` when the player to act leads."""
    return None if state.top is None else str(state.top)


def items_of(state: GameState) -> list[tuple[ScoreKind, int, int | None, int]]:
    """The score items settled so far, as (kind, player, payer, points)."""
    return [(i.kind, i.player, i.payer, i.points) for i in state.items]


def result_items(state: GameState) -> list[ScoreItem]:
    """The score items of a finished game."""
    assert state.result is not None
    return list(state.result.items)


def scores(state: GameState) -> tuple[int, ...]:
    """The scores of a finished game, after checking the result is consistent."""
    assert state.result is not None
    assert_result_consistent(state)
    return state.result.scores


def filler(used: str, count: int) -> list[Card]:
    """*count* cards of rank 9 or higher that are not in *used*, for players who only pass."""
    taken = Hand.parse(used)
    free = [c for c in DECK if c not in taken and c.rank.value >= 6]
    return free[:count]


def facing(rules: BaseRules, top: str, hand: str, players: int = 4) -> GameState:
    """Player 0 has led *top*; the next player in play direction holds *hand* and acts.

    Where the 3♠ rule holds in every game (Vietcong, RULES §5.3), player 0 first leads
    the lowest card and everyone passes.
    """
    opener = min(c for c in DECK if c not in Hand.parse(f"{top} {hand}"))
    spare = filler(f"{top} {hand} {opener}", players)
    responder = 1 if rules.direction.value == 1 else players - 1
    hands = [str(spare[p]) for p in range(players)]
    hands[0] = f"{top} {opener}"
    hands[responder] = hand
    if not rules.lead_must_include(first_game=False):
        state = later(hands, rules)
    else:
        state = GameState.from_hands(hands, rules)
        assert state.to_act == 0
        if state.must_include not in Hand.parse(top):
            state = run(state, f"0:{opener}")
            while state.top is not None:
                state = state.pass_turn()
    state = run(state, f"0:{top}")
    assert responder == state.to_act
    assert top_text(state) == str(classify(top, rules=rules))
    return state


# -- the lead (RULES §1.5.1, §2.4) -------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_lead_cannot_be_a_pass(rules: BaseRules) -> None:
    """RULES §1.5.1: the leader must play a combination; a lead cannot be a pass."""
    state = later(["5c 9h", "6c 9c", "7c 9d"], rules)
    refuse(state, Pass(player=0), R.CANNOT_PASS)
    after = run(state, "0:5c")
    # everyone passes (and a Justus Pang leader closes): a new trick
    while after.top is not None:
        after = after.pass_turn()
    assert after.to_act == 0
    refuse(after, Pass(player=0), R.CANNOT_PASS)


@pytest.mark.parametrize(
    "rules", [CLASSIC, KENNETH_LO, VIETCONG, POKER], ids=lambda r: r.name
)
def test_first_lead_cannot_be_declined_outside_justus_pang(rules: BaseRules) -> None:
    """RULES §2.4, §3.3: only Justus Pang lets the 3♠ holder decline the first lead."""
    state = GameState.from_hands(["3s 9h", "4s 9c", "5s 9d"], rules)
    refuse(state, Pass(player=0), R.CANNOT_PASS)


def test_first_lead_must_include_three_of_spades() -> None:
    """RULES §2.4: the first lead contains 3♠, alone or in any combination."""
    state = GameState.from_hands(["3s 4s 5h 9c", "6d 7d", "8c Td"], CLASSIC)
    assert Card.parse("3s") == state.must_include
    refuse(state, Play(player=0, cards="4s"), R.MUST_INCLUDE)
    refuse(state, Play(player=0, cards="4s 5h 9c"), R.NOT_A_COMBO)
    refuse(state, Play(player=0, cards="9c"), R.MUST_INCLUDE)
    state.check(Play(player=0, cards="3s"))
    state.check(Play(player=0, cards="3s 4s 5h"))
    listed = assert_legal_actions_exact(state)
    assert {"3s", "3s 4s 5h"} == {str(a) for a in listed}


def test_first_lead_card_is_only_required_once() -> None:
    """RULES §2.4: after the first lead, later leads are free."""
    state = run(GameState.from_hands(["3s 4s 9c", "6d 7d", "8c Td"], CLASSIC), "0:3s")
    assert state.must_include is None
    state = run(state, "1:pass", "2:pass")
    assert state.to_act == 0
    assert state.must_include is None
    state.check(Play(player=0, cards="9c"))


# -- turn errors and refusals ------------------------------------------------------------


def _mid_trick() -> GameState:
    """Classic, player 0 led 7h; player 1 to act."""
    hands = ["7h 3c", "7d 8s 6s 6c 9c Tc Jc 5s 5c 5d 5h", "9d Qd", "Kd Ad"]
    return run(later(hands, CLASSIC), "0:7h")


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        pytest.param(Play(player=1, cards="7d"), R.DOES_NOT_BEAT, id="lower-single"),
        pytest.param(Play(player=1, cards="6s 6c"), R.WRONG_SHAPE, id="pair-on-single"),
        pytest.param(Play(player=1, cards="9c Tc Jc"), R.WRONG_SHAPE, id="straight-on-single"),
        pytest.param(Play(player=1, cards="5s 5c 5d 5h"), R.WRONG_SHAPE, id="four-on-a-7"),
        pytest.param(Play(player=1, cards="7d 9c"), R.NOT_A_COMBO, id="not-a-combo"),
        pytest.param(Play(player=1, cards="Ah"), R.CARDS_NOT_IN_HAND, id="not-held"),
        pytest.param(Play(player=1, cards="8s Ah"), R.CARDS_NOT_IN_HAND, id="partly-held"),
        pytest.param(Play(player=2, cards="9d"), R.NOT_YOUR_TURN, id="other-player-plays"),
        pytest.param(Pass(player=3), R.NOT_YOUR_TURN, id="other-player-passes"),
        pytest.param(Play(player=4, cards="8s"), R.UNKNOWN_PLAYER, id="player-4"),
        pytest.param(Pass(player=-1), R.UNKNOWN_PLAYER, id="player-minus-1"),
    ],
)  # fmt: skip
def test_illegal_actions_name_their_reason(
    action: Action, reason: IllegalReason
) -> None:
    """RULES §1.3, §1.5.2: each refused action carries the reason it breaks."""
    refuse(_mid_trick(), action, reason)


def test_empty_play_is_refused() -> None:
    """RULES §1.2: playing no cards is no combination and is refused."""
    refuse(_mid_trick(), Play(player=1, cards=""))


def test_legal_reply_is_accepted() -> None:
    """RULES §1.1, §9 row 1: 8♠ beats 7♥ (rank before suit)."""
    state = _mid_trick()
    after = state.apply(Play(player=1, cards="8s"))
    assert top_text(after) == "8s"
    assert after.last_player == 1
    assert after.to_act == 2
    assert_legal_actions_exact(state)


def test_error_message_names_player_cards_and_top() -> None:
    """RULES §1.3: a refusal says who tried what on which top."""
    error = refuse(_mid_trick(), Play(player=1, cards="6c 6s"), R.WRONG_SHAPE)
    text = str(error)
    assert "player 1" in text
    assert "6s 6c" in text
    assert "7h" in text
    assert error.action == "6s 6c"
    error = refuse(_mid_trick(), Pass(player=2), R.NOT_YOUR_TURN)
    assert "player 2" in str(error)
    assert "pass" in str(error)
    assert "7h" in str(error)


def test_play_and_pass_turn_default_to_the_player_to_act() -> None:
    """RULES §1.5.2: `play` and `pass_turn` act for the player whose turn it is."""
    state = _mid_trick()
    assert state.play("8s") == state.apply(Play(player=1, cards="8s"))
    assert state.pass_turn() == state.apply(Pass(player=1))
    assert state.play("8s").history[-1] == Play(player=1, cards="8s")


# -- same-shape and bombs inside a game (RULES §1.3, §2.3, §5.2, §6.3, §9) -----------


@pytest.mark.parametrize(
    ("rules", "top", "hand", "reason"),
    [
        *(pytest.param(r, "7d 7c", "7h 7s", None, id=f"row02-{r.name}") for r in PRESETS),
        *(pytest.param(r, "6s 6c", "5d 5h", R.DOES_NOT_BEAT, id=f"row03-{r.name}") for r in PRESETS),
        *(pytest.param(r, "3s 4s 5s 6s", "9c Tc Jc", R.WRONG_SHAPE, id=f"row04-{r.name}") for r in PRESETS),
        *(pytest.param(r, "2h", "5s 5c 5d 5h", None, id=f"row08-{r.name}") for r in PRESETS),
        *(pytest.param(r, "Ah", "5s 5c 5d 5h", R.WRONG_SHAPE, id=f"row09-{r.name}") for r in PRESETS),
        pytest.param(POKER, "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h", None, id="row11-poker"),
        pytest.param(CLASSIC, "2s 2h", "5s 5c 6s 6c 7s 7c 8s 8c", None, id="row12-classic"),
        pytest.param(CLASSIC, "2s", "5s 5c 6s 6c 7s 7c 8s 8c", R.WRONG_SHAPE, id="row13-classic"),
        pytest.param(JUSTUS_PANG, "2s", "5s 5c 6s 6c 7s 7c 8s 8c", R.WRONG_SHAPE, id="row13-justus-pang"),
        pytest.param(KENNETH_LO, "2s 2h", "9s 9c 9d 9h", None, id="row14-kenneth-lo"),
        pytest.param(POKER, "2s 2h", "9s 9c 9d 9h", None, id="row14-poker"),
        pytest.param(CLASSIC, "2s 2h", "9s 9c 9d 9h", R.WRONG_SHAPE, id="classic-four-on-pair-of-2s"),
        pytest.param(VIETCONG, "2d 2h", QUADS_78, None, id="row15-vietcong"),
        pytest.param(VIETCONG, "2h", QUADS_78, R.WRONG_SHAPE, id="row16-vietcong"),
        pytest.param(VIETCONG, "2s 2d 2h", "6s 6c 6d 6h " + QUADS_78, None, id="vietcong-3-quads-on-three-2s"),
        pytest.param(VIETCONG, "2s 2d 2h", QUADS_78, R.WRONG_SHAPE, id="vietcong-2-quads-on-three-2s"),
        pytest.param(KENNETH_LO, "2s 2d 2h", "9s 9c 9d 9h", R.WRONG_SHAPE, id="kenneth-lo-nothing-beats-three-2s"),
        pytest.param(POKER, "2s 2d 2h", FOUR_PAIRS, R.WRONG_SHAPE, id="poker-nothing-beats-three-2s"),
    ],
)  # fmt: skip
def test_reply_in_game_follows_the_bomb_table(
    rules: BaseRules, top: str, hand: str, reason: IllegalReason | None
) -> None:
    """RULES §1.3, §2.3, §4.3, §5.2, §6.3, §9: the engine applies the variant's beating rules."""
    state = facing(rules, top, hand)
    assert state.to_act is not None
    play = Play(player=state.to_act, cards=hand)
    if reason is not None:
        refuse(state, play, reason)
        return
    after = state.apply(play)
    assert str(Hand.parse(hand)) == top_text(after)
    assert state.to_act == after.last_player


@pytest.mark.parametrize(
    ("rules", "legal"),
    [
        pytest.param(CLASSIC, True, id="row05-classic"),
        pytest.param(KENNETH_LO, True, id="row05-kenneth-lo"),
        pytest.param(JUSTUS_PANG, False, id="row06-justus-pang"),
        pytest.param(VIETCONG, False, id="row06-vietcong"),
        pytest.param(POKER, False, id="row06-poker"),
    ],
)
def test_lead_straight_ending_in_a_two(rules: BaseRules, legal: bool) -> None:
    """RULES §2.2, §3.1, §5.1, §6.2, §9 rows 5–6: J-Q-K-A-2 may be led only where 2s top straights."""
    state = facing(rules, "Ts Js Qd Kc Ah", "Jd Qh Kh Ac 2d")
    play = Play(player=state.to_act or 0, cards="Jd Qh Kh Ac 2d")
    if legal:
        state.check(play)
    else:
        refuse(state, play, R.NOT_A_COMBO)


def test_two_decks_equal_card_does_not_beat() -> None:
    """RULES §1.1, §9 row 20: with two decks the other 7♥ does not beat 7♥."""
    state = run(later(["7h 9s", "7h 8h", "4c", "5c", "6c"], CLASSIC_TWO_DECKS), "0:7h")
    refuse(state, Play(player=1, cards="7h"), R.DOES_NOT_BEAT)
    state.check(Play(player=1, cards="8h"))
    assert_legal_actions_exact(state)


def test_two_decks_cannot_play_a_copy_not_held() -> None:
    """RULES §1.1: holding one 7♥ of two decks, a pair of 7♥ names it once too often."""
    state = later(["7h 9s", "7h 8h", "4c", "5c", "6c"], CLASSIC_TWO_DECKS)
    refuse(state, Play(player=0, cards="7h 7h"), R.CARD_REPEATED)


def test_two_decks_pair_of_the_same_card() -> None:
    """RULES §1.1, §1.2: with two decks, both copies of a card form a pair."""
    state = later(["7h 7h 9s", "8s 8c", "4c", "5c", "6c"], CLASSIC_TWO_DECKS)
    state = run(state, "0:7h 7h")
    assert top_text(state) == "7h 7h"
    state.check(Play(player=1, cards="8s 8c"))


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO], ids=lambda r: r.name
)
def test_no_bomb_over_another_bomb_kind(rules: BaseRules) -> None:
    """RULES §2.3, §4.3, §9 row 10: four of a kind cannot beat 3 consecutive pairs that beat a 2."""
    hands = ["2h 8s", "3s 3c 4s 4c 5s 5c Qh", "9s 9c 9d 9h Jh", "Kd Qd"]
    state = run(later(hands, rules), "0:2h", "1:3s 3c 4s 4c 5s 5c")
    refuse(state, Play(player=2, cards="9s 9c 9d 9h"), R.WRONG_SHAPE)


def test_four_of_a_kind_beats_a_two_that_beat_an_ace() -> None:
    """RULES §2.3: four of a kind cannot beat an ace, but may beat the 2 that beat it."""
    hands = ["Ah 9s", "2c 8s", "5s 5c 5d 5h Jh", "Kd Qd"]
    on_ace = run(later(hands, CLASSIC), "0:Ah", "1:pass")
    refuse(on_ace, Play(player=2, cards="5s 5c 5d 5h"), R.WRONG_SHAPE)
    on_two = run(later(hands, CLASSIC), "0:Ah", "1:2c", "2:5s 5c 5d 5h")
    assert top_text(on_two) == "5s 5c 5d 5h"


# -- lock-out and tricks (RULES §1.5.2–§1.5.4) ---------------------------------------------


def _lockout() -> GameState:
    """Classic: 0 led 5c, 1 passed, 2 and 3 beat it, 0 played 2h: 2 to act, 1 locked out."""
    hands = ["5c 2h 8d", "9s 9c 9d 9h 4d", "6c 7d", "7c 8c"]
    return run(later(hands, CLASSIC), "0:5c", "1:pass", "2:6c", "3:7c", "0:2h")


def test_passed_player_is_locked_out_even_with_a_bomb() -> None:
    """RULES §1.5.3: a player who passed may not play again in this trick, bombs included."""
    state = _lockout()
    assert frozenset({1}) == state.passed
    assert state.to_act == 2  # player 1 is skipped
    refuse(state, Play(player=1, cards="9s 9c 9d 9h"), R.LOCKED_OUT)
    refuse(state, Pass(player=1), R.LOCKED_OUT)
    state = run(state, "2:pass")
    assert state.to_act == 3
    refuse(state, Play(player=1, cards="9s 9c 9d 9h"), R.LOCKED_OUT)
    assert_legal_actions_exact(state)


def test_trick_ends_and_the_last_player_leads() -> None:
    """RULES §1.5.4: when all others have passed, the pile clears and the last player leads."""
    state = run(_lockout(), "2:pass", "3:pass")
    assert state.to_act == 0
    assert state.top is None
    assert state.last_player is None
    assert frozenset() == state.passed
    refuse(state, Pass(player=0), R.CANNOT_PASS)
    state = run(state, "0:8d")
    assert state.to_act == 1  # no longer locked out in the new trick
    state.check(Play(player=1, cards="9s"))


def test_passing_is_allowed_even_when_able_to_beat() -> None:
    """RULES §1.5.2: passing is always allowed, even when the player could beat."""
    state = _mid_trick()
    state.check(Play(player=1, cards="8s"))
    state.check(Pass(player=1))
    assert frozenset({1}) == state.pass_turn().passed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_poker_plays_counterclockwise(players: int) -> None:
    """RULES §6.1: Poker play passes from player i to player i − 1."""
    expected = [0, *range(players - 1, 0, -1)]
    hands = [""] * players
    for k, seat in enumerate(expected):
        hands[seat] = f"{4 + k}c 9{'hcds'[seat]}"
    state = later(hands, POKER)
    seen = []
    for k in range(players):
        assert state.to_act is not None
        seen.append(state.to_act)
        state = state.play(f"{4 + k}c")
    assert expected == seen


def test_poker_counterclockwise_turn_order_explicit() -> None:
    """RULES §6.1: with four Poker players the turn goes 0 → 3 → 2 → 1."""
    state = later(["4c 9h", "7c 9c", "6c 9d", "5c 9s"], POKER)
    order = []
    for card in ["4c", "5c", "6c", "7c"]:
        assert state.to_act is not None
        order.append(state.to_act)
        state = state.play(card)
    assert order == [0, 3, 2, 1]
    clockwise = later(["4c 9h", "5c 9c", "6c 9d", "7c 9s"], CLASSIC)
    order = []
    for card in ["4c", "5c", "6c", "7c"]:
        assert clockwise.to_act is not None
        order.append(clockwise.to_act)
        clockwise = clockwise.play(card)
    assert order == [0, 1, 2, 3]


# -- going out (RULES §1.5.5–§1.5.6, D-1) ---------------------------------------------------


def test_going_out_unbeaten_next_player_leads_even_if_passed() -> None:
    """RULES §1.5.5, D-1: the lead goes to the next player in direction with cards, though they passed."""
    hands = ["Kc", "4d 9d", "5d 9h", "4c Qs"]
    state = run(later(hands, CLASSIC, leader=3), "3:4c", "0:Kc")
    assert state.finish_order == (0,)
    assert state.to_act == 1
    state = run(state, "1:pass", "2:pass", "3:pass")
    assert state.to_act == 1
    assert state.top is None
    assert frozenset() == state.passed
    refuse(state, Pass(player=0), R.PLAYER_OUT)
    refuse(state, Play(player=0, cards="Kc"), R.PLAYER_OUT)


def test_going_out_others_may_still_beat_the_last_play() -> None:
    """RULES §1.5.5: the others may still beat a finished player's last play."""
    hands = ["Kc", "4d Ad", "5d 9h", "4c Qs"]
    state = run(later(hands, CLASSIC, leader=3), "3:4c", "0:Kc", "1:Ad", "2:pass")
    assert state.to_act == 3
    state = run(state, "3:pass")
    assert state.to_act == 1  # player 0 is out and skipped; 1 made the last play
    assert state.top is None


def test_going_out_poker_lead_goes_counterclockwise() -> None:
    """RULES §6.5, D-1: in Poker the nearest player counterclockwise with cards leads."""
    hands = ["5c Kc", "4c 8c Qs", "7c 9h", "6c 9d"]
    state = run(later(hands, POKER, leader=1), "1:4c", "0:5c", "3:6c", "2:7c", "1:8c")
    state = run(state, "0:Kc")
    assert state.finish_order == (0,)
    assert state.frozen == ()
    state = run(state, "3:pass", "2:pass", "1:pass")
    assert state.to_act == 3
    assert state.top is None


def test_players_without_cards_are_skipped() -> None:
    """RULES §1.5.6, D-1: out players are skipped, also when choosing the next leader."""
    hands = ["6c Kc", "4d", "5d 9h", "4c Qs"]
    state = run(later(hands, CLASSIC, leader=1), "1:4d")
    assert state.finish_order == (1,)
    assert state.to_act == 2
    state = run(state, "2:5d", "3:pass", "0:6c", "2:pass")
    assert state.to_act == 0  # 1 is out, 3 passed: the trick is over
    assert state.top is None
    state = run(state, "0:Kc")
    assert state.finish_order == (1, 0)
    assert state.to_act == 2  # 1 is skipped
    state = run(state, "2:pass", "3:pass")
    assert state.to_act == 2  # after 0 (out) and 1 (out) comes 2, who passed
    assert state.top is None
    refuse(state, Pass(player=1), R.PLAYER_OUT)


def test_game_over_refuses_every_action() -> None:
    """RULES §2.5: once only one player holds cards the game is over; nothing more may be played."""
    state = run(later(["5c", "9d 9h"], CLASSIC), "0:5c")
    assert state.is_over
    assert state.to_act is None
    assert len(state.legal_actions()) == 0
    refuse(state, Play(player=1, cards="9d"), R.GAME_OVER)
    refuse(state, Pass(player=1), R.GAME_OVER)
    refuse(state, Pass(player=0), R.GAME_OVER)
    with pytest.raises(IllegalPlayError, match="game over"):
        state.play("9d")
    with pytest.raises(IllegalPlayError, match="game over"):
        state.pass_turn()


# -- Justus Pang: declining the first lead (RULES §3.3, D-6) --------------------------------


def test_justus_pang_decline_first_lead() -> None:
    """RULES §3.3, D-6: the 3♠ holder may pass; locked out, the next player leads anything."""
    state = GameState.from_hands(["3s 8h 9h", "4d Td", "5d Jd", "Qd"], JUSTUS_PANG)
    listed = assert_legal_actions_exact(state)
    assert Pass(player=0) in listed
    state = run(state, "0:pass")
    assert state.to_act == 1
    assert state.top is None
    assert state.must_include is None
    assert frozenset({0}) == state.passed
    refuse(state, Pass(player=1), R.CANNOT_PASS)  # may not decline in turn
    assert_legal_actions_exact(state)
    state = run(state, "1:Td")  # any combination, not the lowest card
    refuse(state, Play(player=0, cards="9h"), R.LOCKED_OUT)
    state = run(state, "2:Jd", "3:Qd")  # 3 goes out
    assert state.to_act == 1  # 0 stays locked out and is skipped
    state = run(state, "1:pass", "2:pass")
    assert state.to_act == 0  # D-1: next after the finished player, though they passed
    assert frozenset() == state.passed
    state.check(Play(player=0, cards="8h"))


def test_justus_pang_decline_is_only_for_the_first_lead() -> None:
    """RULES §3.3: the decline is a pass of the first lead only, not of later leads."""
    state = later(["3s 8h 9h", "4d Td", "5d Jd", "Qd"], JUSTUS_PANG)
    refuse(state, Pass(player=0), R.CANNOT_PASS)


# -- Justus Pang: continuation (RULES §3.4, D-7, §9 row 19) -------------------------------


JP_HANDS = ["5c 9h Js Ks Kh 4h", "Qd 8d 8c", "Qc 7d 7c", "Qs 6d 6c"]


def _continuing() -> GameState:
    """Justus Pang: A (0) led 5c and all others passed."""
    return run(later(JP_HANDS, JUSTUS_PANG), "0:5c", "1:pass", "2:pass", "3:pass")


def test_justus_pang_continuation_offered_after_all_pass() -> None:
    """RULES §3.4, D-7, §9 row 19: A led 5C, all others passed: A chooses, the pile stays."""
    state = _continuing()
    assert state.to_act == 0
    assert top_text(state) == "5c"
    assert state.last_player == 0
    assert state.is_continuing
    assert frozenset({1, 2, 3}) == state.passed
    listed = assert_legal_actions_exact(state)
    assert {"9h", "Js", "Ks", "Kh", "pass"} == {str(a) for a in listed}


def test_justus_pang_continue_keeps_others_locked() -> None:
    """RULES §3.4, §9 row 19: A may play 9H on their own 5C; the others stay locked out."""
    state = run(_continuing(), "0:9h")
    assert top_text(state) == "9h"
    assert state.to_act == 0  # the turn comes straight back
    assert state.is_continuing
    assert frozenset({1, 2, 3}) == state.passed
    refuse(state, Play(player=1, cards="Qd"), R.LOCKED_OUT)
    state = run(state, "0:Js", "0:Ks")  # any number of times
    assert top_text(state) == "Ks"
    assert state.to_act == 0


def test_justus_pang_continuation_same_shape_strictly_higher() -> None:
    """RULES §3.4, D-7: a continuation keeps the shape and beats the top."""
    state = _continuing()
    refuse(state, Play(player=0, cards="Ks Kh"), R.WRONG_SHAPE)
    refuse(state, Play(player=0, cards="4h"), R.DOES_NOT_BEAT)


def test_justus_pang_close_clears_the_pile_same_player_leads() -> None:
    """RULES §3.4, D-7: closing is a pass; the pile clears and the same player leads."""
    state = run(_continuing(), "0:pass")
    assert state.to_act == 0
    assert state.top is None
    assert frozenset() == state.passed
    assert not state.is_continuing
    refuse(state, Pass(player=0), R.CANNOT_PASS)
    state = run(state, "0:Ks Kh")
    assert state.to_act == 1


def test_justus_pang_continuation_no_bombs_from_locked_players() -> None:
    """RULES §3.4: during a continuation, locked-out players may not bomb a 2 either."""
    hands = ["5c 2h 6s 6c 6d 6h 8s", "9s 9c 9d 9h 4d", "Qc 7d", "Qs 7c"]
    state = run(later(hands, JUSTUS_PANG), "0:5c", "1:pass", "2:pass", "3:pass", "0:2h")
    assert top_text(state) == "2h"
    refuse(state, Play(player=1, cards="9s 9c 9d 9h"), R.LOCKED_OUT)
    refuse(state, Play(player=0, cards="6s 6c 6d 6h"), R.WRONG_SHAPE)


def test_justus_pang_continuation_going_out_passes_the_lead() -> None:
    """RULES §3.4, D-7, §1.5.5: going out with a continuation gives the lead to the next player."""
    hands = ["5c 9h", "Qd 8d", "Qc 7d", "Qs 7c"]
    state = run(later(hands, JUSTUS_PANG), "0:5c", "1:pass", "2:pass", "3:pass", "0:9h")
    assert state.finish_order == (0,)
    assert state.to_act == 1
    assert state.top is None
    assert frozenset() == state.passed


def test_justus_pang_decline_then_continuation_two_players() -> None:
    """RULES §3.3–§3.4: two players: after a decline, the leader's lead returns to them at once."""
    state = run(
        GameState.from_hands(["3s 9h", "4d Td Jd"], JUSTUS_PANG), "0:pass", "1:Td"
    )
    assert state.to_act == 1
    assert state.is_continuing
    assert top_text(state) == "Td"
    listed = assert_legal_actions_exact(state)
    assert {"Jd", "pass"} == {str(a) for a in listed}
    closed = run(state, "1:pass")
    assert closed.to_act == 1
    assert closed.top is None
    assert frozenset() == closed.passed


def test_justus_pang_continuation_belongs_to_the_last_player() -> None:
    """RULES §3.4: the continuation goes to whoever made the last play; everyone else stays locked."""
    state = run(
        later(JP_HANDS, JUSTUS_PANG), "0:5c", "1:8d", "2:pass", "3:pass", "0:pass"
    )
    assert state.to_act == 1
    assert state.is_continuing
    assert top_text(state) == "8d"
    assert frozenset({0, 2, 3}) == state.passed
    refuse(state, Play(player=0, cards="9h"), R.LOCKED_OUT)
    assert_legal_actions_exact(state)


def test_classic_has_no_continuation() -> None:
    """RULES §2, §1.5.4: in classic, when all others pass the pile clears at once."""
    state = run(later(JP_HANDS, CLASSIC), "0:5c", "1:pass", "2:pass", "3:pass")
    assert state.to_act == 0
    assert state.top is None
    assert not state.is_continuing
    assert frozenset() == state.passed
    state = run(state, "0:9h")
    assert state.to_act == 1
    state.check(Play(player=1, cards="Qd"))


# -- Vietcong slams (RULES §5.2, D-13) --------------------------------------------------------


VC_HANDS = ["3s " + QUADS_78 + " 9s", "4s 2d 2h 5s Ts"]


def test_vietcong_consecutive_quads_cannot_be_led() -> None:
    """RULES §5.2, D-13: consecutive quads are slams only and cannot be led."""
    state = run(GameState.from_hands(VC_HANDS, VIETCONG), "0:3s", "1:pass")
    assert state.to_act == 0
    assert state.top is None
    refuse(state, Play(player=0, cards=QUADS_78), R.CANNOT_LEAD)
    listed = assert_legal_actions_exact(state)
    assert all(len(a.cards) != 8 for a in listed if isinstance(a, Play))


def test_vietcong_consecutive_quads_slam_a_pair_of_twos() -> None:
    """RULES §5.2, §9 row 15: 7777-8888 slams a pair of 2s in a game."""
    state = run(GameState.from_hands(VC_HANDS, VIETCONG), "0:3s", "1:4s", "0:pass")
    state = run(state, "1:2d 2h")
    assert state.to_act == 0
    assert_legal_actions_exact(state)
    state = run(state, "0:" + QUADS_78)
    assert top_text(state) == QUADS_78


def test_vietcong_quads_beat_lower_quads() -> None:
    """RULES §5.2, D-13: after a slam only higher consecutive quads beat it."""
    hands = ["3s 2d 2h 9d", "5s 5c 5d 5h 6s 6c 6d 6h Jc", QUADS_78 + " 9s", "Tc Td"]
    state = GameState.from_hands(hands, VIETCONG)
    state = run(state, "0:3s", "1:pass", "2:pass", "3:pass", "0:2d 2h")
    state = run(state, "1:5s 5c 5d 5h 6s 6c 6d 6h")
    assert state.to_act == 2
    refuse(state, Play(player=0, cards="9d"), R.NOT_YOUR_TURN)
    state = run(state, "2:" + QUADS_78)
    assert top_text(state) == QUADS_78


# -- Poker jump-in (RULES §6.4, D-15, §9 rows 17–18) ----------------------------------------


def _jump(d_hand: str) -> GameState:
    """Poker, seats A=0, B=3, C=2, D=1: A led 9h, B, C beat it, D passed, A played 2h; B to act."""
    hands = ["9h 2h Ah", d_hand, "Js 8s 8c 8d 8h", "Ts Kd"]
    return run(later(hands, POKER), "0:9h", "3:Ts", "2:Js", "1:pass", "0:2h")


def test_poker_jump_in_by_a_player_who_passed() -> None:
    """RULES §6.4, D-15, §9 row 17: D passed earlier, D may play 3-3-4-4-5-5-6-6 onto 2H out of turn."""
    state = _jump(FOUR_PAIRS + " Kc")
    assert state.to_act == 3
    assert frozenset({1}) == state.passed
    listed = assert_legal_actions_exact(state)
    assert Play(player=1, cards=FOUR_PAIRS) in listed
    state = run(state, "1:" + FOUR_PAIRS)
    assert state.last_player == 1
    assert top_text(state) == FOUR_PAIRS
    assert state.to_act == 0  # the player after the jumper, counterclockwise
    assert frozenset({1}) == state.passed  # lock-outs unchanged


def test_poker_jump_in_only_four_consecutive_pairs() -> None:
    """RULES §6.4, D-15, §9 row 18: four of a kind may not jump in, though it beats 2H in turn."""
    state = _jump("Qs Qc Qd Qh Kc")
    refuse(state, Play(player=1, cards="Qs Qc Qd Qh"), R.LOCKED_OUT)
    refuse(state, Play(player=2, cards="8s 8c 8d 8h"), R.NOT_YOUR_TURN)
    assert_legal_actions_exact(state)


def test_poker_jump_in_trick_then_ends_at_the_jumper() -> None:
    """RULES §6.4, §1.5.4: after a jump-in the others pass in turn and the jumper leads next."""
    state = run(
        _jump(FOUR_PAIRS + " Kc"), "1:" + FOUR_PAIRS, "0:pass", "3:pass", "2:pass"
    )
    assert state.to_act == 1
    assert state.top is None
    assert frozenset() == state.passed
    assert items_of(state) == [(ScoreKind.CHOP, 1, 0, 4)]


def test_poker_jump_in_by_a_player_who_has_not_passed() -> None:
    """RULES §6.4: a player who has not passed may jump in before their turn; the turn moves past them."""
    hands = ["9h 2h Ah", "Qh Kc", FOUR_PAIRS + " Js Kh", "Ts Kd"]
    state = run(later(hands, POKER), "0:9h", "3:Ts", "2:Js", "1:Qh", "0:2h")
    assert state.to_act == 3
    assert frozenset() == state.passed
    state = run(state, "2:" + FOUR_PAIRS)
    assert state.to_act == 1  # after 2 comes 1; 3 waits for the turn to come round
    assert frozenset() == state.passed
    state = run(state, "1:pass", "0:pass", "3:pass")
    assert state.to_act == 2
    assert state.top is None
    assert items_of(state) == [(ScoreKind.CHOP, 2, 0, 4)]


@pytest.mark.parametrize(
    ("top", "jumper"),
    [
        pytest.param("2d 2h", "7s 7c 8s 8c 9d 9h Ts Th", id="pair-of-2s"),
        pytest.param("9s 9c Ts Tc Js Jc", "3d 3h 4d 4h 5d 5h 6d 6h", id="three-pairs"),
        pytest.param("9s 9c 9d 9h", "3d 3h 4d 4h 5d 5h 6d 6h", id="four-of-a-kind"),
        pytest.param(
            "3d 3h 4d 4h 5d 5h 6d 6h", "7s 7c 8s 8c 9d 9h Ts Th", id="lower-four-pairs"
        ),
    ],
)
def test_poker_jump_in_onto_a_pair_of_twos_or_a_bomb(top: str, jumper: str) -> None:
    """RULES §6.4, D-15: a jump-in may land on a pair of 2s or a bomb."""
    hands = [top + " 3c", "Kh", jumper + " Kc", "Jd Qd"]
    state = run(later(hands, POKER), "0:" + top)
    assert state.to_act == 3
    jump = Play(player=2, cards=jumper)
    state.check(jump)
    assert jump in set(state.legal_actions())
    after = state.apply(jump)
    assert after.to_act == 1
    assert after.last_player == 2


def test_poker_jump_in_not_onto_other_tops() -> None:
    """RULES §6.4, D-15: no jump-in onto anything but a 2, a pair of 2s or a bomb."""
    hands = ["Ah 8d", "Kh", FOUR_PAIRS + " 9c", "Jd Qd"]
    state = run(later(hands, POKER), "0:Ah")
    refuse(state, Play(player=2, cards=FOUR_PAIRS), R.NOT_YOUR_TURN)
    assert all(a.player == 3 for a in state.legal_actions())


def test_poker_no_jump_in_on_own_play() -> None:
    """RULES §6.4: the player who made the top play may not jump in on it."""
    hands = ["2h " + FOUR_PAIRS, "Kh", "9c", "Jd Qd"]
    state = run(later(hands, POKER), "0:2h")
    refuse(state, Play(player=0, cards=FOUR_PAIRS), R.NOT_YOUR_TURN)


def test_poker_lower_four_pairs_cannot_jump_in() -> None:
    """RULES §6.4: a jump-in must beat the top."""
    hands = ["7s 7c 8s 8c 9d 9h Ts Th Ah", "Kh", FOUR_PAIRS + " 9c", "Jd Qd"]
    state = run(later(hands, POKER), "0:7s 7c 8s 8c 9d 9h Ts Th")
    refuse(state, Play(player=2, cards=FOUR_PAIRS), R.NOT_YOUR_TURN)


def test_jump_in_is_poker_only() -> None:
    """RULES §1.5.3, §10: outside Poker a player out of turn may not play 4 pairs on a 2."""
    hands = ["9h 2h Ah", FOUR_PAIRS + " Kc", "Js Qc", "Ts Kd"]
    state = run(later(hands, CLASSIC), "0:9h", "1:pass", "2:Js", "3:pass", "0:2h")
    refuse(state, Play(player=1, cards=FOUR_PAIRS), R.LOCKED_OUT)


# -- end and payment: stakes (RULES §2.5, §4.4, §5.4) ------------------------------------------


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, VIETCONG], ids=lambda r: r.name
)
def test_loser_pays_each(rules: BaseRules) -> None:
    """RULES §2.5, §9: classic 4 players, D left holding cards → D −3, others +1."""
    state = GameState.from_hands(["3c", "4c", "5c", "6c 7c"], rules)
    state = run(state, "0:3c", "1:4c", "2:5c")
    assert state.is_over
    assert state.result is not None
    assert state.result.finish_order == (0, 1, 2, 3)
    assert state.result.loser == 3
    assert scores(state) == (1, 1, 1, -3)


def test_loser_pays_each_two_players() -> None:
    """RULES §2.5: with two players the loser pays one stake."""
    state = run(later(["5c", "9d 9h"], CLASSIC), "0:5c")
    assert scores(state) == (1, -1)


def test_kenneth_lo_first_out_wins() -> None:
    """RULES §4.4, D-11, §9: Kenneth Lo, B out first → B +3, others −1; the game ends at once."""
    state = later(["4c 9h 9d", "Kc", "5c Jd", "6c Qd"], KENNETH_LO)
    state = run(state, "0:4c", "1:Kc")
    assert state.is_over
    assert state.result is not None
    assert state.result.winner == 1
    assert scores(state) == (-1, 3, -1, -1)
    refuse(state, Play(player=2, cards="Jd"), R.GAME_OVER)


def test_classic_game_goes_on_after_the_first_out() -> None:
    """RULES §2.5: in classic the game goes on until one player holds cards."""
    state = run(later(["4c 9h 9d", "Kc", "5c Jd", "6c Qd"], CLASSIC), "0:4c", "1:Kc")
    assert not state.is_over
    assert state.finish_order == (1,)


# -- Poker points (RULES §6.6, D-17–D-20) ---------------------------------------------------


def test_poker_chop_chain_example() -> None:
    """RULES §6.6.2, D-18: A 2♥, B 3-3-4-4-5-5, C 9-9-9-9, the trick ends: C +8, B −8, A 0."""
    hands = ["2h 8h", "Kh Qh", "9s 9c 9d 9h Tc", "3s 3c 4s 4c 5s 5c Jd"]
    state = run(later(hands, POKER), "0:2h", "3:3s 3c 4s 4c 5s 5c", "2:9s 9c 9d 9h")
    assert items_of(state) == []  # paid when the trick ends
    state = run(state, "1:pass", "0:pass", "3:pass")
    assert state.to_act == 2
    assert items_of(state) == [(ScoreKind.CHOP, 2, 3, 8)]
    assert [str(c) for c in state.items[0].combos] == ["2h", "3s 3c 4s 4c 5s 5c"]


def test_poker_two_on_two_is_not_a_catch() -> None:
    """RULES §6.6.2: beating a 2 with a higher 2 is not a catch."""
    hands = ["2s 8h", "Kh Qh", "Th Td", "2h Jd"]
    state = run(later(hands, POKER), "0:2s", "3:2h", "2:pass", "1:pass", "0:pass")
    assert state.to_act == 3
    assert items_of(state) == []


def test_poker_leading_a_bomb_is_not_a_catch_but_beating_it_is() -> None:
    """RULES §6.6.2: leading a bomb is no catch; a higher bomb of the same shape on it is."""
    hands = ["3s 3c 4s 4c 5s 5c 9h", "Kh Qh", "Th Td", "6s 6c 7s 7c 8s 8c Jd"]
    led = run(later(hands, POKER), "0:3s 3c 4s 4c 5s 5c", "3:pass", "2:pass", "1:pass")
    assert items_of(led) == []
    caught = run(later(hands, POKER), "0:3s 3c 4s 4c 5s 5c", "3:6s 6c 7s 7c 8s 8c")
    caught = run(caught, "2:pass", "1:pass", "0:pass")
    assert items_of(caught) == [(ScoreKind.CHOP, 3, 0, 4)]


def test_poker_final_play_caught_is_worth_nothing() -> None:
    """RULES §6.6.2, D-18: a victim's final play is worth 0; the next catch still counts."""
    hands = ["5c 2h", "8c Kd Qd", "7c Ts Tc Td Th Jd", "6c 3s 3c 4s 4c 5s 5d 9d"]
    state = run(later(hands, POKER), "0:5c", "3:6c", "2:7c", "1:8c", "0:2h")
    assert state.finish_order == (0,)
    assert state.frozen == ()
    state = run(state, "3:3s 3c 4s 4c 5s 5d", "2:Ts Tc Td Th", "1:pass", "3:pass")
    assert items_of(state) == [(ScoreKind.CHOP, 2, 3, 4)]


def test_poker_catch_that_empties_the_hand_is_paid_at_once() -> None:
    """RULES §6.6.2: a catch that empties the catcher's hand is paid at once, and only once."""
    hands = ["5c 2h 9h", "8c Kd Qd", "7c Ts Tc Td Th", "6c Jd Jh"]
    state = run(later(hands, POKER), "0:5c", "3:6c", "2:7c", "1:8c", "0:2h", "3:pass")
    state = run(state, "2:Ts Tc Td Th")
    assert state.finish_order == (2,)
    assert items_of(state) == [(ScoreKind.CHOP, 2, 0, 4)]
    state = run(state, "1:pass", "0:pass")
    assert items_of(state) == [(ScoreKind.CHOP, 2, 0, 4)]
    assert state.to_act == 1  # D-1: next counterclockwise from 2 with cards


def test_poker_end_penalty_example() -> None:
    """RULES §6.6.1, §6.6.4, §9: Poker, last place holds 2♠ and 2♦ → last −4, third +4."""
    hands = ["3c 6c", "4d 5c 2s 2d", "3h 9h Th Jh", "3d 7d 8d"]
    state = run(later(hands, POKER), "0:3c", "3:3d", "2:3h", "1:4d", "0:6c")
    assert state.frozen == ()
    state = run(state, "3:7d", "2:9h", "1:pass", "3:pass", "2:Th", "1:pass", "3:pass")
    state = run(state, "2:Jh", "1:pass", "3:pass", "1:5c", "3:8d")
    assert state.is_over
    assert state.result is not None
    assert state.result.finish_order == (0, 2, 3, 1)
    assert scores(state) == (4, -4, 2, 5)
    assert (ScoreKind.END_PENALTY, 3, 1, 4) in [
        (i.kind, i.player, i.payer, i.points) for i in result_items(state)
    ]


def test_poker_frozen_players() -> None:
    """RULES §6.6.3, D-19: players still holding all 13 cards pay 4 + their 2s and bombs, placed last."""
    # Players 1 and 2 hold full 13-card deals and never play; player 0 goes out first.
    # Player 1: no 2s and no bomb (one pair, 9-9), worth 0, so pays 4.
    # Player 2: 2♥ 4 + 3-3-4-4-5-5 (3 consecutive pairs) 4, worth 8, so pays 4 + 8 = 12.
    # Neither is an instant win (RULES §6.7): at most three pairs, twelve or ten ranks.
    hands = [
        "4s 6s",
        "9c 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
        "2h 3c 3d 4c 4d 5c 5d 7d 9d Jd Qd Kd Ad",
        "5s 7s 8s",
    ]
    state = run(later(hands, POKER), "0:4s", "3:5s", "2:pass", "1:pass", "0:6s")
    assert state.is_over
    assert state.result is not None
    assert {1, 2} == set(state.result.frozen)
    assert state.result.finish_order[:2] == (0, 3)
    assert {1, 2} == set(state.result.finish_order[2:])
    assert scores(state) == (20, -4, -12, 2)
    frozen = sorted(
        (i.payer, i.points) for i in result_items(state) if i.kind is ScoreKind.FROZEN
    )
    assert frozen == [(1, 4), (2, 12)]
    assert not any(i.kind is ScoreKind.END_PENALTY for i in result_items(state))


def test_poker_frozen_player_pays_no_end_penalty_game_goes_on() -> None:
    """RULES §6.6.3–§6.6.4, D-19: the frozen take the bottom place; the last of the rest pays the end penalty."""
    # Player 1 holds a full 13-card deal and only ever passes: 2♥ 4 and no bomb (one
    # pair, 7-7; twelve ranks, no instant win, RULES §6.7), so pays 4 + 4 = 8 when
    # player 0 goes out. Player 3 ends last holding 2♣: end penalty 2 to player 2.
    hands = ["4s 6s", "2h 7c 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "5d 9d Td", "5s 8s 2c"]
    state = run(later(hands, POKER), "0:4s", "3:5s", "2:5d", "1:pass", "0:6s")
    assert state.frozen == (1,)
    assert not state.is_over
    assert state.to_act == 3
    refuse(state, Pass(player=1), R.PLAYER_OUT)
    state = run(state, "3:8s", "2:9d", "3:pass", "2:Td")
    assert state.is_over
    assert state.result is not None
    assert state.result.finish_order == (0, 2, 3, 1)
    assert scores(state) == (12, -8, 4, -1)
    assert [
        (i.kind, i.player, i.payer, i.points)
        for i in result_items(state)
        if i.kind is not ScoreKind.PLACE
    ] == [
        (ScoreKind.FROZEN, 0, 1, 8),
        (ScoreKind.END_PENALTY, 2, 3, 2),
    ]


@pytest.mark.parametrize(
    ("hands", "moves", "expected"),
    [
        pytest.param(["3c 5c", "4c 9c"], ["0:3c", "1:4c", "0:5c"], (4, 0), id="two-players"),
        pytest.param(
            ["3c 6c", "5c 9c", "4c 7c"], ["0:3c", "2:4c", "1:5c", "0:6c", "2:7c"], (4, 0, 2),
            id="three-players",
        ),
    ],
)  # fmt: skip
def test_poker_place_points_short_tables(
    hands: list[str], moves: list[str], expected: tuple[int, ...]
) -> None:
    """RULES §6.6.1, D-17: three players score 4/2/0 and two score 4/0."""
    state = run(later(hands, POKER), *moves)
    assert state.is_over
    assert expected == scores(state)
    assert all(i.kind is ScoreKind.PLACE for i in result_items(state))


# -- legal_actions() is exactly what is_legal accepts (STYLE R53) ------------------------------


SCENARIOS: dict[str, Callable[[], GameState]] = {
    "classic-first-lead": lambda: GameState.from_hands(["3s 3c 4s 5h", "3d 4d 5d 6d", "7h 7d 8c"], CLASSIC),
    "classic-mid-trick": _mid_trick,
    "classic-lockout": _lockout,
    "classic-pairs": lambda: run(later(["7d 7c 9h", "7h 7s 8s 8c 2s", "Ts Tc Jd"], CLASSIC), "0:7d 7c"),
    "classic-two-decks": lambda: run(later(["7h 7h 9s", "8s 8s 8c 2h", "4c", "5c 5c", "6c"], CLASSIC_TWO_DECKS), "0:7h 7h"),
    "classic-bomb-on-two": lambda: run(later(["2h 9s", "5s 5c 5d 5h 6s 6c 7s 7c", "Qd Kd"], CLASSIC), "0:2h"),
    "justus-pang-first-lead": lambda: GameState.from_hands(["3s 4s 5s 9h", "4d Td", "5d Jd"], JUSTUS_PANG),
    "kenneth-lo-pair-of-2s": lambda: run(later(["2s 2h Ts", "9s 9c 9d 9h 4h", "Qd"], KENNETH_LO), "0:2s 2h"),
    "vietcong-first-lead": lambda: GameState.from_hands(["3s 3c 4s 5s 6s", "3d 4d 5d 2h 2d"], VIETCONG),
    "poker-jump-in": lambda: _jump(FOUR_PAIRS + " Kc"),
    "poker-after-jump-in": lambda: run(_jump(FOUR_PAIRS + " Kc"), "1:" + FOUR_PAIRS),
    "poker-one-out": lambda: run(later(["5c Kc", "4c 8c Qs", "7c 9h", "6c 9d"], POKER, leader=1), "1:4c", "0:5c", "3:6c", "2:7c", "1:8c", "0:Kc"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_legal_actions_equal_is_legal(name: str) -> None:
    """STYLE R53, RULES §1.5, §6.4: `legal_actions()` lists exactly the actions `is_legal` accepts."""
    state = SCENARIOS[name]()
    listed = assert_legal_actions_exact(state)
    assert listed
    assert state.to_act in {a.player for a in listed}


def test_legal_actions_through_whole_small_games() -> None:
    """STYLE R53: at every step of small seeded games, legal actions match `is_legal` exactly."""
    for rules in PRESETS:
        hands = ["3s 4s 4c 9h 2h", "3c 5s 5c 6s Td", "3d 6c 7c 8s 2d"]
        state = GameState.from_hands(hands, rules)
        steps = 0
        while not state.is_over:
            assert steps < 100
            listed = assert_legal_actions_exact(state)
            state = state.apply(listed[steps % len(listed)])
            steps += 1
        assert hand_sum(state.dealt) == hand_sum(state.hands) + hand_sum(
            a.cards for a in state.history if isinstance(a, Play)
        )


def test_apply_does_not_change_the_state() -> None:
    """STYLE R29: `apply` returns a new state and leaves the old one as it was."""
    state = _mid_trick()
    before = state._derive({})
    history = state.history
    state.apply(Play(player=1, cards="8s"))
    state.apply(Pass(player=1))
    assert before == state
    assert history == state.history
