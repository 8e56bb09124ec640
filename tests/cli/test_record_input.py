"""Every command that reads a record answers one that is no record at all (cut short,
empty) as bad input, through the real command line: one ``hearts: error:`` line and exit
status 2, never 1, which ``hearts --help`` keeps for a record a check found wrong and for
a bug (``hearts replay`` once exited 1 here while ``verify`` and ``analyze`` exited 2)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from hearts.cli.main import build_parser
from hearts.core import Rules, game_record
from hearts.players import RandomPlayer, play_game

# each command that reads a record, with what it needs besides the record
READERS = {
    "replay": [],
    "verify": [],
    "analyze": [],
    "challenge check": [],
    "challenge submit": ["--server", "http://127.0.0.1:9"],  # refused before any request
}
RECORD_METAVARS = {"RECORD"}  # one name for a game record in every command


def _record_commands(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """The (sub)commands whose positional argument is a record to read."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                found |= _record_commands(command, f"{prefix} {name}".strip())
        elif not action.option_strings and action.metavar in RECORD_METAVARS:
            found.add(prefix)
    return found


def test_the_loop_below_covers_every_command_that_reads_a_record() -> None:
    assert _record_commands(build_parser()) == set(READERS)


def _truncated(tmp_path: Path) -> Path:
    rules = Rules.parse("standard:target=30")
    text = json.dumps(game_record(play_game(rules, [RandomPlayer(s) for s in range(4)], "t")))
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    return path


@pytest.mark.parametrize("command", list(READERS))
@pytest.mark.parametrize("given", ["a file cut short", "empty standard input"])
def test_a_record_that_is_no_record_exits_2_in_one_line(hearts_cli, tmp_path: Path,
                                                        command: str, given: str) -> None:
    where = str(_truncated(tmp_path)) if given == "a file cut short" else "-"
    done = hearts_cli(*command.split(), where, *READERS[command], stdin="")
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.startswith("hearts: error: ") and "not JSON" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and done.stdout == ""


def test_replay_step_refuses_a_file_cut_short_the_same(hearts_cli, tmp_path: Path) -> None:
    done = hearts_cli("replay", "--step", str(_truncated(tmp_path)))
    assert done.returncode == 2 and done.stderr.startswith("hearts: error: ")
    assert "not JSON" in done.stderr and len(done.stderr.splitlines()) == 1
