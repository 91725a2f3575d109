# Types of the native move generator (_native.c; see tienlen.engine.native).

class MoveGen:
    def __init__(
        self,
        counts: bytes,
        pieces: bytes,
        families: tuple[tuple[int, int, int, int, int, int], ...],
        leads: tuple[tuple[int, int, int, int, int, int], ...],
        all_sets: bool,
        single_cards: int,
        bombers: tuple[tuple[int, tuple[int, ...]], ...],
        limit: int,
        error: type[Exception],
    ) -> None: ...
    def plays(self, hand: int, top: int, /) -> list[int]: ...
    def bombs(self, hand: int, top: int, /) -> list[int]: ...
    def lead_sets(self, hand: int, card: int, /) -> list[int]: ...
    def lead_runs(self, hand: int, card: int, offset: int, /) -> list[int]: ...
    def keyed_runs(
        self, hand: int, card: int, offset: int, /
    ) -> tuple[list[int], list[int]]: ...
