"""The bot side of the protocol: make any :class:`Player` answer a host over two streams.

``hearts bot LEVEL`` runs :func:`serve` on stdin/stdout. Each ``hello`` starts a
game with a fresh player from ``make_player(seat, rules)`` (``make_player(seat, rules,
seed=...)`` with hello's seed, or None, when the factory takes a ``seed``); each
``decide`` is rebuilt into a ``PlayerView`` and answered by the player; ``end`` closes
the game. The loop ends at end of input. Notes for people go to ``log`` (stderr), never
to the protocol stream.
"""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, Protocol, TextIO, cast

from hearts.core import HeartsError, Rules, is_whole_number
from hearts.players.base import Player, decide
from hearts.protocol.errors import ProtocolError
from hearts.protocol.messages import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    SEED_LIMIT,
    action_message,
    decision_of,
    decode,
    encode,
    error_message,
    parse_action,
    read_lines,
    ready_message,
)
from hearts.protocol.views import view_from_json

__all__ = ["PlayerFactory", "SeededPlayerFactory", "serve"]


class SeededPlayerFactory(Protocol):
    """Makes the player of a game from its seat, rules and hello's ``seed`` (None when the
    host sent none): a player seeded from it plays a host's seeded game the same each time."""

    def __call__(self, seat: int, rules: Rules, *, seed: int | None) -> Player: ...


PlayerFactory = Callable[[int, Rules], Player] | SeededPlayerFactory


class _Session:
    """The state of one bot process: the game in progress, if any."""

    def __init__(self, make_player: PlayerFactory, name: str) -> None:
        self.make_player = make_player
        self.seeded = _takes_seed(make_player)
        self.name = name
        self.player: Player | None = None
        self.seat = 0
        self.rules: Rules | None = None
        self.ended_by: str | None = None  # what ended the last game: "end", the host's error

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one host message (None: no reply is due)."""
        kind = message["type"]
        if kind == "hello":
            return self._hello(message)
        if kind == "decide":
            return self._decide(message)
        if kind in ("end", "error"):
            # the host ends the game (an error: it gave up on this bot's answers)
            if self.player is not None:
                self.ended_by = "end" if kind == "end" else "the host's error"
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
        seed = message.get("seed")
        if seed is not None and not is_whole_number(seed, 0, SEED_LIMIT - 1):
            raise ProtocolError(f"hello's seed is a whole number from 0 to {SEED_LIMIT - 1}, "
                                f"not {seed!r}")
        self.player = self.ended_by = None  # if make_player fails, no game is left behind
        if self.seeded:
            self.player = cast(SeededPlayerFactory, self.make_player)(seat, rules, seed=seed)
        else:
            self.player = cast(Callable[[int, Rules], Player], self.make_player)(seat, rules)
        self.seat, self.rules = seat, rules
        return ready_message(self.name)

    def _decide(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.player is None:
            if self.ended_by is not None:
                raise ProtocolError(f"decide after {self.ended_by}: that game is over (a new "
                                    "game starts with hello)", "no_game")
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


def serve(make_player: PlayerFactory, infile: IO[bytes] | IO[str] | Iterable[str | bytes],
          outfile: TextIO, *, name: str, log: TextIO | None = None) -> int:
    """Answer the host on ``infile``/``outfile`` until end of input; the exit status.

    ``make_player`` makes each game's player (see :class:`SeededPlayerFactory`). Lines may
    be text or UTF-8 bytes; a stream is read a line of at most ``MAX_LINE_BYTES`` at a
    time. A message the bot cannot handle gets an ``error`` reply (with a ``code``) and
    status 1 at the end, but the loop goes on so the host decides what to do: no input
    stops it. A failure of the player itself is answered with code ``internal``, its
    traceback logged.
    """
    session = _Session(make_player, name)
    status = 0
    for line in _lines(infile):
        if not isinstance(line, ProtocolError) and not line.strip():
            continue
        message: dict[str, Any] | None = None
        try:
            if isinstance(line, ProtocolError):
                raise line
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


def _lines(infile: IO[bytes] | IO[str] | Iterable[str | bytes]
           ) -> Iterator[str | bytes | ProtocolError]:
    """The lines of a stream read at most ``MAX_LINE_BYTES`` at a time (a longer line is
    an error, its rest skipped), or those of an iterable (already in memory)."""
    readline = getattr(infile, "readline", None)
    if readline is None:
        return iter(infile)
    return read_lines(readline)


def _takes_seed(make_player: PlayerFactory) -> bool:
    """Whether the factory takes hello's seed (a ``seed`` parameter)."""
    try:
        return "seed" in inspect.signature(make_player).parameters
    except (TypeError, ValueError):  # no signature to read: called the plain way
        return False


def _note(log: TextIO | None, text: str) -> None:
    if log is not None:
        print(text, file=log, flush=True)
