"""`legal_plays` against a brute force over sub-multisets, and golden counts (RULES §1.2–§6.3).

The brute force knows nothing of the move generator: it lists every distinct
sub-multiset of the hand, keeps those `classify` accepts, and filters them with the
lead rule (anything but consecutive quads, RULES §5.2 D-13) or with `beats`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import (
    PRESETS,
    base_rules,
    bomb_rows,
    bomb_scenarios,
    bomb_targets,
    hands,
    hands_holding,
    house_rules,
    spec_leadable,
    tops,
)
from tienlen import (
    CLASSIC,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    Card,
    Combo,
    ComboKind,
    Hand,
    InvalidComboError,
    Plays,
    TienLenError,
    classify,
    legal_plays,
)
from tienlen.rules import two_decks

IDS = [rules.name for rules in PRESETS]


def sub_multisets(hand: Hand) -> Iterator[tuple[Card, ...]]:
    """Every distinct non-empty sub-multiset of *hand* (each card 0…count times)."""
    counts = sorted(Counter(hand).items())
    choices = [[(card,) * k for k in range(count + 1)] for card, count in counts]
    for picked in itertools.product(*choices):
        cards = tuple(itertools.chain.from_iterable(picked))
        if cards:
            yield cards


def rank_block_sub_multisets(hand: Hand) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets whose ranks form one unbroken run (RULES §1.2, §1.4).

    Every combination is one rank or consecutive ranks, so this loses nothing, and it is
    what keeps the 17- and 18-card brute force affordable.
    """
    by_rank: dict[int, list[tuple[Card, ...]]] = {}
    for rank in range(13):
        at_rank = Hand.from_cards(card for card in hand if card.rank.value == rank)
        by_rank[rank] = list(sub_multisets(at_rank))
    for low in range(13):
        partial: list[tuple[Card, ...]] = [()]
        for rank in range(low, 13):
            if not by_rank[rank]:
                break
            partial = [p + q for p in partial for q in by_rank[rank]]
            yield from partial


def brute_force(hand: Hand, rules: BaseRules, *, blocks: bool = False) -> set[Combo]:
    """Every combination *hand* holds under *rules*, found by classifying sub-multisets."""
    candidates = rank_block_sub_multisets(hand) if blocks else sub_multisets(hand)
    found = set()
    for cards in candidates:
        combo = classify(cards, rules=rules)
        if combo is not None:
            found.add(combo)
    return found


def check_against(
    rules: BaseRules, hand: Hand, everything: set[Combo], top: Combo | None
) -> None:
    """Assert legal_plays(hand, top) is exactly the brute-force answer, without repeats."""
    plays = legal_plays(hand, top, rules=rules)
    listed = list(plays)
    assert len(plays) == len(listed)
    assert [plays[i] for i in range(len(plays))] == listed  # indexing decodes lazily
    assert [plays[i] for i in range(-len(plays), 0)] == listed
    assert [combo for combo, n in Counter(listed).items() if n > 1] == []
    if top is None:
        expected = {c for c in everything if spec_leadable(rules, c.shape)}
    else:
        expected = {c for c in everything if rules.beats(c, top)}
    assert sorted(map(str, expected)) == sorted(map(str, listed))


def _check_hand(
    rules: BaseRules, hand: Hand, data: st.DataObject, *, blocks: bool = False
) -> None:
    """Compare leads and plays on 1–3 tops with the brute force.

    Tops are biased toward 2s, bomb targets and bombs (`tops`, `bomb_targets`), and a
    third are combinations the hand itself holds, so same-shape plays are common too.
    """
    everything = brute_force(hand, rules, blocks=blocks)
    check_against(rules, hand, everything, None)
    own = sorted(everything, key=lambda combo: (combo.mask, len(combo)))
    sources = [tops(rules), bomb_targets(rules), st.sampled_from(own) if own else None]
    top_source = st.one_of([source for source in sources if source is not None])
    for top in data.draw(st.lists(top_source, min_size=1, max_size=3)):
        check_against(rules, hand, everything, top)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
@given(data=st.data())
def test_legal_plays_match_brute_force(rules: BaseRules, data: st.DataObject) -> None:
    """RULES §1.2–§1.3, bomb tables: leads and plays on a top are exactly the brute-force ones."""
    hand = data.draw(st.one_of(hands(1, 13), hands_holding(rules, 1, 13)))
    _check_hand(rules, hand, data)


@pytest.mark.parametrize(
    "rules",
    [two_decks(rules) for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO)],
    ids=["classic", "justus-pang", "kenneth-lo"],
)
@given(data=st.data())
def test_two_deck_legal_plays_match_brute_force(
    rules: BaseRules, data: st.DataObject
) -> None:
    """RULES §1.1, §2.1: with two decks equal combinations are listed once, equal never beats."""
    hand = data.draw(st.one_of(hands(1, 13, decks=2), hands_holding(rules, 1, 13)))
    _check_hand(rules, hand, data)


