"""The presets' settings (RULES §10), `get_rules`, house rules and rejected settings (§11)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from tests.strategies import PRESETS
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Bomb,
    ComboKind,
    Direction,
    FirstLead,
    GameEnd,
    InstantWin,
    InvalidCardError,
    InvalidComboError,
    InvalidRulesError,
    Rank,
    Scoring,
    Shape,
    TienLenError,
    UnknownVariantError,
    beats,
    classify,
    get_rules,
    legal_plays,
)
from tienlen.rules import two_decks

SINGLE = Shape.of(ComboKind.SINGLE)
PAIR = Shape.of(ComboKind.PAIR)
FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)
STANDARD_KINDS = frozenset(ComboKind) - {
    ComboKind.CONSECUTIVE_QUADS,
    ComboKind.CONSECUTIVE_TRIPLES,
    ComboKind.FIVE_OF_A_KIND,
}
IDS = [rules.name for rules in PRESETS]
POKER_WINS = frozenset(
    {
        InstantWin.FOUR_TWOS,
        InstantWin.SIX_PAIRS,
        InstantWin.FIVE_CONSECUTIVE_PAIRS,
        InstantWin.THIRTEEN_RANKS,
    }
)
"""The instant wins of RULES §6.7 (the §12.5 ones are house rules)."""


def pairs(count: int) -> Shape:
    """The shape of *count* consecutive pairs."""
    return Shape.of(ComboKind.CONSECUTIVE_PAIRS, count)


# -- names -------------------------------------------------------------------------------


def test_rulesets_registry() -> None:
    """RULES intro: five variants, by canonical name, in the order of RULES.md."""
    assert list(RULESETS) == [
        "classic",
        "justus-pang",
        "kenneth-lo",
        "vietcong",
        "poker",
    ]
    assert list(RULESETS.values()) == [
        CLASSIC,
        JUSTUS_PANG,
        KENNETH_LO,
        VIETCONG,
        POKER,
    ]
    assert all(name == rules.name for name, rules in RULESETS.items())
    with pytest.raises(TypeError):
        RULESETS["house"] = CLASSIC  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("classic", CLASSIC),
        ("CLASSIC", CLASSIC),
        ("  Classic ", CLASSIC),
        ("justus-pang", JUSTUS_PANG),
        ("Justus Pang", JUSTUS_PANG),
        ("JUSTUS_PANG", JUSTUS_PANG),
        ("kenneth-lo", KENNETH_LO),
        ("Kenneth Lu", KENNETH_LO),
        ("vietcong", VIETCONG),
        ("Viet Cong", VIETCONG),
        ("VC", VIETCONG),
        ("poker", POKER),
        ("Tien Len Poker", POKER),
    ],
)
def test_get_rules_names_and_aliases(name: str, rules: BaseRules) -> None:
    """RULES intro: variants are found by id or alias, ignoring case, spaces and underscores."""
    assert get_rules(name) is rules


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_every_alias_resolves(rules: BaseRules) -> None:
    """RULES intro: every registered name and alias leads back to its own preset."""
    for name in (rules.name, *rules.aliases):
        assert get_rules(name) is rules
        assert get_rules(name.upper()) is rules


def test_aliases_are_unambiguous() -> None:
    """RULES intro: no name or alias belongs to two variants."""
    names = [name for rules in PRESETS for name in (rules.name, *rules.aliases)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", ["", "x", "classic2", "tien len miền bắc"])
def test_unknown_variant(name: str) -> None:
    """STYLE R36: an unknown name raises UnknownVariantError listing the known ones."""
    with pytest.raises(UnknownVariantError) as info:
        get_rules(name)
    expected = f"unknown variant: {name!r} (known: classic, justus-pang, kenneth-lo, vietcong, poker, classic-two-decks)"
    assert str(info.value) == expected


@pytest.mark.parametrize(
    "error",
    [InvalidCardError, InvalidComboError, InvalidRulesError, UnknownVariantError],
)
def test_errors_subclass_tienlen_error_and_value_error(error: type[Exception]) -> None:
    """STYLE R36: every input error derives from TienLenError and ValueError."""
    assert issubclass(error, TienLenError)
    assert issubclass(error, ValueError)
    assert issubclass(TienLenError, Exception)


# -- RULES §10 ----------------------------------------------------------------------------

# name: (direction, min/max players, decks, 2 tops straight, 2-2 tops pairs,
#        min/max pairs, kinds, first lead, may decline, continuation, game end, scoring,
#        instant wins)
SUMMARY = {
    "classic": (
        Direction.CLOCKWISE, (2, 4), 1, True, True, (3, 13), STANDARD_KINDS,
        FirstLead.FIRST_GAME, False, False, GameEnd.LAST_HOLDER,
        Scoring.LOSER_PAYS_EACH, frozenset(),
    ),
    "justus-pang": (
        Direction.CLOCKWISE, (2, 4), 1, False, True, (3, 13), STANDARD_KINDS,
        FirstLead.FIRST_GAME, True, True, GameEnd.LAST_HOLDER,
        Scoring.LOSER_PAYS_EACH, frozenset(),
    ),
    "kenneth-lo": (
        Direction.CLOCKWISE, (2, 4), 1, True, True, (3, 13), STANDARD_KINDS,
        FirstLead.FIRST_GAME, False, False, GameEnd.FIRST_OUT,
        Scoring.EACH_PAYS_WINNER, frozenset(),
    ),
    "vietcong": (
        Direction.CLOCKWISE, (2, 4), 1, False, True, (3, 13), STANDARD_KINDS | {ComboKind.CONSECUTIVE_QUADS},
        FirstLead.EVERY_GAME, False, False, GameEnd.LAST_HOLDER,
        Scoring.LOSER_PAYS_EACH, frozenset({InstantWin.FOUR_TWOS}),
    ),
    "poker": (
        Direction.COUNTERCLOCKWISE, (2, 4), 1, False, False, (3, 4), STANDARD_KINDS,
        FirstLead.FIRST_GAME_AND_AFTER_INSTANT_WIN, False, False, GameEnd.LAST_HOLDER,
        Scoring.POKER_POINTS, POKER_WINS,
    ),
}  # fmt: skip


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_preset_matches_summary_table(rules: BaseRules) -> None:
    """RULES §10: each preset's settings are the row of the summary table (one deck; 5+: `two_decks`)."""
    (
        direction, players, decks, twos_straight, twos_pairs, pair_limits, kinds,
        first_lead, may_decline, continuation, game_end, scoring, instant_wins,
    ) = SUMMARY[rules.name]  # fmt: skip
    assert direction is rules.direction
    assert players == (rules.min_players, rules.max_players)
    assert decks == rules.decks
    assert twos_straight is rules.twos_in_straights
    assert twos_pairs is rules.twos_in_consecutive_pairs
    assert pair_limits == (rules.min_consecutive_pairs, rules.max_consecutive_pairs)
    assert kinds == rules.kinds
    assert first_lead is rules.first_lead
    assert may_decline is rules.may_decline_first_lead
    assert continuation is rules.continuation
    assert game_end is rules.game_end
    assert scoring is rules.scoring
    assert instant_wins == rules.instant_wins


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_jump_in_only_in_poker(rules: BaseRules) -> None:
    """RULES §10, §6.4, D-15: only Poker lets a passed player play, with 4 consecutive pairs."""
    expected = frozenset({pairs(4)}) if rules is POKER else frozenset()
    assert expected == rules.jump_in


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_bomb_chain_only_in_poker(rules: BaseRules) -> None:
    """RULES §10, §6.3: only Poker's bombs beat other bomb kinds: 3 pairs < four < 4 pairs."""
    expected = (pairs(3), FOUR, pairs(4)) if rules is POKER else ()
    assert expected == rules.bomb_chain


