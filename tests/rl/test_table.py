"""The fixed action table (issue 12 §1): its sizes, index ↔ action, fills and masks."""

from __future__ import annotations

import random

import attrs
import pytest

pytest.importorskip("numpy")

from tests.rl.walk import TABLES, table_id
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    POKER,
    RULESETS,
    BaseRules,
    ComboKind,
    GameState,
    Hand,
    Pass,
    Play,
    RuleSet,
    Shape,
    classify,
)
from tienlen.rl import ACTIONS, ActionClass, ActionTable, UnknownActionError
from tienlen.rl.table import card_value, class_key, is_structure, rule_classes
from tienlen.rl.turns import split_by_seat
from tienlen.rules import two_decks

PRESETS = list(RULESETS.values())


def key_of(cards: Hand | str, rules: RuleSet) -> int:
    """The `Combo.key` `classify` gives *cards* under *rules* (they must be a combination)."""
    combo = classify(cards, rules)
    assert combo is not None
    return combo.key


def test_sizes_pass_and_order() -> None:
    """Issue 12 §1.

    PASS is 0; the presets' one-deck classes fill indices 1-615 (616 entries), the two-
    deck classes follow (829 in all), each part ordered by kind, length and top card.
    """
    assert ACTIONS.PASS == 0
    assert ACTIONS[0] is None
    assert ACTIONS.size == 616
    assert ACTIONS.base_size == len(ACTIONS) == 829
    for part in (ACTIONS[1 : ACTIONS.size], ACTIONS[ACTIONS.size :]):
        keys = [(c.kind.value, c.length, c.top.index) for c in part if c is not None]
        assert keys == sorted(keys)
        assert len(set(keys)) == len(keys)