@given(data=st.data())
def test_generated_rules_legal_plays_match_brute_force(data: st.DataObject) -> None:
    """RULES §11: for any valid settings, legal plays are exactly the brute-force ones."""
    rules = data.draw(base_rules())
    hand = data.draw(
        st.one_of(hands(1, 11, decks=rules.decks), hands_holding(rules, 1, 11))
    )
    _check_hand(rules, hand, data)


@given(data=st.data())
def test_house_rules_legal_plays_match_brute_force(data: st.DataObject) -> None:
    """RULES §12.1–§12.4, §12.6: under the combination house rules, plays match brute force."""
    rules = data.draw(house_rules())
    hand = data.draw(
        st.one_of(hands(1, 11, decks=rules.decks), hands_holding(rules, 1, 11))
    )
    _check_hand(rules, hand, data)


@pytest.mark.parametrize(
    "rules_strategy",
    [pytest.param(st.just(rules), id=rules.name) for rules in PRESETS]
    + [
        pytest.param(
            base_rules().filter(
                lambda rules: any(row[0].size <= 13 for row in bomb_rows(rules))
            ),
            id="generated",
        ),
        pytest.param(
            house_rules().filter(
                lambda rules: any(row[0].size <= 13 for row in bomb_rows(rules))
            ),
            id="house",
        ),
    ],
)
@given(data=st.data())
def test_bomb_plays_match_brute_force(
    rules_strategy: st.SearchStrategy[BaseRules], data: st.DataObject
) -> None:
    """RULES §2.3, §4.3, §5.2, §6.3: with a bomb in hand and its target on top, plays match."""
    rules = data.draw(rules_strategy)
    hand, top = data.draw(bomb_scenarios(rules))
    everything = brute_force(hand, rules)
    check_against(rules, hand, everything, top)
    assert any(play.shape != top.shape for play in legal_plays(hand, top, rules=rules))


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
@settings(max_examples=4)
@given(data=st.data())
def test_big_hands_match_brute_force(rules: BaseRules, data: st.DataObject) -> None:
    """RULES §2.1, §4.1, §5.2: 17- and 18-card hands (three players, KL spare) match too."""
    hand = data.draw(hands(17, 18))
    _check_hand(rules, hand, data, blocks=True)


def test_rank_block_brute_force_is_complete() -> None:
    """RULES §1.2: the run-of-ranks shortcut finds the same combinations as the full brute force."""
    hand = Hand.parse("3s 3c 4d 5h 5s 6c 7d 7h 9s 9c Ts Jd 2h")
    for rules in PRESETS:
        assert brute_force(hand, rules) == brute_force(hand, rules, blocks=True)


# -- golden counts (PERFORMANCE.md §1: at most 486 leads in 13 cards, 2,793 / 4,851 in 17 / 18) --

H13 = "3s 3c 3d 4s 4c 4d 5s 5c 5d 5h 6s 6c 6d"  # rank counts 3,3,4,3
H17 = "3s 3c 3d 4s 4c 4d 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d"  # 3,3,4,4,3
H18 = "3s 3c 3d 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d"  # 3,4,4,4,3
HIGH13 = "Qs Qc Qd Ks Kc Kd As Ac Ad Ah 2s 2c 2d"  # 3,3,4,3 on Q K A 2

# H13 leads: 13 singles + 15 pairs (3+3+6+3) + 7 triples (1+1+4+1) + 1 four
#   + straights 3·3·4 + 3·4·3 + 3·3·4·3 = 180 + consecutive pairs 3·3·6 + 3·6·3 + 3·3·6·3 = 270
#   = 486, the most any 13-card hand has; same on Q-K-A-2 where 2s may top sequences.
# HIGH13 without 2s in straights: 486 − 36 (K-A-2) − 108 (Q-K-A-2) = 342;
#   Poker (no 2s in straights or pairs): 13 + 15 + 7 + 1 + 36 + 54 = 126.
# H17 / H18 have one 5-rank run of pairs (3·3·6·6·3 = 972, 3·6·6·6·3 = 1944), which Poker
#   (3–4 pairs) does not allow: 2793 − 972 = 1821 and 4851 − 1944 = 2907.
# Against a top: H13 on 2h has 5555 (1) and 3 pairs (108), plus Poker's 4 pairs (162);
#   on 2s 2h classic has the 162 4-pair runs, KL and Poker the 1 four of a kind (+162).
GOLDEN = [
    (H13, None, {"classic": 486, "justus-pang": 486, "kenneth-lo": 486, "vietcong": 486, "poker": 486}),
    (H17, None, {"classic": 2793, "justus-pang": 2793, "kenneth-lo": 2793, "vietcong": 2793, "poker": 1821}),
    (H18, None, {"classic": 4851, "justus-pang": 4851, "kenneth-lo": 4851, "vietcong": 4851, "poker": 2907}),
    (HIGH13, None, {"classic": 486, "justus-pang": 342, "kenneth-lo": 486, "vietcong": 342, "poker": 126}),
    (H13, "2h", {"classic": 109, "justus-pang": 109, "kenneth-lo": 109, "vietcong": 109, "poker": 271}),
    (H13, "2s 2h", {"classic": 162, "justus-pang": 162, "kenneth-lo": 1, "vietcong": 0, "poker": 163}),
    (H13, "2s 2c 2d", {"classic": 0, "justus-pang": 0, "kenneth-lo": 0, "vietcong": 0, "poker": 0}),
    (H13, "4h", {"classic": 7, "justus-pang": 7, "kenneth-lo": 7, "vietcong": 7, "poker": 7}),
]  # fmt: skip

