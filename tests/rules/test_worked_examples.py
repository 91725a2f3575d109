"""RULES §9 worked examples, the bomb tables of §2.3, §4.3, §5.2, §6.3, and §1.4 / §10 shapes.

Every row of RULES §9 is one `pytest.param` per variant it names. Rows 17–19 are about
turns (jump-in, continuation), which the game engine enforces; here only their
combination-level part is checked: does the play beat the top under that variant.
"""

from __future__ import annotations

import pytest

from tests.strategies import PRESETS
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    VIETCONG,
    BaseRules,
    Combo,
    ComboKind,
    Hand,
    InvalidComboError,
    Rank,
    Shape,
    beats,
    classify,
    legal_plays,
)
from tienlen.rules import two_decks

ALL = PRESETS
TWO_DECK = (CLASSIC_TWO_DECKS, two_decks(JUSTUS_PANG), two_decks(KENNETH_LO))
"""The presets that seat five to eight on two decks (RULES §2.1)."""

# (row, variants, top — None for a lead —, play, legal?, why) exactly as in RULES §9.
ROWS: list[tuple[int, tuple[BaseRules, ...], str | None, str, bool, str]] = [
    (1, ALL, "7H", "8S", True, "rank before suit"),
    (2, ALL, "7D 7C", "7H 7S", True, "7H > 7D"),
    (3, ALL, "6S 6C", "5D 5H", False, "no lower pairs (§8)"),
    (4, ALL, "3S 4S 5S 6S", "9C TC JC", False, "different shape"),
    (5, (CLASSIC, KENNETH_LO), "TS JS QD KC AH", "JD QH KH AC 2D", True, "2 may top a straight"),
    (6, (JUSTUS_PANG, VIETCONG, POKER), None, "JD QH KH AC 2D", False, "no 2s in straights"),
    (7, ALL, None, "AS 2C 3D", False, "no wrap"),
    (8, ALL, "2H", "5S 5C 5D 5H", True, "four of a kind on a single 2"),
    (9, ALL, "AH", "5S 5C 5D 5H", False, "only against 2s"),
    (10, (CLASSIC, JUSTUS_PANG, KENNETH_LO), "3S 3C 4S 4C 5S 5C", "9S 9C 9D 9H", False, "no bomb over another bomb kind"),
    (11, (POKER,), "3S 3C 4S 4C 5S 5C", "9S 9C 9D 9H", True, "chain"),
    (12, (CLASSIC,), "2S 2H", "5S 5C 6S 6C 7S 7C 8S 8C", True, "4 pairs on a pair of 2s"),
    (13, (CLASSIC, JUSTUS_PANG), "2S", "5S 5C 6S 6C 7S 7C 8S 8C", False, "exact sizes"),
    (14, (KENNETH_LO, POKER), "2S 2H", "9S 9C 9D 9H", True, "four of a kind on a pair of 2s"),
    (15, (VIETCONG,), "2D 2H", "7S 7C 7D 7H 8S 8C 8D 8H", True, "consecutive quads slam"),
    (16, (VIETCONG,), "2H", "7S 7C 7D 7H 8S 8C 8D 8H", False, "consecutive quads only on a pair or triple of 2s"),
    (17, (POKER,), "2H", "3S 3C 4S 4C 5S 5C 6S 6C", True, "jump-in: 4 pairs beat a single 2"),
    (18, (POKER,), "2H", "9S 9C 9D 9H", True, "four of a kind beats 2H; only the jump-in is refused (engine)"),
    (19, (JUSTUS_PANG,), "5C", "9H", True, "continuation: same shape, strictly higher"),
    (20, (CLASSIC,), "7H", "7H", False, "equal does not beat (two decks)"),
]  # fmt: skip

WORKED = [
    pytest.param(row, rules, top, play, legal, why, id=f"row{row:02d}-{rules.name}")
    for row, variants, top, play, legal, why in ROWS
    for rules in variants
]


def _combo(text: str, rules: BaseRules) -> Combo:
    combo = classify(text, rules=rules)
    assert combo is not None, f"{text!r} should be a combination under {rules.name}"
    return combo


