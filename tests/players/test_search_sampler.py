"""The world sampler deals only what the seat cannot see, to seats that may hold it."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from search_positions import ALL_TABLES, random_position

from hearts.core import (
    QUEEN_MASK,
    SUIT_MASKS,
    Card,
    CardSet,
    GameState,
    Play,
    Rules,
    new_hand,
    view,
)
from hearts.players.search.kernel import NO_QUEEN, mix_seed, sample_hands
from hearts.players.search.sampler import HiddenInfo

positions = st.builds(
    lambda text, seed, plays, offset: (Rules.parse(text), seed, plays, offset),
    st.sampled_from([*ALL_TABLES, "standard:first_lead=dealer-left",
                     "classic:players=3,hearts_lead=after-heart-or-queen"]),
    st.integers(0, 10_000),
    st.integers(0, 52),
    st.integers(0, 5),
)


def _position(rules: Rules, seed: int, plays: int, offset: int) -> tuple[GameState, int]:
    state = random_position(rules, seed, plays)
    return state, (state.to_act[0] + offset) % rules.players


def _suits(mask: int) -> set[int]:
    return {suit for suit in range(4) if mask & SUIT_MASKS[suit]}


@given(positions)
def test_facts_hold_for_the_true_deal(case: tuple[Rules, int, int, int]) -> None:
    """Every fact the sampler uses is true of the real hands (voids shown or forced by the
    rules, cards I passed, hand sizes), so the real deal is always a possible world."""
    state, seat = _position(*case)
    info = HiddenInfo.of(view(state, seat))
    for other in range(state.players):
        if other == seat:
            continue
        hand = state.hand(other).mask
        assert not _suits(hand) & {s for s in range(4) if info.facts[other] >> s & 1}
        assert not (info.facts[other] >> NO_QUEEN & 1 and hand & QUEEN_MASK)
        assert info.fixed[other] & ~hand == 0
        assert info.need[other] == len(state.hand(other))
        assert hand & ~info.fixed[other] & ~info.unseen == 0
    assert info.facts_only().feasible()


@given(positions, st.integers(0, 2**32 - 1))
def test_samples_respect_every_fact(case: tuple[Rules, int, int, int], seed: int) -> None:
    """Each world gives every seat its hand size, no card of a shown void, the cards I
    passed to their receiver, my own hand to me, and only cards I have not seen."""
    state, seat = _position(*case)
    table = view(state, seat)
    info = HiddenInfo.of(table).consistent()
    rng = random.Random(seed)
    for _ in range(5):
        world = info.sample(rng)
        assert world[seat] == table.hand.mask
        seen_together = 0
        for other, hand in enumerate(world):
            assert hand.bit_count() == table.hand_sizes[other]
            assert hand & seen_together == 0
            seen_together |= hand
            if other != seat:
                assert hand & ~(info.unseen | info.fixed[other]) == 0
                assert info.fixed[other] & ~hand == 0
                assert not _suits(hand) & set(table.voids()[other])
                dealt = hand & ~info.fixed[other]
                assert not (info.voids[other] >> NO_QUEEN & 1 and dealt & QUEEN_MASK)
        assert seen_together & table.played.mask == 0
        assert seen_together == table.hand.mask | info.unseen | int(info.fixed.sum())


@given(positions, st.integers(0, 2**32 - 1), st.data())
def test_finds_a_deal_whenever_one_exists(case: tuple[Rules, int, int, int], seed: int,
                                          data: st.DataObject) -> None:
    """With voids chosen at will among the suits a seat really lacks (so the true deal
    fits them), the sampler still finds a valid deal every time: it never gets stuck."""
    state, seat = _position(*case)
    info = HiddenInfo.of(view(state, seat))
    voids = np.zeros(state.players, dtype=np.int64)
    for other in range(state.players):
        if other != seat:
            lacking = [s for s in range(4) if not state.hand(other).mask & SUIT_MASKS[s]]
            if not state.hand(other).mask & QUEEN_MASK:
                lacking.append(NO_QUEEN)
            for suit in data.draw(st.lists(st.sampled_from(lacking), unique=True)
                                  if lacking else st.just([])):
                voids[other] |= 1 << suit
    out = np.zeros(state.players, dtype=np.int64)
    for stream in range(5):
        rng = np.array([mix_seed(seed, stream)], dtype=np.int64)
        assert sample_hands(state.players, seat, info.unseen, info.need, voids, info.fixed,
                            rng, out)
        for other in range(state.players):
            if other != seat:
                assert not _suits(int(out[other])) & {s for s in range(4) if voids[other] >> s & 1}
                assert not (voids[other] >> NO_QUEEN & 1 and out[other] & QUEEN_MASK)
                assert int(out[other]).bit_count() == info.need[other]


def test_impossible_facts_are_reported() -> None:
    """Two seats void in the only suit left: no deal, and the sampler says so."""
    need = np.array([0, 2, 2], dtype=np.int64)
    voids = np.array([0, 0b0001, 0b0001], dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    rng = np.array([mix_seed(1, 0)], dtype=np.int64)
    assert not sample_hands(3, 0, 0b1111, need, voids, np.zeros(3, dtype=np.int64), rng, out)


def test_one_void_suit_is_dealt_uniformly() -> None:
    """With one void suit (most-constrained suit first) every valid deal is equally
    likely: 6 cards among three seats of 2, seat 1 void in hearts."""
    cards = [0, 1, 13, 39, 40, 41]  # 2♣ 3♣ 2♦ 2♥ 3♥ 4♥
    unseen = sum(1 << c for c in cards)
    need = np.array([0, 2, 2, 2], dtype=np.int64)
    voids = np.array([0, 0b1000, 0, 0], dtype=np.int64)
    fixed = np.zeros(4, dtype=np.int64)
    valid = []
    for first in itertools.combinations(cards, 2):
        rest = [c for c in cards if c not in first]
        for second in itertools.combinations(rest, 2):
            if not any(c >= 39 for c in first):
                valid.append((sum(1 << c for c in first), sum(1 << c for c in second)))
    counts: Counter[tuple[int, int]] = Counter()
    out = np.zeros(4, dtype=np.int64)
    rng = np.array([mix_seed(7, 0)], dtype=np.int64)
    draws = 300 * len(valid)
    for _ in range(draws):
        assert sample_hands(4, 0, unseen, need, voids, fixed, rng, out)
        counts[int(out[1]), int(out[2])] += 1
    assert set(counts) == set(valid)
    expected = draws / len(valid)
    # 300 expected per deal: a count off by more than 5 standard deviations is a bias.
    assert all(abs(count - expected) < 5 * expected ** 0.5 for count in counts.values())


def test_a_seat_that_keeps_the_queen_when_it_could_shed_it_is_taken_not_to_hold_it() -> None:
    """Seat 2, void in diamonds, discards the 2♥ with the Q♠ out: sensible players shed the
    Q♠ there, so worlds put it elsewhere; seat 1 followed suit and may still hold it."""
    rules = Rules.parse("card-commons:first_lead=dealer-left,pass_cycle=hold")
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD 2S 3S 4S 5S",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH 6S 7S",
        "JD QD KD AD 8S 9S TS JS QS KS AS KH AH",
    ]
    state = new_hand(rules, [CardSet.parse(h) for h in hands])
    for card in ("2D", "2H", "JD"):
        state = state.apply(Play(state.to_act[0], Card(card)))
    info = HiddenInfo.of(view(state, 0)).consistent()
    assert info.voids[2] >> NO_QUEEN & 1 and not info.voids[1] >> NO_QUEEN & 1
    holders = Counter(
        next(s for s, hand in enumerate(info.sample(random.Random(i))) if hand & QUEEN_MASK)
        for i in range(200))
    assert set(holders) == {1, 3}
