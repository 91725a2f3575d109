"""Hypothesis strategies: the one place for the test suite's generators (STYLE R52).

Combinations are built *structurally* (pick a shape, the ranks, then the suits), never by
filtering random cards through `classify`. Which shapes exist under a rule set is worked
out here from its settings (`spec_max_top_rank`), independently of the library's own
`BaseRules.max_top_rank`, so a generator cannot inherit a library bug.
"""

from __future__ import annotations

import itertools
from typing import Protocol

import attrs
from hypothesis import strategies as st

from tienlen import (
    CLASSIC_TWO_DECKS,
    DECK,
    RULESETS,
    BaseRules,
    Bomb,
    Card,
    Combo,
    ComboKind,
    Hand,
    InvalidRulesError,
    Rank,
    Shape,
)

__all__ = [
    "PRESETS",
    "ComboSpec",
    "base_rules",
    "bomb_rows",
    "bomb_scenarios",
    "bomb_targets",
    "bombs",
    "cards",
    "combo_specs",
    "combos",
    "hands",
    "hands_holding",
    "house_rules",
    "rulesets",
    "same_shape_combos",
    "spec_bombers",
    "spec_leadable",
    "spec_max_top_rank",
    "spec_same_shape_beats",
    "tops",
    "twos",
    "valid_shapes",
]

PRESETS: tuple[BaseRules, ...] = tuple(RULESETS.values())
"""The five named variants, in the order of RULES.md."""

_SET_KINDS = (
    ComboKind.SINGLE,
    ComboKind.PAIR,
    ComboKind.TRIPLE,
    ComboKind.FOUR_OF_A_KIND,
    ComboKind.FIVE_OF_A_KIND,  # two decks only (RULES §12.14)
)
_SHORTEST_RUN = {
    ComboKind.STRAIGHT: 3,
    ComboKind.CONSECUTIVE_PAIRS: 3,
    ComboKind.CONSECUTIVE_QUADS: 2,
    ComboKind.CONSECUTIVE_TRIPLES: 2,
}
_LONGEST_QUADS = 3
_SLOT_SUBSETS = {
    (decks, k): tuple(itertools.combinations(range(4 * decks), k))
    for decks in (1, 2)
    for k in range(1, 4 * decks + 1)
}


class ShapeSettings(Protocol):
    """The settings that decide which shapes are combinations (`BaseRules` has them)."""

    @property
    def kinds(self) -> frozenset[ComboKind]: ...
    @property
    def twos_in_straights(self) -> bool: ...
    @property
    def twos_in_consecutive_pairs(self) -> bool: ...
    @property
    def twos_in_consecutive_quads(self) -> bool: ...
    @property
    def min_consecutive_pairs(self) -> int: ...
    @property
    def max_consecutive_pairs(self) -> int: ...
    @property
    def twos_in_consecutive_triples(self) -> bool: ...
    @property
    def min_consecutive_triples(self) -> int: ...
    @property
    def max_consecutive_triples(self) -> int: ...
    @property
    def decks(self) -> int: ...


@attrs.frozen(kw_only=True)
class _Settings:
    kinds: frozenset[ComboKind]
    twos_in_straights: bool
    twos_in_consecutive_pairs: bool
    twos_in_consecutive_quads: bool
    min_consecutive_pairs: int
    max_consecutive_pairs: int
    twos_in_consecutive_triples: bool
    min_consecutive_triples: int
    max_consecutive_triples: int
    decks: int


def spec_max_top_rank(rules: ShapeSettings, shape: Shape) -> Rank | None:
    """The highest top rank of *shape* under *rules*, from RULES §1.2, §1.4 and §11.

    ``None`` when the shape is no combination. Written from the spec and the settings'
    meaning, not by calling the library's ``max_top_rank``.
    """
    kind, length = shape.kind, shape.length
    if kind not in rules.kinds:
        return None
    if kind is ComboKind.FIVE_OF_A_KIND and rules.decks == 1:
        return None  # one deck holds four cards of a rank (RULES §12.14)
    if kind in _SET_KINDS:
        return Rank.TWO
    if kind is ComboKind.STRAIGHT:
        twos = rules.twos_in_straights
    elif kind is ComboKind.CONSECUTIVE_PAIRS:
        if not rules.min_consecutive_pairs <= length <= rules.max_consecutive_pairs:
            return None
        twos = rules.twos_in_consecutive_pairs
    elif kind is ComboKind.CONSECUTIVE_TRIPLES:  # RULES §12.4
        if not rules.min_consecutive_triples <= length <= rules.max_consecutive_triples:
            return None
        twos = rules.twos_in_consecutive_triples
    else:
        if not 2 <= length <= _LONGEST_QUADS:
            return None
        twos = rules.twos_in_consecutive_quads
    top = Rank.TWO if twos else Rank.ACE
    # A run of `length` ranks needs room below its top card (sequences never wrap, §1.4).
    return top if length <= top.value + 1 else None