@pytest.mark.parametrize(("row", "rules", "top", "play", "legal", "why"), WORKED)
def test_worked_example(
    row: int, rules: BaseRules, top: str | None, play: str, legal: bool, why: str
) -> None:
    """RULES §9 rows 1–20: each row's play is legal exactly when the table says, per variant.

    Leads (rows 6, 7) are legal when the cards form a combination the variant lets a
    player lead. Against a top, the play must beat it; and `legal_plays` of a hand holding
    just the play's cards agrees. Rows 17–19 are checked at combination level only.
    """
    reason = f"RULES §9 row {row} ({rules.name}): {why}"
    hand = Hand.parse(play)
    if top is None:
        combo = classify(play, rules=rules)
        assert legal == (combo is not None), reason
        leads = legal_plays(hand, rules=rules)
        assert legal == any(len(lead) == len(hand) for lead in leads), reason
        return
    assert legal == beats(play, top, rules=rules), reason
    assert legal == (_combo(play, rules) in legal_plays(hand, top, rules=rules)), reason


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_section_1_3_examples(rules: BaseRules) -> None:
    """RULES §1.3: 7♥7♠ beats 7♦7♣; 8♠9♠10♦ beats 8♥9♥10♣; a 4-card straight never meets a 3-card one."""
    assert beats("7♥ 7♠", "7♦ 7♣", rules=rules)
    assert not beats("7♦ 7♣", "7♥ 7♠", rules=rules)
    assert beats("8♠ 9♠ 10♦", "8♥ 9♥ 10♣", rules=rules)
    assert not beats("8♥ 9♥ 10♣", "8♠ 9♠ 10♦", rules=rules)
    assert not beats("9s Ts Js Qs", "3c 4c 5c", rules=rules)
    assert not beats("9s Ts Js", "3c 4c 5c 6c", rules=rules)
    four_pairs_on_three = beats(
        "5s 5c 6s 6c 7s 7c 8s 8c", "3s 3c 4s 4c 5d 5h", rules=rules
    )
    assert four_pairs_on_three is (rules is POKER)  # only Poker's chain (§6.3)


@pytest.mark.parametrize(
    "rules", [CLASSIC, JUSTUS_PANG, KENNETH_LO], ids=lambda rules: rules.name
)
def test_row10_three_pairs_beat_the_two_first(rules: BaseRules) -> None:
    """RULES §9 row 10: the 3-3-4-4-5-5 on top did beat a 2, and no four of a kind beats it."""
    assert beats("3S 3C 4S 4C 5S 5C", "2H", rules=rules)
    assert not beats("9S 9C 9D 9H", "3S 3C 4S 4C 5S 5C", rules=rules)
    assert beats("6S 6C 7S 7C 8S 8C", "3S 3C 4S 4C 5S 5C", rules=rules)


@pytest.mark.parametrize("rules", TWO_DECK, ids=lambda rules: rules.name)
@pytest.mark.parametrize(
    ("top", "play"),
    [
        ("7h", "7h"),
        ("7s 7h", "7s 7h"),
        ("7h 7h", "7s 7h"),
        ("7s 7c 7h", "7s 7c 7h"),
        ("7s 7c 7d 7h", "7s 7c 7d 7h"),
        ("3c 4c 5h", "3s 4s 5h"),
        ("3s 3c 4s 4c 5s 5h", "3s 3d 4s 4d 5s 5h"),
        ("2h", "2h"),
    ],
)
def test_row20_equal_never_beats_with_two_decks(
    rules: BaseRules, top: str, play: str
) -> None:
    """RULES §1.1, §9 row 20: with two decks equal combinations (same top card) never beat."""
    assert not beats(play, top, rules=rules)
    assert not beats(top, play, rules=rules)
    hand = Hand.parse(play)
    assert _combo(play, rules) not in legal_plays(hand, top, rules=rules)


def test_lead_rows_raise_in_beats() -> None:
    """RULES §9 rows 6, 7: cards that are no combination cannot be compared at all."""
    with pytest.raises(
        InvalidComboError, match="'AS 2C 3D' is not a combination under classic"
    ):
        beats("AS 2C 3D", "3h 4h 5h")
    with pytest.raises(InvalidComboError, match="is not a combination under poker"):
        beats("3h 4h 5h", "JD QH KH AC 2D", rules=POKER)


# -- bomb tables: RULES §2.3, §4.3, §5.2, §6.3 ------------------------------------------------

FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)


def pairs(count: int) -> Shape:
    """The shape of *count* consecutive pairs."""
    return Shape.of(ComboKind.CONSECUTIVE_PAIRS, count)


def quads(count: int) -> Shape:
    """The shape of *count* consecutive four-of-a-kinds."""
    return Shape.of(ComboKind.CONSECUTIVE_QUADS, count)


