"""Points and the moon: the one place that turns cards taken into round points.

The game state and the real-deck scorekeeper both score through these functions,
so a house rule (J♦ −10) or a moon variant changes in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from hearts.core.cards import HEARTS, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, SUIT_MASKS
from hearts.core.rules import MoonRule, Rules

__all__ = [
    "HEART_MASK",
    "JACK_MASK",
    "POINT_MASK",
    "QUEEN_MASK",
    "MoonChoice",
    "card_points",
    "fixed_moon_choice",
    "moon_points",
    "moon_shooter",
    "round_points",
]

HEART_MASK: Final = SUIT_MASKS[HEARTS]
QUEEN_MASK: Final = 1 << QUEEN_OF_SPADES
JACK_MASK: Final = 1 << JACK_OF_DIAMONDS
POINT_MASK: Final = HEART_MASK | QUEEN_MASK


class MoonChoice(StrEnum):
    """What a moon shot does: take 26 off the shooter, or add 26 to every other player."""

    SUBTRACT = "subtract"
    ADD = "add"


def card_points(mask: int, rules: Rules) -> int:
    """Points of a pile of cards: each heart 1, Q♠ 13, J♦ -10 under that house rule."""
    points = (mask & HEART_MASK).bit_count()
    if mask & QUEEN_MASK:
        points += 13
    if rules.jack_of_diamonds and mask & JACK_MASK:
        points -= 10
    return points


def moon_points(rules: Rules) -> int:
    """The points of every heart and the Q♠ in the deck: what a moon shot is worth."""
    return card_points(rules.deck & POINT_MASK, rules)


def moon_shooter(taken: Sequence[int], rules: Rules) -> int | None:
    """The seat that took every heart in the deck and the Q♠, if one did (RULES.md note 5)."""
    every = rules.deck & POINT_MASK
    if not every:
        return None
    return next((seat for seat, mask in enumerate(taken) if mask & every == every), None)


def fixed_moon_choice(rules: Rules) -> MoonChoice | None:
    """The moon's effect where the rules fix it; None where the shooter chooses."""
    if rules.moon is MoonRule.SHOOTER_MINUS:
        return MoonChoice.SUBTRACT
    if rules.moon is MoonRule.OTHERS_PLUS:
        return MoonChoice.ADD
    return None


def round_points(taken: Sequence[int], rules: Rules, shooter: int | None = None,
                 choice: MoonChoice | None = None) -> tuple[int, ...]:
    """Each seat's round points from the cards it took, after a moon shot's choice.

    A moon replaces the hearts and Q♠ points (shooter −26 or others +26); a J♦
    taken still counts under that house rule.
    """
    if shooter is None or choice is None:
        return tuple(card_points(mask, rules) for mask in taken)
    moon = moon_points(rules)
    points = []
    for seat, mask in enumerate(taken):
        jack = card_points(mask & JACK_MASK, rules)
        if choice is MoonChoice.SUBTRACT:
            points.append(jack - (moon if seat == shooter else 0))
        else:
            points.append(jack + (0 if seat == shooter else moon))
    return tuple(points)
