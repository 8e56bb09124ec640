"""Issue 11 through the real ``hearts`` command: no sheet is lost, bad names and counts
are refused, output paths are checked before the work, output that cannot show the suit
symbols gets letters, and every error ends in one line, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hearts.core import Card, Rules, Sheet, new_game, view
from hearts.persistence import load_sheet, save_sheet, sheet_path

CLI = [sys.executable, "-m", "hearts.cli.main"]
MainResult = tuple[int, str, str]
HeartsMain = Callable[..., MainResult]


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home


def one_error_line(err: str) -> str:
    """The one ``hearts: error:`` line of stderr (and nothing else there)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hearts: error: "), err
    assert "Traceback" not in err
    return lines[0]


# ------------------------------------------------------------------ data loss
def test_a_second_score_in_the_same_minute_keeps_the_first_sheet(
        hearts_main: HeartsMain, hearts_home: Path) -> None:
    first = hearts_main("score", "--names", "Ann,Bo,Cy,Di", stdin="13 13 0 0\n")
    second = hearts_main("score", "--names", "Eve,Fay,Gus,Hal", stdin="0 0 13 13\n")
    assert first[0] == second[0] == 0
    sheets = sorted((hearts_home / "sheets").glob("*.json"))
    assert len(sheets) == 2
    kept = {Sheet.from_json(json.loads(p.read_text())).names for p in sheets}
    assert kept == {("Ann", "Bo", "Cy", "Di"), ("Eve", "Fay", "Gus", "Hal")}


