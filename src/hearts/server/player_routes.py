"""The player page (``/me``) and its API: a player's finished games and their statistics
(``docs/web-protocol.md``, *Players*).

There are no accounts. A browser makes a private player key (``static/playerkey.js``) and
sends it, in the body, when it creates or joins a table; the server keeps only the key's
SHA-256 digest, linked to the table and the seat (:meth:`Store.link_player`). The key never
travels in a URL, which logs, histories and referrers keep.

``POST /api/me`` with the key answers the player's newest finished games (at most
:data:`MAX_GAMES`) and the statistics of those games by preset. The statistics are
:func:`hearts.stats.summarize` over :func:`hearts.stats.game_line` of each game's record,
rebuilt from the table's stored events, the same figures ``hearts stats`` gives for the
terminal game's records. A finished game never changes, so each one's figures are worked
out once per server (in a worker thread) and kept, a bounded number of them.

The endpoints are registered in :data:`hearts.server.routes.ROUTES`; this module imports
nothing from ``routes`` (which imports it), so the error boundary is ``routes.guarded``.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hearts.core import HeartsError, seat_name
from hearts.server.authority import TableAuthority
from hearts.server.hub import Hub
from hearts.server.protocol import RequestError, json_body
from hearts.server.settings import TableSettings
from hearts.server.slots import WorkSlots
from hearts.server.store import PlayerGame
from hearts.stats import GameLine, game_line, summarize

__all__ = ["MAX_GAMES", "MAX_HISTORIES", "PLAYER_KEY_HELP", "FinishedGame", "key_digest",
           "my_games", "player_key"]

MAX_GAMES: Final = 200
"""The newest finished games a player page shows, and its statistics count."""

PLAYER_KEY_HELP: Final = "22 to 128 characters: letters, digits, - and _"

_KEY = re.compile(r"[A-Za-z0-9_-]{22,128}")
_MAX_BODY_BYTES: Final = 1024
_KEPT_GAMES: Final = 4096
# The unfinished tables listed too, to go back to.
_MAX_PLAYING: Final = 20
# A first visit works out every game's figures (tens of ms each) in a worker thread.
MAX_HISTORIES: Final = 2
_HISTORY_SLOTS: Final = WorkSlots(MAX_HISTORIES, "other players' pages are being worked "
                                  "out; ask again in a moment")


def player_key(data: dict[str, Any]) -> str | None:
    """The optional ``player_key`` of a request body, checked; None when absent."""
    key = data.get("player_key")
    if key is None:
        return None
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise RequestError("bad_message", f"player_key is {PLAYER_KEY_HELP} (the key this "
                           "browser made, or one exported from another)")
    return key


def key_digest(key: str) -> str:
    """What the store keeps of a player key."""
    return hashlib.sha256(key.encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished table's game as a player page lists it, with each seat's figures."""

    table_id: str
    title: str
    preset: str
    rules: str
    names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    lines: tuple[GameLine, ...]

    @classmethod
    def from_record(cls, title: str, record: dict[str, Any]) -> FinishedGame | None:
        """The game of a table's record; None when the game is not complete."""
        # The figures are asked by seat: the names are left out, so that seats are named
        # "Seat 1", "Seat 2"... and two people of one name are not taken for each other.
        unnamed = {k: v for k, v in record.items() if k != "seats"}
        lines = []
        for seat in range(len(record["seats"])):
            line = game_line(unnamed, seat_name(seat))
            if line is None:
                return None
            lines.append(line)
        return cls(str(record["table"]), title, lines[0].preset, str(record["rules"]),
                   tuple(record["seats"]), tuple(record["totals"]), tuple(record["winners"]),
                   tuple(lines))

    def to_json(self, link: PlayerGame) -> dict[str, Any]:
        """The game as the player who sat in ``link.seat`` sees it in the list."""
        seat = link.seat
        return {"table": self.table_id, "title": self.title, "date": link.joined,
                "preset": self.preset, "rules": self.rules, "seat": seat,
                "names": list(self.names), "totals": list(self.totals),
                "winners": list(self.winners), "won": self.lines[seat].won,
                "points": self.totals[seat], "hands": self.lines[seat].hands,
                "record": f"/api/tables/{self.table_id}/record",
                "replay": f"/replay?table={self.table_id}"}


class _Kept:
    """Finished games worked out already, the most recently asked kept (thread-safe)."""

    def __init__(self, most: int = _KEPT_GAMES) -> None:
        self.most = most
        self._games: OrderedDict[str, FinishedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> FinishedGame | None:
        with self._lock:
            game = self._games.get(table_id)
            if game is not None:
                self._games.move_to_end(table_id)
            return game

    def put(self, game: FinishedGame) -> None:
        with self._lock:
            self._games[game.table_id] = game
            while len(self._games) > self.most:
                self._games.popitem(last=False)


def _kept(request: Request) -> _Kept:
    state = request.app.state
    kept: _Kept | None = getattr(state, "finished_games", None)
    if kept is None:
        kept = state.finished_games = _Kept()
    return kept


def _finished_game(hub: Hub, table_id: str) -> FinishedGame | None:
    """A finished table's game, from the table in memory or rebuilt from its stored log;
    None when it is not there, not over, or its log does not replay."""
    table = hub.tables.get(table_id)
    if table is not None:
        authority = table.authority
    else:  # another node's table (PostgreSQL): its log tells its game
        stored = hub.store.load(table_id)
        if stored is None:
            return None
        authority = TableAuthority(table_id, TableSettings.from_json(stored.settings),
                                   hub.store, hub.config)
        try:
            authority.replay(stored.events)
        except (HeartsError, ValueError, KeyError):
            return None
    if not authority.state.is_over:
        return None
    return FinishedGame.from_record(authority.settings.title, authority.record())


def _history(hub: Hub, kept: _Kept, digest: str) -> dict[str, Any]:
    """The answer of ``POST /api/me`` (blocking: run in a worker thread)."""
    links = hub.store.player_games(digest)
    games: list[tuple[PlayerGame, FinishedGame]] = []
    for link in links:
        if len(games) == MAX_GAMES:
            break
        if not link.finished:
            continue
        game = kept.get(link.table_id)
        if game is None:
            game = _finished_game(hub, link.table_id)
            if game is not None:
                kept.put(game)
        if game is not None and link.seat < len(game.lines):
            games.append((link, game))
    stats = summarize(game.lines[link.seat] for link, game in games)
    playing = [{"table": link.table_id, "title": link.title, "seat": link.seat,
                "date": link.joined, "url": f"/t/{link.table_id}"}
               for link in links if not link.finished]
    return {"games": [game.to_json(link) for link, game in games],
            "stats": [figures.to_json() for figures in stats.values()],
            "playing": playing[:_MAX_PLAYING], "most": MAX_GAMES}


async def _key_body(request: Request) -> dict[str, Any]:
    """The small JSON object that carries a player key, read no further than its limit."""
    return await json_body(request, _MAX_BODY_BYTES,
                           f"this request's body is at most {_MAX_BODY_BYTES} bytes: "
                           '{"player_key": ...}', 'the request body is {"player_key": ...}')


async def my_games(request: Request) -> Response:
    """A player's newest finished games (with record and replay links), the statistics of
    those games by preset, and the tables they are still playing at."""
    key = player_key(await _key_body(request))
    if key is None:
        raise RequestError("bad_message", f"send your player_key ({PLAYER_KEY_HELP})")
    hub: Hub = request.app.state.hub
    with _HISTORY_SLOTS.held():
        answer = await asyncio.to_thread(_history, hub, _kept(request), key_digest(key))
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})
