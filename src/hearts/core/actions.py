"""The engine's value types: the actions it takes and the tricks and round results it gives.

They stay plain interpreted Python even where the engine is compiled
(:mod:`hearts.core._native`): callers build them, and building one must accept any
field values so that ``GameState.apply`` can refuse a bad one with its typed error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from hearts.core.cards import Card, CardSet
from hearts.core.deal import deal_hands
from hearts.core.rules import Rules
from hearts.core.scoring import MoonChoice

__all__ = ["Action", "ChooseMoon", "Deal", "PassCards", "Play", "RoundResult", "Trick"]


@dataclass(frozen=True, slots=True)
class Deal:
    """Give every seat its cards for the next round (the authority's action)."""

    hands: tuple[CardSet, ...]
    seed: str | None = None

    @classmethod
    def from_seed(cls, rules: Rules, deal_seed: str) -> Deal:
        """The deal the documented algorithm derives from a deal seed."""
        return cls(tuple(CardSet(h) for h in deal_hands(rules, deal_seed)), deal_seed)


@dataclass(frozen=True, slots=True)
class PassCards:
    """A seat's choice of cards to pass this round."""

    seat: int
    cards: CardSet


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays one card to the current trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ChooseMoon:
    """The shooter's decision where the rules give a choice."""

    seat: int
    choice: MoonChoice


Action: TypeAlias = Deal | PassCards | Play | ChooseMoon


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who took it (a tuple: one is
    made every trick, and a frozen dataclass costs several times as much to build)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One line of the score sheet."""

    round_no: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None = None
    moon_choice: MoonChoice | None = None
