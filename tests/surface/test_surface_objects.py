"""The small surface of the value objects: sequences, text forms, pictures, type errors."""

from __future__ import annotations

import itertools
import operator
import pickle

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    Card,
    Combo,
    ComboKind,
    GameState,
    Hand,
    InvalidComboError,
    Pass,
    Play,
    Rank,
    Suit,
    classify,
    legal_plays,
)


def _poker_jump_in_state() -> GameState:
    """RULES §9 row 17: 2♥ on top; player 1, who passed, may jump in (RULES §6.4)."""
    state = GameState.from_hands(
        ["3s 2h 8c", "4s 4c 5s 5c 6s 6c 7s 7c 9s", "9c Ts", "3c 8d"], POKER
    )
    return state.play("3s").pass_turn().play("Ts").pass_turn().play("2h")


def test_actions_index_like_they_iterate() -> None:
    """legal_actions() is a Sequence: indexing, negative indexes and slices agree with iteration."""
    actions = _poker_jump_in_state().legal_actions()
    listed = list(actions)
    assert [actions[i] for i in range(len(actions))] == listed
    assert actions[-1] == listed[-1]
    assert list(actions[1:]) == listed[1:]
    assert listed == [Pass(player=2), Play(player=1, cards="4s 4c 5s 5c 6s 6c 7s 7c")]
    with pytest.raises(IndexError):
        actions[len(actions)]
    assert repr(actions) == "<Actions (2): [2:pass, 1:4s 4c 5s 5c 6s 6c 7s 7c]>"


def _single_two_with_bombs() -> GameState:
    """Classic: 2♠ on top; the player to act holds a higher 2 and two bombs (RULES §2.3)."""
    state = GameState.from_hands(
        ["3s 2s", "2h 5s 5c 5d 5h 7s 7c 8s 8c 9s 9c 4d", "6d Kh"], CLASSIC
    )
    return state.play("3s").pass_turn().pass_turn().play("2s")


@pytest.mark.parametrize(
    "state",
    [
        _single_two_with_bombs(),  # singles kept as one mask, then the bombs
        GameState.from_hands(["3s 4d 5c 6h 6s 7c 9d", "8s"], CLASSIC),  # 3♠ first lead
        GameState.from_hands(["3s 4d 5c 6h 6s 7c 9d", "8s"], CLASSIC).play("3s"),
        _poker_jump_in_state(),  # a pass, then another player's jump-in
    ],
    ids=["single-2-with-bombs", "first-lead", "lead-with-runs", "poker-jump-in"],
)
def test_actions_index_like_they_iterate_in_every_layout(state: GameState) -> None:
    """legal_actions() indexes, from either end and by slices, exactly as it iterates."""
    actions = state.legal_actions()
    listed = list(actions)
    size = len(actions)
    assert size == len(listed) > 0
    assert [actions[i] for i in range(size)] == listed
    assert [actions[i] for i in range(-size, 0)] == listed
    assert list(actions[:]) == listed
    assert list(actions[::-1]) == listed[::-1]
    assert list(actions[1::2]) == listed[1::2]
    for outside in (size, -size - 1):
        with pytest.raises(IndexError):
            actions[outside]
    assert all(state.is_legal(action) for action in listed)
    # membership answers without building the actions, for equal copies too
    for action in listed:
        assert action in actions
        copy = (
            Play(player=action.player, cards=action.cards)
            if isinstance(action, Play)
            else Pass(player=action.player)
        )
        assert copy in actions
    others: list[object] = [
        Pass(player=p) for p in range(state.players) if Pass(player=p) not in listed
    ]
    others += [Play(player=p, cards="3s 4s") for p in range(state.players)]
    assert not any(other in actions for other in others)
    assert "pass" not in actions
    assert None not in actions


def test_single_plays_come_first_then_bombs() -> None:
    """RULES §2.3: on a single 2, the higher 2 is listed before the bombs, then the pass."""
    shown = [str(action) for action in _single_two_with_bombs().legal_actions()]
    assert shown == [
        "2h",
        "5s 5c 5d 5h",
        "7s 7c 8s 8c 9s 9c",
        "pass",
    ]


