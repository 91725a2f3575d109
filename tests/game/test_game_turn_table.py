"""The turn table: who acts is the turn policy's answer, remembered (issue 10, RULES §1.5).

`tienlen.engine.turns.TurnTable` remembers `TurnPolicy.after_pass`, `after_play` and
`trick_leader` per distinct question, so a pass or a play is a lookup. These tests put
the same questions to the policy itself at every step of random games, for the presets,
for house rules and for a table's own policies (a subclass, an unhashable one), and
check the table's limits, the context shared between games, and the two paths of
`GameState.legal_actions`.
"""

from __future__ import annotations

import copy
import gc
import pickle
import random
import weakref
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import PRESETS, house_rules
from tienlen import CLASSIC, POKER, BaseRules, GameState, InvalidRulesError, Pass, Play
from tienlen.engine import turns as turns_module
from tienlen.engine.rulebook import Context, context_of
from tienlen.engine.turns import turn_key
from tienlen.policies import AfterPass, AfterPlay, Seating, TurnPolicy


@attrs.frozen
class _LowestSeatAnswers(TurnPolicy):
    """A table's own rule: after a play, the lowest seat still free answers it.

    Whatever the direction of play; it is the whole rule of who acts after a play.
    """

    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:
        """The lowest seat neither the player, locked nor out; ``None`` if there is none."""
        return _lowest_free(seating, event.player, event.locked, event.out)


def _lowest_free(
    seating: Seating, player: int, locked: int, out: int
) -> tuple[int | None, int]:
    """The lowest seat neither *player*, locked nor out (``None``), and *locked*."""
    free = [
        seat
        for seat in range(seating.players)
        if seat != player and not (locked | out) >> seat & 1
    ]
    return (free[0] if free else None), locked


def _old_style_policy() -> type[TurnPolicy]:
    """`_LowestSeatAnswers` written against the hook signature before events (0.1).

    Made when asked, inside the test expecting its `DeprecationWarning`.
    """

    @attrs.frozen
    class _OldLowestSeatAnswers(TurnPolicy):
        def after_play(  # type: ignore[override]  # the deprecated form
            self, seating: Seating, player: int, locked: int, out: int
        ) -> tuple[int | None, int]:
            return _lowest_free(seating, player, locked, out)

    return _OldLowestSeatAnswers


@attrs.frozen
class _WithNotes(TurnPolicy):
    """A policy with a mutable part: it cannot be hashed, so no table is shared."""

    notes: list[str] = attrs.field(factory=list, eq=True)


def _custom(name: str, policy: TurnPolicy) -> BaseRules:
    return attrs.evolve(CLASSIC, name=name, custom_turn_policy=policy)


CUSTOM = (
    _custom("lowest-seat", _LowestSeatAnswers()),
    _custom("with-notes", _WithNotes()),
)


def _expected(state: GameState, action: Play | Pass) -> tuple[int | None, int, bool]:
    """Who acts after *action*, the lock-outs and whether a trick starts, as the policy says.

    Put to `TurnPolicy` directly, as the engine asked before it remembered answers.
    """
    policy = state.rules.turn_policy
    seating = Seating.of(state.rules.direction.value, state.players)
    beaten = state._beaten
    if isinstance(action, Pass):
        last = state.last_player
        nxt, locked = policy.after_pass(
            seating,
            AfterPass(
                player=action.player, last=last, locked=state.locked, out=state.out
            ),
        )
        if nxt is None and last is not None:
            leader = policy.trick_leader(
                seating,
                last=last,
                out=state.out,
                last_to_act=action.player,
                beaten=beaten,
            )
            return leader, 0, True
        return nxt, locked, False
    after = state.apply(action)
    out = after.out
    nxt, locked = policy.after_play(seating, _event(state, action, out))
    if nxt is None:
        leader = policy.trick_leader(
            seating,
            last=action.player,
            out=out,
            last_to_act=action.player,
            beaten=policy.beaten(state.last_player),
        )
        return leader, 0, True
    return nxt, locked, False


def _event(state: GameState, play: Play, out: int) -> AfterPlay:
    """What happened when *play* was made in *state*: the facts its policy reads."""
    rules = state.rules
    combo = rules.classify(play.cards)
    assert combo is not None  # a legal play is a combination
    top = state.top
    facts = {
        "bomb": rules.is_bomb(combo.shape),
        "chop": top is not None and rules.is_catch(combo, top),
        "kind": combo.kind,
        "size": len(combo),
        "rank": combo.rank,
    }
    reads = rules.turn_policy.reads
    return AfterPlay(
        player=play.player,
        locked=state.locked,
        out=out,
        previous=state.last_player,
        **{name: value for name, value in facts.items() if name in reads},  # type: ignore[arg-type]
    )


