"""A rule set's policies asked, their answers checked (issue 34).

A table's own policy (``custom_turn_policy``, ``custom_deal_policy``,
``custom_scorer``) is code the engine calls at named points. What it answers is
checked where the engine asks, before the answer is used or remembered: a next seat
that is no seat, a lock-out mask wider than the table, a result that pays a seat
that does not exist. A wrong answer, or a policy that raises, is an
`tienlen.InvalidRulesError` naming the policy, the question and the answer (the
policy's own exception as its cause), and the game it was asked in is left as it was.

The turn policy's answers are remembered per question (`tienlen.engine.turns`), so
each is checked once, when first computed; the hooks asked on every call (the
scorer's, ``is_over``) are checked each time only for a policy that is not the
library's own.

Each hook is called through a reference typed `typing.Any` (``untyped``): compiled
by mypyc, a call of a method with a declared return type checks the answer's type
itself and raises a bare `TypeError`; untyped, the answer reaches the checks here,
and both builds give the same error.

Example:
    >>> import attrs
    >>> from tienlen import CLASSIC, GameState
    >>> from tienlen.policies import TurnPolicy
    >>> @attrs.frozen
    ... class Backwards(TurnPolicy):
    ...     def after_play(self, seating, event):
    ...         return -1, 0
    >>> rules = attrs.evolve(CLASSIC, name="backwards", custom_turn_policy=Backwards())
    >>> GameState.from_hands(["3s 4s", "5d 6d"], rules).play("3s")
    Traceback (most recent call last):
    ...
    tienlen.errors.InvalidRulesError: turn policy Backwards.after_play answered (-1, 0) (asked AfterPlay(player=0, locked=0, out=0, previous=None)): the next seat must be None or a seat 0-1 that holds cards, not -1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from tienlen._checks import short_repr
from tienlen.errors import InvalidRulesError
from tienlen.policies import AfterPass, AfterPlay, DealPolicy, TurnPolicy
from tienlen.scoring import (
    ChopChain,
    GameResult,
    PokerScorer,
    ScoreItem,
    Scorer,
    StakeScorer,
)

if TYPE_CHECKING:
    from tienlen.cards import Hand
    from tienlen.combos import Combo
    from tienlen.rules import RuleSet
    from tienlen.rules.base import InstantWinHand
    from tienlen.scoring import Catch, Finish

__all__ = [
    "checked_flag",
    "checked_leader",
    "checked_turn",
    "gives_spare_card",
    "instant_win",
    "instant_win_result",
    "is_library_policy",
    "is_over",
    "may_go_out_with",
    "on_catch",
    "on_first_out",
    "on_trick_end",
    "optional_seat",
    "places",
    "policy_error",
    "policy_raised",
    "question",
    "result",
    "settle",
    "spare_holder",
]

_LIBRARY_POLICIES: Final = frozenset(
    {TurnPolicy, DealPolicy, Scorer, StakeScorer, PokerScorer}
)
"""The policy classes of the library itself: their answers are tested, not checked."""
_ROLES: Final = (
    (TurnPolicy, "turn policy"),
    (DealPolicy, "deal policy"),
    (Scorer, "scorer"),
)


def is_library_policy(policy: object) -> bool:
    """Whether *policy* is one of the library's own classes (not a table's subclass).

    Example:
        >>> from tienlen import POKER
        >>> is_library_policy(POKER.scorer), is_library_policy(object())
        (True, False)
    """
    return type(policy) in _LIBRARY_POLICIES


def _clip(text: str, limit: int = 160) -> str:
    """*text*, cut to *limit* characters."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def question(event: AfterPlay | AfterPass) -> str:
    """An event as the question it asks, short: the facts not given are left out.

    Example:
        >>> question(AfterPlay(player=1, locked=0b0100, out=0, previous=0, bomb=True))
        'AfterPlay(player=1, locked=4, out=0, previous=0, bomb=True)'
    """
    if isinstance(event, AfterPass):
        return f"AfterPass(player={event.player}, last={event.last}, locked={event.locked}, out={event.out})"
    facts = "".join(
        f", {name}={value!r}"
        for name, value in (
            ("bomb", event.bomb),
            ("chop", event.chop),
            ("kind", event.kind),
            ("size", event.size),
            ("rank", event.rank),
        )
        if value is not None
    )
    return f"AfterPlay(player={event.player}, locked={event.locked}, out={event.out}, previous={event.previous}{facts})"


