"""The ``decks`` setting: one deck by default, two decks on purpose (RULES §1.1, §2.1; issue 13 §5).

Every preset is one deck for two to four players; `CLASSIC_TWO_DECKS` (and
`two_decks` of any rule set) seats five to eight. Under one deck a card held twice
is refused wherever cards come in; under two decks both copies are equal. Records
written before the setting existed replay with the decks their game was dealt from.
The whole-game random walks of two-deck tables (5–8 players) are in
``tests/game/test_game_stateful.py`` (`TABLES` holds the two-deck tables).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    BaseRules,
    Combo,
    GameState,
    Hand,
    IllegalPlayError,
    IllegalReason,
    InvalidCardError,
    InvalidRulesError,
    InvalidStateError,
    Match,
    Play,
    beats,
    classify,
    get_rules,
    legal_plays,
)
from tienlen.explain import explain_beats, why_not_combination
from tienlen.records import (
    dumps,
    from_json,
    loads,
    record,
    rules_from_json,
    rules_to_json,
)
from tienlen.rules import two_decks

_evolve: Callable[..., BaseRules] = attrs.evolve  # settings named at run time
GOLDEN = Path(__file__).parents[1] / "golden"


def combo(text: str, rules: BaseRules = CLASSIC_TWO_DECKS) -> Combo:
    """The combination *text* forms under *rules* (it must form one)."""
    found = classify(text, rules)
    assert found is not None
    return found


TWO_DECK_PAIR = combo("7h 7h")
BIG_POKER = attrs.evolve(
    POKER,
    name="big-poker",
    decks=2,
    min_players=5,
    max_players=8,
    place_points=(4, 2, 1, 0, 0, 0, 0, 0),
)
"""Poker on two decks: a house rule, with a place value for each of eight places."""


# -- the setting -----------------------------------------------------------------------


def test_every_preset_is_one_deck_for_two_to_four() -> None:
    """RULES §1.1, §2.1, §10: the five presets deal one deck to 2–4 players."""
    for rules in RULESETS.values():
        assert (rules.decks, rules.min_players, rules.max_players) == (1, 2, 4)
        assert [rules.deal_size(n)[0] for n in (2, 3, 4)] == [1, 1, 1]


def test_classic_two_decks_is_classic_for_five_to_eight() -> None:
    """RULES §2.1: five to eight play classic on two decks shuffled together, 13 each."""
    assert two_decks(CLASSIC) == CLASSIC_TWO_DECKS
    assert (
        attrs.evolve(
            CLASSIC, name="classic-two-decks", decks=2, min_players=5, max_players=8
        )
        == CLASSIC_TWO_DECKS
    )
    assert [CLASSIC_TWO_DECKS.deal_size(n) for n in (5, 8)] == [(2, 13), (2, 13)]
    for name in ("classic-two-decks", "Two Decks", "classic_2_decks"):
        assert get_rules(name) is CLASSIC_TWO_DECKS
    assert CLASSIC_TWO_DECKS.name not in RULESETS  # the five variants only


def test_two_decks_of_any_rule_set() -> None:
    """RULES §10: Justus Pang and Kenneth Lo seat five or more "as classic"; contradictions refused."""
    for rules in (JUSTUS_PANG, KENNETH_LO):
        big = two_decks(rules)
        assert big == attrs.evolve(
            rules, name=f"{rules.name}-two-decks", decks=2, min_players=5, max_players=8
        )
        assert two_decks(big) is big
    with pytest.raises(
        InvalidRulesError, match="place_points needs a value for each of 8"
    ):
        two_decks(POKER)
    with pytest.raises(TypeError):
        two_decks("classic")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"decks": 0}, "decks must be 1 or 2, got 0"),
        ({"decks": 3}, "decks must be 1 or 2, got 3"),
        (
            {"max_players": 5},
            (
                "one deck seats at most 4 players, not max_players=5: five to eight "
                "play with two decks (CLASSIC_TWO_DECKS, or attrs.evolve(rules, "
                "decks=2, min_players=5, max_players=8))"
            ),
        ),
        (
            {"decks": 2, "max_players": 8},
            (
                "two decks are for five to eight players, not min_players=2 "
                "(RULES §2.1): set min_players=5, or play 2-4 players with decks=1"
            ),
        ),
        ({"decks": 2, "min_players": 5, "max_players": 9}, "<= 8"),
    ],
)
def test_deck_contradictions_are_refused(
    changes: dict[str, object], message: str
) -> None:
    """RULES §1.1, §2.1, §11: one deck seats 2–4, two decks 5–8; anything else is refused."""
    with pytest.raises(InvalidRulesError) as info:
        _evolve(CLASSIC, **changes)
    assert str(info.value).startswith("invalid rule set 'classic': ")
    assert message in str(info.value)


@pytest.mark.parametrize("value", ["2", 2.0, True, None, (2,)])
def test_decks_of_the_wrong_type_are_refused(value: object) -> None:
    """RULES §11, issue 13 §5: a wrong type is refused naming the setting, as a TypeError too."""
    with pytest.raises(TypeError, match=r"decks must be an int, got ") as info:
        _evolve(CLASSIC, decks=value)
    assert isinstance(info.value, InvalidRulesError)


# -- duplicates: refused under one deck wherever cards come in --------------------------

ONE_DECK_REFUSALS: dict[str, Callable[[], object]] = {
    "classify-text": lambda: classify("10h 10h"),
    "classify-cards": lambda: classify(list(Hand.parse("7h 7h"))),
    "classify-hand": lambda: CLASSIC.classify(Hand.parse("7h 7h")),
    "classify-combo": lambda: CLASSIC.classify(TWO_DECK_PAIR),
    "legal-plays-text": lambda: legal_plays("3s 3s 4d"),
    "legal-plays-hand": lambda: CLASSIC.legal_plays(Hand.parse("3s 3s 4d")),
    "legal-plays-top": lambda: CLASSIC.legal_plays(Hand.parse("8s 8c"), TWO_DECK_PAIR),
    "beats-text": lambda: beats("7h 7h", "6s 6c"),
    "beats-play": lambda: CLASSIC.beats(TWO_DECK_PAIR, combo("6s 6c", CLASSIC)),
    "beats-top": lambda: CLASSIC.beats(combo("8s 8c", CLASSIC), TWO_DECK_PAIR),
    "explain-beats": lambda: explain_beats("7h 7h", "6s 6c", CLASSIC),
    "why-not": lambda: why_not_combination("7h 7h 7c", CLASSIC),
    "bombs-against": lambda: CLASSIC.bombs_against(TWO_DECK_PAIR),
    "is-chop-target": lambda: POKER.is_chop_target(TWO_DECK_PAIR),
    "is-catch": lambda: POKER.is_catch(TWO_DECK_PAIR, combo("2h", POKER)),
    "may-jump-in": lambda: POKER.may_jump_in(TWO_DECK_PAIR, combo("2h", POKER)),
    "chop-value": lambda: POKER.chop_value(TWO_DECK_PAIR),
    "hand-value": lambda: POKER.hand_value(Hand.parse("2s 2s")),
    "instant-win": lambda: POKER.instant_win(Hand.parse("2s 2s 2c 2d")),
}
"""Every public entry point that takes cards, fed a card twice under a one-deck rule set."""


@pytest.mark.parametrize("call", ONE_DECK_REFUSALS.values(), ids=ONE_DECK_REFUSALS)
def test_one_deck_refuses_a_card_held_twice(call: Callable[[], object]) -> None:
    """RULES §1.1, issue 13: under one deck a duplicate card is an InvalidCardError naming the deck."""
    with pytest.raises(
        InvalidCardError, match=r"duplicate card '(7h|3s|Th|2s)' .*one deck"
    ):
        call()


def test_the_reported_typo_is_refused_not_a_pair() -> None:
    """Issue 13: ``classify("10h 10h", CLASSIC)`` was a pair; now it names the duplicate."""
    with pytest.raises(InvalidCardError) as info:
        classify("10h 10h", CLASSIC)
    assert (
        str(info.value)
        == "duplicate card 'Th' in '10h 10h': classic is played with one deck"
    )


@pytest.mark.parametrize(
    "hands", [["3s 3s 9h", "4d"], ["3s 9h", "3s 4d"]], ids=["one-hand", "two-hands"]
)
def test_one_deck_deal_refuses_a_card_dealt_twice(hands: list[str]) -> None:
    """RULES §1.1, §2.1: `from_hands` under one deck refuses a card dealt twice."""
    with pytest.raises(InvalidStateError, match="'3s' is dealt more often than 1 deck"):
        GameState.from_hands(hands, CLASSIC)


def test_one_deck_game_refuses_a_play_of_a_card_twice() -> None:
    """RULES §1.1, §1.5: a one-deck hand never holds a second copy, so such a play is refused."""
    state = GameState.from_hands(["3s 7h 8d", "9c"], CLASSIC)
    action = state.parse_action("3s 3s")
    with pytest.raises(IllegalPlayError) as info:
        state.apply(action)
    assert info.value.reason is IllegalReason.CARD_REPEATED
    assert not state.is_legal(action)


TWO_DECK_ANSWERS: dict[str, tuple[Callable[[], object], object]] = {
    "classify": (lambda: str(classify("7h 7h", CLASSIC_TWO_DECKS)), "7h 7h"),
    "legal-plays": (lambda: len(legal_plays("3s 3s", rules=CLASSIC_TWO_DECKS)), 2),
    "beats-equal": (lambda: beats("7h", "7h", CLASSIC_TWO_DECKS), False),
    "beats": (lambda: beats("7h 7h", "7s 7d", CLASSIC_TWO_DECKS), True),
    "bombs-against": (
        lambda: CLASSIC_TWO_DECKS.bombs_against(TWO_DECK_PAIR),
        frozenset(),
    ),
    "hand-value": (lambda: BIG_POKER.hand_value(Hand.parse("2s 2s")), 2),
    "chop-target": (
        lambda: BIG_POKER.is_chop_target(combo("2h 2h", BIG_POKER)),
        True,
    ),
    "instant-win": (
        lambda: getattr(
            BIG_POKER.instant_win(Hand.parse("2h 2h 2s 2c 4d")), "value", None
        ),
        "four-twos",
    ),
}
"""The same questions under two decks: duplicates are ordinary cards (RULES §1.1)."""


@pytest.mark.parametrize(
    ("call", "expected"), TWO_DECK_ANSWERS.values(), ids=TWO_DECK_ANSWERS
)
def test_two_decks_accept_a_card_held_twice(
    call: Callable[[], object], expected: object
) -> None:
    """RULES §1.1, §2.1: with two decks both copies count, are equal, and never beat each other."""
    assert call() == expected


# -- dealing five to eight -------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_five_to_eight_are_dealt_only_with_two_decks(players: int) -> None:
    """RULES §2.1, issue 13 §5: CLASSIC refuses 5–8 naming the two-deck way; two decks deal them."""
    with pytest.raises(InvalidRulesError, match=r"CLASSIC_TWO_DECKS, or attrs\.evolve"):
        GameState.deal(CLASSIC, players, seed=1)
    with pytest.raises(InvalidStateError, match="five to eight play with two decks"):
        GameState.from_hands(["3s"] * players, CLASSIC)
    with pytest.raises(InvalidRulesError, match="two decks"):
        Match.start(CLASSIC, players, seed=1)
    state = GameState.deal(CLASSIC_TWO_DECKS, players, seed=players)
    assert [len(hand) for hand in state.hands] == [13] * players
    everything = Hand.from_cards(card for hand in state.hands for card in hand)
    assert everything.mask >> 52  # 13 × players > 52: some card is dealt twice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_decks_do_not_seat_two_to_four(players: int) -> None:
    """RULES §1.1, §2.1: two decks are only for more than four players."""
    with pytest.raises(InvalidRulesError, match="played by 5-8 players"):
        GameState.deal(CLASSIC_TWO_DECKS, players, seed=1)


# -- records written before the setting -----------------------------------------------


def _golden_record(name: str) -> dict[str, object]:
    line = (GOLDEN / name).read_text(encoding="utf-8").splitlines()[0]
    entry = json.loads(line)["record"]
    assert isinstance(entry, dict)
    return entry


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_version_1_record_of_five_to_eight_replays_on_two_decks(players: int) -> None:
    """RULES §2.1: a version-1 classic record of 5–8 players reads as classic on two decks."""
    data = _golden_record(f"classic-{players}p.jsonl")
    assert data["version"] == 1
    game = from_json(data)
    assert game.rules == attrs.evolve(CLASSIC_TWO_DECKS, name="classic")
    assert len(game.hands) == players


def test_version_1_record_of_four_replays_on_one_deck() -> None:
    """RULES §2.1: a version-1 classic record of 2–4 players reads as today's CLASSIC."""
    data = _golden_record("classic-4p.jsonl")
    assert data["version"] == 1
    assert from_json(data).rules == CLASSIC
    v1 = {"name": "classic", "base": "classic", "changes": {}}
    assert (
        rules_from_json(v1, version=1) == CLASSIC
    )  # no table size: the one-deck table
    assert rules_from_json(v1, version=1, players=6).decks == 2


