"""How cards and suits are written on screen: symbols (Q♠), or letters (QS) for
screen readers and terminals without the symbols (``--plain``); an action in words; and
the search's figures for a hint's candidates as a table; a hint asked for and written
out. Nothing here loads Textual, so the line-mode game (:mod:`hearts.cli.textplay`) asks
for its hints and writes them with the same words."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from hearts.core import (
    RANK_CHARS,
    SUIT_CHARS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Action,
    Card,
    ChooseMoon,
    PassCards,
    Play,
    PlayerView,
)

if TYPE_CHECKING:
    from hearts.players.search.player import CandidateFigures

__all__ = ["NO_HINTS_IN_CHALLENGE", "HintText", "TextStyle", "describe_action",
           "figures_table", "figures_text", "written_hint"]

NO_HINTS_IN_CHALLENGE: Final = "No hints in a challenge: everyone plays these cards alone."

_TO_LETTERS: Final = str.maketrans(SUIT_SYMBOLS, SUIT_CHARS)
# A card as the core's messages name it ("KS cannot be played"), to be written as the
# screen writes cards.
_CARD_NAME: Final = re.compile(rf"\b(?:10|[{RANK_CHARS}])[{SUIT_CHARS}]\b")


class TextStyle:
    """Writes cards, suits and messages with symbols or, when ``plain``, with letters."""

    def __init__(self, plain: bool = False) -> None:
        self.plain = plain

    def text(self, message: str) -> str:
        """A message with its cards written as the screen writes them: any suit symbol
        turned into its letter when plain, and otherwise a card the core names in letters
        (``KS``, as its refusals do) as its symbol (``K♠``)."""
        if self.plain:
            return message.translate(_TO_LETTERS)
        return _CARD_NAME.sub(lambda name: Card(name.group()).pretty, message)

    def card(self, card: Card) -> str:
        """``Q♠`` or, plain, ``QS`` (10 stays ``10``)."""
        return self.text(card.pretty)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces, or ``none``."""
        return " ".join(self.card(c) for c in cards) or "none"

    def suit(self, suit: int) -> str:
        """``♣ clubs`` or ``C clubs``."""
        mark = SUIT_CHARS[suit] if self.plain else SUIT_SYMBOLS[suit]
        return f"{mark} {SUIT_NAMES[suit]}"


def describe_action(action: Action, style: TextStyle) -> str:
    """An action in words: ``play Q♠``, ``pass Q♠ A♥ K♥``, ``subtract``."""
    if isinstance(action, Play):
        return f"play {style.card(action.card)}"
    if isinstance(action, PassCards):
        return f"pass {style.cards(action.cards)}"
    if isinstance(action, ChooseMoon):
        return action.choice.value
    return "deal"


@dataclass(frozen=True, slots=True)
class HintText:
    """A hint as a face shows it: the move (None when no hint came), the line that names it
    and its reason (or says why there is no hint), and the search's figures as lines
    (:func:`figures_text`; empty when the hint weighed no candidates)."""

    action: Action | None
    line: str
    figures: tuple[str, ...] = ()


def written_hint(view: PlayerView, style: TextStyle, moon_prefix: str = "") -> HintText:
    """Ask the strongest level for a hint on ``view`` and write it out; ``moon_prefix``
    goes before a moon choice's word (the line-mode game's "answer"). A hint that is not
    installed or that fails comes back as a line saying so: a hint never ends a game."""
    try:
        hints = importlib.import_module("hearts.players.hints")
    except ImportError:
        return HintText(None, "Hints unavailable (no expert hint module is installed).")
    try:
        found = hints.hint(view)
    except Exception as exc:  # a failing hint must not end the game
        return HintText(None, style.text(f"Hints unavailable: {exc}"))
    move = describe_action(found.action, style)
    if isinstance(found.action, ChooseMoon):
        move = moon_prefix + move
    figures = (tuple(figures_text(found.figures, found.chances, style))
               if found.figures else ())
    return HintText(found.action, style.text(f"Hint: {move}. {found.reason}"), figures)


_CHANCE_HEADINGS: Final = {"queen": "Q♠", "moon_mine": "your moon",
                           "moon_against": "others' moon", "game_lost": "game lost"}

_CHANCE_MEANINGS: Final = {"queen": "you take the Q♠", "moon_mine": "you shoot the moon",
                           "moon_against": "another player shoots the moon",
                           "game_lost": "the round ends the game and you do not win"}

_VALUE_NOTE: Final = ("value: what the search maximises, in points: the others' average "
                      "points this round minus yours, plus what the round does to your "
                      "chance of winning the game.")


def figures_text(figures: Sequence[CandidateFigures], chances: Sequence[str],
                 style: TextStyle) -> list[str]:
    """A hint's figures as a person reads them: a line that says what they are, the table
    (:func:`figures_table`) and what its columns mean."""
    return [f"The search's figures over the same {figures[0].worlds:,} deals, the hint "
            "first:", figures_table(figures, chances, style),
            _legend(figures, chances, style)]


def _legend(figures: Sequence[CandidateFigures], chances: Sequence[str],
            style: TextStyle) -> str:
    """What each column of the table means, and ``(= …)`` after a move when a row has
    one."""
    parts = ["points: the points you take this round, on average",
             *(f"{_CHANCE_HEADINGS[name]}: the chance that {_CHANCE_MEANINGS[name]}"
               for name in _CHANCE_HEADINGS if name in chances)]
    if any(f.alike for f in figures):
        parts.append("(= …): cards that play alike, weighed as one")
    return style.text(f"{_VALUE_NOTE} {'; '.join(parts)}.")


def figures_table(figures: Sequence[CandidateFigures], chances: Sequence[str],
                  style: TextStyle) -> str:
    """Every candidate's figures, in the order given (the hint's: its move first, then
    best first), one row each: the move, with the cards that play alike with it
    (``9♠ (= 10♠)``), the search's value, the expected points and a column for
    each of ``chances`` (the hint's, :func:`hearts.players.hints.shown_chances`), in
    the order of :data:`_CHANCE_HEADINGS`."""
    from hearts.players.hints import chance_percent  # figures exist only where hints do

    columns = [name for name in _CHANCE_HEADINGS if name in chances]
    table = [["move", "value", "points",
              *(style.text(_CHANCE_HEADINGS[name]) for name in columns)]]
    for f in figures:
        move = style.cards(f.cards) + (f" (= {style.cards(f.alike)})" if f.alike else "")
        table.append([move, f"{f.utility:+.1f}", f"{f.points:.1f}",
                      *(f"{chance_percent(getattr(f, name))}%" for name in columns)])
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    return "\n".join(
        "  ".join([row[0].ljust(widths[0]),
                   *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:],
                                                                 strict=True))])
        for row in table)
