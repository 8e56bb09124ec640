"""The error every protocol problem raises: a bad message, a bad answer, a dead bot."""

from __future__ import annotations

from hearts.core import HeartsError

__all__ = ["ProtocolError"]


class ProtocolError(HeartsError, ValueError):
    """A message that breaks the bot protocol; the text says what was expected.

    ``code`` is the stable name a bot's ``error`` answer carries (docs/bot-protocol.md):
    ``bad_message`` (not a protocol line, or a field of the wrong type), ``bad_view`` (a
    view no game under its rules could show), ``no_game`` (a decision before ``hello`` or
    after ``end``), ``wrong_version`` (another protocol or version).
    """

    def __init__(self, message: str, code: str = "bad_message") -> None:
        super().__init__(message)
        self.code = code
