"""A rule set compiles its rule book on first use (issue 35 §4): ``evolve`` stays cheap.

The settings are checked when the rule set is made, the move tables compiled the first
time a rule question needs them, once, under a lock; the compiled book is no part of
the value (equality, hash, repr, pickle).
"""

from __future__ import annotations

import copy
import pickle
import threading
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

from tests.strategies import house_rules
from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    POKER,
    RULESETS,
    BaseRules,
    Bomb,
    ComboKind,
    GameState,
    Hand,
    InvalidRulesError,
    Rank,
    Shape,
    classify,
)


def _compiled(rules: BaseRules) -> bool:
    return hasattr(rules, "_classifier")


def test_evolve_compiles_nothing() -> None:
    """A house rule is made without its move tables; the first question builds them."""
    house = attrs.evolve(CLASSIC, name="lazy", pass_locks_out=False)
    assert not _compiled(house)
    assert classify("3s 4s 5s", house) is not None
    assert _compiled(house)


@pytest.mark.parametrize(
    "question",
    [
        lambda rules: rules.classify("7s 7h"),
        lambda rules: rules.beats(classify("8s"), classify("7s")),
        lambda rules: rules.legal_plays(Hand.parse("3s 4s 5s 9d 9h 2c")),
        lambda rules: GameState.deal(rules, 4, seed=1).legal_actions(),
    ],
    ids=["classify", "beats", "legal_plays", "a game"],
)
def test_each_rule_question_compiles_on_first_use(question: object) -> None:
    """Whichever question comes first compiles the book, and answers as a fresh one."""
    house = attrs.evolve(CLASSIC, name="fresh")
    assert not _compiled(house)
    answer = question(house)  # type: ignore[operator]
    fresh_answer = question(attrs.evolve(CLASSIC, name="fresh"))  # type: ignore[operator]
    assert _compiled(house)
    assert repr(answer) == repr(fresh_answer)


def test_a_bad_rule_set_is_refused_at_evolve_not_at_first_use() -> None:
    """A bomb table whose shapes beat each other needs the bomb relation: still checked."""
    four, pairs = (
        Shape.of(ComboKind.FOUR_OF_A_KIND),
        Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3),
    )
    rows = {Bomb(bomb=four, target=pairs), Bomb(bomb=pairs, target=four)}
    with pytest.raises(InvalidRulesError, match=r"lets .* beat .* and .* beat"):
        attrs.evolve(CLASSIC, name="both-ways", bombs=rows)


def test_the_compiled_book_is_no_part_of_the_value() -> None:
    """Equality, hash, repr and pickle bytes ignore it; a copy compiles its own."""
    cold, warm = attrs.evolve(CLASSIC, name="v"), attrs.evolve(CLASSIC, name="v")
    classify("3s", warm)
    assert _compiled(warm)
    assert not _compiled(cold)
    assert cold == warm
    assert hash(cold) == hash(warm)
    assert repr(cold) == repr(warm)
    assert pickle.dumps(cold) == pickle.dumps(warm)
    for loaded in (
        pickle.loads(pickle.dumps(warm)),  # noqa: S301 - our own bytes
        copy.copy(warm),
        copy.deepcopy(warm),
    ):
        assert loaded == warm
        assert not _compiled(loaded)
        assert classify("7s 7h", loaded) == classify("7s 7h", warm)


def test_threads_compile_one_book_and_see_it_whole() -> None:
    """Eight threads asking at once get one rule book, and the same answer."""
    house = attrs.evolve(CLASSIC, name="raced")
    start = threading.Barrier(8)
    books: list[object] = []
    answers: list[object] = []

    def ask() -> None:
        start.wait()
        answers.append(house.classify("3s 4s 5s 6s"))
        books.append(house._rulebook())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(book) for book in books}) == 1
    assert len(set(map(repr, answers))) == 1
    assert answers[0] is not None


def _bombing_of_compiled(rules: BaseRules) -> frozenset[tuple[int, int]]:
    """The shape relation read off the compiled bomb table, key by key."""
    bombers = rules._compiled.bombers
    return frozenset(
        (code, key >> 6) for key, codes in bombers.items() for code in codes
    )