@pytest.mark.parametrize(
    ("rules", "players", "deal"),
    [
        (CLASSIC, 2, (1, 13)),
        (CLASSIC, 3, (1, 13)),
        (CLASSIC, 4, (1, 13)),
        (CLASSIC_TWO_DECKS, 5, (2, 13)),
        (CLASSIC_TWO_DECKS, 8, (2, 13)),
        (two_decks(JUSTUS_PANG), 6, (2, 13)),
        (attrs.evolve(CLASSIC_TWO_DECKS, two_deck_hand_size=None), 6, (2, 17)),
        (KENNETH_LO, 3, (1, 17)),
        (KENNETH_LO, 4, (1, 13)),
        (VIETCONG, 4, (1, 13)),
        (POKER, 2, (1, 13)),
        (POKER, 4, (1, 13)),
    ],
)
def test_deal_sizes(rules: BaseRules, players: int, deal: tuple[int, int]) -> None:
    """RULES §2.1, §4.1, §6.1: decks and cards per player for each table size."""
    assert deal == rules.deal_size(players)


@pytest.mark.parametrize(
    ("rules", "players"),
    [(CLASSIC, 1), (CLASSIC, 9), (VIETCONG, 0), (POKER, 1)],
)
def test_deal_size_rejects_table_sizes(rules: BaseRules, players: int) -> None:
    """RULES §10: every preset seats 2–4 on one deck; nine or one player never."""
    with pytest.raises(
        InvalidRulesError,
        match=rf"^{rules.name} is played by 2-4 players, not {players}$",
    ):
        rules.deal_size(players)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
