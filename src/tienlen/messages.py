"""Every sentence `tienlen` shows a player, in English and Vietnamese.

One catalogue holds the player-facing texts of the library: refusals
(`IllegalPlayError.message`), explanations (`tienlen.explain`), combination names and
the lines of the command line's ``play`` and ``demo``. Each entry has one template
per language (``"en"``, ``"vi"``) with the same ``{fields}``; a language is one column
of it (`LANGUAGES` are its columns). Player-facing texts cite no rule and name no
seat number; developers read ``str(error)`` and the ``rule`` attributes instead.

Errors carry their refusal as data; importing this module teaches them their words
(`refusal` for `IllegalPlayError.message`, `card_error` for
`InvalidCardError.message`).

Vietnamese uses the words of the table, one word for one thing: *đôi* (pair), *sám
cô* (triple), *tứ quý* (four of a kind), *sảnh* (straight), *đôi thông* (consecutive
pairs), *chặn* (to beat), *chặt* (to beat with a bomb), *heo* (a 2), *hàng* (a bomb),
*cóng* (frozen), *thối* (end penalty), *tới trắng* (instant win), *về nhất*, *về
nhì* (places). The Vietnamese was reviewed by the project (`REVIEWED`), not by a
professional translator.

Example:
    >>> from tienlen.messages import text, shape_name
    >>> from tienlen.combos import ComboKind, Shape
    >>> text("word.pass", "vi")
    'bỏ lượt'
    >>> shape_name(Shape.of(ComboKind.CONSECUTIVE_PAIRS, 3), "vi")
    '3 đôi thông'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Final

from tienlen._wording import words
from tienlen.combos import ComboKind, Shape
from tienlen.errors import (
    IllegalPlayError,
    IllegalReason,
    InvalidArgumentError,
    InvalidCardError,
    UnknownLanguageError,
    UnknownMessageError,
)
from tienlen.rules.base import CustomInstantWin, InstantWin, InstantWinHand
from tienlen.scoring import ScoreItem

__all__ = [
    "CATALOGUE",
    "LANGUAGES",
    "REVIEWED",
    "card_error",
    "card_text",
    "fields_of",
    "instant_win_name",
    "kind_name",
    "place_name",
    "refusal",
    "score_line",
    "shape_name",
    "text",
]

CATALOGUE: Final[Mapping[str, Mapping[str, str]]] = {
    # -- the language itself: its name, and who reviewed its column ------------------
    "language.name": {"en": "English", "vi": "Tiếng Việt"},
    "language.reviewed": {"en": "project", "vi": "project"},
    # -- words -------------------------------------------------------------------
    "word.pass": {"en": "pass", "vi": "bỏ lượt"},
    "word.hint": {"en": "hint", "vi": "gợi ý"},
    "word.quit": {"en": "quit", "vi": "thoát"},
    "word.help": {"en": "help", "vi": "trợ giúp"},
    # -- places (1 to 8): "về nhất", "về nhì" ------------------------------------
    "place.1": {"en": "1st", "vi": "nhất"},
    "place.2": {"en": "2nd", "vi": "nhì"},
    "place.3": {"en": "3rd", "vi": "ba"},
    "place.4": {"en": "4th", "vi": "tư"},
    "place.5": {"en": "5th", "vi": "năm"},
    "place.6": {"en": "6th", "vi": "sáu"},
    "place.7": {"en": "7th", "vi": "bảy"},
    "place.8": {"en": "8th", "vi": "tám"},
    "place.last": {"en": "last", "vi": "bét"},
    # -- card text that cannot be read (InvalidCardError.problem) ------------------
    "card.rank-number": {
        "en": "{token} is not a card: write {letter} for the {rank}.",
        "vi": "{token} không phải là lá bài: hãy gõ {letter} cho lá {rank}.",
    },
    "card.unknown-rank": {
        "en": "{token} is not a card: write a rank (3 to 10, J, Q, K, A, 2) and a suit (s, c, d, h), such as 7h.",
        "vi": "{token} không phải là lá bài: hãy gõ số (3 đến 10, J, Q, K, A, 2) rồi chất (s, c, d, h), ví dụ 7h.",
    },
    "card.missing-suit": {
        "en": "{token} has no suit: add s, c, d or h (spades, clubs, diamonds, hearts).",
        "vi": "{token} thiếu chất: thêm s (bích), c (chuồn), d (rô) hoặc h (cơ).",
    },
    "card.unknown-suit": {
        "en": "{token} is not a card: the suit is s, c, d or h (spades, clubs, diamonds, hearts).",
        "vi": "{token} không phải là lá bài: chất là s (bích), c (chuồn), d (rô) hoặc h (cơ).",
    },
    "card.too-long": {"en": "That text is too long.", "vi": "Chuỗi này dài quá."},
    "card.too-many": {
        "en": "That is more cards than two decks hold.",
        "vi": "Số lá nhiều hơn cả hai bộ bài.",
    },
    "card.empty": {
        "en": "Type cards, such as 7h 7s, or pass.",
        "vi": "Hãy gõ các lá, ví dụ 7h 7s, hoặc bỏ.",
    },
    "card.duplicate": {
        "en": "You named {card} twice: one deck has only one.",
        "vi": "Bạn gõ {card} hai lần: một bộ bài chỉ có một lá này.",
    },
    "card.too-many-copies": {
        "en": "You named {card} more than twice: two decks have only two.",
        "vi": "Bạn gõ {card} hơn hai lần: hai bộ bài chỉ có hai lá này.",
    },
    "card.any": {
        "en": "That is not card text: type cards such as 7h 7s.",
        "vi": "Đó không phải là các lá bài: hãy gõ như 7h 7s.",
    },
    "rank.A": {"en": "ace", "vi": "xì"},
    "rank.J": {"en": "jack", "vi": "bồi"},
    "rank.Q": {"en": "queen", "vi": "đầm"},
    "rank.K": {"en": "king", "vi": "già"},
    # -- combination kinds (keyed by ComboKind.name; a test checks every kind has them) --
    "kind.SINGLE": {"en": "single", "vi": "lá lẻ"},
    "kind.PAIR": {"en": "pair", "vi": "đôi"},
    "kind.TRIPLE": {"en": "triple", "vi": "sám cô"},
    "kind.FOUR_OF_A_KIND": {"en": "four of a kind", "vi": "tứ quý"},
    "kind.STRAIGHT": {"en": "straight", "vi": "sảnh"},
    "kind.CONSECUTIVE_PAIRS": {"en": "consecutive pairs", "vi": "đôi thông"},
    "kind.CONSECUTIVE_QUADS": {"en": "consecutive quads", "vi": "tứ quý liên tiếp"},
    "kind.CONSECUTIVE_TRIPLES": {"en": "consecutive triples", "vi": "sám cô liên tiếp"},
    "kind.FIVE_OF_A_KIND": {"en": "five of a kind", "vi": "ngũ quý"},
    # -- a set of one rank as the object of a sentence ({rank}); "heo" for its 2s -----
    "words.SINGLE": {"en": "a single {rank}", "vi": "lá {rank}"},
    "words.heo.SINGLE": {"en": "a single 2", "vi": "một con heo"},
    "words.PAIR": {"en": "a pair of {rank}s", "vi": "đôi {rank}"},
    "words.heo.PAIR": {"en": "a pair of 2s", "vi": "đôi heo"},
    "words.TRIPLE": {"en": "three {rank}s", "vi": "sám cô {rank}"},
    "words.heo.TRIPLE": {"en": "three 2s", "vi": "ba con heo"},
    "words.FOUR_OF_A_KIND": {"en": "four {rank}s", "vi": "tứ quý {rank}"},
    "words.FIVE_OF_A_KIND": {"en": "five {rank}s", "vi": "ngũ quý {rank}"},
    # -- a run's shape ({size} cards, {length} ranks) ------------------------------
    "shape.STRAIGHT": {"en": "{size}-card straight", "vi": "sảnh {size} lá"},
    "shape.CONSECUTIVE_PAIRS": {
        "en": "{length} consecutive pairs",
        "vi": "{length} đôi thông",
    },
    "shape.CONSECUTIVE_QUADS": {
        "en": "{length} consecutive quads",
        "vi": "{length} tứ quý liên tiếp",
    },
    "shape.CONSECUTIVE_TRIPLES": {
        "en": "{length} consecutive triples",
        "vi": "{length} sám cô liên tiếp",
    },
    # -- refusals (keyed by IllegalReason.name; ".any" needs no cards) -------------
    "refusal.GAME_OVER": {"en": "The game is over.", "vi": "Ván bài đã kết thúc."},
    "refusal.UNKNOWN_PLAYER": {
        "en": "There is no such player at this table.",
        "vi": "Bàn này không có người chơi đó.",
    },
    "refusal.PLAYER_OUT": {
        "en": "You have no cards left: you are out of this game.",
        "vi": "Bạn đã hết bài và đã về rồi.",
    },
    "refusal.NOT_YOUR_TURN": {
        "en": "It is not your turn.",
        "vi": "Chưa đến lượt bạn.",
    },
    "refusal.LOCKED_OUT": {
        "en": "You passed in this trick: wait for the next one.",
        "vi": "Bạn đã bỏ lượt ở vòng này, hãy chờ vòng sau.",
    },
    "refusal.CARDS_NOT_IN_HAND": {
        "en": "You do not hold {cards}.",
        "vi": "Bạn không có {cards}.",
    },
    "refusal.CARD_REPEATED": {
        "en": "You named {cards} more times than you hold it.",
        "vi": "Bạn gõ {cards} nhiều lần hơn số lá bạn có.",
    },
    "refusal.CARD_REPEATED.any": {
        "en": "You named a card more times than you hold it.",
        "vi": "Bạn gõ một lá nhiều lần hơn số lá bạn có.",
    },
    "refusal.CARDS_NOT_IN_HAND.any": {
        "en": "You do not hold those cards.",
        "vi": "Trên tay bạn không có những lá đó.",
    },
    "refusal.NOT_A_COMBO": {
        "en": "{action} is not a combination.",
        "vi": "{action} không phải là bộ bài hợp lệ.",
    },
    "refusal.NOT_A_COMBO.any": {
        "en": "A play needs at least one card.",
        "vi": "Phải đánh ít nhất một lá.",
    },
    "refusal.CANNOT_LEAD": {
        "en": "{action} cannot open a trick.",
        "vi": "Không được mở vòng bằng {action}.",
    },
    "refusal.CANNOT_LEAD.any": {
        "en": "That combination cannot open a trick.",
        "vi": "Không được mở vòng bằng bộ bài này.",
    },
    "refusal.MUST_INCLUDE": {
        "en": "The first play of the game must include {cards}.",
        "vi": "Lượt đánh đầu tiên của ván phải có {cards}.",
    },
    "refusal.MUST_INCLUDE.any": {
        "en": "The first play of the game must include the lowest card dealt.",
        "vi": "Lượt đánh đầu tiên của ván phải có lá nhỏ nhất đã được chia.",
    },
    "refusal.WRONG_SHAPE": {
        "en": "{action} cannot go on {top}: it is not the same kind of combination.",
        "vi": "{action} không chặn được {top} vì không cùng loại.",
    },
    "refusal.WRONG_SHAPE.size": {
        "en": "{action} cannot go on {top}: the same kind of combination, but not the same number of cards.",
        "vi": "{action} không chặn được {top}: phải cùng loại và cùng số lá.",
    },
    "refusal.WRONG_SHAPE.any": {
        "en": "That play is not the same kind of combination as the top of the pile.",
        "vi": "Bộ bài này không cùng loại với bộ trên bàn.",
    },
    "refusal.DOES_NOT_BEAT": {
        "en": "{cards} does not beat {top_cards}.",
        "vi": "{cards} không chặn được {top_cards}.",
    },
    "refusal.DOES_NOT_BEAT.any": {
        "en": "That play is not higher than the top of the pile.",
        "vi": "Bộ bài này không chặn được bộ trên bàn.",
    },
    "refusal.CANNOT_PASS": {
        "en": "You open this trick: you must play.",
        "vi": "Bạn đang mở vòng nên phải đánh, không được bỏ lượt.",
    },
    "refusal.CANNOT_GO_OUT": {
        "en": "At this table you may not go out with a 2 or a bomb.",
        "vi": "Bàn này không cho về bằng heo hay bằng hàng.",
    },
    # -- explanations: does a play beat the top? ------------------------------------
    "beats.verdict": {"en": "{verdict}: {reason}", "vi": "{verdict}: {reason}"},
    "beats.yes": {"en": "yes", "vi": "được"},
    "beats.no": {"en": "no", "vi": "không"},
    "beats.HIGHER": {
        "en": "the same shape, and {high} is higher than {low}",
        "vi": "cùng loại và {high} lớn hơn {low}",
    },
    "beats.NOT_HIGHER": {
        "en": "the same shape, but {high} is not higher than {low}",
        "vi": "cùng loại, nhưng {high} không lớn hơn {low}",
    },
    "beats.DIFFERENT_SIZES": {
        "en": "{play} cannot beat {top}: the same kind, but not the same number of cards",
        "vi": "{play} không chặn được {top}: phải cùng loại và cùng số lá",
    },
    "beats.BOMB": {
        "en": "the bomb table lets {play} beat {top}",
        "vi": "{play} chặt được {top}",
    },
    "beats.DIFFERENT_SHAPES": {
        "en": "{play} cannot beat {top}: different shapes, and no bomb applies",
        "vi": "{play} không chặn được {top} vì khác loại, và không chặt được",
    },
    # -- combinations in words, as objects of a sentence --------------------------
    "words.shape": {"en": "a {shape}", "vi": "{shape}"},
    "words.run": {"en": "{shape}", "vi": "{shape}"},
    # -- explanations: why no combination? -----------------------------------------
    "nocombo.EMPTY": {
        "en": "a play needs at least one card",
        "vi": "phải đánh ít nhất một lá",
    },
    "nocombo.TOO_MANY_OF_A_RANK": {
        "en": "no combination has five or more cards of one rank",
        "vi": "không có bộ bài nào gồm từ năm lá giống nhau trở lên",
    },
    "nocombo.TOO_MANY_OF_A_RANK.most": {
        "en": "no combination has more than {most} cards of one rank",
        "vi": "không có bộ bài nào gồm hơn {most} lá giống nhau",
    },
    "nocombo.UNEVEN": {
        "en": "cards of several ranks must have the same number of each rank",
        "vi": "các lá khác nhau phải có số lượng bằng nhau",
    },
    "nocombo.WRAPS": {
        "en": "sequences never wrap around from 2 to 3",
        "vi": "bộ liên tiếp không được nối vòng từ 2 sang 3",
    },
    "nocombo.NOT_CONSECUTIVE": {
        "en": "the ranks are not consecutive",
        "vi": "các lá không liền nhau",
    },
    "nocombo.TRIPLE_RUN": {
        "en": "runs of triples are not a combination",
        "vi": "sám cô liên tiếp không phải là bộ bài hợp lệ",
    },
    "nocombo.SHORT_STRAIGHT": {
        "en": "a straight needs at least three cards",
        "vi": "sảnh phải có ít nhất ba lá",
    },
    "nocombo.SHORT_PAIRS": {
        "en": "consecutive pairs need at least three pairs",
        "vi": "đôi thông phải có ít nhất ba đôi",
    },
    "nocombo.KIND_EXCLUDED": {
        "en": "{rules} has no {kind}",
        "vi": "luật {rules} không có {kind}",
    },
    "nocombo.PAIRS_COUNT": {
        "en": "{rules} allows {low} to {high} consecutive pairs, not {count}",
        "vi": "luật {rules} chỉ cho phép từ {low} đến {high} đôi thông, không phải {count}",
    },
    "nocombo.RUN_LENGTH": {
        "en": "{rules} allows {kind} of {low} to {high} ranks, not {count}",
        "vi": "luật {rules} chỉ cho phép {kind} gồm từ {low} đến {high} bộ, không phải {count}",
    },
    "nocombo.SHAPE_EXCLUDED": {
        "en": "{rules} does not allow {shape}",
        "vi": "luật {rules} không cho phép {shape}",
    },
    "nocombo.TWO_ON_TOP": {
        "en": "{rules} does not allow a 2 at the top of a {kind}",
        "vi": "luật {rules} không cho {kind} kết thúc bằng heo",
    },
    "nocombo.NOT_ALLOWED": {
        "en": "{rules} does not allow this combination",
        "vi": "luật {rules} không cho phép bộ bài này",
    },
    # -- score items (keyed by ScoreKind.name; see score_line) ----------------------
    "score.STAKE": {"en": "stake", "vi": "cược"},
    "score.PLACE": {"en": "place", "vi": "điểm về"},
    "score.CHOP": {"en": "chop", "vi": "chặt"},
    "score.FROZEN": {"en": "frozen", "vi": "cóng"},
    "score.END_PENALTY": {"en": "end-penalty", "vi": "thối"},
    "score.INSTANT_WIN": {"en": "instant-win", "vi": "tới trắng"},
    "score.paid": {
        "en": "{kind}: player {payer} pays player {player} {points}",
        "vi": "{kind}: người chơi {payer} trả {points} cho người chơi {player}",
    },
    "score.paid.caught": {
        "en": "{kind}: player {payer} pays player {player} {points} for {caught}",
        "vi": "{kind}: người chơi {payer} trả {points} cho người chơi {player} vì bị chặt {caught}",
    },
    "score.scored": {
        "en": "{kind}: player {player} scores {points}",
        "vi": "{kind}: người chơi {player} được {points} điểm",
    },
    # -- instant-win hands (keyed by InstantWin.name; see instant_win_name) ---------
    "instant.FOUR_TWOS": {"en": "four 2s", "vi": "tứ quý heo"},
    "instant.SIX_PAIRS": {"en": "six pairs", "vi": "sáu đôi"},
    "instant.FIVE_CONSECUTIVE_PAIRS": {
        "en": "five consecutive pairs",
        "vi": "năm đôi thông",
    },
    "instant.THIRTEEN_RANKS": {
        "en": "a dragon: one card of every rank",
        "vi": "sảnh rồng (đủ 13 lá từ 3 đến 2)",
    },
    "instant.THREE_CONSECUTIVE_TRIPLES": {
        "en": "three consecutive triples",
        "vi": "ba sám cô liên tiếp",
    },
    "instant.TWO_BOMBS": {"en": "two bombs", "vi": "hai bộ hàng"},
    "instant.ONE_COLOUR": {"en": "one colour", "vi": "đồng màu"},
    "instant.FOUR_THREES": {"en": "four 3s", "vi": "tứ quý 3"},
    "instant.THREE_TRIPLES": {"en": "three triples", "vi": "ba sám cô"},
    "instant.DRAGON_WITHOUT_TWO": {
        "en": "a dragon from 3 to ace",
        "vi": "sảnh rồng từ 3 đến A",
    },
    # -- the command line's play and demo -------------------------------------------
    "cli.describe": {
        "en": "{shape}, {top} high: {cards}",
        "vi": "{shape}, lá cao nhất {top}: {cards}",
    },
    "cli.not_combo": {
        "en": "not a combination under {rules}: {reason}",
        "vi": "không phải là bộ bài hợp lệ theo luật {rules}: {reason}",
    },
    "cli.plays_lead": {
        "en": "{count} plays to lead ({rules}):",
        "vi": "{count} cách mở vòng ({rules}):",
    },
    "cli.plays_lead.one": {
        "en": "1 play to lead ({rules}):",
        "vi": "1 cách mở vòng ({rules}):",
    },
    "cli.plays_on.one": {
        "en": "1 play that beats {top} ({rules}):",
        "vi": "1 cách chặn {top} ({rules}):",
    },
    "cli.plays_on": {
        "en": "{count} plays that beat {top} ({rules}):",
        "vi": "{count} cách chặn {top} ({rules}):",
    },
    "cli.welcome": {
        "en": "{rules}: you are player 0, against {count} bots ({names}).",
        "vi": "{rules}: bạn là người chơi 0, đấu với {count} máy ({names}).",
    },
    "cli.welcome.one": {
        "en": "{rules}: you are player 0, against 1 bot ({names}).",
        "vi": "{rules}: bạn là người chơi 0, đấu với 1 máy ({names}).",
    },
    "cli.commands": {
        "en": "Type cards to play (e.g. '7h 7s' or '10♥'), 'pass', 'hint', 'help' or 'quit'.",
        "vi": "Gõ các lá muốn đánh (ví dụ '7h 7s', '10♥' hoặc '7 cơ'), 'bỏ' để bỏ lượt, 'gợi ý' để xem các cách đánh, 'trợ giúp' hoặc '?' để xem hướng dẫn, 'thoát' để thoát.",
    },
    "cli.help": {
        "en": "Commands: cards such as '7h 7s' or '10♥' to play; 'pass' (or 'p') to pass; 'hint' for your legal plays; 'help' or '?' for this; 'quit' to leave. Suits are s, c, d, h (spades, clubs, diamonds, hearts) or ♠ ♣ ♦ ♥.",
        "vi": "Lệnh: gõ các lá như '7h 7s', '10♥' hoặc '7 cơ' để đánh; 'bỏ' (hoặc 'bỏ lượt', 'qua') để bỏ lượt; 'gợi ý' để xem các cách đánh; 'trợ giúp' hoặc '?' để xem hướng dẫn này; 'thoát' để thoát. Chất viết bằng chữ tiếng Anh: s (bích), c (chuồn), d (rô), h (cơ), hoặc ♠ ♣ ♦ ♥, hoặc bằng chữ: bích, chuồn, rô, cơ.",
    },
    "cli.top": {"en": "top: {cards}", "vi": "trên bàn: {cards}"},
    "cli.top.none": {
        "en": "top: (none: you lead)",
        "vi": "trên bàn: (trống, bạn mở vòng)",
    },
    "cli.cards.one": {"en": "1 card", "vi": "1 lá"},
    "cli.cards.many": {"en": "{count} cards", "vi": "{count} lá"},
    "cli.seat": {
        "en": "player {player}: {cards}",
        "vi": "người chơi {player}: {cards}",
    },
    "cli.seat.passed": {
        "en": "player {player}: {cards} (passed)",
        "vi": "người chơi {player}: {cards} (đã bỏ lượt)",
    },
    "cli.your_hand": {"en": "your hand: {cards}", "vi": "bài của bạn: {cards}"},
    "cli.jump_in": {
        "en": "you may jump in with four consecutive pairs, or 'pass'",
        "vi": "bạn có thể chặt ngoài lượt bằng bốn đôi thông, hoặc gõ 'bỏ' để không chặt",
    },
    "cli.unreadable": {
        "en": "cannot read {text}: {why}",
        "vi": "Không đọc được {text}: {why}",
    },
    "cli.legal": {"en": "legal: {plays}", "vi": "có thể đánh: {plays}"},
    "cli.not_allowed": {"en": "not allowed: {why}", "vi": "Không hợp lệ: {why}"},
    "cli.plays": {
        "en": "player {player} plays {cards}",
        "vi": "người chơi {player} đánh {cards}",
    },
    "cli.passes": {"en": "player {player} passes", "vi": "người chơi {player} bỏ lượt"},
    "cli.jumps_in": {
        "en": "player {player} plays {cards} (jumps in)",
        "vi": "người chơi {player} chặt ngoài lượt bằng {cards}",
    },
    "cli.you_play": {"en": "you play {cards}", "vi": "bạn đánh {cards}"},
    "cli.you_pass": {"en": "you pass", "vi": "bạn bỏ lượt"},
    "cli.trick_won": {
        "en": "player {player} wins the trick",
        "vi": "người chơi {player} thắng vòng này",
    },
    "cli.trick_won.you": {"en": "you win the trick", "vi": "bạn thắng vòng này"},
    "cli.out": {"en": "player {player} is out", "vi": "người chơi {player} đã về"},
    "cli.out.you": {"en": "you are out", "vi": "bạn đã về"},
    "cli.trick": {"en": "trick {number}:", "vi": "vòng {number}:"},
    "cli.demo_header": {
        "en": "{rules}, {players} players, seed {seed}; even seats greedy, odd seats random",
        "vi": "{rules}, {players} người chơi, seed {seed}; máy ở ghế chẵn ưu tiên đánh lá nhỏ và giữ heo, máy ở ghế lẻ đánh ngẫu nhiên",
    },
    "cli.instant_win": {
        "en": "player {player} wins at the deal ({hand})",
        "vi": "người chơi {player} tới trắng ({hand})",
    },
    "cli.dealt": {
        "en": "your hand at the deal: {cards}",
        "vi": "bài bạn được chia: {cards}",
    },
    "cli.finish_order": {"en": "finish order: {order}", "vi": "thứ tự về: {order}"},
    "cli.player": {"en": "player {player}", "vi": "người chơi {player}"},
    "cli.scores": {"en": "scores: {scores}", "vi": "điểm: {scores}"},
    "cli.score": {
        "en": "player {player} {points}",
        "vi": "người chơi {player} {points}",
    },
    "cli.your_place": {
        "en": "your place: {place} of {players}",
        "vi": "bạn về {place} trong {players} người",
    },
    "cli.rule": {"en": "rule: {section}", "vi": "điều luật: {section}"},
    "cli.error": {"en": "error: {why}", "vi": "lỗi: {why}"},
    "cli.interrupted": {"en": "interrupted", "vi": "đã dừng"},
    "cli.unknown_variant": {
        "en": "unknown variant: {name} (known: {known})",
        "vi": "không có luật {name} (các luật có: {known})",
    },
    "cli.rules_file": {
        "en": "cannot read a rule set from the rules file {path}",
        "vi": "không đọc được luật chơi trong tệp {path}",
    },
    "cli.two_decks": {
        "en": "{rules} is played with two decks: drop --decks 1, or choose a one-deck variant",
        "vi": "luật {rules} chơi với hai bộ bài: bỏ --decks 1, hoặc chọn luật chơi một bộ",
    },
    "cli.one_deck": {
        "en": "{rules} on one deck seats 2-4 players, not {players}: add --decks 2 for five to eight",
        "vi": "luật {rules} với một bộ bài cho 2 đến 4 người chơi, không phải {players}: thêm --decks 2 để chơi 5 đến 8 người",
    },
    "cli.unknown_bot": {
        "en": "unknown bot {name} (known: {known})",
        "vi": "không có máy {name} (các máy có: {known})",
    },
    "cli.too_many_bots": {
        "en": "{bots} bots named for {seats} seats",
        "vi": "gõ {bots} máy cho {seats} ghế",
    },
    "cli.at_least_one": {
        "en": "--games and --workers must be at least 1",
        "vi": "--games và --workers phải từ 1 trở lên",
    },
    "cli.workers": {
        "en": "--workers must be at most {most} (four per CPU), not {workers}",
        "vi": "--workers tối đa là {most} (bốn cho mỗi CPU), không phải {workers}",
    },
    # -- the command line's simulate --------------------------------------------------
    "sim.header": {
        "en": "{rules}, {games} games, players: {seats}",
        "vi": "{rules}, {games} ván, người chơi: {seats}",
    },
    "sim.seat": {
        "en": "player {player} ({bot}): win rate {wins}, mean score {score} (95% interval {low} to {high}), places {places}",
        "vi": "người chơi {player} ({bot}): tỉ lệ thắng {wins}, điểm trung bình {score} (khoảng tin cậy 95% từ {low} đến {high}), về {places}",
    },
    "sim.place": {"en": "{place} {count}", "vi": "{place} {count}"},
    "sim.actions": {
        "en": "actions per game: {actions}",
        "vi": "số lượt mỗi ván: {actions}",
    },
    "sim.bombs": {
        "en": "bombs played: {bombs}; chops: {chops}",
        "vi": "số lần đánh hàng: {bombs}; số lần chặt: {chops}",
    },
    "sim.count": {"en": "player {player} {count}", "vi": "người chơi {player} {count}"},
    # -- the agents' tools, tienlen.mcp --------------------------------------------------
    "agent.header": {
        "en": "game {game}, {rules}: you are player {seat} of {players}",
        "vi": "ván {game}, luật {rules}: bạn là người chơi {seat} trong {players} người",
    },
    "agent.since": {
        "en": "since your last action:",
        "vi": "từ lượt trước của bạn:",
    },
    "agent.top": {
        "en": "top: {cards}, played by player {player}",
        "vi": "trên bàn: {cards}, của người chơi {player}",
    },
    "agent.your_turn": {
        "en": "your turn: play or pass",
        "vi": "đến lượt bạn: đánh hoặc bỏ lượt",
    },
    "agent.declined": {"en": "you do not jump in", "vi": "bạn không chặt ngoài lượt"},
    "agent.over": {"en": "the game is over", "vi": "ván đã kết thúc"},
    "agent.not_over": {
        "en": "the game is not over yet",
        "vi": "ván chưa kết thúc",
    },
    "agent.legal_now": {"en": "Legal now.", "vi": "Được phép đánh lúc này."},
    "agent.legal_action": {"en": "{index}: {action}", "vi": "{index}: {action}"},
}
"""Every player-facing template, by key, then by language, with its ``{fields}``.

