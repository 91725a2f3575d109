"""A shipped learned baseline: `pretrained` gives a `Player` backed by small numpy weights.

`LearnedPlayer` keeps at most `CANDIDATES` actions per decision (one per class of
kind, length and top card, the `GreedyPlayer` choice and a pass first: the search
bots' pruning), describes each by `features` (what the action is and does to the hand,
crossed with a few facts of the table) and takes the one a one-hidden-layer network
scores highest. It never draws from *rng*, so it is
deterministic, and it costs well under a millisecond per decision.

The weights shipped in ``tienlen/rl/weights/`` were fitted by
``examples/train_pretrained.py --full`` (the recipe, with its seeds, is documented
there and in the "RL and search" guide): determinized rollout values of every
candidate (`rollout_values`, the teacher `PIMCPlayer` maximises) on positions of
games between `GreedyPlayer` s, distilled into the scores by regression of each
candidate's advantage over Greedy's choice.

Example:
    >>> import random
    >>> from tienlen import CLASSIC, GameState, Observation
    >>> bot = pretrained("classic")
    >>> state = GameState.deal(CLASSIC, players=4, seed=3)
    >>> actions = state.legal_actions()
    >>> bot.act(Observation.of(state, state.to_act), actions, random.Random()) in actions
    True

.. versionadded:: 0.3
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from tienlen.cards import Rank
from tienlen.combos import ComboKind
from tienlen.errors import InvalidArgumentError
from tienlen.game import Action, Pass, Play
from tienlen.players import GreedyPlayer, Observation
from tienlen.rules import RuleSet, get_rules
from tienlen.search.rollouts import (
    apply_searched,
    candidates,
    is_declined_jump_in,
    play_out,
)
from tienlen.search.sampling import Deal

__all__ = [
    "ACTION_FEATURES",
    "CANDIDATES",
    "CONTEXT_FEATURES",
    "FEATURES",
    "LearnedPlayer",
    "features",
    "pretrained",
    "rollout_values",
    "shipped",
]

CANDIDATES: Final = 12
"""Actions scored per decision, at most (`tienlen.search`'s candidate pruning)."""
ACTION_FEATURES: Final = 22
"""Numbers describing one candidate action (see `features`)."""
CONTEXT_FEATURES: Final = 11
"""Numbers describing the table at the decision (see `features`)."""
FEATURES: Final = ACTION_FEATURES * CONTEXT_FEATURES
"""Features per candidate: every action feature times every context feature."""

_TWO: Final = Rank.TWO.value
_DECK: Final = (1 << 52) - 1
_RANK_BITS: Final = tuple(0b1111 << (4 * rank) for rank in range(13))
_KIND_COLUMN: Final = {
    ComboKind.SINGLE: 3,
    ComboKind.PAIR: 4,
    ComboKind.TRIPLE: 5,
    ComboKind.STRAIGHT: 6,
}
"""The one-hot column of each plain kind; other kinds (runs, fours) share column 7."""


def _rank_counts(mask: int) -> list[int]:
    return [(mask & bits).bit_count() for bits in _RANK_BITS]


def _context(observation: Observation) -> list[float]:
    """The `CONTEXT_FEATURES` facts of the table (see `features`)."""
    fewest = observation.fewest_opponent_cards
    fewest = 13 if fewest is None else fewest
    own = len(observation.hand)
    top = observation.top
    top_two = top is not None and any(card.rank.value == _TWO for card in top.cards)
    return [
        1.0,
        float(top is None),
        float(observation.jumping_in),
        float(observation.may_continue),
        float(fewest <= 1),
        float(fewest <= 2),
        float(fewest <= 4),
        own / 13,
        float(top_two),
        float(own <= 4),
        float(top is not None and len(top) >= 3),
    ]


def _check_arguments(observation: object, actions: object) -> None:
    """Refuse what `features` cannot read, with a `TypeError`."""
    if not isinstance(observation, Observation):
        msg = f"expected an Observation, not {type(observation).__name__}"
        raise TypeError(msg)
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        msg = f"expected a sequence of actions, not {type(actions).__name__}"
        raise TypeError(msg)
    if not all(isinstance(action, (Play, Pass)) for action in actions):
        msg = "every action must be a Play or a Pass"
        raise TypeError(msg)


def features(
    observation: Observation, actions: Sequence[Action]
) -> npt.NDArray[np.float64]:
    """The `FEATURES` numbers of each of *actions*, one row per action.

    Each row is the outer product of the action's `ACTION_FEATURES` numbers, first
    action feature slowest, with the table's `CONTEXT_FEATURES`. The action's: a
    constant 1; pass; the `GreedyPlayer` choice (the first of *actions*, as
    `LearnedPlayer` orders them); single, pair, triple, straight, other plain kinds;
    bomb; length / 13; top rank / 12 and its square; the number of 2s; goes out;
    cards left / 13; ranks split (some of the rank's cards kept); 2s kept; lone
    ranks kept / 13; ranks kept / 13; unseen cards above the top / 39; the highest
    card kept / 51; the lowest card kept / 51. The table's: a constant 1; leading;
    a Poker jump-in; may continue; an opponent with at most 1, 2, 4 cards; own cards
    / 13; a 2 on the table; at most 4 own cards; at least 3 cards on the table.

    Example:
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.from_hands(["3s 4s 5s 6h 6d", "7c 8c 9c Td Jd"], CLASSIC)
        >>> rows = features(Observation.of(state, 0), state.legal_actions())
        >>> rows.shape == (len(state.legal_actions()), FEATURES)
        True

    Raises:
        TypeError: *observation* is not an `Observation`, or *actions* not a sequence
            of actions.
    """
    _check_arguments(observation, actions)
    context = np.array(_context(observation))
    rules = observation.rules
    hand = observation.hand.mask
    unseen = _DECK & ~hand & ~observation.played.mask
    counts = _rank_counts(hand)
    rows = np.zeros((len(actions), ACTION_FEATURES))
    for row, action in zip(rows, actions, strict=True):
        row[0] = 1.0
        if isinstance(action, Pass):
            row[1] = 1.0
            left = hand
        else:
            combo = rules.classify(action.cards)
            if combo is None:  # pragma: no cover - every offered play classifies
                msg = f"{action} is not a combination under {rules.name}"
                raise InvalidArgumentError(msg)
            played = action.cards.mask
            left = hand & ~played
            top = combo.top
            row[_KIND_COLUMN.get(combo.kind, 7)] = 1.0
            row[8] = float(rules.is_bomb(combo.shape))
            row[9] = len(combo) / 13
            row[10] = top.rank.value / 12
            row[11] = row[10] * row[10]
            row[12] = (played & _RANK_BITS[_TWO]).bit_count()
            row[13] = float(not left)
            row[19] = (unseen >> (top.index + 1)).bit_count() / 39
            row[16] = sum(
                1
                for rank, count in enumerate(_rank_counts(played))
                if count and counts[rank] > count
            )
        kept = _rank_counts(left)
        row[14] = left.bit_count() / 13
        row[15] = kept[_TWO]
        row[17] = sum(count == 1 for count in kept[:_TWO]) / 13
        row[18] = sum(count > 0 for count in kept) / 13
        row[20] = (left.bit_length() - 1) / 51 if left else 0.0
        row[21] = ((left & -left).bit_length() - 1) / 51 if left else 0.0
    row_of_greedy = rows[0]
    row_of_greedy[2] = 1.0
    product: npt.NDArray[np.float64] = (
        rows[:, :, None] * context[None, None, :]
    ).reshape(len(actions), FEATURES)
    return product


def _finite(value: object, name: str, dimensions: int) -> npt.NDArray[np.float64]:
    """*value* as a read-only float array of *dimensions* dimensions, all finite."""
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        msg = f"{name} must be an array of numbers, got {value!r:.80}"
        raise InvalidArgumentError(msg) from error
    if array.ndim != dimensions or 0 in array.shape:
        msg = (
            f"{name} must be a non-empty {dimensions}-D array, got shape {array.shape}"
        )
        raise InvalidArgumentError(msg)
    if not np.isfinite(array).all():
        msg = f"{name} must be finite"
        raise InvalidArgumentError(msg)
    array.flags.writeable = False
    return array


def _hidden(value: object) -> npt.NDArray[np.float64]:
    return _finite(value, "hidden", 2)


def _hidden_bias(value: object) -> npt.NDArray[np.float64]:
    return _finite(value, "hidden_bias", 1)


def _output(value: object) -> npt.NDArray[np.float64]:
    return _finite(value, "output", 1)


@attrs.frozen(eq=False)
class LearnedPlayer:
    """A `Player` that takes the candidate action a small neural network scores highest.

    Candidates are ``tienlen.search``'s pruning (the `GreedyPlayer` choice first, then
    a pass, then one play per class, lowest first; at most ``CANDIDATES``). Each gets the
    score ``relu(features @ hidden + hidden_bias) @ output`` (one hidden layer), and
    Greedy's choice `greedy_bonus` more; the first of the best scores wins. With an
    all-zero `output` it therefore plays as `GreedyPlayer`. It keeps no state and
    never uses *rng*: picklable and deterministic.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, Observation
        >>> state = GameState.deal(CLASSIC, players=4, seed=5)
        >>> seen, actions = Observation.of(state, state.to_act), state.legal_actions()
        >>> zero = LearnedPlayer.zero(hidden=4)
        >>> zero.act(seen, actions, random.Random()) == GreedyPlayer().act(seen, actions, random.Random())
        True
    """

    hidden: npt.NDArray[np.float64] = attrs.field(converter=_hidden)
    """The ``(FEATURES, H)`` weights of the hidden layer."""
    hidden_bias: npt.NDArray[np.float64] = attrs.field(converter=_hidden_bias)
    """The ``(H,)`` biases of the hidden layer."""
    output: npt.NDArray[np.float64] = attrs.field(converter=_output)
    """The ``(H,)`` weights of the score."""
    greedy_bonus: float = attrs.field(default=0.0, converter=float)
    """The bonus added to the score of Greedy's choice (how sure the network must be to deviate)."""
    name: str = "custom"
    """Where the weights came from (a preset's name for `pretrained` players)."""

    def __attrs_post_init__(self) -> None:
        units = self.hidden.shape[1]
        if self.hidden.shape[0] != FEATURES:
            msg = f"hidden must have {FEATURES} rows, got {self.hidden.shape[0]}"
            raise InvalidArgumentError(msg)
        for name in ("hidden_bias", "output"):
            if getattr(self, name).shape != (units,):
                msg = f"{name} must have shape ({units},), got {getattr(self, name).shape}"
                raise InvalidArgumentError(msg)
        if not np.isfinite(self.greedy_bonus):
            msg = f"greedy_bonus must be finite, got {self.greedy_bonus!r}"
            raise InvalidArgumentError(msg)

    @classmethod
    def zero(cls, hidden: int) -> LearnedPlayer:
        """A network of *hidden* units with all-zero weights: it plays as `GreedyPlayer`.

        Example:
            >>> LearnedPlayer.zero(8).hidden.shape
            (242, 8)
        """
        return cls(np.zeros((FEATURES, hidden)), np.zeros(hidden), np.zeros(hidden))

    def scores(
        self, observation: Observation, actions: Sequence[Action]
    ) -> npt.NDArray[np.float64]:
        """The score of each of *actions*, the first taken as Greedy's choice.

        Example:
            >>> from tienlen import CLASSIC, GameState, Observation
            >>> state = GameState.deal(CLASSIC, players=4, seed=5)
            >>> seen = Observation.of(state, state.to_act)
            >>> LearnedPlayer.zero(3).scores(seen, state.legal_actions()[:2]).tolist()
            [0.0, 0.0]
        """
        layer = features(observation, actions) @ self.hidden + self.hidden_bias
        result: npt.NDArray[np.float64] = np.maximum(layer, 0.0) @ self.output
        result[0] += self.greedy_bonus
        return result

    def act(
        self, observation: Observation, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The best-scored candidate among *actions*.

        Example:
            >>> import random
            >>> from tienlen import POKER, GameState, Observation
            >>> state = GameState.deal(POKER, players=4, seed=1)
            >>> actions = state.legal_actions()
            >>> pretrained(POKER).act(Observation.of(state, state.to_act), actions, random.Random()) in actions
            True
        """
        del rng
        if len(actions) == 1:
            return actions[0]
        searched = candidates(observation, actions, CANDIDATES)
        if len(searched) == 1:
            return searched[0]
        return searched[int(np.argmax(self.scores(observation, searched)))]

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weights to an ``.npz`` file that `LearnedPlayer.load` reads.

        Example:
            >>> import pathlib, tempfile
            >>> with tempfile.TemporaryDirectory() as folder:
            ...     path = pathlib.Path(folder) / "zero.npz"
            ...     LearnedPlayer.zero(2).save(path)
            ...     LearnedPlayer.load(path).hidden.shape
            (242, 2)
        """
        np.savez_compressed(
            path,
            hidden=self.hidden.astype(np.float32),
            hidden_bias=self.hidden_bias.astype(np.float32),
            output=self.output.astype(np.float32),
            greedy_bonus=np.float64(self.greedy_bonus),
        )

    @classmethod
    def load(
        cls, path: str | os.PathLike[str] | Traversable, name: str = "custom"
    ) -> LearnedPlayer:
        """The player whose weights `LearnedPlayer.save` wrote to *path*.

        Raises:
            InvalidArgumentError: the file's arrays have wrong shapes or are not finite.

        Example:
            >>> from importlib import resources
            >>> path = resources.files("tienlen.rl") / "weights" / "classic.npz"
            >>> LearnedPlayer.load(path, "classic")
            LearnedPlayer(<classic weights, 64 hidden units>)
        """
        source = path if isinstance(path, Traversable) else Path(path)
        with source.open("rb") as stream, np.load(stream) as archive:
            return cls(
                archive["hidden"],
                archive["hidden_bias"],
                archive["output"],
                float(archive["greedy_bonus"]),
                name,
            )

    def __repr__(self) -> str:
        return (
            f"LearnedPlayer(<{self.name} weights, {self.hidden.shape[1]} hidden units>)"
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return LearnedPlayer, (
            self.hidden.tolist(),
            self.hidden_bias.tolist(),
            self.output.tolist(),
            self.greedy_bonus,
            self.name,
        )


def shipped() -> tuple[str, ...]:
    """The rule sets (preset names) with shipped weights.

    Example:
        >>> shipped()
        ('classic', 'poker')
    """
    folder = resources.files("tienlen.rl") / "weights"
    return tuple(
        sorted(
            entry.name.removesuffix(".npz")
            for entry in folder.iterdir()
            if entry.name.endswith(".npz")
        )
    )


def pretrained(rules: RuleSet | str) -> LearnedPlayer:
    """The shipped learned player for *rules* (a preset or a preset's name).

    Raises:
        TypeError: *rules* is neither a rule set nor a string.
        UnknownVariantError: no preset answers to the name.
        InvalidArgumentError: no weights are shipped for the rule set (``shipped()``), or it
            is a preset changed by house rules.

    Example:
        >>> from tienlen import CLASSIC, JUSTUS_PANG
        >>> pretrained("Classic")
        LearnedPlayer(<classic weights, 64 hidden units>)
        >>> pretrained(JUSTUS_PANG)
        Traceback (most recent call last):
        ...
        tienlen.errors.InvalidArgumentError: no pretrained weights for 'justus-pang'; shipped: classic, poker
    """
    if isinstance(rules, str):
        rules = get_rules(rules)
    elif not isinstance(rules, RuleSet):
        msg = f"expected a rule set or a preset's name, got {rules!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    name = rules.name
    available = shipped()
    if name not in available:
        msg = f"no pretrained weights for {name!r}; shipped: {', '.join(available)}"
        raise InvalidArgumentError(msg)
    if rules != get_rules(name):
        msg = f"the pretrained weights are for the {name!r} preset, not a changed copy of it"
        raise InvalidArgumentError(msg)
    return LearnedPlayer.load(
        resources.files("tienlen.rl") / "weights" / f"{name}.npz", name
    )


def rollout_values(
    observation: Observation,
    actions: Sequence[Action],
    rng: random.Random,
    worlds: int,
) -> list[float]:
    """The teacher: each action's mean score for the seat over *worlds* sampled worlds.

    Every action is played out in the same worlds (sampled by `sample_world`'s
    sampler), everyone then following `GreedyPlayer`: the values `PIMCPlayer`
    compares. `examples/train_pretrained.py` fits `LearnedPlayer`'s weights to them.

    Raises:
        InvalidArgumentError: *worlds* is not a positive int, or *actions* is empty.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, Observation
        >>> state = GameState.deal(CLASSIC, players=4, seed=3)
        >>> seen = Observation.of(state, state.to_act)
        >>> values = rollout_values(seen, state.legal_actions()[:3], random.Random(0), worlds=2)
        >>> len(values)
        3
    """
    if type(worlds) is not int or worlds < 1:
        msg = f"worlds must be a positive int, got {worlds!r}"
        raise InvalidArgumentError(msg)
    if not actions:
        msg = "no actions to value"
        raise InvalidArgumentError(msg)
    seat = observation.seat
    deal = Deal.of(observation)
    policy = GreedyPlayer()
    totals = [0] * len(actions)
    for _ in range(worlds):
        world = deal.sample(rng)
        for index, action in enumerate(actions):
            declining = seat if is_declined_jump_in(world, action) else None
            after = apply_searched(world, action)
            totals[index] += play_out(after, policy, rng, declining)[seat]
    return [total / worlds for total in totals]
