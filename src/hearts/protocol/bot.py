"""The bot side of the protocol: make any :class:`Player` answer a host over two streams.

``hearts bot LEVEL`` runs :func:`serve` on stdin/stdout. Each ``hello`` starts a
game with a fresh player from ``make_player(seat, rules)``; each ``decide`` is
rebuilt into a ``PlayerView`` and answered by the player; ``end`` closes the game.
The loop ends at end of input. Notes for people go to ``log`` (stderr), never to
the protocol stream.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from hearts.core import HeartsError, Rules, is_whole_number
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
    parse_action,
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
        self.seat = 0
        self.rules: Rules | None = None

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
        version = message.get("version")
        if message.get("protocol") != PROTOCOL_NAME or not (
                is_whole_number(version) and version == PROTOCOL_VERSION):
            raise ProtocolError(
                f"this bot speaks {PROTOCOL_NAME} version {PROTOCOL_VERSION}, not "
                f"{message.get('protocol')!r} version {version!r}",
                "wrong_version")
        text = message.get("rules")
        if not isinstance(text, str):
            raise ProtocolError(f"hello needs the rules text, not {text!r}")
        try:
            rules = Rules.parse(text)
        except HeartsError as exc:
            raise ProtocolError(f"hello: rules: {exc}") from None
        players = message.get("players", rules.players)
        if not is_whole_number(players) or players != rules.players:
            raise ProtocolError(f"hello: the rules {rules.text!r} seat {rules.players} "
                                f"players, not {players!r}")
        seat = message.get("seat")
        if not is_whole_number(seat, 0, rules.players - 1):
            raise ProtocolError(f"hello needs a seat number from 0 to {rules.players - 1}, "
                                f"not {seat!r}")
        self.player = None  # if make_player fails, no game is left behind
        self.player = self.make_player(seat, rules)
        self.seat, self.rules = seat, rules
        return ready_message(self.name)

    def _decide(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.player is None:
            raise ProtocolError("decide before hello", "no_game")
        decision_id = message.get("id")
        if not is_whole_number(decision_id):
            raise ProtocolError(f"decide needs a numeric id, not {decision_id!r}")
        view = view_from_json(message.get("view"))
        if view.seat != self.seat or view.rules != self.rules:
            raise ProtocolError(f"the view is seat {view.seat} under {view.rules.text!r}; "
                                f"hello gave seat {self.seat} under "
                                f"{self.rules.text if self.rules else None!r}", "bad_view")
        asked = message.get("decision")
        if asked != decision_of(view):
            raise ProtocolError(f"decision {asked!r} does not match the view "
                                f"({decision_of(view)!r} is due)")
        reply = action_message(decision_id, decide(self.player, view))
        try:  # never answer what the host must refuse
            parse_action(reply, decision_id, view)
        except ProtocolError as exc:
            raise ProtocolError(f"the player chose a refused answer: {exc}", "internal") \
                from None
        return reply


def serve(make_player: Callable[[int, Rules], Player], infile: Iterable[str | bytes],
          outfile: TextIO, *, name: str, log: TextIO | None = None) -> int:
    """Answer the host on ``infile``/``outfile`` until end of input; the exit status.

    Lines may be text or UTF-8 bytes. A message the bot cannot handle gets an ``error``
    reply (with a ``code``) and status 1 at the end, but the loop goes on so the host
    decides what to do: no input stops it. A failure of the player itself is answered
    with code ``internal``, its traceback logged.
    """
    session = _Session(make_player, name)
    status = 0
    for line in infile:
        if not line.strip():
            continue
        message: dict[str, Any] | None = None
        try:
            message = decode(line)
            reply = session.answer(message)
        except ProtocolError as exc:
            status = 1
            _note(log, f"{name}: {exc}")
            reply = error_message(str(exc), exc.code)
        except Exception as exc:  # the error boundary: a bug must not kill the bot
            status = 1
            what = "a line" if message is None else \
                f"{message['type']!r} (id {message.get('id')!r})"
            _note(log, f"{name}: failed on {what}:\n{traceback.format_exc()}")
            reply = error_message(f"the bot failed: {type(exc).__name__}: {exc}", "internal")
        if reply is not None:
            outfile.write(encode(reply))
            outfile.flush()
    return status


def _note(log: TextIO | None, text: str) -> None:
    if log is not None:
        print(text, file=log, flush=True)
