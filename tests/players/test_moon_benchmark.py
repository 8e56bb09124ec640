"""``benchmarks/moon.py``: a pairing's row comes from its arena report, so the reports of
runs on several seeds pool pairing by pairing into the same figures as one longer run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.arena import t_interval
from hearts.core import replay_game

MOON = load_benchmark("moon")
RULES = "standard:rounds=1"


def _run(defender: str, seed: str) -> dict[str, object]:
    return MOON.pairing_report(RULES, defender, "shooter", 2, seed, 50, 1)


def test_a_row_reads_the_attacker_as_the_bot_of_one_seat() -> None:
    data = _run("easy", "s1")
    row = MOON.moon_row(data)
    bots = {bot["bot"]: bot for bot in data["figures"]["bots"]}
    assert (row["defender"], row["attacker"]) == ("easy", "shooter")
    assert row["hands"] == data["figures"]["hands"] > 0
    assert row["moons_allowed"] == bots["shooter"]["moons_shot"]
    assert row["defender_moons"] == bots["easy"]["moons_shot"]
    assert row["low"] <= row["share"] <= row["high"]
    assert row["share"] == row["moons_allowed"] / row["hands"]


def test_runs_pool_by_pairing_over_every_deal_set() -> None:
    runs = [_run(defender, seed) for seed in ("s2", "s1") for defender in ("easy", "normal")]
    pooled = [MOON.moon_row(data) for data in MOON.pooled_pairings(runs)]
    assert [row["defender"] for row in pooled] == ["easy", "normal"]
    for row, defender in zip(pooled, ("easy", "normal"), strict=True):
        own = sorted((data for data in runs if data["figures"]["lineup"][0] == defender),
                     key=lambda data: data["figures"]["seed"])
        rows = [MOON.moon_row(data) for data in own]
        assert row["hands"] == sum(r["hands"] for r in rows)
        assert row["moons_allowed"] == sum(r["moons_allowed"] for r in rows)
        points = [x for data in own for bot in data["figures"]["bots"] if bot["bot"] == defender
                  for x in bot["by_deal_set"]["points_per_hand"]]
        assert row["defender_points"] == t_interval(points).to_json()


def test_json_out_writes_reports_that_pool_and_a_foreign_report_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("a", "b"):
        assert MOON.main(["--rules", RULES, "--defenders", "easy", "--attackers", "shooter",
                          "--deal-sets", "1", "--seed", seed, "--json-out", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("moon-easy-vs-shooter-*.json"))
    assert [f.name for f in files] == ["moon-easy-vs-shooter-a.json", "moon-easy-vs-shooter-b.json"]
    capsys.readouterr()
    assert MOON.main(["--pool", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert "2 reports pooled into 1 pairings" in out
    hands = sum(json.loads(f.read_text())["figures"]["hands"] for f in files)
    assert f"easy{' ' * 22} shooter{' ' * 25} {hands:>6}" in out

    other = json.loads(files[1].read_text())
    other["code"] = "0" * 16
    foreign = tmp_path / "other-code.json"
    foreign.write_text(json.dumps(other))
    with pytest.raises(SystemExit) as exit_info:
        MOON.main(["--pool", str(files[0]), str(foreign)])
    assert exit_info.value.code == 2
    assert "other code" in capsys.readouterr().err


def test_records_are_the_games_of_the_pairing_and_replay(tmp_path: Path) -> None:
    data = MOON.pairing_report(RULES, "easy", "shooter", 1, "r", 50, 1, tmp_path)
    lines = (tmp_path / "easy-vs-shooter.jsonl").read_text().splitlines()
    assert len(lines) == data["figures"]["games"]
    games = [json.loads(line) for line in lines]
    assert sorted(g["rotation"] for g in games) == list(range(4))
    for game in games:
        assert game["deal_set"] == 0
        assert replay_game(game["record"]).is_over
