"""RULES D-25 per shape: with ``bombs_may_lead=False`` no bomb leads, whatever its kind.

§12.1 with §12.14: the setting bars every bomb of the rule set from leading (its bomb
table's rows, its chain, the pair-run formulas), except a four of a kind, which has
its own setting. A kind may be a bomb in some lengths only: a run of three triples
(§12.4) that beats a pair of 2s may not lead, while a run of four that no row lists
still does. `BaseRules.may_lead` decides it per shape; the lead lists and the
legality check both follow it, and nothing changes with ``bombs_may_lead=True``.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.helpers import sub_multisets
from tests.strategies import PRESETS
from tienlen import (
    CLASSIC,
    POKER,
    BaseRules,
    Bomb,
    ComboKind,
    GameState,
    Hand,
    IllegalPlayError,
    IllegalReason,
    InvalidRulesError,
    Pass,
    Play,
    Rank,
    Shape,
    legal_plays,
)
from tienlen.engine.shapes import STRUCTURES

TRIPLES = ComboKind.CONSECUTIVE_TRIPLES
THREE_RUN = "3s 3c 3d 4s 4c 4d 5s 5c 5d"
FOUR_RUN = f"{THREE_RUN} 6s 6c 6d"


def runs(length: int) -> Shape:
    """The shape of *length* consecutive triples."""
    return Shape.of(TRIPLES, length)


def house(preset: BaseRules = CLASSIC, *bomb_lengths: int, **changes: Any) -> BaseRules:
    """*preset* with runs of triples, where runs of *bomb_lengths* beat a pair of 2s."""
    pair = Shape.of(ComboKind.PAIR)
    rows = {
        Bomb(bomb=runs(length), target=pair, target_rank=Rank.TWO)
        for length in bomb_lengths
    }
    return attrs.evolve(
        preset,
        name=f"{preset.name}-triple-runs",
        aliases=(),
        kinds=preset.kinds | {TRIPLES},
        bombs=preset.bombs | rows,
        **changes,
    )


def led_runs(hand: str, rules: BaseRules) -> list[int]:
    """The lengths of the runs of triples *hand* may lead, shortest first."""
    plays = legal_plays(hand, None, rules)
    return sorted({play.shape.length for play in plays if play.kind is TRIPLES})


def test_a_bomb_run_of_three_triples_may_not_lead() -> None:
    """D-25: the three-triple bomb is barred; four triples, no bomb here, still lead."""
    barred = house(CLASSIC, 3, bombs_may_lead=False)
    assert barred.is_bomb(runs(3))
    assert not barred.is_bomb(runs(4))
    assert led_runs(FOUR_RUN, barred) == [4]
    assert (barred.may_lead(runs(3)), barred.may_lead(runs(4))) == (False, True)
    assert barred.is_leadable(TRIPLES)  # the kind leads, in its other lengths
    state = GameState.from_hands(
        ["2s 2c 9h", f"{THREE_RUN} 8h"], barred, first_game=False, leader=0
    )
    state = state.play("2s 2c")  # the run is still played onto what it beats
    assert Play(player=1, cards=Hand.parse(THREE_RUN)) in state.legal_actions()


def test_with_bombs_may_lead_every_run_leads() -> None:
    """Nothing changes with ``bombs_may_lead=True``: both runs lead, bomb or not."""
    free = house(CLASSIC, 3)
    assert led_runs(FOUR_RUN, free) == [3, 4]
    assert free.may_lead(runs(3))
    assert free.may_lead(runs(4))


def test_only_the_bomb_lengths_are_barred() -> None:
    """Runs of three and five triples are bombs: four and six still lead."""
    barred = house(CLASSIC, 3, 5, bombs_may_lead=False)
    hand = f"{FOUR_RUN} 7s 7c 7d 8s 8c 8d"
    assert led_runs(hand, barred) == [4, 6]
    assert led_runs(hand, house(CLASSIC, 3, 5)) == [3, 4, 5, 6]


def test_a_run_in_the_bomb_chain_is_barred_too() -> None:
    """Poker's chain (RULES §6.3) with a run of three triples: a bomb, so no lead."""
    chained = house(
        POKER, bomb_chain=(*POKER.bomb_chain, runs(3)), bombs_may_lead=False
    )
    assert chained.is_bomb(runs(3))
    assert led_runs(FOUR_RUN, chained) == [4]


