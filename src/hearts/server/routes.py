"""The HTTP side: pages, static files and the lobby API (``docs/web-protocol.md``).

Module-level endpoints, as Starlette's own applications write them; each finds the
server's tables in ``request.app.state.hub``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import logging
import secrets
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from hearts.core import (
    PLAYER_COUNTS,
    PRESET_HELP,
    PRESETS,
    HeartsError,
    Rules,
    echoed,
    shown_name,
)
from hearts.players import LEVELS
from hearts.server.hub import Hub
from hearts.server.player_routes import key_digest, my_games, player_key
from hearts.server.protocol import RequestError, json_body, whole_number
from hearts.server.replay_routes import replay_frames
from hearts.server.settings import TableSettings, table_title
from hearts.server.slots import RETRY_AFTER_S
from hearts.server.store import StoreUnavailableError
from hearts.server.table import Table
from hearts.wording import sentence

__all__ = ["MAX_BODY_BYTES", "PAGES", "READY_TIMEOUT_S", "ROUTES", "SETTLE_TIMEOUT_S",
           "SMALL_BODY_TOO_LARGE", "STATIC", "UNAVAILABLE_RETRY_S", "guarded", "http_refusal",
           "is_outage", "refusal_status", "server_failure", "small_body"]

log = logging.getLogger(__name__)

MAX_BODY_BYTES: Final = 8192

STATIC = Path(__file__).parent / "static"
PAGES = Path(__file__).parent / "templates"

# The HTTP status of each refusal code (400 for the others).
_STATUS = {"no_table": 404, "in_progress": 409, "no_seat": 409, "too_large": 413,
           "not_json": 415, "too_slow": 408,
           "no_sheet": 404, "not_keeper": 403, "no_challenge": 404, "stale_challenge": 409,
           "busy": 503, "unavailable": 503, "table_moving": 503}

READY_TIMEOUT_S: Final = 2.0
"""How long ``/readyz`` waits for the store and the bus to answer."""

SETTLE_TIMEOUT_S: Final = 6.0
"""How long a new table may take to be stored (and its lease taken) before it is refused."""

UNAVAILABLE_RETRY_S: Final = 5
"""The ``Retry-After`` of an ``unavailable`` refusal (the store or bus is out)."""

# The exceptions, by module and name, that mean the database or the bus cannot be reached
# just now (looked up by name: a server on SQLite loads neither driver).
_OUTAGES: Final = (("redis.exceptions", "ConnectionError"), ("redis.exceptions", "TimeoutError"),
                   ("psycopg", "OperationalError"))


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _json_error(status: int, code: str, message: str) -> JSONResponse:
    headers = ({"Retry-After": str(RETRY_AFTER_S)} if code == "busy" else
               {"Retry-After": str(UNAVAILABLE_RETRY_S)} if code == "unavailable" else None)
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=headers)


# Starlette's own refusals, as the API names them.
_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed"}


async def http_refusal(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) in the
    API's error shape under ``/api/``, as every other refusal there is; a page keeps the
    plain text answer."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)
    allowed = (exc.headers or {}).get("Allow")
    message = (f"no such route: {request.method} {request.url.path}"[:200]
               if exc.status_code == 404 else
               f"{request.url.path[:120]} does not take {request.method}"
               + (f"; it takes {allowed}" if allowed else ""))
    return JSONResponse({"error": _HTTP_CODES.get(exc.status_code, "bad_request"),
                         "message": message}, status_code=exc.status_code,
                        headers=exc.headers)


SMALL_BODY_TOO_LARGE: Final = f"request bodies are at most {MAX_BODY_BYTES} bytes"


def refusal_status(code: str) -> int:
    """The HTTP status of a refusal's code (400 for most)."""
    return _STATUS.get(code, 400)


async def small_body(request: Request) -> dict[str, Any]:
    """The JSON object of a lobby request's body, read no further than its limit."""
    return await json_body(request, MAX_BODY_BYTES, SMALL_BODY_TOO_LARGE,
                           "the request body is a JSON object")


def _text(data: dict[str, Any], key: str, default: str = "") -> str:
    """An optional text field of a request body."""
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RequestError("bad_message", f"{key} is text, not {type(value).__name__}")
    return value


def _table(request: Request) -> Table:
    table = _hub(request).tables.get(str(request.path_params["table_id"]))
    if table is None:
        raise RequestError("no_table", "no table with this id")
    return table


def is_outage(exc: BaseException) -> bool:
    """Whether an exception means the database or the bus cannot be reached just now."""
    if isinstance(exc, StoreUnavailableError):
        return True
    for module_name, name in _OUTAGES:
        module = sys.modules.get(module_name)
        kind = getattr(module, name, None) if module is not None else None
        if isinstance(kind, type) and isinstance(exc, kind):
            return True
    return False


