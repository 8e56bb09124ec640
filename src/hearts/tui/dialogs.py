"""Modal screens: the score sheet, the shooter's choice, the end of the game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from hearts.core import MoonChoice, RoundResult, Rules, format_sheet, moon_points
from hearts.tui.text import TextStyle

__all__ = ["GameOverScreen", "MoonScreen", "TextScreen", "sheet_screen", "winners_text"]

_DIALOG_CSS = """
{name} {{ align: center bottom; }}
{name} > Vertical {{
    width: 78; height: auto; max-height: 22; border: round $accent; padding: 0 1;
    background: $panel;
}}
{name} VerticalScroll {{ height: auto; max-height: 14; }}
{name} .buttons {{ height: auto; }}
{name} Button {{ margin: 0 1 0 0; }}
"""


def winners_text(winners: Sequence[int], names: Sequence[str]) -> str:
    """``Winner: You`` or ``Winners (tied): You, Left``."""
    won = ", ".join(names[s] for s in winners)
    return f"Winners (tied): {won}" if len(winners) > 1 else f"Winner: {won}"


def moon_text(result: RoundResult, names: Sequence[str]) -> str:
    """The moon line of a round, or ''."""
    if result.shooter is None:
        return ""
    choice = result.moon_choice.value if result.moon_choice else "no choice"
    return f"{names[result.shooter]} shot the moon ({choice})."


class TextScreen(ModalScreen[None]):
    """A title, a scrolling text (a score sheet, the keys) and a Continue button."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="TextScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,s,space,question_mark", "close", "Continue")]

    def __init__(self, title: str, body: str, note: str = "", *, latest: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.note = note
        self.latest = latest  # a score sheet opens at its newest rounds, the keys at the top

    def on_mount(self) -> None:
        if self.latest:
            self.call_after_refresh(self.query_one(VerticalScroll).scroll_end, animate=False)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="dialog-title", markup=False)
            with VerticalScroll():
                yield Static(self.body, id="dialog-body", markup=False)
            if self.note:
                yield Static(self.note, id="dialog-note", markup=False)
            yield Button("Continue (Enter)", id="close", compact=True)

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def sheet_screen(title: str, results: Sequence[RoundResult], names: Sequence[str],
                 style: TextStyle, note: str = "") -> TextScreen:
    """The numbered score sheet; the last round's moon is spelled out."""
    moon = moon_text(results[-1], names) if results else ""
    body = style.text(format_sheet(results, names)) if results else "No round finished yet."
    return TextScreen(title, body, " ".join(part for part in (moon, note) if part),
                      latest=True)


class MoonScreen(ModalScreen[MoonChoice | None]):
    """The shooter's choice where the rules give one. Escape closes it unanswered (None):
    the choice is not made for the player, who may look at the table or the sheet first
    and is asked again."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="MoonScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "choose('subtract')", "Subtract"),
                Binding("a", "choose('add')", "Add"), Binding("escape", "later", "Not yet")]

    def __init__(self, rules: Rules, shooter: str = "You") -> None:
        super().__init__()
        self.moon = moon_points(rules)
        self.shooter = shooter

    def compose(self) -> ComposeResult:
        you = self.shooter == "You"
        whose = "your" if you else f"{self.shooter}'s"
        with Vertical():
            yield Static(f"{self.shooter} took every point card: {self.shooter} shot the moon!\n"
                         f"Subtract {self.moon} from {whose} score, or add {self.moon} "
                         "to everyone else's?", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"Subtract {self.moon} from {'me' if you else self.shooter} (s)",
                             id="subtract", compact=True)
                yield Button(f"Add {self.moon} to the others (a)", id="add", compact=True)
                yield Button("Not yet (Esc)", id="later", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "later":
            self.action_later()
        else:
            self.action_choose(str(event.button.id))

    def action_choose(self, choice: str) -> None:
        self.dismiss(MoonChoice(choice))

    def action_later(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """Winners, the final sheet and where the game record went."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="GameOverScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "finish('new')", "New game"), Binding("q", "finish('quit')", "Quit")]

    def __init__(self, results: Sequence[RoundResult], names: Sequence[str],
                 winners: Sequence[int], saved_to: Path | None, style: TextStyle) -> None:
        super().__init__()
        self.sheet = style.text(format_sheet(results, names, winners))
        # a position played without a dealer ends with its hand, before anyone has won
        self.headline = (f"Game over. {winners_text(winners, names)}" if winners
                         else "The hand is over; no next round is dealt.")
        self.saved = f"Game record saved to {saved_to}" if saved_to else ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.headline, id="winners", markup=False)
            with VerticalScroll():
                yield Static(self.sheet, markup=False)
            if self.saved:
                yield Static(self.saved, id="saved-to", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    def on_mount(self) -> None:
        # the final totals in view
        self.call_after_refresh(self.query_one(VerticalScroll).scroll_end, animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_finish(self, what: str) -> None:
        self.dismiss(what)
