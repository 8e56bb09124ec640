"""The error every protocol problem raises: a bad message, a bad answer, a dead bot."""

from __future__ import annotations

from hearts.core import HeartsError

__all__ = ["ProtocolError"]


class ProtocolError(HeartsError, ValueError):
    """A message that breaks the bot protocol; the text says what was expected."""