def test_a_finished_game_has_no_actions() -> None:
    """RULES §2.5: once the game is over nobody acts."""
    state = GameState.from_hands(["3s", "4s"], CLASSIC).play("3s")
    assert state.is_over
    assert len(state.legal_actions()) == 0
    assert list(state.legal_actions()) == []


def test_state_text_shows_the_table() -> None:
    """str(state) shows each hand, whose turn it is, passes, finishers, the top and the result."""
    state = GameState.from_hands(["3s 9h 4c", "8d", "5c Jd"], CLASSIC)
    state = state.play("3s").play("8d").pass_turn()
    text = str(state)
    assert text.splitlines()[0] == "classic, 3 players"
    assert "  1:   (out #1)" in text
    assert "  2: 5c Jd  (passed)" in text
    assert "  0: 4c 9h  (to act)" in text
    assert "  top: 8d" in text
    over = state.pass_turn().play("5c").play("9h").play("Jd")
    assert "over: order [1, 2, 0], scores [-2, 1, 1]" in str(over)


def test_states_actions_and_plays_pickle() -> None:
    """A state, its legal actions and a hand's plays survive pickling (to other processes)."""
    state = GameState.from_hands(["3s 4d 5c 6h 7s", "2h 9c"], CLASSIC).play("3s")
    state = state.pass_turn()  # player 0 leads again: runs among the plays
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    assert copy == state
    assert copy.history == state.history
    actions = state.legal_actions()
    assert list(pickle.loads(pickle.dumps(actions))) == list(actions)  # noqa: S301
    for action in actions:  # plays made by the original are checked by the copy
        assert copy.apply(action) == state.apply(action)
    plays = legal_plays("4d 5c 6h 7s")
    assert pickle.loads(pickle.dumps(plays)) == plays  # noqa: S301
    assert len(pickle.dumps(plays)) < 1000  # the plays, not the generator's tables


def test_state_repr_is_short() -> None:
    """repr(state) names the rules, the hands, whose turn it is and the top."""
    state = GameState.from_hands(["3s 9h 4c", "8d", "5c Jd"], CLASSIC).play("3s")
    assert repr(state) == (
        "<GameState classic: hands=['4c 9h', '8d', '5c Jd'], to_act=1, top='3s'>"
    )
    over = GameState.from_hands(["3s", "4s"], CLASSIC).play("3s")
    assert (
        repr(over)
        == "<GameState classic: hands=['', '4s'], to_act=None, top='3s', over>"
    )


def test_pictures_for_notebooks() -> None:
    """Cards, hands, combinations and states render as SVG documents (Jupyter _repr_svg_)."""
    state = GameState.deal(CLASSIC, 4, seed=1)
    combo = classify("3s 3h")
    assert combo is not None
    for picture in (
        Card.parse("Th")._repr_svg_(),
        Hand.parse("3s 4s")._repr_svg_(),
        combo._repr_svg_(),
        state._repr_svg_(),
    ):
        assert picture.startswith("<svg")
        assert picture.rstrip().endswith("</svg>")


def test_apply_refuses_what_is_not_an_action() -> None:
    """Only Play and Pass are actions; anything else is a TypeError, not a silent answer."""
    state = GameState.from_hands(["3s 4s", "5d"], CLASSIC)
    with pytest.raises(TypeError, match="expected a Play or Pass"):
        state.apply("3s")  # type: ignore[arg-type]


def test_cards_rank_and_suit_order_only_among_themselves() -> None:
    """RULES §1.1: cards, ranks and suits are ordered; mixing types is a TypeError."""
    three, two = Card.parse("3s"), Card.parse("2h")
    assert three < two
    assert three <= Card.parse("3s")
    assert two > three
    assert two >= Card.parse("2h")
    assert Rank.THREE <= Rank.THREE < Rank.TWO
    assert Rank.TWO >= Rank.ACE > Rank.KING
    assert Suit.SPADES <= Suit.CLUBS < Suit.HEARTS
    assert Suit.HEARTS >= Suit.HEARTS > Suit.DIAMONDS
    for low, high in ((three, 1), (Rank.THREE, Suit.SPADES), (Suit.SPADES, Rank.THREE)):
        for compare in (operator.lt, operator.le, operator.gt, operator.ge):
            with pytest.raises(TypeError):
                compare(low, high)


