"""The bot protocol's messages, without any I/O (see ``docs/bot-protocol.md``).

One JSON object per line each way. The host (arena, game server) sends ``hello``,
then a ``decide`` for every decision of the bot's seat, then ``end``; the bot
answers ``ready`` and one ``action`` per ``decide``. These functions build the
host's messages, turn a bot's answer into a checked :class:`Action`, and do the
reverse for the bot side, so both ends share one definition.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, AnyStr, Final

from hearts.core import (
    Action,
    CodecError,
    JsonTextError,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    decode_action,
    decode_cards,
    encode_action,
    is_whole_number,
    read_json,
)
from hearts.protocol.errors import ProtocolError

__all__ = [
    "DECISIONS",
    "MAX_LINE_BYTES",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "SEED_LIMIT",
    "action_message",
    "decide_message",
    "decision_of",
    "decode",
    "encode",
    "end_message",
    "error_message",
    "hello_message",
    "hello_seed",
    "parse_action",
    "read_lines",
    "ready_message",
]

PROTOCOL_NAME: Final = "card-commons-hearts-bot"
PROTOCOL_VERSION: Final = 1

# The longest line either side reads: a view is a few kilobytes, so anything near this
# is a broken peer, refused before it is parsed.
MAX_LINE_BYTES: Final = 1_048_576  # 1 MiB

# hello's seed is below this: every JSON reader holds it exactly (a double's 53 bits).
SEED_LIMIT: Final = 2**53

# The decision a phase asks for, as named on the wire.
DECISIONS: Final = {Phase.PASS: "pass", Phase.PLAY: "play", Phase.MOON: "moon"}


def encode(message: Mapping[str, Any]) -> str:
    """One protocol line (compact JSON, no newline inside, newline at the end)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def decode(line: str | bytes) -> dict[str, Any]:
    """The message on one line (text, or UTF-8 bytes); :class:`ProtocolError` if it is too
    long, not UTF-8, not JSON (nested too deep, a number too long included) or no JSON
    object with a type."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(_too_long())
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(_not_utf8(exc)) from None
    shown = line.strip()[:80]
    try:
        message = read_json(line)
    except JsonTextError as exc:
        raise ProtocolError(f"{exc}: {shown!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"a message is a JSON object with a \"type\"; got {shown!r}")
    return message


def read_lines(readline: Callable[[int], AnyStr]) -> Iterator[AnyStr | ProtocolError]:
    """Each line ``readline(limit)`` gives until end of input, never holding more than
    :data:`MAX_LINE_BYTES` of one: a longer line is a :class:`ProtocolError`, given as soon
    as it is seen (a peer may never end it), and the rest of it is skipped when the next
    line is asked for. (For a text stream the limit counts characters.)"""
    while line := readline(MAX_LINE_BYTES + 1):
        if len(line) <= MAX_LINE_BYTES:
            yield line
            continue
        yield ProtocolError(_too_long())
        while line[-1:] not in ("\n", b"\n"):
            line = readline(MAX_LINE_BYTES + 1)
            if not line:
                return


def _not_utf8(exc: UnicodeDecodeError) -> str:
    shown = exc.object[:80].decode("utf-8", "backslashreplace")
    return (f"the line is not UTF-8: byte {exc.object[exc.start]:#04x} at position "
            f"{exc.start} ({exc.reason}) in {shown!r}")


def _too_long() -> str:
    return f"line too long (at most {MAX_LINE_BYTES} bytes, the newline included)"


def decision_of(view: PlayerView) -> str:
    """``pass``, ``play`` or ``moon``: what the view's seat must decide now."""
    decision = DECISIONS.get(view.phase)
    if decision is None or not view.my_turn:
        raise ProtocolError(f"no decision for this seat in phase {view.phase.value}",
                            "bad_view")
    return decision