A language is one column: a template in every entry, with the same ``{fields}`` as
the English one (a test checks), and nothing else to edit.
"""


def _columns(catalogue: Mapping[str, Mapping[str, str]]) -> tuple[str, ...]:
    """The languages of *catalogue*: the columns of its entries, which all have the same."""
    languages = tuple(next(iter(catalogue.values())))
    for key, entry in catalogue.items():
        if tuple(entry) != languages:
            msg = f"catalogue entry {key!r} is in {tuple(entry)}, not {languages}"
            raise AssertionError(msg)
    return languages


LANGUAGES: Final = _columns(CATALOGUE)
"""The languages of the catalogue (its columns), English and Vietnamese."""

REVIEWED: Final = {lang: CATALOGUE["language.reviewed"][lang] for lang in LANGUAGES}
"""Who reviewed each language of the catalogue, by language code (its
``language.reviewed`` entry).

``"project"`` is the project's own players, not a professional translator;
corrections from native speakers are welcome.
"""


def text(key: str, lang: str = "en", **fields: object) -> str:
    """The catalogue's entry *key* in *lang*, with *fields* filled in.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.
        tienlen.errors.UnknownMessageError: no entry is called *key*.
        TypeError: *key* or *lang* is not a string, or a field is missing.

    Example:
        >>> from tienlen.messages import text
        >>> text("cli.cards.many", "vi", count=5)
        '5 lá'
    """
    _check_language(lang)
    if not isinstance(key, str):
        msg = f"expected a message key, got {key!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if key not in CATALOGUE:
        msg = f"no message is called {key[:80]!r}"
        raise UnknownMessageError(msg)
    template = CATALOGUE[key][lang]
    missing = fields_of(template) - fields.keys()
    if missing:
        msg = f"message {key!r} needs the field(s) {', '.join(sorted(missing))}"
        raise TypeError(msg)
    return template.format(**fields)


def _check_language(lang: object) -> None:
    """Refuse *lang* unless it is one of `LANGUAGES`."""
    if not isinstance(lang, str):
        msg = f"expected a language code, got {lang!r}"
        raise TypeError(msg)
    if lang not in LANGUAGES:
        msg = f"unknown language {lang[:20]!r} (known: {', '.join(LANGUAGES)})"
        raise UnknownLanguageError(msg)


def fields_of(template: str) -> frozenset[str]:
    """The names of the ``{fields}`` a template needs.

    Example:
        >>> from tienlen.messages import fields_of
        >>> sorted(fields_of("{cards} does not beat {top_cards}."))
        ['cards', 'top_cards']
    """
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(template) if name
    )


def kind_name(kind: ComboKind, lang: str = "en") -> str:
    """The name of a combination kind: ``"four of a kind"``, *tứ quý*.

    Example:
        >>> from tienlen.combos import ComboKind
        >>> from tienlen.messages import kind_name
        >>> kind_name(ComboKind.FOUR_OF_A_KIND, "vi")
        'tứ quý'
    """
    if not isinstance(kind, ComboKind):
        msg = f"expected a ComboKind, got {kind!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    return text(f"kind.{kind.name}", lang)


def shape_name(shape: Shape, lang: str = "en") -> str:
    """The name of a shape: ``"5-card straight"``, ``"3 consecutive pairs"``, ``"pair"``.

    Example:
        >>> from tienlen.combos import ComboKind, Shape
        >>> from tienlen.messages import shape_name
        >>> shape_name(Shape.of(ComboKind.STRAIGHT, 5)), shape_name(Shape.of(ComboKind.STRAIGHT, 5), "vi")
        ('5-card straight', 'sảnh 5 lá')
    """
    if not isinstance(shape, Shape):
        msg = f"expected a Shape, got {shape!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    if not shape.kind.is_sequence:
        return kind_name(shape.kind, lang)
    return text(f"shape.{shape.kind.name}", lang, size=shape.size, length=shape.length)


def card_text(cards: str) -> str:
    """Card text as players read it (``"Th 2d"`` → ``"10♥ 2♦"``); other text unchanged.

    Example:
        >>> from tienlen.messages import card_text
        >>> card_text("Th 2d"), card_text("pass")
        ('10♥ 2♦', 'pass')
    """
    from tienlen.cards import parse_cards  # noqa: PLC0415 (cards imports errors)

    try:
        return " ".join(card.unicode() for card in parse_cards(cards))
    except InvalidCardError:
        return cards


def score_line(item: ScoreItem, lang: str = "en") -> str:
    """A score item as a line for the table: who pays whom, and what for.

    In English it reads as ``str(item)``, except that caught cards are shown as
    players write them.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.
        TypeError: *item* is not a `tienlen.ScoreItem`.

    Example:
        >>> from tienlen import ScoreItem, ScoreKind, classify
        >>> from tienlen.messages import score_line
        >>> stake = ScoreItem(kind=ScoreKind.STAKE, player=0, payer=3, points=1)
        >>> score_line(stake), score_line(stake, "vi")
        ('stake: player 3 pays player 0 1', 'cược: người chơi 3 trả 1 cho người chơi 0')
        >>> chop = ScoreItem(kind=ScoreKind.CHOP, player=1, payer=2, points=4, combos=[classify("2h")])
        >>> score_line(chop, "vi")
        'chặt: người chơi 2 trả 4 cho người chơi 1 vì bị chặt 2♥'
    """
    if not isinstance(item, ScoreItem):
        msg = f"expected a ScoreItem, got {item!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    kind = text(f"score.{item.kind.name}", lang)
    if item.payer is None:
        return text(
            "score.scored", lang, kind=kind, player=item.player, points=item.points
        )
    fields = {
        "kind": kind,
        "player": item.player,
        "payer": item.payer,
        "points": item.points,
    }
    if not item.combos:
        return text("score.paid", lang, **fields)
    caught = ", ".join(combo.unicode() for combo in item.combos)
    return text("score.paid.caught", lang, caught=caught, **fields)


def instant_win_name(win: InstantWinHand, lang: str = "en") -> str:
    """The name of an instant-win hand (*tới trắng*); a table's own hand keeps its name.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.
        TypeError: *win* is neither an `tienlen.InstantWin` nor a
            `tienlen.CustomInstantWin`.

    Example:
        >>> from tienlen import CustomInstantWin, InstantWin
        >>> from tienlen.messages import instant_win_name
        >>> instant_win_name(InstantWin.FOUR_TWOS), instant_win_name(InstantWin.FOUR_TWOS, "vi")
        ('four 2s', 'tứ quý heo')
        >>> instant_win_name(CustomInstantWin(name="all-low", test=lambda hand: False), "vi")
        'all-low'
    """
    if isinstance(win, CustomInstantWin):
        _check_language(lang)
        return win.name
    if not isinstance(win, InstantWin):
        msg = f"expected an instant-win hand, got {win!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    return text(f"instant.{win.name}", lang)


def refusal(error: IllegalPlayError, lang: str = "en") -> str:
    """The sentence `IllegalPlayError.message` shows the player.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.

    Example:
        >>> from tienlen.errors import IllegalPlayError, IllegalReason
        >>> from tienlen.messages import refusal
        >>> error = IllegalPlayError(
        ...     IllegalReason.MUST_INCLUDE, 0, "4s", "the first lead must include 3s",
        ...     cards=("3s",),
        ... )
        >>> refusal(error, "vi")
        'Lượt đánh đầu tiên của ván phải có 3♠.'
    """
    if not isinstance(error, IllegalPlayError):
        msg = f"expected an IllegalPlayError, got {error!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    _check_language(lang)
    reason = error.reason
    key = f"refusal.{reason.name}"
    fields: dict[str, str] = {"action": card_text(error.action)}
    cards = [card_text(card) for card in error.cards]
    if error.top is not None:
        fields["top"] = card_text(error.top)
    if reason == IllegalReason.DOES_NOT_BEAT:
        if len(cards) == 2:
            fields["cards"], fields["top_cards"] = cards
        elif "top" in fields:
            fields["cards"], fields["top_cards"] = fields["action"], fields["top"]
    elif cards:
        fields["cards"] = " ".join(cards)
    if not error.action:
        fields.pop("action")
    if fields_of(CATALOGUE[key]["en"]) - fields.keys():
        key += ".any"
    elif reason == IllegalReason.WRONG_SHAPE and _same_kind(error.action, error.top):
        key += ".size"
    return text(key, lang, **fields)


def _same_kind(action: str, top: str | None) -> bool:
    """Whether two combinations' cards are of one kind but not one size (two straights)."""
    from tienlen.cards import Hand  # noqa: PLC0415 (cards imports errors)
    from tienlen.engine.shapes import structural_key  # noqa: PLC0415

    if top is None:
        return False
    try:
        play_code = structural_key(Hand.parse(action).mask) >> 6
        top_code = structural_key(Hand.parse(top).mask) >> 6
    except (InvalidCardError, ValueError, KeyError):
        return False
    if play_code == top_code:
        return False
    play_shape, top_shape = Shape.from_code(play_code), Shape.from_code(top_code)
    return play_shape.kind is top_shape.kind