def test_the_default_name_steps_past_a_saved_sheet(hearts_main: HeartsMain,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # both runs in the same minute, whatever the clock does between them
    class Frozen:
        @staticmethod
        def now() -> Frozen:
            return Frozen()

        def strftime(self, pattern: str) -> str:
            return "game-2030-01-01-1200"

    monkeypatch.setattr("hearts.cli.cmd_score.datetime", Frozen)
    hearts_main("score", "--names", "Ann,Bo,Cy,Di", stdin="13 13 0 0\n")
    status, out, _ = hearts_main("score", "--names", "Eve,Fay,Gus,Hal", stdin="0 0 13 13\n")
    assert status == 0 and "game-2030-01-01-1200-2.json" in out
    assert load_sheet("game-2030-01-01-1200").names[0] == "Ann"
    assert load_sheet("game-2030-01-01-1200-2").names[0] == "Eve"


def test_quitting_a_sheet_without_a_round_saves_nothing(hearts_main: HeartsMain,
                                                        hearts_home: Path) -> None:
    status, out, _ = hearts_main("score", "--names", "Ann,Bo,Cy,Di", stdin="quit\n")
    assert status == 0 and "no sheet saved" in out
    assert not list(hearts_home.glob("sheets/*.json"))


def test_a_new_sheet_never_takes_the_name_of_a_saved_one(hearts_main: HeartsMain) -> None:
    hearts_main("score", "--names", "Ann,Bo,Cy,Di", "--name", "club", stdin="13 13 0 0\n")
    before = sheet_path("club").read_bytes()
    status, _, err = hearts_main("score", "--names", "Eve,Fay,Gus,Hal", "--name", "club",
                                 stdin="0 0 13 13\n")
    assert status == 2 and "--open 'club'" in one_error_line(err)
    assert sheet_path("club").read_bytes() == before


def test_a_sheet_saved_meanwhile_under_the_same_name_is_not_replaced() -> None:
    import io

    from hearts.cli.cmd_score import PlainScorekeeper

    stdin, stdout = io.StringIO("13 13 0 0\n"), io.StringIO()
    keeper = PlainScorekeeper(stdin, stdout, "race")
    other = Sheet(Rules(), ("Eve", "Fay", "Gus", "Hal"))
    # another ``hearts score`` saves "race" after this one chose the name
    save_sheet("race", other.add_round(points=(26, 0, 0, 0)))
    assert keeper.run(Sheet(Rules(), ("Ann", "Bo", "Cy", "Di")), "card-commons") == 0
    assert load_sheet("race").names[0] == "Eve"
    assert load_sheet("race-2").names[0] == "Ann"
    assert "this one is 'race-2'" in stdout.getvalue()


@pytest.mark.parametrize(("args", "said"), [
    (["--names", "Ann,,Cy,Di"], "every player needs a name"),
    (["--names", "Ann,Bo,Cy,"], "every player needs a name"),
    (["--rules", "classic:players=4", "--names", "A,B,C"], "are for 4 players, but 3 names"),
    (["--rules", "standard", "--names", "A,B,C"], "4 players, not 3"),
])
def test_an_empty_name_or_a_count_against_the_rules_is_an_error(
        hearts_main: HeartsMain, hearts_home: Path, args: list[str], said: str) -> None:
    status, _, err = hearts_main("score", *args, stdin="13 13 0\n")
    assert status == 2 and said in one_error_line(err)
    assert not hearts_home.joinpath("sheets").exists()


def test_names_decide_the_count_when_the_rules_text_does_not(hearts_main: HeartsMain) -> None:
    status, out, _ = hearts_main("score", "--rules", "classic", "--names", "A,B,C",
                                 "--name", "three", stdin="13 13 0\n")
    assert status == 0 and load_sheet("three").rules.players == 3, out


# ------------------------------------------------- output paths, before the work
@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a-file"
    path.write_text("not a folder\n")
    return path


def test_arena_records_to_a_folder_or_under_a_file_is_an_error_line(
        hearts_main: HeartsMain, tmp_path: Path, a_file: Path) -> None:
    for target, said in ((tmp_path, "is a folder"), (a_file / "games.jsonl", "is a file")):
        status, out, err = hearts_main("arena", "--bot", "random", "--deal-sets", "1",
                                       "--workers", "1", "--quiet", "--records", str(target))
        assert status == 2 and said in one_error_line(err) and out == ""


def test_simulate_records_under_a_file_is_refused_before_any_game(
        hearts_main: HeartsMain, a_file: Path) -> None:
    status, out, err = hearts_main("simulate", "--games", "1", "--records", str(a_file / "d"))
    assert status == 2 and "is a file, not a folder" in one_error_line(err) and out == ""


@pytest.mark.parametrize("where", ["folder", "under-a-file"])
def test_play_record_that_cannot_be_written_is_said_before_the_game(
        hearts_main: HeartsMain, tmp_path: Path, a_file: Path, where: str) -> None:
    target = tmp_path if where == "folder" else a_file / "game.json"
    status, out, err = hearts_main("play", "--text", "--seed", "1", "--record", str(target),
                                   stdin="quit\n")
    assert status == 2 and "--record" in one_error_line(err)
    assert "Seed" not in out  # no game was started


@pytest.mark.parametrize("args", [["score", "--list"], ["score", "--names", "A,B,C,D"]])
def test_hearts_home_naming_a_file_is_an_error_line(
        hearts_main: HeartsMain, monkeypatch: pytest.MonkeyPatch, a_file: Path,
        args: list[str]) -> None:
    monkeypatch.setenv("HEARTS_HOME", str(a_file))
    status, _, err = hearts_main(*args, stdin="13 13 0 0\n")
    assert status == 2 and "$HEARTS_HOME" in one_error_line(err) and "not a folder" in err


# ------------------------------------------------------------ encodings
def run_encoded(encoding: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    env.pop("PYTHONUTF8", None)
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          encoding=encoding, env=env, timeout=120, check=False)


def test_a_cp1252_output_gets_card_letters_not_a_traceback() -> None:
    done = run_encoded("cp1252", "play", "--text", "--seed", "1", stdin="help\nquit\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "♠" not in done.stdout and "?" not in done.stdout.replace("help or ?", "")
    hand = next(line for line in done.stdout.splitlines() if line.startswith("Your hand:"))
    assert hand.startswith("Your hand: C ")
    assert "then suit C D S H)" in done.stdout  # the help names letters only


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_any_text_with_symbols_falls_back_to_letters(encoding: str) -> None:
    done = run_encoded(encoding, "rules")
    assert done.returncode == 0, done.stderr
    assert "QS breaks hearts" in done.stdout


# ------------------------------------------------------------ play --text
def test_play_text_honours_levels(hearts_main: HeartsMain,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.tui.session as session  # the text game seats its computers as it does

    made: list[str] = []
    real = session.make_player

    def spy(level: str, seed: str) -> object:
        made.append(level)
        return real(level, seed)

    monkeypatch.setattr(session, "make_player", spy)
    status, _, err = hearts_main("play", "--text", "--seed", "1", "--levels", "easy,normal,random",
                                 stdin="quit\n")
    assert status == 0, err
    assert made == ["easy", "normal", "random"]
    status, _, err = hearts_main("play", "--text", "--levels", "easy,easy", stdin="quit\n")
    assert status == 2 and "3 opponents" in one_error_line(err)


def test_play_text_speaks_of_your_hand(hearts_main: HeartsMain) -> None:
    hand = view(new_game(Rules(), "1"), 0).hand
    held = [str(card) for card in list(hand)[:2]]
    absent = next(str(Card(n)) for n in range(52) if Card(n) not in hand)
    status, out, _ = hearts_main("play", "--text", "--seed", "1",
                                 stdin=f"{absent} {' '.join(held)}\nquit\n")
    assert status == 0
    # said as the game writes cards (the refusal's "4C" once beside a hand of symbols)
    assert f"{Card(absent).pretty} is not in your hand" in out and "seat 0's hand" not in out