def _named(policy: object, hook: str) -> str:
    """``turn policy Odd.after_play``: the policy's role, its class and the hook."""
    role = "policy"
    for cls, name in _ROLES:
        if isinstance(policy, cls):
            role = name
            break
    return f"{role} {type(policy).__name__}.{hook}"


def policy_error(
    policy: object, hook: str, asked: str, answer: object, problem: str
) -> InvalidRulesError:
    """The error for *policy*'s *hook* answering *answer* to the question *asked*.

    Example:
        >>> print(policy_error(TurnPolicy(), "is_over", "4, 0, 0", 1, "expected a bool"))
        turn policy TurnPolicy.is_over answered 1 (asked 4, 0, 0): expected a bool
    """
    named = _named(policy, hook)
    return InvalidRulesError(
        f"{named} answered {short_repr(answer, 80)} (asked {_clip(asked)}): {problem}"
    )


def policy_raised(
    policy: object, hook: str, asked: str, error: BaseException
) -> InvalidRulesError:
    """The error for *policy*'s *hook* raising *error*: its cause is *error*.

    The cause is set here: compiled by mypyc, ``raise ... from error`` raises without
    setting it.

    Example:
        >>> problem = policy_raised(TurnPolicy(), "is_over", "4, 0, 0", KeyError(3))
        >>> print(problem), type(problem.__cause__).__name__
        turn policy TurnPolicy.is_over raised KeyError(3) (asked 4, 0, 0)
        (None, 'KeyError')
    """
    named = _named(policy, hook)
    problem = InvalidRulesError(
        f"{named} raised {short_repr(error, 160)} (asked {_clip(asked)})"
    )
    problem.__cause__ = error
    return problem


def _is_seat(value: object, players: int) -> bool:
    """Whether *value* is a seat of a table of *players*: an `int` (no `bool`) in range."""
    return type(value) is int and 0 <= value < players


def checked_turn(
    policy: TurnPolicy,
    hook: str,
    asked: str,
    answer: object,
    players: int,
    out: int,
) -> tuple[int | None, int]:
    """*answer* of ``after_play`` or ``after_pass``, checked: who acts and the lock-outs.

    Who acts is ``None`` or a seat still holding cards (not in the mask *out*); the
    lock-outs a mask of the table's seats.

    Raises:
        InvalidRulesError: the answer is no such pair.

    Example:
        >>> checked_turn(TurnPolicy(), "after_play", "...", (2, 0b0010), 4, 0)
        (2, 2)
        >>> checked_turn(TurnPolicy(), "after_play", "...", (True, 0), 4, 0)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidRulesError: turn policy TurnPolicy.after_play answered (True, 0) (asked ...): the next seat must be None or a seat 0-3 that holds cards, not True
    """
    if type(answer) is not tuple or len(answer) != 2:
        problem = "expected a pair (next seat or None, lock-out mask)"
        raise policy_error(policy, hook, asked, answer, problem)
    nxt: object = answer[0]
    locked: object = answer[1]
    if nxt is not None and (
        type(nxt) is not int or not 0 <= nxt < players or out >> nxt & 1
    ):
        problem = f"the next seat must be None or a seat 0-{players - 1} that holds cards, not {short_repr(nxt)}"
        raise policy_error(policy, hook, asked, answer, problem)
    if type(locked) is not int or not 0 <= locked < 1 << players:
        problem = f"the lock-outs must be a mask of seats 0-{players - 1} (an int 0-{(1 << players) - 1}), not {short_repr(locked)}"
        raise policy_error(policy, hook, asked, answer, problem)
    return nxt, locked


def checked_leader(
    policy: TurnPolicy, asked: str, answer: object, players: int, out: int
) -> int:
    """*answer* of ``trick_leader``, checked: a seat still holding cards.

    Example:
        >>> checked_leader(TurnPolicy(), "...", 3, 4, 0b0001)
        3
    """
    if type(answer) is not int or not 0 <= answer < players or out >> answer & 1:
        problem = f"the leader must be a seat 0-{players - 1} that holds cards"
        raise policy_error(policy, "trick_leader", asked, answer, problem)
    return answer


def optional_seat(
    policy: object, hook: str, asked: str, answer: object, players: int
) -> int | None:
    """*answer*, checked to be ``None`` or a seat of a table of *players*.

    Example:
        >>> optional_seat(TurnPolicy(), "beaten", "2", 2, 4), optional_seat(TurnPolicy(), "beaten", "2", None, 4)
        (2, None)
    """
    if answer is None or (type(answer) is int and 0 <= answer < players):
        return answer
    problem = f"expected None or a seat 0-{players - 1}"
    raise policy_error(policy, hook, asked, answer, problem)


