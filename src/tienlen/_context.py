"""Private: what every state of a game shares, built once per rule set and table size.

A `Context` holds the seating, the three policies of the rule set, the play generator
and a `TurnTable`: the turn policy's answers, remembered per distinct question, so that
a pass or a play is a dictionary lookup instead of a policy call (issue 10). The policy
stays the one place each rule of who acts lives (`tienlen.policies.TurnPolicy`); the
table only remembers what it said, so a table's own policy works the same way.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from tienlen.policies import Seating
from tienlen.rules._base import BaseRules

if TYPE_CHECKING:
    from tienlen._movegen import Tables
    from tienlen.policies import TurnPolicy
    from tienlen.rules import RuleSet

__all__ = ["Context", "TurnTable", "context_of"]

Turn = tuple[int, int, bool]
"""A turn decision: who acts, the lock-out mask, and whether a new trick begins (then
the first is its leader and the mask 0)."""
_PassQuestion = tuple[int, int | None, int, int, int | None]
"""``(player, last, locked, out, beaten)``: who passed on whose play, in which trick."""
_PlayQuestion = tuple[int, int, int, int | None]
"""``(player, locked, out, beaten)``: who played, in which trick, after going out or not."""

MEMO_LIMIT: Final = 1 << 15
"""Answers a `TurnTable` remembers before it starts afresh (eight players can reach
hundreds of thousands of distinct questions over many games)."""


class _PassAnswers(dict[_PassQuestion, Turn]):
    """`TurnPolicy.after_pass` (and `trick_leader` when the trick ends), remembered."""

    __slots__ = ("_policy", "_seating")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        super().__init__()
        self._policy = policy
        self._seating = seating

    def __missing__(self, question: _PassQuestion) -> Turn:
        player, last, locked, out, beaten = question
        policy, seating = self._policy, self._seating
        nxt, locked = policy.after_pass(seating, player, last, locked, out)
        if nxt is None and last is not None:  # everyone passed: the trick is over
            leader = policy.trick_leader(
                seating, last=last, out=out, last_to_act=player, beaten=beaten
            )
            return self._remember(question, (leader, 0, True))
        assert nxt is not None  # a declined first lead passes the turn on
        return self._remember(question, (nxt, locked, False))

    def _remember(self, question: _PassQuestion, answer: Turn) -> Turn:
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[question] = answer
        return answer


class _PlayAnswers(dict[_PlayQuestion, Turn]):
    """`TurnPolicy.after_play` (and `trick_leader` when the trick ends), remembered.

    Asked only while the game goes on (`TurnPolicy.is_over` is asked first).
    """

    __slots__ = ("_policy", "_seating")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        super().__init__()
        self._policy = policy
        self._seating = seating

    def __missing__(self, question: _PlayQuestion) -> Turn:
        player, locked, out, beaten = question
        policy, seating = self._policy, self._seating
        nxt, locked = policy.after_play(seating, player, locked, out)
        if nxt is None:  # nobody may answer: the trick is over
            leader = policy.trick_leader(
                seating, last=player, out=out, last_to_act=player, beaten=beaten
            )
            answer = (leader, 0, True)
        else:
            answer = (nxt, locked, False)
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[question] = answer
        return answer


class TurnTable:
    """A turn policy's answers at one seating, remembered per distinct question.

    ``passes[player, last, locked, out, beaten]`` and ``plays[player, locked, out,
    beaten]`` are `Turn` decisions; a question asked for the first time is put to the
    policy. A policy's answers depend only on its arguments (it is a frozen value),
    which is what makes remembering them exact.

    Example:
        >>> from tienlen import CLASSIC
        >>> table = turn_table(CLASSIC.turn_policy, Seating.of(1, 4))
        >>> table.passes[1, 0, 0b0000, 0, None]  # 1 passes on 0's play: 2 acts
        (2, 2, False)
        >>> table.plays[3, 0b0110, 0, None]  # 3 plays, 1 and 2 passed: 0 acts
        (0, 6, False)
        >>> table.passes[0, 3, 0b0110, 0, None]  # the trick ends: 3 leads
        (3, 0, True)
    """

    __slots__ = ("passes", "plays")

    def __init__(self, policy: TurnPolicy, seating: Seating) -> None:
        self.passes: dict[_PassQuestion, Turn] = _PassAnswers(policy, seating)
        """Who acts after a pass (RULES §1.5.2-§1.5.4, §3.3, §3.4, §12.8, §12.10)."""
        self.plays: dict[_PlayQuestion, Turn] = _PlayAnswers(policy, seating)
        """Who acts after a play (RULES §1.5.4-§1.5.6, §3.4, §12.10)."""


@functools.lru_cache(maxsize=64)
def _shared_turn_table(policy: TurnPolicy, seating: Seating) -> TurnTable:
    return TurnTable(policy, seating)


def turn_table(policy: TurnPolicy, seating: Seating) -> TurnTable:
    """The `TurnTable` of *policy* at *seating*, shared by every game that plays it.

    An unhashable policy (a table's own class with mutable parts) gets a table of its
    own.
    """
    try:
        return _shared_turn_table(policy, seating)
    except TypeError:  # unhashable: nothing to share it by
        return TurnTable(policy, seating)


class Context:
    """What every state of a game shares: seating, the policies and the play generator."""

    __slots__ = (
        "deal",
        "jump_ins",
        "limits_going_out",
        "players",
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
        self.turns = rules.turn_policy
        self.deal = rules.deal_policy
        self.scorer = rules.scorer
        self.turn_table = turn_table(self.turns, self.seating)
        """The turn policy's answers (see `TurnTable`)."""
        self.scores_catches = self.scorer.scores_catches
        """Whether a play that beats another may score (Poker chops, RULES §6.6.2)."""
        self.jump_ins = self.turns.jump_ins
        """Whether other players may jump in (the turn policy's, read once)."""
        self.limits_going_out = self.turns.limits_going_out
        """Whether some plays may not empty a hand (RULES §12.12)."""
        self.remembers_beaten = self.turns.beaten(0) is not None
        """Whether a play remembers the player it beat (RULES §12.10)."""
        self.tables: Tables | None = None
        """The rule set's compiled play generator, when no rule hook of `BaseRules`
        is overridden: legal actions then come from it (R24)."""
        self.trusted = False
        """Whether the rule set is `BaseRules`' own answers: its `legal_plays` lists
        exactly the plays it allows, without a check of each."""
        if isinstance(rules, BaseRules) and not _overrides_rule_hooks(type(rules)):  # type: ignore[arg-type]  # classes hash
            self.trusted = True
            self.tables = rules._tables  # None when a rule needs suits (RULES §12.2)

    def __reduce__(self) -> tuple[object, tuple[RuleSet, int]]:
        """Pickle the rule set and table size; the context is rebuilt (or shared)."""
        return context_of, (self.rules, self.players)


_CONTEXTS: Final[dict[tuple[int, int], Context]] = {}
"""The contexts of the rule sets played lately, by the rule set's id and table size.

Each context holds its rule set, so an id here is never reused by another object."""
CONTEXTS_KEPT: Final = 32
"""How many contexts `context_of` keeps."""


def context_of(rules: RuleSet, players: int) -> Context:
    """The `Context` of *rules* at a table of *players*, shared by the games that play it.

    Example:
        >>> from tienlen import CLASSIC
        >>> context_of(CLASSIC, 4) is context_of(CLASSIC, 4), context_of(CLASSIC, 4).players
        (True, 4)
    """
    if not isinstance(rules, BaseRules):  # a rule set of its own may not be a value
        return Context(rules, players)
    key = (id(rules), players)
    context = _CONTEXTS.get(key)
    if context is None or context.rules is not rules:
        context = Context(rules, players)
        if len(_CONTEXTS) >= CONTEXTS_KEPT:
            del _CONTEXTS[next(iter(_CONTEXTS))]  # the oldest
        _CONTEXTS[key] = context
    return context


_RULE_HOOKS: Final = (
    "classify",
    "beats",
    "is_leadable",
    "legal_plays",
    "max_top_rank",
    "may_jump_in",
    "is_chop_target",
    "is_bomb",
)
"""The rule questions the compiled tables answer: overriding one leaves the fast path."""


@functools.cache
def _overrides_rule_hooks(cls: type) -> bool:
    """Whether *cls* answers one of `_RULE_HOOKS` other than `BaseRules` does (R24)."""
    return any(
        getattr(cls, name) is not getattr(BaseRules, name) for name in _RULE_HOOKS
    )
