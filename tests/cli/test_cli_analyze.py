"""``hearts analyze``: the real command on golden records, as text and JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.cli.conftest import MainResult, RunCli

import hearts.cli.cmd_arena  # noqa: F401  binds the real usable_cpus before a test patches it
from hearts.cli.main import COMMANDS
from hearts.core import seat_name

HeartsMain = Callable[..., MainResult]
GOLDEN = Path(__file__).parents[1] / "golden"
RECORD = str(GOLDEN / "game-classic-3p.json")
HAND = str(GOLDEN / "hand-classic-moon-choice.json")


def unnamed(tmp_path: Path) -> str:
    """RECORD without its seat names (as a hand record has none)."""
    record = json.loads(Path(RECORD).read_text("utf-8"))
    del record["seats"]
    path = tmp_path / "unnamed.json"
    path.write_text(json.dumps(record), "utf-8")
    return str(path)


def test_the_text_report_sums_up_each_seat(hearts_cli: RunCli) -> None:
    done = hearts_cli("analyze", RECORD, "--seed", "7", "--iterations", "40", "--seats", "0,2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == [f"{RECORD}: classic:players=3",
                         "judged by expert (40 deals a decision, seed 7)",
                         "seats: 0: Seat 1 | 1: Seat 2 | 2: Seat 3"]
    summaries = [line for line in lines if line.startswith("Seat ")]
    assert [line.split(":")[0] for line in summaries] == ["Seat 1", "Seat 3"]
    assert all("accuracy " in line and "points lost" in line for line in summaries)
    assert "  Most costly:" in lines
    costly = lines[lines.index("  Most costly:") + 1]
    assert costly.startswith("    round ") and " points lost" in costly and ", best " in costly
    expected = lines[lines.index("  Most costly:") + 2]
    assert expected.startswith("      expected points ")


def test_the_text_report_fits_80_columns(hearts_cli: RunCli) -> None:
    done = hearts_cli("analyze", RECORD, "--seed", "7", "--iterations", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("    round ") for line in lines) > 20
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)


def test_a_seat_no_one_named_is_named_as_the_core_and_replay_name_it(
        hearts_cli: RunCli, tmp_path: Path) -> None:
    path = unnamed(tmp_path)
    done = hearts_cli("analyze", path, "--seed", "7", "--iterations", "5", "--seats", "0")
    assert done.returncode == 0, done.stderr
    headings = [line.split(":")[0] for line in done.stdout.splitlines()
                if "accuracy " in line or "no decision with a choice" in line]
    assert headings == [seat_name(0)] == ["Seat 1"]
    replay = hearts_cli("replay", path)
    assert "0: Seat 1" in replay.stdout and "0: Seat 1" in done.stdout


def test_a_seat_the_record_names_is_headed_by_its_name_too(hearts_cli: RunCli,
                                                          tmp_path: Path) -> None:
    record = json.loads(Path(RECORD).read_text("utf-8"))
    named = tmp_path / "named.json"
    named.write_text(json.dumps({**record, "seats": ["Ann", "Bo", "Cy"]}), "utf-8")
    done = hearts_cli("analyze", str(named), "--seed", "7", "--iterations", "20",
                      "--seats", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "seats: 0: Ann | 1: Bo | 2: Cy" in lines
    assert [line.split(":")[0] for line in lines if "accuracy " in line] == ["Bo"]


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


def test_a_decisions_verdict_does_not_depend_on_the_other_seats_judged(
        hearts_cli: RunCli) -> None:
    args = ("analyze", RECORD, "--seed", "1", "--iterations", "20", "--json")
    alone = hearts_cli(*args, "--seats", "0")
    together = hearts_cli(*args, "--seats", "0,1,2")
    assert alone.returncode == together.returncode == 0, alone.stderr + together.stderr

    def seat_0(output: str) -> list[dict[str, object]]:
        decisions = json.loads(output)["decisions"]
        return [{k: v for k, v in d.items() if k != "index"} for d in decisions
                if d["seat"] == 0]

    assert seat_0(alone.stdout) == seat_0(together.stdout)
    assert len(seat_0(alone.stdout)) > 100
    assert json.loads(alone.stdout)["summaries"][0] == {
        **json.loads(together.stdout)["summaries"][0],
        "worst": json.loads(alone.stdout)["summaries"][0]["worst"]}


@pytest.mark.parametrize("mode", [(), ("--json",)])
def test_every_record_is_checked_before_any_is_judged(
        hearts_main: HeartsMain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        mode: tuple[str, ...]) -> None:
    """A file whose last record is bad is refused at once, in both modes: no decision
    judged and thrown away, no report printed before the error."""
    good = Path(RECORD).read_text("utf-8").strip()
    path = tmp_path / "records.jsonl"
    path.write_text(f"{json.dumps(json.loads(good))}\n{json.dumps(json.loads(good))}\n"
                    '{"format": "chess"}\n', "utf-8")

    def no_judging(task: object) -> None:
        raise AssertionError("a decision was judged before every record was checked")

    monkeypatch.setattr("hearts.players.analysis._judge", no_judging)
    status, out, err = hearts_main("analyze", str(path), "--seed", "1", "--iterations", "5",
                                   *mode)
    assert (status, out) == (2, "")
    assert err.startswith(f"hearts: error: {path}: line 3: invalid record: format must be")
    # seats that the third record lacks are found before the first is judged, too
    other = tmp_path / "seats.jsonl"
    two = json.loads(Path(GOLDEN / "game-classic-2p.json").read_text("utf-8"))
    other.write_text(f"{json.dumps(json.loads(good))}\n{json.dumps(two)}\n", "utf-8")
    status, out, err = hearts_main("analyze", str(other), "--seed", "1", "--seats", "2",
                                   *mode)
    assert (status, out) == (2, "")
    assert err.startswith(f"hearts: error: {other}: line 2: seats run from 0 to 1, not [2]")


def test_the_time_budget_is_shown(hearts_cli: RunCli) -> None:
    done = hearts_cli("analyze", HAND, "--budget", "0.01", "--seats", "0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "judged by expert (a time budget of 0.01 s a decision)"
    done = hearts_cli("analyze", HAND, "--budget", "0.01", "--seats", "0", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["budget_s"], report["iterations"], report["seed"]) == (0.01, None, None)


@pytest.mark.parametrize("fixed", [("--iterations", "5"), ("--seed", "1"),
                                   ("--seed", "1", "--iterations", "5")])
def test_a_budget_that_would_be_ignored_is_refused(hearts_main: HeartsMain,
                                                   fixed: tuple[str, ...]) -> None:
    status, out, err = hearts_main("analyze", RECORD, "--budget", "100", *fixed)
    assert (status, out) == (2, "")
    assert err.startswith("hearts: error: --budget: a time budget (100 s) is used only when "
                          "neither a seed nor iterations fix the deals a decision")


def test_a_budget_beyond_the_search_s_is_refused_before_reading(hearts_main: HeartsMain,
                                                                tmp_path: Path) -> None:
    status, out, err = hearts_main("analyze", str(tmp_path / "none.json"), "--budget", "5000")
    assert (status, out) == (2, "")
    assert "at most 3600, not 5000" in err and "cannot read" not in err


def test_workers_beyond_the_cpus_are_cut_saying_so(hearts_main: HeartsMain,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hearts.cli.common.usable_cpus", lambda: 1)  # worker_count asks it
    args = ("analyze", HAND, "--seed", "1", "--iterations", "5", "--seats", "0", "--json")
    status, out, err = hearts_main(*args, "--workers", "1000")
    assert status == 0, err
    assert err == ("hearts analyze: --workers 1000 is more than the 1 CPU this process "
                   "may use; judging on 1\n")
    assert (status, out, "") == hearts_main(*args)


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
                  "from 4 a blunder", "--workers", "--seed", "--json",
                  "whichever other --seats are judged", "refused with them",
                  "at most one a CPU"):
        assert words in text


def test_a_loss_with_fewer_points_says_where_the_loss_is() -> None:
    """A pass that keeps this seat's points lower can still be the costlier one (the
    utility weighs the others' points and the game): the report says so, where "24.8
    points lost; expected points 6.6 against 11.3" read as a contradiction."""
    from hearts.cli.cmd_analyze import _decision_lines

    decision = {"round": 1, "trick": None, "kind": "pass", "taken": ["KC", "AC", "AS"],
                "best": ["5C", "2D", "4D"], "loss": 24.8, "verdict": "blunder",
                "taken_points": 6.6, "best_points": 11.3}
    text = " ".join(_decision_lines(decision))
    assert "expected points 6.6 against 11.3; the best takes more points this round" in text
    assert all(len(line) <= 80 for line in _decision_lines(decision))
    plain = {**decision, "taken_points": 11.3, "best_points": 6.6}
    assert _decision_lines(plain)[-1].endswith("expected points 11.3 against 6.6")