def checked_flag(policy: object, hook: str, asked: str, answer: object) -> bool:
    """*answer*, checked to be a `bool`.

    Example:
        >>> checked_flag(TurnPolicy(), "jump_ins", "", False)
        False
    """
    if type(answer) is not bool:
        raise policy_error(policy, hook, asked, answer, "expected True or False")
    return answer


# -- hooks asked on every call: checked unless the policy is the library's own --------


def is_over(turns: TurnPolicy, players: int, out: int, finished: int) -> bool:
    """``turns.is_over(players, out, finished)``, its answer checked (RULES §2.5, §4.4).

    Example:
        >>> is_over(TurnPolicy(), 4, 0b0111, 3)
        True
    """
    try:
        untyped: Any = turns  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.is_over(players, out, finished)
    except Exception as error:
        raise policy_raised(
            turns, "is_over", f"{players}, {out}, {finished}", error
        ) from error
    if type(answer) is bool:
        return answer
    return checked_flag(turns, "is_over", f"{players}, {out}, {finished}", answer)


def places(
    turns: TurnPolicy,
    finish_order: Sequence[int],
    remaining: Sequence[int],
    hands: Sequence[Hand],
    bottom: Sequence[int],
) -> tuple[int, ...]:
    """``turns.places(...)``, checked: every seat once (RULES §1.5.5, §4.4).

    Example:
        >>> from tienlen import Hand
        >>> places(TurnPolicy(), [1], [2, 0], [Hand(0)] * 3, [])
        (1, 2, 0)
    """
    asked = f"{list(finish_order)}, {list(remaining)}, ..., {list(bottom)}"
    try:
        untyped: Any = turns  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.places(finish_order, remaining, hands, bottom)
    except Exception as error:
        raise policy_raised(turns, "places", asked, error) from error
    players = len(hands)
    if (
        type(answer) is not tuple
        or len(answer) != players
        or sorted(seat if type(seat) is int else -1 for seat in answer)
        != list(range(players))
    ):
        problem = f"expected a tuple of every seat 0-{players - 1} once"
        raise policy_error(turns, "places", asked, answer, problem)
    return answer


def may_go_out_with(turns: TurnPolicy, rules: RuleSet, combo: Combo) -> bool:
    """``turns.may_go_out_with(rules, combo)``, checked (RULES §12.12).

    Example:
        >>> from tienlen import CLASSIC, classify
        >>> may_go_out_with(TurnPolicy(no_going_out_with_two=True), CLASSIC, classify("2h"))
        False
    """
    try:
        untyped: Any = turns  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.may_go_out_with(rules, combo)
    except Exception as error:
        raise policy_raised(turns, "may_go_out_with", f"..., {combo}", error) from error
    if type(answer) is bool:
        return answer
    return checked_flag(turns, "may_go_out_with", f"..., {combo}", answer)


def gives_spare_card(deal: DealPolicy, players: int, spare: int) -> bool:
    """``deal.gives_spare_card(players, spare)``, checked (RULES §4.1, D-8).

    Example:
        >>> gives_spare_card(DealPolicy(spare_card_to_starter=True), 3, 1)
        True
    """
    asked = f"{players}, {spare}"
    try:
        untyped: Any = deal  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.gives_spare_card(players, spare)
    except Exception as error:
        raise policy_raised(deal, "gives_spare_card", asked, error) from error
    return checked_flag(deal, "gives_spare_card", asked, answer)


def spare_holder(deal: DealPolicy, sizes: Sequence[int], size: int) -> int | None:
    """``deal.spare_holder(sizes, size)``, checked: ``None`` or one of the hands.

    Example:
        >>> spare_holder(DealPolicy(spare_card_to_starter=True), [17, 18, 17], 17)
        1
    """
    asked = f"{list(sizes)}, {size}"
    try:
        untyped: Any = deal  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.spare_holder(sizes, size)
    except Exception as error:
        raise policy_raised(deal, "spare_holder", asked, error) from error
    return optional_seat(deal, "spare_holder", asked, answer, len(sizes))


