"""Settings of a rule set: type-checked at construction, house rules of RULES §12, bounded work.

Every field of `BaseRules` is found with `attrs.fields`, so a setting added later is
covered by the type checks without editing this file.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import hands
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    VIETCONG,
    BaseRules,
    Bomb,
    ComboKind,
    Hand,
    InstantWin,
    InvalidRulesError,
    Rank,
    Shape,
    beats,
    classify,
    legal_plays,
)
from tienlen.rules.base import _best_packing

_evolve: Callable[..., BaseRules] = attrs.evolve  # settings named at run time
SETTINGS = [field for field in attrs.fields(BaseRules) if field.init]
FOUR = Shape.of(ComboKind.FOUR_OF_A_KIND)
SINGLE = Shape.of(ComboKind.SINGLE)
PAIR = Shape.of(ComboKind.PAIR)


def pairs(count: int) -> Shape:
    """The shape of *count* consecutive pairs."""
    return Shape.of(ComboKind.CONSECUTIVE_PAIRS, count)


class _Foreign:
    """An object of no setting's type."""


WRONG_VALUES: list[object] = [None, 2.0, "x", _Foreign(), (1.5,), frozenset({"x"})]


@pytest.mark.parametrize("field", SETTINGS, ids=[field.name for field in SETTINGS])
def test_every_setting_is_type_checked(field: attrs.Attribute[object]) -> None:
    """RULES §11: a value of the wrong type raises InvalidRulesError naming the setting."""
    messages = [_refusal(field.name, value) for value in WRONG_VALUES]
    refused = [message for message in messages if message is not None]
    assert all(f"{field.name} must be" in message for message in refused)
    assert len(refused) >= len(WRONG_VALUES) - 1  # None may be valid, or "x" a name


def _refusal(setting: str, value: object) -> str | None:
    """The error building CLASSIC with *setting* = *value* raises, or ``None``."""
    try:
        _evolve(CLASSIC, **{setting: value})
    except InvalidRulesError as error:
        return str(error)
    return None


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("direction", None),
        ("hand_size", 2.0),
        ("hand_size", True),
        ("name", 123),
        ("continuation", 1),
        ("two_values", (1, 2, 3)),
        ("aliases", "pagat"),
        ("kinds", "single"),
        ("pair_runs_beat_twos", False),
    ],
)
def test_wrong_types_named(setting: str, value: object) -> None:
    """Issue 10 §3: the reported cases, a bool is not an int and an int not a bool."""
    with pytest.raises(InvalidRulesError, match=setting):
        _evolve(CLASSIC, **{setting: value})


@pytest.mark.parametrize(
    "changes",
    [
        {"pair_runs_beat_twos": 0},
        {"pair_runs_beat_twos": 13},
        {"min_consecutive_triples": 1},
        {"min_consecutive_triples": 5, "max_consecutive_triples": 4},
        {"kinds": CLASSIC.kinds - {ComboKind.STRAIGHT}, "suited_straights": True},
        {"kinds": {ComboKind.SINGLE}, "longer_pair_runs_beat_shorter": True},
        {"bomb_values": [(SINGLE, 1)]},  # issue 14 item 3: no value for what is no bomb
        {
            "bombs": [Bomb(bomb=pairs(3), target=pairs(4))],
            "longer_pair_runs_beat_shorter": True,
        },
    ],
)
def test_contradictions_are_refused(changes: dict[str, object]) -> None:
    """RULES §11: contradictory house rules raise InvalidRulesError."""
    with pytest.raises(InvalidRulesError):
        _evolve(CLASSIC, **changes)


# -- the combination house rules, one recipe each ----------------------------------


def test_bombs_may_not_lead() -> None:
    """RULES §12.1: pairs runs and fours cannot be led, but still beat 2s."""
    house = attrs.evolve(CLASSIC, bombs_may_lead=False, four_of_a_kind_may_lead=False)
    leads = {
        str(play) for play in legal_plays("3s 3c 4s 4c 5s 5c 9s 9c 9d 9h", rules=house)
    }
    assert "3s 3c 4s 4c 5s 5c" not in leads
    assert "9s 9c 9d 9h" not in leads
    assert "9s 9c" in leads
    assert beats("3s 3c 4s 4c 5s 5c", "2h", house)
    assert beats("9s 9c 9d 9h", "2h", house)
    assert not house.is_leadable(ComboKind.FOUR_OF_A_KIND)


