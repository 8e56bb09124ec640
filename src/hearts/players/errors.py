"""The one error the players raise on bad input, so a caller catches it as it catches the
core's: a :class:`~hearts.core.HeartsError` (and a ``ValueError``), with words that say
what was wrong and what is allowed."""

from __future__ import annotations

from hearts.core import HeartsError

__all__ = ["PlayerError"]


class PlayerError(HeartsError, ValueError):
    """A player, a game of players, a hint or an analysis asked for with an option or a
    view it cannot take (a search option out of range, a spectator's view to decide
    from, the wrong number of seats)."""