GOLDEN_CASES = [
    pytest.param(
        hand, top, rules, counts[rules.name], id=f"{name}-{top or 'lead'}-{rules.name}"
    )
    for name, (hand, top, counts) in zip(
        ["h13", "h17", "h18", "high13", "h13", "h13", "h13", "h13"], GOLDEN, strict=True
    )
    for rules in PRESETS
]


@pytest.mark.parametrize(("hand", "top", "rules", "count"), GOLDEN_CASES)
def test_golden_counts(
    hand: str, top: str | None, rules: BaseRules, count: int
) -> None:
    """RULES §1.2, §10 (counts hand-derived above): fixed hands have known numbers of plays."""
    plays = legal_plays(hand, top, rules=rules)
    assert count == len(plays)
    assert count == len(set(plays))


def test_golden_breakdown_by_kind() -> None:
    """RULES §1.2: the 486 leads of the densest 13-card hand, kind by kind."""
    kinds = Counter(play.kind for play in legal_plays(HIGH13, rules=CLASSIC))
    assert kinds == {
        ComboKind.SINGLE: 13,
        ComboKind.PAIR: 15,
        ComboKind.TRIPLE: 7,
        ComboKind.FOUR_OF_A_KIND: 1,
        ComboKind.STRAIGHT: 180,
        ComboKind.CONSECUTIVE_PAIRS: 270,
    }


def test_vietcong_slam_listed_on_pair_of_twos() -> None:
    """RULES §5.2: on a pair of 2s a Vietcong hand of 7777-8888 has only the quads slam."""
    plays = legal_plays("7s 7c 7d 7h 8s 8c 8d 8h", "2d 2h", rules=VIETCONG)
    assert [str(play) for play in plays] == ["7s 7c 7d 7h 8s 8c 8d 8h"]


# -- inputs ---------------------------------------------------------------------------------


def test_legal_plays_accepts_text_cards_and_hands() -> None:
    """RULES §1.1: the hand and top may be text, cards, a Hand or a Combo; results agree."""
    hand = Hand.parse("3s 4s 5h 5d 9c")
    top = classify("4h")
    assert top is not None
    expected = legal_plays(hand, top)
    assert isinstance(expected, Plays)
    assert expected == legal_plays("3s 4s 5h 5d 9c", "4h")
    assert expected == legal_plays(list(hand), list(top))
    assert expected == legal_plays(tuple(reversed(hand.cards)), "4h", rules=CLASSIC)
    assert sorted(str(play) for play in expected) == ["5d", "5h", "9c"]
    assert len(legal_plays("")) == 0


def test_legal_plays_rejects_a_non_combination_top() -> None:
    """RULES §1.2: the top of the pile must be a combination under the variant."""
    with pytest.raises(
        InvalidComboError, match="'3s 4h' is not a combination under classic"
    ):
        legal_plays("5s 6s", "3s 4h")
    with pytest.raises(InvalidComboError, match="is not a combination under poker"):
        legal_plays("5s 6s", "Jd Qh Kh Ac 2d", rules=POKER)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
@given(data=st.data())
def test_membership_is_computed_and_exact(
    rules: BaseRules, data: st.DataObject
) -> None:
    """Issue 14 item 5: ``in`` on leads answers exactly what listing them answers."""
    hand = data.draw(st.one_of(hands(1, 13), hands_holding(rules, 1, 13)))
    plays = legal_plays(hand, rules=rules)
    listed = {play.mask for play in plays}
    for combo in brute_force(hand, rules):
        assert (combo in plays) == (combo.mask in listed)
    assert "3s" not in plays


def test_absurd_hands_count_but_do_not_list() -> None:
    """Issue 14 item 5: a 52-card hand has 18.9 billion leads: len and in answer, listing refuses."""
    hand = Hand(sum(1 << index for index in range(52)))
    plays = legal_plays(hand)
    assert len(plays) == 18_926_703_435
    run = classify(
        " ".join(f"{rank}{suit}" for rank in "3456789TJQKA2" for suit in "sc")
    )
    assert run in plays
    with pytest.raises(TienLenError, match="too many to list"):
        list(plays)
    with pytest.raises(TienLenError, match="too many to list"):
        legal_plays(hand, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
