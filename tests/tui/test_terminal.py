"""The real ``hearts play`` command in a pseudo-terminal (80×24): start, quit, resume."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from hearts.core import SUIT_SYMBOLS

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


def run_in_terminal(args: list[str], steps: list[tuple[bytes, bytes]], home: Path,
                    **env_vars: str) -> str:
    """Run ``hearts`` on a pty; for each step wait until the screen shows the text, then
    type the key; return everything the program wrote."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "HEARTS_HOME": str(home), "TERM": "xterm-256color",
           "PYTHONIOENCODING": "utf-8", **env_vars}
    process = subprocess.Popen([sys.executable, "-m", "hearts.cli.main", *args],
                               stdin=follower, stdout=follower, stderr=follower, env=env,
                               close_fds=True)
    os.close(follower)
    output = b""
    deadline = time.monotonic() + 60

    def read_for(seconds: float) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 0.05)
            if ready:
                try:
                    output += os.read(leader, 65536)
                except OSError:
                    return

    try:
        for wait_for, key in steps:
            seen = len(output)
            while wait_for not in output[seen:] and time.monotonic() < deadline:
                read_for(0.1)
            os.write(leader, key)
        while process.poll() is None and time.monotonic() < deadline:
            read_for(0.2)
        read_for(0.2)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(leader)
    return output.decode("utf-8", "replace")


def test_hearts_play_opens_the_game_saves_on_quit_and_resumes(tmp_path: Path) -> None:
    args = ["play", "--seed", "21", "--rules", "card-commons:target=5", "--speed", "instant",
            "--name", "Ada"]
    first = run_in_terminal(args, [(b"Start", b"\r"), (b"Choose", b"q")], tmp_path)
    assert "The game is saved: continue it with  hearts play --resume" in first
    assert "Seed 21: play these deals again with hearts play --rules card-commons:target=5 " \
        "--seed 21" in first
    saved = tmp_path / "current-game.json"
    assert saved.exists()
    resumed = run_in_terminal(["play", "--resume"], [(b"Choose", b"q")], tmp_path)
    assert "Choose" in resumed and "Start" not in resumed  # straight back into the game
    assert "Ada" in resumed
    assert "The game is saved" in resumed


def test_hearts_play_plain_and_without_colour_shows_the_table_in_letters(tmp_path: Path) -> None:
    args = ["play", "--seed", "21", "--speed", "instant", "--plain"]
    out = run_in_terminal(args, [(b"Start", b"\r"), (b"Choose", b"q")], tmp_path, NO_COLOR="1")
    assert "Pass 3 left" in out and "gets your pass" in out and "passing" in out
    assert not any(symbol in out for symbol in SUIT_SYMBOLS + "▶")
    assert "The game is saved" in out


def test_hearts_score_opens_its_screen_in_a_terminal_without_colour(tmp_path: Path) -> None:
    steps = [(b"names", b"Ann, Bo, Cy, Di\r"), (b"Players: Ann", b"13 13 0 0\r"),
             (b"Round 1 added", b"\x11")]  # ctrl+q
    out = run_in_terminal(["score", "--name", "tty"], steps, tmp_path, NO_COLOR="1")
    assert "Round 1 added" in out
    sheet = json.loads((tmp_path / "sheets" / "tty.json").read_text())
    assert sheet["names"] == ["Ann", "Bo", "Cy", "Di"]
    assert sheet["rounds"][0]["totals"] == [13, 13, 0, 0]
