"""Entry point of the ``hearts`` command: each subcommand lives in its own module.

A command's module is imported only when that command runs: ``hearts --help`` and
``hearts rules`` then start without loading Textual, NumPy or the web server. The
one-line help of every command lives here, in :data:`COMMANDS`, so the command list
needs none of the modules.

:func:`main` is every command's one error boundary (:data:`EXIT_HELP`): bad input of
any kind ends in one ``hearts: error:`` line and exit status 2, never a traceback; an
unexpected error is a bug, said as such in one line, its traceback written to a file
(or shown with ``HEARTS_DEBUG=1``), exit status 1. Output that cannot show the suit
symbols (a cp1252 console, ``PYTHONIOENCODING=ascii``) gets letters instead.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import os
import sys
import tempfile
import traceback
from collections.abc import Collection, Sequence
from typing import Final, NamedTuple, TextIO

from hearts import __version__
from hearts.core import HeartsError

__all__ = ["COMMANDS", "DEBUG_ENV", "EXIT_HELP", "Command", "build_parser", "main",
           "symbols_fit"]

DEBUG_ENV: Final = "HEARTS_DEBUG"
EXIT_HELP: Final = (
    "Exit status: 0 done; 2 a usage error or bad input, such as a file that is no record "
    "(one 'hearts: error:' line says what and what is allowed); 1 a record that a check "
    "found wrong (replay, verify, challenge check and submit say what), a bot that failed "
    "in 'arena --strict', or an internal error, a bug (one line says where its traceback "
    "was written; "
    f"{DEBUG_ENV}=1 shows it instead); 130 interrupted.")
_LETTERS: Final = {"♣": "C", "♦": "D", "♠": "S", "♥": "H", "♧": "C", "♢": "D", "♤": "S",
                   "♡": "H", "…": "...", "−": "-", "–": "-", "—": "-"}
_LETTERS_HANDLER: Final = "hearts-letters"


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
                      "check a game or hand record and print its score sheet, or step "
                      "through it (--step)"),
    "play": Command("hearts.cli.cmd_play", "play a game against computer players"),
    "score": Command("hearts.cli.cmd_score",
                     "keep the score sheet of a game played with a real deck"),
    "serve": Command("hearts.cli.cmd_serve",
                     "run the web server: play in the browser with friends and computers"),
    "verify": Command("hearts.cli.cmd_verify",
                      "check a game record's deals (against their commitments or seed) and "
                      "replay its play"),
    "arena": Command("hearts.cli.cmd_arena",
                     "play bots against each other on duplicate deals and compare them"),
    "stats": Command("hearts.cli.cmd_stats",
                     "your statistics in the terminal game, from the games it keeps"),
    "analyze": Command("hearts.cli.cmd_analyze",
                       "judge every decision of a game record with the expert search"),
    "bot": Command("hearts.cli.cmd_bot", "run a built-in player as a bot-protocol program "
                                         "(JSON lines on stdin/stdout)"),
    "challenge": Command("hearts.cli.cmd_challenge",
                         "make, show, check and submit duplicate challenges"),
}


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: the ``commands`` named (default: all) with their options, the
    others with their one-line help only (enough to list them)."""
    parser = argparse.ArgumentParser(
        prog="hearts",
        description="Card Commons Hearts: play, simulate, replay and keep score.",
        epilog=EXIT_HELP,
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
    """Run the command line; returns the exit status (see :data:`EXIT_HELP`)."""
    _fit_streams()
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        name = _command_of(words)
        parser = build_parser(() if name is None else {name})
        args = parser.parse_args(words)
        if not hasattr(args, "func"):
            parser.print_help()
            return 0
        status: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``hearts simulate | head``): silence the final flush.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except (HeartsError, OSError, UnicodeError, RecursionError) as exc:
        print(f"hearts: error: {_input_error_text(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # anything else is a bug: said as such, traceback kept
        print(f"hearts: internal error (a bug, please report it): {type(exc).__name__}: "
              f"{exc}; {_keep_traceback()}", file=sys.stderr)
        return 1
    return status


def _input_error_text(exc: BaseException) -> str:
    """One line for an error caused by what the user gave (arguments, files, streams)."""
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read"
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename is not None else ""
        return f"{where}{exc.strerror}"
    if isinstance(exc, UnicodeDecodeError):
        return f"the input is not UTF-8 text ({exc.reason} at byte {exc.start})"
    return str(exc) or type(exc).__name__


def _keep_traceback() -> str:
    """Show the current exception's traceback (``HEARTS_DEBUG=1``) or write it to a file;
    says where it went."""
    text = traceback.format_exc()
    if os.environ.get(DEBUG_ENV):
        sys.stderr.write(text)
        return "its traceback is above"
    try:
        fd, path = tempfile.mkstemp(prefix="hearts-crash-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError:
        return f"run it again with {DEBUG_ENV}=1 to see the traceback"
    return f"the traceback is in {path}"


def symbols_fit(stream: TextIO) -> bool:
    """Whether ``stream`` can show the suit symbols ♣♦♠♥ (a UTF-8 terminal or pipe can;
    a cp1252 Windows console or ``PYTHONIOENCODING=ascii`` cannot)."""
    try:
        "♣♦♠♥".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _fit_streams() -> None:
    """Where standard output or error cannot show the suit symbols, write letters (``QS``
    for ``Q♠``) and ``?`` for any other character it cannot show, instead of failing; a
    closed standard input (``<&-``) reads as an empty one, the end of input every
    command already answers."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the process
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not symbols_fit(stream):
            codecs.register_error(_LETTERS_HANDLER, _as_letters)
            stream.reconfigure(errors=_LETTERS_HANDLER)


def _as_letters(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler of :func:`_fit_streams`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    return "".join(_LETTERS.get(char, "?") for char in text), error.end


if __name__ == "__main__":
    sys.exit(main())