def test_suited_straights() -> None:
    """RULES §12.2: a one-suit straight is beaten only by a higher one-suit straight."""
    house = attrs.evolve(CLASSIC, suited_straights=True)
    assert not beats("4d 5c 6s", "3h 4h 5h", house)
    assert beats("4d 5d 6d", "3h 4h 5h", house)
    assert beats("4d 5d 6d", "3h 4c 5h", house)
    assert beats("4d 5c 6s", "3h 4c 5h", house)
    plays = legal_plays("4d 5d 6d 6s", "3h 4h 5h", house)
    assert [str(play) for play in plays] == ["4d 5d 6d"]
    assert house._tables is None  # the engine asks legal_plays, not the fast tables
    assert CLASSIC._tables is not None


def test_pair_runs_beat_twos() -> None:
    """RULES §12.3: with k = 2, n + 2 consecutive pairs beat n 2s, four 2s included."""
    house = attrs.evolve(CLASSIC, bombs=(), pair_runs_beat_twos=2)
    runs = [f"{r}{suit}" for r in "345678" for suit in "sc"]
    for n, twos in enumerate(["2h", "2s 2h", "2s 2c 2h", "2s 2c 2d 2h"], start=1):
        run = " ".join(runs[: 2 * (n + 2)])
        assert beats(run, twos, house), (run, twos)
        shorter = " ".join(runs[: 2 * (n + 1)])
        assert n == 1 or not beats(shorter, twos, house)
    assert not beats("3s 3c 4s 4c 5s 5c", "Ah", house)
    assert house.is_bomb(pairs(6))