@pytest.mark.parametrize(("players", "decks"), [(4, 1), (6, 2)])
def test_version_2_record_without_decks_reads_the_decks_it_implied(
    players: int, decks: int
) -> None:
    """RULES §2.1: a format-2 record written before ``decks`` (max_players 8) keeps its deal."""
    rules = CLASSIC if players == 4 else CLASSIC_TWO_DECKS
    text = dumps(record(_finished(GameState.deal(rules, players, seed=3))))
    data = json.loads(text)
    settings = data["rules"]["settings"]
    del settings["decks"]
    settings["min_players"], settings["max_players"] = 2, 8  # as classic was written
    game = from_json(data)
    assert game.rules.decks == decks
    assert (game.rules.min_players, game.rules.max_players) == (
        (2, 4) if decks == 1 else (5, 8)
    )
    assert game.final == loads(text).final


def test_a_record_written_today_holds_decks() -> None:
    """Records (format 2) write ``decks`` with every setting and read it back."""
    assert rules_to_json(CLASSIC_TWO_DECKS)["settings"]["decks"] == 2  # type: ignore[index,call-overload]
    state = _finished(GameState.deal(CLASSIC_TWO_DECKS, 6, seed=5))
    assert loads(dumps(record(state))).rules == CLASSIC_TWO_DECKS


def _finished(state: GameState) -> GameState:
    """*state* played out: the first legal action each time (a play when there is one)."""
    while not state.is_over:
        actions = state.legal_actions()
        plays = [action for action in actions if isinstance(action, Play)]
        state = state.apply(plays[0] if plays else actions[0])
    return state