def _walk_checking_turns(state: GameState, rng: random.Random) -> int:
    """Play *state* out at random; at each step the successor follows the policy.

    Returns the number of steps checked.
    """
    steps = 0
    while not state.is_over:
        assert state._turn == turn_key(
            state.to_act, state.last_player, state.locked, state.out, state._beaten
        )
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        after = state.apply(action)
        if not after.is_over and after.rotted == state.rotted:  # §12.12 moves on
            nxt, locked, new_trick = _expected(state, action)
            assert (after.to_act, after.locked) == (nxt, locked), (state, action)
            assert after.top is None or not new_trick
        state = after
        steps += 1
    return steps


@pytest.mark.parametrize("rules", [*PRESETS, *CUSTOM], ids=lambda rules: rules.name)
def test_every_step_follows_the_turn_policy(rules: BaseRules) -> None:
    """Who acts, the lock-outs and the end of a trick are the policy's answers (§1.5)."""
    rng = random.Random(f"turns:{rules.name}")
    for players in range(rules.min_players, rules.max_players + 1):
        for _ in range(3):
            state = GameState.deal(rules, players, rng)
            assert _walk_checking_turns(state, rng) > 0 or state.is_over


@settings(max_examples=30, deadline=None)
@given(rules=house_rules(), seed=st.integers(0, 2**32))
def test_house_rules_follow_their_turn_policy(rules: BaseRules, seed: int) -> None:
    """Under random house rules (§12.8, §12.10, §12.12) every step is the policy's."""
    rng = random.Random(seed)
    players = rng.randint(rules.min_players, rules.max_players)
    _walk_checking_turns(GameState.deal(rules, players, rng), rng)


def test_a_table_own_policy_is_asked() -> None:
    """A subclass overriding `after_play` decides who answers a play (issue 10 §2)."""
    rules = CUSTOM[0]
    state = GameState.from_hands(["3s 9h", "4d 9c", "5c Jd", "6h Qs"], rules)
    state = state.play("3s")  # clockwise would be 1; the lowest free seat is also 1
    assert state.to_act == 1
    state = state.pass_turn().play("5c")  # 2 plays: 0 is the lowest free seat
    assert state.to_act == 0