def _failure(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request that failed: a refusal's own code; ``503 unavailable`` for
    an outage of the store or the bus (logged in a line); ``500 server_error`` (logged with
    its traceback) for anything else."""
    if isinstance(exc, RequestError):
        return _json_error(refusal_status(exc.code), exc.code, exc.message)
    if is_outage(exc):
        log.warning("%s %s: the store or the bus cannot be reached (%s: %s)", request.method,
                    request.url.path, type(exc).__name__, str(exc).strip()[:200])
        return _json_error(503, "unavailable", "the server's database or message bus cannot "
                           "be reached just now; try again in a moment")
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return _json_error(500, "server_error", "the server failed on this request "
                       "(it is logged); try again")


async def server_failure(request: Request, exc: Exception) -> Response:
    """The application's last error boundary (``exception_handlers={Exception: ...}``):
    what fails outside a route (a middleware waiting on the store or the bus) is answered
    in the API's error shape too, as :func:`guarded` answers inside one."""
    return _failure(request, exc)


def guarded(endpoint: Callable[[Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
    """The HTTP routes' error boundary: a refused request is ``{"error": CODE, "message":
    TEXT}`` with its 4xx status; an outage of the store or the bus is ``503 unavailable``
    (retryable); anything else that fails is logged with the request and answered 500
    ``server_error``, never a bare traceback."""
    @functools.wraps(endpoint)
    async def answer(request: Request) -> Response:
        try:
            return await endpoint(request)
        except Exception as exc:
            return _failure(request, exc)
    return answer


def _refuse_while_down(hub: Hub) -> None:
    """Refuse a change at once while the store's writes cannot reach the database."""
    if getattr(hub.store, "down", False):
        raise StoreUnavailableError()


async def _stored(hub: Hub, table_id: str) -> None:
    """Wait (a bounded time) until what this node did is stored and the lease of the table
    ``table_id`` is taken; :class:`StoreUnavailableError` if that fails or takes too long."""
    try:
        await asyncio.wait_for(hub.settle(table_id), SETTLE_TIMEOUT_S)
    except StoreUnavailableError:
        raise
    except TimeoutError:
        raise StoreUnavailableError("the database or the message bus") from None
    except Exception as exc:
        if not is_outage(exc):
            raise
        raise StoreUnavailableError("the database or the message bus") from None


async def _undo_create(hub: Hub, table: Table) -> None:
    """Unmake a table whose creation failed, so that no lobby lists it and no computer
    plays it out: stop it, drop or delete what of it was stored, give its lease back."""
    table_id = table.table_id
    hub.tables.pop(table_id, None)
    await table.stop()
    discard = getattr(hub.store, "discard", None)
    if discard is not None:
        discard(table_id)
    if hub.bus is not None:
        hub.bus.owned.discard(table_id)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(hub.bus.release(table_id), READY_TIMEOUT_S)
    log.warning("table %s: its creation failed (the store or the bus is out); undone",
                table_id)


async def healthz(request: Request) -> Response:
    """Liveness: the process answers HTTP (it checks nothing else)."""
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    """Readiness: the store and the bus (if any) each answer within
    :data:`READY_TIMEOUT_S`; else 503 ``unavailable`` naming what is down."""
    hub = _hub(request)
    checks: dict[str, Awaitable[Any]] = {}
    ping = getattr(hub.store, "ping", None)
    if ping is not None:
        checks["store"] = ping(timeout=READY_TIMEOUT_S)
    if hub.bus is not None:
        checks["bus"] = hub.bus.redis.ping()

    async def check(work: Awaitable[Any]) -> str:
        try:
            await asyncio.wait_for(work, READY_TIMEOUT_S)
        except Exception as exc:
            return f"down ({type(exc).__name__})"
        return "ok"

    results = dict(zip(checks, await asyncio.gather(*map(check, checks.values())),
                       strict=True))
    down = [name for name, result in results.items() if result != "ok"]
    if hub.bus is None:
        results["bus"] = "none"
    if down:
        return JSONResponse({"error": "unavailable", "ready": False, "down": down,
                             "message": f"cannot be reached: {', '.join(down)}", **results},
                            status_code=503,
                            headers={"Retry-After": str(UNAVAILABLE_RETRY_S)})
    return JSONResponse({"ready": True, **results})


async def page(request: Request) -> Response:
    """A static page, named by its route."""
    return FileResponse(PAGES / request.scope["route"].name)


async def how_to_play(request: Request) -> Response:
    """The rules of a preset in our words."""
    preset = str(request.path_params["preset"])
    shell = (PAGES / "how-to-play.html").read_text(encoding="utf-8")
    if preset not in PRESETS:  # a page, so a person's answer: the rules there are, linked
        links = "".join(f'<li><a href="/how-to-play/{name}">{html.escape(PRESET_HELP[name])}'
                        "</a></li>" for name in PRESETS)
        missing = (f"<h2>How to play: no such rules</h2><p>There are no rules called "
                   f"{html.escape(echoed(preset))} here. The rules there are:</p><ul>{links}</ul>")
        return HTMLResponse(shell.replace("{title}", "no such rules")
                            .replace("{preset}", "missing").replace("{body}", missing),
                            status_code=404)
    body = (PAGES / "how-to-play" / f"{preset}.html").read_text(encoding="utf-8")
    title = body.partition("How to play: ")[2].partition("<")[0]
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
    data = await small_body(request)
    seats = data.get("seats")
    players = data.get("players", 4)
    target = data.get("target")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RequestError("bad_message", "seats is a list: 'human' or a level for each seat")
    if not whole_number(players) or not (target is None or whole_number(target)):
        raise RequestError("bad_message", "players and target are whole numbers")
    public = data.get("public", True)
    if not isinstance(public, bool):
        raise RequestError("bad_message", "public is true or false")
    name = shown_name(_text(data, "name"))
    if name is None:  # checked before the table is made: a refused join would orphan it
        raise RequestError("bad_message", "say your name (a letter, digit or sign that "
                           "shows) to sit at the table")
    key = player_key(data)
    preset = _text(data, "preset", "card-commons")
    if preset not in PRESETS:  # a preset text is not the place for options
        raise RequestError("bad_rules", f"unknown preset {preset!r}: presets are "
                           f"{', '.join(PRESETS)}")
    try:
        settings = TableSettings.build(
            preset=preset, players=players,
            options=_text(data, "options"), target=target, seats=seats, public=public,
            title=table_title(_text(data, "title"), name),
            bot_seed=secrets.token_hex(8))
    except HeartsError as exc:
        raise RequestError("bad_rules", str(exc)) from None
    hub = _hub(request)
    _refuse_while_down(hub)
    table, token = hub.create(settings, name)
    try:  # a create happens whole or not at all: stored, its lease taken, its creator linked
        await _stored(hub, table.table_id)
        if key is not None:
            hub.store.link_player(key_digest(key), table.table_id, 0)
    except Exception as exc:
        if is_outage(exc):
            await _undo_create(hub, table)
            raise StoreUnavailableError("the database or the message bus") from None
        raise
    return JSONResponse({"table": table.authority.public_info(), "seat": 0, "token": token,
                         "url": f"/t/{table.table_id}"}, status_code=201)


async def table_info(request: Request) -> Response:
    """A table's public facts and its free seats."""
    authority = _table(request).authority
    return JSONResponse(authority.public_info())


async def join_table(request: Request) -> Response:
    """Take a free seat: the answer holds the seat token."""
    table = _table(request)
    data = await small_body(request)
    seat = data.get("seat")
    if seat is not None and not whole_number(seat):
        raise RequestError("bad_message", "seat is a seat number from 0, or null")
    key = player_key(data)
    token = secrets.token_urlsafe(24)
    _refuse_while_down(_hub(request))
    try:
        taken = table.join(_text(data, "name"), token, seat)
    except RequestError as exc:
        if exc.code != "no_seat":
            raise
        # the table page shows this refusal as it is, beside its own sentences
        raise RequestError(exc.code, sentence(exc.message)) from None
    try:  # a join happens whole or not at all: a seat nobody was told of is freed again
        await _stored(_hub(request), table.table_id)
        if key is not None:
            _hub(request).store.link_player(key_digest(key), table.table_id, taken)
    except Exception as exc:
        if is_outage(exc):
            if not table.unjoin(taken, token):
                log.warning("table %s: a join refused in an outage could not be undone "
                            "(seat %d)", table.table_id, taken + 1)
            raise StoreUnavailableError("the database or the message bus") from None
        raise
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
    Route("/healthz", healthz, methods=["GET"]),
    Route("/readyz", guarded(readyz), methods=["GET"]),
    Route("/", guarded(page), name="lobby.html"),
    Route("/t/{table_id}", guarded(page), name="table.html"),
    Route("/replay", guarded(page), name="replay.html"),
    Route("/me", guarded(page), name="player.html"),
    Route("/api/me", guarded(my_games), methods=["POST"]),
    Route("/api/replay", guarded(replay_frames), methods=["POST"]),
    Route("/how-to-play/{preset}", guarded(how_to_play)),
    Route("/api/config", guarded(api_config)),
    Route("/api/tables", guarded(list_tables), methods=["GET"]),
    Route("/api/tables", guarded(create_table), methods=["POST"]),
    Route("/api/tables/{table_id}", guarded(table_info)),
    Route("/api/tables/{table_id}/join", guarded(join_table), methods=["POST"]),
    Route("/api/tables/{table_id}/record", guarded(table_record)),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