def test_hand_operators_need_hands() -> None:
    """Hand set operators take hands; anything else is a TypeError."""
    hand = Hand.parse("3s 4s")
    for operate in (
        operator.or_,
        operator.and_,
        operator.sub,
        operator.add,
        operator.le,
        operator.ge,
    ):
        with pytest.raises(TypeError):
            operate(hand, "3s")
    assert hand >= Hand.parse("3s")
    assert Card.parse("3s") in hand
    assert "3s" not in hand


def test_a_combo_refuses_a_key_that_does_not_fit_its_cards() -> None:
    """Combo(mask, key) is checked: the key must describe the cards (RULES §1.2)."""
    pair = classify("7s 7h")
    assert pair is not None
    assert Combo(mask=pair.mask, key=pair.key) == pair
    with pytest.raises(InvalidComboError):
        Combo(mask=pair.mask, key=pair.key + 1)
    with pytest.raises(InvalidComboError):
        Combo(mask=0, key=0)
    with pytest.raises(TypeError, match="mask is an int, got True"):
        Combo(True, pair.key)
    with pytest.raises(TypeError, match=r"key is an int, got 1\.5"):
        Combo(pair.mask, 1.5)
    with pytest.raises(AttributeError):
        pair.mask = 3  # type: ignore[misc]


# ``pickle.dumps(classify("3s 4s 5h"), protocol=2)`` from tienlen 0.2, when `Combo` was
# an attrs class: a blank object and its fields as a dict.
_ATTRS_COMBO_PICKLE = bytes.fromhex(
    "8002637469656e6c656e2e636f6d626f730a436f6d626f0a7100298171017d7102285805000000"
    "5f6d61736b71034d110858040000005f6b657971044dcb5075622e"
)


def test_combos_pickle_and_load_as_their_cards() -> None:
    """A combination pickles as its mask and key, checked again on loading."""
    straight = classify("3s 4s 5h")
    assert straight is not None
    copy = pickle.loads(pickle.dumps(straight))  # noqa: S301 - our own bytes
    assert type(copy) is Combo
    assert (copy, copy.key, copy.kind) == (straight, straight.key, straight.kind)
    assert pickle.loads(_ATTRS_COMBO_PICKLE) == straight  # noqa: S301
    forged = _ATTRS_COMBO_PICKLE.replace(b"M\xcbP", b"M\xccP")  # the key, off by one
    with pytest.raises(InvalidComboError):
        pickle.loads(forged)  # noqa: S301
    blank = Combo.__new__(Combo)
    with pytest.raises(TypeError, match="mask is an int, got None"):
        blank.__setstate__("not the fields")


def test_leads_without_some_kinds_match_brute_force() -> None:
    """A house rule without triples still lists exactly its combinations as leads (RULES §11)."""
    house = attrs.evolve(
        CLASSIC,
        name="no-triples",
        kinds=frozenset(ComboKind) - {ComboKind.TRIPLE, ComboKind.CONSECUTIVE_QUADS},
        bombs=[
            bomb for bomb in CLASSIC.bombs if bomb.target.kind is not ComboKind.TRIPLE
        ],
    )
    hand = Hand.parse("3s 3c 3d 4s 4c 5h 6d 9s 9c 9d 2h")
    cards = hand.cards
    expected = set()
    for size in range(1, len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            combo = classify(chosen, house)
            if combo is not None:
                expected.add(combo)
    plays = legal_plays(hand, None, house)
    assert set(plays) == expected
    assert len(plays) == len(expected)
    assert all(play.kind is not ComboKind.TRIPLE for play in plays)
