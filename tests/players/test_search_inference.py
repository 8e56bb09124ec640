"""Weighted sampling: a world weighs how well the playout policy explains the others' plays.

The rounds here are played by the kernel's own heuristic policy, so in the true deal
every play is what the policy would have chosen: the world weighs 1, whatever the trust,
until one seat is made to play a card of another kind, and then it weighs the trust,
exactly. The player built on it stays reproducible from its seed, its figures stay
averages, and the levels do not weigh by default (their challenges depend on it).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import start_of_play

from hearts.core import Card, GameState, Phase, Play, Rules, iter_mask, view
from hearts.players.levels import LEVELS
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import (
    POLICY_HEURISTIC,
    legal_mask,
    mix_seed,
    play_class,
    playout_recorded,
    world_weight,
)
from hearts.players.search.player import (
    LEVEL_TRUST,
    SearchPlayer,
    distinct_cards,
    round_history,
)

RULES = Rules.parse("standard")


def _policy_card(pos: np.ndarray, rules: np.ndarray) -> int:
    """The heuristic policy's next card from ``pos`` (the first of a recorded playout)."""
    cards = np.zeros(64, dtype=np.int64)
    legal = np.zeros(64, dtype=np.int64)
    playout_recorded(pos.copy(), rules, POLICY_HEURISTIC, np.array([1], dtype=np.int64),
                     cards, legal)
    return int(cards[0])


def _policy_round(seed: int, plays: int, me: int, deviate_at: int | None
                  ) -> tuple[GameState, int | None]:
    """Round 1 of a seeded game, ``plays`` cards in, played by the heuristic policy through
    the core; the first play from ``deviate_at`` on by a seat other than ``me`` that has a
    card of another class is made with that card instead. Returns the state and whether
    the seat that made such a play, if one did."""
    state = start_of_play(RULES, seed)
    rules = rules_array(RULES, state.round_no)
    deviant = None
    for k in range(plays):
        seat = state.to_act[0]
        pos = position_array(view(state, seat), [state.hand(s).mask for s in range(4)])
        card = _policy_card(pos, rules)
        if deviate_at is not None and k >= deviate_at and deviant is None and seat != me:
            other = [c for c in iter_mask(legal_mask(pos, rules))
                     if play_class(pos, int(c)) != play_class(pos, card)]
            if other:
                card, deviant = int(other[0]), seat
        after = state.apply(Play(seat, Card(card)))
        if after.phase is not Phase.PLAY or after.round_no != state.round_no:
            break
        state = after
    return state, deviant


def _true_weight(state: GameState, me: int, trust: float) -> float:
    """The weight of the true deal from ``me``'s view of ``state``."""
    seen = view(state, me)
    start, played, history = round_history(seen)
    hands = np.array([state.hand(s).mask for s in range(4)], dtype=np.int64)
    scratch = np.zeros_like(start)
    return float(world_weight(start, rules_array(RULES, state.round_no), me, hands, played,
                              history, trust, POLICY_HEURISTIC,
                              np.array([mix_seed(7, 0)], dtype=np.int64), scratch))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(1, 48), me=st.integers(0, 3),
       trust=st.sampled_from([0.1, 0.5, 0.9]))
def test_plays_the_policy_would_make_leave_the_true_world_whole(
        seed: int, plays: int, me: int, trust: float) -> None:
    """A round the policy played itself: the true deal weighs 1."""
    state, _ = _policy_round(seed, plays, me, None)
    assert _true_weight(state, me, trust) == 1.0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), deviate_at=st.integers(0, 30), me=st.integers(0, 3),
       trust=st.sampled_from([0.1, 0.5, 0.9]))
def test_one_play_against_the_policy_costs_the_trust(
        seed: int, deviate_at: int, me: int, trust: float) -> None:
    """One play of another class than the policy's, by a seat I cannot see: the true deal
    weighs exactly ``trust``; with trust 1 it still weighs 1."""
    state, deviant = _policy_round(seed, 48, me, deviate_at)
    assert _true_weight(state, me, trust) == (1.0 if deviant is None else trust)
    assert _true_weight(state, me, 1.0) == 1.0


def test_my_own_plays_are_not_weighed() -> None:
    """Only the seat that played against the policy weighs its true deal 1: it knows its
    own cards; every other seat weighs it the trust."""
    for seed in range(20):
        state, deviant = _policy_round(seed, 48, -1, 0)
        if deviant is not None:
            weights = [_true_weight(state, me, 0.5) for me in range(4)]
            assert weights == [1.0 if me == deviant else 0.5 for me in range(4)]
            return
    pytest.fail("no round with a possible deviation")


def _mid_round_view(seed: int) -> tuple[GameState, int]:
    state = start_of_play(RULES, seed)
    rng = random.Random(seed)
    for _ in range(14):
        seat = state.to_act[0]
        state = state.apply(Play(seat, rng.choice(list(state.legal_cards(seat)))))
    return state, state.to_act[0]


def test_a_weighing_expert_is_reproducible_and_keeps_its_figures_averages() -> None:
    """``expert:trust=0.5`` with a fixed number of worlds plays the same card from the same
    seed; its weighted figures stay chances and its effective worlds are fewer than its
    worlds (the weights differ)."""
    state, seat = _mid_round_view(3)
    seen = view(state, seat)
    cards = distinct_cards(seen)
    first = SearchPlayer(11, level="expert", iterations=300, trust=0.5)
    again = SearchPlayer(11, level="expert", iterations=300, trust=0.5)
    figures = first.card_figures(seen, cards)
    assert figures == again.card_figures(seen, cards)
    assert 0 < first.effective_worlds < first.worlds_last == 300
    for f in figures:
        assert 0.0 <= f.queen <= 1.0 and 0.0 <= f.moon_against <= 1.0
        assert f.worlds == 300


def test_the_levels_do_not_weigh_and_trust_is_checked() -> None:
    """By default every world counts once (the challenges depend on it); a trust outside
    (0, 1] is refused with the range."""
    assert LEVEL_TRUST == {"hard": 1.0, "expert": 1.0}
    state, seat = _mid_round_view(5)
    hard = SearchPlayer(2, level="hard", iterations=200)
    hard.card_figures(view(state, seat), distinct_cards(view(state, seat)))
    assert hard.effective_worlds == 200
    player = LEVELS["expert"](random.Random(1), trust=0.25)  # type: ignore[call-arg]
    assert isinstance(player, SearchPlayer) and player.trust == 0.25
    for bad in (0.0, 1.5):
        with pytest.raises(ValueError, match="above 0 and at most 1"):
            SearchPlayer(1, trust=bad)
