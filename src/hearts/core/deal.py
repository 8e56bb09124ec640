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
from collections.abc import Iterator
from typing import Final

from hearts.core.cards import iter_mask
from hearts.core.rules import Rules

__all__ = ["DEAL_ALGORITHM", "deal_hands", "round_deal_seed", "shuffled_deck"]

DEAL_ALGORITHM = "sha256-ctr-fisher-yates/1"
_WORDS: Final = struct.Struct(">56I")
# the largest multiple of each bound below 2**32: draws at or above it are rejected
_LIMITS: Final = tuple(2**32 - 2**32 % bound if bound else 0 for bound in range(53))


def round_deal_seed(game_seed: str, round_no: int) -> str:
    """The deal seed of a round (from 1) of a game seeded with ``game_seed``."""
    return f"{game_seed}/{round_no}"


@functools.lru_cache(maxsize=64)
def _deck_cards(deck_mask: int) -> tuple[int, ...]:
    """The cards of a deck in ascending order (few distinct decks: cached)."""
    return tuple(int(card) for card in iter_mask(deck_mask))


def _draws(deal_seed: str) -> Iterator[int]:
    """The draw stream, hashed seven blocks (56 draws, enough for a deck) at a time."""
    prefix = deal_seed.encode("utf-8")
    counter = 0
    while True:
        data = b"".join(hashlib.sha256(prefix + block.to_bytes(8, "big")).digest()
                        for block in range(counter, counter + 7))
        yield from _WORDS.unpack(data)
        counter += 7


def shuffled_deck(deck_mask: int, deal_seed: str) -> list[int]:
    """The cards of ``deck_mask`` shuffled by the documented algorithm."""
    deck = list(_deck_cards(deck_mask))
    draw = _draws(deal_seed).__next__
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = _LIMITS[bound]
        x = draw()
        while x >= limit:
            x = draw()
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
