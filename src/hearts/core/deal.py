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


def _blocks(deal_seed: str, start: int) -> tuple[int, ...]:
    """The draws of blocks ``start`` to ``start + 6``: 56 draws, enough for a whole deck
    unless a draw is rejected (about once in 80 million shuffles)."""
    seeded = hashlib.sha256(deal_seed.encode("utf-8"))
    digests = []
    for block in range(start, start + 7):
        hasher = seeded.copy()  # the seed is hashed once, not once a block
        hasher.update(block.to_bytes(8, "big"))
        digests.append(hasher.digest())
    return _WORDS.unpack(b"".join(digests))


def shuffled_deck(deck_mask: int, deal_seed: str) -> list[int]:
    """The cards of ``deck_mask`` shuffled by the documented algorithm."""
    return _shuffle(list(_deck_cards(deck_mask)), deal_seed, _LIMITS)


def _shuffle(deck: list[int], deal_seed: str, bound_limits: tuple[int, ...]) -> list[int]:
    """Steps 3 and 4 on ``deck`` in place. A draw for bound ``b`` is kept when below
    ``bound_limits[b]`` (a parameter so that a test can lower it and make rejections common)."""
    draws: tuple[int, ...] = ()
    used = 0
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        while True:
            if used == len(draws):
                draws += _blocks(deal_seed, used // 8)
            x = draws[used]
            used += 1
            if x < bound_limits[bound]:
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
