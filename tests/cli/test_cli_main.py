"""The ``hearts`` entry point itself: help, commands loaded only when they run, and a
reader that goes away."""

import os
import subprocess
import sys

import pytest

from hearts.cli.main import COMMANDS, build_parser, main

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


HEAVY = ("textual", "numpy", "numba", "rich", "starlette", "uvicorn", "hearts.tui",
         "hearts.arena", "hearts.server", "hearts.players")


@pytest.mark.parametrize("args", [["--help"], ["rules"], ["rules", "standard"]])
def test_help_and_rules_load_no_other_command_and_nothing_heavy(args: list[str]) -> None:
    code = ("import sys\nfrom hearts.cli.main import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=True)
    loaded = done.stdout.splitlines()[-1].split()
    assert not [m for m in loaded if m.startswith(HEAVY)]
    commands = {m for m in loaded if m.startswith("hearts.cli.cmd_")}
    assert commands == ({"hearts.cli.cmd_rules"} if args[0] == "rules" else set())


# the positional arguments and required options of the commands that have any
REQUIRED = {"replay": ["game.json"], "verify": ["game.json"], "analyze": ["game.json"],
            "arena": ["--bot", "random"], "bot": ["random"], "challenge": ["new"]}


def test_every_command_has_its_summary_and_its_own_options() -> None:
    parser = build_parser()
    listing = parser.format_help()
    for name, command in COMMANDS.items():
        assert command.summary in " ".join(listing.split())
        args = parser.parse_args([name, *REQUIRED.get(name, [])])
        assert callable(args.func) and args.command == name


def test_the_text_game_loads_neither_textual_nor_numpy() -> None:
    code = ("import sys\nfrom hearts.cli.main import main\nmain(sys.argv[1:])\n"
            "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, "play", "--text", "--seed", "1"],
                          input="quit\n", capture_output=True, text=True, check=True)
    loaded = done.stdout.splitlines()[-1].split()
    assert not [m for m in loaded if m.startswith(("textual", "numpy", "numba"))]
