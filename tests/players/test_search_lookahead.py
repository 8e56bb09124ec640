"""Looking ahead: my next decision inside a playout is searched in its world.

Trying every legal card with the randomness the policy's own card would have includes
the policy's own line, so the result is never worse for me than the plain playout from
the same state, and it is legal all the way (the core agrees with every card of it).
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import kernel_position, random_position

from hearts.core import Rules, view
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    POLICY_MOON,
    S_TAKEN,
    mix_seed,
    playout,
    playout_looking_ahead,
    round_points,
    utility,
)
from hearts.players.search.player import SearchPlayer, distinct_cards

RULES = Rules.parse("standard")


def _value(pos: np.ndarray, rules: np.ndarray, totals: np.ndarray, me: int) -> float:
    points = np.zeros(4, dtype=np.int64)
    round_points(pos, rules, totals, points)
    return float(utility(me, points, totals, rules))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 44), me=st.integers(0, 3),
       stream=st.integers(0, 1000))
def test_looking_ahead_is_never_worse_than_the_plain_playout(
        seed: int, plays: int, me: int, stream: int) -> None:
    """From the same position and randomness, my value after looking ahead is at least
    my value after the plain playout, and every card ends up played."""
    state = random_position(RULES, seed, plays)
    rules = rules_array(RULES, state.round_no)
    totals = np.array(state.totals, dtype=np.int64)
    plain = kernel_position(state)
    ahead = plain.copy()
    playout(plain, rules, POLICY_MOON, np.array([mix_seed(seed, stream)], dtype=np.int64))
    scratch = [np.empty_like(ahead) for _ in range(2)]
    playout_looking_ahead(ahead, rules, totals, 1 << me, POLICY_MOON,
                          np.array([mix_seed(seed, stream)], dtype=np.int64), *scratch,
                          np.zeros(4, dtype=np.int64))
    taken = [int(ahead[S_TAKEN + seat]) for seat in range(4)]
    assert sum(bin(mask).count("1") for mask in taken) == 52
    assert _value(ahead, rules, totals, me) >= _value(plain, rules, totals, me)


def test_a_looking_ahead_player_plays_whole_games_reproducibly() -> None:
    """``expert`` with the lookahead on finishes a game legally (the core checks every
    card) and gives the same figures from the same seed."""
    from hearts.players import play_game

    players = [SearchPlayer(seat, level="expert", iterations=30, lookahead="others")
               for seat in range(4)]
    assert play_game(RULES.replace(target=40), players, seed="ahead").is_over
    state = random_position(RULES, 4, 17)
    seen = view(state, state.to_act[0])
    cards = distinct_cards(seen)
    figures = [SearchPlayer(random.Random(9), level="expert", iterations=200,
                            lookahead="others").card_figures(seen, cards) for _ in range(2)]
    assert figures[0] == figures[1]
