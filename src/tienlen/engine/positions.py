"""Private: what a position read from text may hold under its rule set (issue 20).

`tienlen.notation.read` builds a `GameState` from untrusted text, and a record's
``position`` is read the same way. The engine never re-derives what a position says
was settled before it (score items, an open chop chain, frozen and rotted players) or
how the current trick went (who passed, who acts, the first-lead flags), so `check`
compares each with what the rule set and the cards allow and refuses the rest:

- score items paid during play are only the scorer's: chops (each chain caught in
  played cards, one catching the next, worth what its catches are worth, RULES
  §6.6.2) and the frozen players' payments, recomputed (RULES §6.6.3);
- the frozen players are recomputed from the first player out; rotted players only
  at tables that limit going out (RULES §12.12);
- an open chain was caught by the player of the top, with cards they played, and
  the catcher of a chain paid during play played a catch of it off the pile;
- a game over ended on a play that emptied its player's hand, or on a rot, and its
  finishing order is the one that end gives (RULES §2.5, §4.4);
- the players who passed and the player to act are a trick's: everyone between the
  last play and the player to act passed or is out, nobody to act has passed, the
  last player acts again only at a continuation table, and the player the top beat
  has played (RULES §1.5, §3.4, §12.8, §12.10);
- the first-lead card is the lowest dealt card, its holder acts, nobody has played,
  and it is declinable exactly where the rules let 3♠ be declined (RULES §2.4, §3.3);
- no dealt hand is an instant win unless the game was won at the deal, by the first
  such hand in play order (RULES §5.4, §6.7);
- the player to act has an action (a stuck leader rots at once, RULES §12.12).

These are necessary conditions, checked without searching the game's history: a
position that meets them may still be one no sequence of plays reaches (whether a
bomb on the pile was led or caught a 2 cannot always be told from the cards). They
are what makes every listed action apply and the game end or keep someone to act,
and what keeps a result the text could forge out of the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from tienlen.actions import hand_of
from tienlen.cards import DECK
from tienlen.combos import Combo
from tienlen.engine import answers
from tienlen.engine import bits as _bits
from tienlen.game import GameState, lowest_holder
from tienlen.scoring import ChopChain, PokerScorer, ScoreItem, ScoreKind

__all__ = ["Refused", "check"]

_THREE_OF_SPADES = 1
"""The mask of 3♠, the only first-lead card that may be declined (RULES §3.3)."""


class Refused(Exception):  # noqa: N818  # internal: the reader turns it into its error
    """A field of a position holds what its rule set never produces."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(field, problem)
        self.field = field
        self.problem = problem


def check(state: GameState, chop: ChopChain | None, *, won: bool) -> None:
    """Refuse *state* (read from text) if it holds what its rules never produce.

    *chop* is the chain the text gave (open, or closed by the end of the game);
    *won* whether the text ends the game at the deal.

    Raises:
        Refused: naming the field at fault and the problem.
    """
    dealt = [hand.mask for hand in state.dealt]
    played = [_bits.difference(d, h) for d, h in zip(dealt, state._masks, strict=True)]
    _check_frozen(state)
    _check_score(state, chop, played)
    _check_bottom(state)
    _check_deal(state, dealt, won=won)
    _check_order(state)
    _check_start(state, dealt, played)
    _check_turn(state)
    to_act = state.to_act
    if to_act is not None and not state.legal_actions():
        problem = (
            f"seat {to_act} leads with no play the rules allow: "
            "such a leader rots at once (RULES §12.12)"
        )
        raise Refused("to", problem)


# -- the deal and the first lead ----------------------------------------------------


