"""Entry point of the ``hearts`` command: each subcommand lives in its own module.

A command's module is imported only when that command runs: ``hearts --help`` and
``hearts rules`` then start without loading Textual, NumPy or the web server. The
one-line help of every command lives here, in :data:`COMMANDS`, so the command list
needs none of the modules.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Collection, Sequence
from typing import Final, NamedTuple

from hearts import __version__
from hearts.core import HeartsError

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


class Command(NamedTuple):
    """A subcommand: the module with ``configure(parser)`` (its options and ``func``), and
    its line in ``hearts --help``."""

    module: str
    summary: str


COMMANDS: Final = {
    "rules": Command("hearts.cli.cmd_rules", "list presets and rule options"),
    "simulate": Command("hearts.cli.cmd_simulate",
                        "play whole games between computer players and sum them up"),
    "replay": Command("hearts.cli.cmd_replay",
                      "check a game or hand record and print its score sheet"),
    "play": Command("hearts.cli.cmd_play", "play a game against computer players"),
    "score": Command("hearts.cli.cmd_score",
                     "keep the score sheet of a game played with a real deck"),
    "serve": Command("hearts.cli.cmd_serve",
                     "run the web server: play in the browser with friends and computers"),
    "verify": Command("hearts.cli.cmd_verify",
                      "check every deal of a game record against its published commitment"),
    "arena": Command("hearts.cli.cmd_arena",
                     "play bots against each other on duplicate deals and compare them"),
    "bot": Command("hearts.cli.cmd_bot", "run a built-in player as a bot-protocol program "
                                         "(JSON lines on stdin/stdout)"),
}


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: the ``commands`` named (default: all) with their options, the
    others with their one-line help only (enough to list them)."""
    parser = argparse.ArgumentParser(
        prog="hearts",
        description="Card Commons Hearts: play, simulate, replay and keep score.",
    )
    parser.add_argument("--version", action="version", version=f"hearts {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        sub = subparsers.add_parser(name, help=command.summary)
        if commands is None or name in commands:
            importlib.import_module(command.module).configure(sub)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not an option), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    name = _command_of(words)
    parser = build_parser(() if name is None else {name})
    args = parser.parse_args(words)
    if not hasattr(args, "func"):
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except HeartsError as exc:
        print(f"hearts: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``hearts simulate | head``): silence the final flush.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(main())
