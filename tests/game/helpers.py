"""Shared helpers for the game-engine tests (RULES §1.5, §2–§6).

The oracles here are written from RULES.md, not from the engine: which card leads the
first game (RULES §2.4, D-4), which deals win at once (RULES §5.4, §6.7), which
actions a state must accept. Every refusal is checked the same way: `check`,
`is_legal` and `apply` agree on the reason, and the state is left exactly as it was.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Sequence

import attrs
import pytest
from hypothesis import strategies as st

from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    Action,
    BaseRules,
    Card,
    Direction,
    GameState,
    Hand,
    IllegalPlayError,
    IllegalReason,
    InstantWin,
    Pass,
    Play,
    Rank,
    ScoreKind,
)
from tienlen.game import FIELDS
from tienlen.policies import LeaderAfterGoingOut
from tienlen.rules import two_decks
from tienlen.scoring import StakeScorer

__all__ = [
    "PRESETS",
    "STAKE_PRESETS",
    "TABLES",
    "TWO_DECK_TABLES",
    "actions_of",
    "all_candidate_actions",
    "assert_cards_conserved",
    "assert_legal_actions_exact",
    "assert_result_consistent",
    "deal_configs",
    "hand_sum",
    "house_rules",
    "player_counts",
    "random_sub_multiset",
    "refuse",
    "snapshot",
    "spec_first_lead",
    "spec_hand_value",
    "spec_instant_win",
    "spec_play_order",
    "sub_multisets",
]

PRESETS: tuple[BaseRules, ...] = (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG, POKER)
"""The five named variants, in the order of RULES.md."""

TWO_DECK_TABLES: tuple[BaseRules, ...] = tuple(
    two_decks(rules) for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO)
)
"""The variants RULES §10 seats five to eight on two decks: `CLASSIC_TWO_DECKS` and kin."""

TABLES: tuple[BaseRules, ...] = (*PRESETS, *TWO_DECK_TABLES)
"""Every preset and its two-deck table, where RULES §10 has one."""

STAKE_PRESETS: tuple[BaseRules, ...] = (CLASSIC, JUSTUS_PANG, KENNETH_LO, VIETCONG)
"""The variants paid in stakes, a zero-sum scheme (RULES §2.5, §4.4, §5.4)."""


@st.composite
def house_rules(draw: st.DrawFn) -> BaseRules:
    """A non-preset rule set: a preset with random game-flow house rules (RULES §12).

    Every setting of RULES §12.7, §12.8, §12.10-§12.13 and the ⚙ decisions D-1, D-22,
    D-23, in any combination, on any preset.
    """
    preset = draw(st.sampled_from(PRESETS))
    return attrs.evolve(
        preset,
        name=f"{preset.name}-house",
        pass_locks_out=draw(st.booleans()),
        leader_after_going_out=draw(st.sampled_from(LeaderAfterGoingOut)),
        chop_chain=draw(st.booleans()),
        frozen_multiplier=draw(st.integers(0, 3)),
        end_penalty_with_frozen=draw(st.booleans()),
        catch_with_last_cards_scores=draw(st.booleans()),
        no_going_out_with_two=draw(st.booleans()),
        no_going_out_with_bomb=draw(st.booleans()),
        bomb_reopens_trick=draw(st.booleans()),
    )


def player_counts(rules: BaseRules) -> range:
    """The table sizes RULES §2.1, §6.1 and §10 allow for *rules*: 2–4, or 5–8 on two decks."""
    if rules.decks == 2:
        return range(5, 9)
    return range(2, 5)


def deal_configs() -> list[tuple[BaseRules, int]]:
    """Every (preset, players) pair a deal must support (RULES §10 "players")."""
    return [(rules, n) for rules in TABLES for n in player_counts(rules)]


def spec_play_order(rules: BaseRules, start: int, players: int) -> list[int]:
    """Every seat in play direction, starting with *start* (RULES §2.1, §6.1)."""
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    return [(start + step * i) % players for i in range(players)]


def spec_first_lead(
    rules: BaseRules, hands: Sequence[Hand], dealer: int
) -> tuple[Card, int]:
    """The first-lead card and its holder (RULES §2.4, D-4).

    3♠, or the lowest dealt card when nobody holds 3♠; with two decks and two holders,
    the first holder in play direction from the dealer.
    """
    lowest = min(card for hand in hands for card in hand)
    order = [*spec_play_order(rules, dealer, len(hands))[1:], dealer]
    holder = next(p for p in order if lowest in hands[p])
    return lowest, holder


def spec_instant_win(rules: BaseRules, hand: Hand) -> bool:
    """Whether *hand* wins at the deal under *rules* (RULES §5.4, §6.7)."""
    counts = [0] * 13
    for card in hand:
        counts[card.rank.value] += 1
    four_twos = counts[Rank.TWO.value] == 4
    if rules.instant_wins == frozenset({InstantWin.FOUR_TWOS}):
        return four_twos
    if not rules.instant_wins:
        return False
    six_pairs = sum(count // 2 for count in counts) >= 6
    run = best = 0
    for count in counts[: Rank.TWO.value]:  # without 2s
        run = run + 1 if count >= 2 else 0
        best = max(best, run)
    thirteen = all(counts)
    return four_twos or six_pairs or best >= 5 or thirteen


def hand_sum(hands: Iterable[Hand]) -> Hand:
    """The multiset sum of *hands* (two decks may hold a card twice)."""
    total = Hand(0)
    for hand in hands:
        total += hand
    return total


def assert_fields_complete(state: GameState) -> None:
    """The state is a `GameState` with every field set, however it was built."""
    assert type(state) is GameState
    for name in FIELDS:
        getattr(state, name)  # an unset slot raises AttributeError


def snapshot(state: GameState) -> tuple[object, ...]:
    """Every field of *state*, history included, to prove it did not change.

    The `GameState.top` cache is left out: it is filled on first use.
    """
    fields = [getattr(state, name) for name in FIELDS if name != "_top_combo"]
    return (*fields, state.hands, state.top, state.history)


def refuse(
    state: GameState, action: Action, reason: IllegalReason | None = None
) -> IllegalPlayError:
    """Assert *action* is refused (with *reason*, if given) and leaves *state* unchanged.

    `check`, `is_legal` and `apply` must agree (STYLE R31); the error names the player
    and the action (RULES §1.5).
    """
    before = snapshot(state)
    digest = hash(state)
    copy = state._derive({})
    assert not state.is_legal(action)
    with pytest.raises(IllegalPlayError) as checked:
        state.check(action)
    with pytest.raises(IllegalPlayError) as applied:
        state.apply(action)
    error = checked.value
    assert error.reason == applied.value.reason
    if reason is not None:
        assert reason == error.reason, str(error)
    assert action.player == error.player
    assert str(action) == error.action
    assert before == snapshot(state)
    assert digest == hash(state)
    assert copy == state
    return error


def sub_multisets(hand: Hand) -> list[Hand]:
    """Every non-empty sub-multiset of *hand* (each card 0 … its count times)."""
    distinct = sorted(set(hand))
    choices = [range(hand.count(card) + 1) for card in distinct]
    found: list[Hand] = []
    for counts in itertools.product(*choices):
        cards = [
            card for card, k in zip(distinct, counts, strict=True) for _ in range(k)
        ]
        if cards:
            found.append(Hand.from_cards(cards))
    return found


def all_candidate_actions(state: GameState) -> list[Action]:
    """Every play of every sub-multiset of every hand, and every player's pass."""
    candidates: list[Action] = []
    for player, hand in enumerate(state.hands):
        candidates += [
            Play(player=player, cards=cards) for cards in sub_multisets(hand)
        ]
        candidates.append(Pass(player=player))
    return candidates


