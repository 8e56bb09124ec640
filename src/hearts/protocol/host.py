"""The host side of the protocol: a :class:`Player` backed by an outside program.

:class:`ExternalPlayer` starts the program, greets it, and sends it a ``decide``
for each decision of its seat. If the program does not start, times out, exits,
writes something that is not a protocol line, or answers with an illegal action,
the problem is logged (logger ``hearts.protocol``) and the seat is played by the
fallback player for the rest of the game: a misbehaving bot never loses a game.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import IO, Any

from hearts.core import (
    Action,
    Card,
    CardSet,
    ChooseMoon,
    MoonChoice,
    PassCards,
    Play,
    PlayerView,
    Rules,
    is_whole_number,
)
from hearts.players.base import Player
from hearts.protocol.errors import ProtocolError
from hearts.protocol.messages import (
    decide_message,
    decision_of,
    decode,
    encode,
    end_message,
    error_message,
    hello_message,
    hello_seed,
    parse_action,
    read_lines,
)

__all__ = ["DEFAULT_TIMEOUT", "STARTUP_TIMEOUT", "ExternalPlayer"]

logger = logging.getLogger("hearts.protocol")

DEFAULT_TIMEOUT = 5.0
STARTUP_TIMEOUT = 30.0  # a program may need longer to start (imports, compiling) than to decide
_EXIT_GRACE = 1.0  # seconds a bot gets to exit by itself after its input closes


class ExternalPlayer:
    """A seat played by an outside program speaking the bot protocol (one game long).

    ``error`` is None while the program plays; once it failed, it holds the reason
    and every later decision comes from ``fallback`` (``fallback_moves`` counts them).
    The program has ``startup_timeout`` seconds to start and answer hello, ``timeout``
    for each decision. Call :meth:`close` at the end.

    ``names`` go to the program in hello: labels of the seats, which every bot sees, so
    never a command line (``name``, this seat's label in the host's own logs, may be one).
    ``seed`` gives hello's ``seed`` (:func:`hello_seed`, one-way); it must be a secret
    the bot cannot guess, never the seed the host deals from alone, which a bot could
    find by trying the likely ones.
    """

    def __init__(self, command: Sequence[str], seat: int, rules: Rules, *, fallback: Player,
                 timeout: float = DEFAULT_TIMEOUT, startup_timeout: float = STARTUP_TIMEOUT,
                 names: Sequence[str] | None = None, name: str | None = None,
                 seed: str | None = None, stderr: IO[Any] | int | None = None) -> None:
        if not command:
            raise ProtocolError("an external bot needs a command to run")
        self.command = list(command)
        self.seat = seat
        self.rules = rules
        self.fallback = fallback
        self.timeout = timeout
        self.name = name or "ext:" + shlex.join(self.command)
        self.bot_name: str | None = None
        self.error: str | None = None
        self.fallback_moves = 0
        self._next_id = 1
        # bytes, so that a line that is not UTF-8 is refused as such, and read a line at
        # most MAX_LINE_BYTES at a time (read_lines), so that a huge one never fills memory
        self._lines: queue.Queue[bytes | ProtocolError | None] = queue.Queue()
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        except OSError as exc:
            self._fail(f"could not start {shlex.join(self.command)!r}: {exc}")
            return
        threading.Thread(target=self._read, args=(self._process,), daemon=True).start()
        try:
            hello = hello_message(seat, rules, names=names, timeout=timeout,
                                  seed=None if seed is None else hello_seed(seed))
            reply = self._exchange(hello, startup_timeout)
            if reply.get("type") != "ready":
                raise ProtocolError(f"expected \"ready\" after hello, got {reply.get('type')!r}")
        except ProtocolError as exc:
            self._fail(f"at hello: {exc}")
            return
        name_given = reply.get("name")
        self.bot_name = name_given if isinstance(name_given, str) else None

    # ------------------------------------------------------------- Player API
    def choose_pass(self, view: PlayerView) -> CardSet:
        action = self._ask(view)
        return action.cards if isinstance(action, PassCards) else self.fallback.choose_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        action = self._ask(view)
        return action.card if isinstance(action, Play) else self.fallback.choose_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        action = self._ask(view)
        return action.choice if isinstance(action, ChooseMoon) \
            else self.fallback.choose_moon(view)

    def close(self, totals: Sequence[int] = (), winners: Sequence[int] = (), *,
              reason: str = "over") -> None:
        """Tell the program the game ended and let it exit (killed if it lingers)."""
        if self.error is None and self._process is not None:
            self._send(end_message(totals, winners, reason=reason))
        self._stop()

    # ------------------------------------------------------------------ wiring
    def _ask(self, view: PlayerView) -> Action | None:
        """The program's action, or None when the fallback decides (counted)."""
        if self.error is not None:
            self.fallback_moves += 1
            return None
        decision_id = self._next_id
        self._next_id += 1
        try:
            reply = self._exchange(decide_message(decision_id, view), self.timeout)
            answered = reply.get("id")
            # every earlier decision was answered (or the bot is out): say what happened
            if reply["type"] == "action" and is_whole_number(answered, 1, decision_id - 1):
                raise ProtocolError(f"answered decision {answered} twice (decision "
                                    f"{decision_id} is pending)")
            return parse_action(reply, decision_id, view)
        except ProtocolError as exc:
            self._fail(f"round {view.round_no}, {decision_of(view)} decision {decision_id}: {exc}")
            self.fallback_moves += 1
            return None

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        with process.stdout:
            for line in read_lines(process.stdout.readline):
                self._lines.put(line)
        self._lines.put(None)

    def _send(self, message: dict[str, Any]) -> bool:
        process = self._process
        if process is None or process.stdin is None or process.stdin.closed:
            return False
        try:
            process.stdin.write(encode(message).encode("utf-8", "backslashreplace"))
            process.stdin.flush()
        except (OSError, ValueError):  # the bot exited and its pipe is gone
            return False
        return True

    def _exchange(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        if not self._send(message):
            raise ProtocolError(f"cannot write to the bot: it has exited{self._exit_note()}")
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise ProtocolError(f"no answer within {timeout:g} s") from None
        if line is None:
            raise ProtocolError(f"the bot closed its output{self._exit_note()}")
        if isinstance(line, ProtocolError):  # a line too long, seen by the reading thread
            raise ProtocolError(str(line), line.code)
        reply = decode(line)
        if reply["type"] == "error":
            code = reply.get("code")
            raise ProtocolError(f"the bot reported an error{f' ({code})' if code else ''}: "
                                f"{reply.get('message')!r}")
        return reply

    def _exit_note(self) -> str:
        process = self._process
        if process is None:
            return ""
        try:
            status = process.wait(timeout=_EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return ""
        return f" (exit status {status})"

    def _fail(self, reason: str) -> None:
        self.error = reason
        logger.error("external bot %s at seat %d failed: %s; seat %d is played by %s "
                     "for the rest of the game", self.name, self.seat, reason, self.seat,
                     self.fallback.name)
        self._send(error_message(f"{reason}; your seat is taken over"))
        self._stop()

    def _stop(self) -> None:
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):  # already broken: the bot is gone
                process.stdin.close()
        try:
            process.wait(timeout=_EXIT_GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self._process = None