# A low instance of every bomb-like shape, and the targets of the tables (high ranks).
BOMBS = {
    FOUR: "3s 3c 3d 3h",
    pairs(3): "3s 3c 4s 4c 5s 5c",
    pairs(4): "3s 3c 4s 4c 5s 5c 6s 6c",
    pairs(5): "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c",
    pairs(6): "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c",
    pairs(7): "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9s 9c",
    quads(2): "3s 3c 3d 3h 4s 4c 4d 4h",
    quads(3): "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h",
}
TARGETS = {
    "single-2": "2s",
    "pair-of-2s": "2s 2c",
    "three-2s": "2s 2c 2d",
    "single-ace": "Ah",
    "pair-of-aces": "As Ah",
    "three-aces": "As Ac Ah",
    "straight": "Ts Js Qs Ks Ah",
    "four": "Ks Kc Kd Kh",
    "3-pairs": "Qs Qh Ks Kh As Ah",
    "4-pairs": "Js Jh Qs Qh Ks Kh As Ah",
    "5-pairs": "Ts Th Js Jh Qs Qh Ks Kh As Ah",
    "7-pairs": "8d 8h 9d 9h Td Th Jd Jh Qd Qh Kd Kh Ad Ah",
    "2-quads": "Qs Qc Qd Qh Ks Kc Kd Kh",
    "3-quads": "Js Jc Jd Jh Qs Qc Qd Qh Ks Kc Kd Kh",
}

# Exactly the cross-shape bombs each table lists; every other (variant, target) gets none.
CLASSIC_TABLE = {  # RULES §2.3 (and §3.2 for Justus Pang)
    "single-2": {FOUR, pairs(3)},
    "pair-of-2s": {pairs(4)},
    "three-2s": {pairs(5)},
}
BOMB_TABLES: dict[str, dict[str, set[Shape]]] = {
    "classic": CLASSIC_TABLE,
    "justus-pang": CLASSIC_TABLE,
    "kenneth-lo": {  # RULES §4.3: nothing beats three 2s; 4+ pairs have no power
        "single-2": {FOUR, pairs(3)},
        "pair-of-2s": {FOUR},
    },
    "vietcong": {  # RULES §5.2: after a slam only a higher one of the same shape
        "single-2": {pairs(3), FOUR},
        "pair-of-2s": {pairs(5), quads(2)},
        "three-2s": {pairs(7), quads(3)},
    },
    "poker": {  # RULES §6.3: the chains; three 2s: nothing
        "single-2": {pairs(3), FOUR, pairs(4)},
        "pair-of-2s": {FOUR, pairs(4)},
        "3-pairs": {FOUR, pairs(4)},
        "four": {pairs(4)},
    },
}

BOMB_CASES = [
    pytest.param(rules, target, id=f"{rules.name}-{target}")
    for rules in PRESETS
    for target, text in TARGETS.items()
    if classify(text, rules=rules) is not None
]


@pytest.mark.parametrize(("rules", "target"), BOMB_CASES)
def test_bomb_table(rules: BaseRules, target: str) -> None:
    """RULES §2.3, §4.3, §5.2, §6.3: exactly the listed bomb shapes beat each target.

    Every bomb-like shape the variant has (four of a kind, 3–7 consecutive pairs, 2–3
    consecutive quads) is tried against the target; targets not in the variant's table
    (aces, straights, bombs outside Poker's chain) are beaten by no other shape.
    """
    top = _combo(TARGETS[target], rules)
    expected = BOMB_TABLES[rules.name].get(target, set())
    candidates = {
        shape: combo
        for shape, text in BOMBS.items()
        if shape != top.shape and (combo := classify(text, rules=rules)) is not None
    }
    assert expected <= set(candidates), "the table names a shape the variant lacks"
    actual = {
        shape for shape, combo in candidates.items() if beats(combo, top, rules=rules)
    }
    assert {str(s) for s in expected} == {str(s) for s in actual}
    assert expected == set(rules.bombs_against(top))


