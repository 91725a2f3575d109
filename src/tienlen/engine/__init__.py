"""The engine: the only code that knows how a game is represented underneath.

Cards, hands and plays are ints here (a card is ``rank << 2 | suit``, a hand or a play
its card mask, a pass 0); the public objects (`Card`, `Hand`, `Play`, `Combo`,
`GameState`) are built from them on demand. The modules:

- `bits`: the card-mask layout and the int helpers every other module uses;
- `kinds` and `shapes`: the kinds table and a combination's shape as an int key;
- `movegen`: the move generator, over masks;
- `classification` and `keys`: classify, beats and legal plays on masks; keys by mask;
- `combination`, `interned` and `listing`: a `Combo`, the interned ones by mask, and the
  lazy `Plays`;
- `rulebook`: a rule set compiled for one table size, kept on the rule set;
- `turns`: the turn key's bit layout and the turn table;
- `answers`: a rule set's policies asked, their answers checked;
- `state`, `successor`, `plays` and `actions`: `GameState`, its one transition, a
  play and a state's actions;
- `referee` and `view`: the referee of bots, and what one seat may see;
- `positions`: the checks that a position read from text could have been reached.

Other modules use the engine through these modules' names without a leading
underscore (`tests/test_architecture.py` checks it); the public API is `tienlen`'s.
See the documentation page "The engine: ints underneath".
"""
