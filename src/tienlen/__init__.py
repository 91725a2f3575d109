"""tienlen: the rules of Tiến Lên for five variants (the rules reference: `rule_section`).

Cards and hands (`Card`, `Hand`, `parse_cards`), combinations (`Combo`, `classify`),
comparison (`beats`), legal plays (`legal_plays`) and the rule sets (`CLASSIC`,
`JUSTUS_PANG`, `KENNETH_LO`, `VIETCONG`, `POKER`, `get_rules`).

Example:
    >>> from tienlen import classify, beats, legal_plays, VIETCONG
    >>> classify("3s 4s 5h").kind
    <ComboKind.STRAIGHT: 5>
    >>> beats("7h 7s", "7d 7c")
    True
    >>> len(legal_plays("7s 7c 7d 7h 8s 8c 8d 8h", "2d 2h", VIETCONG))
    1
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from tienlen import explain as _explain  # noqa: F401  # it words errors and reasons
from tienlen import pickles as _pickles  # noqa: F401  # where pickles point (copyreg)
from tienlen._version import __version__
from tienlen.cards import DECK, Card, Hand, Rank, Suit, parse_cards
from tienlen.combos import Combo, ComboKind, Plays, Shape
from tienlen.engine import movegen as _movegen
from tienlen.engine import native as _native
from tienlen.errors import (
    IllegalPlayError,
    IllegalReason,
    InvalidArgumentError,
    InvalidCardError,
    InvalidComboError,
    InvalidRulesError,
    InvalidStateError,
    TienLenError,
    UnknownVariantError,
)
from tienlen.evaluation import EvaluationStats, evaluate
from tienlen.game import Action, Actions, GameSetup, GameState, Pass, Play
from tienlen.match import Match, play_match
from tienlen.players import (
    GreedyPlayer,
    Observation,
    Player,
    PlayerError,
    RandomPlayer,
    play_game,
)
from tienlen.referee import Decision, Referee
from tienlen.rules import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    KENNETH_LO,
    POKER,
    RULESETS,
    VIETCONG,
    BaseRules,
    Bomb,
    CustomInstantWin,
    Direction,
    FirstLead,
    GameEnd,
    HandHolds,
    InstantWin,
    InstantWinHand,
    RuleSet,
    Scoring,
    beats,
    classify,
    get_rules,
    legal_plays,
)
from tienlen.scoring import ChopChain, GameResult, ScoreItem, ScoreKind
from tienlen.search import ISMCTSPlayer, PIMCPlayer, SamplingError, sample_world
from tienlen.sections import RuleSection, rule_section
from tienlen.simulation import ExecutorError, MapExecutor, SimulationStats, simulate

COMPILED: bool = _movegen.__file__.endswith(tuple(EXTENSION_SUFFIXES))
"""Whether the integer core runs compiled: ``True`` in a mypyc-built wheel, else ``False``.

The pure and compiled builds give the same answers; the compiled one is faster
(docs/releasing.md says how each is built).

Example:
    >>> import tienlen
    >>> tienlen.COMPILED in (True, False)
    True
"""

NATIVE: bool = _native.MODULE is not None
"""Whether plays are generated natively: ``True`` once the C generator is built.

``python tools/build_native.py`` builds it from a checkout; ``TIENLEN_PURE=1`` in the
environment at import keeps the pure path. Both give the same plays in the same order
(docs/engine.md, "Native move generation").

Example:
    >>> import tienlen
    >>> tienlen.NATIVE in (True, False)
    True
"""

__all__ = [
    "CLASSIC",
    "CLASSIC_TWO_DECKS",
    "COMPILED",
    "DECK",
    "JUSTUS_PANG",
    "KENNETH_LO",
    "NATIVE",
    "POKER",
    "RULESETS",
    "VIETCONG",
    "Action",
    "Actions",
    "BaseRules",
    "Bomb",
    "Card",
    "ChopChain",
    "Combo",
    "ComboKind",
    "CustomInstantWin",
    "Decision",
    "Direction",
    "EvaluationStats",
    "ExecutorError",
    "FirstLead",
    "GameEnd",
    "GameResult",
    "GameSetup",
    "GameState",
    "GreedyPlayer",
    "Hand",
    "HandHolds",
    "ISMCTSPlayer",
    "IllegalPlayError",
    "IllegalReason",
    "InstantWin",
    "InstantWinHand",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidComboError",
    "InvalidRulesError",
    "InvalidStateError",
    "MapExecutor",
    "Match",
    "Observation",
    "PIMCPlayer",
    "Pass",
    "Play",
    "Player",
    "PlayerError",
    "Plays",
    "RandomPlayer",
    "Rank",
    "Referee",
    "RuleSection",
    "RuleSet",
    "SamplingError",
    "ScoreItem",
    "ScoreKind",
    "Scoring",
    "Shape",
    "SimulationStats",
    "Suit",
    "TienLenError",
    "UnknownVariantError",
    "__version__",
    "beats",
    "classify",
    "evaluate",
    "get_rules",
    "legal_plays",
    "parse_cards",
    "play_game",
    "play_match",
    "rule_section",
    "sample_world",
    "simulate",
]


def __dir__() -> list[str]:
    return __all__
