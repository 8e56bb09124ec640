"""``benchmarks/playout_speed.py`` measures the policies it is asked for, by name."""

from __future__ import annotations

import pytest
from tests.players.benchmark_scripts import load_benchmark


def test_each_named_policy_gets_a_column(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load_benchmark("playout_speed")
    assert speed.main(["--rules", "standard", "--policies", "lead,learned",
                       "--seconds", "0.01"]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split()[1:] == ["lead", "hands/s", "learned", "hands/s"]
    rates = row.split()[1:]
    assert row.startswith("standard") and len(rates) == 2
    assert all(float(rate.replace(",", "")) > 0 for rate in rates)