def test_longer_pair_runs_beat_shorter() -> None:
    """RULES §12.6: five pairs beat four pairs whatever their ranks; Poker with five pairs."""
    house = attrs.evolve(
        POKER, max_consecutive_pairs=6, longer_pair_runs_beat_shorter=True
    )
    assert beats("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", "9s 9c Ts Tc Js Jc Qs Qc", house)
    assert not beats("9s 9c Ts Tc Js Jc Qs Qc", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c", house)


def test_four_of_a_kind_beats_any_single_or_pair() -> None:
    """RULES §12.9: the bomb table with no target rank, as the literal Kenneth Lo text."""
    house = attrs.evolve(
        CLASSIC,
        bombs=CLASSIC.bombs
        | {Bomb(bomb=FOUR, target=SINGLE), Bomb(bomb=FOUR, target=PAIR)},
    )
    assert beats("5s 5c 5d 5h", "Ah", house)
    assert beats("5s 5c 5d 5h", "7s 7h", house)
    assert not beats("5s 5c 5d 5h", "Ah", CLASSIC)


def test_consecutive_triples() -> None:
    """RULES §12.4: triples runs exist only where a rule set lists them, and may bomb."""
    triples = Shape.of(ComboKind.CONSECUTIVE_TRIPLES, 3)
    run = "3s 3c 3d 4s 4c 4d 5s 5c 5d"
    for preset in (CLASSIC, VIETCONG, POKER):
        assert classify(run, preset) is None
    house = attrs.evolve(
        CLASSIC,
        kinds=CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
        bombs=CLASSIC.bombs | {Bomb(bomb=triples, target=PAIR, target_rank=Rank.TWO)},
    )
    combo = classify(run, house)
    assert combo is not None
    assert combo.shape == triples
    assert beats(run, "2s 2h", house)
    assert classify("3s 3c 3d 4s 4c 4d", house) is None  # 3 or more by default
    assert classify("3s 3c 3d 4s 4c 4d", attrs.evolve(house, min_consecutive_triples=2))


# -- bounded work (issue 14) ---------------------------------------------------------


def _exhaustive(
    counts: tuple[int, ...], twos: list[int], items: list[tuple[int, int, int, int]]
) -> int:
    """D-20 by trying every placement of every item: the 0.1 search, as the oracle."""
    best = 0

    def search(rank: int, left: tuple[int, ...], total: int) -> None:
        nonlocal best
        if rank == 13:
            free = left[12]
            best = max(best, total + sum(twos[len(twos) - free :]) if free else total)
            return
        search(rank + 1, left, total)
        for per_rank, length, value, top_rank in items:
            end = rank + length
            if end - 1 <= top_rank and all(
                left[r] >= per_rank for r in range(rank, end)
            ):
                used = tuple(
                    c - per_rank if rank <= r < end else c for r, c in enumerate(left)
                )
                search(rank, used, total + value)

    search(0, counts, 0)
    return best


@given(
    spread=st.dictionaries(st.integers(0, 12), st.integers(1, 3), max_size=4),
    items=st.lists(
        st.tuples(
            st.integers(1, 4), st.integers(1, 4), st.integers(0, 9), st.integers(0, 12)
        ),
        max_size=3,
    ),
    values=st.lists(st.integers(0, 5), min_size=3, max_size=3),
)
def test_hand_value_packing_equals_exhaustive_search(
    spread: dict[int, int], items: list[tuple[int, int, int, int]], values: list[int]
) -> None:
    """D-20: the DP over ranks finds exactly the best disjoint set the old search found."""
    counts = [spread.get(rank, 0) for rank in range(13)]
    twos = sorted(values[: counts[12]])
    assert _best_packing(tuple(counts), twos, items) == _exhaustive(
        tuple(counts), twos, items
    )


def test_hand_value_is_fast_on_big_hands() -> None:
    """Issue 14 item 3: many bomb values and 20-card two-deck hands stay fast."""
    runs = [pairs(n) for n in range(3, 11)]
    house = attrs.evolve(
        CLASSIC_TWO_DECKS,
        bombs=CLASSIC_TWO_DECKS.bombs
        | {Bomb(bomb=run, target=SINGLE, target_rank=Rank.TWO) for run in runs},
        bomb_values=[(FOUR, 6), *((run, run.length) for run in runs)],
    )
    hand = Hand.parse("3s 3s 3c 3c 4s 4s 4c 4c 5s 5s 5c 5c 6s 6s 6c 6c 7s 7c 7d 7h")
    started = time.perf_counter()
    value = house.hand_value(hand)
    assert time.perf_counter() - started < 2
    assert value == 30  # five fours (6 each) beat any pair runs (half a point a card)


@given(hand=hands(0, 13))
def test_hand_value_counts_twos_and_bombs(hand: Hand) -> None:
    """RULES §6.6.4: the value is at least the 2s alone and at most all 2s plus bombs."""
    twos = sum(POKER.two_values[c.suit.value] for c in hand if c.rank is Rank.TWO)
    assert POKER.hand_value(hand) >= twos


# -- wrong types are TypeError (issue 14 item 8) and combos have no order (issue 13) --


@pytest.mark.parametrize(
    "call",
    [
        lambda: CLASSIC.beats("3s", classify("4s")),  # type: ignore[arg-type]
        lambda: CLASSIC.legal_plays(None),  # type: ignore[arg-type]
        lambda: CLASSIC.legal_plays(Hand.parse("3s"), "4s"),  # type: ignore[arg-type]
        lambda: CLASSIC.bombs_against("2h"),  # type: ignore[arg-type]
        lambda: CLASSIC.is_leadable("single"),  # type: ignore[arg-type]
        lambda: CLASSIC.max_top_rank(None),  # type: ignore[arg-type]
        lambda: Shape.of("pair"),  # type: ignore[arg-type]
        lambda: Shape(ComboKind.PAIR, 2.0),  # type: ignore[arg-type]
        lambda: CLASSIC.chop_value(None),  # type: ignore[arg-type]
        lambda: CLASSIC.hand_value(None),  # type: ignore[arg-type]
        lambda: CLASSIC.is_chop_target("2h"),  # type: ignore[arg-type]
        lambda: CLASSIC.is_catch(None, None),  # type: ignore[arg-type]
        lambda: POKER.may_jump_in(None, None),  # type: ignore[arg-type]
        lambda: CLASSIC.deal_size(4.0),  # type: ignore[arg-type]
        lambda: POKER.place_points_for(None),  # type: ignore[arg-type]
        lambda: CLASSIC.instant_win("3s"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_raise_type_error(call: Callable[[], object]) -> None:
    """Issue 14 item 8: a wrong type is a TypeError, never an AttributeError."""
    with pytest.raises(TypeError):
        call()


def test_combos_have_no_order() -> None:
    """RULES §1.3, issue 13: comparing combos raises a TypeError that points to beats()."""
    low, high = classify("3s"), classify("4s")
    compares: tuple[Callable[[], object], ...] = (
        lambda: low < high,  # type: ignore[operator]
        lambda: low <= high,  # type: ignore[operator]
        lambda: low > high,  # type: ignore[operator]
        lambda: low >= high,  # type: ignore[operator]
    )
    for compare in compares:
        with pytest.raises(TypeError, match=r"beats\(a, b, rules\)"):
            compare()


# -- instant wins as an open set (RULES §6.7, §12.5, D-21) ---------------------------

EVERY_WIN = attrs.evolve(POKER, name="every-win", instant_wins=list(InstantWin))


@pytest.mark.parametrize(
    ("hand", "win"),
    [
        (
            "3s 3c 3d 4s 4c 4d 5s 5c 5d 8h 9h Jh Ks",
            InstantWin.THREE_CONSECUTIVE_TRIPLES,
        ),
        ("3s 3c 3d 5s 5c 5d 8s 8c 8d 9h Jh Kh Ah", InstantWin.THREE_TRIPLES),
        ("3s 4s 5c 6s 7c 8s 9c Ts Jc Qs Kc As 4c", InstantWin.DRAGON_WITHOUT_TWO),
        ("3d 4d 5h 7d 8h 9h Td Jh Qd Kh Ad 2d 2h", InstantWin.ONE_COLOUR),
        ("3s 3c 3d 3h 5s 7c 9d Jh Ks 6c 8d Th Qs", InstantWin.FOUR_THREES),
        ("3s 3c 4s 4c 5s 5c 9s 9c 9d 9h Jd Qh Ks", InstantWin.TWO_BOMBS),
    ],
)
def test_new_instant_wins(hand: str, win: InstantWin) -> None:
    """RULES §12.5: each new instant-win hand is found when the rule set lists it."""
    rules = attrs.evolve(POKER, name="one-win", instant_wins=[win])
    assert rules.instant_win(Hand.parse(hand)) is win
    assert POKER.instant_win(Hand.parse(hand)) is not win


def test_four_threes_only_in_the_first_game() -> None:
    """RULES §12.5: four 3s win in the first game of a match only."""
    rules = attrs.evolve(POKER, name="threes", instant_wins=[InstantWin.FOUR_THREES])
    hand = Hand.parse("3s 3c 3d 3h 5s 7c 9d Jh Ks 6c 8d Th Qs")
    assert rules.instant_win(hand, first_game=True) is InstantWin.FOUR_THREES
    assert rules.instant_win(hand, first_game=False) is None


def test_six_pairs_counts_sets_setting() -> None:
    """D-21: by default a triple gives a pair and a four two; exact pairs only when off."""
    hand = Hand.parse("3s 3c 3d 5s 5c 5d 5h 7s 7c 9d 9h Jh Js")  # 1 + 2 + 1 + 1 + 1 = 6
    assert POKER.instant_win(hand) is InstantWin.SIX_PAIRS
    exact = attrs.evolve(POKER, six_pairs_counts_sets=False)
    assert exact.instant_win(hand) is None


def test_instant_wins_fixed_order() -> None:
    """RULES §12.5: several apply, the first in `InstantWin` order is reported."""
    hand = Hand.parse("3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 9s")
    found = EVERY_WIN.instant_win(hand)
    assert found is InstantWin.SIX_PAIRS  # before THREE_CONSECUTIVE_TRIPLES
