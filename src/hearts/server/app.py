"""The web server: lobby API, static client, and one websocket per player or spectator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from hearts.core.errors import HeartsError
from hearts.core.rules import PRESET_HELP, PRESETS, Rules
from hearts.core.state import ChooseMoon, PassCards, Play
from hearts.core.view import view
from hearts.players.hints import Hint, hint, hint_level
from hearts.players.levels import LEVELS, make_player
from hearts.server.hub import Hub
from hearts.server.protocol import (
    ACTION_TYPES,
    RequestError,
    TokenBucket,
    parse_message,
    request_id,
)
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import SqliteStore, Store
from hearts.server.table import Table

__all__ = ["UVICORN_OPTIONS", "Connection", "create_app"]

STATIC = Path(__file__).parent / "static"
PAGES = Path(__file__).parent / "templates"
# Messages over 64 KiB close the socket in the protocol layer; smaller ones over the
# message limit get an error event. Views are small: compressing them costs more CPU
# than it saves on a game server.
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": 65536, "ws_per_message_deflate": False,
                                   "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0}
_PLAYER_RANGES = {"card-commons": (3, 4), "standard": (4, 4), "classic": (2, 6)}


class Connection:
    """One websocket: a send queue drained by its own task, so nobody waits on a slow client."""

    def __init__(self, websocket: WebSocket, queue_size: int) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(queue_size)
        self.overflowed = False
        self.last_rate_error = 0.0

    def send_text(self, text: str) -> None:
        """Queue a message; a client that falls this far behind is disconnected."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.queue.get_nowait()
            self.queue.put_nowait(None)

    def send(self, data: dict[str, Any]) -> None:
        """Queue a JSON message."""
        self.send_text(json.dumps(data, separators=(",", ":")))

    async def drain(self) -> None:
        """Send queued messages until told to stop (None) or the socket fails."""
        while True:
            text = await self.queue.get()
            if text is None:
                break
            await self.websocket.send_text(text)
        await self.websocket.close(code=1008 if self.overflowed else 1000)


def _json_error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 8192:
        raise RequestError("too_large", "request bodies are at most 8192 bytes")
    try:
        data = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        raise RequestError("bad_message", "the request body is a JSON object") from None
    if not isinstance(data, dict):
        raise RequestError("bad_message", "the request body is a JSON object")
    return data


def _table(hub: Hub, request: Request) -> Table:
    table = hub.tables.get(str(request.path_params["table_id"]))
    if table is None:
        raise RequestError("no_table", "no table with this id")
    return table


