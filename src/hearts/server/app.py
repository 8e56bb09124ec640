"""The web server's application: the HTTP routes, the websocket endpoint and the tables'
life from start-up to shutdown.

With a bus, :class:`ClusterRouting` sends a table's HTTP requests to the node that owns it
(through the bus), lists the open tables of every node, and answers a change (``POST``)
only once the store holds it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hearts.players import make_player
from hearts.players.hints import hint_level
from hearts.server.challenge_routes import CHALLENGE_ROUTES
from hearts.server.hub import Hub
from hearts.server.protocol import RequestError, read_body
from hearts.server.routes import (
    MAX_BODY_BYTES,
    ROUTES,
    SMALL_BODY_TOO_LARGE,
    http_refusal,
    is_outage,
    refusal_status,
    server_failure,
)
from hearts.server.score_routes import SCORE_ROUTES
from hearts.server.settings import ServerConfig, ServerConfigError
from hearts.server.store import DeferredStore, SqliteStore, Store, is_postgres_url
from hearts.server.websocket import serve_text, table_socket

if TYPE_CHECKING:
    from hearts.server.bus import Bus

__all__ = ["UVICORN_OPTIONS", "ClusterRouting", "SettledSends", "create_app", "maintain_store"]

# Messages over 64 KiB close the socket in the protocol layer; smaller ones over the
# message limit get an error event. Views are small: compressing them costs more CPU
# than it saves on a game server.
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": 65536, "ws_per_message_deflate": False,
                                   "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0}


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the store (and the bus) and run the tables this process serves (with no bus:
    every stored table); stop them, give the leases back and close the store at shutdown."""
    hub: Hub = app.state.hub
    await hub.open()
    upkeep = asyncio.create_task(maintain_store(hub.store))
    # Build the hint player once in the background: the first search player of a
    # process loads (after an install: compiles) its kernel, which takes seconds.
    warm_up = asyncio.create_task(asyncio.to_thread(make_player, hint_level()))
    yield
    warm_up.cancel()
    upkeep.cancel()
    await hub.stop()


def open_store(db: str | Path | Store) -> Store:
    """The store a ``--db`` value names: a ``postgresql://`` URL or an SQLite file."""
    if isinstance(db, str) and is_postgres_url(db):
        # imported here: a server on SQLite never loads the PostgreSQL driver
        from hearts.server.store_postgres import PostgresStore, check_reachable

        check_reachable(db)
        return PostgresStore(db)
    return SqliteStore(db) if isinstance(db, str | Path) else db


def create_app(db: str | Path | Store, config: ServerConfig | None = None,
               bus: Bus | None = None) -> Starlette:
    """The application: serves the lobby, tables, how-to-play pages and websockets (as one
    node of several when given a bus, whose store must then be shared: PostgreSQL;
    ServerConfigError otherwise)."""
    store = open_store(db)
    if bus is not None and not isinstance(store, DeferredStore):
        raise ServerConfigError("processes connected by a bus share their tables: give them a "
                         "PostgreSQL store (--db postgresql://...), not an SQLite file")
    if bus is not None:
        from hearts.server.bus import check_reachable as check_bus

        check_bus(bus.url)  # refused in words now, not as a traceback at start-up
    hub = Hub(store, config or ServerConfig(), bus)
    hub.serve = serve_text
    middleware = ([Middleware(ClusterRouting)] if isinstance(store, DeferredStore)
                  else [Middleware(SettledSends, settle=store.settle)])
    app = Starlette(routes=[*ROUTES, *SCORE_ROUTES, *CHALLENGE_ROUTES,
                            WebSocketRoute("/ws/{table_id}", table_socket)],
                    middleware=middleware, lifespan=lifespan,
                    # the last boundary: what fails outside a route (a middleware waiting
                    # on the store or the bus) is answered in the API's error shape too
                    exception_handlers={HTTPException: http_refusal,
                                        Exception: server_failure})
    app.state.hub = hub
    hub.http = lambda request: _answer_here(app, request)
    return app


