"""Run games between players: each decision comes from the acting seat's view."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearts.core.rules import Rules
from hearts.core.state import GameState, new_game
from hearts.core.view import view
from hearts.players.base import Player, decide

__all__ = ["play_game", "play_until"]


def play_until(state: GameState, players: Sequence[Player],
               stop: Callable[[GameState], bool]) -> GameState:
    """Let the players act until ``stop(state)`` or until nobody can act."""
    if len(players) != state.players:
        raise ValueError(f"need {state.players} players, got {len(players)}")
    while not stop(state) and state.to_act:
        seat = state.to_act[0]
        state = state.apply(decide(players[seat], view(state, seat)))
    return state


def play_game(rules: Rules, players: Sequence[Player], seed: int | str) -> GameState:
    """A whole seeded game between ``players`` (seat order)."""
    return play_until(new_game(rules, seed), players, lambda s: s.is_over)
