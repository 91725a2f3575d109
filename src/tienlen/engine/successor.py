# mypy: disable-error-code="misc"
# A draft is written field by field: its fields are `Final` (error code "misc") for
# every code but the engine's transition, here.
"""The engine's one transition: the state after an action (RULES §1.5, §2–§6).

Every way to act (`GameState.apply`, `GameState.apply_mask`, ``play``, ``pass_turn``,
notation and record replays, search rollouts and the RL environments, which call
those) ends in `after`: *player* plays the cards of *mask*, a pass being mask 0. It
trusts its input: `GameState.apply` checks what it is handed (the legality check is
the one door for unchecked input) unless the state itself listed it.

A successor is a copy of its state with what the action changed. `draft` copies a
state into a writable draft (the field list written out, checked against the
annotations of `GameState` by a test); `seal` makes the draft a finished `GameState`
with a fresh trust token. `from_fields` is the door for code outside the
transitions (`tienlen.notation`) that builds a state from its fields by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from tienlen.actions import PASSES, TOKENS, Action, hand_of
from tienlen.cards import DECK
from tienlen.engine import answers, bits
from tienlen.engine.rulebook import context_of
from tienlen.engine.shapes import SINGLE, shape_code, structural_key
from tienlen.engine.turns import acting, turn_key, with_out
from tienlen.errors import InvalidStateError
from tienlen.game import COMPILED, FIELDS, GameState
from tienlen.policies import Seating
from tienlen.scoring import Catch, ChopChain, Finish, GameResult, ScoreItem
from tienlen.setups import GameSetup

if TYPE_CHECKING:
    from tienlen.rules import RuleSet

__all__ = [
    "after",
    "build",
    "draft",
    "fields_of",
    "from_fields",
    "lowest_holder",
    "seal",
    "spare_starter",
    "start",
    "with_fields",
]

_new: Final = object.__new__
_SINGLE_KEY: Final = shape_code(SINGLE, 1) << 6
_LOW_HALF: Final = bits.LOW_HALF
_THREE_OF_SPADES: Final = 1
"""The mask of 3♠, card 0: only its first lead may be declined (RULES §3.3)."""
_TOKEN_PREFIX: Final = TOKENS.prefix
_TOKEN_COUNT: Final = TOKENS.count
_FIELD_NAMES: Final = frozenset(FIELDS)


# -- the one transition -------------------------------------------------------------


def after(
    state: GameState,
    player: int,
    mask: int,
    action: Action | None = None,
    key: int = 0,
) -> GameState:
    """The state after *player* plays *mask* (0: passes), an action known to be legal.

    Catches, going out, then who acts, looked up in the game's `TurnTable`
    (`tienlen.engine.turns`): RULES §1.5, §3.3, §6.6. *action* is what the history
    records (``None``: the action is recorded by its mask and built when
    `GameState.history` is read); *key* is the combination's `structural_key` when
    the caller has it (0: computed here).

    Example:
        >>> from tienlen import CLASSIC, GameState, Hand
        >>> state = GameState.from_hands(["3s 4s", "5d 6d"], CLASSIC)
        >>> nxt = after(state, 0, Hand.parse("3s").mask)
        >>> str(nxt.top), nxt.to_act, after(nxt, 1, 0).to_act, nxt.history
        ('3s', 1, 0, (Play(player=0, cards=Hand.parse('3s')),))
    """
    if not mask:
        return _after_pass(state, player, action)
    context = state._context
    if not key:
        key = (  # `structural_key`, inlined for a single card
            _SINGLE_KEY | mask.bit_length() - 1
            if not mask & (mask - 1)
            else structural_key(mask)
        )
    masks = list(state._masks)
    held = masks[player]
    left = held ^ mask if held <= _LOW_HALF else bits.difference(held, mask)
    masks[player] = left
    new = draft(state)
    new._masks = tuple(masks)
    new._top = key
    new._top_mask = mask
    new._top_combo = None
    new.last_player = player
    new._log = (state._log, mask << 4 | player if action is None else action)
    if state.required:  # the first lead is made (RULES §2.4)
        new.required = 0
        new.may_decline = False
    if context.remembers_beaten:  # RULES §12.10
        new._beaten = state.last_player
    if (
        state._top
        and context.scores_catches
        and context.is_catch(mask, key, state._top_mask, state._top)
    ):
        new.chop, new.items = _scored_catch(state, player, goes_out=not left)
    question = acting(state._turn, player)
    if context.reads:  # the facts of the play the turn policy reads (§12.13)
        question |= context.play_facts(mask, key, state._top_mask, state._top)
    if not left:
        out = _going_out(state, player, masks, new)
        question = with_out(question, out)
        if answers.is_over(context.turns, len(masks), out, len(new.finish_order)):
            new.locked = context.turn_table.locks_after_play(question)
            return _finished(build(new), player)
    nxt, locked, ends, turn = context.turn_table.plays[question]
    if ends:
        return _new_trick(state, nxt, turn, new.chop, new.items, new)
    new.to_act = nxt
    new.locked = locked
    new._turn = turn
    return seal(new)


def _after_pass(state: GameState, player: int, action: Action | None) -> GameState:
    """`after` for a pass by *player* (RULES §1.5.2-§1.5.4): who acts, from the table."""
    context = state._context
    nxt, locked, ends, turn = context.turn_table.passes[state._turn]
    new = draft(state)
    new._log = (state._log, PASSES[player] if action is None else action)
    if ends:
        return _new_trick(state, nxt, turn, state.chop, state.items, new)
    new.to_act = nxt
    new.locked = locked
    new._turn = turn
    if state.last_player is None:  # the first lead declined (RULES §3.3, D-6)
        new.required = 0
        new.may_decline = False
        if context.limits_going_out:  # the new leader may be stuck (§12.12)
            return _rot_if_stuck(seal(new))
    return seal(new)


def _going_out(state: GameState, player: int, masks: list[int], new: GameState) -> int:
    """*player* played their last card (RULES §1.5.5): record it in *new*.

    On first place the scorer may freeze players (RULES §6.6.3). Returns the new
    mask of players out of the game.
    """
    out = state.out | 1 << player
    finish_order = (*state.finish_order, player)
    new.finish_order = finish_order
    if len(finish_order) == 1 and state._context.freezes:
        frozen, paid = _first_out(state, player, masks, out)
        new.items = (*new.items, *paid)
        new.frozen = frozen
        new._bottom = (*state._bottom, *reversed(frozen))
        for victim in frozen:
            out |= 1 << victim
    new.out = out
    return out


def _scored_catch(
    state: GameState, player: int, *, goes_out: bool
) -> tuple[ChopChain | None, tuple[ScoreItem, ...]]:
    """The chain and items after *player* catches the top (RULES §6.6.2)."""
    top = state.top
    victim = state.last_player
    if top is None or victim is None:  # pragma: no cover - a catch lands on a top
        raise InvalidStateError("a catch needs a combination to catch")
    catch = Catch(
        catcher=player,
        victim=victim,
        caught=top,
        victim_went_out=not state._masks[victim],
        catcher_goes_out=goes_out,
    )
    context = state._context
    chop, paid = answers.on_catch(
        context.scorer, state.rules, catch, state.chop, state.players
    )
    return chop, (*state.items, *paid)


def _first_out(
    state: GameState, winner: int, masks: list[int], out: int
) -> tuple[tuple[int, ...], tuple[ScoreItem, ...]]:
    """The scorer's frozen players and their items when *winner* takes first place."""
    order = [p for p in state._order_from(winner) if p == winner or not out >> p & 1]
    hands = tuple(map(hand_of, masks))
    scorer = state._context.scorer
    return answers.on_first_out(scorer, state.rules, order, hands, state.dealt)