def spec_leadable(rules: BaseRules, shape: Shape) -> bool:
    """Whether *shape* may be led: not quads (D-13), nor what §12.1's settings forbid.

    ``bombs_may_lead=False`` bars consecutive pairs, and every other shape a bomb row
    or the chain names, but a four of a kind, which has its own setting (D-25).
    """
    kind = shape.kind
    if kind is ComboKind.CONSECUTIVE_QUADS:
        return False
    if kind is ComboKind.CONSECUTIVE_PAIRS:
        return rules.bombs_may_lead
    if kind is ComboKind.FOUR_OF_A_KIND:
        return rules.four_of_a_kind_may_lead
    named = shape in rules.bomb_chain or any(row.bomb == shape for row in rules.bombs)
    return rules.bombs_may_lead or not named


def _pairs(length: int) -> Shape:
    return Shape.of(ComboKind.CONSECUTIVE_PAIRS, length)


def spec_bombers(rules: BaseRules, shape: Shape, rank: Rank) -> set[Shape]:
    """The shapes that beat a combination of *shape* and top *rank* across shapes.

    Read off the settings (RULES §11): a bomb row beats its target shape when the
    target's rank matches (or no rank is given); a shape in the bomb chain is beaten
    by every shape after it; with ``pair_runs_beat_twos`` k, n + k pairs beat n 2s
    (§12.3); with ``longer_pair_runs_beat_shorter`` every longer pair run beats a
    shorter one (§12.6). Only shapes that are combinations count.
    """
    found = {
        bomb.bomb
        for bomb in rules.bombs
        if bomb.target == shape and bomb.target_rank in (None, rank)
    }
    if shape in rules.bomb_chain:
        at = rules.bomb_chain.index(shape)
        found.update(rules.bomb_chain[at + 1 :])
    k = rules.pair_runs_beat_twos
    if k is not None and rank is Rank.TWO and shape.kind in _SET_KINDS:
        n = _SET_KINDS.index(shape.kind) + 1
        if 3 <= n + k <= 13:  # no run of fewer than three pairs exists (RULES §1.2)
            found.add(_pairs(n + k))
    if (
        rules.longer_pair_runs_beat_shorter
        and shape.kind is ComboKind.CONSECUTIVE_PAIRS
    ):
        found.update(_pairs(length) for length in range(shape.length + 1, 14))
    found.discard(shape)
    return {s for s in found if spec_max_top_rank(rules, s) is not None}


def _one_suit(combo: Combo) -> bool:
    return len({card.suit for card in combo.cards}) == 1


def spec_same_shape_beats(rules: BaseRules, play: Combo, top: Combo) -> bool:
    """Whether *play* beats *top* of the same shape: a higher top card (RULES §1.3).

    With ``suited_straights`` a straight of one suit is beaten only by a straight of
    one suit (RULES §12.2).
    """
    assert play.shape == top.shape
    if play.top <= top.top:
        return False
    suited = rules.suited_straights and play.kind is ComboKind.STRAIGHT
    return not (suited and _one_suit(top) and not _one_suit(play))


def valid_shapes(rules: ShapeSettings) -> list[Shape]:
    """Every shape that is a combination under *rules*, in a fixed order."""
    shapes: list[Shape] = []
    for kind in ComboKind:
        if kind in _SET_KINDS:
            candidates = [Shape.of(kind)]
        else:
            candidates = [
                Shape.of(kind, length) for length in range(_SHORTEST_RUN[kind], 14)
            ]
        shapes += [s for s in candidates if spec_max_top_rank(rules, s) is not None]
    return shapes


def cards() -> st.SearchStrategy[Card]:
    """Any one of the 52 cards."""
    return st.sampled_from(DECK)


