"""Computer players: they see only their own seat's view."""

from hearts.players.base import Player, decide
from hearts.players.hints import Hint, hint
from hearts.players.levels import LEVELS, UnknownLevelError, make_player
from hearts.players.random_player import RandomPlayer
from hearts.players.table import play_game, play_until

__all__ = [
    "LEVELS",
    "Hint",
    "Player",
    "RandomPlayer",
    "UnknownLevelError",
    "decide",
    "hint",
    "make_player",
    "play_game",
    "play_until",
]
