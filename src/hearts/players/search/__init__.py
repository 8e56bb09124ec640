"""The search player (levels ``hard`` and ``expert``): sampled worlds, Numba playouts.

Importing this package does not load Numba; :func:`search_level` factories do, when
the first search player is made, so faces that never use one start fast.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.players.base import Player

__all__ = ["search_level"]


def search_level(level: str) -> Callable[[random.Random], Player]:
    """A factory of search players of ``level`` (``hard`` or ``expert``) for the ladder."""

    def make(rng: random.Random) -> Player:
        from hearts.players.search.player import SearchPlayer

        return SearchPlayer(rng, level=level)

    return make