def _opening(state: GameState, dealt: list[int]) -> tuple[int | None, int | None]:
    """Who led the game's first trick and the card it had to hold (RULES §2.4, §4.1).

    The card is ``None`` when the lead is free: the spare card's holder starts
    freely, and a later game under rules that fix only the first game's lead is led
    by its leader. The leader is ``None`` when the setup does not say.
    """
    rules, setup = state.rules, state.setup
    size = rules.deal_size(state.players)[1]
    sizes = [mask.bit_count() for mask in dealt]
    spare = answers.spare_holder(state._context.deal, sizes, size)
    if spare is not None:
        return spare, None
    if rules.lead_must_include(
        first_game=setup.first_game, after_instant_win=setup.after_instant_win
    ):
        card, holder = lowest_holder(rules, dealt, setup.dealer)
        return holder, card
    return setup.leader, None


def _check_deal(state: GameState, dealt: list[int], *, won: bool) -> None:
    """No dealt hand wins at once, unless the game was won so (RULES §5.4, §6.7)."""
    context = state._context
    leader, _ = _opening(state, dealt)
    order = context.seating.order_from(0 if leader is None else leader)
    first_game = state.setup.first_game
    for seat in order:
        win = context.instant_win(dealt[seat], first_game=first_game)
        if win is None:
            continue
        if not won:
            problem = (
                f"seat {seat}'s deal {hand_of(dealt[seat])} wins at once "
                f"({win.value}): that game ended at the deal"
            )
            raise Refused("hands", problem)
        result = state.result
        if leader is not None and result is not None and result.winner != seat:
            problem = (
                f"seat {seat}'s deal wins at once ({win.value}) before seat "
                f"{result.winner}'s in play order"
            )
            raise Refused("won", problem)
        return


def _check_start(state: GameState, dealt: list[int], played: list[int]) -> None:
    """The first-lead card, a declined first lead, and who leads a fresh deal (§2.4, §3.3)."""
    rules = state.rules
    to_act = state.to_act
    fresh = not any(played) and not state.out and not state._top
    if state.required:
        if state.locked:
            raise Refused("passed", "nobody passes before the first lead is made")
        if not fresh:
            raise Refused("first", "the first lead is made before anyone plays")
        leader, card = _opening(state, dealt)
        if card is None:
            problem = f"{rules.name} leads this game freely (no first-lead card)"
            raise Refused("first", problem)
        if state.required != 1 << card or to_act != leader:
            problem = (
                f"the first lead is seat {leader}'s, with {DECK[card]} (RULES §2.4)"
            )
            raise Refused("first", problem)
        declinable = card == 0 and rules.may_decline_first_lead
        if state.may_decline != declinable:
            problem = (
                f"{rules.name} lets 3s be declined: write 'first 3s declinable'"
                if declinable
                else f"{rules.name} lets no first lead of {DECK[card]} be declined"
            )
            raise Refused("first", problem)
        return
    if to_act is None or state._top:
        return
    if state.locked:
        _check_declined(state, dealt, fresh=fresh)
        return
    if not fresh:
        return
    leader, card = _opening(state, dealt)
    if leader is not None and leader != to_act:
        raise Refused("to", f"seat {leader} leads the first trick of this game")
    if card is not None:
        problem = (
            f"the first lead must include {DECK[card]} (RULES §2.4): "
            f"'first {DECK[card]}'"
        )
        raise Refused("first", problem)


def _check_declined(state: GameState, dealt: list[int], *, fresh: bool) -> None:
    """A seat passed with nothing to beat: only 3♠ declined as the first lead (§3.3)."""
    problem = (
        "a seat passes with no play to beat only by declining 3s as the first lead "
        "(RULES §3.3)"
    )
    holder, card = _opening(state, dealt)
    if (
        not fresh
        or not state.rules.may_decline_first_lead
        or card != 0
        or holder is None
        or state.locked != 1 << holder
    ):
        raise Refused("passed", problem)
    if state.to_act != state._context.seating.next_to_act(holder, None, state.locked):
        raise Refused("to", f"after seat {holder} declines, the next seat leads")


