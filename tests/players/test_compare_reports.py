"""``benchmarks/compare_reports.py``: two sides' arena reports of the same seeds pool side
by side and their first seat's bots pair deal set by deal set; sides that did not play
the same deals are refused, saying what differs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.arena import MatchConfig, report, run_match, t_interval
from hearts.core import Rules

COMPARE = load_benchmark("compare_reports")
RULES = Rules.parse("standard:rounds=2")


def match(pair: tuple[str, str], seed: str, deal_sets: int = 2) -> dict[str, Any]:
    """A match of the two bots, two seats each."""
    return report(run_match(MatchConfig(RULES, pair * 2, deal_sets, seed), workers=1))


def by_deal_set(data: dict[str, Any], figure: str) -> list[float]:
    return list(COMPARE._first_bot(data)["by_deal_set"][figure])


def test_the_first_seats_pair_over_the_deal_sets_of_every_seed() -> None:
    a = [match(("easy", "random"), seed) for seed in ("s2", "s1")]
    b = [match(("normal", "random"), seed) for seed in ("s1", "s2")]
    result = COMPARE.compare(a, b)
    assert result["bots"]["a"]["bot"] == "easy" and result["bots"]["b"]["bot"] == "normal"
    assert result["a"]["figures"]["seed"] == result["b"]["figures"]["seed"] == "s1 s2"
    for figure in COMPARE.FIGURES:  # each side in seed order, so deal set meets deal set
        lows = by_deal_set(a[1], figure) + by_deal_set(a[0], figure)
        highs = by_deal_set(b[0], figure) + by_deal_set(b[1], figure)
        expected = t_interval([y - x for x, y in zip(lows, highs, strict=True)]).to_json()
        assert result["difference"][figure] == expected
    # the same bot again on the same deals plays the same games: no difference at all
    again = COMPARE.compare(a, [match(("easy", "random"), seed) for seed in ("s1", "s2")])
    assert all(again["difference"][figure]["mean"] == 0 for figure in COMPARE.FIGURES)


def test_sides_that_played_other_deals_are_refused() -> None:
    a = [match(("easy", "random"), "s1")]
    with pytest.raises(ValueError, match="other seeds"):
        COMPARE.compare(a, [match(("normal", "random"), "s3")])
    with pytest.raises(ValueError, match="other deal sets"):
        COMPARE.compare(a, [match(("normal", "random"), "s1", deal_sets=1)])
    # as many deal sets in all, but not of the same seeds: deal set 2 of s1 is not s2's
    uneven = [match(("easy", "random"), "s1", 2), match(("easy", "random"), "s2", 1)]
    with pytest.raises(ValueError, match="other deal sets of a seed"):
        COMPARE.compare(uneven, [match(("normal", "random"), "s1", 1),
                                 match(("normal", "random"), "s2", 2)])
    with pytest.raises(ValueError, match="side B: seed 's1' appears twice"):
        COMPARE.compare(a, [match(("normal", "random"), "s1")] * 2)


def test_the_script_prints_the_differences_or_says_what_is_wrong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {}
    for name, pair, seed in (("a", ("easy", "random"), "s1"), ("b", ("normal", "random"), "s1"),
                             ("c", ("normal", "random"), "s9")):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(match(pair, seed)), encoding="utf-8")
    assert COMPARE.main(["--a", str(files["a"]), "--b", str(files["b"])]) == 0
    out = capsys.readouterr().out
    assert "B - A, margin: " in out and "B - A, win rate per seat: " in out
    assert COMPARE.main(["--a", str(files["a"]), "--b", str(files["c"])]) == 2
    assert "other seeds (s1 and s9)" in capsys.readouterr().err
    assert COMPARE.main(["--unpaired", "--a", str(files["a"]), "--b", str(files["c"])]) == 0
    out = capsys.readouterr().out
    assert "B 2 deal sets of seed s9" in out and "(95% Welch's t, unpaired)" in out


def test_unpaired_sides_may_have_played_other_seeds_and_differ_by_welch() -> None:
    """``--unpaired``: the difference of the sides' means over their deal sets, with
    Welch's interval (worked out here from its formula); other rules are still refused."""
    from scipy import stats

    a = [match(("easy", "random"), "s1", 3)]
    b = [match(("normal", "random"), seed) for seed in ("s4", "s5")]
    result = COMPARE.compare(a, b, paired=False)
    assert result["b"]["figures"]["seed"] == "s4 s5" and not result["paired"]
    for figure in COMPARE.FIGURES:
        xs = by_deal_set(a[0], figure)
        ys = by_deal_set(b[0], figure) + by_deal_set(b[1], figure)
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        var_x = sum((x - mean_x) ** 2 for x in xs) / (len(xs) - 1) / len(xs)
        var_y = sum((y - mean_y) ** 2 for y in ys) / (len(ys) - 1) / len(ys)
        half = 0.0  # every deal set alike on both sides: no spread, no doubt
        if var_x + var_y > 0:
            degrees = (var_x + var_y) ** 2 / (var_x ** 2 / (len(xs) - 1)
                                              + var_y ** 2 / (len(ys) - 1))
            half = float(stats.t.ppf(0.975, degrees)) * (var_x + var_y) ** 0.5
        got = result["difference"][figure]
        assert got["mean"] == pytest.approx(mean_y - mean_x, abs=1e-4)
        assert got["half_width"] == pytest.approx(half, abs=1e-4)
        assert got["samples"] == 7
    with pytest.raises(ValueError, match="other rules"):
        COMPARE.compare(a, [report(run_match(MatchConfig(
            Rules.parse("standard:rounds=1"), ("normal", "random") * 2, 2, "s4"),
            workers=1))], paired=False)
