"""The websocket message protocol: checking client messages' shape, errors, rate limits.

Every client message is a JSON object with a ``type``; see ``docs/web-protocol.md``.
Shape problems are answered with an ``error`` event and the connection carries on.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "ACTION_TYPES",
    "MESSAGE_FIELDS",
    "RequestError",
    "TokenBucket",
    "error_message",
    "parse_message",
    "request_id",
]

ACTION_TYPES: Final = frozenset({"pass", "play", "moon"})

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


def _request_id(data: dict[str, Any]) -> object:
    rid = data.get("id")
    if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    if isinstance(rid, str) and len(rid) <= 64:
        return rid
    raise RequestError("bad_message", "id must be a whole number or text of at most 64 characters")


def parse_message(text: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A checked client message, or :class:`RequestError` (too large, not JSON, bad shape)."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > max_bytes:
        raise RequestError("too_large", f"messages are at most {max_bytes} bytes, this was {size}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RequestError("bad_message", "a message is a JSON object, e.g. "
                       '{"type": "play", "card": "QS", "state_id": 7}') from None
    if not isinstance(data, dict):
        raise RequestError("bad_message", "a message is a JSON object with a \"type\"")
    kind = data.get("type")
    fields = MESSAGE_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise RequestError("unknown_type",
                       f"unknown message type {kind!r}; types are: {', '.join(MESSAGE_FIELDS)}")
    _request_id(data)
    for name, expected in fields.items():
        value = data.get(name)
        if not isinstance(value, expected) or isinstance(value, bool):
            raise RequestError("bad_message",
                           f"{kind}: field {name!r} must be {_TYPE_WORDS[expected]}")
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
