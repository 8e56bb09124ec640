"""The bot side of the protocol: make any :class:`Player` answer a host over two streams.

``hearts bot LEVEL`` runs :func:`serve` on stdin/stdout. Each ``hello`` starts a
game with a fresh player from ``make_player(seat, rules)``; each ``decide`` is
rebuilt into a ``PlayerView`` and answered by the player; ``end`` closes the game.
The loop ends at end of input. Notes for people go to ``log`` (stderr), never to
the protocol stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from hearts.core import HeartsError, Rules
from hearts.players.base import Player, decide
from hearts.protocol.errors import ProtocolError
from hearts.protocol.messages import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    action_message,
    decision_of,
    decode,
    encode,
    error_message,
    ready_message,
)
from hearts.protocol.views import view_from_json

__all__ = ["serve"]


class _Session:
    """The state of one bot process: the game in progress, if any."""

    def __init__(self, make_player: Callable[[int, Rules], Player], name: str) -> None:
        self.make_player = make_player
        self.name = name
        self.player: Player | None = None

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one host message (None: no reply is due)."""
        kind = message["type"]
        if kind == "hello":
            return self._hello(message)
        if kind == "decide":
            return self._decide(message)
        if kind in ("end", "error"):
            # the host ends the game (an error: it gave up on this bot's answers)
            self.player = None
        # other types are ignored so later hosts may add some
        return None

    def _hello(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("protocol") != PROTOCOL_NAME or message.get("version") != PROTOCOL_VERSION:
            raise ProtocolError(
                f"this bot speaks {PROTOCOL_NAME} version {PROTOCOL_VERSION}, not "
                f"{message.get('protocol')!r} version {message.get('version')!r}")
        seat = message.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError(f"hello needs a seat number, not {seat!r}")
        try:
            rules = Rules.parse(str(message.get("rules", "")))
        except HeartsError as exc:
            raise ProtocolError(f"hello: rules: {exc}") from None
        self.player = self.make_player(seat, rules)
        return ready_message(self.name)

    def _decide(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.player is None:
            raise ProtocolError("decide before hello")
        decision_id = message.get("id")
        if not isinstance(decision_id, int):
            raise ProtocolError(f"decide needs a numeric id, not {decision_id!r}")
        view = view_from_json(message.get("view"))
        asked = message.get("decision")
        if asked != decision_of(view):
            raise ProtocolError(f"decision {asked!r} does not match the view "
                                f"({decision_of(view)!r} is due)")
        return action_message(decision_id, decide(self.player, view))


def serve(make_player: Callable[[int, Rules], Player], infile: TextIO, outfile: TextIO,
          *, name: str, log: TextIO | None = None) -> int:
    """Answer the host on ``infile``/``outfile`` until end of input; the exit status.

    A message the bot cannot handle gets an ``error`` reply and status 1 at the end,
    but the loop goes on so the host decides what to do.
    """
    session = _Session(make_player, name)
    status = 0
    for line in infile:
        if not line.strip():
            continue
        try:
            reply = session.answer(decode(line))
        except (HeartsError, ValueError) as exc:
            status = 1
            if log is not None:
                print(f"{name}: {exc}", file=log, flush=True)
            reply = error_message(str(exc))
        if reply is not None:
            outfile.write(encode(reply))
            outfile.flush()
    return status