@pytest.mark.parametrize("players", [5, 8])
def test_deal_size_of_five_to_eight_says_how_to_get_two_decks(
    rules: BaseRules, players: int
) -> None:
    """RULES §2.1, issue 13 §5: five to eight on a one-deck preset: the error names two decks."""
    with pytest.raises(InvalidRulesError) as info:
        rules.deal_size(players)
    assert str(info.value) == (
        f"{rules.name} is played by 2-4 players, not {players}: five to eight play with "
        "two decks (CLASSIC_TWO_DECKS, or attrs.evolve(rules, decks=2, min_players=5, max_players=8))"
    )


def test_two_deck_table_refuses_two_to_four() -> None:
    """RULES §1.1, §2.1: two decks seat five to eight; fewer play one deck."""
    with pytest.raises(
        InvalidRulesError, match=r"^classic-two-decks is played by 5-8 players, not 4$"
    ):
        CLASSIC_TWO_DECKS.deal_size(4)


def test_kenneth_lo_spare_card() -> None:
    """RULES §4.1, D-8: Kenneth Lo deals 17 each to three players; the spare goes to the starter."""
    assert KENNETH_LO.spare_card_to_starter
    assert KENNETH_LO.three_player_hand_size == 17
    for rules in (CLASSIC, JUSTUS_PANG, VIETCONG, POKER):
        assert not rules.spare_card_to_starter


def test_poker_points_settings() -> None:
    """RULES §6.6, §6.7: place points 4/2/1/0, 2s by suit 1–4, bombs 4/6/8, cóng 4, instant win 12."""
    assert POKER.place_points == (4, 2, 1, 0)
    assert POKER.two_values == (1, 2, 3, 4)
    assert dict(POKER.bomb_values) == {pairs(3): 4, FOUR: 6, pairs(4): 8}
    assert POKER.frozen_penalty == 4
    assert POKER.instant_win_points == 12
    assert POKER.short_table_last_place_zero


# -- identity, house rules ---------------------------------------------------------------


def test_presets_are_hashable_and_distinct() -> None:
    """RULES §11: rule sets are immutable values: hashable, equal to themselves, all different."""
    assert len({hash(rules) for rules in PRESETS}) == 5
    assert len(set(PRESETS)) == 5
    for rules in PRESETS:
        assert attrs.evolve(rules) == rules
        assert hash(attrs.evolve(rules)) == hash(rules)
        assert attrs.evolve(rules, aliases=()) == rules  # aliases are not a rule
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            rules.name = "changed"  # type: ignore[misc]


def test_house_rule_without_twos_in_straights() -> None:
    """RULES §11: a house rule is a changed setting: classic without 2s in straights."""
    house = attrs.evolve(CLASSIC, name="no-2s", twos_in_straights=False)
    assert classify("Jd Qh Kh Ac 2d", rules=house) is None
    assert classify("Jd Qh Kh Ac 2d", rules=CLASSIC) is not None
    assert house != CLASSIC


def test_house_rule_longer_poker_pairs() -> None:
    """RULES §11: Poker with up to 5 consecutive pairs accepts them; the preset is unchanged."""
    five = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c"
    house = attrs.evolve(POKER, name="poker-5", max_consecutive_pairs=5)
    assert classify(five, rules=house) is not None
    assert classify(five, rules=POKER) is None


