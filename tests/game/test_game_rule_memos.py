"""The context's remembered rule answers: the rule set's own, asked once (issue 11 §1).

`tienlen.engine.rulebook.Context` remembers a trusted rule set's `is_chop_target` by the top's
key and `BaseRules.is_catch` by the pair of keys, and tests a hand for a jump-in shape
before listing its plays (RULES §6.4, §6.6.2). These tests check each answer against the
rule set's at every step of random games, that the jump-in test never hides a jump-in,
and that a subclass overriding a question is asked every time.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.game.helpers import house_rules
from tienlen import (
    CLASSIC_TWO_DECKS,
    POKER,
    BaseRules,
    Combo,
    ComboKind,
    GameState,
    Hand,
    Play,
    classify,
)
from tienlen.combos import Shape
from tienlen.engine import rulebook as context_module
from tienlen.engine.rulebook import Context, context_of
from tienlen.engine.shapes import KEYS


def _random_states(rules: BaseRules, seed: int) -> list[GameState]:
    """Every state of one random game of *rules* at four players."""
    rng = random.Random(seed)
    state = GameState.deal(rules, 4, rng)
    states = [state]
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
        states.append(state)
    return states


def _jump_ins_asked(state: GameState) -> set[tuple[int, int]]:
    """The jump-ins by the rule set's questions alone: every seat's plays, filtered."""
    rules, top = state.rules, state.top
    assert top is not None
    return {
        (player, play.mask)
        for player in range(state.players)
        if player not in (state.to_act, state.last_player) and state.in_game(player)
        for play in rules.legal_plays(state.hand(player), top)
        if rules.may_jump_in(play, top)
    }


def _jump_ins_listed(state: GameState) -> set[tuple[int, int]]:
    return {
        (action.player, action.cards._mask)
        for action in state.legal_actions()
        if isinstance(action, Play) and action.player != state.to_act
    }


def _check_game(rules: BaseRules, seed: int) -> None:
    context = context_of(rules, 4)
    for state in _random_states(rules, seed):
        top = state.top
        if top is None or state.is_over:
            continue
        assert context.is_chop_target(top.mask, top.key) is rules.is_chop_target(top)
        assert _jump_ins_listed(state) == _jump_ins_asked(state)
        for action in state.legal_actions():
            if isinstance(action, Play):
                play = classify(action.cards, rules)
                assert play is not None
                assert context.is_catch(
                    play.mask, play.key, top.mask, top.key
                ) is rules.is_catch(play, top)


def test_chop_targets_are_kept_by_key_once_asked() -> None:
    """A trusted rule set's chop targets: a table by key, made when first asked (§6.4)."""
    context = Context(POKER, 4)
    assert context._chop_targets == b""  # a rule set that never asks holds no table
    two, ace = classify("2h"), classify("Ah")
    assert two is not None
    assert ace is not None
    assert context.is_chop_target(two.mask, two.key)
    assert not context.is_chop_target(ace.mask, ace.key)
    table = context._chop_targets
    assert len(table) == KEYS
    assert [key for key, said in enumerate(table) if said] == sorted((two.key, ace.key))
    assert context.is_chop_target(two.mask, two.key)
    assert context._chop_targets is table  # read from the table, not asked again


@pytest.mark.parametrize("seed", range(12))
def test_poker_answers_match_the_rule_set(seed: int) -> None:
    """Chop targets, catches and jump-ins are POKER's own answers (RULES §6.4, §6.6.2)."""
    _check_game(POKER, seed)


@given(st.data())
def test_house_rule_answers_match_the_rule_set(data: st.DataObject) -> None:
    """Random house rules, with jump-ins set, answer as the rule set does (RULES §12)."""
    rules = data.draw(house_rules())
    if not rules.jump_in:
        rules = attrs.evolve(rules, jump_in=POKER.jump_in, bomb_chain=POKER.bomb_chain)
    _check_game(rules, data.draw(st.integers(0, 2**16)))


_FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND, 1)
_PAIRS_3 = Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3)
_PAIRS_4 = Shape.of(ComboKind.CONSECUTIVE_PAIRS, 4)


