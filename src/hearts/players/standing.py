"""A player's game standing: its chance of winning the game from the totals.

Hands are played for the game, not for their own points: a leader should close the game
out and a player far behind should take the risks that can still win. Both levels from
``normal`` up score an outcome by what it does to this chance (the search through the
compiled restatement in :func:`hearts.players.search.kernel.utility`, tied to this module
by ``tests/players/test_standing.py``).

The model is a cheap, documented approximation: while the game goes on, seat ``i`` wins
with probability ``exp(-t_i / s) / sum_j exp(-t_j / s)`` for totals ``t``, where the
scale ``s`` shrinks as the game nears its end,
``s = target * (WIN_SCALE_BASE + WIN_SCALE_SLOPE * left / target)``, ``left`` being the
points the highest total may still take before the game ends. In a game of a fixed
number of ``rounds`` the scale is also at most ``WIN_ROUND_SCALE * sqrt(r)`` for the
``r`` rounds it may still play (the totals' spread grows as the square root of the hands
to come), so a game about to end on its round count is judged near its end whatever the
totals. Once a total reaches the target, or the last round of a ``rounds`` game is over,
the game is over and the lowest totals share the win. The three constants were fitted
once, by maximum likelihood, to simulated games (``benchmarks/fit_win_model.py`` prints
them and the fit's log-loss against the even-chances baseline and the model without the
round term).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

__all__ = ["GAME_WEIGHT", "MAX_GAME_WEIGHT", "WIN_ROUND_SCALE", "WIN_SCALE_BASE",
           "WIN_SCALE_SLOPE", "game_value", "win_chances"]

WIN_SCALE_BASE: Final = 0.0648
WIN_SCALE_SLOPE: Final = 0.1560
WIN_ROUND_SCALE: Final = 5.3643
GAME_WEIGHT: Final = 100
"""Points a whole game win is worth against one hand's points, in the search's utility
by default: a hand's points count as they are, plus this much times the change in the
chance of winning the game. At 100 a game-ending hand is decided by the game, while
early in a game a point of my own weighs about 1.8 (the model's slope there is near
0.0085 a point); against three ``normal`` players it took no fewer points a hand than
40 did (benchmarks/strength_curve.py, 200 worlds, 30 deal sets: +2.62 ± 0.58 against
+2.59 ± 0.66). A search player's ``game_weight`` option changes it, 0 playing for each
hand's points alone (docs/research.md, *Playing for the game, and what it costs in
points*)."""
MAX_GAME_WEIGHT: Final = 1000
"""The largest ``game_weight`` a search player takes: ten times the default, by which a
game's chance outweighs every hand's points."""


def win_chances(totals: Sequence[int], target: int,
                rounds_left: int | None = None) -> list[float]:
    """Each seat's chance of winning the game from ``totals``, with at most
    ``rounds_left`` rounds still to play (None: the target alone ends the game). The game
    is over if a total reached ``target`` or no round is left: then the lowest totals
    share the win."""
    highest = max(totals)
    if rounds_left == 0 or highest >= target:
        best = min(totals)
        winners = sum(1 for total in totals if total == best)
        return [1.0 / winners if total == best else 0.0 for total in totals]
    scale = target * (WIN_SCALE_BASE + WIN_SCALE_SLOPE * (target - highest) / target)
    if rounds_left is not None:
        scale = min(scale, WIN_ROUND_SCALE * math.sqrt(rounds_left))
    lowest = min(totals)
    weights = [math.exp((lowest - total) / scale) for total in totals]
    whole = sum(weights)
    return [weight / whole for weight in weights]


def game_value(seat: int, points: Sequence[int], totals: Sequence[int], target: int,
               rounds_left: int | None = None, weight: int = GAME_WEIGHT) -> float:
    """What a hand's ``points`` are worth to ``seat`` (higher is better), in points: the
    others' mean minus its own, plus ``weight`` times the change in its chance of
    winning the game (``rounds_left``: the rounds the game may play after this hand,
    0 if it is the last whatever the totals; None: the target alone ends the game).
    The kernel's ``utility`` computes the same."""
    others = sum(p for s, p in enumerate(points) if s != seat) / (len(points) - 1)
    after = [total + gained for total, gained in zip(totals, points, strict=True)]
    before_left = None if rounds_left is None else rounds_left + 1
    change = (win_chances(after, target, rounds_left)[seat]
              - win_chances(totals, target, before_left)[seat])
    return others - points[seat] + weight * change
