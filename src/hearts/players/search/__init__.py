"""The search player (levels ``hard`` and ``expert``): sampled worlds, Numba playouts.

Importing this package does not load Numba; :func:`search_level` factories do, when
the first search player is made, so faces that never use one start fast.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.players.base import Player
from hearts.players.standing import GAME_WEIGHT

__all__ = ["search_level"]


def search_level(level: str) -> Callable[[random.Random], Player]:
    """A factory of search players of ``level`` (``hard`` or ``expert``) for the ladder;
    its options ``budget`` (seconds a decision) and ``iterations`` (worlds a decision,
    reproducible) override the level's budget, e.g. ``expert:budget=0.5`` in a bot spec;
    ``playout`` picks the simulated seats' policy (``moon``, ``lead``, ``learned`` or
    ``heuristic``; default: the level's),
    ``workers`` the threads a decision searches on (default 1) and ``trust`` how far the
    worlds are weighed by the others' plays (1: not at all; default: the level's);
    ``lookahead`` whose next decision each playout searches (``none``, ``mine`` or
    ``others``; default: the level's); ``tree`` UCT iterations a candidate card in each
    world (0, the default: one playout), with ``explore`` (UCB1's constant, in points),
    ``horizon`` (tricks the tree covers; 0: the whole round), ``own`` (my later plays
    in the tree: ``search`` or ``policy``) and ``first`` (the untried card a node tries
    first: ``lowest`` or ``policy``); ``solve`` the hand size from which every playout
    solves the rest of its round exactly (0, the default: never) and ``root`` the hand
    size from which a decision solves each world from the start (0: never); ``passing``
    how it passes (``search``, the default, or ``rule``: the rule-based pass); ``alarm``
    (1 or 0; default: the level's) whether its playouts let a lone taker of point cards
    run for the moon before its moon is near certain; ``game_weight`` the points a game
    win is worth against a hand's (0 to 1000; default 100; 0: each hand's points
    alone, as a one-hand game scores)."""

    def make(rng: random.Random, *, budget: float | None = None,
             iterations: int | None = None, playout: str | None = None,
             workers: int = 1, trust: float | None = None,
             lookahead: str | None = None, tree: int = 0, explore: float | None = None,
             horizon: int = 0, own: str = "search", first: str = "lowest",
             solve: int = 0, root: int = 0, passing: str = "search",
             alarm: bool | None = None, game_weight: int = GAME_WEIGHT) -> Player:
        from hearts.players.search.player import TREE_EXPLORE, SearchPlayer

        return SearchPlayer(rng, level=level, budget_s=budget, iterations=iterations,
                            playout=playout, workers=workers, trust=trust,
                            lookahead=lookahead, tree=tree, horizon=horizon, own=own,
                            first=first, solve=solve, root=root, passing=passing, alarm=alarm,
                            game_weight=game_weight,
                            explore=TREE_EXPLORE if explore is None else explore)

    return make
