"""Facts of play: who takes a trick, when hearts may be led, which cards a hand may
play, what a play shows about the hand it came from, and why a card is refused.

The engine decides legality and tricks through these functions, and players, hints and
faces ask them (mostly through :class:`~hearts.core.view.PlayerView`), so each fact is
stated once. A trick's led card is a card number, or ``NO_LEAD`` (-1) when the card in
question leads. Compiled with the engine (:mod:`hearts.core._native`)::

    >>> from hearts.core.cards import CardSet
    >>> from hearts.core.rules import Rules
    >>> facts = play_rules(Rules.parse("standard"))
    >>> trick_winner(2, (Card("3C"), Card("AC"), Card("KD"), Card("9C")), 4)  # A♣, seat 3
    3
    >>> CardSet(playable(facts, CardSet.parse("QS 5H 9D").mask, Card("2C"), True, False))
    CardSet.parse('9D')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hearts.core.cards import (
    HEART_MASK,
    HEARTS,
    POINT_MASK,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    card_name,
)
from hearts.core.rules import FirstLead, FirstTrick, HeartsLead, Rules

__all__ = [
    "NO_LEAD",
    "PlayRules",
    "breaks_hearts",
    "first_leader",
    "forced_reason",
    "hearts_open",
    "illegal_reason",
    "play_reveals",
    "play_rules",
    "playable",
    "points_barred",
    "trick_winner",
]

NO_LEAD: Final = -1

# The mask of the suit of each card: what a seat must follow when that card is led.
_SUIT_OF: Final = tuple(SUIT_MASKS[card // 13] for card in range(52))


class PlayRules:
    """The rule options that decide play, as plain attributes (read on every play)."""

    __slots__ = ("any_time", "lowest_bit", "lowest_lead", "no_points_first", "players",
                 "queen_opens")

    def __init__(self, rules: Rules) -> None:
        self.players: int = rules.players
        self.lowest_lead: bool = rules.first_lead is FirstLead.LOWEST_CLUB
        self.lowest_bit: int = 1 << rules.lowest_club if rules.deck & SUIT_MASKS[0] else 0
        self.no_points_first: bool = rules.first_trick is FirstTrick.NO_POINTS
        self.any_time: bool = rules.hearts_lead is HeartsLead.ANY_TIME
        self.queen_opens: bool = rules.hearts_lead is HeartsLead.AFTER_HEART_OR_QUEEN


_PLAY_RULES: Final[dict[Rules, PlayRules]] = {}


def play_rules(rules: Rules) -> PlayRules:
    """The play facts of a rule set (made once per rule set)."""
    facts = _PLAY_RULES.get(rules)
    if facts is None:
        facts = _PLAY_RULES[rules] = PlayRules(rules)
    return facts


def trick_winner(leader: int, cards: tuple[int, ...], players: int) -> int:
    """The seat that takes a trick, or wins it so far: the highest card of the suit led."""
    high: int = cards[0]
    led = high // 13
    best = 0
    for i in range(1, len(cards)):
        card: int = cards[i]
        if card > high and card // 13 == led:
            high = card
            best = i
    return (leader + best) % players


def breaks_hearts(card: int, led: int) -> bool:
    """Whether ``card`` played to a trick led with ``led`` breaks hearts: a heart
    *discarded* (002, 003), not one led or followed."""
    return card // 13 == HEARTS and led >= 0 and led // 13 != HEARTS


def hearts_open(rules: PlayRules, first: bool, broken: bool, queen_played: bool) -> bool:
    """Whether a heart may be led (a hand of only hearts may lead one regardless)."""
    if rules.any_time:
        return not first  # "at any time after the first trick"
    return broken or (rules.queen_opens and queen_played)


def points_barred(rules: PlayRules, first: bool) -> bool:
    """Whether hearts and the Q♠ are barred from this trick (the first, under
    ``first_trick=no-points``) unless a hand holds nothing else."""
    return first and rules.no_points_first


def playable(rules: PlayRules, hand: int, led: int, first: bool, open_: bool) -> int:
    """The cards of ``hand`` that may be played to a trick led with ``led``."""
    if led >= 0:
        follow = hand & _SUIT_OF[led]
        if follow:
            return follow
        if first and rules.no_points_first:
            return hand & ~POINT_MASK or hand
        return hand
    if first and rules.lowest_lead:
        return rules.lowest_bit
    allowed = hand
    if first and rules.no_points_first:
        allowed = hand & ~POINT_MASK or hand
    if not open_:
        allowed = allowed & ~HEART_MASK or allowed
    return allowed


def play_reveals(rules: PlayRules, card: int, led: int, first: bool, open_: bool) -> int:
    """The cards a seat cannot have held when it played ``card``: any one of them would
    have made the card illegal (the suit led it failed to follow, the other cards a
    heart lead or a point discard is allowed only without)."""
    bit = 1 << card
    shown = 0
    for other in range(52):
        if other != card and not playable(rules, bit | 1 << other, led, first, open_) & bit:
            shown |= 1 << other
    return shown


def first_leader(rules: PlayRules, held: Sequence[int], dealer: int) -> int:
    """The seat that leads a round's first trick: the lowest club's holder, or the seat
    left of the dealer (``held``: each seat's cards when play begins)."""
    if rules.lowest_lead:
        bit = rules.lowest_bit
        for seat in range(len(held)):
            if held[seat] & bit:
                return seat
    return (dealer + 1) % rules.players


def illegal_reason(rules: PlayRules, hand: int, card: int, led: int, first: bool) -> str:
    """Why ``card`` may not be played from ``hand`` now (it is not in ``playable``)."""
    if not hand >> card & 1:
        return "it is not in the hand"
    if led >= 0:
        return "you must follow suit" if hand & _SUIT_OF[led] else \
            "no heart or Q♠ on the first trick unless the hand holds only point cards"
    if first and rules.lowest_lead:
        return f"the first trick is led with {card_name(rules.lowest_bit.bit_length() - 1)}"
    if first and rules.no_points_first and (1 << card) & POINT_MASK:
        return "no points may be led on the first trick"
    return "hearts are not broken yet"


def forced_reason(rules: PlayRules, hand: int, card: int, led: int, first: bool) -> str:
    """Why ``card`` is the only card ``hand`` may play now."""
    name = Card(card).pretty
    suit = SUIT_NAMES[card // 13][:-1]
    if led >= 0 and hand & _SUIT_OF[led]:
        return f"You must follow suit, and the {name} is your only {suit}"
    if led < 0 and first and rules.lowest_lead:
        return f"The {name} must lead the first trick"
    if first and rules.no_points_first and hand & ~POINT_MASK and hand & POINT_MASK:
        return f"No points on the first trick: the {name} is your only card without points"
    if led < 0 and hand & HEART_MASK and hand & ~HEART_MASK:
        return f"Hearts are not open: the {name} is your only card that is not a heart"
    return f"The {name} is your only legal card"