@pytest.mark.parametrize(
    ("rules", "count"),
    [(CLASSIC, 592), (JUSTUS_PANG, 548), (RULESETS["vietcong"], 571), (POKER, 407)],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_per_preset_counts_match_the_measured_figures(
    rules: BaseRules, count: int
) -> None:
    """RL.md §1: grouped classes per preset with one deck (592, 548, 571, 407)."""
    assert len(rule_classes(rules, 1)) == count
    assert all(
        1 <= ACTIONS.index_of_key(c.key) < ACTIONS.size for c in rule_classes(rules, 1)
    )


def _two_deck(rules: BaseRules) -> BaseRules | None:
    try:
        return two_decks(rules)
    except ValueError:
        return None


def test_classes_are_what_classify_can_return() -> None:
    """RULES §1.2-§1.4.

    Every class is the key `classify` gives its lowest fill under some preset (one deck
    for the first 616, two decks after); every key of the engine's validity tables is in
    the table except 49 no deal can make: a triple, four or quad run topped by a ♠ would
    need three cards at or below one ♠.
    """
    one_deck = Hand((1 << 52) - 1)
    two_decks = Hand((1 << 104) - 1)
    big = [r for r in map(_two_deck, PRESETS) if r is not None]
    for index in range(1, len(ACTIONS)):
        entry = ACTIONS[index]
        assert entry is not None
        if not ACTIONS.playable(index):
            continue
        play = ACTIONS.fill(index, one_deck if index < ACTIONS.size else two_decks, 0)
        assert isinstance(play, Play)
        hand = play.cards
        candidates = PRESETS if index < ACTIONS.size else big
        keys = {
            c.key for rules in candidates if (c := classify(hand, rules)) is not None
        }
        assert entry.key in keys, entry
    valid = set().union(*(rules._valid for rules in PRESETS))
    assert valid == {c.key for c in ACTIONS[1:] if c is not None}  # the key space
    unplayable = [c for i, c in enumerate(ACTIONS) if not ACTIONS.playable(i)]
    assert len(unplayable) == 49
    for entry in unplayable:
        assert entry is not None
        assert 2 * ((entry.key & 3) + 1) < entry.kind.per_rank


def test_house_rules_append_their_classes_after_the_base() -> None:
    """Issue 12 §1.

    A house rule set's extra classes come from the same generator, appended after the
    829 base entries, whose indices never move. Today's kinds are all used by a preset,
    so a rule set with every kind extends the table only by the kinds added later
    (consecutive triples, say).
    """
    every_kind = attrs.evolve(  # but five of a kind: the observations refuse it
        CLASSIC_TWO_DECKS, kinds=frozenset(ComboKind) - {ComboKind.FIVE_OF_A_KIND}
    )
    table = ActionTable.for_rules(every_kind)
    assert list(table[: ACTIONS.base_size]) == list(ACTIONS)
    extra = set(rule_classes(every_kind, 2)) - set(ACTIONS[1:])
    assert set(table[ACTIONS.base_size :]) == extra
    assert (
        ActionTable.for_rules(attrs.evolve(POKER, max_consecutive_pairs=6)) is ACTIONS
    )
    with pytest.raises(ValueError, match="already in the table"):
        ActionTable([ActionClass(ComboKind.STRAIGHT, 3, Hand.parse("5h").cards[0])])


def test_action_class_refuses_impossible_classes() -> None:
    """RULES §1.4: runs never wrap below the 3; lengths follow the kind."""
    four = Hand.parse("4s").cards[0]
    with pytest.raises(ValueError, match="tops at 4s"):
        ActionClass(ComboKind.STRAIGHT, 3, four)
    with pytest.raises(ValueError, match="spans one rank"):
        ActionClass(ComboKind.PAIR, 2, four)


def test_index_and_class_round_trip() -> None:
    """Issue 12 §1: index ↔ action both ways, and errors for what is not a class."""
    play = Play(player=1, cards="9s 9h Ts Td Jc Jd")
    entry = ACTIONS[ACTIONS.index(play)]
    assert entry == ActionClass(
        ComboKind.CONSECUTIVE_PAIRS, 3, Hand.parse("Jd").cards[0]
    )
    assert entry.key == key_of("9s 9h Ts Td Jc Jd", CLASSIC)
    assert ACTIONS.index(Pass(player=3)) == ACTIONS.PASS
    with pytest.raises(UnknownActionError, match="no combination"):
        ACTIONS.index(Play(player=0, cards="3s 5h"))
    with pytest.raises(UnknownActionError, match="no action 829"):
        ACTIONS[829]
    with pytest.raises(TypeError):
        ACTIONS["1"]  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        ACTIONS.index("3s")  # type: ignore[arg-type]


def test_errors_share_the_root_and_pickle() -> None:
    """COMMON: errors derive from TienLenError and ValueError and survive pickling."""
    import pickle  # noqa: PLC0415

    from tienlen import TienLenError  # noqa: PLC0415

    error = UnknownActionError("no action 9")
    assert isinstance(error, TienLenError)
    assert isinstance(error, ValueError)
    assert str(pickle.loads(pickle.dumps(error))) == "no action 9"  # noqa: S301  # our own bytes


def test_class_key_agrees_with_classify_on_two_decks() -> None:
    """Two decks (RULES §2.1): a pair of identical cards is a pair topped by that card."""
    rules = attrs.evolve(CLASSIC_TWO_DECKS, name="big")
    state = GameState.from_hands(["3s 3s 4c", "5d 6d", "7c", "8c", "9c"], rules)
    pair = next(
        a for a in state.legal_actions() if type(a) is Play and len(a.cards) == 2
    )
    assert isinstance(pair, Play)
    assert class_key(pair.cards.mask) == key_of(pair.cards, rules)
    assert ACTIONS.index(pair) >= ACTIONS.size  # a two-deck-only class


def test_fill_and_members() -> None:
    """Issue 12 §1.

    A class filled with the lowest suits the hand holds, or with a callable choosing
    among every play of the class; a class the hand lacks raises.
    """
    hand = Hand.parse("4s 4d 5c 5h 6s 6h 7d")
    index = ACTIONS.index(Play(player=0, cards="4d 5h 6h"))
    assert str(ACTIONS.fill(index, hand, 0)) == "4s 5c 6h"
    members = {str(m) for m in ACTIONS.members(index, hand)}
    assert members == {"4s 5c 6h", "4d 5c 6h", "4s 5h 6h", "4d 5h 6h"}
    highest = ACTIONS.fill(
        index, hand, 0, choose=lambda plays: max(plays, key=lambda p: p.cards.mask)
    )
    assert str(highest) == "4d 5h 6h"
    assert ACTIONS.fill(ACTIONS.PASS, hand, 2) == Pass(player=2)
    assert ACTIONS.members(ACTIONS.PASS, hand) == []
    with pytest.raises(UnknownActionError, match="holds no"):
        ACTIONS.fill(ACTIONS.index(Play(player=0, cards="9s")), hand, 0)


def _independent_classes(state: GameState, player: int) -> set[int]:
    """The classes of *player*'s legal actions, read through `classify` (not `class_key`)."""
    found = set()
    for action in state.legal_actions():
        if action.player != player:
            continue
        if type(action) is Pass:
            found.add(ACTIONS.PASS)
        else:
            assert isinstance(action, Play)
            found.add(ACTIONS.index_of_key(key_of(action.cards, state.rules)))
    return found


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_mask_is_the_legal_action_set(table: tuple[BaseRules, int]) -> None:
    """Issue 12 §1 gate.

    For every seat at every step of random games, the int8 mask holds exactly the
    classes of the seat's legal actions (read through `classify`), jump-ins (Poker,
    RULES §6.4) and continuation (Justus Pang, §3.4) included; and each masked class
    filled with the lowest suits is a legal action.
    """
    rules, players = table
    rng = random.Random(players)
    games = 25 if players <= 4 else 6
    for _ in range(games):
        state = GameState.deal(rules, players, seed=rng)
        while not state.is_over:
            for player in range(players):
                mask = ACTIONS.mask(state, player)
                assert mask.dtype.name == "int8"
                assert mask.shape == (ACTIONS.actions_for(players),)
                indices = set(mask.nonzero()[0].tolist())
                assert indices == _independent_classes(state, player)
                for index in indices:
                    action = ACTIONS.fill(index, state.hand(player), player)
                    assert action in state.legal_actions(), (state, action)
            actions = state.legal_actions()
            state = state.apply(actions[int(rng.random() * len(actions))])


def test_mask_of_a_seat_that_may_jump_in() -> None:
    """RULES §6.4 (Poker).

    Onto a 2, a player holding four consecutive pairs may jump in out of turn; their
    mask holds that class (and no pass), the actor's their own.
    """
    hands = ["2s 9h", "3c Kd", "5s 5c 6s 6c 7s 7c 8s 8c", "4d Qh"]
    state = GameState.from_hands(hands, POKER, first_game=False, leader=0).play("2s")
    assert state.to_act == 3
    jump = ACTIONS.legal_indices(state, 2)
    assert [str(ACTIONS[i]) for i in jump] == ["4 consecutive pairs to 8c"]
    assert ACTIONS.fill(jump[0], state.hand(2), 2) in state.legal_actions()
    assert ACTIONS.legal_indices(state, 3) == [ACTIONS.PASS]
    assert ACTIONS.legal_indices(state, 1) == []


def test_continuation_classes_are_the_same_shape() -> None:
    """RULES §3.4 (Justus Pang): continuing one's own trick allows the same shape only."""
    state = GameState.from_hands(["3s 4s 5s 9h 9d", "6c 7c"], JUSTUS_PANG)
    state = state.play("3s 4s 5s").pass_turn()
    assert state.is_continuing
    classes = {ACTIONS[i] for i in ACTIONS.legal_indices(state, 0)}
    assert None in classes
    assert {c.shape for c in classes if c is not None} <= {
        Shape.of(ComboKind.STRAIGHT, 3)
    }


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_int_path_matches_the_objects(table: tuple[BaseRules, int]) -> None:
    """Issue 21 item 7: the environments read a decision on ints only.

    At every step of random games, `split_by_seat` over `Actions.masks` gives each
    seat's actions as the `Play`/`Pass` objects do (jump-ins in play direction), and
    `ActionTable.group_masks` groups them as `ActionTable.group` groups the objects;
    the lowest-valued member of each class is `ActionTable.fill`'s play.
    """
    rules, players = table
    table_ = ActionTable.for_rules(rules)
    rng = random.Random(players + 7)
    for _ in range(8 if players <= 4 else 3):
        state = GameState.deal(rules, players, seed=rng)
        while not state.is_over:
            actions = state.legal_actions()
            own, jump_ins = split_by_seat(state, actions.masks)
            by_seat: dict[int, list[int]] = {}
            for action in actions:
                mask = action.cards.mask if isinstance(action, Play) else 0
                by_seat.setdefault(action.player, []).append(mask)
            assert state.to_act is not None
            assert list(own) == by_seat.pop(state.to_act)
            assert [(seat, list(masks)) for seat, masks in jump_ins] == list(
                by_seat.items()
            )
            for seat, masks in [(state.to_act, own), *jump_ins]:
                groups = table_.group_masks(masks)
                objects = table_.group(actions, seat)
                assert list(groups) == list(objects)
                for index, members in groups.items():
                    assert members == [
                        a.cards.mask if isinstance(a, Play) else 0
                        for a in objects[index]
                    ]
                    lowest = min(members, key=card_value)
                    filled = table_.fill(index, state.hand(seat), seat)
                    assert lowest == (
                        filled.cards.mask if isinstance(filled, Play) else 0
                    )
            masks = actions.masks
            state = state.apply_mask(masks[int(rng.random() * len(masks))])


def test_group_masks_refuses_what_no_table_holds() -> None:
    """A mask that is no combination is refused with `UnknownActionError`."""
    with pytest.raises(UnknownActionError):
        ACTIONS.group_masks([Hand.parse("3s 5d").mask])


def test_mask_helpers_refuse_what_is_no_card_mask() -> None:
    """`is_structure` and `card_value` take card masks only: a bool or float is no mask."""
    for junk in (True, 1.5, None, "3s"):
        with pytest.raises(TypeError, match="a card mask is an int"):
            is_structure(junk)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a card mask is an int"):
            card_value(junk)  # type: ignore[arg-type]
    for outside in (-1, 1 << 104):
        assert not is_structure(outside)
        with pytest.raises(UnknownActionError, match="no card mask"):
            card_value(outside)
