"""The engine: the only code that knows how a game is represented underneath.

Cards, hands and plays are ints here (a card is ``rank << 2 | suit``, a hand or a play
its 52-bit card mask, a pass 0); the public objects (`Card`, `Hand`, `Play`, `Combo`,
`GameState`) are built from them on demand. The modules:

- `bits`: the card-mask layout and the int helpers every other module uses;
- `kinds` and `shapes`: the kinds table and a combination's shape as an int key;
- `movegen`: the move generator, over masks;
- `rulebook`: a rule set compiled for one table size, kept on the rule set;
- `positions`: the checks that a position read from text could have been reached.

Other modules use the engine through these public names only.
"""