def test_a_triple_that_is_a_bomb_may_not_lead() -> None:
    """A set kind the table makes a bomb (three of a rank onto a single 2) leads no more."""
    row = Bomb(
        bomb=Shape.of(ComboKind.TRIPLE),
        target=Shape.of(ComboKind.SINGLE),
        target_rank=Rank.TWO,
    )
    rules = attrs.evolve(
        CLASSIC, name="triple-bombs", bombs=CLASSIC.bombs | {row}, bombs_may_lead=False
    )
    assert not rules.is_leadable(ComboKind.TRIPLE)
    kinds = {play.kind for play in legal_plays("7s 7c 7d 9h", None, rules)}
    assert kinds == {ComboKind.SINGLE, ComboKind.PAIR}
    state = GameState.from_hands(
        ["7s 7c 7d 9h", "Ts Jc"], rules, first_game=False, leader=0
    )
    with pytest.raises(IllegalPlayError) as caught:
        state.play("7s 7c 7d")
    assert caught.value.rule == "d-25"
    state = GameState.from_hands(
        ["2h 9c", "7s 7c 7d 8h"], rules, first_game=False, leader=0
    )
    state = state.play("2h").play("7s 7c 7d")  # still played onto a single 2
    assert str(state.top) == "7s 7c 7d"


def test_a_single_bomb_that_may_not_lead_is_refused() -> None:
    """A table barring singles from leading would leave a hand of singles no lead."""
    row = Bomb(bomb=Shape.of(ComboKind.SINGLE), target=Shape.of(ComboKind.PAIR))
    attrs.evolve(CLASSIC, name="single-bombs", bombs=CLASSIC.bombs | {row})
    with pytest.raises(InvalidRulesError, match="bars every bomb from leading"):
        attrs.evolve(
            CLASSIC,
            name="single-bombs",
            bombs=CLASSIC.bombs | {row},
            bombs_may_lead=False,
        )


HANDS = [f"{FOUR_RUN} 9h", "Ts Tc Js Jc 2s 2c"]


def test_a_game_refuses_the_lead_and_cites_d25() -> None:
    """In a game the three-triple lead is refused (`IllegalReason.CANNOT_LEAD`, D-25)."""
    rules = house(CLASSIC, 3, bombs_may_lead=False)
    state = GameState.from_hands(HANDS, rules, first_game=False, leader=0)
    three = Play(player=0, cards=Hand.parse(THREE_RUN))
    four = Play(player=0, cards=Hand.parse(FOUR_RUN))
    actions = list(state.legal_actions())
    assert three not in actions
    assert four in actions
    with pytest.raises(IllegalPlayError) as caught:
        state.apply(three)
    assert caught.value.reason is IllegalReason.CANNOT_LEAD
    assert caught.value.rule == "d-25"
    assert "3 consecutive triples cannot be led" in str(caught.value)
    assert state.is_legal(four)
    free = GameState.from_hands(HANDS, house(CLASSIC, 3), first_game=False, leader=0)
    assert free.is_legal(three)
    assert three in list(free.legal_actions())


def test_the_compiled_lead_lists_pickle() -> None:
    """The split lead families pickle, and the copy leads as the original."""
    rules = house(CLASSIC, 3, 5, bombs_may_lead=False)
    tables = rules._compiled
    copy = pickle.loads(pickle.dumps(tables))  # noqa: S301  # our own bytes
    hand = Hand.parse(f"{FOUR_RUN} 7s 7c 7d 8s 8c 8d").mask
    assert list(copy.leads(hand)) == list(tables.leads(hand))
    led = {rules.classify(Hand(play)) for play in tables.leads(hand)}
    lengths = {combo.shape.length for combo in led if combo and combo.kind is TRIPLES}
    assert lengths == {4, 6}