def _check_order(state: GameState) -> None:
    """A game over: its finishing order is the one its end gives (RULES §2.5, §4.4)."""
    result = state.result
    if result is None or result.instant_win is not None:
        return
    context = state._context
    finish_order, bottom = state.finish_order, state._bottom
    last_out: int | None = state.last_player
    if state._top:  # it ended on a play that emptied its player's hand
        if last_out is None or not finish_order or finish_order[-1] != last_out:
            problem = f"the game ends when seat {last_out}'s play empties its hand"
            raise Refused("over", problem)
    elif bottom and bottom[-1] not in state.frozen:  # or on a stuck leader's rot
        last_out = bottom[-1]
    else:
        raise Refused("over", "a game ends on a play or on a leader who rots")
    out = state.out
    remaining = [p for p in context.seating.order_from(last_out) if not out >> p & 1]
    expected = answers.places(
        context.turns, finish_order, remaining, state.hands, bottom[::-1]
    )
    if result.finish_order != expected:
        shown = " ".join(map(str, expected))
        raise Refused("over", f"the finishing order is {shown} (RULES §2.5, §4.4)")


# -- the trick ----------------------------------------------------------------------


def _check_turn(state: GameState) -> None:
    """Who passed and who acts, as a trick leaves them (RULES §1.5, §3.4, §6.4, §12.8)."""
    to_act, last = state.to_act, state.last_player
    if to_act is None or last is None:
        return
    context = state._context
    turns = context.turns
    locked, out = state.locked, state.out
    order = context.seating.order_from(last)
    if to_act == last:
        if not turns.continuation:
            problem = (
                f"seat {last} made the last play: the turn moves on "
                "(only a continuation table gives it back, RULES §3.4)"
            )
            raise Refused("to", problem)
        between = order[1:]
    else:
        between = order[1 : order.index(to_act)]
        if locked >> to_act & 1:
            raise Refused(
                "passed", f"seat {to_act} passed in this trick: it cannot act"
            )
    for seat in between:
        if not (locked | out) >> seat & 1:
            problem = (
                f"seat {seat} acts between seat {last}'s play and seat {to_act}: "
                "it has passed or is out"
            )
            raise Refused("passed", problem)
    beaten = state._beaten
    if beaten is not None and (
        not state.dealt[beaten] or state.hand(beaten) == state.dealt[beaten]
    ):
        raise Refused("top", f"seat {beaten} has played nothing for the top to beat")
    if beaten == last and not turns.continuation:
        problem = f"seat {last} beat its own play: only a continuation table allows it"
        raise Refused("top", problem)
    if not turns.jump_ins and locked >> last & 1:
        raise Refused("passed", f"seat {last} made the last play: it has not passed")
    if not turns.pass_locks_out:
        expected = sum(1 << seat for seat in between if not out >> seat & 1)
        if locked != expected:
            problem = (
                "a pass only skips a player until the next play (RULES §12.8): "
                f"the passed are {' '.join(map(str, _seats(expected))) or 'none'}"
            )
            raise Refused("passed", problem)


def _seats(mask: int) -> list[int]:
    return [seat for seat in range(8) if mask >> seat & 1]


# -- who is out ---------------------------------------------------------------------


def _check_bottom(state: GameState) -> None:
    """Frozen players take the bottom together; others there rotted (RULES §12.12)."""
    frozen, bottom = state.frozen, state._bottom
    if frozen:
        block = frozen[::-1]
        starts = [i for i in range(len(bottom)) if bottom[i : i + len(block)] == block]
        if not starts:
            problem = (
                "the frozen seats take the bottom places together, last frozen first"
            )
            raise Refused("bottom", problem)
    rotted = [seat for seat in bottom if seat not in frozen]
    if not rotted:
        return
    if not state._context.limits_going_out:
        problem = f"{state.rules.name} forbids no way of going out: nobody rots"
        raise Refused("bottom", problem)
    full = state.rules.deal_size(state.players)[1]
    for seat in rotted:
        dealt = state.dealt[seat]
        if full > 1 and len(dealt) == full and state.hand(seat) == dealt:
            problem = f"seat {seat} holds its whole deal, with a lead to play: it never rotted"
            raise Refused("bottom", problem)