def test_house_rule_bombs_and_direction() -> None:
    """RULES §11: a table may add a bomb row (4 pairs on a single 2) and play anticlockwise."""
    house = attrs.evolve(
        CLASSIC,
        name="house",
        direction=Direction.COUNTERCLOCKWISE,
        bombs=CLASSIC.bombs
        | {Bomb(bomb=pairs(4), target=SINGLE, target_rank=Rank.TWO)},
    )
    four_pairs = "5s 5c 6s 6c 7s 7c 8s 8c"
    assert beats(four_pairs, "2s", rules=house)
    assert not beats(four_pairs, "2s", rules=CLASSIC)
    assert house.direction is Direction.COUNTERCLOCKWISE


def test_house_rule_vietcong_with_two_decks() -> None:
    """RULES §11: Vietcong seated five to eight plays with two decks, so duplicates become legal."""
    house = attrs.evolve(VIETCONG, name="big-vc", decks=2, min_players=5, max_players=8)
    assert house == attrs.evolve(two_decks(VIETCONG), name="big-vc")
    assert house.deal_size(8) == (2, 13)
    assert classify("7h 7h", rules=house) is not None
    with pytest.raises(InvalidCardError):
        classify("7h 7h", rules=VIETCONG)


def test_bomb_text() -> None:
    """RULES §2.3: a bomb-table row reads as 'shape beats target rank'."""
    assert (
        str(Bomb(bomb=FOUR, target=SINGLE, target_rank=Rank.TWO))
        == "four of a kind beats single 2"
    )
    assert str(Bomb(bomb=pairs(4), target=PAIR)) == "4 consecutive pairs beats pair"


# -- contradictory settings (RULES §11) -------------------------------------------------------

REJECTED: list[tuple[str, Callable[[], object], str]] = [
    (
        "min-above-max-pairs",
        lambda: attrs.evolve(CLASSIC, min_consecutive_pairs=5, max_consecutive_pairs=4),
        "consecutive pairs need 3 <= min_consecutive_pairs (5) <= max_consecutive_pairs (4) <= 13",
    ),
    (
        "min-pairs-below-3",
        lambda: attrs.evolve(CLASSIC, min_consecutive_pairs=2),
        "consecutive pairs need 3 <= min_consecutive_pairs (2)",
    ),
    (
        "bomb-over-non-combination",
        lambda: attrs.evolve(
            POKER, bombs=POKER.bombs | {Bomb(bomb=pairs(5), target=PAIR)}
        ),
        "bomb table uses 5 consecutive pairs, which is not a combination",
    ),
    (
        "bomb-shape-removed",
        lambda: attrs.evolve(CLASSIC, min_consecutive_pairs=4),
        "bomb table uses 3 consecutive pairs, which is not a combination",
    ),
    (
        "bomb-kind-missing",
        lambda: attrs.evolve(
            CLASSIC, kinds=STANDARD_KINDS - {ComboKind.FOUR_OF_A_KIND}
        ),
        "bomb table uses four of a kind, which is not a combination",
    ),
    (
        "spare-card-without-17",
        lambda: attrs.evolve(CLASSIC, spare_card_to_starter=True),
        "spare_card_to_starter needs three_player_hand_size = 17",
    ),
    (
        "chain-repeats-a-shape",
        lambda: attrs.evolve(CLASSIC, bomb_chain=(FOUR, FOUR)),
        "bomb chain lists a shape twice",
    ),
    (
        "chain-non-combination",
        lambda: attrs.evolve(POKER, bomb_chain=(pairs(3), pairs(5))),
        "bomb chain uses 5 consecutive pairs, which is not a combination",
    ),
    (
        "jump-in-non-combination",
        lambda: attrs.evolve(
            CLASSIC, jump_in=[Shape.of(ComboKind.CONSECUTIVE_QUADS, 2)]
        ),
        "jump-in shape 2 consecutive quads is not a combination",
    ),
    (
        "no-singles",
        lambda: attrs.evolve(CLASSIC, kinds={ComboKind.PAIR}),
        "singles must exist",
    ),
    (
        "too-many-players",
        lambda: attrs.evolve(CLASSIC, max_players=9),
        "players must satisfy 2 <= min_players (2) <= max_players (9) <= 8",
    ),
    (
        "min-above-max-players",
        lambda: attrs.evolve(POKER, min_players=5),
        "players must satisfy 2 <= min_players (5) <= max_players (4) <= 8",
    ),
    (
        "poker-points-for-8",
        lambda: two_decks(POKER),
        "place_points needs a value for each of 8 places",
    ),
    (
        "two-values-per-suit",
        lambda: attrs.evolve(POKER, two_values=(1, 2, 3)),
        "two_values must be a tuple of 4",
    ),
    (
        "hand-size",
        lambda: attrs.evolve(CLASSIC, hand_size=14),
        "hand_size must be 1-13, got 14",
    ),
    ("empty-name", lambda: attrs.evolve(CLASSIC, name=""), "the name is empty"),
]


