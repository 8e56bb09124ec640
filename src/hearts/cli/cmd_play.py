"""``hearts play``: a game against computer players (plain text, line by line)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hearts.cli.common import (
    DEFAULT_LEVEL,
    CommandLineError,
    add_rules_options,
    level_name,
    levels_text,
    new_seed,
    rules_from_args,
    seed_text,
    write_record,
)
from hearts.cli.textplay import Outcome, TextGame, seeded_record
from hearts.players.levels import make_player

__all__ = ["add_play_options", "read_line", "register", "run", "run_text"]

_MAX_NAME = 20


def add_play_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``hearts play`` in every mode (other modes add theirs after)."""
    add_rules_options(parser)
    parser.add_argument("--level", type=level_name, default=DEFAULT_LEVEL, metavar="LEVEL",
                        help=f"level of the computer players (default: {DEFAULT_LEVEL}; "
                             f"levels: {levels_text()})")
    parser.add_argument("--seed", type=seed_text, metavar="SEED",
                        help="seed of the deals and the computers (default: a random one, "
                             "printed so the game can be played again)")
    parser.add_argument("--name", default="You", help="your name on the score sheet")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="save the game's record here when it ends (or when you quit)")
    parser.add_argument("--text", action="store_true",
                        help="plain text, line by line (for now the only mode)")


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play", help="play a game against computer players",
        description="Play Hearts against computer players. Reads your answers line by line, "
                    "so it also runs from a script (the game stops cleanly where the input "
                    "ends); 'help' at any prompt lists the commands.")
    add_play_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play in the mode asked for (plain text is the only one so far)."""
    return run_text(args)


def run_text(args: argparse.Namespace) -> int:
    """The line-mode game on standard input and output."""
    rules = rules_from_args(args)
    name = args.name.strip()
    if not name or len(name) > _MAX_NAME:
        raise CommandLineError(f"--name must be 1 to {_MAX_NAME} characters, not {args.name!r}")
    seed: str = args.seed if args.seed is not None else new_seed()
    print(f"Seed {seed}: play these deals again with "
          f"hearts play --rules {rules.text} --seed {seed}", flush=True)
    computers = [make_player(args.level, f"{seed}/seat-{seat}")
                 for seat in range(1, rules.players)]
    game = TextGame(rules, seed, computers, name=name, read=read_line, write=print)
    outcome = game.play()
    if args.record is not None and game.state.history:
        write_record(args.record, seeded_record(game.state, seed, game.names))
        state = "the game" if outcome is Outcome.FINISHED else "the game so far"
        print(f"Saved {state} to {args.record}; check it with: hearts replay {args.record}")
    return 0


def read_line(prompt: str) -> str | None:
    """Prompt on standard output and read one line; None at end of input.

    When the input is not a terminal the answer is echoed, so a scripted game's
    output reads like a transcript.
    """
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        return None
    line = line.rstrip("\r\n")
    if not sys.stdin.isatty():
        sys.stdout.write(line + "\n")
    return line
