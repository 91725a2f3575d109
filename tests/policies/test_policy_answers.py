"""A table's own policy is asked, and what it answers is checked (issue 34 item 12).

Before, `after_play` answering ``(-1, 0)`` let "player -1" act with seat 3's cards,
``(True, 0)`` played on as seat 1, and ``None``, ``(99, 0)``, ``("1", 0)`` or a
lock-out mask wider than the table raised a raw `TypeError` or `IndexError`. Every
answer of a turn, deal or scoring policy is now checked where the engine first asks:
a wrong one (or a policy that raises) is an `InvalidRulesError` naming the policy,
the question and the answer, and the state it was asked from is left as it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any, ClassVar, Final

import attrs
import pytest

from tienlen import (
    CLASSIC,
    KENNETH_LO,
    POKER,
    GameResult,
    GameState,
    Hand,
    InvalidRulesError,
    RandomPlayer,
    simulate,
)
from tienlen.policies import AfterPass, AfterPlay, DealPolicy, Seating, TurnPolicy
from tienlen.scoring import (
    Catch,
    ChopChain,
    Finish,
    PokerScorer,
    ScoreItem,
    ScoreKind,
    StakeScorer,
)

BAD_TURNS = [
    pytest.param((-1, 0), id="negative-seat"),
    pytest.param(None, id="none"),
    pytest.param((99, 0), id="seat-out-of-range"),
    pytest.param(("1", 0), id="seat-as-text"),
    pytest.param((True, 0), id="seat-as-bool"),
    pytest.param((1.0, 0), id="seat-as-float"),
    pytest.param((1, -1), id="negative-mask"),
    pytest.param((1, 1 << 4), id="mask-too-wide"),
    pytest.param((1, True), id="mask-as-bool"),
    pytest.param((1,), id="one-value"),
    pytest.param([1, 0], id="a-list"),
]


@attrs.frozen
class _PlayAnswers(TurnPolicy):
    """Answers every play with `answer` (a class attribute set per test)."""

    answer: ClassVar[Any] = None

    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:  # noqa: ARG002
        return type(self).answer  # type: ignore[no-any-return]


@attrs.frozen
class _PassAnswers(TurnPolicy):
    """Answers every pass with `answer` (a class attribute set per test)."""

    answer: ClassVar[Any] = None

    def after_pass(self, seating: Seating, event: AfterPass) -> tuple[int | None, int]:  # noqa: ARG002
        return type(self).answer  # type: ignore[no-any-return]


def _first_play(policy: TurnPolicy) -> tuple[GameState, Any]:
    """A fresh four-seat deal under *policy*, and its first legal action."""
    rules = attrs.evolve(CLASSIC, name=f"own-{id(policy)}", custom_turn_policy=policy)
    state = GameState.from_hands(
        ["3s 4s 5s", "6d 7d 8d", "9c Tc Jc", "Qh Kh Ah"], rules
    )
    return state, state.legal_actions()[0]


@pytest.mark.parametrize("answer", BAD_TURNS)
def test_a_wrong_after_play_answer_is_refused(answer: object) -> None:
    """Each reproducer of the issue: a named error, never a wrong or crashed game."""

    class Wrong(_PlayAnswers):
        pass

    Wrong.answer = answer
    state, action = _first_play(Wrong())
    before = (state.to_act, state.locked, state.hands)
    with pytest.raises(InvalidRulesError) as caught:
        state.apply(action)
    message = str(caught.value)
    assert "turn policy Wrong.after_play answered" in message
    assert repr(answer) in message
    assert "AfterPlay(player=0" in message
    assert (state.to_act, state.locked, state.hands) == before  # nothing changed


@pytest.mark.parametrize("answer", BAD_TURNS)
def test_a_wrong_after_pass_answer_is_refused(answer: object) -> None:
    """The same checks for `TurnPolicy.after_pass`."""

    class Wrong(_PassAnswers):
        pass

    Wrong.answer = answer
    state, action = _first_play(Wrong())
    state = state.apply(action)  # a play: the library's answer
    with pytest.raises(
        InvalidRulesError, match=r"turn policy Wrong\.after_pass answered"
    ):
        state.pass_turn()
    assert state.to_act == 1


def test_the_next_seat_must_hold_cards() -> None:
    """A seat that is out of the game may not be told to act."""

    @attrs.frozen
    class ToTheWinner(TurnPolicy):
        def after_play(
            self,
            seating: Seating,  # noqa: ARG002
            event: AfterPlay,
        ) -> tuple[int | None, int]:
            return event.player, 0  # the player who just went out

    rules = attrs.evolve(CLASSIC, name="to-winner", custom_turn_policy=ToTheWinner())
    state = GameState.from_hands(["3s", "6d 7d", "9c Tc"], rules)
    with pytest.raises(InvalidRulesError, match="that holds cards, not 0"):
        state.play("3s")


def test_a_refused_answer_is_not_remembered() -> None:
    """The turn table keeps no wrong answer: asked again, the policy is asked again."""

    @attrs.frozen
    class Flaky(TurnPolicy):
        wrong: ClassVar[bool] = True

        def after_play(
            self, seating: Seating, event: AfterPlay
        ) -> tuple[int | None, int]:
            if type(self).wrong:
                return -1, 0
            return super().after_play(seating, event)

    state, action = _first_play(Flaky())
    with pytest.raises(InvalidRulesError):
        state.apply(action)
    Flaky.wrong = False
    assert state.apply(action).to_act == 1


def test_a_policy_that_raises_is_wrapped() -> None:
    """A policy's own exception becomes the cause of a named `InvalidRulesError`."""

    @attrs.frozen
    class Raises(TurnPolicy):
        def after_play(
            self,
            seating: Seating,  # noqa: ARG002
            event: AfterPlay,
        ) -> tuple[int | None, int]:
            raise KeyError(event.player)

    state, action = _first_play(Raises())
    with pytest.raises(
        InvalidRulesError, match=r"Raises\.after_play raised KeyError\(0\)"
    ) as caught:
        state.apply(action)
    assert isinstance(caught.value.__cause__, KeyError)
    copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert (type(copy), str(copy)) == (InvalidRulesError, str(caught.value))


