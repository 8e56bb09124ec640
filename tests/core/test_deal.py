"""The documented deal algorithm, re-implemented here from the docstring of deal.py."""

import hashlib
from collections.abc import Callable, Iterator

from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    DEAL_ALGORITHM,
    Rules,
    card_name,
    deal,
    deal_hands,
    new_game,
    round_deal_seed,
    shuffled_deck,
)


def _draws(deal_seed: str) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(deal_seed.encode() + block.to_bytes(8, "big")).digest()
        for i in range(8):
            yield int.from_bytes(digest[4 * i : 4 * i + 4], "big")
        block += 1


def _uniform_limit(bound: int) -> int:
    return 2**32 - 2**32 % bound


def _shuffle(cards: list[int], deal_seed: str,
             limit_of: Callable[[int], int] = _uniform_limit) -> list[int]:
    deck, draws = list(cards), _draws(deal_seed)
    for i in range(len(deck) - 1, 0, -1):
        limit = limit_of(i + 1)
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_documented_vector() -> None:
    # fixed by the algorithm's docstring; a change here breaks every stored record
    vector = ["TC", "9H", "JS", "9S", "5C", "QD", "7H", "QC", "KH", "JD", "2D", "AS"]
    assert [card_name(c) for c in _shuffle(list(range(52)), "vector/1")[:12]] == vector
    assert [card_name(c) for c in shuffled_deck((1 << 52) - 1, "vector/1")[:12]] == vector
    assert DEAL_ALGORITHM == "sha256-ctr-fisher-yates/1"


@given(st.text(max_size=20), st.sampled_from([("card-commons", 3), ("standard", 4),
                                              ("classic", 2), ("classic", 5), ("classic", 6)]))
def test_the_engine_deals_what_the_re_implementation_derives(seed: str, preset: tuple[str, int]
                                                            ) -> None:
    rules = Rules.preset_rules(*preset)
    cards = [c for c in range(52) if rules.deck >> c & 1]
    order = _shuffle(cards, seed)
    assert shuffled_deck(rules.deck, seed) == order
    hands = [0] * rules.players
    for k, card in enumerate(order):
        hands[k % rules.players] |= 1 << card
    assert deal_hands(rules, seed) == tuple(hands)


def test_a_game_deals_round_r_from_seed_slash_r() -> None:
    rules = Rules()
    state = new_game(rules, 42)
    assert round_deal_seed("42", 3) == "42/3"
    assert state.deal_seed == "42/1"
    assert tuple(state.dealt(s).mask for s in range(4)) == deal_hands(rules, "42/1")


def test_rejected_draws_are_skipped_and_the_stream_runs_on() -> None:
    # A real rejection comes about once in 80 million shuffles; with every limit cut to
    # a quarter of the range most draws are rejected, and a shuffle needs ~26 blocks.
    def quarter(bound: int) -> int:
        return 2**30 - 2**30 % bound

    limits = tuple(quarter(b) if b else 0 for b in range(53))
    for seed in ("vector/1", "a", "b/2"):
        shuffled = deal._shuffle(list(range(52)), seed, limits)
        assert shuffled == _shuffle(list(range(52)), seed, quarter)
