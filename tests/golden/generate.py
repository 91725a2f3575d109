"""Write the golden game corpus: seeded games of every preset and table size (RULES §1–§6).

Run from the repository root as ``python -m tests.golden.generate`` to (re)write the
files, or ``python -m tests.golden.generate house`` to write only the house-rule files
(`HOUSE_TABLES`, in ``tests/golden/house/``); the corpus is committed and must never
change unless a rule change is intended (and then listed under **Rules** in
CHANGELOG.md). The preset files hold records of format 1, which a full rewrite would
turn into format 2: write them again only for an intended change. Each line of
``tests/golden/<preset>-<players>p.jsonl`` is one game: its record (`tienlen.records`
format), the number of legal actions at every step (the last entry: the final state,
0), a digest of every step's sorted legal actions and the result's score items, so that `test_golden.py` pins the
whole game, not only the actions taken. python-chess keeps its perft files the same way.

Games are seeded; even games choose uniformly among the legal actions (Poker jump-ins
included), odd games eagerly (bombs first, then plays, see `choose`). Every fourth game is a later game of a match led by a given seat, every
eighth follows an instant win (Poker leads with 3♠ again then, D-16).

House-rule tables (RULES §12) are pinned the same way: their legal lists are where a
rule that refuses some plays (no going out on a 2, bombs that may not lead, suited
runs) can drift from `GameState.is_legal`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any, Final

import attrs

from tienlen import (
    CLASSIC,
    CLASSIC_TWO_DECKS,
    JUSTUS_PANG,
    POKER,
    Action,
    BaseRules,
    Bomb,
    Card,
    ComboKind,
    GameState,
    Hand,
    Play,
    Rank,
    Shape,
)
from tienlen.cards import DECK
from tienlen.policies import LeaderAfterGoingOut
from tienlen.records import record, to_json
from tienlen.rules import RuleSet
from tienlen.rules.registry import presets

HERE: Final = Path(__file__).parent
GAMES_PER_FILE: Final = 200
POKER_GAMES_PER_FILE: Final = 400
"""Poker's scoring (chops, frozen players, end penalties) needs more games to show up."""


def preset_tables() -> tuple[tuple[RuleSet, int], ...]:
    """Every registered preset (`tienlen.rules.registry`) at each table size it seats.

    The listed presets come first, in `tienlen.RULESETS`' order, then the unlisted
    ones (`CLASSIC_TWO_DECKS`): a new preset gets its golden files with no edit here.
    """
    ordered = (*presets(), *(p for p in presets(listed_only=False) if not p.listed))
    return tuple(
        (preset.rules, n)
        for preset in ordered
        for n in range(preset.rules.min_players, preset.rules.max_players + 1)
    )


TABLES: Final[tuple[tuple[RuleSet, int], ...]] = preset_tables()
"""Every preset at 2, 3 and 4 players (Kenneth Lo's three on 17 cards and the spare),
and `CLASSIC_TWO_DECKS` at 5–8 players (`preset_tables` when this module was imported)."""
_TRIPLES: Final = Shape.of(ComboKind.CONSECUTIVE_TRIPLES, 3)


def house_table(preset: BaseRules, name: str, **changes: Any) -> BaseRules:
    """*preset* with *changes*, under its own *name* and none of the preset's aliases."""
    return attrs.evolve(preset, name=name, aliases=(), **changes)


