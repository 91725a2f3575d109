"""Words for values that carry data: one hook, taught by the text floor.

An error (`tienlen.errors`) or a rule's reason (`tienlen.rules.reasons`) keeps what
happened as data: a reason, cards, a rule label. Its ``message(lang)`` or ``str()``
asks `words` for the sentence, and the modules that hold the words
(`tienlen.messages`, `tienlen.explain`) register, when imported, how to word each
type (`functools.singledispatch`). So the values import no words, and the words
import the values: imports point down. ``import tienlen`` loads both.

This module imports nothing of `tienlen`.

Example:
    >>> from tienlen.errors import IllegalPlayError, IllegalReason
    >>> from tienlen._wording import words
    >>> words(IllegalPlayError(IllegalReason.GAME_OVER, None, "pass", "over"), "vi")
    'Ván bài đã kết thúc.'
"""

from __future__ import annotations

import functools

__all__ = ["words"]


@functools.singledispatch
def words(value: object, lang: str = "en", part: str = "") -> str:
    """The sentence for *value* in *lang*; *part* names a part of it, for types with several.

    Raises:
        NotImplementedError: no module has registered words for the type of *value*.
    """
    msg = f"no words are registered for {type(value).__name__}"
    raise NotImplementedError(msg)
