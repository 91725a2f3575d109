"""Pin the public types (STYLE R47): checked by mypy; pytest only runs the one test."""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_type

import attrs

import tienlen
from tienlen import (
    CLASSIC,
    DECK,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Card,
    Combo,
    ComboKind,
    Hand,
    Plays,
    Rank,
    RuleSet,
    Shape,
    Suit,
    beats,
    classify,
    get_rules,
    legal_plays,
    parse_cards,
)

_classic: RuleSet = CLASSIC
_justus_pang: RuleSet = JUSTUS_PANG
_kenneth_lo: RuleSet = KENNETH_LO
_vietcong: RuleSet = VIETCONG
_poker: RuleSet = POKER


def check_public_types() -> Combo:
    """Exercise the public signatures; mypy checks every `assert_type`."""
    assert_type(tienlen.__version__, str)
    assert_type(DECK, tuple[Card, ...])
    assert_type(parse_cards("3s 4s"), tuple[Card, ...])
    card = Card.parse("3s")
    assert_type(card, Card)
    assert_type(Card.from_index(51), Card)
    assert_type(card.rank, Rank)
    assert_type(card.suit, Suit)
    assert_type(card.index, int)
    assert_type(card.unicode(), str)
    hand = Hand.parse("3s 3h 4d")
    assert_type(hand, Hand)
    assert_type(Hand.from_cards(DECK[:3]), Hand)
    assert_type(hand | hand, Hand)
    assert_type(hand & hand, Hand)
    assert_type(hand - hand, Hand)
    assert_type(hand + Hand.parse("5s"), Hand)
    assert_type(hand <= Hand.parse("3s"), bool)
    assert_type(hand.cards, tuple[Card, ...])
    assert_type(hand.count(card), int)
    assert_type(classify("3s 3h"), Combo | None)
    assert_type(classify(DECK[:1], rules=POKER), Combo | None)
    assert_type(CLASSIC.classify(DECK[:1]), Combo | None)
    combo = classify("3s 3h", rules=VIETCONG)
    assert combo is not None
    assert_type(combo.kind, ComboKind)
    assert_type(combo.shape, Shape)
    assert_type(combo.top, Card)
    assert_type(combo.rank, Rank)
    assert_type(combo.cards, tuple[Card, ...])
    assert_type(len(combo), int)
    assert_type(beats("8s", "7h"), bool)
    assert_type(beats(combo, combo, rules=KENNETH_LO), bool)
    plays = legal_plays("3s 3h 4d")
    assert_type(plays, Plays)
    assert_type(legal_plays(hand, combo, rules=JUSTUS_PANG), Plays)
    assert_type(plays[0], Combo)
    assert_type(plays[1:], Plays)
    assert_type(get_rules("vc"), BaseRules)
    assert_type(RULESETS, Mapping[str, BaseRules])
    assert_type(CLASSIC, BaseRules)
    assert_type(POKER, BaseRules)
    assert_type(attrs.evolve(CLASSIC, twos_in_straights=False), BaseRules)
    assert_type(CLASSIC.bombs_against(combo), frozenset[Shape])
    assert_type(CLASSIC.max_top_rank(combo.shape), Rank | None)
    assert_type(CLASSIC.deal_size(4), tuple[int, int])
    assert_type(Shape.of(ComboKind.STRAIGHT, 5), Shape)
    return next(play for play in plays if len(play) == 2)


def test_public_types_run() -> None:
    """STYLE R47: the typed calls above also run and return what their types say."""
    combo = check_public_types()
    assert isinstance(combo, Combo)
    assert str(combo) == "3s 3h"
    assert all(isinstance(rules, BaseRules) for rules in RULESETS.values())
