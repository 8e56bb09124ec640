"""Errors of the arena: a match that cannot be set up as asked, or reports that cannot be
read or pooled."""

from __future__ import annotations

from hearts.core import HeartsError

__all__ = ["ArenaError", "BotSpecError"]


class ArenaError(HeartsError, ValueError):
    """A match setting that is not allowed, or arena reports that cannot be read or pooled
    together; the text says what is wrong."""


class BotSpecError(ArenaError):
    """A bot spec that names no known player or carries options it cannot take."""
