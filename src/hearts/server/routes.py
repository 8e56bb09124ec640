"""The HTTP side: pages, static files and the lobby API (``docs/web-protocol.md``).

Module-level endpoints, as Starlette's own applications write them; each finds the
server's tables in ``request.app.state.hub``.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from hearts.core import PLAYER_COUNTS, PRESET_HELP, PRESETS, HeartsError, Rules
from hearts.players import LEVELS
from hearts.server.hub import Hub
from hearts.server.protocol import RequestError
from hearts.server.settings import TableSettings
from hearts.server.table import Table

__all__ = ["PAGES", "ROUTES", "STATIC", "rejected"]

STATIC = Path(__file__).parent / "static"
PAGES = Path(__file__).parent / "templates"

# The HTTP status of each refusal code (400 for the others).
_STATUS = {"no_table": 404, "in_progress": 409, "no_seat": 409, "too_large": 413}


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


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


def _table(request: Request) -> Table:
    table = _hub(request).tables.get(str(request.path_params["table_id"]))
    if table is None:
        raise RequestError("no_table", "no table with this id")
    return table


async def rejected(request: Request, exc: Exception) -> Response:
    """A refused request as ``{"error": CODE, "message": TEXT}``."""
    assert isinstance(exc, RequestError)
    return _json_error(_STATUS.get(exc.code, 400), exc.code, exc.message)


async def page(request: Request) -> Response:
    """A static page, named by its route."""
    return FileResponse(PAGES / request.scope["route"].name)


async def how_to_play(request: Request) -> Response:
    """The rules of a preset in our words."""
    preset = str(request.path_params["preset"])
    if preset not in PRESETS:
        return _json_error(404, "no_preset", f"presets are: {', '.join(PRESETS)}")
    body = (PAGES / "how-to-play" / f"{preset}.html").read_text(encoding="utf-8")
    title = body.partition("How to play: ")[2].partition("<")[0]
    shell = (PAGES / "how-to-play.html").read_text(encoding="utf-8")
    return HTMLResponse(shell.replace("{title}", title).replace("{preset}", preset)
                        .replace("{body}", body))


async def api_config(request: Request) -> Response:
    """Levels and presets for the lobby form: each preset's player counts and target."""
    presets = []
    for name in PRESETS:
        counts = PLAYER_COUNTS[name]
        presets.append({"name": name, "help": PRESET_HELP[name],
                        "players": [counts[0], counts[-1]],
                        "target": Rules.preset_rules(name, counts[-1]).target})
    return JSONResponse({"levels": list(LEVELS),
                         "takeover_level": _hub(request).config.takeover_level,
                         "presets": presets})


async def list_tables(request: Request) -> Response:
    """Public tables whose game is not over."""
    return JSONResponse({"tables": _hub(request).open_tables()})


async def create_table(request: Request) -> Response:
    """A new table with its creator in seat 1."""
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
    table, token = _hub(request).create(settings, name)
    return JSONResponse({"table": table.authority.public_info(), "seat": 0, "token": token,
                         "url": f"/t/{table.table_id}"}, status_code=201)


async def table_info(request: Request) -> Response:
    """A table's public facts and its free seats."""
    authority = _table(request).authority
    return JSONResponse(authority.public_info() | {"free": authority.free_seats()})


async def join_table(request: Request) -> Response:
    """Take a free seat: the answer holds the seat token."""
    table = _table(request)
    data = await _body(request)
    seat = data.get("seat")
    if seat is not None and not isinstance(seat, int):
        raise RequestError("bad_message", "seat is a seat number from 0, or null")
    token = secrets.token_urlsafe(24)
    taken = table.join(str(data.get("name", "")), token, seat)
    return JSONResponse({"seat": taken, "token": token, "table": table.authority.public_info()})


async def table_record(request: Request) -> Response:
    """The game record as a download, once the game is over (it shows every hand)."""
    table = _table(request)
    if not table.authority.state.is_over:
        raise RequestError("in_progress", "the record is available once the game is over "
                           "(it shows every hand)")
    body = json.dumps(table.authority.record(), indent=1)
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="hearts-{table.table_id}.json"'})


# Every HTTP route; the websocket's is added beside them in :mod:`hearts.server.app`.
ROUTES: list[BaseRoute] = [
    Route("/", page, name="lobby.html"),
    Route("/t/{table_id}", page, name="table.html"),
    Route("/how-to-play/{preset}", how_to_play),
    Route("/api/config", api_config),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", table_info),
    Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
    Route("/api/tables/{table_id}/record", table_record),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
