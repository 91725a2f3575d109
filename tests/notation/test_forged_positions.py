"""Positions that carry what no game produces are refused (issue 20, findings 1 and 2).

A position read from notation (`GameState.from_notation`, and through it a record's
``position``) may hold only what the rule set could have produced: score items paid
during play, an open chop chain, frozen and rotted players, the players who passed,
the player to act and the first-lead flags are checked against the rules and the
cards, and anything else is refused with a `NotationError` naming the field (a
`RecordError` at ``position`` in a record). Each case below was accepted before the
fix; the forged results it carried (scores of a billion in a zero-sum variant, a chop
for cards nobody played, a frozen seat under classic) are the attack of finding 1,
the declined first lead with the other seat locked out the crash of finding 2.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    POKER,
    GameState,
    InstantWin,
    TienLenError,
)
from tienlen.notation import NotationError, read
from tienlen.policies import LeaderAfterGoingOut
from tienlen.records import RecordError, dumps, loads, record

FORGED_SCORE = (
    "tienlen 1; rules classic; hands 3s 4s 5s / 6h 7h 8h / 9d Td Jd; to 0; "
    "items stake 0 scores 999999999"
)

POKER_MID = (
    "tienlen 1; rules poker; hands 9c / 7s 7c 7d 7h / 9s; "
    "played 3s 2h / 8d / 5s 6s 6c 6d 6h; to 1; top 6s 6c 6d 6h by 2"
)
"""A real Poker position: seat 0's 2♥ caught by seat 2's four 6s (its chain is below)."""
POKER_CHAIN = POKER_MID + "; chop 0 pays 2 4 for 2h"

FROZEN_END = (
    "tienlen 1; rules poker; hands - / 5d 5h 6d 6h 7c 8s Tc Jd Jh Qh Kd As 2h / "
    "3h 4d 5s 5c 7d 8c 8h 9h Ks Kh Ad Ah 2d; "
    "played 3s 3c 4s 4c 4h 6s Ts Jc Qs Qd Kc Ac 2c / - / -; to -; top 2c by 0; "
    "out 0; frozen 2 1; items frozen 2 pays 0 7, frozen 1 pays 0 8; over 0 2 1; "
    "setup dealer 2"
)
"""A real three-player Poker game: seat 0 went out first, freezing seats 1 and 2."""

DECLINE = attrs.evolve(CLASSIC, name="decline", may_decline_first_lead=True)
NO_TWO_OUT = attrs.evolve(CLASSIC, name="no-two-out", no_going_out_with_two=True)
BEATEN = attrs.evolve(
    CLASSIC, name="beaten", leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER
)
CLASSIC_POKER_POINTS = attrs.evolve(CLASSIC, name="points", scoring=POKER.scoring)


def rules_text(rules: object) -> str:
    """The ``rules`` field of a house table, as `write` writes it."""
    state = GameState.from_hands(["3s 4s", "5s 6s"], rules)  # type: ignore[arg-type]
    return state.notation().split("; ")[1]


def test_the_real_positions_here_are_read() -> None:
    """The positions the forgeries below start from are real, and are read as they are."""
    for text in (POKER_MID, POKER_CHAIN, FROZEN_END):
        assert read(text).notation() == text


def line(*fields: str) -> str:
    """A notation line of *fields* (the header first)."""
    return "; ".join(("tienlen 1", *fields))


CLASSIC_3 = ("rules classic", "hands 4s 5s / 6h 7h / 8h 9h", "played 3s / - / -")

FORGED: list[tuple[str, str]] = [
    # Finding 1: score items, chains and frozen seats the rules never produce.
    (FORGED_SCORE, "items"),
    (FORGED_SCORE.replace("999999999", "1"), "items"),
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 0", "items stake 1 pays 0 3"),
     "items"),
    (line("rules classic", "hands 4s / 5h", "played 3s 2h / -", "to 1",
          "top 2h by 0", "chop 0 pays 1 4 for 2h"), "chop"),
    (line("rules classic", "hands - / 6h 7h / 8h 9h / Th Jh", "played 3s / - / - / -",
          "to 1", "top 3s by 0", "out 0", "frozen 2"), "frozen"),
    (line("rules classic", "hands - / 6h 7h / 8h 9h / Th Jh", "played 3s / - / - / -",
          "to 1", "top 3s by 0", "out 0", "bottom 2"), "bottom"),
    # A chop for cards nobody played, or worth more than its cards.
    (POKER_MID + "; chop 1 pays 2 4 for 2h", "chop"),
    (POKER_MID + "; chop 0 pays 2 4 for 2c", "chop"),
    (POKER_MID + "; chop 0 pays 2 99 for 2h", "chop"),
    (POKER_MID + "; chop 0 pays 1 4 for 2h", "chop"),
    (POKER_MID + "; chop 0 pays 2 4 for 3s", "chop"),
    (POKER_MID + "; items chop 1 pays 2 999999999 for 2h", "items"),
    (POKER_CHAIN + "; items chop 0 pays 2 4 for 2h", "items"),
    (POKER_MID + "; items place 2 scores 4", "items"),
    (POKER_MID + "; items end-penalty 0 pays 2 4", "items"),
    (POKER_MID + "; items frozen 0 pays 2 4", "items"),
    # Frozen seats and their payments are the scorer's, not the text's.
    (FROZEN_END.replace("frozen 2 1;", "frozen 2;")
     .replace(", frozen 1 pays 0 8", "")
     .replace("over 0 2 1", "over 0 1 2"), "frozen"),
    (FROZEN_END.replace("pays 0 7", "pays 0 70"), "items"),
    (FROZEN_END.replace("; items frozen 2 pays 0 7, frozen 1 pays 0 8", ""), "items"),
    (FROZEN_END.replace("frozen 2 pays 0 7, ", ""), "items"),
    # Found by fuzz/fuzz_positions.py: every seat frozen, first place too (RULES
    # §6.6.3); the scorer crashed settling it.
    (line("rules poker", "hands 3d 4s / 3c", "played 3s 4h 5s Tc / 5d 7h 8h 9s",
          "to -", "frozen 1 0", "over 1 0"), "frozen"),
    # Finding 2: a declined first lead with the other seat already locked out.
    (line("rules justus-pang", "hands 3s 4s / 5h 6h", "to 0", "first 3s declinable",
          "passed 1"), "passed"),
    # First-lead flags the rules do not give.
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 0", "first 3s declinable"),
     "first"),
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 0", "first 4s"), "first"),
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 1", "first 5h"), "first"),
    (line("rules classic", "hands 4s / 5h 6h", "played 3s / -", "to 0", "first 4s"),
     "first"),
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 1"), "to"),
    (line("rules classic", "hands 3s 4s / 5h 6h", "to 0"), "first"),
    (line("rules kenneth-lo", "hands 3s 4s / 5h 6h", "to 0", "first 3s",
          "setup later"), "first"),
    # Passes and turns no trick produces.
    (line("rules classic", "hands 4s 5s / 6h 7h", "played 3s / -", "to 0", "passed 0"),
     "passed"),
    (line(*CLASSIC_3, "to 1", "top 3s by 0", "passed 1"), "passed"),
    (line(*CLASSIC_3, "to 2", "top 3s by 0"), "passed"),
    (line(*CLASSIC_3, "to 0", "top 3s by 0", "passed 1 2"), "to"),
    (line(*CLASSIC_3, "to 1", "top 3s by 0", "passed 0"), "passed"),
    # A chop paid for a 2 whose only catch is still on the pile, its chain open.
    (POKER_MID + "; items chop 0 pays 2 4 for 2h", "items"),
    # The finishing order of a game over is its end's, not the text's (RULES §4.4).
    (line("rules kenneth-lo", "hands - / 4s 5s / 6h", "played 3s / - / -", "to -",
          "top 3s by 0", "out 0", "over 0 1 2"), "over"),
    (line("rules classic", "hands - / 4s", "played 3s / -", "to -", "out 0",
          "over 0 1"), "over"),
    # Whom the top beat decides who leads after a player goes out (RULES §12.10).
    (line(rules_text(BEATEN), "hands 4s 5s / 6h 7h / 8h 9h", "played 3s / - / -",
          "to 1", "top 3s by 0 beat 2"), "top"),
    (line(rules_text(BEATEN), "hands 4s 5s / 6h 7h / 8h 9h", "played 3s / - / -",
          "to 1", "top 3s by 0 beat 0"), "top"),
    # A leader with no legal play: the engine rots them at once (RULES §12.12).
    (line(rules_text(NO_TWO_OUT), "hands 2h / 5h 6h", "played 3s / 4h", "to 0"), "to"),
    # A dealt hand that wins at the deal ends the game there (RULES §5.4, §6.7).
    (line("rules poker", "hands 3s 2s 2c 2d 2h / 4s 5s 6s 7s 9h", "to 0", "first 3s"),
     "hands"),
    (line("rules poker", "hands 2s 2c 2d 2h / 4s 5s 6s", "played 3s / 9h", "to 0",
          "top 9h by 1"), "hands"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "field"), FORGED)
def test_a_forged_position_is_refused_naming_the_field(text: str, field: str) -> None:
    """Each forgery: a `NotationError` at the field that carries what no game produces."""
    with pytest.raises(NotationError) as caught:
        read(text)
    assert caught.value.field == field, str(caught.value)
    assert caught.value.position is not None


def test_the_zero_sum_forgery_of_the_issue_no_longer_loads() -> None:
    """Issue 20 §1: the line played out and saved loaded as scores (10⁹, 1, −2)."""
    with pytest.raises(NotationError) as caught:
        GameState.from_notation(FORGED_SCORE)
    assert caught.value.field == "items"
    honest = GameState.from_notation(FORGED_SCORE.replace(
        "items stake 0 scores 999999999", "first 3s"))  # fmt: skip
    final = honest.play("3s 4s 5s")
    while final.result is None:
        final = final.apply(next(iter(final.legal_actions())))
    assert sum(final.result.scores) == 0
    data = json.loads(dumps(record(final)))
    data["position"] = FORGED_SCORE
    with pytest.raises(RecordError) as refused:
        loads(json.dumps(data))
    assert refused.value.where == "position"
    assert "items" in str(refused.value)


def test_a_forged_chop_in_a_record_is_refused() -> None:
    """A record whose position carries a chop for cards nobody played: `RecordError`."""
    data = json.loads(dumps(record(GameState.from_notation(POKER_CHAIN))))
    data["position"] = POKER_MID + "; chop 1 pays 2 4 for 2h"
    with pytest.raises(RecordError) as refused:
        loads(json.dumps(data))
    assert refused.value.where == "position"
    assert "chop" in str(refused.value)


def test_the_declined_lead_of_finding_2_is_refused_and_the_real_one_plays() -> None:
    """The real decline (3♠ passed, seat 1 to lead) reads and plays; the forged one is refused."""
    start = GameState.from_hands(["3s 4s", "5h 6h"], JUSTUS_PANG)
    assert start.may_decline
    declined = start.pass_turn()
    back = read(declined.notation())
    assert back == declined
    for action in back.legal_actions():
        after = back.apply(action)
        assert after.is_over or after.to_act is not None


def test_a_real_frozen_game_and_its_chains_still_read() -> None:
    """Real frozen players, chop chains and items read back equal (nothing over-refused)."""
    assert read(FROZEN_END).result == read(FROZEN_END).result
    result = read(FROZEN_END).result
    assert result is not None
    assert result.frozen == (2, 1)
    state = GameState.from_hands(
        ["3s 2h 9c", "5s 6s 6c 6d 6h 9s", "7s 7c 7d 7h 8d"], CLASSIC_POKER_POINTS
    )  # clockwise: the chain of `POKER_CHAIN`, at a classic table paid in points
    for cards in ("3s", "5s", "8d", "2h", "6s 6c 6d 6h", "7s 7c 7d 7h"):
        state = state.play(cards)
        assert read(state.notation()) == state


def test_an_instant_win_is_won_by_the_first_holder_in_play_order() -> None:
    """``won`` by a seat whose deal wins, but after another's in play order: refused."""
    hands = ["3s 2s 2c 2d 2h", "4s 4c 4d 4h 9h"]
    rules = attrs.evolve(POKER, name="two-wins", instant_wins={InstantWin.FOUR_TWOS,
                                                               InstantWin.FOUR_THREES})  # fmt: skip
    state = GameState.from_hands(hands, rules)
    assert state.result is not None
    assert read(state.notation()) == state
    forged = state.notation().replace(
        f"won {state.result.winner}", f"won {1 - state.result.winner}"
    )
    with pytest.raises(NotationError) as caught:
        read(forged)
    assert caught.value.field == "won"


def test_read_positions_never_crash_on_a_listed_action() -> None:
    """Finding 2's property on hand-picked positions: every listed action applies."""
    texts = [text for text, _ in FORGED] + [POKER_MID, POKER_CHAIN, FROZEN_END]
    rng = random.Random(20)
    for text in texts:
        try:
            state = read(text)
        except TienLenError:
            continue
        for _ in range(200):
            if state.is_over:
                break
            actions = list(state.legal_actions())
            assert actions, state.notation()
            for action in actions:
                after = state.apply(action)
                assert after.is_over or after.to_act is not None
            state = state.apply(rng.choice(actions))
        assert isinstance(state, GameState)


def test_a_declined_first_lead_rots_a_stuck_leader() -> None:
    """After 3♠ is declined, a next leader who may not go out with their 2 rots (§12.12).

    The engine left that leader to act with no legal action: the game was stuck.
    """
    rules = attrs.evolve(NO_TWO_OUT, may_decline_first_lead=True)
    state = GameState.from_hands(["3s 4s", "2h"], rules).pass_turn()
    assert state.is_over or list(state.legal_actions())
    assert state.rotted == (1,)
    assert state.result is not None
    assert state.result.finish_order == (0, 1)