class SettledSends:
    """Every message the server sends, HTTP or websocket, leaves only once the store has
    made durable every write accepted before it (the SQLite store groups the events of
    a loop turn into one commit): the one place where nothing unstored can be told."""

    def __init__(self, app: ASGIApp, settle: Callable[[], None]) -> None:
        self.app = app
        self.settle = settle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        settle = self.settle

        async def settled_send(message: Message) -> None:
            settle()
            await send(message)

        await self.app(scope, receive, settled_send)


# The HTTP requests about one table, which its owner answers.
_TABLE_PATH = re.compile(r"^/api/tables/([^/]+)(/join|/record)?$")


class ClusterRouting:
    """HTTP with a deferred store and a bus: a change is answered once it is stored; a
    table's request is answered by its owner; the lobby lists every node's tables."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)
        try:
            await self._route(scope, receive, tracked)
        except Exception as exc:
            # an outage (the lobby, a table's owner or a change's writes out of reach) is
            # answered here, logged in a line; the app's handler answers anything else
            if started or not is_outage(exc):
                raise
            await (await server_failure(Request(scope), exc))(scope, receive, send)

    async def _route(self, scope: Scope, receive: Receive, send: Send) -> None:
        hub: Hub = scope["app"].state.hub
        path, method = scope["path"], scope["method"]
        if hub.bus is not None and not scope.get("relayed"):
            if path == "/api/tables" and method == "GET":
                await _send_json(send, 200, {"tables": await hub.all_open_tables()})
                return
            match = _TABLE_PATH.match(path)
            if match:
                try:
                    target = await hub.resolve(match.group(1))
                    if isinstance(target, str):
                        try:  # read as a route reads a body: in its limits of size and time
                            body = await read_body(Request(scope, receive).stream(),
                                                   MAX_BODY_BYTES, SMALL_BODY_TOO_LARGE)
                        except RequestError as exc:
                            await _send_json(send, refusal_status(exc.code),
                                             {"error": exc.code, "message": exc.message})
                            return
                        reply = await hub.relay_http(target, {
                            "method": method, "path": path,
                            "query": scope["query_string"].decode("latin-1"),
                            "body": base64.b64encode(body).decode("ascii")})
                        await _send_raw(send, reply)
                        return
                except RequestError as exc:
                    if is_outage(exc):
                        raise  # answered above, with its Retry-After
                    await _send_json(send, 503, {"error": exc.code, "message": exc.message})
                    return
        if method == "GET":
            await self.app(scope, receive, send)
            return

        async def settled(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                await hub.settle()  # a refusal changed nothing: it waits for no write
            await send(message)
        await self.app(scope, receive, settled)


async def _send_json(send: Send, status: int, data: dict[str, Any]) -> None:
    await _send_raw(send, {"status": status, "headers": [["content-type", "application/json"]],
                           "body": base64.b64encode(json.dumps(data).encode()).decode()})


async def _send_raw(send: Send, reply: dict[str, Any]) -> None:
    await send({"type": "http.response.start", "status": reply["status"],
                "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                            for k, v in reply["headers"]]})
    await send({"type": "http.response.body", "body": base64.b64decode(reply["body"])})


async def _answer_here(app: Starlette, request: dict[str, Any]) -> dict[str, Any]:
    """Answer an HTTP request that another node relayed, as if it had come here."""
    body = base64.b64decode(request["body"])
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
        "method": request["method"], "scheme": "http", "path": request["path"],
        "raw_path": request["path"].encode(), "root_path": "",
        "query_string": request["query"].encode("latin-1"),
        "headers": [(b"content-type", b"application/json")], "client": None,
        "server": None, "relayed": True}
    sent = False
    status, headers, chunks = 500, [], bytearray()

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # nothing more: the body was whole
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = [[k.decode("latin-1"), v.decode("latin-1")]
                       for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            chunks.extend(message.get("body", b""))
    # the app's last boundary answers a failure (and logs it) but raises it on, for a
    # server to log: the asking node must get that answer, not wait out its timeout
    with contextlib.suppress(Exception):
        await app(scope, receive, send)
    return {"status": status, "headers": headers,
            "body": base64.b64encode(bytes(chunks)).decode("ascii")}


async def maintain_store(store: Store, every_s: float = 2.0) -> None:
    """Storage housekeeping in a thread, every few seconds, for as long as the server runs."""
    while True:
        await asyncio.sleep(every_s)
        await asyncio.to_thread(store.maintain)