def test_the_error_pickles() -> None:
    """A refused answer's error crosses a process pool intact."""

    class Wrong(_PlayAnswers):
        pass

    Wrong.answer = (-1, 0)
    state, action = _first_play(Wrong())
    with pytest.raises(InvalidRulesError) as caught:
        state.apply(action)
    copy = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own bytes
    assert (type(copy), str(copy)) == (InvalidRulesError, str(caught.value))


TRICK: Final = (["3s", "4d 8d", "5c 9c"], ["3s", None, None])
"""Seat 0 goes out with 3s and both others pass: the trick ends, who leads is asked."""
GAME: Final = (["3s", "4d 5d"], ["3s"])
"""Seat 0 goes out with 3s: the two-seat game is over, the places are asked."""


@pytest.mark.parametrize(
    ("hook", "answer", "game", "match"),
    [
        ("trick_leader", -1, TRICK, "trick_leader answered -1"),
        ("trick_leader", 0, TRICK, "trick_leader answered 0"),  # seat 0 went out
        ("trick_leader", None, TRICK, "trick_leader answered None"),
        ("beaten", 9, GAME, "beaten answered 9"),
        ("is_over", 1, GAME, "is_over answered 1"),
        ("places", (0, 0), GAME, r"places answered \(0, 0\)"),
        ("places", [0, 1], GAME, r"places answered \[0, 1\]"),
        ("may_go_out_with", "no", GAME, "may_go_out_with answered 'no'"),
    ],
)
def test_every_turn_hook_is_checked(
    hook: str, answer: object, game: tuple[list[str], list[str | None]], match: str
) -> None:
    """Who leads, who was beaten, whether the game is over, the places: checked too."""

    def wrong(*_: object, **__: object) -> object:
        return answer

    cls = attrs.frozen(type("Wrong", (TurnPolicy,), {hook: wrong}))
    policy = cls(no_going_out_with_two=hook == "may_go_out_with")
    rules = attrs.evolve(CLASSIC, name="wrong", custom_turn_policy=policy)
    hands, actions = game
    with pytest.raises(InvalidRulesError, match=match):
        _play_out(hands, rules, actions)


def test_a_correct_custom_policy_plays_as_the_library() -> None:
    """A subclass answering as the library does plays the same games."""

    @attrs.frozen
    class Same(TurnPolicy):
        def after_play(
            self, seating: Seating, event: AfterPlay
        ) -> tuple[int | None, int]:
            return super().after_play(seating, event)

    rules = attrs.evolve(POKER, name="same", custom_turn_policy=Same(jump_ins=True))
    players = [RandomPlayer()] * 4
    own = simulate(30, rules=rules, players=players, seed=7)
    library = simulate(30, rules=POKER, players=players, seed=7)
    assert (own.score_sums, own.total_actions) == (
        library.score_sums,
        library.total_actions,
    )


# -- the deal policy and the scorer ------------------------------------------------------


@attrs.frozen
class _SpareToNobody(DealPolicy):
    def spare_holder(self, sizes: Sequence[int], size: int) -> int | None:  # noqa: ARG002
        return len(sizes)  # one past the last hand