@pytest.mark.parametrize(
    ("rules", "low", "high"),
    [
        pytest.param(rules, low, high, id=f"{rules.name}-{shape}")
        for rules in PRESETS
        for shape, (low, high) in {
            "four": ("3s 3c 3d 3h", "Ks Kc Kd Kh"),
            "3-pairs": ("3s 3c 4s 4c 5s 5c", "Qs Qh Ks Kh As Ah"),
            "4-pairs": ("3s 3c 4s 4c 5s 5c 6s 6c", "Js Jh Qs Qh Ks Kh As Ah"),
            "5-pairs": (
                "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c",
                "Ts Th Js Jh Qs Qh Ks Kh As Ah",
            ),
            "2-quads": ("3s 3c 3d 3h 4s 4c 4d 4h", "Qs Qc Qd Qh Ks Kc Kd Kh"),
            "3-quads": (
                "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h",
                "Js Jc Jd Jh Qs Qc Qd Qh Ks Kc Kd Kh",
            ),
        }.items()
        if classify(low, rules=rules) is not None
    ],
)
def test_bombs_beaten_by_higher_same_shape(
    rules: BaseRules, low: str, high: str
) -> None:
    """RULES §2.3, §4.3, §5.2, §6.3: a bomb is beaten by a higher one of its shape, not a lower."""
    assert beats(high, low, rules=rules)
    assert not beats(low, high, rules=rules)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_two_is_beaten_by_higher_two(rules: BaseRules) -> None:
    """RULES §1.3: 2s compare like any other cards: a higher 2 beats a lower one."""
    assert beats("2h", "2d", rules=rules)
    assert not beats("2d", "2h", rules=rules)
    assert beats("2d 2h", "2s 2c", rules=rules)
    assert beats("2c 2d 2h", "2s 2c 2d", rules=rules)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_bombs_only_against_twos(rules: BaseRules) -> None:
    """RULES §2.3: the exceptions are only against 2s: an ace single, pair or triple is never bombed."""
    for top in ("Ah", "As Ah", "As Ac Ah", "Kh", "3s 3c"):
        for bomb in BOMBS.values():
            combo = classify(bomb, rules=rules)
            if combo is not None:
                assert not beats(combo, top, rules=rules), (bomb, top)


# -- §1.4 no wrap, §10 2s at the top of sequences ---------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
@pytest.mark.parametrize(
    "text",
    [
        "As 2c 3d",
        "Ks As 2c 3d",
        "2s 3c 4d",
        "Qs Ks As 2s 3s",
        "As Ac 2s 2c 3s 3c",
        "Ks Kc As Ac 2s 2c 3s 3c",
        "2s 2c 3s 3c 4s 4c",
    ],
)
def test_sequences_never_wrap(rules: BaseRules, text: str) -> None:
    """RULES §1.4: A-2-3, K-A-2-3 and 2-3-4 are never straights or consecutive pairs."""
    assert classify(text, rules=rules) is None
    assert not any(
        len(lead) == len(text.split()) for lead in legal_plays(text, rules=rules)
    )


# The §10 table rows "2 at top of straight" and "2-2 at top of consecutive pairs".
TWOS = {
    "classic": (True, True),
    "justus-pang": (False, True),
    "kenneth-lo": (True, True),
    "vietcong": (False, True),
    "poker": (False, False),
}


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_twos_at_the_top_of_sequences(rules: BaseRules) -> None:
    """RULES §10 (§2.2, §3.1, §4.2, §5.1, §6.2): whether a 2 may top a straight or consecutive pairs."""
    in_straights, in_pairs = TWOS[rules.name]
    for text in (
        "Kd Ac 2d",
        "Jd Qh Kh Ac 2d",
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s",
    ):
        assert in_straights == (classify(text, rules=rules) is not None), text
    for text in ("Ks Kc As Ac 2s 2c", "Qs Qc Ks Kc As Ac 2s 2c"):
        assert in_pairs == (classify(text, rules=rules) is not None), text
    straight = Shape.of(ComboKind.STRAIGHT, 5)
    run = Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3)
    assert (Rank.TWO if in_straights else Rank.ACE) == rules.max_top_rank(straight)
    assert (Rank.TWO if in_pairs else Rank.ACE) == rules.max_top_rank(run)
    # Without the 2 the same runs are fine everywhere.
    assert classify("Td Jd Qh Kh Ac", rules=rules) is not None
    assert classify("Qs Qc Ks Kc As Ac", rules=rules) is not None


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_twos_stay_top_singles_pairs_and_triples(rules: BaseRules) -> None:
    """RULES §1.1: a 2 is the highest rank: a 2 beats an ace in any variant."""
    assert beats("2s", "Ah", rules=rules)
    assert beats("2s 2c", "As Ah", rules=rules)
    assert beats("2s 2c 2d", "As Ac Ah", rules=rules)
    assert beats("2s 2c 2d 2h", "As Ac Ad Ah", rules=rules)


# -- §6.2 Poker consecutive pairs -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("3s 3c 4s 4c 5s 5c", True),
        ("3s 3c 4s 4c 5s 5c 6s 6c", True),
        ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", False),
        ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c", False),
        ("Qs Qc Ks Kc As Ac", True),
        ("Ks Kc As Ac 2s 2c", False),
        ("Js Jc Qs Qc Ks Kc As Ac", True),
        ("Qs Qc Ks Kc As Ac 2s 2c", False),
    ],
)
def test_poker_consecutive_pairs(text: str, valid: bool) -> None:
    """RULES §6.2: Poker consecutive pairs have 3 or 4 pairs and no 2s."""
    assert valid == (classify(text, rules=POKER) is not None)


