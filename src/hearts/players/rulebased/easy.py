"""The ``easy`` level: plain rules of thumb with no card counting and no moon play."""

from __future__ import annotations

from hearts.core import SUIT_MASKS, Card, CardSet, MoonChoice, PlayerView, lowest_card

__all__ = ["EasyPlayer"]


class EasyPlayer:
    """Passes its highest cards, plays its lowest card, discards its highest one.

    It follows with the lowest card even when a high one would be safe, never
    counts cards, does not single out the Q♠ and ignores moon shots and the score,
    so it is beaten by ``normal`` but far steadier than ``random``.
    """

    def __init__(self, name: str = "easy") -> None:
        self.name = name

    def choose_pass(self, view: PlayerView) -> CardSet:
        by_rank = sorted(view.hand, key=lambda c: (c.rank, c.suit), reverse=True)
        return CardSet(by_rank[: view.rules.pass_count])

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal.mask
        if view.trick and not legal & SUIT_MASKS[view.trick[0][1].suit]:
            return max(view.legal, key=lambda c: (c.rank, c.suit))
        if view.trick:
            return lowest_card(legal)
        return min(view.legal, key=lambda c: (c.rank, c.suit))

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return MoonChoice.SUBTRACT
