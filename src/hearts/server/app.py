"""The web server's application: the HTTP routes, the websocket endpoint and the tables'
life from start-up to shutdown."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from hearts.players import make_player
from hearts.players.hints import hint_level
from hearts.server.hub import Hub
from hearts.server.routes import ROUTES
from hearts.server.score_routes import SCORE_ROUTES
from hearts.server.settings import ServerConfig
from hearts.server.store import SqliteStore, Store
from hearts.server.websocket import table_socket

__all__ = ["UVICORN_OPTIONS", "create_app"]

# Messages over 64 KiB close the socket in the protocol layer; smaller ones over the
# message limit get an error event. Views are small: compressing them costs more CPU
# than it saves on a game server.
UVICORN_OPTIONS: dict[str, Any] = {"ws_max_size": 65536, "ws_per_message_deflate": False,
                                   "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0}


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Reload and run every stored table; stop them and close the store at shutdown."""
    hub: Hub = app.state.hub
    hub.load()
    hub.start()
    upkeep = asyncio.create_task(_maintain(hub.store))
    # Build the hint player once in the background: the first search player of a
    # process loads (after an install: compiles) its kernel, which takes seconds.
    warm_up = asyncio.create_task(asyncio.to_thread(make_player, hint_level()))
    yield
    warm_up.cancel()
    upkeep.cancel()
    await hub.stop()
    hub.store.close()


def create_app(db: str | Path | Store, config: ServerConfig | None = None) -> Starlette:
    """The application: serves the lobby, tables, how-to-play pages and websockets."""
    store: Store = SqliteStore(db) if isinstance(db, str | Path) else db
    app = Starlette(routes=[*ROUTES, *SCORE_ROUTES,
                            WebSocketRoute("/ws/{table_id}", table_socket)],
                    lifespan=lifespan)
    app.state.hub = Hub(store, config or ServerConfig())
    return app


async def _maintain(store: Store, every_s: float = 2.0) -> None:
    """Storage housekeeping in a thread, every few seconds, for as long as the server runs."""
    while True:
        await asyncio.sleep(every_s)
        await asyncio.to_thread(store.maintain)