def instant_win(
    deal: DealPolicy,
    rules: RuleSet,
    hand: Hand,
    *,
    first_game: bool,
    wins: tuple[type, ...],
) -> InstantWinHand | None:
    """``deal.instant_win(rules, hand, first_game=...)``, checked (RULES §5.4, §12.5).

    The answer is ``None`` or of one of the classes *wins* (`tienlen.InstantWin`,
    `tienlen.CustomInstantWin`: given, as `tienlen.rules.base` imports this module).

    Example:
        >>> from tienlen import CLASSIC, CustomInstantWin, Hand, InstantWin
        >>> wins = (InstantWin, CustomInstantWin)
        >>> print(instant_win(DealPolicy(), CLASSIC, Hand.parse("3s"), first_game=True, wins=wins))
        None
    """
    asked = f"..., {hand}, first_game={first_game}"
    try:
        untyped: Any = deal  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.instant_win(rules, hand, first_game=first_game)
    except Exception as error:
        raise policy_raised(deal, "instant_win", asked, error) from error
    if answer is not None and not isinstance(answer, wins):
        problem = "expected None, an InstantWin or a CustomInstantWin"
        raise policy_error(deal, "instant_win", asked, answer, problem)
    return answer  # type: ignore[return-value]  # None or of *wins*: checked


def _item_problem(item: object, players: int) -> str | None:
    """What is wrong with a score item a scorer gave, or ``None``."""
    if type(item) is not ScoreItem:
        return f"{short_repr(item, 60)} is no ScoreItem"
    if not _is_seat(item.player, players):
        return f"a score item's player must be a seat 0-{players - 1}"
    if item.payer is not None and not _is_seat(item.payer, players):
        return f"a score item's payer must be None or a seat 0-{players - 1}"
    if type(item.points) is not int:
        return "a score item's points must be an int"
    return None


def _items(
    scorer: Scorer, hook: str, asked: str, answer: object, items: object, players: int
) -> tuple[ScoreItem, ...]:
    """*items* of the scorer's *answer*, checked: a tuple of score items of this table."""
    if type(items) is not tuple:
        problem = "the score items must be a tuple of ScoreItem"
        raise policy_error(scorer, hook, asked, answer, problem)
    for item in items:
        wrong = _item_problem(item, players)
        if wrong is not None:
            raise policy_error(scorer, hook, asked, answer, wrong)
    return items


def on_catch(
    scorer: Scorer, rules: RuleSet, catch: Catch, chain: ChopChain | None, players: int
) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
    """``scorer.on_catch(rules, catch, chain)``, checked (RULES §6.6.2).

    Example:
        >>> from tienlen import POKER, classify
        >>> from tienlen.scoring import Catch
        >>> catch = Catch(catcher=0, victim=1, caught=classify("2h"), victim_went_out=False, catcher_goes_out=False)
        >>> on_catch(POKER.scorer, POKER, catch, None, 4)[0].points
        4
    """
    if is_library_policy(scorer):
        return scorer.on_catch(rules, catch, chain)
    asked = f"..., {catch!r}, ..."
    try:
        untyped: Any = scorer  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.on_catch(rules, catch, chain)
    except Exception as error:
        raise policy_raised(scorer, "on_catch", asked, error) from error
    if type(answer) is not tuple or len(answer) != 2:
        problem = "expected a pair (chop chain or None, score items)"
        raise policy_error(scorer, "on_catch", asked, answer, problem)
    opened: object = answer[0]
    if opened is not None and (
        type(opened) is not ChopChain
        or not _is_seat(opened.victim, players)
        or not _is_seat(opened.catcher, players)
        or type(opened.points) is not int
    ):
        problem = f"the chain must be None or a ChopChain between seats 0-{players - 1}"
        raise policy_error(scorer, "on_catch", asked, answer, problem)
    paid = _items(scorer, "on_catch", asked, answer, answer[1], players)
    return opened, paid


def on_trick_end(
    scorer: Scorer, chain: ChopChain, players: int
) -> tuple[ScoreItem, ...]:
    """``scorer.on_trick_end(chain)``, checked (RULES §6.6.2, D-18).

    Example:
        >>> from tienlen import POKER, classify
        >>> chain = ChopChain(points=4, victim=1, catcher=0, caught=(classify("2h", POKER),))
        >>> len(on_trick_end(POKER.scorer, chain, 4))
        1
    """
    if is_library_policy(scorer):
        return scorer.on_trick_end(chain)
    asked = repr(chain)
    try:
        untyped: Any = scorer  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.on_trick_end(chain)
    except Exception as error:
        raise policy_raised(scorer, "on_trick_end", asked, error) from error
    return _items(scorer, "on_trick_end", asked, answer, answer, players)


