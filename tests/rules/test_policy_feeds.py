"""A setting that feeds a policy is written once: its field metadata names the policy field.

`BaseRules` builds its `TurnPolicy`, `DealPolicy` and scorer from the settings whose
`Feed` metadata names them (issue 35 §4), instead of a hand-written map: a policy
field with no setting, or fed twice, is caught here.
"""

from __future__ import annotations

import attrs
import pytest

from tienlen import CLASSIC, POKER, RULESETS, BaseRules
from tienlen.policies import DealPolicy, LeaderAfterGoingOut, TurnPolicy
from tienlen.rules.base import GameEnd, Scoring, policy_settings
from tienlen.scoring import PokerScorer, StakeScorer

POLICIES = (TurnPolicy, DealPolicy, StakeScorer, PokerScorer)


@pytest.mark.parametrize("policy", POLICIES, ids=lambda cls: cls.__name__)
def test_every_policy_field_is_fed_by_one_setting(policy: type) -> None:
    """Each field a policy is built with has exactly one setting naming it."""
    fed = [feed.field for feed in policy_settings(BaseRules, policy).values()]
    wanted = [field.name for field in attrs.fields(policy) if field.init]
    assert sorted(fed) == sorted(wanted)


@pytest.mark.parametrize("rules", RULESETS.values(), ids=repr)
def test_the_policies_carry_the_settings(rules: BaseRules) -> None:
    """Every fed field holds its setting's value, converted where the names differ."""
    policies = (rules.turn_policy, rules.deal_policy, rules.scorer)
    for policy in policies:
        for name, feed in policy_settings(BaseRules, type(policy)).items():
            assert getattr(policy, feed.field) == feed.convert(getattr(rules, name))


def test_a_house_rule_reaches_its_policy() -> None:
    """Changing one setting changes its policy field and nothing else."""
    house = attrs.evolve(
        CLASSIC,
        name="house",
        game_end=GameEnd.FIRST_OUT,
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
        scoring=Scoring.EACH_PAYS_WINNER,
    )
    assert house.turn_policy == attrs.evolve(
        CLASSIC.turn_policy,
        ends_at_first_out=True,
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
    )
    assert house.scorer == StakeScorer(each_pays_winner=True)
    doubled = attrs.evolve(POKER, name="doubled", frozen_multiplier=2)
    poker = POKER.scorer
    assert isinstance(poker, PokerScorer)
    assert doubled.scorer == attrs.evolve(poker, frozen_multiplier=2)
