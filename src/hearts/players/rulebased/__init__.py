"""Rule-based computer players: ``easy`` (rules of thumb) and ``normal`` (full know-how)."""

from hearts.players.rulebased.easy import EasyPlayer
from hearts.players.rulebased.player import RuleBasedPlayer

__all__ = ["EasyPlayer", "RuleBasedPlayer"]
