"""Deals derived from a seed by a documented algorithm anyone can re-implement.

Algorithm (version 1):

1. The round's *deal seed* is text. A game seeded with ``S`` deals round ``r``
   (from 1) with the deal seed ``f"{S}/{r}"``.
2. A byte stream is SHA-256 in counter mode: block ``i`` is
   ``sha256(utf8(deal_seed) + i.to_bytes(8, "big"))`` for i = 0, 1, 2, ...
3. Draws are successive 4-byte big-endian unsigned integers from that stream.
4. The deck is the cards in play in ascending card number. A Fisher-Yates
   shuffle runs ``i`` from ``len(deck) - 1`` down to 1: draw ``x`` until
   ``x < 2**32 - 2**32 % (i + 1)`` (rejection keeps it uniform), then swap
   ``deck[i]`` and ``deck[x % (i + 1)]``.
5. Card ``k`` of the shuffled deck goes to seat ``k % players``.

Test vector: the full deck shuffled with deal seed ``vector/1`` begins
``TC 9H JS 9S 5C QD 7H QC KH JD 2D AS`` (``tests/core/test_deal.py`` re-derives it).
"""

from __future__ import annotations

import functools
import hashlib
import struct
from typing import Final

from hearts.core.cards import iter_mask
from hearts.core.rules import Rules

__all__ = ["DEAL_ALGORITHM", "deal_hands", "round_deal_seed", "shuffled_deck"]

DEAL_ALGORITHM = "sha256-ctr-fisher-yates/1"
_WORDS: Final = struct.Struct(">8I")
_RANGE: Final = 2**32


def round_deal_seed(game_seed: str, round_no: int) -> str:
    """The deal seed of a round (from 1) of a game seeded with ``game_seed``."""
    return f"{game_seed}/{round_no}"


@functools.lru_cache(maxsize=64)
def _deck_cards(deck_mask: int) -> tuple[int, ...]:
    """The cards of a deck in ascending order (few distinct decks: cached)."""
    return tuple(int(card) for card in iter_mask(deck_mask))


def _block(prefix: bytes, counter: int) -> tuple[int, ...]:
    """The eight draws of one SHA-256 block."""
    return _WORDS.unpack(hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest())


def shuffled_deck(deck_mask: int, deal_seed: str) -> list[int]:
    """The cards of ``deck_mask`` shuffled by the documented algorithm."""
    deck = list(_deck_cards(deck_mask))
    prefix = deal_seed.encode("utf-8")
    counter = 0
    words = _block(prefix, counter)
    used = 0
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = _RANGE - _RANGE % bound
        while True:
            if used == 8:
                counter += 1
                words = _block(prefix, counter)
                used = 0
            x = words[used]
            used += 1
            if x < limit:
                break
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_hands(rules: Rules, deal_seed: str) -> tuple[int, ...]:
    """Each seat's dealt hand as a mask."""
    deck = shuffled_deck(rules.deck, deal_seed)
    players = rules.players
    hands = []
    for seat in range(players):
        mask = 0
        for card in deck[seat::players]:
            mask |= 1 << card
        hands.append(mask)
    return tuple(hands)
