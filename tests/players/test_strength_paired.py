"""``benchmarks/strength_paired.py``: the paired difference is read right off the arena.

A rule-based player against random ones is far stronger in every deal set, so its
advantage comes out positive, its samples are the deal sets, and both bots are counted
over the same number of hands (each holds every hand of a deal set once).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

from hearts.core import Rules

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_paired",
                                                  ROOT / "benchmarks" / "strength_paired.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def test_normal_is_ahead_of_random_in_every_deal_set() -> None:
    paired = _benchmark().paired_difference(Rules.parse("standard:rounds=3"), "normal",
                                            "random", "random", 3, "paired-test", 1)
    assert len(paired.samples) == 3 and min(paired.samples) > 0
    assert paired.difference.mean == statistics.fmean(paired.samples)
    assert paired.hands == 3 * 4 * 3  # deal sets x rotations x rounds
    assert paired.games == 12 and set(paired.times) == {"normal", "random"}