def _new_trick(
    state: GameState,
    leader: int,
    turn: int,
    chop: ChopChain | None,
    items: tuple[ScoreItem, ...],
    new: GameState,
) -> GameState:
    """The successor *new* (a copy of every field) with the trick ended.

    The pile is cleared, its chain settled, and *leader* leads (RULES §1.5.4, §6.6.2);
    *turn* is the new position's `turn_key`.
    """
    if chop is not None:
        scorer = state._context.scorer
        items = (*items, *answers.on_trick_end(scorer, chop, state.players))
    new.to_act = leader
    new._top = 0
    new._top_mask = 0
    new._top_combo = None
    new.last_player = None
    new._beaten = None
    new.locked = 0
    new._turn = turn
    new.chop = None
    new.items = items
    done = seal(new)
    return _rot_if_stuck(done) if state._context.limits_going_out else done


def _rot_if_stuck(state: GameState) -> GameState:
    """A leader with no play that may be played rots (RULES §12.12).

    They take the lowest place still free at once and the next player in play
    direction with cards leads (freely: a first-lead card is no longer required).
    Only tables that forbid some ways of going out can leave a leader stuck.
    """
    player = state.to_act
    if player is None or state._top or state.legal_actions():
        return state
    new = draft(state)
    new.out = out = state.out | 1 << player
    new._bottom = (*state._bottom, player)
    turns = state._context.turns
    if answers.is_over(turns, state.players, out, len(state.finish_order)):
        return _finished(build(new), player)
    new.to_act = state._context.seating.next_to_act(player, None, out)
    new.locked = new.required = 0
    new.may_decline = False
    return _rot_if_stuck(build(new))


