"""The interactive sessions through the real ``hearts`` command: a bad line is answered and
asked again, never the end of the session; the end of input, ``quit`` and ``help`` work at
every prompt; a closed standard input is an empty one, not "internal error (a bug)"."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearts.core import InvalidSheetError, Rules, Sheet, replay_record

CLI = [sys.executable, "-m", "hearts.cli.main"]


def run(args: list[str], given: bytes, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HEARTS_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([*CLI, *args], input=given, capture_output=True, env=env,
                          timeout=120, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


def test_a_line_that_is_not_utf8_is_asked_again_in_the_text_game(tmp_path: Path) -> None:
    done = run(["play", "--text", "--seed", "1"], b"\xff\xfe\nquit\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "error: that line is not UTF-8 text (invalid start byte at byte 0)" in done.stdout
    assert "You left the game." in done.stdout and done.stderr == ""


def test_a_line_that_is_not_utf8_loses_no_round_of_the_score_keeper(tmp_path: Path) -> None:
    """Python decodes a piped input a chunk at a time: one bad byte once lost every line
    read with it, and ended the session before its first save."""
    done = run(["score", "--name", "club"], b"\xff\nAl,Bo,Cy,Di\n1 2 3 20\n\xe9\n0 0 13 13\n",
               tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("that line is not UTF-8 text") == 2
    assert "2. Al +0 = 1, Bo +0 = 2, Cy +13 = 16, Di +13 = 33" in done.stdout
    assert (tmp_path / "sheets" / "club.json").is_file()


@pytest.mark.parametrize("given", [b"", b"quit\n", b"help\nq\n"])
def test_the_names_prompt_ends_without_a_sheet_in_words(given: bytes, tmp_path: Path) -> None:
    done = run(["score"], given, tmp_path)
    assert done.returncode == 0, done.stderr  # 1 would say a bug
    assert "No names entered: no sheet started." in done.stdout
    assert ("Type the players' names in seat order" in done.stdout) == (b"help" in given)
    assert not (tmp_path / "sheets").exists() or not list((tmp_path / "sheets").iterdir())


def test_quit_at_the_moon_prompt_adds_no_round_and_the_session_goes_on(tmp_path: Path) -> None:
    done = run(["score", "--rules", "standard:moon=shooter-choice", "--names", "Al,Bo,Cy,Di"],
               b"26 0 0 0\nhelp\nquit\n1 2 3 20\nquit\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the moon's shooter chooses: s takes Al's points down" in done.stdout
    assert "error: the shooter's choice is needed; the round is not added" in done.stdout
    assert "1. Al +1 = 1, Bo +2 = 2, Cy +3 = 3, Di +20 = 20" in done.stdout


@pytest.mark.parametrize(("help_word", "quit_word"), [("help", "quit"), ("?", "q"),
                                                      ("?", "exit")])
def test_both_sessions_take_the_same_help_and_quit_words(help_word: str, quit_word: str,
                                                         tmp_path: Path) -> None:
    """One list of words for every prompt of both (``hearts.cli.common``): the text game
    once took neither ``q`` nor ``?``, where the score keeper took both."""
    given = f"{help_word}\n{quit_word}\n".encode()
    game = run(["play", "--text", "--seed", "1"], given, tmp_path)
    assert game.returncode == 0, game.stderr
    assert "Commands at any prompt:" in game.stdout and "You left the game." in game.stdout
    sheet = run(["score", "--names", "Al,Bo,Cy,Di"], given, tmp_path)
    assert sheet.returncode == 0, sheet.stderr
    assert "Commands: fix (enter the last round again)" in sheet.stdout


@pytest.mark.parametrize("args", [["play", "--text", "--seed", "1"],
                                  ["score", "--names", "Al,Bo,Cy,Di"], ["verify", "-"]])
def test_a_closed_standard_input_is_an_empty_one(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "HEARTS_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    command = " ".join([*CLI, *args]) + " <&-"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode in (0, 2), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_name_that_utf8_cannot_write_is_refused_when_typed() -> None:
    """A byte of another encoding reaches a name as a lone surrogate (Python's
    ``surrogateescape``); it once ended the session at the first save."""
    with pytest.raises(InvalidSheetError, match="a name is text that UTF-8 can write"):
        Sheet(Rules(), ("Jos\udce9", "Bo", "Cy", "Di"))


def test_ctrl_c_in_the_text_game_keeps_the_game_so_far(tmp_path: Path) -> None:
    """The record promise ("a --record file keeps the game so far") holds for Ctrl-C too,
    the way people stop a game (or a slow hint)."""
    record = tmp_path / "so-far.json"
    env = {**os.environ, "HEARTS_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    with subprocess.Popen([*CLI, "play", "--text", "--seed", "1", "--record", str(record)],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env,
                          # a test run started in the background ignores SIGINT, and
                          # its children would inherit that
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                          ) as game:
        assert game.stdout is not None
        shown = b""
        deadline = time.monotonic() + 60
        while b"Pass" not in shown and time.monotonic() < deadline:
            ready, _, _ = select.select([game.stdout], [], [], 1)
            if ready:
                shown += os.read(game.stdout.fileno(), 4096)
        assert b"Pass" in shown, shown
        game.send_signal(signal.SIGINT)
        out, err = game.communicate(timeout=60)
    assert game.returncode == 130, err
    assert b"Interrupted: the game stops here." in out and b"Saved the game so far" in out
    assert replay_record(json.loads(record.read_text(encoding="utf-8"))).round_no == 1


def test_a_line_is_read_in_the_inputs_encoding(tmp_path: Path) -> None:
    """A Latin-1 terminal's "José" is a name, as Python's own reading took it before."""
    env = {**os.environ, "HEARTS_HOME": str(tmp_path), "PYTHONIOENCODING": "latin-1"}
    done = subprocess.run([*CLI, "score", "--name", "club"], input=b"Jos\xe9,Bo,Cy,Di\n"
                          b"1 2 3 20\n", capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "players José, Bo, Cy, Di" in done.stdout.decode("latin-1")
