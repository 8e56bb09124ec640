"""``benchmarks/openspiel_ismcts.py --pool``: the kept runs against ISMCTS pooled, with the
target's verdict, the hands and each side's decision times, without playing."""

from __future__ import annotations

import re

import pytest
from tests.players.benchmark_scripts import BENCHMARKS, load_benchmark

from hearts.arena import pool, read_report, target_verdict

ISMCTS = load_benchmark("openspiel_ismcts")
KEPT = sorted((BENCHMARKS / "results").glob("ismcts10k-gw0-s36-*.json"))  # session 36's 19


def test_the_pooled_margin_is_judged_against_the_target(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert len(KEPT) == 19
    data = pool([read_report(path) for path in KEPT])
    margin = data["figures"]["bots"][0]["margin"]
    # a target under the interval, inside it below the estimate, and above the estimate
    targets = (margin["low"] - 0.01, (margin["low"] + margin["mean"]) / 2, margin["mean"] + 0.01)
    verdicts = []
    for target in targets:
        assert ISMCTS.main(["--target", str(target), "--pool", *map(str, KEPT)]) == 0
        line = capsys.readouterr().out.splitlines()[-1]
        said = re.search(r"(\d+) deal sets, (\d+) hands; margin ([\d.-]+) ± ([\d.]+) .*"
                         r"target >= ([\d.-]+): (.*); decision p95 expert:game_weight=0 "
                         r"(\d+) ms, ismcts:sims=10000,uct=5 (\d+) ms", line)
        assert said, line
        assert int(said[1]) == 38 and int(said[2]) == data["figures"]["hands"]
        assert float(said[3]) == pytest.approx(margin["mean"], abs=5e-4)
        assert float(said[4]) == pytest.approx(margin["half_width"], abs=5e-4)
        verdicts.append(said[6])
        assert said[6] == target_verdict(margin["mean"], margin["low"], margin["high"], target)
        assert int(said[7]) == round(data["timing"]["expert:game_weight=0"]["p95_ms"])
    assert verdicts == ["met (95%)", "met", "NOT met"]


def test_reports_that_do_not_pool_are_a_usage_message(
        capsys: pytest.CaptureFixture[str]) -> None:
    other = BENCHMARKS / "results" / "ismcts10k-expert-alarm-s27-17.json"
    with pytest.raises(SystemExit) as stopped:
        ISMCTS.main(["--pool", str(KEPT[0]), str(other)])
    assert stopped.value.code == 2
    assert "--pool: " in capsys.readouterr().err
