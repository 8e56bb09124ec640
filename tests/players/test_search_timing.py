"""``benchmarks/search_timing.py`` times a level at the budgets it is given."""

from __future__ import annotations

import pytest
from tests.players.benchmark_scripts import load_benchmark

search_timing = load_benchmark("search_timing")


def test_a_budget_overrides_the_levels_own() -> None:
    timed = search_timing.TimedSearch(0, "expert", 0.05)
    assert timed.budget.seconds == pytest.approx(0.05)
    assert search_timing.TimedSearch(0, "expert").budget.seconds == pytest.approx(0.7)


def test_each_budget_prints_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert search_timing.main(["--levels", "hard", "--budgets", "0.002,0.004",
                               "--games", "1", "--rules", "standard:rounds=1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["hard@0.002s", "hard@0.004s"]
    for line in lines[1:]:
        decisions, mean_s = line.split()[1:3]
        assert int(decisions) > 0 and float(mean_s) < 0.5