def _frozen_by_rules(state: GameState) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
    """The players the scorer froze when the first player went out, and their items."""
    context = state._context
    if not state.finish_order or not context.freezes:
        return (), ()
    winner = state.finish_order[0]
    rotted = set(state._bottom) - set(state.frozen)
    order = [
        seat
        for seat in context.seating.order_from(winner)
        if seat == winner or seat not in rotted
    ]
    return answers.on_first_out(
        context.scorer, state.rules, order, state.hands, state.dealt
    )


def _check_frozen(state: GameState) -> None:
    """The frozen players are the scorer's, recomputed (RULES §6.6.3)."""
    expected, _ = _frozen_by_rules(state)
    if state.frozen != expected:
        if not state._context.freezes:
            problem = f"{state.rules.name} freezes nobody"
        elif not state.finish_order:
            problem = "players are frozen only when the first player goes out"
        else:
            shown = " ".join(map(str, expected)) or "none"
            problem = (
                f"the players frozen when seat {state.finish_order[0]} went out "
                f"are {shown} (RULES §6.6.3)"
            )
        raise Refused("frozen", problem)


# -- the score ----------------------------------------------------------------------


def _check_score(state: GameState, chop: ChopChain | None, played: list[int]) -> None:
    """The open chain and the items paid during play are what the scorer pays."""
    context = state._context
    used = state._top_mask
    if chop is not None:
        used = _check_open_chain(state, chop, played, used)
    _, frozen_items = _frozen_by_rules(state)
    others: list[ScoreItem] = []
    for item in state.items:
        if item.kind is ScoreKind.CHOP and context.scores_catches:
            used = _check_chop_item(state, item, played, used)
        else:
            others.append(item)
    if tuple(others) != frozen_items:
        if not context.scores_catches and not context.freezes:
            problem = f"{state.rules.name} pays nothing before the game ends"
        else:
            paid = ", ".join(map(str, frozen_items)) or "no frozen payment"
            problem = (
                "during play only chops and frozen payments are paid "
                f"(RULES §6.6.2-§6.6.3); here: chops and {paid}"
            )
        raise Refused("items", problem)
    if frozen_items:
        kinds = [item.kind is ScoreKind.FROZEN for item in state.items]
        first = kinds.index(True)
        if not all(kinds[first : first + len(frozen_items)]):
            problem = (
                "the frozen payments are paid together, when the first player goes out"
            )
            raise Refused("items", problem)


def _check_chain(
    state: GameState, field: str, combos: Sequence[Combo], payer: int, played: list[int]
) -> None:
    """*combos* caught one after the other, the last one *payer*'s (RULES §6.6.2)."""
    rules = state.rules
    if not rules.is_chop_target(combos[0]):
        problem = f"{combos[0]} is no single 2, pair of 2s or bomb: nobody catches it"
        raise Refused(field, problem)
    for earlier, later in pairwise(combos):
        if not (rules.is_catch(later, earlier) and rules.beats(later, earlier)):
            raise Refused(field, f"{later} does not catch {earlier}")
    if not _bits.is_submultiset(combos[-1].mask, played[payer]):
        raise Refused(field, f"seat {payer} has not played {combos[-1]}")
    for combo in combos[:-1]:
        if not any(_bits.is_submultiset(combo.mask, mask) for mask in played):
            raise Refused(field, f"nobody has played {combo}")


def _worth(
    state: GameState,
    combos: Sequence[Combo],
    *,
    last_worthless: bool,
    others_worthless: bool,
) -> set[int]:
    """What a chain of *combos* may be worth: a catch of a player's last cards scores 0."""
    sums = {0}
    for i, combo in enumerate(combos):
        value = state.rules.chop_value(combo)
        free = last_worthless if i == len(combos) - 1 else others_worthless
        sums = {total + value for total in sums} | (sums if free else set())
    return sums


