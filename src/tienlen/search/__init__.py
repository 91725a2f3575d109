"""Search: hidden-hand sampling and the search bots (`PIMCPlayer`, `ISMCTSPlayer`).

.. versionadded:: 0.2
"""

from __future__ import annotations

from tienlen.search.ismcts import ISMCTSPlayer
from tienlen.search.pimc import PIMCPlayer
from tienlen.search.sampling import SamplingError, sample_world

__all__ = ["ISMCTSPlayer", "PIMCPlayer", "SamplingError", "sample_world"]