def actions_of(state: GameState) -> list[Action]:
    """`legal_actions()` as a list, checked to be a consistent sequence without repeats."""
    actions = state.legal_actions()
    listed = list(actions)
    assert len(actions) == len(listed)
    assert len(set(listed)) == len(listed)
    assert listed == [actions[i] for i in range(len(actions))]
    return listed


def assert_legal_actions_exact(state: GameState) -> list[Action]:
    """`legal_actions()` is exactly the set of actions `is_legal` accepts (STYLE R53)."""
    listed = actions_of(state)
    accepted = [a for a in all_candidate_actions(state) if state.is_legal(a)]
    assert set(accepted) == set(listed)
    for action in listed:
        state.check(action)
    for action in all_candidate_actions(state):
        if action not in set(listed):
            refuse(state, action)
    return listed


def assert_cards_conserved(state: GameState) -> None:
    """The hands plus every card played are exactly the dealt cards (STYLE R53)."""
    played = hand_sum(a.cards for a in state.history if isinstance(a, Play))
    assert hand_sum(state.dealt) == hand_sum(state.hands) + played
    for player, hand in enumerate(state.hands):
        assert hand <= state.dealt[player]


def assert_result_consistent(state: GameState) -> None:
    """A finished game's result obeys its variant's scoring (RULES §2.5, §4.4, §6.6)."""
    result = state.result
    assert result is not None
    n = state.players
    assert sorted(result.finish_order) == list(range(n))
    scores = [0] * n
    for item in result.items:
        scores[item.player] += item.points
        if item.payer is not None:
            assert item.payer != item.player
            scores[item.payer] -= item.points
    assert tuple(scores) == result.scores
    assert result.winner == result.finish_order[0]
    assert result.loser == result.finish_order[-1]
    scorer = state.rules.scorer
    if isinstance(scorer, StakeScorer):
        assert sum(result.scores) == 0
        assert all(i.kind is ScoreKind.STAKE and i.points == 1 for i in result.items)
        if result.instant_win is not None or scorer.each_pays_winner:
            expected = [n - 1 if p == result.winner else -1 for p in range(n)]
        else:
            expected = [-(n - 1) if p == result.loser else 1 for p in range(n)]
        assert expected == list(result.scores)
        return
    unpaid = [i for i in result.items if i.payer is None]
    assert sum(result.scores) == sum(i.points for i in unpaid)
    if result.instant_win is not None:
        assert [(ScoreKind.INSTANT_WIN, result.winner, 12)] == [
            (i.kind, i.player, i.points) for i in result.items
        ]
        return
    table = POKER_PLACE_POINTS[n]
    place = {p: table[i] for i, p in enumerate(result.finish_order)}
    expected_place = [
        (p, place[p])
        for p in result.finish_order
        if p not in result.frozen and place[p]
    ]
    got_place = [(i.player, i.points) for i in unpaid]
    assert all(i.kind is ScoreKind.PLACE for i in unpaid)
    assert sorted(expected_place) == sorted(got_place)
    frozen = set(result.frozen)
    assert set(result.finish_order[n - len(frozen) :]) == frozen
    full = state.rules.deal_size(n)[1]  # a full deal: 13 cards in Poker (RULES §6.1)
    never_played = {
        p
        for p in range(n)
        if len(state.dealt[p]) == full and state.hands[p] == state.dealt[p]
    }
    assert never_played == frozen  # RULES §6.6.3: exactly those still holding all 13
    paid = {kind: [i for i in result.items if i.kind is kind] for kind in ScoreKind}
    assert not paid[ScoreKind.STAKE]
    assert not paid[ScoreKind.INSTANT_WIN]
    assert sorted(frozen) == sorted(i.payer or 0 for i in paid[ScoreKind.FROZEN])
    for item in paid[ScoreKind.FROZEN]:  # RULES §6.6.3: 4 plus the 2s and bombs held
        assert item.payer is not None
        assert result.winner == item.player
        assert 4 + spec_hand_value(state.hands[item.payer]) == item.points
    playing = [p for p in result.finish_order if p not in frozen]
    value = spec_hand_value(state.hands[playing[-1]])
    expected_penalty = [(playing[-2], playing[-1], value)] if value else []
    assert expected_penalty == [  # RULES §6.6.4: the last pays the player just above
        (i.player, i.payer, i.points) for i in paid[ScoreKind.END_PENALTY]
    ]
    for item in paid[ScoreKind.CHOP]:  # RULES §6.6.2
        assert item.points > 0
        assert item.combos


