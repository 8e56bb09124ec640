"""Shared helpers for the search tests: rule sets and random positions from real games."""

from __future__ import annotations

import random

from hearts.core import CardSet, GameState, PassCards, Phase, Play, PlayerView, Rules, new_game
from hearts.players import CallbackSeat, run_game

__all__ = ["ALL_TABLES", "random_position", "start_of_play"]

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
