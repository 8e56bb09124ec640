"""The help of every command says alike what is alike (a newcomer's audit found it
uneven): a description for every command, one name for a game record, one wording for
standard input, help for every argument, one help for ``--rules``, and a group command
given alone shows its help as ``hearts`` alone does. The example training scripts show
their defaults."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearts.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _commands(parser: argparse.ArgumentParser, prefix: str = ""
              ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every (sub)command's name and parser, under ``hearts``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                named = f"{prefix} {name}".strip()
                yield named, command
                yield from _commands(command, named)


def _arguments() -> Iterator[tuple[str, argparse.Action]]:
    for name, command in _commands(build_parser()):
        for action in command._actions:
            if not isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)):
                yield name, action


def test_every_command_has_a_description_paragraph() -> None:
    missing = [name for name, command in _commands(build_parser())
               if not (command.description or "").strip()]
    assert missing == []


def test_every_argument_has_help() -> None:
    missing = [(name, action.metavar or action.dest) for name, action in _arguments()
               if not (action.help or "").strip()]
    assert missing == []


def test_a_game_record_is_named_record_wherever_one_is_read() -> None:
    readers = {name: action.metavar for name, action in _arguments()
               if not action.option_strings and "record" in (action.help or "")}
    assert set(readers) == {"replay", "verify", "analyze", "challenge check",
                            "challenge submit"}
    assert set(readers.values()) == {"RECORD"}, readers


def test_standard_input_is_worded_one_way() -> None:
    helps = {name: action.help for name, action in _arguments()
             if "stdin" in (action.help or "") or "- reads" in (action.help or "")}
    assert helps, "the record readers say that - reads standard input"
    assert all("- reads standard input" in text and "stdin" not in text
               for text in helps.values()), helps


def _help_of(parser: argparse.ArgumentParser, option: str) -> str:
    action = next(a for a in parser._actions if option in a.option_strings)
    return " ".join((action.help or "").split())


def test_score_rules_has_the_help_every_rules_option_has() -> None:
    commands = dict(_commands(build_parser()))
    shared = _help_of(commands["play"], "--rules")
    assert _help_of(commands["simulate"], "--rules") == shared
    assert _help_of(commands["score"], "--rules").startswith(shared.rstrip(")"))


def test_score_line_mode_is_text_as_in_play_and_plain_still_works() -> None:
    score = dict(_commands(build_parser()))["score"]
    text = next(a for a in score._actions if "--text" in a.option_strings)
    assert "--plain" in text.option_strings  # the old name, kept working
    assert "--plain" in (text.help or "") and "old name" in (text.help or "")
    assert score.parse_args(["--plain"]).text and score.parse_args(["--text"]).text


def test_play_plain_is_not_said_to_be_full_screen_only() -> None:
    play = dict(_commands(build_parser()))["play"]
    plain = _help_of(play, "--plain")
    assert not plain.startswith("full screen") and "--text" in plain
    assert _help_of(play, "--resume").startswith("full screen")


def test_a_group_command_alone_prints_its_help_and_exits_0(hearts_main) -> None:
    status, out, err = hearts_main()
    assert status == 0 and out.startswith("usage: hearts ") and err == ""
    status, out, err = hearts_main("challenge")
    assert (status, err) == (0, "")
    assert out.startswith("usage: hearts challenge ") and "submit" in out


def _option_helps(script: str, *command: str) -> dict[str, str]:
    """Each option of an example script's ``--help``, with its help text in one line."""
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script), *command,
                           "--help"], capture_output=True, text=True, check=True,
                          timeout=120)
    body = done.stdout.split("options:", 1)[1]
    helps: dict[str, str] = {}
    option = None
    for line in body.splitlines():
        if line.startswith("  -"):
            head, *text = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            option = head.split()[0].rstrip(",")
            helps[option] = " ".join(text)
        elif option is not None and line.startswith(" " * 4):
            helps[option] = f"{helps[option]} {line.strip()}".strip()
        else:
            option = None
    helps.pop("-h", None)
    return helps


@pytest.mark.parametrize(("script", "command", "no_default"), [
    ("train_policy.py", (), set()),
    ("train_playout.py", ("collect",), {"--out"}),
    ("train_playout.py", ("observe",), {"--out"}),
    ("train_playout.py", ("fit",), set()),
])
def test_the_training_examples_say_what_each_option_does_and_its_default(
        script: str, command: tuple[str, ...], no_default: set[str]) -> None:
    helps = _option_helps(script, *command)
    assert helps
    assert [option for option, text in helps.items() if not text] == []
    assert [option for option, text in helps.items()
            if option not in no_default and "default" not in text] == []