@pytest.mark.parametrize(
    ("build", "message"),
    [pytest.param(build, message, id=case) for case, build, message in REJECTED],
)
def test_contradictory_settings_are_rejected(
    build: Callable[[], object], message: str
) -> None:
    """RULES §11: settings that contradict each other raise InvalidRulesError with a clear message."""
    with pytest.raises(InvalidRulesError) as info:
        build()
    assert message in str(info.value)
    assert str(info.value).startswith("invalid rule set ")


def test_bomb_row_cannot_target_its_own_shape() -> None:
    """RULES §1.3: same shapes compare by top card, so a bomb row onto its own shape is rejected."""
    with pytest.raises(InvalidRulesError, match="a bomb cannot target its own shape"):
        Bomb(bomb=FOUR, target=FOUR)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_one_deck_variants_reject_duplicates(rules: BaseRules) -> None:
    """RULES §1.1, §10, issue 13: every preset uses one deck, so a repeated card is an error."""
    message = f"duplicate card '7h' in '7h 7h': {rules.name} is played with one deck"
    with pytest.raises(InvalidCardError) as info:
        classify("7h 7h", rules=rules)
    assert str(info.value) == message
    with pytest.raises(InvalidCardError) as info:
        legal_plays("7h 7h", rules=rules)
    assert str(info.value) == message
    with pytest.raises(InvalidCardError):
        beats("8h", "7h 7h", rules=rules)
    two_deck_pair = classify("7h 7h", rules=CLASSIC_TWO_DECKS)
    assert two_deck_pair is not None
    with pytest.raises(InvalidCardError):
        rules.beats(two_deck_pair, two_deck_pair)


@pytest.mark.parametrize(
    "rules",
    [two_decks(rules) for rules in (CLASSIC, JUSTUS_PANG, KENNETH_LO)],
    ids=["classic", "justus-pang", "kenneth-lo"],
)
def test_two_deck_variants_accept_two_copies_not_three(rules: BaseRules) -> None:
    """RULES §2.1, §10: classic-like variants seat 5–8 on two decks: two copies of a card, never three."""
    assert classify("7h 7h", rules=rules) is not None
    with pytest.raises(InvalidCardError, match="more than two copies of '7h'"):
        classify("7h 7h 7h", rules=rules)


@pytest.mark.parametrize(
    ("rules", "shape"),
    [
        pytest.param(
            JUSTUS_PANG, Shape.of(ComboKind.STRAIGHT, 13), id="justus-pang-straight"
        ),
        pytest.param(
            VIETCONG, Shape.of(ComboKind.STRAIGHT, 13), id="vietcong-straight"
        ),
        pytest.param(POKER, Shape.of(ComboKind.STRAIGHT, 13), id="poker-straight"),
        pytest.param(
            attrs.evolve(CLASSIC, name="no-2-2", twos_in_consecutive_pairs=False),
            pairs(13),
            id="no-2-2-pairs",
        ),
    ],
)
def test_thirteen_rank_runs_need_a_two(rules: BaseRules, shape: Shape) -> None:
    """RULES §1.4, §3.1, §11: without 2s a run spans at most 3…A (12 ranks), so 13 is no combination.

    `max_top_rank` must say so, and a bomb table naming that shape is a contradiction.
    """
    assert rules.max_top_rank(shape) is None
    row = Bomb(bomb=shape, target=SINGLE, target_rank=Rank.TWO)
    with pytest.raises(InvalidRulesError, match="which is not a combination"):
        attrs.evolve(rules, bombs=rules.bombs | {row})
