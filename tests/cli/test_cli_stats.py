"""``hearts stats``: the terminal game's statistics from the finished games it keeps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests.cli.test_cli_play import PipeDriver

from hearts.core import Rules, game_record, new_game, parse_record, record_people, record_seats
from hearts.persistence import finished_games, save_finished_game
from hearts.players import RandomPlayer
from hearts.players.analysis import human_seats
from hearts.players.driver import run_game
from hearts.stats import player_stats

NAMES = ["You", "Left", "Across", "Right"]


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home


def finished(rules_text: str, seed: str) -> dict[str, Any]:
    rules = Rules.parse(rules_text)
    players = [RandomPlayer(s) for s in range(rules.players)]
    return game_record(run_game(new_game(rules, seed=seed), players), NAMES[:rules.players])


def test_games_of_one_seed_kept_in_the_same_second_are_all_kept_and_counted(
        hearts_main: Callable[..., tuple[int, str, str]], hearts_home: Path) -> None:
    records = [finished("card-commons", "9"), finished("standard", "9"),
               finished("card-commons:target=50", "9")]
    second = datetime(2026, 12, 7, 18, 2, 49, tzinfo=UTC)
    kept = [save_finished_game(record, now=second) for record in records]
    assert [path.name for path in kept] == [
        "20261207-180249-9.json", "20261207-180249-9-2.json", "20261207-180249-9-3.json"]
    assert finished_games() == kept  # oldest first: the first of the name before its -2
    assert [parse_record(path.read_text(encoding="utf-8")) for path in kept] == records
    status, out, err = hearts_main("stats", "--json")
    assert status == 0, err
    shown = json.loads(out)
    assert shown["records"] == 3
    assert {p["preset"]: p["games"] for p in shown["presets"]} == {
        "card-commons": 2, "standard": 1}


@pytest.mark.parametrize("name", ["expert", "Left", "Bot 2"])
def test_a_text_game_played_under_a_computers_name_is_counted_and_analysed_for_its_seat(
        hearts_main: Callable[..., tuple[int, str, str]], hearts_home: Path,
        name: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}  # our HEARTS_HOME
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearts.cli.main", "play", "--text", "--name", name,
         "--seed", "9", "--rules", "card-commons:target=30", "--level", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        encoding="utf-8", env=env, bufsize=0)
    driver = PipeDriver(proc, seed=9)
    while (question := driver.read_prompt()) is not None:
        driver.answer(driver.choose(*question))
    code, out, err = driver.finish()
    assert code == 0, err
    assert out.rstrip().endswith("(hearts stats counts it)")
    [kept] = finished_games()
    record = parse_record(kept.read_text(encoding="utf-8"))
    assert record["seats"][0] == name and record["people"] == [0]
    assert human_seats(record_seats(record, 4), record_people(record, 4)) == (0,)
    status, shown, err = hearts_main("stats", "--json")
    assert status == 0, err
    assert [p["games"] for p in json.loads(shown)["presets"]] == [1]


def test_json_figures_are_those_of_the_kept_records(
        hearts_main: Callable[..., tuple[int, str, str]], hearts_home: Path) -> None:
    records = [finished("card-commons", "s1"), finished("standard", "s2"),
               finished("card-commons", "s3")]
    for number, record in enumerate(records):
        path = save_finished_game(record)
        path.rename(path.with_name(f"{number}-{path.name}"))  # same second: keep all three
    status, out, err = hearts_main("stats", "--json")
    assert status == 0, err
    shown = json.loads(out)
    assert shown["records"] == 3 and shown["skipped"] == 0
    expected = [s.to_json() for s in player_stats(records).values()]
    assert shown["presets"] == expected
    assert [p["games"] for p in shown["presets"]] == [2, 1]
    status, out, _ = hearts_main("stats", "--json", "--preset", "standard", "--player", "Left")
    assert [p["preset"] for p in json.loads(out)["presets"]] == ["standard"]
    assert json.loads(out)["presets"] == [
        s.to_json() for s in player_stats(records, "Left", "standard").values()]


def test_text_names_each_figure_and_a_damaged_file_is_left_out(
        hearts_main: Callable[..., tuple[int, str, str]], hearts_home: Path) -> None:
    record = finished("card-commons:players=3", "t1")
    save_finished_game(record)
    (hearts_home / "games" / "broken.json").write_text("{not json", encoding="utf-8")
    status, out, err = hearts_main("stats")
    assert status == 0
    assert "broken.json: left out: not JSON" in err
    figures = player_stats([record])["card-commons"]
    assert "Statistics for your seat" in out
    rows = {line[:26].strip(): line[26:].strip() for line in out.splitlines()[2:]}
    assert rows["games"] == "1" and rows["hands"] == str(figures.hands)
    assert rows["average points a hand"] == f"{figures.average_points:.2f}"
    assert rows["moons shot"] == str(figures.moons_shot)
    assert rows["hands you took the Q♠"] == str(figures.queens_taken)


def test_no_games_yet_says_so_and_a_bad_preset_is_a_usage_error(
        hearts_main: Callable[..., tuple[int, str, str]]) -> None:
    status, out, _ = hearts_main("stats")
    assert status == 0 and "No finished games for your seat yet" in out
    status, _, err = hearts_main("stats", "--preset", "bridge")
    assert status == 2 and "invalid choice: 'bridge'" in err


def test_the_real_command_runs(hearts_home: Path) -> None:
    save_finished_game(finished("card-commons", "real"))
    done = subprocess.run([sys.executable, "-m", "hearts.cli.main", "stats", "--json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=120,
                          env={**os.environ, "PYTHONUTF8": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["presets"][0]["games"] == 1
