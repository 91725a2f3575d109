"""Five of a kind on two decks (RULES §12.14): a kind that is one row of the kind table.

Classification, `beats`, `legal_plays` against a brute-force enumeration of
sub-multisets, whole games where `legal_actions()` is what `is_legal` accepts, the
messages in both languages, the setting's validation, and the presets unchanged.
"""

from __future__ import annotations

import itertools
import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import all_candidate_actions, sub_multisets
from tests.strategies import PRESETS
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    BaseRules,
    Bomb,
    Combo,
    ComboKind,
    GameState,
    Hand,
    InvalidRulesError,
    Play,
    Rank,
    Shape,
    classify,
    rule_section,
)
from tienlen.cards import DECK
from tienlen.engine.kinds import KINDS
from tienlen.engine.movegen import SUBSETS
from tienlen.engine.shapes import structural_key
from tienlen.explain import explain_beats, why_not_combination
from tienlen.messages import CATALOGUE, kind_name, shape_name
from tienlen.records import rules_to_json

FIVE = Shape.of(ComboKind.FIVE_OF_A_KIND)
FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)
PLAIN = attrs.evolve(
    CLASSIC_TWO_DECKS,
    name="five-of-a-kind",
    aliases=(),
    kinds=CLASSIC_TWO_DECKS.kinds | {ComboKind.FIVE_OF_A_KIND},
)
"""Classic on two decks with five of a kind, compared only with five of a kind."""
AS_BOMB = attrs.evolve(
    PLAIN,
    name="five-of-a-kind-bomb",
    bombs=PLAIN.bombs
    | {Bomb(bomb=FIVE, target=FOUR)}
    | {
        Bomb(bomb=FIVE, target=row.target, target_rank=row.target_rank)
        for row in PLAIN.bombs
        if row.bomb == FOUR
    },
)
"""The same, five of a kind a bomb above a four of a kind (docs/house-rules.md §12.14)."""
TABLES = (PLAIN, AS_BOMB)


def _of(text: str, rules: BaseRules = PLAIN) -> Combo:
    combo = classify(text, rules)
    assert combo is not None, text
    return combo


# -- the row and the setting ----------------------------------------------------------


def test_the_row_says_everything_about_the_kind() -> None:
    """One row: five cards of one rank, two decks, its words, its section (RULES §12.14)."""
    row = KINDS[ComboKind.FIVE_OF_A_KIND.value]
    assert (row.name, row.per_rank, row.sequence, row.decks) == (
        "FIVE_OF_A_KIND",
        5,
        False,
        2,
    )
    assert rule_section(row.section).number == "12.14"
    assert CATALOGUE["kind.FIVE_OF_A_KIND"] == {
        "en": "five of a kind",
        "vi": "ngũ quý",
    }
    assert CATALOGUE["words.FIVE_OF_A_KIND"] == {
        "en": "five {rank}s",
        "vi": "ngũ quý {rank}",
    }


ONE_DECK = attrs.evolve(CLASSIC, name="every-kind", kinds=frozenset(ComboKind))
"""Classic on one deck listing every kind: five of a kind never forms (RULES §12.14)."""
WITHOUT = attrs.evolve(ONE_DECK, kinds=ONE_DECK.kinds - {ComboKind.FIVE_OF_A_KIND})
"""The same rule set without five of a kind."""


def test_one_deck_takes_the_kind_and_never_forms_it() -> None:
    """One deck holds four of a rank: a rule set listing the kind is valid, the kind inert.

    `kinds=frozenset(ComboKind)` ("every kind") stays a valid one-deck rule set; the
    kind is no combination there and cannot be led, as if it were not listed.
    """
    assert ComboKind.FIVE_OF_A_KIND in ONE_DECK.kinds
    assert ONE_DECK.max_top_rank(FIVE) is None
    assert not ONE_DECK.is_leadable(ComboKind.FIVE_OF_A_KIND)
    assert PLAIN.max_top_rank(FIVE) is Rank.TWO
    assert PLAIN.is_leadable(ComboKind.FIVE_OF_A_KIND)
    for shape in (FIVE, FOUR, Shape.of(ComboKind.CONSECUTIVE_TRIPLES, 3)):
        assert ONE_DECK.max_top_rank(shape) == WITHOUT.max_top_rank(shape)
    with pytest.raises(
        InvalidRulesError, match="five of a kind, which is not a combination"
    ):
        attrs.evolve(ONE_DECK, bombs=ONE_DECK.bombs | {Bomb(bomb=FIVE, target=FOUR)})


