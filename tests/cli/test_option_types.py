"""Every number a command line takes is read by an argparse type of ``hearts.cli.common``
that names the values allowed (``positive_int``, ``non_negative_number``, ``fraction``,
``port_number``, ...), never by a bare ``int`` or ``float``: those take 0, negatives,
``nan`` and ``inf``, which a command then meets minutes in, or never notices; and every
seed is read by a type too. Checked on the parsers themselves, so a new option of any
command, benchmark or example is held to it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import pytest
from tests.players.benchmark_scripts import BENCHMARKS, EXAMPLES, load_script

from hearts.cli.common import fraction, non_negative_number, port_number, positive_number
from hearts.cli.main import build_parser, main


def untyped_options(parser: argparse.ArgumentParser) -> list[str]:
    """The options of ``parser`` and its subcommands read by a bare int or float (an option
    with fixed ``choices`` is bounded by them), and the seeds read by no type at all (a
    seed names files and joins a pool's list of seeds: ``$'\\xff'`` reached an encoder)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                found += untyped_options(command)
        elif (action.type in (int, float) and action.choices is None) or (
                action.dest == "seed" and action.type is None):
            found.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}")
    return found


def test_the_hearts_commands_type_every_number() -> None:
    assert untyped_options(build_parser()) == []


class _ParsingError(Exception):
    """Raised in place of parsing, carrying the parser."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


# the scripts with a command line (examples/external_bot.py speaks the bot protocol instead)
SCRIPTS = sorted(path for path in [*BENCHMARKS.glob("*.py"), *EXAMPLES.glob("*.py")]
                 if "argparse" in path.read_text())


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_script_types_every_number(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def captured(self: argparse.ArgumentParser, args: Sequence[str] | None = None,
                 namespace: argparse.Namespace | None = None) -> NoReturn:
        raise _ParsingError(self)

    module = load_script(path)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", captured)
    monkeypatch.setattr(sys, "argv", [path.name])
    with pytest.raises(_ParsingError) as parsing:
        module.main()
    assert untyped_options(parsing.value.parser) == []


@pytest.mark.parametrize(("argv", "says"), [
    (["serve", "--port", "99999"], "a port from 1 to 65535 is expected, not '99999'"),
    (["serve", "--rate-limit", "0"], "a number above 0 and at most 1,000,000 is expected, "
                                     "not '0'"),
    (["serve", "--lease", "nan"], "a number above 0 and at most 1,000,000 is expected, "
                                  "not 'nan'"),
    (["serve", "--grace", "-1"], "a number of at least 0 and at most 1,000,000 is expected, "
                                 "not '-1'"),
    (["serve", "--bot-delay", "inf"], "a number of at least 0 and at most 1,000,000 is "
                                      "expected, not 'inf'"),
    (["arena", "--deal-sets", "0"],
     "a whole number of at least 1 (at most 18 digits) is expected, not '0'"),
    # past 18 digits no number is read: the message says so, not "at least 1" alone
    (["simulate", "--games", "1000000000000000000"],
     "a whole number of at least 1 (at most 18 digits) is expected, not '1000000000000000000'"),
    (["analyze", "x.json", "--iterations", "99999999999999999999999"],
     "a whole number of at least 1 (at most 18 digits) is expected"),
    (["challenge", "new", "--deals", "999999"],
     "argument --deals: a number of deals from 1 to 20 is expected, not '999999'"),
    (["challenge", "new", "--iterations", "501"],
     "argument --iterations: a number of worlds from 1 to 500 is expected, not '501'"),
    (["arena", "--bot-timeout", "nan"], "a number above 0 and at most 1,000,000 is expected, "
                                        "not 'nan'"),
    # once accepted, then overflowed where used: a count of messages, a lock's timeout
    (["serve", "--rate-limit", "1e308"], "at most 1,000,000 is expected, not '1e308'"),
    (["arena", "--bot-start-timeout", "1e308"], "at most 1,000,000 is expected, not '1e308'"),
    # int() reads other scripts' digits and underscores; an option takes ASCII digits
    (["simulate", "--first", "\u0663"],
     "a whole number of at least 1 (at most 18 digits) is expected"),
    (["arena", "--deal-sets", "1_0"],
     "a whole number of at least 1 (at most 18 digits) is expected, not '1_0'"),
    (["analyze", "x.json", "--seats", "\u0660"], "seats are numbers from 0 separated by commas"),
    (["simulate", "--players", "\u0664"], "a player count from 2 to 6 is expected"),
    (["simulate", "--players", "0_4"], "a player count from 2 to 6 is expected, not '0_4'"),
    (["play", "--players", "9"], "a player count from 2 to 6 is expected, not '9'"),
    (["simulate", "--rules", "bogus"], "argument --rules: unknown preset 'bogus'"),
    # a byte of another encoding, as a shell passes $'\xff', once reached an encoder
    (["arena", "--bot", "random", "--seed", "\udcff"], "a seed is 1 to 64 letters"),
    (["challenge", "new", "--seed", "io"], "'i', 'o' cannot be in a code"),
])
def test_a_number_out_of_range_is_a_usage_message(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


def test_the_number_types_take_their_ranges() -> None:
    assert non_negative_number("0") == 0 and non_negative_number("2.5") == 2.5
    assert fraction("1") == 1 and fraction("0.25") == 0.25
    assert port_number("1") == 1 and port_number("65535") == 65535
    assert positive_number("1e-3") == 1e-3
    for read, text in [(fraction, "0"), (fraction, "1.01"), (fraction, "nan"),
                       (non_negative_number, "-0.5"), (non_negative_number, "x"),
                       (positive_number, "-inf")]:
        with pytest.raises(argparse.ArgumentTypeError, match="expected"):
            read(text)
    for text in ("0", "-1", "80.5", "http", "65536"):
        with pytest.raises(argparse.ArgumentTypeError, match="a port from 1 to 65535"):
            port_number(text)


def test_a_bounded_option_shows_its_range_in_its_help(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """A range refused in a usage message is one the help has already shown."""
    with pytest.raises(SystemExit):
        main(["challenge", "new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "how many deals, 1 to 20 (default: 4)" in text
    assert "worlds an expert opponent searches a decision, 1 to 500" in text
