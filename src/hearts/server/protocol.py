"""The websocket message protocol: checking client messages' shape, errors, rate limits.

Every client message is a JSON object with a ``type``; see ``docs/web-protocol.md``.
Shape problems are answered with an ``error`` event and the connection carries on.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

import orjson
from starlette.requests import ClientDisconnect, Request

from hearts.core import JsonTextError, is_whole_number, read_json

__all__ = [
    "ACTION_TYPES",
    "BODY_SECONDS",
    "MAX_NUMBER",
    "MESSAGE_FIELDS",
    "RequestError",
    "TokenBucket",
    "checked_id",
    "compact_json",
    "decode_json",
    "error_message",
    "json_body",
    "parse_message",
    "read_body",
    "request_id",
    "whole_number",
]

ACTION_TYPES: Final = frozenset({"pass", "play", "moon"})

BODY_SECONDS = 10.0
"""How long a request's body may take to arrive in full. uvicorn waits on a body for as
long as its connection stays open, so a client that promises more bytes than it sends
(slowloris) would hold a handler, and its share of the server's connections, for good."""

# What orjson cannot encode (an int beyond 64 bits, a dict with keys that are not text)
# the standard library encodes the same way: compact, and UTF-8 rather than \u escapes.
_STANDARD_ENCODE: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False,
                                           check_circular=False).encode


def compact_json(value: Any) -> str:
    """JSON text with no spaces and characters as themselves, for messages and stored
    events. Every action encodes a few of them, so it is orjson's (several times the
    standard library's speed)."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return _STANDARD_ENCODE(value)

# Required fields of each message type and their JSON types.
MESSAGE_FIELDS: Final[dict[str, dict[str, type | tuple[type, ...]]]] = {
    "hello": {},
    "entropy": {"value": str},
    "pass": {"cards": list, "state_id": int},
    "play": {"card": str, "state_id": int},
    "moon": {"choice": str, "state_id": int},
    "hint": {},
    "start": {},
    "ping": {},
}


_TYPE_WORDS: Final[dict[type | tuple[type, ...], str]] = {
    int: "a whole number", str: "text", list: "a list"}


class RequestError(Exception):
    """A client message refused, with a stable code and a message saying what is allowed."""

    def __init__(self, code: str, message: str, *, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.legal = legal


def error_message(exc: RequestError, request_id: object = None,
                  state_id: int | None = None) -> dict[str, Any]:
    """The ``error`` event for a rejection."""
    data: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
    if request_id is not None:
        data["id"] = request_id
    if state_id is not None:
        data["state_id"] = state_id
    if exc.legal is not None:
        data["legal"] = exc.legal
    return data


# The largest whole number a client may send (ids, state ids): every JavaScript number up
# to it is exact.
MAX_NUMBER: Final = 2**53


def whole_number(value: object, low: int = -MAX_NUMBER, high: int = MAX_NUMBER
                 ) -> TypeGuard[int]:
    """A JSON whole number from ``low`` to ``high``: true and false are not numbers,
    though Python's bool is an int."""
    return is_whole_number(value, low, high)


def checked_id(data: dict[str, Any]) -> object:
    """The message's ``id``, checked: a JSON-safe whole number or short text."""
    rid = data.get("id")
    if rid is None or whole_number(rid) or (isinstance(rid, str) and len(rid) <= 64):
        return rid
    raise RequestError("bad_message", "id must be a whole number (at most 2^53 either way) "
                       "or text of at most 64 characters")


def decode_json(text: str | bytes, example: str) -> dict[str, Any]:
    """A JSON object from a client, or :class:`RequestError` ``bad_message``: whatever
    :func:`~hearts.core.read_json` refuses, or not an object (``example`` shows the
    form)."""
    try:
        data = read_json(text)
    except JsonTextError as exc:
        raise RequestError("bad_message", f"{exc}; {example}") from None
    if not isinstance(data, dict):
        raise RequestError("bad_message", example)
    return data


async def json_body(request: Request, limit: int, too_large: str, example: str,
                    empty: RequestError | None = None) -> dict[str, Any]:
    """The JSON object of an HTTP request's body, read no further than ``limit`` bytes
    (beyond it ``too_large``, saying so) nor longer than :data:`BODY_SECONDS` (beyond it
    ``too_slow``); an empty body is ``{}``, or the ``empty`` error.
    A body must say it is JSON (``Content-Type: application/json``): a form or
    ``text/plain`` is what another site may post from a visitor's browser unasked (no
    CORS preflight), so it could otherwise open tables and take seats in their name."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise RequestError("not_json", "the body is JSON: send it with Content-Type: "
                           f"application/json, not {media_type or 'none'!r}"[:200])
    raw = await read_body(request.stream(), limit, too_large)
    if not raw and empty is not None:
        raise empty
    return decode_json(raw or b"{}", example)


async def read_body(chunks: AsyncIterator[bytes], limit: int, too_large: str) -> bytes:
    """A request's body from its chunks, read no further than ``limit`` bytes (beyond it
    :class:`RequestError` ``too_large``, saying ``too_large``) and for no longer than
    :data:`BODY_SECONDS` (``too_slow``); a client gone midway is ``bad_message``. Every
    body a route or a relay reads comes through here."""
    raw = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in chunks:
                raw += chunk
                if len(raw) > limit:
                    raise RequestError("too_large", too_large)
    except ClientDisconnect:  # nobody reads the answer; no reason to log a failure
        raise RequestError("bad_message", "the request body was cut off") from None
    except TimeoutError:
        raise RequestError("too_slow", f"the request body did not arrive in full within "
                           f"{BODY_SECONDS:g} seconds") from None
    return bytes(raw)


def parse_message(text: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A checked client message, or :class:`RequestError` (too large, not JSON, bad shape)."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise RequestError("too_large", f"messages are at most {max_bytes} bytes, this was {size}")
    data = decode_json(text, 'a message is a JSON object with a "type", e.g. '
                       '{"type": "play", "card": "QS", "state_id": 7}')
    kind = data.get("type")
    fields = MESSAGE_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise RequestError("unknown_type",
                       f"unknown message type {kind!r}; types are: {', '.join(MESSAGE_FIELDS)}")
    checked_id(data)
    for name, expected in fields.items():
        value = data.get(name)
        if not isinstance(value, expected) or (expected is int and not is_whole_number(value)):
            raise RequestError("bad_message",
                           f"{kind}: field {name!r} must be {_TYPE_WORDS[expected]}")
    if "state_id" in fields and not whole_number(data["state_id"], 0):
        raise RequestError("bad_message", f"{kind}: state_id is a state number from 0 "
                           "(at most 2^53)")
    if kind == "pass" and not all(isinstance(c, str) for c in data["cards"]):
        raise RequestError("bad_message", "pass: cards is a list of card names like \"QS\"")
    if kind == "hello" and not isinstance(data.get("token"), str | None):
        raise RequestError("bad_message", "hello: token is text or null")
    return data


def request_id(data: dict[str, Any]) -> object:
    """The client's request id of a checked message (echoed in ack and error)."""
    return data.get("id")


@dataclass(slots=True)
class TokenBucket:
    """Rate limit per connection: ``burst`` messages at once, ``per_s`` a second sustained."""

    burst: int
    per_s: float
    tokens: float = -1.0
    stamp: float = 0.0

    def allow(self, now: float | None = None) -> bool:
        """Take one token if there is one."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.per_s)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
