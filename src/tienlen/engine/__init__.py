"""The engine: the only code that knows how a game is represented underneath.

Cards, hands and plays are ints here (a card is ``rank << 2 | suit``, a hand or a play
its card mask, a pass 0); the public objects (`Card`, `Hand`, `Play`, `Combo`,
`GameState`) are built from them on demand. The classes are defined in the public
modules `tienlen.combos`, `tienlen.actions`, `tienlen.game` and `tienlen.batch`, which
are compiled with the engine and share its internals. The modules here:

- `bits`: the card-mask layout and the int helpers every other module uses;
- `kinds` and `shapes`: the kinds table and a combination's shape as an int key;
- `movegen`: the move generator, over masks;
- `classification` and `keys`: classify, beats and legal plays on masks; keys by mask;
- `interned`: the table of values by a combination's mask (`tienlen.combos.BY_MASK`);
- `rulebook`: a rule set compiled for one table size, kept on the rule set;
- `turns`: the turn key's bit layout and the turn table;
- `answers`: a rule set's policies asked, their answers checked;
- `successor`: `GameState`'s one transition (the state is `tienlen.game`'s);
- `referee` and `view`: the referee of bots, and what one seat may see;
- `positions`: the checks that a position read from text could have been reached.

Other modules use the engine through these modules' names without a leading
underscore (`tests/test_architecture.py` checks it); the public API is `tienlen`'s.
See the documentation page "The engine: ints underneath".
"""
