"""The ``random`` level: uniformly random legal decisions from a seeded RNG."""

from __future__ import annotations

import random

from hearts.core import Card, CardSet, MoonChoice, PlayerView

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Picks uniformly among legal choices; the RNG (or its seed) is passed in."""

    def __init__(self, rng: random.Random | int | None = None, name: str = "random") -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.name = name

    def choose_pass(self, view: PlayerView) -> CardSet:
        return CardSet(self.rng.sample(list(view.hand), view.rules.pass_count))

    def choose_play(self, view: PlayerView) -> Card:
        return self.rng.choice(list(view.legal))

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.rng.choice(list(MoonChoice))