def _finished(state: GameState, last_out: int) -> GameState:
    """The game is over: the scorer settles it (RULES §2.5, §4.4, §6.6)."""
    context = state._context
    hands = state.hands
    out = state.out
    remaining = [p for p in state._order_from(last_out) if not out >> p & 1]
    order = answers.places(
        context.turns, state.finish_order, remaining, hands, state._bottom[::-1]
    )
    finish = Finish(
        order=order,
        hands=hands,
        frozen=state.frozen,
        items=state.items,
        chop=state.chop,
    )
    return _with_result(state, answers.settle(context.scorer, state.rules, finish))


def _with_result(state: GameState, result: GameResult) -> GameState:
    """*state*, ended with *result*: nobody acts any more."""
    new = draft(state)
    new.to_act = new.chop = None
    new.result = result
    new.is_over = True
    new.may_decline = False
    new.required = 0
    return build(new)


# -- the first state ------------------------------------------------------------------


def begin(rules: RuleSet, masks: list[int], setup: GameSetup) -> GameState:
    """The first state: fix the leader and the card the lead must include.

    RULES §2.4, §5.3, §6.5, D-4.

    Raises:
        InvalidStateError: a later game without a leader, or a wrong leader.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> setup = GameSetup.checked(2, True, None, False, 1)
        >>> masks = [Hand.parse("4s 9h").mask, Hand.parse("3s 8c").mask]
        >>> state = begin(CLASSIC, masks, setup)
        >>> state.to_act, str(state.must_include)
        (1, '3s')
    """
    leader = setup.leader
    if not rules.lead_must_include(
        first_game=setup.first_game, after_instant_win=setup.after_instant_win
    ):
        if leader is None:
            msg = "a later game needs its leader (the previous winner, RULES §2.4)"
            raise InvalidStateError(msg)
        return start(rules, masks, leader=leader, required=0, setup=setup)
    card, holder = lowest_holder(rules, masks, setup.dealer)
    if leader is not None and leader != holder:
        msg = f"player {holder} holds {DECK[card]} and must lead (RULES §2.4), not player {leader}"
        raise InvalidStateError(msg)
    return start(rules, masks, leader=holder, required=1 << card, setup=setup)


