"""The ``normal`` level: the full rule-based player; and ``shooter``, the same player
going for the moon whenever it plausibly can (to measure moon defence against)."""

from __future__ import annotations

from hearts.core import Card, CardSet, MoonChoice, PlayerView
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import moon, passing, playing

__all__ = ["RuleBasedPlayer"]


class RuleBasedPlayer:
    """Hearts know-how from the view alone: card counting, Q♠ care, moon play, game score.

    It keeps no memory between decisions: everything is derived afresh from the
    view, so the same view always gets the same answer. ``aggressive`` makes it keep
    and play a hand for the moon whenever the moon is plausible.
    """

    def __init__(self, name: str = "normal", *, aggressive: bool = False) -> None:
        self.name = name
        self.aggressive = aggressive

    def choose_pass(self, view: PlayerView) -> CardSet:
        return passing.choose_pass(Knowledge.of(view), self.aggressive)

    def choose_play(self, view: PlayerView) -> Card:
        return playing.choose_play(Knowledge.of(view), self.aggressive)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return moon.choose_moon(view)
