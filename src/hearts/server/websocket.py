"""The websocket endpoint ``/ws/{table_id}``: one connection per player or spectator.

It moves messages: each is rate limited, shape-checked (:mod:`hearts.server.protocol`)
and handed to the table, here or, through the bus, on the node that owns it
(:class:`hearts.server.hub.Session`); the table's authority decides what is allowed and
what each connection is told (``docs/web-protocol.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from hearts.core import encode_action
from hearts.players import Hint, hint
from hearts.players.hints import CHANCES, chance_percent
from hearts.server.connection import Connection
from hearts.server.hub import Hub, Session, Sink
from hearts.server.protocol import (
    ACTION_TYPES,
    RequestError,
    TokenBucket,
    checked_id,
    decode_json,
    parse_message,
    request_id,
)
from hearts.server.table import Table

__all__ = ["serve_text", "table_socket"]

log = logging.getLogger(__name__)


async def table_socket(websocket: WebSocket) -> None:
    """Serve one connection to a table until it closes (the table may be on another node:
    the session relays)."""
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    table_id = str(websocket.path_params["table_id"])
    try:
        target = await hub.resolve(table_id)
    except RequestError as exc:
        await websocket.send_json({"type": "error", "code": exc.code, "message": exc.message})
        await websocket.close(code=1013)  # try again later
        return
    if target is None:
        await websocket.send_json({"type": "error", "code": "no_table",
                                   "message": "no table with this id"})
        await websocket.close(code=4404)
        return
    conn = Connection(websocket, hub.config.send_queue)
    drainer = asyncio.create_task(conn.drain())
    session = Session(hub, table_id, conn)
    session.place(target)
    hub.sessions[session.key] = session
    try:
        while not conn.overflowed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await session.handle(message.get("text") or message.get("bytes") or b"")
    except WebSocketDisconnect:
        pass
    finally:
        hub.sessions.pop(session.key, None)
        session.leave()
        if conn.queue.full():
            drainer.cancel()
        else:
            conn.queue.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await drainer


async def serve_text(hub: Hub, table: Table, conn: Sink, bucket: TokenBucket,
                     text: str | bytes, greeted: bool) -> bool:
    """One client message for a table on this node (from a websocket here, or relayed
    from another node): rate limited, checked and answered; whether the connection has
    said hello."""
    authority = table.authority
    config = hub.config
    if not bucket.allow():
        now = time.monotonic()
        if now - conn.last_rate_error >= 1.0:
            conn.last_rate_error = now
            authority.send_error(conn, RequestError(
                "rate_limited", f"slow down: at most {config.rate_per_s:g} "
                f"messages a second; this one was dropped"))
        return greeted
    data: dict[str, Any] | None = None
    try:
        data = parse_message(text, config.max_message_bytes)
        return await _handle(hub, table, conn, data, greeted)
    except RequestError as exc:
        authority.send_error(conn, exc, _safe_id(text))
    except Exception:  # the error boundary: a bug answers this message, no more
        log.exception("table %s, seat %s: failed on a %r message", table.table_id,
                      conn.seat, None if data is None else data["type"])
        authority.send_error(conn, RequestError(
            "server_error", "the server failed on this message (it is logged); "
            "try again"), _safe_id(text))
    return greeted


async def _handle(hub: Hub, table: Table, conn: Sink, data: dict[str, Any],
                  greeted: bool) -> bool:
    """Answer one checked message; whether the connection has said hello."""
    authority = table.authority
    kind = data["type"]
    if kind == "hello":
        if greeted:
            table.detach(conn)
        token = data.get("token")
        seat = authority.seat_of(token)
        if token and seat is None:
            conn.send({"type": "error", "code": "bad_token",
                       "message": "this seat token belongs to no seat here; "
                       "you are watching as a spectator"})
        if seat is not None and authority.seat_is_full(seat):
            conn.send({"type": "error", "code": "too_many_connections",
                       "message": f"this seat already has {table.config.max_seat_connections}"
                       " connections: close one to play here; you are watching as a "
                       "spectator"})
            seat = None
        conn.seat = seat
        table.attach(conn)
        authority.welcome(conn, request_id(data))
        return True
    if not greeted:
        raise RequestError("hello_first", "say hello first: {\"type\": \"hello\", "
                           "\"token\": YOUR_SEAT_TOKEN or null to watch}")
    if kind in ACTION_TYPES:
        await table.submit(conn, data, request_id(data))
    elif kind == "entropy":
        table.add_entropy(conn.seat, data["value"])
        conn.send({"type": "ack", "id": request_id(data), "state_id": authority.state_id})
    elif kind == "start":
        if conn.seat is None:
            raise RequestError("not_seated", "only a seated player may start the game")
        if not authority.started and not authority.may_start(conn.seat):
            raise RequestError("not_creator", f"{authority.seats[0].name}, who made this "
                               "table, starts it while connected: ask them, or wait for "
                               "the free seats to fill")
        table.fill_with_computers()
    elif kind == "hint":
        seen = authority.hint_view(conn.seat)
        state_id = authority.state_id
        async with hub.searches:  # one hint search at a time on this server, in turn
            advice = await asyncio.to_thread(hint, seen)
        conn.send({"type": "hint", "id": request_id(data), "state_id": state_id,
                   "hint": _hint_json(advice)})
    else:
        conn.send({"type": "pong", "id": request_id(data), "state_id": authority.state_id})
    return True


def _safe_id(text: str | bytes) -> object:
    """The request id of a refused message, when it can be read at all."""
    try:
        data = decode_json(text, "") if len(text) <= 4096 else None
        return checked_id(data) if data is not None else None
    except RequestError:
        return None


# The chances among a candidate's figures, sent as whole percents.
_CHANCE_FIGURES: Final = (*CHANCES, "game_ends")


def _hint_json(advice: Hint) -> dict[str, Any]:
    """A hint as JSON: the kind of action it suggests (``play``, ``pass`` or ``moon``) so a
    face can name the move, the reason, the cards or the moon choice, and the search's
    figures for each candidate it weighed, as a line and as a list (empty for a rule-based
    hint; a card with the others that play alike with it; each chance in whole percents,
    as every face shows it, so ``chances`` can be told from them), and the chances among
    them worth a column (``chances``)."""
    kind, fields = encode_action(advice.action)
    cards = [fields["card"]] if kind == "play" else fields.get("cards", [])
    figures = [{"cards": f.cards.names(), "points": round(f.points, 2),
                "utility": round(f.utility, 2),
                **{name: chance_percent(getattr(f, name)) / 100 for name in _CHANCE_FIGURES},
                "worlds": f.worlds, "alike": f.alike.names()} for f in advice.figures]
    return {"kind": kind, "text": advice.reason, "cards": cards, "choice": fields.get("choice"),
            "details": advice.details, "figures": figures, "chances": list(advice.chances)}
