"""The ``hearts`` entry point itself: help, and a reader that goes away."""

import os
import subprocess
import sys

import pytest

from hearts.cli.main import main

HEARTS = [sys.executable, "-m", "hearts.cli.main"]


def test_help_lists_every_command() -> None:
    done = subprocess.run([*HEARTS, "--help"], capture_output=True, text=True, check=True)
    for command in ("rules", "simulate", "replay", "play", "score", "serve", "verify",
                    "arena", "bot"):
        assert command in done.stdout


def test_a_closed_pipe_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``hearts rules | head -0``: the reading end is gone before anything is written.
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "w") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert main(["rules"]) == 141
