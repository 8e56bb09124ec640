"""Entry point of the ``hearts`` command: each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from hearts import __version__
from hearts.core.errors import HeartsError

__all__ = ["main"]

# Each module defines ``register(subparsers)`` which adds its parser with ``func``.
COMMANDS = (
    "hearts.cli.cmd_rules",
    "hearts.cli.cmd_simulate",
    "hearts.cli.cmd_replay",
    "hearts.cli.cmd_play",
    "hearts.cli.cmd_score",
    "hearts.cli.cmd_serve",
    "hearts.cli.cmd_verify",
    "hearts.cli.cmd_arena",
    "hearts.cli.cmd_bot",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="hearts",
        description="Card Commons Hearts: play, simulate, replay and keep score.",
    )
    parser.add_argument("--version", action="version", version=f"hearts {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