def test_poker_five_pairs_are_not_led() -> None:
    """RULES §6.2: a hand of 5 consecutive pairs leads only their 3- and 4-pair runs."""
    plays = legal_plays("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", rules=POKER)
    runs = [play for play in plays if play.kind is ComboKind.CONSECUTIVE_PAIRS]
    assert sorted(len(run) for run in runs) == [6, 6, 6, 8, 8]


# -- §5.2 Vietcong consecutive quads -------------------------------------------------------

Q2_LOW = "7s 7c 7d 7h 8s 8c 8d 8h"
Q2_HIGH = "9s 9c 9d 9h Ts Tc Td Th"
Q3 = "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h"


def test_vietcong_consecutive_quads_classify() -> None:
    """RULES §1.2, §5.2: 2 or 3 consecutive four-of-a-kinds are consecutive quads (Vietcong only)."""
    for text, length in ((Q2_LOW, 2), (Q3, 3)):
        combo = _combo(text, VIETCONG)
        assert combo.kind == ComboKind.CONSECUTIVE_QUADS
        assert Shape.of(ComboKind.CONSECUTIVE_QUADS, length) == combo.shape
    four_quads = "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h"
    assert classify(four_quads, rules=VIETCONG) is None
    assert (
        classify("7s 7c 7d 7h 9s 9c 9d 9h", rules=VIETCONG) is None
    )  # not consecutive
    for rules in PRESETS:
        if rules is not VIETCONG:
            assert classify(Q2_LOW, rules=rules) is None, rules.name
            assert classify(Q3, rules=rules) is None, rules.name


def test_vietcong_consecutive_quads_cannot_be_led() -> None:
    """RULES §5.2, D-13: consecutive quads exist only as slams; they are never a lead."""
    assert not VIETCONG.is_leadable(ComboKind.CONSECUTIVE_QUADS)
    for hand in (Q2_LOW, Q3, Q2_LOW + " " + Q2_HIGH):
        leads = legal_plays(hand, rules=VIETCONG)
        assert leads
        assert all(play.kind is not ComboKind.CONSECUTIVE_QUADS for play in leads)
        assert any(play.kind is ComboKind.FOUR_OF_A_KIND for play in leads)


@pytest.mark.parametrize(
    ("top", "play", "legal"),
    [
        ("2d 2h", Q2_LOW, True),
        ("2s 2c 2d", Q2_LOW, False),
        ("2h", Q2_LOW, False),
        ("2s 2c 2d", Q3, True),
        ("2d 2h", Q3, False),
        ("2h", Q3, False),
        (Q2_LOW, Q2_HIGH, True),
        (Q2_HIGH, Q2_LOW, False),
        (Q2_LOW, Q3, False),
        (Q3, Q2_HIGH, False),
        ("3s 3c 4s 4c 5s 5c", Q2_HIGH, False),
        ("9s 9c 9d 9h", Q2_LOW, False),
        ("As Ah", Q2_LOW, False),
        ("As Ac Ah", Q3, False),
    ],
)
def test_vietcong_consecutive_quads_slams(top: str, play: str, legal: bool) -> None:
    """RULES §5.2, D-13: quads beat only a pair (2 quads) or triple (3 quads) of 2s, or lower quads."""
    assert legal == beats(play, top, rules=VIETCONG)
    combo = _combo(play, VIETCONG)
    assert legal == (combo in legal_plays(Hand.parse(play), top, rules=VIETCONG))


def test_vietcong_seven_pairs_beat_three_twos() -> None:
    """RULES §5.2: 7 consecutive pairs (a 17-card deal) beat three 2s; 6 do not."""
    seven = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9s 9c"
    six = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"
    assert beats(seven, "2s 2c 2d", rules=VIETCONG)
    assert not beats(six, "2s 2c 2d", rules=VIETCONG)
    assert not beats(seven, "2s 2c", rules=VIETCONG)


def test_quads_are_foreign_to_other_variants() -> None:
    """RULES §1.2: outside Vietcong consecutive quads are no combination, so beats refuses them."""
    quads_combo = _combo(Q2_LOW, VIETCONG)
    with pytest.raises(InvalidComboError, match="is not a combination under classic"):
        beats(quads_combo, "2d 2h", rules=CLASSIC)
    with pytest.raises(InvalidComboError, match="is not a combination under poker"):
        POKER.beats(_combo("2d 2h", POKER), quads_combo)