HOUSE_RULES: Final = (
    house_table(CLASSIC, "no-two-out", no_going_out_with_two=True),
    house_table(CLASSIC, "no-bomb-out", no_going_out_with_bomb=True),
    house_table(CLASSIC, "no-lock-out", pass_locks_out=False, pair_runs_beat_twos=1),
    house_table(
        CLASSIC,
        "bombs-never-lead",
        bombs_may_lead=False,
        four_of_a_kind_may_lead=False,
    ),
    house_table(CLASSIC, "suited-runs", suited_straights=True),
    house_table(
        CLASSIC,
        "triple-runs",
        kinds=CLASSIC.kinds | {ComboKind.CONSECUTIVE_TRIPLES},
        bombs=CLASSIC.bombs
        | {Bomb(bomb=_TRIPLES, target=Shape.of(ComboKind.PAIR), target_rank=Rank.TWO)},
        no_going_out_with_bomb=True,
    ),
    house_table(
        POKER,
        "poker-no-chain",
        chop_chain=False,
        frozen_multiplier=2,
        two_values=(1, 1, 2, 2),
        max_consecutive_pairs=5,
        longer_pair_runs_beat_shorter=True,
    ),
    house_table(
        POKER,
        "poker-no-two-out",
        no_going_out_with_two=True,
        no_going_out_with_bomb=True,
        pass_locks_out=False,
        leader_after_going_out=LeaderAfterGoingOut.BEATEN_PLAYER,
    ),
    house_table(
        JUSTUS_PANG,
        "justus-pang-no-two-out",
        no_going_out_with_two=True,
        leader_after_going_out=LeaderAfterGoingOut.AFTER_LAST_TO_ACT,
    ),
    house_table(CLASSIC, "bombs-reopen", bomb_reopens_trick=True),
    house_table(POKER, "poker-bombs-reopen", bomb_reopens_trick=True, chop_chain=False),
    house_table(CLASSIC_TWO_DECKS, "two-decks-no-two-out", no_going_out_with_two=True),
)
"""House-rule tables of RULES §12, each setting on at least once: no going out with a
2 or a bomb (§12.12, also with Poker's jump-ins and with Justus Pang's continuation),
passing without lock-out (§12.8) with n + 1 pairs on n 2s (§12.3), bombs that may not
lead (§12.1), suited runs (§12.2), runs of triples as a bomb (§12.4), Poker's other chop
money and longer pair runs (§12.6, §12.7), each reading of who leads after a player
goes out (§12.10), and a bomb re-opening the trick (§12.13, also with Poker's jump-ins).
New tables go before the two-deck one, which stays last."""
HOUSE_TABLES: Final[tuple[tuple[BaseRules, int], ...]] = (
    *((rules, n) for rules in HOUSE_RULES[:-1] for n in (3, 4)),
    (HOUSE_RULES[-1], 6),
)
"""Every house-rule table at 3 and 4 players, the two-deck one at 6."""
HOUSE_GAMES_PER_FILE: Final = 60
ENDGAMES_PER_FILE: Final = 100
CORPUS_NAMES: Final = {CLASSIC_TWO_DECKS.name: CLASSIC.name}
"""The two-deck games were recorded when `CLASSIC` still seated five to eight: their
files and seeds keep the name ``classic``, so the generator deals the same games."""


def corpus_name(rules: RuleSet) -> str:
    """The name the corpus files and seeds of *rules* carry."""
    return CORPUS_NAMES.get(rules.name, rules.name)


def _is_house(rules: RuleSet) -> bool:
    return any(rules.name == house.name for house in HOUSE_RULES)


def games_for(rules: RuleSet) -> int:
    """How many games the corpus holds for each table size of *rules*."""
    if _is_house(rules):
        return HOUSE_GAMES_PER_FILE
    return POKER_GAMES_PER_FILE if rules.name == POKER.name else GAMES_PER_FILE


def path_for(rules: RuleSet, players: int) -> Path:
    """The corpus file of *rules* at a table of *players* (house rules in ``house/``)."""
    folder = HERE / "house" if _is_house(rules) else HERE
    return folder / f"{corpus_name(rules)}-{players}p.jsonl"


def endgame_path_for(rules: RuleSet, players: int) -> Path:
    """The endgame file of the house-rule table *rules* at *players* (`endgame`)."""
    return HERE / "house" / f"{rules.name}-{players}p-endgames.jsonl"


def step_digest(state: GameState) -> tuple[int, str]:
    """The number of legal actions of *state* and a digest of them, in any order."""
    actions = sorted(f"{action.player}:{action}" for action in state.legal_actions())
    return len(actions), "|".join(actions)


def deal(rules: RuleSet, players: int, game: int) -> GameState:
    """Game *game* of the corpus of *rules* at *players*: a first game, or a later one."""
    seed = f"tienlen-golden:{corpus_name(rules)}:{players}:{game}"
    rng = random.Random(seed)
    first_game = game % 4 != 3
    after_instant_win = game % 8 == 7
    leader = None
    if not rules.lead_must_include(
        first_game=first_game, after_instant_win=after_instant_win
    ):
        leader = rng.randrange(players)
    return GameState.deal(
        rules,
        players,
        rng,
        first_game=first_game,
        leader=leader,
        after_instant_win=after_instant_win,
    )


ENDGAME_RANKS: Final = (Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO)
"""The ranks an endgame hand may hold a set of (`endgame`)."""


