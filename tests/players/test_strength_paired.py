"""``benchmarks/strength_paired.py``: the paired difference is read right off the arena.

A rule-based player against random ones is far stronger in every deal set, so its
advantage comes out positive, its samples are the deal sets, and both bots are counted
over the same number of hands (each holds every hand of a deal set once). Runs of one
comparison on different seeds pool (their decision times too, weighted by hands); runs
of other bots, rules or code do not.
"""

from __future__ import annotations

import statistics

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.arena import match
from hearts.arena.match import playing_code
from hearts.core import Rules

PAIRED = load_benchmark("strength_paired")


def test_normal_is_ahead_of_random_in_every_deal_set() -> None:
    paired = PAIRED.paired_difference(Rules.parse("standard:rounds=3"), "normal", "random",
                                      "random", 3, "paired-test", 1)
    assert len(paired.samples) == 3 and min(paired.samples) > 0
    assert paired.difference.mean == statistics.fmean(paired.samples)
    assert paired.hands == 3 * 4 * 3  # deal sets x rotations x rounds
    assert paired.games == 12 and set(paired.times) == {"normal", "random"}


def test_without_an_opponent_each_bot_takes_two_seats() -> None:
    """No ``--opponent``: the two bots sit alternately, two seats each (two rotations
    then hold every hand), and a hand counts once. A lineup of two was refused before."""
    paired = PAIRED.paired_difference(Rules.parse("standard:rounds=2"), "normal", "random",
                                      None, 2, "paired-test", 1)
    assert len(paired.samples) == 2 and min(paired.samples) > 0
    assert paired.hands == 2 * 2 * 2 and paired.games == 4  # deal sets x rotations x rounds


def test_runs_of_one_comparison_pool_and_others_are_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.parse("standard:rounds=2")
    runs = [PAIRED.run_json(rules, "normal", "random", "random", seed,
                            PAIRED.paired_difference(rules, "normal", "random", "random",
                                                     deal_sets, seed, 1))
            for seed, deal_sets in (("one", 2), ("two", 3))]
    pooled = PAIRED.pool(runs)
    assert pooled["samples"] == runs[0]["samples"] + runs[1]["samples"]
    assert pooled["seeds"] == ["one", "two"] and pooled["hands"] == 5 * 4 * 2
    assert pooled["code"] == runs[0]["code"] == playing_code()
    for bot in ("normal", "random"):
        (p50s, p95s, means) = zip(*(run["times"][bot] for run in runs), strict=True)
        assert pooled["times"][bot] == pytest.approx(
            (max(p50s), max(p95s), (16 * means[0] + 24 * means[1]) / 40))
    with pytest.raises(ValueError, match="seed 'one' appears twice"):
        PAIRED.pool([runs[0], runs[0]])
    for key, value in (("code", "0123456789abcdef"), ("b", "easy"), ("rules", "standard")):
        with pytest.raises(ValueError, match=f"only runs of one {key} pool"):
            PAIRED.pool([runs[0], {**runs[1], key: value}])
    # code shown to play as the first run's (hearts.arena.match.PLAYS_AS) pools with it
    monkeypatch.setattr(match, "PLAYS_AS", {"0123456789abcdef": runs[0]["code"]})
    assert PAIRED.pool([runs[0], {**runs[1], "code": "0123456789abcdef"}])["seeds"] == [
        "one", "two"]
    with pytest.raises(ValueError, match="not a paired run"):
        PAIRED.pool([{"format": "card-commons-hearts/arena"}])
    with pytest.raises(ValueError, match="at least one"):
        PAIRED.pool([])
