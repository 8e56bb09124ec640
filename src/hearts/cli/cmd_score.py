"""``hearts score``: keep the score sheet of a game played with a real deck.

A Textual screen in a terminal; line-by-line prompts with ``--text``, as ``hearts play
--text`` plays (``--plain``, its old name, still works), or when standard input is not a
terminal (scripts). Each round is checked by :mod:`hearts.core.scorekeeper`, read and
written by :mod:`hearts.scoresheet`, and the sheet is saved after every change (a new
sheet from its first round, never over another).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from hearts.cli.common import HELP_WORDS, QUIT_WORDS, RULES_HELP, ask_line, rules_option
from hearts.core import (
    HeartsError,
    InvalidRoundError,
    InvalidSheetError,
    MoonChoice,
    Sheet,
    format_sheet,
)
from hearts.persistence import (
    free_sheet_name,
    import_sheet,
    list_sheets,
    load_sheet,
    names_sheet_file,
    read_sheet_file,
    save_new_sheet,
    save_sheet,
    sheet_path,
)
from hearts.scoresheet import (
    EXPORT_KINDS,
    add_entry,
    entry_help,
    export,
    start_sheet,
    winner_text,
)

__all__ = ["PlainScorekeeper", "configure", "run"]

_NAMES_HELP = ("Type the players' names in seat order, separated by commas (Ann, Bo, Cy, "
               "Di); quit to stop.")

_COMMANDS_HELP = ("Commands: fix (enter the last round again), sheet, csv, md, help, quit. "
                  "The sheet is saved after every round (a sheet with no round is not).")


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``score`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Keep score of a game played with your own deck: enter each "
                          "round, the sheet checks it adds up, keeps the totals and announces "
                          "the winners.")
    # the help of every --rules (hearts.cli.common.add_rules_options), and the count
    parser.add_argument("--rules", type=rules_option, default="card-commons", metavar="RULES",
                        help=f"{RULES_HELP}; the player count follows --names unless "
                             "the text states players=")
    parser.add_argument("--names", help="players' names separated by commas, seat order")
    parser.add_argument("--name", help="save the new sheet under this name, which no saved "
                                       "sheet may have (default: date and time)")
    parser.add_argument("--open", metavar="NAME", help="reopen a saved sheet; a sheet file "
                                                       "(a path, or NAME.json, as the phone "
                                                       "page downloads it) is first kept "
                                                       "among the saved sheets")
    parser.add_argument("--list", action="store_true", help="list the saved sheets")
    parser.add_argument("--export", choices=EXPORT_KINDS,
                        help="print the sheet (of --open NAME) in this form and exit")
    parser.add_argument("--text", "--plain", dest="text", action="store_true",
                        help="line-by-line prompts, as hearts play --text plays (automatic "
                             "when input is not a terminal); --plain, its old name, is "
                             "deprecated and still works (play's --plain shows letters)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open or start a sheet, then keep it through the Textual screen or plain prompts.

    A saved sheet is changed only when reopened with ``--open``: a new sheet never
    takes the file of another (``--name`` of a saved sheet is refused, and the default
    name, the date and time, gets ``-2``, ``-3``... when taken).
    """
    if args.list:
        for name in list_sheets():
            print(name)
        return 0
    if args.open and args.names and not args.export:  # refused before a file is kept
        raise InvalidSheetError("--names starts a new sheet; --open continues a saved one "
                                "with its own players")
    opened, sheet = _open_sheet(args.open, args.export) if args.open else (None, None)
    if args.export:
        if sheet is None:
            raise InvalidRoundError("--export needs --open NAME, the sheet to export")
        print(export(sheet, args.export), end="")
        return 0
    if opened is not None:
        name = opened
    elif args.name:
        if sheet_path(args.name).exists():
            raise InvalidSheetError(f"a sheet named {args.name!r} is saved already: continue "
                                    f"it with --open {args.name!r}, or choose another --name")
        name = args.name
    else:
        name = free_sheet_name(datetime.now().strftime("game-%Y-%m-%d-%H%M"))
    if sheet is None and args.names:
        sheet = start_sheet(args.rules, args.names)  # checks the names before any round
    if args.text or not sys.stdin.isatty():
        keeper = PlainScorekeeper(sys.stdin, sys.stdout, name, reopened=bool(args.open))
        return keeper.run(sheet, args.rules)
    from hearts.tui.score_app import ScoreApp  # Textual loads only for the full screen

    ScoreApp(name=name, sheet=sheet, rules_text=args.rules, reopened=bool(args.open)).run()
    return 0


def _open_sheet(text: str, export_only: str | None) -> tuple[str, Sheet]:
    """The saved sheet ``--open`` names, and its name. A sheet file is first kept among
    the saved sheets under a name of its own (not when it is only exported)."""
    if not names_sheet_file(text):
        return text, load_sheet(text)
    if export_only:
        return text, read_sheet_file(Path(text))
    name, path, sheet = import_sheet(Path(text))
    print(f"{text} is kept as the sheet {name!r} ({path}): reopen it with --open {name!r}")
    return name, sheet


