"""``hearts arena`` and ``hearts bot`` through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hearts.cli.main import main
from hearts.core import replay_game

ROOT = Path(__file__).resolve().parents[2]


def test_arena_json_report_and_records(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    status = main(["arena", "--rules", "standard:target=30", "--bot", "random#a",
                   "--bot", "random#b", "--deal-sets", "2", "--seed", "cli", "--workers", "1",
                   "--json", "--quiet", "--records", str(records)])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    figures = data["figures"]
    assert figures["lineup"] == ["random#a", "random#b", "random#a", "random#b"]
    assert (figures["deal_sets"], figures["rotations"], figures["games"]) == (2, 2, 4)
    assert [b["bot"] for b in figures["bots"]] == ["random#a", "random#b"]
    lines = records.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        entry = json.loads(line)
        assert replay_game(entry["record"]).is_over


def test_arena_text_report_names_bots_and_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", "standard:target=30", "--bot", "random#a", "--bot",
                 "random#b", "--deal-sets", "3", "--seed", "t", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "random#a" in out and "±" in out and "3 deal sets x 2 rotations = 6 games" in out


def test_arena_pools_the_json_reports_of_two_seeds(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    reports = []
    for seed in ("p1", "p2"):
        assert main(["arena", "--rules", "standard:target=30", "--bot", "random#a", "--bot",
                     "random#b", "--deal-sets", "2", "--seed", seed, "--workers", "1",
                     "--json", "--quiet"]) == 0
        reports.append(tmp_path / f"{seed}.json")
        reports[-1].write_text(capsys.readouterr().out)
    assert main(["arena", "--pool", *map(str, reports), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["figures"]
    assert (figures["deal_sets"], figures["games"], figures["seed"]) == (4, 8, "p1 p2")
    each = [json.loads(path.read_text())["figures"]["bots"][0] for path in reports]
    assert figures["bots"][0]["by_deal_set"]["margin"] == [
        *each[0]["by_deal_set"]["margin"], *each[1]["by_deal_set"]["margin"]]
    assert main(["arena", "--pool", *map(str, reports)]) == 0
    assert "4 deal sets x 2 rotations = 8 games" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "complaint"), [
    ([], "give the bots (--bot SPEC"),
    (["--pool", "missing.json"], "missing.json: cannot read it"),
    (["--pool", str(ROOT / "pyproject.toml")], "pyproject.toml: not a JSON arena report"),
    (["--pool", str(ROOT / "tests/server/message_golden.json")], "not an arena report"),
    (["--bot", "random", "--pool", "x.json"], "give it without --bot"),
    (["--bot", "wizard"], "unknown bot 'wizard'"),
    (["--bot", "random", "--bot", "random", "--bot", "random"], "one --bot per seat (4)"),
    (["--bot", "random", "--rules", "standard:target=0"], "target must be"),
])
def test_arena_refuses_bad_settings(argv: list[str], complaint: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    try:  # a value argparse's types judge is a usage error (SystemExit 2), the rest return 2
        status = main(["arena", "--quiet", *argv])
    except SystemExit as stop:
        status = stop.code
    assert status == 2
    assert complaint in capsys.readouterr().err


KEPT = ROOT / "benchmarks/results/ismcts10k-gw0-s38-1.json"


@pytest.mark.parametrize(("damage", "why"), [
    (lambda data: data.pop("figures"), "it has no 'figures'"),
    (lambda data: data["figures"].update(bots=3), "not iterable"),
    (lambda data: data["figures"]["bots"][0].pop("by_deal_set"), "no figures by deal set"),
    (lambda data: data["figures"]["bots"][0]["by_deal_set"].pop("margin"), "no 'margin'"),
    (lambda data: data.update(format="other"), "its format is not"),
    (lambda data: next(iter(data["timing"].values())).update(p95_ms="x"), "format code"),
    (lambda data: data["figures"].update(rotations=None), "NoneType"),
    (lambda data: data.update(timing=[]), "does not list the same bots"),
])
def test_a_damaged_report_is_refused_with_its_file_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        damage: Callable[[dict[str, Any]], object], why: str) -> None:
    data = json.loads(KEPT.read_text(encoding="utf-8"))
    damage(data)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["arena", "--pool", str(KEPT), str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: not an arena report this version can pool: " in err and why in err, err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(("text", "why"), [
    ("1" * 5000, "a number has more digits than a reader takes"),
    ('{"format": NaN}', "NaN is not a JSON number"),
    ("[" * 100_000, "JSON nested too deeply"),
])
def test_a_report_that_is_no_json_a_reader_takes_is_refused_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert main(["arena", "--pool", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: not a JSON arena report ({why}" in err, err


def test_reports_whose_bots_disagree_are_refused_when_pooled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each may be read alone; together the pool would look up a bot one of them lacks."""
    data = json.loads(KEPT.read_text(encoding="utf-8"))
    data["timing"], data["figures"]["seed"] = {}, "other"
    path = tmp_path / "no-timing.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["arena", "--pool", str(KEPT), str(path)]) == 2
    err = capsys.readouterr().err
    assert "does not list the same bots in its figures and its timing" in err, err


