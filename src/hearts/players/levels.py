"""The ladder of computer players by level name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from hearts.players.base import Player
from hearts.players.random_player import RandomPlayer

__all__ = ["LEVELS", "make_player"]

LEVELS: Final[dict[str, Callable[[random.Random], Player]]] = {
    "random": lambda rng: RandomPlayer(rng),
}


def make_player(level: str, seed: int | str | None = None) -> Player:
    """A fresh player of a level, its randomness seeded from ``seed``."""
    factory = LEVELS.get(level)
    if factory is None:
        raise ValueError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
    return factory(random.Random(seed))