@pytest.mark.parametrize("shapes", [(_PAIRS_4,), (_FOUR,), (_PAIRS_3, _FOUR)])
@given(st.lists(st.sampled_from((0, 0, 1, 1, 2, 2, 3, 4, 8)), min_size=13, max_size=13))
def test_the_jump_in_test_hides_no_jump_in(
    shapes: tuple[Shape, ...], counts: list[int]
) -> None:
    """A hand the quick test refuses holds no combination of a jump-in shape (RULES §6.4).

    Cards drawn by per-rank counts, so runs of pairs are common; two decks, so a rank
    may hold up to eight cards; every kind of the jump-in shapes may be led there, so
    the hand's leads list every such combination it holds.
    """
    rules = attrs.evolve(CLASSIC_TWO_DECKS, name="jumpy", jump_in=shapes)
    mask = 0
    for rank, count in enumerate(counts):  # the first suits, then their second copies
        mask |= (1 << min(count, 4)) - 1 << 4 * rank
        mask |= (1 << max(count - 4, 0)) - 1 << 4 * rank + 52
    if not context_of(rules, 5).may_jump_in_with(mask):
        held = {play.shape for play in rules.legal_plays(Hand(mask))}
        assert not held & set(shapes)


def test_the_jump_in_test_finds_poker_s_shape() -> None:
    """Four consecutive pairs pass the test, three do not (RULES §6.4, D-15)."""
    context = context_of(POKER, 4)
    assert context.may_jump_in_with(Hand.parse("3s 3c 4s 4c 5s 5c 6s 6c Kh")._mask)
    assert not context.may_jump_in_with(Hand.parse("3s 3c 4s 4c 5s 5c 7s 7c 2h")._mask)


@attrs.frozen(kw_only=True)
class _CountedCatches(BaseRules):
    """A subclass overriding `is_catch` only: no catch onto a pair (counted)."""

    asked: list[int] = attrs.field(factory=list, eq=False)

    def is_catch(self, play: Combo, top: Combo) -> bool:
        """The preset's answer, except onto a pair."""
        self.asked.append(1)
        return top.kind is not ComboKind.PAIR and super().is_catch(play, top)


@attrs.frozen(kw_only=True)
class _CountedTargets(BaseRules):
    """A subclass overriding `is_chop_target` only (counted): it leaves the fast path."""

    asked: list[int] = attrs.field(factory=list, eq=False)

    def is_chop_target(self, top: Combo) -> bool:
        """The preset's answer."""
        self.asked.append(1)
        return super().is_chop_target(top)


def _like(cls: type[BaseRules], preset: BaseRules) -> BaseRules:
    return cls(
        **{f.name: getattr(preset, f.name) for f in attrs.fields(BaseRules) if f.init}
    )


def test_an_overridden_catch_is_asked_every_time() -> None:
    """A subclass's own `is_catch` is never answered from memory (R24, RULES §6.6.2)."""
    rules = _like(_CountedCatches, POKER)
    context = Context(rules, 4)
    two, four = classify("2h"), classify("9s 9c 9d 9h")
    assert two is not None
    assert four is not None
    for _ in range(3):
        assert context.is_catch(four.mask, four.key, two.mask, two.key)
    assert len(rules.asked) == 3  # type: ignore[attr-defined]  # the subclass's
    _check_game(rules, 7)


def test_an_overridden_chop_target_is_asked_every_time() -> None:
    """A subclass's own `is_chop_target` is never answered from memory (R24, §6.4)."""
    rules = _like(_CountedTargets, POKER)
    context = Context(rules, 4)
    two = classify("2h")
    assert two is not None
    for _ in range(3):
        assert context.is_chop_target(two.mask, two.key)
    assert len(rules.asked) == 3  # type: ignore[attr-defined]  # the subclass's
    _check_game(rules, 7)


def test_a_catch_onto_a_pair_follows_the_subclass() -> None:
    """`_CountedCatches` refuses catches onto pairs: its game scores none (RULES §6.6.2)."""
    rules = _like(_CountedCatches, POKER)
    pair, four = classify("2s 2h"), classify("9s 9c 9d 9h")
    assert pair is not None
    assert four is not None
    assert not context_of(rules, 4).is_catch(four.mask, four.key, pair.mask, pair.key)
    assert context_of(POKER, 4).is_catch(four.mask, four.key, pair.mask, pair.key)


def test_the_memos_start_afresh_at_their_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full memo is cleared, and the answers stay the rule set's (issue 11 §1)."""
    monkeypatch.setattr(context_module, "HANDS_KEPT", 3)
    monkeypatch.setattr(context_module, "MEMO_LIMIT", 3)
    rules = attrs.evolve(POKER, name="poker-limits")  # a context of its own
    for seed in range(3):
        _check_game(rules, seed)
    context = context_of(rules, 4)
    assert 0 < len(context._jump_in_hands) <= 3
    assert 0 < len(context._catches) <= 3
