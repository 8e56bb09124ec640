"""Choosing the cards to pass: guard or shed the Q♠, void a short suit, pass high cards."""

from __future__ import annotations

from hearts.core import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    Card,
    CardSet,
    cards_above,
    cards_below,
)
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased.moon import strong_moon_hand

__all__ = ["choose_pass", "queen_guards_needed"]

_ACE_KING_OF_SPADES = cards_above(QUEEN_OF_SPADES)


def queen_guards_needed(hand_size: int) -> int:
    """Low spades (below the Q♠) that make the Q♠, A♠ or K♠ safe to keep."""
    return max(2, (hand_size + 2) // 4)


def choose_pass(k: Knowledge, aggressive: bool = False) -> CardSet:
    """The cards to pass, most urgent first.

    1. With too few low spades, the Q♠ (unless its receiver taking it would end the
       game with me losing), then the A♠ and K♠, which would catch it.
    2. A short club or diamond suit, to make a void for discarding later.
    3. The highest remaining cards, high hearts first; low spades and low hearts stay.
    A hand strong enough to shoot the moon passes its lowest cards instead
    (``aggressive``: a hand that might).
    """
    count = k.view.rules.pass_count
    hand = k.hand
    if strong_moon_hand(k, aggressive):
        return CardSet(sorted(k.cards(hand), key=lambda c: (c.rank, c.suit == HEARTS))[:count])
    chosen = _dangerous_spades(k)[:count]
    left = hand & ~_mask(chosen)
    room = count - len(chosen)
    void_suit = _suit_to_void(k, left, room)
    if void_suit is not None:
        chosen += sorted(k.cards(left & SUIT_MASKS[void_suit]), reverse=True)
        left &= ~SUIT_MASKS[void_suit]
    rest = sorted(k.cards(left), key=lambda c: _keep_value(k, c))
    chosen += rest[: count - len(chosen)]
    return CardSet(chosen)


def _mask(cards: list[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _dangerous_spades(k: Knowledge) -> list[Card]:
    """Q♠, A♠, K♠ that the low spades cannot protect, in the order to pass them."""
    hand = k.hand
    guards = (hand & cards_below(QUEEN_OF_SPADES)).bit_count()
    if guards >= queen_guards_needed(k.view.rules.hand_size):
        return []
    found: list[Card] = []
    if hand & QUEEN_MASK and not _receiver_must_not_get_queen(k, guards):
        found.append(QUEEN_OF_SPADES)
    if not hand & QUEEN_MASK or found:
        found += sorted(k.cards(hand & _ACE_KING_OF_SPADES), reverse=True)
    return found


def _receiver_must_not_get_queen(k: Knowledge, guards: int) -> bool:
    """Keep a somewhat guarded Q♠ rather than hand it to the seat whose Q♠ points
    would end the game with me not winning."""
    receiver = k.view.pass_target
    return guards >= 1 and receiver is not None and k.queen_loses_game(receiver)


def _suit_to_void(k: Knowledge, left: int, room: int) -> int | None:
    """The shortest club or diamond suit that fits in the room left."""
    candidates = []
    for suit in (CLUBS, DIAMONDS):
        cards = left & SUIT_MASKS[suit]
        if 0 < cards.bit_count() <= room:
            candidates.append((cards.bit_count(), -cards.bit_length(), suit))
    return min(candidates)[2] if candidates else None


def _keep_value(k: Knowledge, card: Card) -> int:
    """Lower means pass sooner: high cards go, low spades and low hearts stay."""
    value = -10 * card.rank
    if card.suit == SPADES and card.rank < QUEEN_OF_SPADES.rank:
        value += 200 if k.queen_mine or k.hand & _ACE_KING_OF_SPADES else 60
    elif card.suit == SPADES and card != QUEEN_OF_SPADES:
        guarded = (k.hand & cards_below(QUEEN_OF_SPADES)).bit_count() >= queen_guards_needed(
            k.view.rules.hand_size)
        value += (100 if k.queen_mine else 40) if guarded else 0
    elif card == QUEEN_OF_SPADES:
        value += 500
    elif card.suit == HEARTS:
        value += 150 if card.rank < 5 else -20
    short = (k.hand & SUIT_MASKS[card.suit]).bit_count()
    return value + 3 * short
