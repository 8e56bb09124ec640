"""``benchmarks/strength_curve.py``: every point plays the same deals, so the curve's rise
is the per-deal-set difference of two points' margins; reports of several runs pool point
by point (each point's runs in seed order) and still pair when their seeds are the same."""

from __future__ import annotations

from tests.players.benchmark_scripts import load_benchmark

from hearts.arena import t_interval
from hearts.core import Rules

CURVE = load_benchmark("strength_curve")
RULES = Rules.parse("standard:rounds=2")


def _margins(data: dict[str, object]) -> list[float]:
    return list(CURVE._level_bot(data)["by_deal_set"]["margin"])


def test_the_rise_pairs_the_points_deal_set_by_deal_set_also_once_pooled() -> None:
    runs = {(spec, seed): CURVE.curve_point(RULES, spec, "random", 2, seed, 1)
            for spec in ("easy", "normal") for seed in ("s2", "s1")}
    low, high = runs["easy", "s1"], runs["normal", "s1"]
    differences = [h - lo for lo, h in zip(_margins(low), _margins(high), strict=True)]
    assert CURVE.rise(low, high) == t_interval(differences).to_json()
    assert CURVE.rise(low, runs["normal", "s2"]) is None  # other deals: no pairs

    points = CURVE.pooled_points(list(runs.values()))
    assert [CURVE._level_bot(p)["bot"] for p in points] == ["easy", "normal"]
    assert all(p["figures"]["seed"] == "s1 s2" for p in points)
    assert _margins(points[1]) == _margins(runs["normal", "s1"]) + _margins(runs["normal", "s2"])
    pooled = [h - lo for lo, h in zip(_margins(points[0]), _margins(points[1]), strict=True)]
    assert CURVE.rise(*points) == t_interval(pooled).to_json()
    assert CURVE.rise(*CURVE.paired_ends(list(runs.values()))) == CURVE.rise(*points)


def test_pooled_ends_pair_over_the_seeds_both_played() -> None:
    """A run of one end alone (another seed) counts in that point, not in the rise."""
    runs = [CURVE.curve_point(RULES, spec, "random", 1, seed, 1)
            for spec, seed in (("easy", "s1"), ("normal", "s1"), ("easy", "s3"))]
    points = CURVE.pooled_points(runs)
    assert CURVE.rise(*points) is None
    low, high = CURVE.paired_ends(runs)
    assert low["figures"]["seed"] == high["figures"]["seed"] == "s1"
    assert CURVE.rise(low, high) == CURVE.rise(runs[0], runs[1])
    assert CURVE.paired_ends(runs[:1] + runs[2:]) is None  # one point: nothing to pair


def test_a_point_is_written_as_given() -> None:
    """Specs and file names keep every digit, and a whole budget has no decimal point, so
    ``--budgets 1`` pools with the runs kept as ``budget=1``."""
    assert CURVE.point_text(1234567) == "1234567"
    assert CURVE.point_text(1.0) == "1"
    assert CURVE.point_text(0.05) == "0.05"
    assert CURVE.point_text(0.1234567) == "0.1234567"
