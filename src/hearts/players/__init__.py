"""Computer players, which see only their own seat's view, and the one game driver."""

# First: choose between the compiled and the pure-Python rule-based player modules.
from hearts.players import _native  # noqa: F401, I001

from hearts.players.base import Player, decide
from hearts.players.driver import (
    AsyncSeat,
    CallbackSeat,
    Dealer,
    GameRun,
    Observer,
    PlayerSeat,
    QueueSeat,
    Seat,
    play_game,
    run_game,
    run_game_async,
    seeded_dealer,
)
from hearts.players.errors import PlayerError
from hearts.players.hints import Hint, hint, hint_level
from hearts.players.levels import LEVELS, UnknownLevelError, make_player
from hearts.players.random_player import RandomPlayer

__all__ = [
    "LEVELS",
    "AsyncSeat",
    "CallbackSeat",
    "Dealer",
    "GameRun",
    "Hint",
    "Observer",
    "Player",
    "PlayerError",
    "PlayerSeat",
    "QueueSeat",
    "RandomPlayer",
    "Seat",
    "UnknownLevelError",
    "decide",
    "hint",
    "hint_level",
    "make_player",
    "play_game",
    "run_game",
    "run_game_async",
    "seeded_dealer",
]
