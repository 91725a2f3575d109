"""Shared pytest configuration: the Hypothesis settings profiles, the slow tests.

The profile is chosen with the ``HYPOTHESIS_PROFILE`` environment variable:

- ``dev`` (the default, also when the variable is unset or empty): quick local runs.
- ``ci``: derandomised, so a CI run is reproducible; ``.ci/run`` selects it.
- ``thorough``: many more examples, for a long run before a release.
"""

import os
from typing import Final

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "dev")


# -- the quick run: `pytest -m "not slow"` ----------------------------------------------
# A test that takes more than about five seconds on two cores is marked `slow`: with a
# decorator where it is written, or here, by its module or its function, so the quick
# run's list lives in one place. Measured with `pytest --durations=60`; a whole module
# is listed when most of its tests are slow or start programs.

SLOW_MODULES: Final = (
    "tests/rl/",  # the RL extras' environments play whole games per test
    "tests/sim/test_sim_dask.py",
    "tests/sim/test_sim_simulate.py",
    "tests/search/test_search_sampling.py",
    "tests/protocol/test_protocol_delegate.py",
    "tests/golden/",  # the corpus replays every recorded game
    "tests/game/test_game_stateful.py",  # random walks through whole games
    "tests/rules/test_properties.py",  # Hypothesis over generated rule sets
    "src/tienlen/rl/",  # the RL extras' doctests build environments
    "tests/contract/",  # junk into every public callable: hundreds of cases
    "tests/rules/test_legal_plays.py",  # legal plays against brute force
    "tests/sim/test_sim_signals.py",  # signals to process pools
)
"""Test modules (or folders) whose tests are all slow."""

SLOW_TESTS: Final = frozenset(
    {
        "tests/records/test_records.py::test_rules_json_round_trip",
        "tests/records/test_records.py::test_fuzzed_records_raise_record_error_or_load_whole",
        "tests/records/test_records.py::test_every_intermediate_state_replays",
        "tests/records/test_records.py::test_tampered_action_is_named",
        "tests/records/test_records.py::test_swapped_hands_fail_at_the_first_illegal_action",
        "tests/records/test_records.py::test_dumps_is_stable",
        "tests/records/test_records.py::test_round_trip_gives_the_same_game",
        "tests/records/test_records.py::test_truncated_text_is_refused",
        "tests/records/test_records.py::test_unfinished_games_have_a_null_result",
        "tests/records/test_records.py::test_random_json_is_refused",
        "tests/records/test_records.py::test_dropping_an_action_never_loads_a_different_result",
        "tests/search/test_search_bots.py::test_bots_run_on_a_process_pool",
        "tests/search/test_search_evaluation.py::test_any_executor_gives_the_serial_result",
        "tests/protocol/test_protocol_subclass.py::test_subclass_games_list_exactly_the_legal_actions",
        "tests/game/test_game_house_rules.py::test_random_games_under_combined_house_rules",
        "tests/game/test_game_rule_memos.py::test_house_rule_answers_match_the_rule_set",
        "tests/game/test_game_rule_memos.py::test_the_jump_in_test_hides_no_jump_in",
        "tests/game/test_game_flow.py::test_legal_actions_through_whole_small_games",
        "tests/rules/test_legal_plays.py::test_bomb_plays_match_brute_force",
        "tests/notation/test_notation.py::test_every_state_of_a_preset_game_round_trips",
        "tests/notation/test_notation.py::test_every_state_under_house_rules_round_trips",
        "tests/test_compiled.py::test_simulate_on_two_processes_matches_serial",
        "tests/cli/test_cli_commands.py::test_simulate_workers_give_the_same_results",
        "tests/cli/test_cli_commands.py::test_demo_is_deterministic",
        "tests/rules/test_beats_memo.py::test_asking_twice_gives_the_first_answer",
        "tests/sim/test_sim_faults.py::test_a_stuck_batch_times_out",
        "tests/test_play_iteration.py::test_iterated_leads_match_the_blocks_under_house_rules",
        "tests/game/test_game_trust.py::test_a_play_pickled_in_another_process_is_checked_in_full",
        # the command line as a program: each test starts Python several times
        "tests/cli/test_cli_commands.py::test_play_as_a_program",
        "tests/cli/test_cli_commands.py::test_simulate_as_a_program",
        "tests/cli/test_cli_commands.py::test_program_exit_codes",
        "tests/cli/test_cli_commands.py::test_play_a_whole_game_following_hints",
        "tests/cli/test_cli_commands.py::test_demo_plays_a_whole_game",
        "tests/cli/test_cli_commands.py::test_classify_agrees_with_the_library",
        "tests/cli/test_cli_commands.py::test_beats_agrees_with_the_library",
        "tests/cli/test_cli_commands.py::test_plays_agree_with_the_library",
        "tests/cli/test_cli_robustness.py::test_closed_standard_input_ends_play_cleanly",
        "tests/cli/test_cli_robustness.py::test_closed_standard_error_keeps_the_exit_code",
        "tests/cli/test_cli_robustness.py::test_a_full_output_is_one_line_and_exit_3",
        "tests/cli/test_cli_robustness.py::test_a_broken_pipe_is_quiet",
        "tests/cli/test_cli_robustness.py::test_program_demo_matches",
        "tests/cli/test_cli_referee.py::test_an_ascii_output_gets_suit_letters",
    }
)
"""Single slow tests, by module and function (every parametrisation)."""


def pytest_collection_modifyitems(
    config: pytest.Config,  # noqa: ARG001 (the hook's signature)
    items: list[pytest.Item],
) -> None:
    """Mark the tests `SLOW_MODULES` and `SLOW_TESTS` list as ``slow``."""
    for item in items:
        test = item.nodeid.split("[", 1)[0]
        if test in SLOW_TESTS or test.startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)
