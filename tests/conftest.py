"""Shared pytest configuration: the Hypothesis settings profiles.

The profile is chosen with the ``HYPOTHESIS_PROFILE`` environment variable:

- ``dev`` (the default, also when the variable is unset or empty): quick local runs.
- ``ci``: derandomised, so a CI run is reproducible; ``.ci/run`` selects it.
- ``thorough``: many more examples, for a long run before a release.
"""

import os

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
