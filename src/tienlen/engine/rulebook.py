"""Private: what every state of a game shares, built once per rule set and table size.

A `Context` holds the seating, the three policies of the rule set, the play generator
and a `tienlen.engine.turns.TurnTable`: the turn policy's answers, remembered per distinct question, so that
a pass or a play is a dictionary lookup instead of a policy call (issue 10). The policy
stays the one place each rule of who acts lives (`tienlen.policies.TurnPolicy`); the
table only remembers what it said, so a table's own policy works the same way.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from tienlen.actions import hand_of
from tienlen.combos import make_combo
from tienlen.engine import answers
from tienlen.engine import bits as _bits
from tienlen.engine.shapes import KEYS
from tienlen.engine.turns import MEMO_LIMIT, play_facts, turn_table
from tienlen.policies import DealPolicy, Seating
from tienlen.rules.base import BaseRules, CustomInstantWin, InstantWin, InstantWinHand

if TYPE_CHECKING:
    from tienlen.engine.movegen import Tables
    from tienlen.policies import TurnPolicy
    from tienlen.rules import RuleSet

CountTests = tuple[tuple[InstantWinHand, Callable[[int], bool]], ...]
"""Instant wins in the order they are tried, each with its test of a hand's per-rank
card counts (`tienlen.engine.bits.rank_counts`)."""

__all__ = ["Context", "context_of"]

_NOT_CHOP: Final = 1
"""`Context._chop_targets`: the rule set said the key is no chop target."""
_CHOP: Final = 2
"""`Context._chop_targets`: the rule set said the key is a chop target."""

HANDS_KEPT: int = 1 << 12  # not Final: mypyc would inline it, and tests lower it
"""Hands `Context.may_jump_in_with` remembers before it starts afresh (a hand is asked
again within its game only)."""


class Context:
    """What every state of a game shares: seating, the policies and the play generator."""

    __slots__ = (
        "_catches",
        "_chop_targets",
        "_facts",
        "_jump_in_hands",
        "_jump_in_needs",
        "_remembers_catches",
        "deal",
        "freezes",
        "instant_tests",
        "jump_ins",
        "limits_going_out",
        "orders",
        "plain_tables",
        "players",
        "reads",
        "remembers_beaten",
        "rules",
        "scorer",
        "scores_catches",
        "seating",
        "tables",
        "trusted",
        "turn_table",
        "turns",
    )

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.rules = rules
        """The rule set it was built for."""
        self.players = players
        """How many players."""
        self.seating = Seating.of(rules.direction.value, players)
        """Seat order and who acts next (RULES §2.1, §6.1)."""
        self.orders: tuple[tuple[int, ...], ...] = tuple(
            self.seating.order_from(seat) for seat in range(players)
        )
        """``orders[seat]``: every seat in play direction from *seat* (read compiled)."""
        self.turns = rules.turn_policy
        self.deal = rules.deal_policy
        self.scorer = rules.scorer
        self.turn_table = turn_table(self.turns, self.seating)
        """The turn policy's answers (see `TurnTable`)."""
        self.reads = self.turn_table.reads
        """The facts of a play the turn policy reads: a play's question holds them
        (`play_facts`); empty for every preset."""
        self._facts: dict[int, int] = {}
        self.freezes = _declared(self.scorer, "freezes")
        """Whether the scorer may freeze players on first place (RULES §6.6.3)."""
        self.scores_catches = _declared(self.scorer, "scores_catches")
        """Whether a play that beats another may score (Poker chops, RULES §6.6.2)."""
        self.jump_ins = _declared(self.turns, "jump_ins")
        """Whether other players may jump in (the turn policy's, read once)."""
        self.limits_going_out = _declared(self.turns, "limits_going_out")
        """Whether some plays may not empty a hand (RULES §12.12)."""
        self.remembers_beaten = _remembers_beaten(self.turns, players)
        """Whether a play remembers the player it beat (RULES §12.10)."""
        self.tables: Tables | None = None
        """The rule set's compiled play generator, when no rule hook of `BaseRules`
        is overridden: legal actions then come from it (R24)."""
        self.trusted = False
        """Whether the rule set is `BaseRules`' own answers: its `legal_plays` lists
        exactly the plays it allows, without a check of each."""
        if isinstance(rules, BaseRules) and not overrides_rule_hooks(type(rules)):  # type: ignore[arg-type]  # classes hash
            self.trusted = True
            self.tables = rules._tables  # None when a rule needs suits (RULES §12.2)
        self.plain_tables = None if self.limits_going_out else self.tables
        """`tables` when they list exactly the legal plays, none refused (§12.12)."""
        self._chop_targets = b""
        """`is_chop_target`'s answers by key, a trusted rule set's (`_CHOP`,
        `_NOT_CHOP`, 0 while not asked): `KEYS` bytes once one is asked, made afresh
        when another is (a few hundred times in a rule set's life: the keys it has),
        so that reading one is an index into immutable bytes."""
        self._catches: dict[int, bool] = {}
        self._remembers_catches = self.trusted and not _overrides(
            type(rules), ("is_catch",)
        )
        self.instant_tests = _instant_tests_of(rules, self.deal)
        """The instant wins and their tests of a hand's rank counts, when the rule
        set and its deal policy answer `BaseRules.instant_win` as `BaseRules` does and
        every win is read off the counts; else ``None`` (`instant_win` asks the deal
        policy)."""
        self._jump_in_hands: dict[int, bool] = {}
        self._jump_in_needs: tuple[tuple[int, int, tuple[int, ...]], ...] | None = None
        """Per jump-in shape: `_bits.at_least_offset` of its cards per rank, how many
        ranks, and the `_run_shifts` that find them in a row."""
        if self.trusted:
            assert isinstance(rules, BaseRules)  # trusted rule sets are
            self._jump_in_needs = tuple(
                (_bits.at_least_offset(shape.kind.per_rank), *_run_shifts(shape.length))
                for shape in rules.jump_in
            )

    def instant_win(self, mask: int, *, first_game: bool) -> InstantWinHand | None:
        """`DealPolicy.instant_win` of the dealt hand *mask* (RULES §5.4, §6.7, §12.5).

        Read off the hand's rank counts when the rule set's wins allow
        (`instant_tests`): no `Hand` is built and no policy called.

        Example:
            >>> from tienlen import CLASSIC, POKER, Hand
            >>> pairs = Hand.parse("3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh 2s").mask
            >>> context_of(POKER, 4).instant_win(pairs, first_game=True)
            <InstantWin.SIX_PAIRS: 'six-pairs'>
            >>> print(context_of(CLASSIC, 4).instant_win(pairs, first_game=True))
            None
        """
        tests = self.instant_tests
        if tests is None:
            return answers.instant_win(
                self.deal,
                self.rules,
                hand_of(mask),
                first_game=first_game,
                wins=_WINS,
            )
        if tests:
            counts = _bits.rank_counts(mask)
            for win, test in tests:
                if test(counts):
                    return win
        return None

    def is_chop_target(self, mask: int, key: int) -> bool:
        """`RuleSet.is_chop_target` of the play *mask* of *key* (RULES §6.4, §6.6.2).

        A trusted rule set's answer depends on the key alone: it is asked once per key,
        and read from a table by key after that (asked on every top in Poker).

        Example:
            >>> from tienlen import POKER, classify
            >>> two = classify("2h")
            >>> context_of(POKER, 4).is_chop_target(two.mask, two.key)
            True
        """
        table = self._chop_targets
        if key < len(table):
            known = table[key]
            if known:
                return known == _CHOP
        answer = self.rules.is_chop_target(make_combo(mask, key))
        if self.trusted:
            table = table or bytes(KEYS)
            said = _CHOP if answer else _NOT_CHOP
            self._chop_targets = b"".join(
                (table[:key], bytes((said,)), table[key + 1 :])
            )
        return answer

    def is_catch(self, mask: int, key: int, top_mask: int, top: int) -> bool:
        """`RuleSet.is_catch` of the play *mask* of *key* on *top* (RULES §6.6.2).

        `BaseRules`' own answer depends on the two keys alone: it is asked once per
        pair. It is a bomb onto a chop target, so a top that is none is caught by no
        play: that is read by key (`is_chop_target`) first.

        Example:
            >>> from tienlen import POKER, classify
            >>> four, two = classify("9s 9c 9d 9h"), classify("2h")
            >>> context_of(POKER, 4).is_catch(four.mask, four.key, two.mask, two.key)
            True
        """
        remembers = self._remembers_catches
        if remembers and not self.is_chop_target(top_mask, top):
            return False
        pair = key << 16 | top
        known = self._catches.get(pair)
        if known is None:
            known = self.rules.is_catch(
                make_combo(mask, key), make_combo(top_mask, top)
            )
            if remembers:
                if len(self._catches) >= MEMO_LIMIT:
                    self._catches.clear()
                self._catches[pair] = known
        return known

    def play_facts(self, mask: int, key: int, top_mask: int, top: int) -> int:
        """The facts the turn policy `reads` of the play *mask* of *key* on *top* (0: a lead).

        As bits of the play's question (`tienlen.engine.turns.play_facts`). A trusted
        rule set's answer depends on the two keys alone: it is asked once per pair.

        Example:
            >>> import attrs
            >>> from tienlen import CLASSIC, classify
            >>> context = context_of(attrs.evolve(CLASSIC, bomb_reopens_trick=True), 4)
            >>> four, two = classify("9s 9c 9d 9h"), classify("2h")
            >>> context.play_facts(four.mask, four.key, two.mask, two.key) > 0
            True
        """
        pair = key << 16 | top
        known = self._facts.get(pair)
        if known is None:
            combo = make_combo(mask, key)
            chop = bool(top) and "chop" in self.reads
            known = play_facts(
                self.reads,
                bomb=self.rules.is_bomb(combo.shape),
                chop=chop and self.is_catch(mask, key, top_mask, top),
                kind=combo.kind,
                size=len(combo),
                rank=combo.rank,
            )
            if self.trusted:
                if len(self._facts) >= MEMO_LIMIT:
                    self._facts.clear()
                self._facts[pair] = known
        return known

    def may_jump_in_with(self, hand: int) -> bool:
        """Whether *hand* may hold a jump-in: a quick necessary test (RULES §6.4).

        A trusted rule set jumps in only with its `BaseRules.jump_in` shapes, each
        ``per_rank`` cards at ``length`` consecutive ranks; a hand without one has no
        jump-in. Any other rule set's hand may (``True``). Remembered per hand: a hand
        is asked again on every chop target until its player plays.

        Example:
            >>> from tienlen import POKER, Hand
            >>> context = context_of(POKER, 4)
            >>> pairs = Hand.parse("3s 3c 4s 4c 5s 5c 6s 6c")
            >>> context.may_jump_in_with(pairs._mask)
            True
            >>> context.may_jump_in_with(Hand.parse("3s 3c 4s 4c 5s 5c 7s 7c")._mask)
            False
        """
        known = self._jump_in_hands.get(hand)
        if known is None:
            if len(self._jump_in_hands) >= HANDS_KEPT:
                self._jump_in_hands.clear()
            known = self._jump_in_hands[hand] = self._holds_jump_in_shape(hand)
        return known

    def _holds_jump_in_shape(self, hand: int) -> bool:
        """`may_jump_in_with`, worked out."""
        if self._jump_in_needs is None:
            return True
        counts = _bits.rank_counts(hand)
        for offset, length, shifts in self._jump_in_needs:
            ranks = (counts + offset) >> 3 & _bits.ONES  # the ranks with enough cards
            if ranks.bit_count() >= length:
                for shift in shifts:
                    ranks &= ranks >> shift  # ... that begin a longer run each time
                if ranks:
                    return True
        return False

    def __reduce__(self) -> tuple[object, tuple[RuleSet, int]]:
        """Pickle the rule set and table size; the context is rebuilt (or shared)."""
        return context_of, (self.rules, self.players)


