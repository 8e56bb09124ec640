"""The ``hearts score`` screen: type each round of a real game, see the sheet grow.

Every round is read by :mod:`hearts.scoresheet` and checked by
:class:`hearts.core.scorekeeper.Sheet`, which says exactly what is wrong with a round
that cannot happen; the sheet is saved after each change.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static

from hearts.core import HeartsError, MoonChoice, MoonChoiceNeededError, Sheet, format_sheet
from hearts.persistence import atomic_write_text, save_new_sheet, save_sheet, sheet_path
from hearts.scoresheet import (
    enter_round,
    entry_help,
    sheet_csv,
    sheet_markdown,
    start_sheet,
    winner_text,
)
from hearts.tui.dialogs import MoonScreen

__all__ = ["ScoreApp"]


class ScoreApp(App[None]):
    """Names first (unless given or reopened), then one line a round."""

    TITLE = "Card Commons Hearts: score sheet"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #sheet { height: 1fr; border: round $accent; }
    #message { height: auto; min-height: 2; }
    #help { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+f", "fix", "Fix last round", priority=True),
        Binding("ctrl+e", "export", "Export CSV+MD", priority=True),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(self, name: str, sheet: Sheet | None = None, rules_text: str = "card-commons",
                 names: list[str] | None = None, *, reopened: bool = False) -> None:
        super().__init__()
        self.sheet_name = name
        self.rounds_shown = -1  # the rounds the pane last scrolled to (a message leaves it)
        self.rules_text = rules_text
        self.sheet = sheet
        self.fixing = False
        # a reopened sheet is saved in place; a new one first when it has a round
        self.saved_to: Path | None = sheet_path(name) if reopened else None
        if sheet is None and names:
            self.sheet = start_sheet(rules_text, ", ".join(names))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="sheet"):
            yield Static(id="sheet-text", markup=False)
        yield Static(id="message", markup=False)
        yield Static(id="help", markup=False)
        yield Input(id="entry", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.show("")
        self.query_one("#entry", Input).focus()

    def prompt(self) -> str:
        if self.sheet is None:
            return "Players' names in seat order, separated by commas, then Enter"
        if self.fixing:
            return f"Round {len(self.sheet.results)} again (replaces it)"
        if self.sheet.is_over:
            return "The game is over (ctrl+f fixes the last round)"
        return f"Round {len(self.sheet.results) + 1}"

    def show(self, message: str) -> None:
        sheet = self.sheet
        if sheet is None:
            text = f"New sheet {self.sheet_name!r} ({self.rules_text})"
        else:
            text = (f"{self.sheet_name}: {sheet.rules.text}, to {sheet.rules.target}\n\n"
                    + format_sheet(sheet.results, sheet.names, sheet.winners))
            if sheet.is_over:
                text += "\nGame over."
        self.query_one("#sheet-text", Static).update(text)
        # how to type a round depends on the rules, known once the names are
        self.query_one("#help", Static).update("" if sheet is None else entry_help(sheet.rules))
        rounds = len(sheet.results) if sheet is not None else 0
        if rounds != self.rounds_shown:  # a round came or went: the newest rounds in view
            self.rounds_shown = rounds
            sheet_pane = self.query_one("#sheet", VerticalScroll)
            self.call_after_refresh(sheet_pane.scroll_end, animate=False)
        self.query_one("#message", Static).update(message)
        self.query_one("#entry", Input).placeholder = self.prompt()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            if self.sheet is None:
                self.sheet = start_sheet(self.rules_text, text)
                self.show(f"Players: {', '.join(self.sheet.names)}. The sheet is saved "
                          "from its first round.")
            else:
                self.enter_round(text, None)
        except MoonChoiceNeededError as moon:
            self.show(f"{moon} (choose in the dialog: s or a)")
            return
        except HeartsError as exc:
            self.show(f"Not added: {exc}")
            return
        event.input.value = ""

    def enter_round(self, text: str, choice: MoonChoice | None) -> None:
        sheet = self.sheet
        assert sheet is not None
        try:
            self.sheet = enter_round(sheet, text, choice, correct=self.fixing)
        except MoonChoiceNeededError as moon:
            def chosen(answer: MoonChoice | None) -> None:
                if answer is not None:
                    try:
                        self.enter_round(text, answer)
                    except HeartsError as exc:
                        self.show(f"Not added: {exc}")
                        return
                    self.query_one("#entry", Input).value = ""

            self.push_screen(MoonScreen(sheet.rules, sheet.names[moon.shooter]), chosen)
            raise
        fixed = self.fixing
        self.fixing = False
        self.saved(f"Round {len(self.sheet.results)} {'corrected' if fixed else 'added'}.")

    def saved(self, message: str) -> None:
        assert self.sheet is not None
        if self.saved_to is not None:
            path = save_sheet(self.sheet_name, self.sheet)
        else:
            taken, (self.sheet_name, path) = self.sheet_name, save_new_sheet(self.sheet_name,
                                                                             self.sheet)
            if self.sheet_name != taken:
                message += (f" A sheet named {taken!r} was saved meanwhile: this one is "
                            f"{self.sheet_name!r}.")
            self.saved_to = path
        end = f" {winner_text(self.sheet)}." if self.sheet.is_over else ""
        self.show(f"{message}{end} Saved to {path}.")

    def action_fix(self) -> None:
        if self.sheet is None or not self.sheet.results:
            self.show("There is no round to correct yet.")
            return
        self.fixing = not self.fixing
        self.show("Type the last round again." if self.fixing else "Not correcting.")

    def action_export(self) -> None:
        if self.sheet is None:
            self.show("Enter the players first.")
            return
        base = sheet_path(self.sheet_name)
        csv_path = atomic_write_text(base.with_suffix(".csv"), sheet_csv(self.sheet))
        md_path = atomic_write_text(base.with_suffix(".md"), sheet_markdown(self.sheet))
        self.show(f"Exported {csv_path} and {md_path}.")