POKER_PLACE_POINTS: dict[int, tuple[int, ...]] = {
    4: (4, 2, 1, 0),
    3: (4, 2, 0),
    2: (4, 0),
}
"""Poker place points by table size, first place first (RULES §6.6.1, D-17)."""

_TWO_VALUES = {"s": 1, "c": 2, "d": 3, "h": 4}
_BOMBS = (
    (2, 3, 4),
    (4, 1, 6),
    (2, 4, 8),
)  # (cards per rank, ranks, value), RULES §6.6.2


def spec_hand_value(hand: Hand) -> int:
    """Poker's value of the 2s and bombs in *hand*: the best disjoint set (RULES §6.6.4, D-20).

    Each 2 is worth its suit (♠1 ♣2 ♦3 ♥4); 3 consecutive pairs 4, four of a kind 6,
    4 consecutive pairs 8; consecutive pairs hold no 2s (RULES §6.2). Every way of
    taking bombs out of the rank counts is tried.
    """
    counts = [0] * 13
    for card in hand:
        counts[card.rank.value] += 1
    twos = tuple(sorted(_TWO_VALUES[str(c)[-1]] for c in hand if c.rank is Rank.TWO))
    return _best_value(tuple(counts), twos)


@functools.cache
def _best_value(left: tuple[int, ...], twos: tuple[int, ...]) -> int:
    two = Rank.TWO.value
    free = left[two]  # 2s no bomb uses count singly, the dearest kept
    best = sum(twos[len(twos) - free :]) if free else 0
    for per_rank, length, value in _BOMBS:
        last = two if length == 1 else two - 1  # runs of pairs stop at the ace
        for start in range(last - length + 2):
            ranks = range(start, start + length)
            if all(left[r] >= per_rank for r in ranks):
                used = tuple(
                    c - per_rank if r in ranks else c for r, c in enumerate(left)
                )
                best = max(best, value + _best_value(used, twos))
    return best


def random_sub_multiset(rng: random.Random, hand: Hand) -> Hand:
    """A random non-empty sub-multiset of a non-empty *hand*."""
    cards = list(hand)
    size = rng.randint(1, min(len(cards), 8))
    return Hand.from_cards(rng.sample(cards, size))