def _account(state: GameState, field: str, used: int, combos: Sequence[Combo]) -> int:
    """*used* with *combos*' cards added; each card is caught once, in played cards."""
    for combo in combos:
        if _bits.overflowing_sum(used, combo.mask):
            raise Refused(field, f"{combo} is caught twice")
        used = _bits.multiset_sum(used, combo.mask)
    total = 0
    for dealt, held in zip(state.dealt, state._masks, strict=True):
        total = _bits.multiset_sum(total, _bits.difference(dealt.mask, held))
    if not _bits.is_submultiset(used, total):
        raise Refused(
            field,
            f"{hand_of(_bits.difference(used, total))} was caught twice or never played",
        )
    return used


def _check_open_chain(
    state: GameState, chop: ChopChain, played: list[int], used: int
) -> int:
    """The trick's open chain: the player of the top caught its last combination."""
    scorer = state._context.scorer
    if not isinstance(scorer, PokerScorer) or not scorer.chop_chain:
        raise Refused("chop", f"{state.rules.name} keeps no chop chain open")
    if state.result is not None:
        problem = (
            "a game over has no open chain: the catch that ends it is paid at once"
        )
        raise Refused("chop", problem)
    top, last = state.top, state.last_player
    _check_chain(state, "chop", chop.caught, chop.victim, played)
    if (
        top is None
        or chop.catcher != last
        or not state.rules.is_catch(top, chop.caught[-1])
    ):
        problem = (
            f"the top is the catch that keeps a chain open, by seat {chop.catcher}"
        )
        raise Refused("chop", problem)
    if not state._masks[last]:
        raise Refused("chop", "a catch with the catcher's last cards is paid at once")
    finished = set(state.finish_order)
    worth = _worth(
        state,
        chop.caught,
        last_worthless=chop.victim in finished,
        others_worthless=bool(finished),
    )
    if chop.points not in worth:
        problem = f"the chain is worth {_shown_worth(worth)}, not {chop.points}"
        raise Refused("chop", problem)
    return _account(state, "chop", used, chop.caught)


def _check_chop_item(
    state: GameState, item: ScoreItem, played: list[int], used: int
) -> int:
    """A chop paid during play: a chain the scorer closed (RULES §6.6.2, D-18, D-23)."""
    scorer = state._context.scorer
    if item.payer is None or not item.combos:
        raise Refused(
            "items", "a chop is paid by its victim, for the combinations caught"
        )
    if not isinstance(scorer, PokerScorer):  # pragma: no cover - scores catches
        raise Refused("items", f"{state.rules.name} pays no chop")
    if not scorer.chop_chain and len(item.combos) != 1:
        raise Refused("items", "without chains each catch is paid at once, alone")
    _check_chain(state, "items", item.combos, item.payer, played)
    finished = set(state.finish_order)
    available = played[item.player]
    for combo in item.combos:
        available = _bits.difference(available, combo.mask)
    if scorer.chop_chain and item.player not in finished:  # closed when its trick ended
        available = _bits.difference(available, state._top_mask)
    caught = item.combos[-1]
    if not any(
        state.rules.is_catch(play, caught)
        for play in state.rules.legal_plays(hand_of(available), caught)
    ):
        problem = f"seat {item.player} has played no catch of {caught} outside the pile"
        raise Refused("items", problem)
    worth = _worth(
        state,
        item.combos,
        last_worthless=item.payer in finished
        or (not scorer.catch_with_last_cards_scores and item.player in finished),
        others_worthless=bool(finished),
    )
    if item.points <= 0 or item.points not in worth:
        problem = (
            f"a chop for {' / '.join(map(str, item.combos))} is worth "
            f"{_shown_worth(worth - {0})}, not {item.points}"
        )
        raise Refused("items", problem)
    return _account(state, "items", used, item.combos)


def _shown_worth(worth: set[int]) -> str:
    values = sorted(worth)
    if not values:
        return "nothing"
    shown = ", ".join(map(str, values[:6]))
    return shown + (" …" if len(values) > 6 else "")
