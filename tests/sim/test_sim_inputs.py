"""Rule sets as the library takes them (issue 20 §9).

Everywhere a rule set is taken, a preset's name is accepted as the command line
accepts it (`get_rules`), through one helper; anything else is a ``TypeError``.
Evaluation stats of different rule sets refuse to merge, and a rule set's name must be
printable text, so that every state's text encodes.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from tienlen import (
    CLASSIC,
    POKER,
    VIETCONG,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    InvalidRulesError,
    Player,
    RandomPlayer,
    UnknownVariantError,
    simulate,
)
from tienlen.evaluation import EvaluationStats, evaluate

BOTS: list[Player] = [GreedyPlayer(), RandomPlayer(), RandomPlayer()]


@pytest.mark.parametrize(
    ("name", "rules"), [("classic", CLASSIC), ("VC", VIETCONG), ("Poker", POKER)]
)
def test_simulate_and_evaluate_take_a_preset_name(name: str, rules: object) -> None:
    """A name gives the preset's games, exactly."""
    assert simulate(6, rules=name, players=BOTS, seed=2) == simulate(
        6,
        rules=rules,  # type: ignore[arg-type]
        players=BOTS,
        seed=2,
    )
    by_name = evaluate(BOTS, 2, rules=name, seed=2)
    assert by_name == evaluate(BOTS, 2, rules=rules, seed=2)  # type: ignore[arg-type]
    assert by_name.rules is rules


@pytest.mark.parametrize("call", ["simulate", "evaluate"])
@pytest.mark.parametrize(
    ("rules", "error"),
    [(4, TypeError), (None, TypeError), (b"classic", TypeError),
     ("no-such-variant", UnknownVariantError)],
)  # fmt: skip
def test_anything_else_is_refused(call: str, rules: object, error: type) -> None:
    """Not a rule set nor a name: ``TypeError``; an unknown name: `UnknownVariantError`."""
    run: Callable[[], object] = (
        (lambda: simulate(2, rules=rules, players=BOTS, seed=1))  # type: ignore[arg-type]
        if call == "simulate"
        else (lambda: evaluate(BOTS, 2, rules=rules, seed=1))  # type: ignore[arg-type]
    )
    with pytest.raises(error, match=r"rule set or a preset's name|unknown variant"):
        run()


def test_evaluations_of_different_rule_sets_refuse_to_merge() -> None:
    """Classic and Poker stats do not add up; nor do two tables of one name."""
    classic = evaluate(BOTS, 2, rules=CLASSIC, seed=1)
    poker = evaluate(BOTS, 2, rules=POKER, seed=1)
    with pytest.raises(InvalidArgumentError, match="'classic' with stats of 'poker'"):
        classic.merge(poker)
    house = attrs.evolve(CLASSIC, pass_locks_out=not CLASSIC.pass_locks_out)
    with pytest.raises(InvalidArgumentError, match="another rule set of that name"):
        classic.merge(evaluate(BOTS, 2, rules=house, seed=1))


def test_evaluations_of_one_rule_set_merge_into_the_longer_one() -> None:
    """Consecutive batch ranges of one rule set merge, whatever object holds it."""
    whole = evaluate(BOTS, 4, rules=CLASSIC, seed=3, batch_size=2)
    first = evaluate(BOTS, 2, rules="classic", seed=3, batch_size=2)
    copy = attrs.evolve(CLASSIC)  # equal, not the same object
    second = evaluate(BOTS, 2, rules=copy, seed=3, batch_size=2, first_batch=1)
    assert first + second == whole
    empty = EvaluationStats.empty(players=3, rotations=3)
    assert (empty + whole).rules is CLASSIC
    assert (whole + empty) == whole


@pytest.mark.parametrize(
    "name", ["nul\x00name", "lone\ud800", "tab\tname", "new\nline"]
)
def test_a_rule_set_name_must_be_printable(name: str) -> None:
    """Control characters and lone surrogates in a name are refused when it is built."""
    with pytest.raises(InvalidRulesError, match="the name must be printable text"):
        attrs.evolve(CLASSIC, name=name)


def test_every_printable_name_encodes() -> None:
    """A name the check admits: the state's text and notation encode as UTF-8."""
    rules = attrs.evolve(CLASSIC, name="bàn-nhà-tôi ♠")
    state = GameState.deal(rules, 4, seed=1)
    assert str(state).encode()
    assert state.notation().encode()