# ------------------------------------------------------------------ host side
def hello_message(seat: int, rules: Rules, *, names: Sequence[str] | None = None,
                  timeout: float | None = None, seed: int | None = None) -> dict[str, Any]:
    """The first message of a game: who the bot is and under which rules it plays.

    ``names`` are the seats' labels that every bot may see (never a command line);
    ``seed`` (from :func:`hello_seed`) lets the bot seed its own randomness."""
    message: dict[str, Any] = {
        "type": "hello",
        "protocol": PROTOCOL_NAME,
        "version": PROTOCOL_VERSION,
        "seat": seat,
        "players": rules.players,
        "rules": rules.text,
    }
    if names is not None:
        message["names"] = list(names)
    if timeout is not None:
        message["timeout"] = timeout
    if seed is not None:
        message["seed"] = seed
    return message


def hello_seed(seed: str) -> int:
    """The ``seed`` that hello gives a bot, derived from the host's ``seed``: the same for
    the same seed, from 0 to :data:`SEED_LIMIT` - 1, and one-way (SHA-256). One-way is
    not secret: a bot can try likely seeds, so ``seed`` must hold a secret the bot cannot
    guess (the arena's ``--bot-seed``), never the seed the cards are dealt from alone."""
    digest = hashlib.sha256(f"{PROTOCOL_NAME}/hello/{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def decide_message(decision_id: int, view: PlayerView) -> dict[str, Any]:
    """Ask for the decision the seat's view is waiting on."""
    return {"type": "decide", "id": decision_id, "decision": decision_of(view),
            "view": view.to_json()}


def end_message(totals: Sequence[int], winners: Sequence[int], *,
                reason: str = "over") -> dict[str, Any]:
    """The game is over (``reason`` ``over``) or the host stops it (``aborted``)."""
    return {"type": "end", "reason": reason, "totals": list(totals), "winners": list(winners)}


def error_message(text: str, code: str | None = None) -> dict[str, Any]:
    """Tell the other side what went wrong (it should then expect the line to close); a bot
    names the kind of problem in ``code`` (see :class:`ProtocolError`). Characters UTF-8
    cannot carry (lone surrogates from JSON escapes) are written as escapes."""
    message: dict[str, Any] = {"type": "error"}
    if code is not None:
        message["code"] = code
    message["message"] = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return message


def parse_action(message: Mapping[str, Any], decision_id: int, view: PlayerView) -> Action:
    """The bot's answer to ``decide`` number ``decision_id`` as an action, checked against
    the view (pass: ``pass_count`` cards of the hand; play: a card of ``view.legal``)."""
    if message.get("type") != "action":
        raise ProtocolError(f"expected an \"action\" message, got type {message.get('type')!r}")
    if not is_whole_number(message.get("id")) or message.get("id") != decision_id:
        raise ProtocolError(f"the action answers id {message.get('id')!r}, "
                            f"but decision {decision_id} is pending")
    decision = decision_of(view)
    try:
        if decision == "pass":  # the count first: the rules would only say "illegal"
            decode_cards(message.get("cards"), "cards", count=view.rules.pass_count)
        action = decode_action(decision, view.seat, message)
    except CodecError as exc:
        raise ProtocolError(f"a {decision} answer: {exc}") from None
    if isinstance(action, PassCards) and action.cards - view.legal:
        raise ProtocolError(f"cannot pass {action.cards - view.legal}: not in the hand "
                            f"({view.legal})")
    if isinstance(action, Play) and action.card not in view.hand:
        raise ProtocolError(f"{action.card} is not in the hand (allowed: {view.legal})")
    if isinstance(action, Play) and action.card not in view.legal:
        raise ProtocolError(f"{action.card} is not a legal play now (allowed: {view.legal})")
    return action


# ------------------------------------------------------------------- bot side
def ready_message(name: str) -> dict[str, Any]:
    """The bot's answer to ``hello``."""
    return {"type": "ready", "name": name, "protocol": PROTOCOL_NAME, "version": PROTOCOL_VERSION}


def action_message(decision_id: int, action: Action) -> dict[str, Any]:
    """The bot's answer to ``decide`` number ``decision_id``."""
    try:
        _, fields = encode_action(action)
    except CodecError as exc:
        raise ProtocolError(f"a bot answers with a pass, a play or a moon choice: {exc}") \
            from None
    return {"type": "action", "id": decision_id, **fields}