_WINS: Final = (InstantWin, CustomInstantWin)
"""What a deal policy's `DealPolicy.instant_win` answers, when not ``None``."""
_BUILDING: Final = threading.RLock()
"""Held while `context_of` builds a context, so that every thread gets the same one."""


def context_of(rules: RuleSet, players: int) -> Context:
    """The `Context` of *rules* at a table of *players*, shared by the games that play it.

    A `BaseRules` keeps its contexts itself, one per table size, for as long as it
    lives; each is built once, under a lock, so that threads dealing games of many rule
    sets at once share it too (issue 20). A rule set of another kind gets a context of
    its own each time.

    Example:
        >>> from tienlen import CLASSIC
        >>> context_of(CLASSIC, 4) is context_of(CLASSIC, 4), context_of(CLASSIC, 4).players
        (True, 4)
    """
    if not isinstance(rules, BaseRules):  # a rule set of its own may not be a value
        return Context(rules, players)
    contexts: dict[int, Context] = rules._contexts
    context = contexts.get(players)
    if context is None or context.rules is not rules:
        with _BUILDING:
            context = contexts.get(players)
            if context is None:
                context = contexts[players] = Context(rules, players)
            elif context.rules is not rules:  # a `copy.copy` shares the dict
                context = Context(rules, players)
    return context