@pytest.mark.parametrize("preset", PRESETS, ids=lambda rules: rules.name)
def test_the_presets_lead_per_kind(preset: BaseRules) -> None:
    """Every preset leads each shape as its kind (`bombs_may_lead` is on in each)."""
    assert preset.bombs_may_lead
    for code in STRUCTURES.values():
        shape = Shape.from_code(code)
        formed = preset.max_top_rank(shape) is not None
        assert preset.may_lead(shape) is (formed and preset.is_leadable(shape.kind))
    tables = preset._compiled
    assert all(f is tables.families[f.kind] for f in tables.lead_families)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda rules: rules.name)
def test_may_lead_is_the_kind_less_the_barred_bombs(preset: BaseRules) -> None:
    """Each preset as a no-lead table: a shape leads iff its kind does and no bomb bars it.

    A bomb by the bomb table, chain or pair-run formulas (`is_bomb`), a four of a
    kind excepted.
    """
    rules = house(preset, 3, bombs_may_lead=False)
    for code in STRUCTURES.values():
        shape = Shape.from_code(code)
        if rules.max_top_rank(shape) is None:
            assert not rules.may_lead(shape)
            continue
        barred = rules.is_bomb(shape) and shape.kind is not ComboKind.FOUR_OF_A_KIND
        assert rules.may_lead(shape) is (rules.is_leadable(shape.kind) and not barred)
    assert not rules.may_lead(runs(3))


def _lead_is_exact(state: GameState) -> None:
    """On a lead, the listed actions are exactly the leader's plays `is_legal` accepts."""
    player = state.to_act
    assert player is not None
    assert state.top is None
    candidates: list[Play | Pass] = [
        Play(player=player, cards=cards) for cards in sub_multisets(state.hands[player])
    ]
    accepted = {a for a in (*candidates, Pass(player=player)) if state.is_legal(a)}
    listed = set(state.legal_actions())
    assert listed == accepted
    rules = state.rules
    for action in listed:  # no bomb leads but a four of a kind (D-25)
        combo = rules.classify(action.cards) if isinstance(action, Play) else None
        if combo is not None and combo.kind is not ComboKind.FOUR_OF_A_KIND:
            assert not rules.is_bomb(combo.shape), str(combo)


TABLES = {
    "row": house(CLASSIC, 3, bombs_may_lead=False),
    "rows": house(CLASSIC, 3, 5, min_consecutive_triples=2, bombs_may_lead=False),
    "chain": house(
        POKER, bomb_chain=(*POKER.bomb_chain, runs(3)), bombs_may_lead=False
    ),
}


def triple_rich_hands(rng: random.Random) -> list[Hand]:
    """Two hands of ten: three triples in a run each (3-5, 7-9) and one card more."""
    hands: list[list[str]] = [[], []]
    spare = ["6s", "6c", "6d", "6h"]
    for player, ranks in enumerate(("345", "789")):
        for rank in ranks:
            suits = rng.sample("scdh", 4)
            hands[player] += [rank + suit for suit in suits[:3]]
            spare.append(rank + suits[3])
    rng.shuffle(spare)
    return [Hand.parse(" ".join([*hand, spare[i]])) for i, hand in enumerate(hands)]


@pytest.mark.parametrize("name", sorted(TABLES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_listed_leads_are_what_is_legal_accepts(name: str, seed: int) -> None:
    """Whole games on triple-rich hands: every lead lists exactly what `is_legal` takes."""
    rules = TABLES[name]
    rng = random.Random(seed)
    hands = triple_rich_hands(rng)
    state = GameState.from_hands(
        hands, rules, first_game=False, leader=rng.randrange(2)
    )
    while not state.is_over:
        listed = list(state.legal_actions())
        if state.top is None:
            _lead_is_exact(state)
        else:
            assert all(state.is_legal(action) for action in listed)
        state = state.apply(listed[rng.randrange(len(listed))])