def on_first_out(
    scorer: Scorer,
    rules: RuleSet,
    order: Sequence[int],
    hands: Sequence[Hand],
    dealt: Sequence[Hand],
) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
    """``scorer.on_first_out(rules, order, hands, dealt)``, checked (RULES §6.6.3).

    The frozen players are distinct seats of *order* other than first place.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> on_first_out(Scorer(), CLASSIC, (0, 1), (Hand(0), Hand.parse("4s")), ())
        ((), ())
    """
    if is_library_policy(scorer):
        return scorer.on_first_out(rules, order, hands, dealt)
    asked = f"..., {list(order)}, ..."
    try:
        untyped: Any = scorer  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.on_first_out(rules, order, hands, dealt)
    except Exception as error:
        raise policy_raised(scorer, "on_first_out", asked, error) from error
    players = len(hands)
    if type(answer) is not tuple or len(answer) != 2:
        problem = "expected a pair (frozen seats, score items)"
        raise policy_error(scorer, "on_first_out", asked, answer, problem)
    frozen: object = answer[0]
    others = set(order[1:])
    if (
        type(frozen) is not tuple
        or not all(type(seat) is int and seat in others for seat in frozen)
        or len(set(frozen)) != len(frozen)
    ):
        problem = (
            f"the frozen players must be a tuple of distinct seats of {list(order[1:])}"
        )
        raise policy_error(scorer, "on_first_out", asked, answer, problem)
    paid = _items(scorer, "on_first_out", asked, answer, answer[1], players)
    return frozen, paid


def result(
    scorer: Scorer, hook: str, asked: str, answer: object, players: int
) -> GameResult:
    """A scorer's *answer* to *hook* (``settle``, ``instant_win``), checked.

    Its finishing order holds every seat once, its scores one int per seat, its
    items and frozen players seats of the table.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> from tienlen.scoring import Finish
        >>> settled = CLASSIC.scorer.settle(CLASSIC, Finish(order=(1, 0), hands=(Hand(0), Hand(0))))
        >>> result(CLASSIC.scorer, "settle", "...", settled, 2).scores
        (-1, 1)
    """
    problem: str | None = None
    if type(answer) is not GameResult:
        problem = "expected a GameResult"
    elif sorted(
        seat if type(seat) is int else -1 for seat in answer.finish_order
    ) != list(range(players)):
        problem = f"the finishing order must hold every seat 0-{players - 1} once"
    elif len(answer.scores) != players or not all(
        type(score) is int for score in answer.scores
    ):
        problem = f"the scores must be {players} ints, one per seat"
    elif not all(_is_seat(seat, players) for seat in answer.frozen):
        problem = f"the frozen players must be seats 0-{players - 1}"
    else:
        for item in answer.items:
            problem = _item_problem(item, players)
            if problem is not None:
                break
    if problem is not None:
        raise policy_error(scorer, hook, asked, answer, problem)
    return answer  # type: ignore[return-value]  # a GameResult: checked


def settle(scorer: Scorer, rules: RuleSet, finish: Finish) -> GameResult:
    """``scorer.settle(rules, finish)``, checked (RULES §2.5, §4.4, §6.6).

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> from tienlen.scoring import Finish
        >>> settle(CLASSIC.scorer, CLASSIC, Finish(order=(1, 0), hands=(Hand(0), Hand(0)))).scores
        (-1, 1)
    """
    if is_library_policy(scorer):
        return scorer.settle(rules, finish)
    asked = f"..., Finish(order={finish.order}, ...)"
    try:
        untyped: Any = scorer  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.settle(rules, finish)
    except Exception as error:
        raise policy_raised(scorer, "settle", asked, error) from error
    return result(scorer, "settle", asked, answer, len(finish.hands))


def instant_win_result(
    scorer: Scorer, rules: RuleSet, order: Sequence[int], win: InstantWinHand
) -> GameResult:
    """``scorer.instant_win(rules, order, win)``, checked (RULES §5.4, §6.7, D-14).

    Example:
        >>> from tienlen import VIETCONG, InstantWin
        >>> instant_win_result(VIETCONG.scorer, VIETCONG, (2, 0, 1), InstantWin.FOUR_TWOS).scores
        (-1, -1, 2)
    """
    if is_library_policy(scorer):
        return scorer.instant_win(rules, order, win)
    asked = f"..., {list(order)}, {win}"
    try:
        untyped: Any = scorer  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.instant_win(rules, order, win)
    except Exception as error:
        raise policy_raised(scorer, "instant_win", asked, error) from error
    return result(scorer, "instant_win", asked, answer, len(order))