_RULE_HOOKS: Final = (
    "classify",
    "beats",
    "is_leadable",
    "may_lead",
    "legal_plays",
    "max_top_rank",
    "may_jump_in",
    "is_chop_target",
    "is_bomb",
)
"""The rule questions the compiled tables answer: overriding one leaves the fast path."""


@functools.cache
def overrides_rule_hooks(cls: type) -> bool:
    """Whether *cls* answers one of `_RULE_HOOKS` other than `BaseRules` does (R24)."""
    return _overrides(cls, _RULE_HOOKS)


def _instant_tests_of(rules: RuleSet, deal: object) -> CountTests | None:
    """`Context.instant_tests` of *rules* and its deal policy *deal*."""
    if not isinstance(rules, BaseRules) or _overrides(type(rules), ("instant_win",)):
        return None
    if getattr(type(deal), "instant_win", None) is not DealPolicy.instant_win:
        return None
    order, tests = rules._instant_order, rules._count_tests
    if any(test is None for test in tests):
        return None  # a win that needs the cards themselves, or the match's game
    return tuple(zip(order, tests, strict=True))  # type: ignore[arg-type]  # none is None


def _declared(policy: object, name: str) -> bool:
    """The `bool` a policy declares as its attribute *name*, checked (issue 34)."""
    try:
        answer: object = getattr(policy, name)
    except Exception as error:
        raise answers.policy_raised(policy, name, "", error) from error
    return answers.checked_flag(policy, name, "", answer)