@attrs.frozen
class _WinsWithText(DealPolicy):
    def instant_win(self, rules: Any, hand: Hand, *, first_game: bool) -> Any:  # noqa: ARG002
        return "four-twos"


@attrs.frozen
class _SpareMaybe(DealPolicy):
    def gives_spare_card(self, players: int, spare: int) -> bool:  # noqa: ARG002
        return 1  # type: ignore[return-value]


def test_the_deal_policy_is_checked() -> None:
    """A spare card's holder out of range, a win that is text, a non-bool: refused."""
    spare = attrs.evolve(KENNETH_LO, name="spare", custom_deal_policy=_SpareToNobody())
    with pytest.raises(
        InvalidRulesError, match=r"deal policy _SpareToNobody\.spare_holder answered 3"
    ):
        GameState.from_hands(_kenneth_lo_hands(), spare)
    text = attrs.evolve(CLASSIC, name="text", custom_deal_policy=_WinsWithText())
    with pytest.raises(InvalidRulesError, match="instant_win answered 'four-twos'"):
        GameState.deal(text, 4, seed=1)
    maybe = attrs.evolve(KENNETH_LO, name="maybe", custom_deal_policy=_SpareMaybe())
    with pytest.raises(InvalidRulesError, match="gives_spare_card answered 1"):
        GameState.deal(maybe, 3, seed=1)


def _kenneth_lo_hands() -> list[str]:
    """Three hands of 17, 18 and 17 cards: the second holds the spare card (D-8)."""
    deck = [str(card) for card in Hand.parse(" ".join(_every_card()))]
    return [" ".join(deck[:17]), " ".join(deck[17:35]), " ".join(deck[35:])]


def _every_card() -> list[str]:
    return [f"{rank}{suit}" for rank in "3456789TJQKA2" for suit in "scdh"]


@attrs.frozen
class _PaysAGhost(StakeScorer):
    def settle(self, rules: Any, finish: Finish) -> GameResult:  # noqa: ARG002
        item = ScoreItem(kind=ScoreKind.STAKE, player=7, payer=0, points=1)
        return GameResult(finish_order=finish.order, scores=(-1, 0), items=(item,))


@attrs.frozen
class _ShortResult(StakeScorer):
    def settle(self, rules: Any, finish: Finish) -> GameResult:  # noqa: ARG002
        return GameResult(finish_order=finish.order, scores=(0,))


@attrs.frozen
class _ChainToNobody(PokerScorer):
    def on_catch(
        self,
        rules: Any,  # noqa: ARG002
        catch: Catch,
        chain: ChopChain | None,  # noqa: ARG002
    ) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
        opened = ChopChain(
            points=1, victim=-1, catcher=catch.catcher, caught=(catch.caught,)
        )
        return opened, ()


@attrs.frozen
class _FreezesTheWinner(PokerScorer):
    def on_first_out(
        self,
        rules: Any,  # noqa: ARG002
        order: Sequence[int],
        hands: Sequence[Hand],  # noqa: ARG002
        dealt: Sequence[Hand],  # noqa: ARG002
    ) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
        return (order[0],), ()


@pytest.mark.parametrize(
    ("scorer", "hands", "plays", "match"),
    [
        (
            _PaysAGhost(),
            ["3s", "4d 5d"],
            ["3s"],
            "settle answered .*player must be a seat 0-1",
        ),
        (_ShortResult(), ["3s", "4d 5d"], ["3s"], "the scores must be 2 ints"),
        (
            _ChainToNobody(),
            ["2h 4c", "9s 9c 9d 9h 5d"],
            ["2h", "9s 9c 9d 9h"],
            "on_catch answered",
        ),
        (
            _FreezesTheWinner(),
            ["3s", "4d 5d", "6c 7c"],
            ["3s"],
            "on_first_out answered",
        ),
    ],
)
def test_the_scorer_is_checked(
    scorer: StakeScorer, hands: list[str], plays: list[str], match: str
) -> None:
    """Paying a seat that does not exist, short scores, a chain or a freeze of no seat.

    Each is refused, naming the scorer.
    """
    base = POKER if isinstance(scorer, PokerScorer) else CLASSIC
    rules = attrs.evolve(base, name="own-scorer", custom_scorer=scorer)
    with pytest.raises(InvalidRulesError, match=match):
        _play_out(hands, rules, plays, leader=0)


def _play_out(
    hands: list[str],
    rules: Any,
    actions: Sequence[str | None],
    leader: int | None = None,
) -> GameState:
    """The game of *hands* under *rules* after *actions* (``None``: a pass)."""
    state = GameState.from_hands(hands, rules, leader=leader, first_game=leader is None)
    for action in actions:
        state = state.pass_turn() if action is None else state.play(action)
    return state
