"""The web face: a game server (Starlette, websockets, SQLite) and its browser client."""

from hearts.server.app import UVICORN_OPTIONS, create_app
from hearts.server.settings import ServerConfig, ServerConfigError, TableSettings
from hearts.server.store import SqliteStore, Store

__all__ = ["UVICORN_OPTIONS", "ServerConfig", "ServerConfigError", "SqliteStore", "Store",
           "TableSettings", "create_app"]
