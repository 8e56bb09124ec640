"""Points and the moon: the one place that turns cards taken into round points.

The game state and the real-deck scorekeeper both score through these functions,
so a house rule (J♦ −10) or a moon variant changes in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from hearts.core.cards import HEART_MASK, JACK_MASK, QUEEN_MASK
from hearts.core.rules import MoonRule, Rules

__all__ = [
    "MoonChoice",
    "card_points",
    "fixed_moon_choice",
    "game_over",
    "game_winners",
    "moon_points",
    "moon_shooter",
    "points_left",
    "round_points",
]


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
    return card_points(rules.point_cards, rules)


def points_left(rules: Rules, played: int) -> int:
    """Points of the hearts and Q♠ not yet played this round (``played``: a card mask)."""
    return card_points(rules.point_cards & ~played, rules)


def moon_shooter(taken: Sequence[int], rules: Rules) -> int | None:
    """The seat that took every heart in the deck and the Q♠, if one did (RULES.md note 5)."""
    every = rules.point_cards
    if not every:
        return None
    return next((seat for seat, mask in enumerate(taken) if mask & every == every), None)


def game_over(totals: Sequence[int], rules: Rules, rounds_played: int) -> bool:
    """Whether the game ends with these totals after round ``rounds_played`` (rounds are
    numbered from 1): someone reached the target, or it was the last of ``rules.rounds``."""
    return max(totals) >= rules.target or rules.final_round(rounds_played)


def game_winners(totals: Sequence[int], rules: Rules, rounds_played: int) -> tuple[int, ...]:
    """The seats tied for the lowest total once the game is over after round
    ``rounds_played``; empty while it goes on."""
    if not game_over(totals, rules, rounds_played):
        return ()
    best = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


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