def _random_game(rules: BaseRules, players: int, seed: int) -> list[GameState]:
    """Every state of a game dealt and played at random from *seed*."""
    rng = random.Random(seed)
    state = GameState.deal(rules, players, rng)
    states = [state]
    while not state.is_over:
        masks = state.legal_actions().masks
        state = state.apply_mask(masks[rng.randrange(len(masks))])
        states.append(state)
    return states


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_one_deck_plays_as_without_the_kind(seed: int, players: int) -> None:
    """Whole games from one seed: the same deal, the same legal actions, the same end."""
    games = [_random_game(rules, players, seed) for rules in (ONE_DECK, WITHOUT)]
    listing, without = games
    assert len(listing) == len(without)
    for state, other in zip(listing, without, strict=True):
        assert list(state.legal_actions().masks) == list(other.legal_actions().masks)
        assert state.hand_masks == other.hand_masks
        assert state.to_act == other.to_act
    assert listing[-1].history == without[-1].history
    assert listing[-1].result == without[-1].result


def test_one_deck_with_the_kind_records_and_notates() -> None:
    """Its games save and load as records and as notation, the kind kept in the rules."""
    from tienlen.notation import read, write  # noqa: PLC0415
    from tienlen.records import dumps, loads, record, rules_from_json  # noqa: PLC0415

    assert rules_from_json(rules_to_json(ONE_DECK)) == ONE_DECK
    assert "five_of_a_kind" in str(rules_to_json(ONE_DECK))
    assert pickle.loads(pickle.dumps(ONE_DECK)) == ONE_DECK  # noqa: S301  # our own bytes
    states = _random_game(ONE_DECK, 4, 2026)
    loaded = loads(dumps(record(states[-1], seed=2026)))
    assert loaded.rules == ONE_DECK
    assert loaded.final == states[-1]
    for state in states[:: max(1, len(states) // 5)]:
        again = read(write(state))
        assert again == state
        assert again.rules == ONE_DECK


def test_the_rl_observations_take_it_on_one_deck() -> None:
    """`tienlen.rl` refuses only a table that forms the kind: one deck never does."""
    pytest.importorskip("numpy")
    from tienlen.rl.observation import rule_features  # noqa: PLC0415

    assert list(rule_features(ONE_DECK)) == list(rule_features(WITHOUT))


@pytest.mark.parametrize("preset", [*PRESETS, CLASSIC_TWO_DECKS], ids=str)
def test_no_preset_plays_it(preset: BaseRules) -> None:
    """The presets and `CLASSIC_TWO_DECKS` are unchanged: none lists five of a kind."""
    assert ComboKind.FIVE_OF_A_KIND not in preset.kinds
    assert "FIVE" not in str(rules_to_json(preset))


def test_the_rl_observations_refuse_it() -> None:
    """The observations' layout has no five of a kind: RL refuses the table, clearly."""
    pytest.importorskip("numpy")
    from tienlen.errors import InvalidArgumentError  # noqa: PLC0415
    from tienlen.rl.observation import rule_features  # noqa: PLC0415

    with pytest.raises(InvalidArgumentError, match="five of a kind"):
        rule_features(PLAIN)
    assert len(rule_features(CLASSIC_TWO_DECKS)) == len(rule_features(CLASSIC))


def test_the_table_round_trips() -> None:
    """The house table saves, loads and pickles with its kind."""
    from tienlen.records import rules_from_json  # noqa: PLC0415

    for table in TABLES:
        assert rules_from_json(rules_to_json(table)) == table
        assert pickle.loads(pickle.dumps(table)) == table  # noqa: S301  # our own bytes


# -- classification -------------------------------------------------------------------


def test_five_cards_of_a_rank_classify() -> None:
    """Five of one rank, whatever the copies, is five of a kind; its top is the highest card."""
    combo = classify("7h 7s 7s 7c 7d", PLAIN)
    assert combo is not None
    assert combo.kind is ComboKind.FIVE_OF_A_KIND
    assert combo.shape == FIVE
    assert combo.top == DECK[4 * Rank.SEVEN.value + 3]
    assert str(combo) == "7s 7s 7c 7d 7h"
    assert classify("7s 7s 7c 7d 7h", CLASSIC_TWO_DECKS) is None


@pytest.mark.parametrize("count", [6, 7, 8])
def test_more_than_five_of_a_rank_is_no_combination(count: int) -> None:
    """Six to eight cards of a rank form no kind: the structure has no row."""
    cards = " ".join(["9s", "9s", "9c", "9c", "9d", "9d", "9h", "9h"][:count])
    assert classify(cards, PLAIN) is None
    why = why_not_combination(cards, PLAIN)
    assert why is not None
    assert why.message() == "No combination has more than 5 cards of one rank."
    assert why.message("vi") == "Không có bộ bài nào gồm hơn 5 lá giống nhau."


def test_rank_subsets_are_every_sub_multiset_up_to_eight() -> None:
    """The generator's per-rank table: each state's k-card pieces, k = 1…8, each once."""
    for state in range(256):
        lo, hi = state & 15, state >> 4
        if hi & ~lo:  # a second copy without a first: no hand has it
            continue
        copies = [(lo >> suit & 1) + (hi >> suit & 1) for suit in range(4)]
        for size in range(1, 9):
            expected = sorted(
                sum(1 << suit for suit, n in enumerate(counts) if n)
                | sum(1 << suit for suit, n in enumerate(counts) if n == 2) << 52
                for counts in itertools.product(*(range(n + 1) for n in copies))
                if sum(counts) == size
            )
            assert sorted(SUBSETS[0][state][size]) == expected


def test_structural_keys_of_five_to_eight() -> None:
    """The structure of n cards of a rank: five of a kind for five, none for six to eight."""
    for rank in range(13):
        for state in range(256):
            for size in range(5, 9):
                for piece in SUBSETS[rank][state][size]:
                    key = structural_key(piece)
                    if size == 5:
                        assert key >> 6 == FIVE.code
                        assert (key & 63) >> 2 == rank
                    else:
                        assert key == 0


# -- beats ----------------------------------------------------------------------------


def test_a_higher_five_beats_a_lower_one() -> None:
    """RULES §1.3: same shape, higher top card; equal copies beat neither way."""
    low, high = _of("7s 7s 7c 7d 7h"), _of("8s 8s 8c 8d 8h")
    same = _of("7s 7c 7c 7d 7h")
    for table in TABLES:
        assert table.beats(high, low)
        assert not table.beats(low, high)
        assert not table.beats(same, low)
        assert not table.beats(low, same)
    suit = _of("7s 7s 7c 7d 7d")
    assert PLAIN.beats(low, suit)  # 7♥ on top beats 7♦ on top


def test_without_bomb_rows_it_beats_no_other_shape() -> None:
    """By default five of a kind is compared only with five of a kind (RULES §1.3)."""
    five, four, two = _of("8s 8s 8c 8d 8h"), _of("As Ac Ad Ah"), _of("2h")
    assert not PLAIN.beats(five, four)
    assert not PLAIN.beats(five, two)
    assert not PLAIN.beats(four, five)
    assert PLAIN.beats(four, two)  # the four keeps its bomb row


def test_as_a_bomb_it_beats_the_four_and_what_the_four_beats() -> None:
    """The bomb-table recipe: above a four of a kind, onto a single 2; nothing beats it across."""
    five, four, two = _of("3s 3s 3c 3d 3h"), _of("As Ac Ad Ah"), _of("2h")
    assert AS_BOMB.beats(five, four)
    assert AS_BOMB.beats(five, two)
    assert not AS_BOMB.beats(four, five)
    assert AS_BOMB.is_bomb(FIVE)
    assert {str(shape) for shape in AS_BOMB.bombs_against(five)} == set()
    pairs = _of("3s 3c 4s 4c 5s 5c 6s 6c")
    assert not AS_BOMB.beats(pairs, five)


def test_explain_names_it_in_both_languages() -> None:
    """The explanation's words come from the row: "five 8s", *ngũ quý 8*."""
    yes = explain_beats("8s 8s 8c 8d 8h", "7s 7s 7c 7d 7h", PLAIN)
    assert str(yes) == "yes: the same shape, and 8♥ is higher than 7♥ (RULES §1.3)"
    no = explain_beats("2s", "8s 8s 8c 8d 8h", PLAIN)
    assert no.reason() == (
        "a single cannot beat five 8s: different shapes, and no bomb applies"
    )
    assert (
        no.reason("vi")
        == "lá lẻ không chặn được ngũ quý 8 vì khác loại, và không chặt được"
    )
    bomb = explain_beats("8s 8s 8c 8d 8h", "As Ac Ad Ah", AS_BOMB)
    assert bomb.beats
    assert kind_name(ComboKind.FIVE_OF_A_KIND) == "five of a kind"
    assert kind_name(ComboKind.FIVE_OF_A_KIND, "vi") == "ngũ quý"
    assert shape_name(FIVE, "vi") == "ngũ quý"


def test_a_table_without_it_explains_why() -> None:
    """Classic on two decks still says five of a rank is no combination (RULES §1.2)."""
    why = why_not_combination("7s 7s 7c 7d 7h", CLASSIC_TWO_DECKS)
    assert why is not None
    assert why.message() == "No combination has five or more cards of one rank."
    assert why_not_combination("7s 7s 7c 7d 7h", PLAIN) is None


# -- generation against a brute-force enumeration ---------------------------------------


@st.composite
def crowded_hands(draw: st.DrawFn) -> Hand:
    """Up to eleven cards of two decks from two or three ranks, often five or more of one."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=3, unique=True))
    slots = [4 * rank + suit for rank in ranks for suit in range(4) for _ in range(2)]
    chosen = draw(
        st.lists(st.sampled_from(range(len(slots))), max_size=11, unique=True)
    )
    return Hand.from_cards([DECK[slots[i]] for i in chosen])


def _brute_force(rules: BaseRules, hand: Hand, top: Combo | None) -> set[int]:
    """Every sub-multiset of *hand* that is a combination and may be led or beats *top*."""
    found = set()
    for cards in sub_multisets(hand):
        combo = rules.classify(cards)
        if combo is None:
            continue
        if top is None:
            if rules.is_leadable(combo.kind):
                found.add(combo.mask)
        elif rules.beats(combo, top):
            found.add(combo.mask)
    return found


@settings(max_examples=60, deadline=None)
@given(hand=crowded_hands(), table=st.sampled_from(TABLES), data=st.data())
def test_legal_plays_are_every_combination_of_the_hand(
    hand: Hand, table: BaseRules, data: st.DataObject
) -> None:
    """Leads and answers are the brute-force sub-multisets, each once (up to eight a rank)."""
    tops = [None, _of("5s 5s 5c 5d 5h"), _of("Ts Tc Td Th"), _of("2h"), _of("9d")]
    top = data.draw(st.sampled_from(tops))
    plays = table.legal_plays(hand, top)
    masks = list(plays.masks)
    assert len(masks) == len(set(masks)) == len(plays)
    assert set(masks) == _brute_force(table, hand, top)
    assert [play.mask for play in plays] == masks


def test_a_full_rank_lists_every_five() -> None:
    """Eight cards of a rank hold 4 + 4·3 + 6·… distinct fives: every one, once."""
    hand = Hand.parse("Js Js Jc Jc Jd Jd Jh Jh")
    fives = [
        play
        for play in PLAIN.legal_plays(hand)
        if play.kind is ComboKind.FIVE_OF_A_KIND
    ]
    distinct = {
        Hand.from_cards(cards).mask for cards in itertools.combinations(list(hand), 5)
    }
    assert len(fives) == len(distinct)
    assert {play.mask for play in fives} == distinct


# -- whole games ----------------------------------------------------------------------


def test_a_five_is_played_and_answered_in_a_game() -> None:
    """A five of a kind leads, a higher five answers it, and the lower four may not."""
    hands = [
        Hand.parse("7s 7s 7c 7d 7h 3c"),
        Hand.parse("8s 8s 8c 8d 8h 4c"),
        Hand.parse("As Ac Ad Ah 5c"),
        Hand.parse("9s 9c"),
        Hand.parse("Ts Tc"),
    ]
    state = GameState.from_hands(hands, PLAIN, first_game=False, leader=0)
    five = Hand.parse("7s 7s 7c 7d 7h")
    assert Play(player=0, cards=five) in state.legal_actions()
    state = state.play("7s 7s 7c 7d 7h")
    answers = [
        str(action.cards)
        for action in state.legal_actions()
        if isinstance(action, Play) and action.player == 1
    ]
    assert answers == ["8s 8s 8c 8d 8h"]
    state = state.play("8s 8s 8c 8d 8h")
    assert not state.is_legal(state.parse_action("As Ac Ad Ah"))


def _crowded_start(rules: BaseRules, rng: random.Random) -> GameState:
    """Five or six short hands of two decks, one holding five to seven of a rank."""
    players = rng.choice((5, 6))
    deck = [card for card in DECK for _ in range(2)]
    rng.shuffle(deck)
    rank = Rank(rng.randrange(13))
    crowd = [card for card in deck if card.rank is rank][: rng.randint(5, 7)]
    for card in crowd:
        deck.remove(card)
    hands = [Hand.from_cards(crowd)]
    for _ in range(players - 1):
        cards = deck[: rng.randint(1, 6)]
        del deck[: len(cards)]
        hands.append(Hand.from_cards(cards))
    rng.shuffle(hands)
    return GameState.from_hands(
        hands,
        rules,
        first_game=False,
        leader=rng.randrange(players),
    )


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.name)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_what_is_legal_accepts(table: BaseRules, seed: int) -> None:
    """A whole game with the setting on: at every turn the list is what `is_legal` takes.

    The candidates are every sub-multiset of every hand and every pass, generated
    without the engine's move generator.
    """
    rng = random.Random(seed)
    state = _crowded_start(table, rng)
    while not state.is_over:
        listed = list(state.legal_actions())
        accepted = {a for a in all_candidate_actions(state) if state.is_legal(a)}
        assert set(listed) == accepted
        assert len(listed) == len(set(listed))
        state = state.apply(listed[rng.randrange(len(listed))])
    assert state.result is not None


# -- the rule set's methods, one call into the engine --------------------------------------


def test_the_methods_answer_as_the_engine_and_remember() -> None:
    """`BaseRules.beats` is one call into `engine.classification.beats` (compiled or not).

    Two copies of a card in each five of a kind: the two-deck mask limit lets them
    through, and each verdict is remembered once.
    """
    from tienlen.engine import classification  # noqa: PLC0415

    rules = attrs.evolve(PLAIN)  # the same settings, an empty memo
    high, low = _of("8s 8s 8c 8d 8h"), _of("7s 7s 7c 7d 7h")
    assert rules.beats(high, low) is classification.beats(rules, high, low) is True
    assert rules.beats(low, high) is classification.beats(rules, low, high) is False
    assert len(rules._verdicts) == 2
