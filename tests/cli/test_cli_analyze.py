"""``hearts analyze``: the real command on golden records, as text and JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.cli.conftest import MainResult, RunCli

from hearts.cli.main import COMMANDS

HeartsMain = Callable[..., MainResult]
GOLDEN = Path(__file__).parents[1] / "golden"
RECORD = str(GOLDEN / "game-classic-3p.json")


def test_the_text_report_sums_up_each_seat(hearts_cli: RunCli) -> None:
    done = hearts_cli("analyze", RECORD, "--seed", "7", "--iterations", "40", "--seats", "0,2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (f"{RECORD}: classic:players=3, judged by expert "
                        "(40 deals a decision, seed 7)")
    summaries = [line for line in lines if line.startswith("Seat ")]
    # the record names no seat: the seat numbers --seats takes, not "Seat 0 (Seat 1)"
    assert [line.split(":")[0] for line in summaries] == ["Seat 0", "Seat 2"]
    assert all("accuracy " in line and "points lost" in line for line in summaries)
    assert "  Most costly:" in lines
    costly = lines[lines.index("  Most costly:") + 1]
    assert costly.startswith("    round ") and " points lost" in costly and ", best " in costly


def test_a_seat_the_record_names_is_headed_by_its_name_too(hearts_cli: RunCli,
                                                          tmp_path: Path) -> None:
    record = json.loads(Path(RECORD).read_text("utf-8"))
    named = tmp_path / "named.json"
    named.write_text(json.dumps({**record, "seats": ["Ann", "Bo", "Cy"]}), "utf-8")
    done = hearts_cli("analyze", str(named), "--seed", "7", "--iterations", "20",
                      "--seats", "1")
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()
            if line.startswith("Seat ")] == ["Seat 1 (Bo)"]


def test_json_names_every_decision_and_workers_do_not_change_it(hearts_cli: RunCli) -> None:
    args = ("analyze", RECORD, "--seed", "7", "--iterations", "20", "--seats", "1", "--json")
    one = hearts_cli(*args)
    two = hearts_cli(*args, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    report = json.loads(one.stdout)
    record = json.loads(Path(RECORD).read_text("utf-8"))
    assert report["rules"] == record["rules"] and report["seats"] == [1]
    assert report["thresholds"] == {"inaccuracy": 0.5, "mistake": 1.5, "blunder": 4.0}
    plays = sum(len(r["plays"]) for r in record["rounds"]) // 3
    passes = sum(1 for r in record["rounds"] if r["pass_offset"])
    assert len(report["decisions"]) == plays + passes
    summary = report["summaries"][0]
    assert summary["decisions"] == len(report["decisions"])
    lost = sum(d["loss"] for d in report["decisions"] if d["choices"] > 1)
    assert abs(summary["points_lost"] - lost) < 0.01
    worst = [report["decisions"][i]["loss"] for i in summary["worst"]]
    assert worst == sorted(worst, reverse=True) and len(worst) <= 3


def test_a_bad_record_is_a_clear_error(hearts_main: HeartsMain, tmp_path: Path) -> None:
    run = hearts_main
    record = json.loads(Path(RECORD).read_text("utf-8"))
    record["rounds"][0]["plays"][1] = record["rounds"][0]["plays"][0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, out, err = run("analyze", str(path), "--seed", "1")
    assert (status, out) == (2, "")
    assert err.startswith(f"hearts: error: {path}: invalid record: illegal action: round 1")
    assert "3C cannot be played" in err
    assert len(err.splitlines()) == 1


def test_missing_file_and_bad_seats_are_usage_errors(hearts_main: HeartsMain,
                                                     tmp_path: Path) -> None:
    run = hearts_main
    result = run("analyze", str(tmp_path / "none.json"))
    assert result[0] == 2 and "cannot read" in result[2]
    result = run("analyze", RECORD, "--seats", "0,5", "--seed", "1",
                 "--iterations", "1")
    assert result[0] == 2 and "seats run from 0 to 2" in result[2]
    result = run("analyze", RECORD, "--seats", "x")
    assert result[0] == 2 and "seats are numbers from 0" in result[2]


def test_the_help_documents_the_marks(hearts_cli: RunCli) -> None:
    assert "analyze" in COMMANDS
    done = hearts_cli("analyze", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for words in ("under 0.5 fine", "from 0.5 an inaccuracy", "from 1.5 a mistake",
                  "from 4 a blunder", "--workers", "--seed", "--json"):
        assert words in text