def create_app(db: str | Path | Store, config: ServerConfig | None = None) -> Starlette:
    """The application: serves the lobby, tables, how-to-play pages and websockets."""
    config = config or ServerConfig()
    store: Store = SqliteStore(db) if isinstance(db, str | Path) else db
    hub = Hub(store, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.load()
        hub.start()
        upkeep = asyncio.create_task(_maintain(store))
        # Build the hint player once in the background: the first search player of a
        # process loads (after an install: compiles) its kernel, which takes seconds.
        warm_up = asyncio.create_task(asyncio.to_thread(make_player, hint_level()))
        yield
        warm_up.cancel()
        upkeep.cancel()
        await hub.stop()
        store.close()

    async def page(request: Request) -> Response:
        return FileResponse(PAGES / request.scope["route"].name)

    async def how_to_play(request: Request) -> Response:
        preset = str(request.path_params["preset"])
        if preset not in PRESETS:
            return _json_error(404, "no_preset", f"presets are: {', '.join(PRESETS)}")
        body = (PAGES / "how-to-play" / f"{preset}.html").read_text(encoding="utf-8")
        title = body.partition("How to play: ")[2].partition("<")[0]
        shell = (PAGES / "how-to-play.html").read_text(encoding="utf-8")
        return HTMLResponse(shell.replace("{title}", title).replace("{preset}", preset)
                            .replace("{body}", body))

    async def api_config(request: Request) -> Response:
        return JSONResponse({
            "levels": list(LEVELS), "takeover_level": config.takeover_level,
            "presets": [{"name": p, "help": PRESET_HELP[p], "players": _PLAYER_RANGES[p],
                         "target": Rules.preset_rules(p, _PLAYER_RANGES[p][1]).target}
                        for p in PRESETS],
        })

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.open_tables()})

    async def create_table(request: Request) -> Response:
        data = await _body(request)
        seats = data.get("seats")
        players = data.get("players", 4)
        target = data.get("target")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RequestError("bad_message", "seats is a list: 'human' or a level for each seat")
        if not isinstance(players, int) or not (target is None or isinstance(target, int)):
            raise RequestError("bad_message", "players and target are whole numbers")
        name = str(data.get("name", "")).strip()
        if not name:
            raise RequestError("bad_message", "say your name to sit at the table")
        try:
            settings = TableSettings.build(
                preset=str(data.get("preset", "card-commons")), players=players,
                options=str(data.get("options", "")), target=target, seats=seats,
                public=bool(data.get("public", True)),
                title=str(data.get("title", "") or f"{name}'s table"),
                bot_seed=secrets.token_hex(8))
        except HeartsError as exc:
            raise RequestError("bad_rules", str(exc)) from None
        table, token = hub.create(settings, name)
        return JSONResponse({"table": table.public_info(), "seat": 0, "token": token,
                             "url": f"/t/{table.table_id}"}, status_code=201)

    async def table_info(request: Request) -> Response:
        table = _table(hub, request)
        return JSONResponse(table.public_info() | {"free": table.free_seats()})

    async def join_table(request: Request) -> Response:
        table = _table(hub, request)
        data = await _body(request)
        seat = data.get("seat")
        if seat is not None and not isinstance(seat, int):
            raise RequestError("bad_message", "seat is a seat number from 0, or null")
        token = secrets.token_urlsafe(24)
        async with table.lock:
            taken = table.join(str(data.get("name", "")), token, seat)
        return JSONResponse({"seat": taken, "token": token, "table": table.public_info()})

    async def table_record(request: Request) -> Response:
        table = _table(hub, request)
        if not table.state.is_over:
            raise RequestError("in_progress", "the record is available once the game is over "
                           "(it shows every hand)")
        body = json.dumps(table.record(), indent=1)
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="hearts-{table.table_id}.json"'})

    async def rejected(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        status = {"no_table": 404, "in_progress": 409, "no_seat": 409,
                  "too_large": 413}.get(exc.code, 400)
        return _json_error(status, exc.code, exc.message)

    async def websocket_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        table = hub.tables.get(str(websocket.path_params["table_id"]))
        if table is None:
            await websocket.send_json({"type": "error", "code": "no_table",
                                       "message": "no table with this id"})
            await websocket.close(code=4404)
            return
        conn = Connection(websocket, config.send_queue)
        drainer = asyncio.create_task(conn.drain())
        bucket = TokenBucket(config.rate_burst, config.rate_per_s)
        greeted = False
        try:
            while not conn.overflowed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text") or message.get("bytes") or b""
                if not bucket.allow():
                    now = time.monotonic()
                    if now - conn.last_rate_error >= 1.0:
                        conn.last_rate_error = now
                        table.send_error(conn, RequestError(
                            "rate_limited", f"slow down: at most {config.rate_per_s:g} "
                            f"messages a second; this one was dropped"))
                    continue
                try:
                    data = parse_message(text, config.max_message_bytes)
                    greeted = await _handle(table, conn, data, greeted)
                except RequestError as exc:
                    table.send_error(conn, exc, _safe_id(text))
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            if conn.queue.full():
                drainer.cancel()
            else:
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await drainer

    async def _handle(table: Table, conn: Connection, data: dict[str, Any],
                      greeted: bool) -> bool:
        kind = data["type"]
        if kind == "hello":
            if greeted:
                table.detach(conn)
            token = data.get("token")
            seat = table.seat_of(token)
            if token and seat is None:
                conn.send({"type": "error", "code": "bad_token",
                           "message": "this seat token belongs to no seat here; "
                           "you are watching as a spectator"})
            conn.seat = seat
            table.attach(conn)
            welcome = table.message_for(seat, "welcome")
            welcome.update(seat=seat, fairness=table.fairness_public(), hints=True,
                           id=request_id(data))
            conn.send(welcome)
            return True
        if not greeted:
            raise RequestError("hello_first", "say hello first: {\"type\": \"hello\", "
                           "\"token\": YOUR_SEAT_TOKEN or null to watch}")
        if kind in ACTION_TYPES:
            async with table.lock:
                table.submit(conn, data)
        elif kind == "entropy":
            async with table.lock:
                table.add_entropy(conn.seat, data["value"])
            conn.send({"type": "ack", "id": request_id(data), "state_id": table.state_id})
        elif kind == "start":
            if conn.seat is None:
                raise RequestError("not_seated", "only a seated player may start the game")
            async with table.lock:
                table.fill_with_computers()
        elif kind == "hint":
            conn.send(await _hint_message(table, conn.seat, data))
        else:
            conn.send({"type": "pong", "id": request_id(data), "state_id": table.state_id})
        return True

    async def _hint_message(table: Table, seat: int | None,
                            data: dict[str, Any]) -> dict[str, Any]:
        if seat is None or seat not in table.state.to_act:
            raise RequestError("not_your_turn", "hints are for the seat whose decision it is")
        advice = await asyncio.to_thread(hint, view(table.state, seat))
        return {"type": "hint", "id": request_id(data), "state_id": table.state_id,
                "hint": _hint_json(advice)}

    routes = [
        Route("/", page, name="lobby.html"),
        Route("/t/{table_id}", page, name="table.html"),
        Route("/how-to-play/{preset}", how_to_play),
        Route("/api/config", api_config),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record),
        WebSocketRoute("/ws/{table_id}", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={RequestError: rejected})
    app.state.hub = hub
    return app


async def _maintain(store: Store, every_s: float = 2.0) -> None:
    """Storage housekeeping in a thread, every few seconds, for as long as the server runs."""
    while True:
        await asyncio.sleep(every_s)
        await asyncio.to_thread(store.maintain)


def _safe_id(text: str | bytes) -> object:
    """The request id of a refused message, when it can be read at all."""
    try:
        data = json.loads(text) if len(text) <= 4096 else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    rid = data.get("id") if isinstance(data, dict) else None
    return rid if isinstance(rid, int | str) and not isinstance(rid, bool) else None


def _hint_json(advice: Hint) -> dict[str, Any]:
    """A hint as JSON: the reason, and the cards or the moon choice it suggests."""
    action = advice.action
    cards: list[str] = []
    choice = None
    if isinstance(action, Play):
        cards = [str(action.card)]
    elif isinstance(action, PassCards):
        cards = action.cards.names()
    elif isinstance(action, ChooseMoon):
        choice = action.choice.value
    return {"text": advice.reason, "cards": cards, "choice": choice}