def start(
    rules: RuleSet,
    masks: list[int],
    *,
    leader: int,
    required: int,
    setup: GameSetup,
) -> GameState:
    """The first state, *leader* to lead: instant wins at the deal (RULES §5.4, §6.7), then play.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> setup = GameSetup.checked(2, False, 0, False, 1)
        >>> masks = [Hand.parse("4s 9h").mask, Hand.parse("3s 8c").mask]
        >>> start(CLASSIC, masks, leader=0, required=0, setup=setup).to_act
        0
    """
    context = context_of(rules, len(masks))
    hands = tuple(map(hand_of, masks))
    fields = {
        "rules": rules,
        "_masks": tuple(masks),
        "dealt": hands,
        "to_act": leader,
        "required": required,
        "may_decline": required == _THREE_OF_SPADES and rules.may_decline_first_lead,
        "setup": setup,
        "_context": context,
    }
    state = from_fields(fields)
    for player in context.seating.order_from(leader):
        win = context.instant_win(masks[player], first_game=setup.first_game)
        if win is not None:
            order = state._order_from(player)
            paid = answers.instant_win_result(context.scorer, rules, order, win)
            return _with_result(state, paid)
    return _rot_if_stuck(state) if context.limits_going_out else state


def lowest_holder(rules: RuleSet, masks: list[int], dealer: int) -> tuple[int, int]:
    """The first-lead card (3♠, else the lowest dealt, D-4) and who leads with it.

    With two decks and two holders, the first in play direction from the dealer leads.

    Example:
        >>> from tienlen import CLASSIC, Hand
        >>> lowest_holder(CLASSIC, [Hand.parse("5s").mask, Hand.parse("4d").mask], 0)
        (6, 1)
    """
    union = 0
    for mask in masks:
        union |= mask
    card = ((union & _LOW_HALF) & -(union & _LOW_HALF)).bit_length() - 1
    seating = Seating.of(rules.direction.value, len(masks))
    for player in (*seating.seats_after(dealer), dealer):
        if masks[player] >> card & 1:
            return card, player
    msg = "nobody holds a card"
    raise InvalidStateError(msg)


def spare_starter(rules: RuleSet, masks: list[int], setup: GameSetup) -> int:
    """Kenneth Lo's three-player starter, decided on the 51 dealt cards (RULES §4.1, D-8).

    The first game: the holder of 3♠, or of the lowest dealt card; later: the leader.

    Raises:
        InvalidStateError: a later game without a leader, or a wrong leader.

    Example:
        >>> from tienlen import KENNETH_LO, Hand
        >>> setup = GameSetup.checked(3, True, None, False, 0)
        >>> masks = [Hand.parse(text).mask for text in ("5s", "4d", "3s")]
        >>> spare_starter(KENNETH_LO, masks, setup)
        2
    """
    if not setup.first_game:
        if setup.leader is None:
            msg = "a later game needs its leader (the previous winner, RULES §4.1)"
            raise InvalidStateError(msg)
        return setup.leader
    card, holder = lowest_holder(rules, masks, setup.dealer)
    if setup.leader is not None and setup.leader != holder:
        msg = f"player {holder} holds {DECK[card]} and starts (RULES §4.1), not player {setup.leader}"
        raise InvalidStateError(msg)
    return holder


# -- drafts: the field copy -------------------------------------------------------------


def _blank_class() -> type[GameState]:
    """What a draft is made of: a `GameState` the engine may write.

    Compiled, a `GameState`'s `Final` fields are read-only from Python only: the
    compiled engine writes them directly, so a draft is a blank `GameState`. Pure, a
    state refuses every write, so a draft is a `Draft`: a subclass that adds no slot
    and writes at C speed (``object.__setattr__``), made a `GameState` again by a
    class swap in `seal`. Copying a state into a draft, changing what an action
    changes and sealing it is about three times cheaper than writing a frozen
    class's fields one ``object.__setattr__`` call at a time (measured in issue 21).
    """
    if COMPILED:
        return GameState
    writable = {"__setattr__": object.__setattr__, "__delattr__": object.__delattr__}
    return type("Draft", (GameState,), {"__slots__": (), **writable})