def _remembers_beaten(turns: TurnPolicy, players: int) -> bool:
    """Whether *turns* remembers who a play beat (``beaten(0)`` is a seat, §12.10)."""
    try:
        untyped: Any = turns  # called untyped (`tienlen.engine.answers`)
        answer: object = untyped.beaten(0)
    except Exception as error:
        raise answers.policy_raised(turns, "beaten", "0", error) from error
    return answers.optional_seat(turns, "beaten", "0", answer, players) is not None


def _run_shifts(length: int) -> tuple[int, tuple[int, ...]]:
    """*length* and the shifts that find a run of *length* ranks in a rank mask.

    After ``ranks &= ranks >> shift`` for each shift, bit ``4 * r`` says whether ranks
    ``r`` to ``r + length - 1`` are all in it; each shift doubles the run, at most.

    Example:
        >>> _run_shifts(4), _run_shifts(3), _run_shifts(1)
        ((4, (4, 8)), (3, (4, 4)), (1, ()))
    """
    shifts: list[int] = []
    covered = 1
    while covered < length:
        step = min(covered, length - covered)
        shifts.append(4 * step)
        covered += step
    return length, tuple(shifts)


def _overrides(cls: type, names: tuple[str, ...]) -> bool:
    """Whether *cls* answers one of the questions *names* other than `BaseRules` does."""
    return any(getattr(cls, name) is not getattr(BaseRules, name) for name in names)
