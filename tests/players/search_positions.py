"""Shared helpers for the search tests: rule sets and random positions from real games."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from hearts.core import (
    CardSet,
    GameState,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    new_game,
    read_position,
    view,
)
from hearts.players import CallbackSeat, run_game
from hearts.players.search.encode import position_array

__all__ = ["ALL_TABLES", "TWO_LOSERS", "kernel_position", "random_position", "start_of_play"]

# Every preset at every player count it allows.
ALL_TABLES = [
    "card-commons:players=3",
    "card-commons",
    "standard",
    *(f"classic:players={n}" for n in range(2, 7)),
]


def start_of_play(rules: Rules, seed: int | str) -> GameState:
    """A seeded game advanced through the pass with random passes."""
    rng = random.Random(seed)

    def random_pass(seen: PlayerView) -> PassCards:
        assert seen.seat is not None
        return PassCards(seen.seat, CardSet(rng.sample(list(seen.hand), rules.pass_count)))

    return run_game(new_game(rules, seed), [CallbackSeat(random_pass)] * rules.players,
                    stop=lambda state: state.phase is not Phase.PASS)


def random_position(rules: Rules, seed: int, plays: int) -> GameState:
    """The start of play of a seeded game, then up to ``plays`` random cards of round 1."""
    rng = random.Random(seed)
    state = start_of_play(rules, seed)
    for _ in range(plays):
        seat = state.to_act[0]
        after = state.apply(Play(seat, rng.choice(list(state.legal_cards(seat)))))
        if after.phase is not Phase.PLAY or after.round_no != state.round_no:
            break
        state = after
    return state


def kernel_position(state: GameState) -> npt.NDArray[np.int64]:
    """The kernel's position of the seat to play in ``state``, every hand known (the true
    deal, as a world the search might sample)."""
    hands = [state.hand(seat).mask for seat in range(state.players)]
    return position_array(view(state, state.to_act[0]), hands)


TWO_LOSERS = read_position(
    "standard 1 0,0,0,0 4C5C6C2H5H/8C4HJHQHAH/3CQDAD8HTHKH/4S6S7SQS9H 7DKDAH/9S8HKH/5S6S9H/"
    "5C2H5H 0:2CTC7CJC/3:TSJS3S9S/0:8SKSAS5S/2:QC9CKCAC/1:3D2D9D6D/3:4D8DKDTD/1:7D5DJD3H/"
    "3:2S7H6H 2")
"""From a random round (:func:`random_position`, ``standard``, seed 133): seat 3 alone
has taken point cards, and its hand may still lose two tricks, so the near-certain moon
test does not name it; the moon alarm's does."""