Draft: Final = _blank_class()
"""The class of a state being built (`GameState` itself in the compiled build)."""
_DRAFTS_SWAP: Final = Draft is not GameState
"""Whether `seal` swaps a draft's class (the pure build)."""


def draft(state: GameState) -> GameState:
    """A draft holding every field of *state* but its token and caches.

    Every field the annotations of `GameState` list is written here by name, in
    their order: copied, but the token (`seal` gives a fresh one) and the listing
    cache (emptied). The field list written out, because the move loop runs it on
    every action; a test checks it against the annotations.
    """
    new = GameState() if COMPILED else Draft()  # compiled: the native constructor
    new.rules = state.rules
    new._masks = state._masks
    new.dealt = state.dealt
    new.to_act = state.to_act
    new._top = state._top
    new._top_mask = state._top_mask
    new._top_combo = state._top_combo
    new.last_player = state.last_player
    new._beaten = state._beaten
    new._turn = state._turn
    new.locked = state.locked
    new.out = state.out
    new.finish_order = state.finish_order
    new.frozen = state.frozen
    new._bottom = state._bottom
    new.required = state.required
    new.may_decline = state.may_decline
    new.chop = state.chop
    new.items = state.items
    new.result = state.result
    new.is_over = state.is_over
    new._log = state._log
    new.setup = state.setup
    new._context = state._context
    new._listed = None
    return new


def seal(new: GameState) -> GameState:
    """*new*, a draft, made a `GameState` with a fresh trust token (`TOKENS.next`, inlined).

    Its `turn_key` must be right already (`build` derives it).
    """
    for count in _TOKEN_COUNT:  # `next(_TOKEN_COUNT)`: one C call when compiled
        new._serial = _TOKEN_PREFIX[0] | count
        break
    if _DRAFTS_SWAP:
        setattr(new, "__class__", GameState)  # noqa: B010  # the draft is done
    return new


def build(new: GameState) -> GameState:
    """*new*, whose fields were set one by one, sealed with its `turn_key` derived."""
    new._turn = turn_key(new.to_act, new.last_player, new.locked, new.out, new._beaten)
    return seal(new)


def from_fields(fields: Mapping[str, object]) -> GameState:
    """A `GameState` holding *fields* (every field of a state by name), without checks.

    The engine's door for building a state from its parts (`tienlen.notation` reads a
    position into fields, `tienlen.engine.positions` checks it). A field with a
    default may be missing. The `turn_key` is derived and a fresh trust token given;
    neither the trust token nor the listing cache (``_listed``) is taken from *fields*.

    Raises:
        InvalidStateError: *fields* names a field a state does not have.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
        >>> from_fields(fields_of(state)) == state
        True
    """
    if not fields.keys() <= _FIELD_NAMES:
        msg = f"a GameState has no field {min(fields.keys() - _FIELD_NAMES)!r}"
        raise InvalidStateError(msg)
    new = GameState() if COMPILED else Draft()
    new._fill(fields)
    new._listed = None  # nor the token: `build` gives a fresh one
    return build(new)


def fields_of(state: GameState) -> dict[str, object]:
    """Every field of *state* by name (what `from_fields` takes back).

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> fields = fields_of(GameState.from_hands(["3s 7h", "4d"], CLASSIC))
        >>> fields["to_act"], fields["required"]
        (0, 1)
    """
    return {name: getattr(state, name) for name in FIELDS}


def with_fields(state: GameState, changes: Mapping[str, object]) -> GameState:
    """A copy of *state* with the fields *changes* names changed (no checks).

    Raises:
        InvalidStateError: *changes* names a field a state does not have.

    Example:
        >>> from tienlen import CLASSIC, GameState
        >>> state = GameState.from_hands(["3s 7h", "4d"], CLASSIC)
        >>> with_fields(state, {}) == state, with_fields(state, {"to_act": 1}).to_act
        (True, 1)
    """
    return from_fields({**fields_of(state), **changes})
