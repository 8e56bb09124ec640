"""``benchmarks/strength_paired.py``: the paired difference is read right off the arena.

A rule-based player against random ones is far stronger in every deal set, so its
advantage comes out positive, its samples are the deal sets, and both bots are counted
over the same number of hands (each holds every hand of a deal set once).
"""

from __future__ import annotations

import statistics

from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Rules

PAIRED = load_benchmark("strength_paired")


def test_normal_is_ahead_of_random_in_every_deal_set() -> None:
    paired = PAIRED.paired_difference(Rules.parse("standard:rounds=3"), "normal", "random",
                                      "random", 3, "paired-test", 1)
    assert len(paired.samples) == 3 and min(paired.samples) > 0
    assert paired.difference.mean == statistics.fmean(paired.samples)
    assert paired.hands == 3 * 4 * 3  # deal sets x rotations x rounds
    assert paired.games == 12 and set(paired.times) == {"normal", "random"}
