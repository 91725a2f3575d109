"""Explanations of flagged decisions in English and Vietnamese, built from the numbers.

Each sentence says what was played, what was better, by how much (in expected score,
with its interval), the chance of going out first with each, and — when the cards
show it — the concrete consequence: a 2 or a bomb spent that the better play keeps,
a pass that gave up the trick, cards left in hand. The templates live in
`CATALOGUE`, one per language with the same fields, as in `tienlen.messages`; the
cards are written as players read them (`tienlen.messages.card_text`) and passing
in the library's word (``word.pass``).

Example:
    >>> from tienlen import CLASSIC, Pass, Play
    >>> from tienlen.analysis.review import ReviewedDecision, Label
    >>> from tienlen.analysis.values import ActionValue, Estimate
    >>> def value(action, mean, first):
    ...     return ActionValue(action, Estimate(mean, mean - 0.1, mean + 0.1),
    ...                        Estimate(first, first - 0.05, first + 0.05), None, False, ())
    >>> played = value(Play(player=1, cards="2h"), -0.8, 0.10)
    >>> better = value(Pass(player=1), 0.2, 0.35)
    >>> decision = ReviewedDecision(7, 1, played, (better, played), Estimate(1.0, 0.6, 1.4), 25.0, Label.BLUNDER)
    >>> print(explain(decision, CLASSIC))
    Blunder: player 1 played 2♥; pass was better by 1.00 (± 0.40) in expected score (going out first: 10% instead of 35%). It spent a 2 that the better play keeps for later.
    >>> print(explain(decision, CLASSIC, "vi"))
    Nước sai nghiêm trọng: người chơi 1 đánh 2♥; bỏ lượt tốt hơn 1.00 (± 0.40) điểm kỳ vọng (khả năng về nhất: 10% thay vì 35%). Nước này đã dùng một con heo mà nước tốt hơn giữ lại về sau.

.. versionadded:: 0.3
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Final

from tienlen._checks import check_type
from tienlen.analysis.review import ReviewedDecision
from tienlen.cards import Rank
from tienlen.errors import UnknownLanguageError, UnknownMessageError
from tienlen.game import Action, Pass
from tienlen.messages import LANGUAGES, card_text, text
from tienlen.rules import RuleSet, as_rules

__all__ = ["CATALOGUE", "explain", "say"]

CATALOGUE: Final[Mapping[str, Mapping[str, str]]] = {
    "label.none": {"en": "No label", "vi": "Không đánh dấu"},
    "label.inaccuracy": {"en": "Inaccuracy", "vi": "Nước chưa chính xác"},
    "label.mistake": {"en": "Mistake", "vi": "Nước sai"},
    "label.blunder": {"en": "Blunder", "vi": "Nước sai nghiêm trọng"},
    "explain.move": {
        "en": "{label}: player {player} played {played}; {better} was better by "
        "{loss} (± {half}) in expected score (going out first: {first_played} "
        "instead of {first_better}).",
        "vi": "{label}: người chơi {player} đánh {played}; {better} tốt hơn {loss} "
        "(± {half}) điểm kỳ vọng (khả năng về nhất: {first_played} thay vì "
        "{first_better}).",
    },
    "explain.pass": {
        "en": "{label}: player {player} passed; {better} was better by {loss} "
        "(± {half}) in expected score (going out first: {first_played} instead "
        "of {first_better}).",
        "vi": "{label}: người chơi {player} bỏ lượt; {better} tốt hơn {loss} "
        "(± {half}) điểm kỳ vọng (khả năng về nhất: {first_played} thay vì "
        "{first_better}).",
    },
    "why.two": {
        "en": "It spent a 2 that the better play keeps for later.",
        "vi": "Nước này đã dùng một con heo mà nước tốt hơn giữ lại về sau.",
    },
    "why.bomb": {
        "en": "It spent a bomb early; the better play keeps it.",
        "vi": "Nước này đã dùng hàng quá sớm; nước tốt hơn giữ lại.",
    },
    "why.passed": {
        "en": "Passing gave up the trick; playing kept control.",
        "vi": "Bỏ lượt là bỏ vòng này; đánh thì giữ được thế chủ động.",
    },
    "why.keep": {
        "en": "Passing would have kept those cards for later.",
        "vi": "Bỏ lượt thì giữ được những lá đó về sau.",
    },
    "why.shed": {
        "en": "The better play sheds {count} more card(s).",
        "vi": "Nước tốt hơn bỏ được thêm {count} lá.",
    },
    "report.header": {
        "en": "Analysis: {rules}, {players} players, {budget} worlds per decision",
        "vi": "Phân tích: {rules}, {players} người chơi, {budget} thế bài mỗi nước",
    },
    "report.accuracy": {"en": "accuracy: {figures}", "vi": "độ chính xác: {figures}"},
    "report.player": {
        "en": "player {player} {value}",
        "vi": "người chơi {player} {value}",
    },
    "report.flagged": {
        "en": "{count} flagged decision(s) of {total}:",
        "vi": "{count} nước bị đánh dấu trên {total}:",
    },
    "report.move": {"en": "move {number}", "vi": "nước {number}"},
    "report.biggest": {"en": "biggest losses:", "vi": "mất điểm nhiều nhất:"},
    "report.loss": {
        "en": "move {number}, player {player}: {played} lost {loss} (best: {better})",
        "vi": "nước {number}, người chơi {player}: {played} mất {loss} (tốt nhất: {better})",
    },
    "report.progress": {
        "en": "analysing: {done}/{total} decisions",
        "vi": "đang phân tích: {done}/{total} nước",
    },
    "solve.value": {"en": "value: {scores}", "vi": "giá trị: {scores}"},
    "solve.searched": {
        "en": "{nodes} positions searched",
        "vi": "đã xét {nodes} thế bài",
    },
    "puzzle.header": {
        "en": "Puzzle {number} of {total} ({rules}, {fingerprint}): player {player} "
        "to play. Find the best play: only one is.",
        "vi": "Câu đố {number}/{total} ({rules}, {fingerprint}): người chơi {player} "
        "đi. Hãy tìm nước tốt nhất: chỉ có một nước.",
    },
    "puzzle.ask": {
        "en": "your play (cards, or 'pass'):",
        "vi": "nước của bạn (các lá, hoặc 'bỏ'):",
    },
    "puzzle.right": {
        "en": "Right: {answer} is the best play.",
        "vi": "Đúng: {answer} là nước tốt nhất.",
    },
    "puzzle.wrong": {
        "en": "Wrong: you played {given}; the best play is {answer}.",
        "vi": "Sai: bạn đánh {given}; nước tốt nhất là {answer}.",
    },
    "puzzle.wrong.pass": {
        "en": "Wrong: you passed; the best play is {answer}.",
        "vi": "Sai: bạn bỏ lượt; nước tốt nhất là {answer}.",
    },
    "puzzle.answer": {"en": "answer: {answer}", "vi": "đáp án: {answer}"},
    "puzzle.line": {"en": "the winning line:", "vi": "đường thắng:"},
    "puzzle.refutation": {
        "en": "after {given}, best play goes:",
        "vi": "sau {given}, đánh tốt nhất sẽ là:",
    },
}
"""Every sentence of the analysis, by key, in each language of `LANGUAGES`."""


def say(key: str, lang: str = "en", **fields: object) -> str:
    """The analysis catalogue's entry *key* in *lang*, with *fields* filled in.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.
        UnknownMessageError: no entry is called *key*.

    Example:
        >>> say("report.move", "vi", number=3)
        'nước 3'
    """
    if lang not in LANGUAGES:
        msg = f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})"
        raise UnknownLanguageError(msg)
    entry = CATALOGUE.get(key)
    if entry is None:
        msg = f"no message is called {key!r}"
        raise UnknownMessageError(msg)
    return string.Formatter().vformat(entry[lang], (), fields)


def action_text(action: Action, lang: str = "en") -> str:
    """An action as players read it: its cards (``3♠ 3♦``) or the word for passing."""
    if isinstance(action, Pass):
        return text("word.pass", lang)
    return card_text(str(action.cards))


def _twos(action: Action) -> int:
    if isinstance(action, Pass):
        return 0
    return sum(card.rank is Rank.TWO for card in action.cards)


def _is_bomb(action: Action, rules: RuleSet) -> bool:
    if isinstance(action, Pass):
        return False
    combo = rules.classify(action.cards)
    return combo is not None and rules.is_bomb(combo.shape)


def _size(action: Action) -> int:
    return 0 if isinstance(action, Pass) else len(action.cards)


def consequence(
    played: Action, better: Action, rules: RuleSet, lang: str = "en"
) -> str | None:
    """What the cards show the played action cost against the better one, if anything."""
    if _is_bomb(played, rules) and not _is_bomb(better, rules):
        return say("why.bomb", lang)
    if _twos(played) > _twos(better):
        return say("why.two", lang)
    if isinstance(played, Pass) and not isinstance(better, Pass):
        return say("why.passed", lang)
    if isinstance(better, Pass) and not isinstance(played, Pass):
        return say("why.keep", lang)
    if _size(better) > _size(played):
        return say("why.shed", lang, count=_size(better) - _size(played))
    return None


def explain(decision: ReviewedDecision, rules: RuleSet, lang: str = "en") -> str:
    """A flagged decision in a sentence or two (see the module); any decision works.

    Raises:
        TypeError: *decision* is not a `tienlen.analysis.ReviewedDecision`, or *rules*
            no rule set.
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.

    Example:
        >>> import random
        >>> from tienlen import CLASSIC, GameState, GreedyPlayer, play_game
        >>> from tienlen.analysis import analyse
        >>> deal = GameState.deal(CLASSIC, players=2, seed=4)
        >>> game = play_game(deal, [GreedyPlayer()] * 2, random.Random(0))
        >>> worst = analyse(game, budget=2).biggest_losses(1)[0]
        >>> print(explain(worst, CLASSIC, "vi"))
        Nước sai nghiêm trọng: người chơi 0 bỏ lượt; 2♦ tốt hơn 2.00 (± 0.00) điểm kỳ vọng (khả năng về nhất: 0% thay vì 100%). Bỏ lượt là bỏ vòng này; đánh thì giữ được thế chủ động.
    """
    check_type("decision", decision, ReviewedDecision)
    rules = as_rules(rules)
    best = decision.best[0]
    label = "none" if decision.label is None else decision.label.value
    passed = isinstance(decision.played.action, Pass)
    line = say(
        "explain.pass" if passed else "explain.move",
        lang,
        label=say(f"label.{label}", lang),
        player=decision.seat,
        played=action_text(decision.played.action, lang),
        better=action_text(best.action, lang),
        loss=f"{decision.loss.mean:.2f}",
        half=f"{decision.loss.half_width:.2f}",
        first_played=f"{decision.played.first.mean:.0%}",
        first_better=f"{best.first.mean:.0%}",
    )
    why = consequence(decision.played.action, best.action, rules, lang)
    return line if why is None else f"{line} {why}"