@pytest.mark.parametrize("rules", [*RULESETS.values(), CLASSIC_TWO_DECKS], ids=repr)
def test_the_bomb_relation_is_the_compiled_tables(rules: BaseRules) -> None:
    """`_bombing`, checked at construction, is what the compiled bomb table holds."""
    assert rules._bombing() == _bombing_of_compiled(rules)


@pytest.mark.parametrize(
    "changes",
    [
        {"pair_runs_beat_twos": 1},
        {"pair_runs_beat_twos": 3, "max_consecutive_pairs": 6},
        {"longer_pair_runs_beat_shorter": True},
        {
            "bombs": CLASSIC.bombs
            | {
                Bomb(
                    bomb=Shape.of(ComboKind.FOUR_OF_A_KIND),
                    target=Shape.of(ComboKind.PAIR),
                    target_rank=Rank.ACE,
                )
            }
        },
        {"bombs": frozenset(), "bomb_chain": POKER.bomb_chain},
        {"twos_in_consecutive_pairs": False, "pair_runs_beat_twos": 2},
    ],
    ids=repr,
)
def test_the_bomb_relation_of_house_rules_is_the_compiled_tables(
    changes: dict[str, object],
) -> None:
    """The rows at a rank, the chain and both pair-run formulas, per shape as per key."""
    rules = attrs.evolve(CLASSIC, name="house", **changes)  # type: ignore[arg-type]
    assert rules._bombing() == _bombing_of_compiled(rules)


@settings(max_examples=40, deadline=None)
@given(rules=house_rules())
def test_the_bomb_relation_of_any_rule_set_is_the_compiled_tables(
    rules: BaseRules,
) -> None:
    """Any house rule: the relation and the bomb shapes agree with the compiled book."""
    assert rules._bombing() == _bombing_of_compiled(rules)
    shapes = {
        Shape.from_code(code)
        for codes in rules._compiled.bombers.values()
        for code in codes
    }
    assert {s for s in rules._bomb_shapes if not rules.is_bomb(s)} == set()
    assert shapes <= rules._bomb_shapes


def test_an_interrupted_compile_leaves_nothing_half_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C in the middle of a compile: no book is kept, the next question compiles one."""
    house = attrs.evolve(CLASSIC, name="interrupted")
    compile_ = BaseRules._compile

    def interrupted(self: BaseRules) -> object:
        compile_(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(BaseRules, "_compile", interrupted)
    with pytest.raises(KeyboardInterrupt):
        house.classify("7s 7h")
    assert not _compiled(house)
    monkeypatch.undo()
    assert house.classify("7s 7h") == classify("7s 7h")


def test_a_bad_bomb_table_is_refused_every_time() -> None:
    """The bomb checks are shared by equal settings: a refusal is shared too."""
    four, pairs = (
        Shape.of(ComboKind.FOUR_OF_A_KIND),
        Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3),
    )
    rows = {Bomb(bomb=four, target=pairs), Bomb(bomb=pairs, target=four)}
    for _ in range(2):
        with pytest.raises(InvalidRulesError, match="beat"):
            attrs.evolve(CLASSIC, name="both-ways", bombs=rows)


@attrs.frozen
class _NoFours(BaseRules):
    """A class answering `max_top_rank` itself: no four of a kind exists."""

    def max_top_rank(self, shape: Shape) -> Rank | None:
        """As the base, but a four of a kind is no combination."""
        if shape.kind is ComboKind.FOUR_OF_A_KIND:
            return None
        return super().max_top_rank(shape)


def test_a_class_answering_its_own_questions_is_checked_by_them() -> None:
    """Its answers are not taken from a preset's shared checks (nor given to it)."""
    settings: dict[str, Any] = CLASSIC.__getstate__()
    with pytest.raises(
        InvalidRulesError, match="four of a kind, which is not a combination"
    ):
        _NoFours(**settings)
    assert attrs.evolve(CLASSIC, name="again").is_bomb(
        Shape.of(ComboKind.FOUR_OF_A_KIND)
    )