class PlainScorekeeper:
    """Line-by-line prompts: one line a round, scriptable through standard input."""

    def __init__(self, stdin: TextIO, stdout: TextIO, name: str, *,
                 reopened: bool = False) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.name = name
        # where the sheet is saved: None until a new sheet's first round
        self.saved_to: Path | None = sheet_path(name) if reopened else None

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        line = ask_line(prompt, self.stdin, self.stdout)
        return None if line is None else line.strip()

    def ask_moon(self, shooter: str) -> MoonChoice:
        while True:
            answer = self.ask(f"{shooter} shot the moon: (s)ubtract from {shooter}, "
                              "or (a)dd to everyone else? ")
            if answer is None or answer.lower() in QUIT_WORDS:
                raise InvalidRoundError("the shooter's choice is needed; the round is not added")
            if answer.lower() in HELP_WORDS:
                self.say(f"the moon's shooter chooses: s takes {shooter}'s points down, a adds "
                         "them to everyone else's; quit leaves the round out")
                continue
            for choice in MoonChoice:
                if answer and choice.value.startswith(answer.lower()):
                    return choice
            self.say("answer s (subtract) or a (add)")

    def start(self, rules_text: str) -> Sheet | None:
        """Ask the players' names until they make a sheet (None at the end of input)."""
        while True:
            text = self.ask("Players' names, in seat order, separated by commas: ")
            if text is None or text.lower() in QUIT_WORDS:
                return None
            if text.lower() in HELP_WORDS:
                self.say(_NAMES_HELP)
                continue
            try:
                return start_sheet(rules_text, text)
            except HeartsError as exc:
                self.say(f"error: {exc}")

    def run(self, sheet: Sheet | None, rules_text: str) -> int:
        """Keep ``sheet`` (or a new one, names asked) until quit or the end of input."""
        sheet = sheet or self.start(rules_text)
        if sheet is None:
            self.say("No names entered: no sheet started.")
            return 0
        self.say(f"Sheet {self.name!r}: {sheet.rules.text}, to {sheet.rules.target}; "
                 f"players {', '.join(sheet.names)}")
        self.say(entry_help(sheet.rules))
        self.say(_COMMANDS_HELP)
        if sheet.results:
            self.say(format_sheet(sheet.results, sheet.names, sheet.winners))
        announced = False
        while True:
            if sheet.is_over and not announced:
                self.say(format_sheet(sheet.results, sheet.names, sheet.winners))
                self.say(f"Game over. {winner_text(sheet)}")
            announced = sheet.is_over
            prompt = "Game over (fix, sheet, csv, md, quit)> " if announced else \
                f"Round {len(sheet.results) + 1}> "
            line = self.ask(prompt)
            if line is None or line.lower() in QUIT_WORDS:
                break
            sheet = self.command(sheet, line)
        self.say(f"Saved to {self.saved_to}" if self.saved_to is not None
                 else "No round entered: no sheet saved.")
        return 0

    def save(self, sheet: Sheet) -> Path:
        """Save after a change; a new sheet's first save never replaces another's file."""
        if self.saved_to is not None:
            return save_sheet(self.name, sheet)
        taken, (self.name, path) = self.name, save_new_sheet(self.name, sheet)
        if self.name != taken:  # another ``hearts score`` saved that name meanwhile
            self.say(f"A sheet named {taken!r} was saved meanwhile; this one is {self.name!r}.")
        self.saved_to = path
        return path

    def command(self, sheet: Sheet, line: str) -> Sheet:
        """Run one typed line: a command, or a round to add."""
        word = line.lower()
        if not line:
            return sheet
        if word in HELP_WORDS:
            self.say(entry_help(sheet.rules))
            self.say(_COMMANDS_HELP)
            return sheet
        if word == "sheet":
            self.say(format_sheet(sheet.results, sheet.names, sheet.winners))
            return sheet
        if word in ("csv", "md"):
            self.say(export(sheet, word).rstrip("\n"))
            return sheet
        correct = word == "fix"
        if correct:
            if not sheet.results:
                self.say("error: there is no round to correct yet")
                return sheet
            line = self.ask(f"Round {len(sheet.results)} again> ") or ""
        try:
            sheet = add_entry(sheet, line, self.ask_moon, correct=correct)
        except HeartsError as exc:
            self.say(f"error: {exc}")
            return sheet
        try:
            self.save(sheet)
        except OSError as exc:
            self.say(f"error: the sheet could not be saved ({exc}); the round is kept here, "
                     "and the next round saves it again")
        result = sheet.results[-1]
        cells = []
        for seat, name in enumerate(sheet.names):
            moon = " (moon)" if result.shooter == seat else ""
            cells.append(f"{name} {result.points[seat]:+d}{moon} = {result.totals[seat]}")
        self.say(f"{result.round_no}. " + ", ".join(cells))
        return sheet