def card_error(error: InvalidCardError, lang: str = "en") -> str:
    """The sentence `InvalidCardError.message` shows the player.

    Raises:
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.
        TypeError: *error* is not an `InvalidCardError`.

    Example:
        >>> from tienlen import InvalidCardError, parse_cards
        >>> from tienlen.messages import card_error
        >>> try:
        ...     parse_cards("7x")
        ... except InvalidCardError as error:
        ...     print(card_error(error, "vi"))
        7x không phải là lá bài: chất là s (bích), c (chuồn), d (rô) hoặc h (cơ).
        >>> from tienlen import CLASSIC
        >>> try:
        ...     CLASSIC.classify("3s 3s")
        ... except InvalidCardError as error:
        ...     print(card_error(error))
        ...     print(card_error(error, "vi"))
        You named 3♠ twice: one deck has only one.
        Bạn gõ 3♠ hai lần: một bộ bài chỉ có một lá này.
    """
    if not isinstance(error, InvalidCardError):
        msg = f"expected an InvalidCardError, got {error!r}"  # type: ignore[unreachable]
        raise TypeError(msg)
    _check_language(lang)
    problem = getattr(error, "problem", None)
    token = getattr(error, "token", None)
    key = f"card.{problem}"
    if key not in CATALOGUE or (
        token is None and fields_of(CATALOGUE[key]["en"]) & {"token", "card"}
    ):
        return text("card.any", lang)
    fields: dict[str, str] = {"token": token or ""}
    if "card" in fields_of(CATALOGUE[key]["en"]):  # a card named too often
        from tienlen.cards import Card  # noqa: PLC0415 (cards imports errors)

        try:
            fields["card"] = Card.parse(fields["token"]).unicode()
        except InvalidCardError:
            return text("card.any", lang)
    if problem == "rank-number":
        from tienlen.cards import rank_letter_for_number  # noqa: PLC0415

        letter = rank_letter_for_number(fields["token"])
        if letter is None:
            return text("card.any", lang)
        fields["letter"] = letter
        fields["rank"] = text(f"rank.{letter}", lang)
    return text(key, lang, **fields)


def place_name(place: int, players: int, lang: str = "en") -> str:
    """A finishing place as players say it: ``"2nd"``, *nhì*; the last place is *bét*.

    Raises:
        InvalidArgumentError: *place* is not between 1 and *players* (at most 8).
        UnknownLanguageError: *lang* is not one of `LANGUAGES`.

    Example:
        >>> from tienlen.messages import place_name
        >>> place_name(2, 4), place_name(2, 4, "vi"), place_name(4, 4, "vi")
        ('2nd', 'nhì', 'bét')
    """
    if type(place) is not int or type(players) is not int:
        msg = f"expected int place and players, got {place!r} and {players!r}"
        raise TypeError(msg)
    if not 1 <= place <= players <= 8:
        msg = f"place {place} of {players} players is not a place"
        raise InvalidArgumentError(msg)
    if lang == "vi" and place == players > 1:
        return text("place.last", lang)
    return text(f"place.{place}", lang)


words.register(IllegalPlayError, refusal)
words.register(InvalidCardError, card_error)
