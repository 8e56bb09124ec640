"""The ladder of computer players by level name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from hearts.core import HeartsError
from hearts.players.base import Player
from hearts.players.random_player import RandomPlayer
from hearts.players.rulebased import EasyPlayer, RuleBasedPlayer
from hearts.players.search import search_level

__all__ = ["LEVELS", "UnknownLevelError", "make_player"]


class UnknownLevelError(HeartsError, ValueError):
    """A player level name that is not in :data:`LEVELS`."""


LEVELS: Final[dict[str, Callable[[random.Random], Player]]] = {
    "random": lambda rng: RandomPlayer(rng),
    # the rule-based levels decide deterministically from the view: no RNG needed
    "easy": lambda rng: EasyPlayer(),
    "normal": lambda rng: RuleBasedPlayer(),
    "hard": search_level("hard"),
    "expert": search_level("expert"),
}


def make_player(level: str, seed: int | str | None = None) -> Player:
    """A fresh player of a level, its randomness seeded from ``seed``."""
    factory = LEVELS.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
    return factory(random.Random(seed))
