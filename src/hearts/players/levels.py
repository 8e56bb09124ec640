"""The ladder of computer players by level name, and ``policy:PATH`` for a trained policy."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Final

from hearts.players.base import Player
from hearts.players.errors import PlayerError
from hearts.players.random_player import RandomPlayer
from hearts.players.rulebased import EasyPlayer, RuleBasedPlayer
from hearts.players.search import search_level

__all__ = ["LEVELS", "POLICY", "UnknownLevelError", "make_player"]

POLICY: Final = "policy"
"""``policy:PATH`` names a :class:`PolicyPlayer` trained and saved to PATH (not a level of
the ladder: it needs its file)."""


class UnknownLevelError(PlayerError):
    """A player level name that is not in :data:`LEVELS`."""


LEVELS: Final[dict[str, Callable[[random.Random], Player]]] = {
    "random": lambda rng: RandomPlayer(rng),
    # the rule-based levels decide deterministically from the view: no RNG needed
    "easy": lambda rng: EasyPlayer(),
    "normal": lambda rng: RuleBasedPlayer(),
    "hard": search_level("hard"),
    "expert": search_level("expert"),
    # an opponent that goes for the moon whenever it plausibly can (to test moon defence)
    "shooter": lambda rng: RuleBasedPlayer("shooter", aggressive=True),
}


def make_player(level: str, seed: int | str | None = None,
                iterations: int | None = None) -> Player:
    """A fresh player of a level, its randomness seeded from ``seed``; ``policy:PATH``
    loads a trained policy (:class:`hearts.players.policy.PolicyFileError` if it is bad).

    ``iterations`` fixes the worlds a searching level samples a decision instead of its
    time budget, so the same seed and view give the same decision on any machine; the
    levels that do not search decide without one and ignore it."""
    kind, colon, path = level.partition(":")
    if kind == POLICY and colon:
        # imported here: a policy needs NumPy, which the text game never loads
        from hearts.players.policy import PolicyPlayer

        return PolicyPlayer.load(path)
    factory = LEVELS.get(level)
    if factory is None:
        raise UnknownLevelError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}"
                                f" (or {POLICY}:PATH for a trained policy file)")
    rng = random.Random(seed)
    if iterations is not None and "iterations" in inspect.signature(factory).parameters:
        return factory(rng, iterations=iterations)  # type: ignore[call-arg]
    return factory(rng)