def test_an_old_style_policy_is_adapted_with_a_warning() -> None:
    """A hook of the signature before events still answers, deprecated (until 0.3).

    The class is found once, when it is made; it then plays the same games as
    `_LowestSeatAnswers`, and calling any policy's hook the old way still answers.
    """
    with pytest.warns(DeprecationWarning, match="after_play takes"):
        old = _old_style_policy()
    rules = attrs.evolve(CLASSIC, name="old-lowest-seat", custom_turn_policy=old())
    state = GameState.from_hands(["3s 9h", "4d 9c", "5c Jd", "6h Qs"], rules)
    state = state.play("3s").pass_turn().play("5c")
    assert state.to_act == 0
    for seed in range(3):
        new = GameState.deal(CUSTOM[0], 4, seed=seed)
        former = GameState.deal(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not new.is_over:
            assert (former.to_act, former.locked) == (new.to_act, new.locked)
            action = rng.choice(new.legal_actions())
            new, former = new.apply(action), former.apply(action)
        assert former.result == new.result
    seating, policy = Seating.of(1, 4), CLASSIC.turn_policy
    old_play: Any = policy.after_play  # called the deprecated way, untyped
    old_pass: Any = policy.after_pass
    with pytest.warns(DeprecationWarning, match="is deprecated"):
        assert old_play(seating, 0, locked=0b0010, out=0) == (2, 2)
    with pytest.warns(DeprecationWarning, match="is deprecated"):
        assert old_pass(seating, 1, 0, 0, 0) == (2, 2)
    with pytest.raises(TypeError):
        old_play(seating, 0, 0, 0, 0)


@attrs.frozen
class _BombsGoToSeatZero(TurnPolicy):
    """A table's own rule reading a fact of the play: seat 0 answers every bomb."""

    reads = frozenset({"bomb", "size"})

    def after_play(self, seating: Seating, event: AfterPlay) -> tuple[int | None, int]:
        """Seat 0 answers a bomb (if it may); otherwise as the base policy."""
        assert event.size is not None  # reading `kind` would be refused (undeclared)
        if event.bomb and event.player != 0 and not (event.out | event.locked) & 1:
            return 0, event.locked
        return super().after_play(seating, event)


def test_a_policy_is_told_the_facts_it_reads() -> None:
    """`reads` puts exactly those facts in the question, and answers stay exact.

    Two games reaching the same seats, one by a bomb and one by a plain play, get the
    policy's two different answers from the one remembered table.
    """
    rules = attrs.evolve(
        CLASSIC, name="bombs-to-zero", custom_turn_policy=_BombsGoToSeatZero()
    )
    hands = ["3s 9h Kd", "2h 5d", "6s 6c 6d 6h 8d", "Qs Jc"]
    bombed = (
        GameState.from_hands(hands, rules).play("3s").play("2h").play("6s 6c 6d 6h")
    )
    assert bombed.to_act == 0
    plain = GameState.from_hands(hands, rules).play("3s").play("5d").play("8d")
    assert plain.to_act == 3
    rng = random.Random(8)
    for _ in range(3):
        _walk_checking_turns(GameState.deal(rules, 4, rng), rng)


def test_reads_naming_no_fact_is_refused() -> None:
    """A policy reading a fact no play has is refused when the rule set is built."""

    @attrs.frozen
    class _ReadsColour(TurnPolicy):
        reads = frozenset({"colour"})

    with pytest.raises(InvalidRulesError, match="colour"):
        attrs.evolve(CLASSIC, name="colour", custom_turn_policy=_ReadsColour())


def test_an_unhashable_policy_gets_a_table_of_its_own() -> None:
    """A policy that cannot be hashed is not shared, and still answers every step."""
    rules = CUSTOM[1]
    with pytest.raises(TypeError):
        hash(rules.turn_policy)
    context = Context(rules, 4)
    assert context.turn_table is not Context(rules, 4).turn_table
    rng = random.Random(3)
    assert _walk_checking_turns(GameState.deal(rules, 4, rng), rng) > 0


def test_a_full_table_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MEMO_LIMIT` answers the table forgets them and asks again, still exact."""
    monkeypatch.setattr(turns_module, "MEMO_LIMIT", 3)
    rules = attrs.evolve(CLASSIC, name="small-memo", pass_locks_out=False)
    rng = random.Random(4)
    for _ in range(3):
        _walk_checking_turns(GameState.deal(rules, 4, rng), rng)
    table = context_of(rules, 4).turn_table
    assert len(table.passes) <= 3
    assert len(table.plays) <= 3


def test_games_share_the_context_of_their_rule_set() -> None:
    """Every game of a rule set and table size shares one context; a pickle rebuilds it.

    The unpickled rule set is a new object, equal to the old: its context is new, and
    shares the turn table of the equal policy with every other such copy (the tables
    are kept for the last 64 policies: the original's may have been built long ago).
    """
    state = GameState.deal(POKER, 4, seed=5)
    other = GameState.deal(POKER, 4, seed=6)
    assert state._context is other._context
    assert state._context is not GameState.deal(POKER, 3, seed=5)._context
    copied = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    assert copied == state
    assert copied._context.rules is copied.rules
    again = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    assert copied._context.turn_table is again._context.turn_table
    assert list(copied.legal_actions()) == list(state.legal_actions())


def test_a_rule_set_keeps_its_contexts_for_its_life() -> None:
    """A rule set keeps its contexts however many others are played, frees them with itself.

    A shallow copy, which shares the rule set's memo, gets contexts of its own.
    """
    first = attrs.evolve(CLASSIC, name="first")
    kept = context_of(first, 4)
    for index in range(40):
        context_of(attrs.evolve(CLASSIC, name=f"other-{index}"), 4)
    assert context_of(first, 4) is kept
    copied = copy.copy(first)
    assert context_of(copied, 4).rules is copied
    assert context_of(copied, 4).turn_table is kept.turn_table  # the same policy's
    assert context_of(first, 4) is kept
    gone = weakref.ref(first)
    del first, kept, copied
    gc.collect()
    assert gone() is None


def _listed(state: GameState) -> list[tuple[int, int] | str]:
    return [
        "pass" if isinstance(action, Pass) else (action.player, action.cards.mask)
        for action in state.legal_actions()
    ]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_both_paths_of_legal_actions_agree(rules: BaseRules) -> None:
    """The short path over the compiled tables lists what the general path lists."""
    rng = random.Random(f"paths:{rules.name}")
    general = Context(rules, 4)
    general.plain_tables = None  # every state below takes `_every_action`
    for _ in range(5):
        state = GameState.deal(rules, 4, rng)
        while not state.is_over:
            slow = state._derive({"_context": general})
            assert _listed(slow) == _listed(state)
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
