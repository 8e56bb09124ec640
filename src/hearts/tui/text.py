"""How cards and suits are written on screen: symbols (Q♠), or letters (QS) for
screen readers and terminals without the symbols (``--plain``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from hearts.core import SUIT_CHARS, SUIT_NAMES, SUIT_SYMBOLS, Card

__all__ = ["TextStyle"]

_TO_LETTERS: Final = str.maketrans(SUIT_SYMBOLS, SUIT_CHARS)


class TextStyle:
    """Writes cards, suits and messages with symbols or, when ``plain``, with letters."""

    def __init__(self, plain: bool = False) -> None:
        self.plain = plain

    def text(self, message: str) -> str:
        """A message with any suit symbol turned into its letter when plain."""
        return message.translate(_TO_LETTERS) if self.plain else message

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