def endgame(rules: RuleSet, players: int, game: int) -> GameState:
    """Endgame *game* of the house corpus: a later game started from short hands.

    A hand is a set of a high rank (a pair, triple or four of queens to 2s), a bomb
    (a four of a kind, three consecutive pairs or three consecutive triples of any
    ranks below the 2) or one to four cards off the deck: the positions where a
    table's limits on going out (RULES §12.12) decide what may be played.
    """
    rng = random.Random(f"tienlen-golden-endgame:{rules.name}:{players}:{game}")
    deck = [card for card in DECK for _ in range(rules.deal_size(players)[0])]
    rng.shuffle(deck)
    hands: list[Hand] = []
    for _ in range(players):
        draw = rng.random()
        if draw < 0.4:
            cards = _take(deck, [rng.choice(ENDGAME_RANKS)], rng.randint(2, 4))
        elif draw < 0.6:
            per_rank, length = rng.choice(((4, 1), (2, 3), (3, 3)))
            low = rng.randrange(Rank.TWO.value - length + 1)
            ranks = [Rank(value) for value in range(low, low + length)]
            cards = _take(deck, ranks, per_rank)
        else:
            cards = []
        cards = cards or deck[: rng.randint(1, 4)]
        for card in cards:
            deck.remove(card)
        hands.append(Hand.from_cards(cards))
    return GameState.from_hands(
        hands, rules, first_game=False, leader=rng.randrange(players)
    )


def _take(deck: list[Card], ranks: list[Rank], per_rank: int) -> list[Card]:
    """*per_rank* cards of each of *ranks* from *deck*, or none if one rank runs short."""
    taken: list[Card] = []
    for rank in ranks:
        left = [card for card in deck if card.rank is rank][:per_rank]
        if len(left) < per_rank:
            return []
        taken += left
    return taken


def choose(state: GameState, rng: random.Random, *, eager: bool) -> Action:
    """A random legal action; an *eager* player prefers bombs, then any play, to passing.

    Eager games reach the rarer rules (chops, jump-ins, frozen players, end penalties)
    far more often than uniform play.
    """
    actions = state.legal_actions()
    if eager:
        plays = [action for action in actions if isinstance(action, Play)]
        bombs = [play for play in plays if _is_bomb(state.rules, play)]
        draw = rng.random()
        if bombs and draw < 0.6:
            return bombs[rng.randrange(len(bombs))]
        if plays and draw < 0.9:
            return plays[rng.randrange(len(plays))]
    return actions[rng.randrange(len(actions))]


def _is_bomb(rules: RuleSet, play: Play) -> bool:
    combo = rules.classify(play.cards)
    return combo is not None and rules.is_bomb(combo.shape)


def play_out(
    state: GameState, rng: random.Random, *, eager: bool
) -> tuple[GameState, list[int], str]:
    """Play *state* to the end with random actions (see `choose`); the counts and digest."""
    counts: list[int] = []
    digest = hashlib.sha256()
    while True:
        count, listed = step_digest(state)
        counts.append(count)
        digest.update(listed.encode())
        digest.update(b"\n")
        if state.is_over:
            return state, counts, digest.hexdigest()
        state = state.apply(choose(state, rng, eager=eager))


def game_line(
    rules: RuleSet, players: int, game: int, *, endgames: bool = False
) -> str:
    """One line of the corpus: the record, the counts and the digest of game *game*.

    With *endgames*, the game starts from short hands (`endgame`).
    """
    if endgames:
        start = endgame(rules, players, game)
        seed = f"tienlen-golden-endgame-play:{rules.name}:{players}:{game}"
    else:
        start = deal(rules, players, game)
        seed = f"tienlen-golden-play:{corpus_name(rules)}:{players}:{game}"
    rng = random.Random(seed)
    final, counts, digest = play_out(start, rng, eager=game % 2 == 1)
    assert final.result is not None
    entry = {
        "record": to_json(record(final)),
        "counts": counts,
        "digest": digest,
        "items": [str(item) for item in final.result.items],
    }
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def main(argv: list[str]) -> None:
    """Write every corpus file, or with ``house`` only the house-rule files."""
    tables = HOUSE_TABLES if argv == ["house"] else (*TABLES, *HOUSE_TABLES)
    for rules, players in tables:
        lines = [game_line(rules, players, game) for game in range(games_for(rules))]
        path_for(rules, players).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path_for(rules, players).name}: {len(lines)} games")  # noqa: T201
    for rules, players in HOUSE_TABLES:
        lines = [
            game_line(rules, players, game, endgames=True)
            for game in range(ENDGAMES_PER_FILE)
        ]
        path = endgame_path_for(rules, players)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(lines)} games")  # noqa: T201


if __name__ == "__main__":
    main(sys.argv[1:])
