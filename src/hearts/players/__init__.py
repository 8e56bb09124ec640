"""Computer players: they see only their own seat's view."""

from hearts.players.base import Player, decide
from hearts.players.levels import LEVELS, make_player
from hearts.players.random_player import RandomPlayer
from hearts.players.table import play_game, play_until

__all__ = ["LEVELS", "Player", "RandomPlayer", "decide", "make_player", "play_game", "play_until"]