@st.composite
def hands(
    draw: st.DrawFn, min_size: int = 0, max_size: int = 13, decks: int = 1
) -> Hand:
    """A hand of *min_size*…*max_size* cards; with two decks a card may appear twice.

    The cards come from a window of consecutive ranks just wide enough for the size, so
    pairs, runs and bombs turn up far more often than in uniformly random hands.
    """
    assert decks in (1, 2)
    assert 0 <= min_size <= max_size <= 52 * decks
    size = draw(st.integers(min_size, max_size))
    width_needed = -(-size // (4 * decks))  # ceil
    width = draw(st.integers(max(width_needed, 1), 13))
    low = draw(st.integers(0, 13 - width))
    pool = range(low * 4, (low + width) * 4)
    if decks == 1:
        indices = draw(
            st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)
        )
        return Hand.from_cards(DECK[i] for i in indices)
    doubled = draw(st.integers(max(0, size - len(pool)), size // 2))
    distinct = draw(
        st.lists(
            st.sampled_from(pool),
            min_size=size - doubled,
            max_size=size - doubled,
            unique=True,
        )
    )
    chosen = [DECK[i] for i in distinct] + [DECK[i] for i in distinct[:doubled]]
    return Hand.from_cards(chosen)


class ComboSpec:
    """A combination built structurally: its cards (shuffled), intended shape and top card."""

    __slots__ = ("cards", "shape", "top")

    def __init__(self, cards: tuple[Card, ...], shape: Shape, top: Card) -> None:
        self.cards = cards
        self.shape = shape
        self.top = top

    def __repr__(self) -> str:
        return f"ComboSpec({' '.join(map(str, self.cards))!r}, {self.shape}, top={self.top})"


@st.composite
def combo_specs(
    draw: st.DrawFn,
    rules: BaseRules,
    kind: ComboKind | None = None,
    *,
    shape: Shape | None = None,
    top_rank: Rank | None = None,
) -> ComboSpec:
    """A combination valid under *rules*: pick a shape, its ranks, then suits.

    *kind* or *shape* narrow the shape; *top_rank* fixes the rank of the top card (the
    caller makes sure that rank is possible). Two-deck rule sets may repeat a card.
    """
    if shape is None:
        choices = [s for s in valid_shapes(rules) if kind is None or s.kind is kind]
        shape = draw(st.sampled_from(choices))
    highest = spec_max_top_rank(rules, shape)
    assert highest is not None, f"{shape} is no combination under {rules.name}"
    length = shape.length
    if top_rank is None:
        top = draw(st.integers(length - 1, highest.value))
    else:
        assert length - 1 <= top_rank.value <= highest.value
        top = top_rank.value
    per_rank = shape.size // length
    # One draw for all ranks: a k-subset of the 4 (or 8, two decks) slots per rank,
    # where slot s is suit s % 4, copy s // 4.
    picks = draw(
        st.lists(
            st.sampled_from(_SLOT_SUBSETS[rules.decks, per_rank]),
            min_size=length,
            max_size=length,
        )
    )
    chosen = [
        DECK[rank * 4 + slot % 4]
        for rank, slots in zip(range(top - length + 1, top + 1), picks, strict=True)
        for slot in slots
    ]
    shuffled = tuple(draw(st.permutations(chosen)))
    return ComboSpec(shuffled, shape, max(chosen))


def _classified(rules: BaseRules, spec: ComboSpec) -> Combo:
    combo = rules.classify(spec.cards)
    assert combo is not None, f"{spec!r} is no combination under {rules.name}"
    return combo


def combos(
    rules: BaseRules,
    kind: ComboKind | None = None,
    *,
    shape: Shape | None = None,
    top_rank: Rank | None = None,
) -> st.SearchStrategy[Combo]:
    """A `Combo` valid under *rules*, built structurally (see `combo_specs`)."""
    specs = combo_specs(rules, kind, shape=shape, top_rank=top_rank)
    return specs.map(lambda spec: _classified(rules, spec))


@st.composite
def same_shape_combos(draw: st.DrawFn, rules: BaseRules, count: int = 2) -> list[Combo]:
    """*count* combinations of one shape under *rules*."""
    shape = draw(st.sampled_from(valid_shapes(rules)))
    return [draw(combos(rules, shape=shape)) for _ in range(count)]


def bomb_rows(rules: BaseRules) -> list[tuple[Shape, Shape, Rank | None]]:
    """Every (bomb shape, target shape, target rank) the table and chain of *rules* allow.

    Only targets some combination can match are kept (the rank must fit the shape).
    """
    rows = []
    for bomb in sorted(rules.bombs, key=str):
        highest = spec_max_top_rank(rules, bomb.target)
        rank = bomb.target_rank
        if highest is not None and (
            rank is None or bomb.target.length - 1 <= rank.value <= highest.value
        ):
            rows.append((bomb.bomb, bomb.target, rank))
    for low, target in enumerate(rules.bomb_chain):
        rows += [(shape, target, None) for shape in rules.bomb_chain[low + 1 :]]
    twos: list[tuple[Shape, Shape, Rank | None]] = []
    for kind in _SET_KINDS:
        target = Shape.of(kind)
        if spec_max_top_rank(rules, target) is not None:
            twos += [
                (bomb, target, Rank.TWO)
                for bomb in spec_bombers(rules, target, Rank.TWO)
            ]
    pair_runs = [
        shape
        for shape in valid_shapes(rules)
        if shape.kind is ComboKind.CONSECUTIVE_PAIRS
    ]
    longer = [
        (bomb, target, None)
        for target in pair_runs
        for bomb in spec_bombers(rules, target, Rank.TWO)
        if bomb.kind is ComboKind.CONSECUTIVE_PAIRS
        and rules.longer_pair_runs_beat_shorter
    ]
    rows += [row for row in twos + longer if row not in rows]
    return rows


def twos(rules: BaseRules) -> st.SearchStrategy[Combo]:
    """A single, pair or triple of 2s (the targets of every bomb table)."""
    shapes = [
        Shape.of(kind)
        for kind in _SET_KINDS[:3]
        if spec_max_top_rank(rules, Shape.of(kind)) is not None
    ]
    return st.sampled_from(shapes).flatmap(
        lambda shape: combos(rules, shape=shape, top_rank=Rank.TWO)
    )


def bomb_targets(rules: BaseRules) -> st.SearchStrategy[Combo] | None:
    """A combination some bomb-table row or chain step beats, or ``None`` if there is none."""
    targets = sorted(
        {(target, rank) for _, target, rank in bomb_rows(rules)},
        key=lambda target: (
            target[0].code,
            -1 if target[1] is None else target[1].value,
        ),
    )
    if not targets:
        return None
    return st.sampled_from(targets).flatmap(
        lambda target: combos(rules, shape=target[0], top_rank=target[1])
    )


def bombs(rules: BaseRules) -> st.SearchStrategy[Combo] | None:
    """A combination of a bomb shape (table or chain), or ``None`` if there is none."""
    shapes = sorted({bomb for bomb, _, _ in bomb_rows(rules)}, key=lambda s: s.code)
    if not shapes:
        return None
    return st.sampled_from(shapes).flatmap(lambda shape: combos(rules, shape=shape))


def tops(rules: BaseRules) -> st.SearchStrategy[Combo]:
    """A combination to beat, biased toward 2s, bomb targets and bombs.

    Four equally likely sources: any combination; a single, pair or triple of 2s; a
    target of the bomb table (of the table's rank); a bomb or bomb-chain shape.
    """
    sources = [combos(rules), twos(rules), bomb_targets(rules), bombs(rules)]
    return st.one_of([source for source in sources if source is not None])


@st.composite
def hands_holding(
    draw: st.DrawFn, rules: BaseRules, min_size: int = 1, max_size: int = 13
) -> Hand:
    """A hand that holds a bomb (half the time) or another `tops` combination.

    The rest of the hand is random cards; bombs and 2s are what make play generation
    against a top interesting, and uniform hands rarely hold them.
    """
    sources = [source for source in (bombs(rules), tops(rules)) if source is not None]
    seed = draw(st.one_of(sources).filter(lambda combo: len(combo) <= max_size))
    room = max_size - len(seed)
    extra = draw(hands(max(0, min(room, min_size - len(seed))), room, rules.decks))
    return Hand.from_cards(seed.cards) | extra


@st.composite
def bomb_scenarios(
    draw: st.DrawFn, rules: BaseRules, max_size: int = 13
) -> tuple[Hand, Combo]:
    """A hand holding a bomb, and a top that bomb may beat by the table or chain.

    The caller makes sure *rules* has a bomb row whose bomb fits in *max_size* cards.
    """
    rows = [row for row in bomb_rows(rules) if row[0].size <= max_size]
    bomb_shape, target_shape, rank = draw(st.sampled_from(rows))
    bomb = draw(combos(rules, shape=bomb_shape))
    top = draw(combos(rules, shape=target_shape, top_rank=rank))
    room = max_size - len(bomb)
    extra = draw(hands(0, room, rules.decks))
    return Hand.from_cards(bomb.cards) | extra, top


def rulesets() -> st.SearchStrategy[BaseRules]:
    """One of the five presets (RULES §2–§6) or `CLASSIC_TWO_DECKS` (§2.1)."""
    return st.sampled_from((*PRESETS, CLASSIC_TWO_DECKS))


_TABLES: tuple[tuple[int, int, int], ...] = ((1, 2, 4), (2, 5, 8))
"""``(decks, min_players, max_players)``: one deck for 2–4, two for 5–8 (RULES §2.1)."""
_OPTIONAL_KINDS = tuple(kind for kind in ComboKind if kind is not ComboKind.SINGLE)
_TARGET_RANKS: tuple[Rank | None, ...] = (Rank.TWO, None, Rank.ACE, Rank.SEVEN)


@st.composite
def base_rules(draw: st.DrawFn) -> BaseRules:
    """A generated rule set: random shape settings and an acyclic random bomb table.

    Settings drawn (RULES §11): which kinds exist (incl. consecutive quads), 2s in
    straights / consecutive pairs / quads, min and max consecutive pairs, one or two decks
    (2–4 or 5–8 players), bomb rows drawn from the valid shapes (any or one target rank) and a
    bomb chain. Shapes are put in a random "power" order and every bomb row and chain
    step goes up that order, so no shape can both beat and be beaten by another.
    """
    decks, fewest_players, most_players = draw(st.sampled_from(_TABLES))
    kinds = frozenset(
        {ComboKind.SINGLE} | draw(st.sets(st.sampled_from(_OPTIONAL_KINDS)))
    )
    least = draw(st.integers(3, 13))
    most = draw(st.integers(least, 13))
    fewest_triples = draw(st.integers(2, 5))
    plain = _Settings(
        kinds=kinds,
        twos_in_straights=draw(st.booleans()),
        twos_in_consecutive_pairs=draw(st.booleans()),
        twos_in_consecutive_quads=draw(st.booleans()),
        min_consecutive_pairs=least,
        max_consecutive_pairs=most,
        twos_in_consecutive_triples=draw(st.booleans()),
        min_consecutive_triples=fewest_triples,
        max_consecutive_triples=draw(st.integers(fewest_triples, 13)),
        decks=decks,
    )
    power = draw(st.permutations(valid_shapes(plain)))
    bombs: list[Bomb] = []
    if len(power) >= 2:
        rows = draw(
            st.lists(
                st.tuples(
                    st.lists(
                        st.integers(0, len(power) - 1),
                        min_size=2,
                        max_size=2,
                        unique=True,
                    ),
                    st.sampled_from(_TARGET_RANKS),
                ),
                max_size=6,
            )
        )
        for (first, second), rank in rows:
            low, high = sorted((first, second))
            bombs.append(Bomb(bomb=power[high], target=power[low], target_rank=rank))
    chain_at = (
        draw(st.sets(st.integers(0, len(power) - 1), max_size=4)) if power else set()
    )
    chain = tuple(power[i] for i in sorted(chain_at))
    return BaseRules(
        name="generated",
        decks=decks,
        min_players=fewest_players,
        max_players=most_players,
        bombs=bombs,
        bomb_chain=chain,
        kinds=plain.kinds,
        twos_in_straights=plain.twos_in_straights,
        twos_in_consecutive_pairs=plain.twos_in_consecutive_pairs,
        twos_in_consecutive_quads=plain.twos_in_consecutive_quads,
        min_consecutive_pairs=plain.min_consecutive_pairs,
        max_consecutive_pairs=plain.max_consecutive_pairs,
        twos_in_consecutive_triples=plain.twos_in_consecutive_triples,
        min_consecutive_triples=plain.min_consecutive_triples,
        max_consecutive_triples=plain.max_consecutive_triples,
    )


@st.composite
def house_rules(draw: st.DrawFn) -> BaseRules:
    """A generated rule set (`base_rules`) with the combination house rules of RULES §12.

    Drawn on top: bombs and fours that may not lead (§12.1), suited straights (§12.2),
    n + k pairs beating n 2s (§12.3), longer pair runs beating shorter ones (§12.6).
    The pair-run formulas need consecutive pairs; when they would make two shapes beat
    each other with the drawn bomb table, the rule set is built without them.
    """
    base = draw(base_rules())
    pairs = ComboKind.CONSECUTIVE_PAIRS in base.kinds
    single = Shape.of(ComboKind.SINGLE)
    single_bombs = single in base.bomb_chain or any(
        r.bomb == single for r in base.bombs
    )
    house = attrs.evolve(
        base,
        name="house",
        # D-25: no bomb leads then, and a table barring singles is refused
        bombs_may_lead=draw(st.booleans()) or single_bombs,
        four_of_a_kind_may_lead=draw(st.booleans()),
        suited_straights=ComboKind.STRAIGHT in base.kinds and draw(st.booleans()),
    )
    k = draw(st.none() | st.integers(1, 4)) if pairs else None
    longer = pairs and draw(st.booleans())
    try:
        return attrs.evolve(
            house, pair_runs_beat_twos=k, longer_pair_runs_beat_shorter=longer
        )
    except InvalidRulesError:  # the formulas contradict the drawn bomb table
        return house