def test_hearts_bot_speaks_the_protocol_on_stdin_and_stdout() -> None:
    hello = {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 1,
             "seat": 0, "rules": "standard"}
    done = subprocess.run([sys.executable, "-m", "hearts.cli.main", "bot", "random"],
                          input=json.dumps(hello) + "\n", capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout)["type"] == "ready"


def test_hearts_bot_refuses_an_external_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "ext:cat"]) == 2
    assert "serves a built-in player" in capsys.readouterr().err


def test_the_text_report_of_a_real_match_fits_80_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", "standard:target=30", "--bot", "normal", "--bot",
                 "easy", "--deal-sets", "3", "--seed", "w", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out

    def width(line: str) -> int:
        """A line's width, a bot's row with room for any p95 to 999.9 ms (its last cell,
        the wall clock's: a loaded machine prints 100.0 where an idle one prints 0.0)."""
        if not line.startswith(("normal ", "easy ")):
            return len(line)
        return len(line.rsplit(" ", 1)[0]) + len(" 999.9")

    assert max(width(line) for line in out.splitlines()) <= 80, out
    assert "normal" in out and "±" in out and "3 deal sets x 2 rotations = 6 games" in out


@pytest.mark.parametrize(("program", "why"), [
    ("/nonexistent/prog", "No such file or directory"),
    ("no-such-command-hearts-test --level 2", "No such file or directory"),
    (None, "Permission denied"),  # a file that is not executable
])
def test_a_bot_program_that_cannot_start_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], program: str | None,
        why: str) -> None:
    """Once, every seat of it was played by the fallback for the whole match, exit 0."""
    if program is None:
        plain = tmp_path / "bot.py"
        plain.write_text("print('hello')\n", encoding="utf-8")
        program = str(plain)
    records = tmp_path / "games.jsonl"
    status = main(["arena", "--rules", "standard:target=30", "--bot", f"ext:{program}",
                   "--bot", "easy", "--deal-sets", "2", "--workers", "1", "--quiet",
                   "--records", str(records)])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and not records.exists()
    command = program.split()[0]
    assert err.startswith(f"hearts: error: --bot 'ext:{program}': cannot start ")
    assert command in err and why in err and len(err.splitlines()) == 1


def test_a_bot_program_that_starts_is_not_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", "standard:target=30", "--bot",
                 f"ext:{sys.executable} {ROOT / 'examples/external_bot.py'}", "--bot", "easy",
                 "--deal-sets", "1", "--workers", "1", "--quiet", "--json"]) == 0
    bots = json.loads(capsys.readouterr().out)["figures"]["bots"]
    assert bots[0]["fallbacks"] == 0


def test_outside_bots_get_a_fresh_secret_seed_the_report_keeps(
        capsys: pytest.CaptureFixture[str]) -> None:
    """An ext: bot's hello seed comes from a secret (--bot-seed): fresh and unguessable
    unless given, kept in the report so the match replays; none without outside bots."""
    bot = "ext:" + " ".join([sys.executable, "-m", "hearts.cli.main", "bot", "random"])
    argv = ["arena", "--bot", bot, "--bot", "random", "--rules", "standard:target=20",
            "--deal-sets", "1", "--workers", "1", "--quiet", "--json", "--seed", "s"]
    assert main(argv) == 0
    fresh = json.loads(capsys.readouterr().out)["figures"]["bot_seed"]
    assert len(fresh) == 32 and int(fresh, 16) >= 0
    assert main([*argv, "--bot-seed", fresh]) == 0
    assert json.loads(capsys.readouterr().out)["figures"]["bot_seed"] == fresh
    assert main([*argv[:2], "random", *argv[3:]]) == 0
    assert "bot_seed" not in json.loads(capsys.readouterr().out)["figures"]
