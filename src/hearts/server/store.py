"""Durable storage of tables: a small interface and its SQLite implementation.

A table is its creation settings plus an append-only log of events (seats taken,
commitments, entropy, deals, game actions). Replaying the log rebuilds the table
exactly, so the server stores each event before it tells anyone about it. The store
also keeps the real-deck score sheets shared from ``/score`` (each a whole sheet file,
replaced by its keeper). PostgreSQL serves a deployment of many processes
(:mod:`hearts.server.store_postgres`): its writes are grouped and awaited, so it is a
:class:`DeferredStore`, which holds every message back until the writes before it are stored.

Schemas are versioned: ``schema_version`` holds the number of the last migration applied,
and each store applies the numbered migrations after it, in order, when it opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from hearts.core import HeartsError
from hearts.server.protocol import RequestError, compact_json

__all__ = ["SQLITE_MIGRATIONS", "ChallengeEntry", "DeferredStore", "PlayerGame", "SqliteStore",
           "Store", "StoreFailedError", "StoreSchemaError", "StoreUnavailableError",
           "StoredChallenge", "StoredScoreSheet", "StoredTable", "is_postgres_url"]

log = logging.getLogger(__name__)

# Migration 1 is the schema from before versioning, written so that it also adopts a
# database of that time (IF NOT EXISTS).
_SCHEMA_1 = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    settings TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS score_sheets (
    id TEXT PRIMARY KEY,
    key_digest TEXT NOT NULL,
    sheet TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated REAL NOT NULL
);
"""

# Migration 2: who sat where (by player key digest), and the duplicate challenges with their
# leaderboards.
_SCHEMA_2 = """
CREATE TABLE player_games (
    key_digest TEXT NOT NULL,
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (key_digest, table_id, seat)
);
CREATE INDEX player_games_by_key ON player_games (key_digest, joined);
CREATE TABLE challenges (
    code TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE challenge_entries (
    code TEXT NOT NULL,
    entry_id TEXT NOT NULL,
    entry TEXT NOT NULL,
    submitted REAL NOT NULL,
    PRIMARY KEY (code, entry_id)
);
"""

_INSERT_EVENT = "INSERT INTO events (table_id, seq, event) VALUES (?, ?, ?)"

# The SQLite migrations, numbered from 1: append, never edit one that has shipped.
SQLITE_MIGRATIONS: tuple[str, ...] = (_SCHEMA_1, _SCHEMA_2)




class StoreSchemaError(HeartsError, RuntimeError):
    """A database written by a newer server: this one must not read or change it."""


class StoreUnavailableError(RequestError):
    """The database (or the bus) cannot be reached just now: the request is refused with
    the retryable code ``unavailable`` (HTTP 503) and changed nothing; try again shortly."""

    def __init__(self, what: str = "the database") -> None:
        super().__init__("unavailable", f"{what} cannot be reached just now; try again in a "
                         "moment")
        self.what = what


class StoreFailedError(RuntimeError):
    """The store lost writes it had accepted (a commit failed): nothing more may be told
    or stored by this process, which must start again from what is stored."""


def is_postgres_url(text: str) -> bool:
    """Whether a ``--db`` value names a PostgreSQL database rather than an SQLite file."""
    return text.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its settings and its event log in order."""

    table_id: str
    settings: dict[str, Any]
    events: list[dict[str, Any]]
    finished: bool


@dataclass(frozen=True, slots=True)
class StoredScoreSheet:
    """A shared real-deck score sheet (``/score/s/{id}``): the keeper's key digest, the sheet
    in its file form, and how often it was changed."""

    sheet_id: str
    key_digest: str
    sheet: dict[str, Any]
    version: int
    updated: float


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """A table a player sat at, the player known only by their private key's digest, with
    the table's title (so that a player page can tell unfinished tables apart)."""

    table_id: str
    seat: int
    joined: float
    finished: bool
    title: str


@dataclass(frozen=True, slots=True)
class StoredChallenge:
    """A duplicate challenge as its module describes it (``hearts.challenge``)."""

    code: str
    spec: dict[str, Any]
    created: float


@dataclass(frozen=True, slots=True)
class ChallengeEntry:
    """One result on a challenge's leaderboard, named by an id unique within the challenge."""

    code: str
    entry_id: str
    entry: dict[str, Any]
    submitted: float


class Store(Protocol):
    """Where tables live between restarts."""

    def create_table(self, table_id: str, settings: dict[str, Any]) -> None:
        """Store a new table's settings."""
        ...

    def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        """Store event number ``seq`` (from 1) of a table durably; seq must be the next.
        Durable by the time :meth:`settle` returns, which the server calls before any
        byte leaves it."""
        ...

    def settle(self) -> None:
        """Make every write accepted so far durable now (:class:`StoreFailedError` if
        some were lost)."""
        ...

    def mark_finished(self, table_id: str) -> None:
        """Note that a table's game is over (its log is kept)."""
        ...

    def load(self, table_id: str) -> StoredTable | None:
        """One table with its whole log, or None."""
        ...

    def load_all(self) -> list[StoredTable]:
        """Every table, oldest first."""
        ...

    def put_score_sheet(self, sheet_id: str, key_digest: str, sheet: dict[str, Any]) -> int:
        """Store a shared score sheet, new or changed; returns its version (from 1)."""
        ...

    def load_score_sheet(self, sheet_id: str) -> StoredScoreSheet | None:
        """One shared score sheet, or None."""
        ...

    def link_player(self, key_digest: str, table_id: str, seat: int) -> None:
        """Note that the player with this key digest sits at a table (again: no change)."""
        ...

    def player_games(self, key_digest: str) -> list[PlayerGame]:
        """The tables a player sat at, newest first, each with its title (the settings'
        ``title``; empty when they have none)."""
        ...

    def put_challenge(self, code: str, spec: dict[str, Any]) -> bool:
        """Store a challenge; False, and nothing changed, when its code is there already."""
        ...

    def load_challenge(self, code: str) -> StoredChallenge | None:
        """One challenge, or None."""
        ...

    def add_challenge_entry(self, code: str, entry_id: str, entry: dict[str, Any]) -> bool:
        """Add a result to a stored challenge's leaderboard; False, and nothing changed,
        when the challenge is not stored or has an entry of this id already."""
        ...

    def challenge_entries(self, code: str) -> list[ChallengeEntry]:
        """A challenge's results, oldest first."""
        ...

    def maintain(self) -> None:
        """Periodic housekeeping; the server calls it in a thread, off the event loop."""
        ...

    def close(self) -> None:
        """Release the storage."""
        ...


@runtime_checkable
class DeferredStore(Store, Protocol):
    """A store whose writes complete later, on the event loop (PostgreSQL).

    Its ``append`` only queues; nothing may be told until the write is stored, so every
    message to a client passes through :meth:`hold`. A write that fails (the table was
    taken over elsewhere, the database is gone) drops the messages held behind it and
    calls the ``on_lost`` handler with the table's id.
    """

    on_lost: Callable[[str], None]

    async def open(self) -> None:
        """Connect and migrate (inside the event loop)."""
        ...

    def hold(self, table_id: str, send: Callable[[], None]) -> None:
        """Call ``send`` once every write queued so far is stored (now, if none waits)."""
        ...

    async def flush(self) -> None:
        """Return once every write queued so far is done (stored, or its table lost)."""
        ...

    def forget_lost(self, table_id: str) -> None:
        """A table this process lost is loaded again: store its writes once more."""
        ...

    async def load_async(self, table_id: str) -> StoredTable | None:
        """:meth:`Store.load` without blocking the event loop."""
        ...

    async def aclose(self) -> None:
        """Store what is queued and disconnect."""
        ...


class SqliteStore:
    """:class:`Store` in one SQLite file (WAL: a killed process loses no committed event).

    Appends run on the caller's thread and stay tiny: in WAL mode with ``synchronous=
    NORMAL`` a commit is a write to the log, with no fsync. The fsync happens when the
    log is copied back into the database (a checkpoint), which :meth:`maintain` does on
    its own connection, so a slow disk never stalls the event loop mid-game.

    While writes keep coming, a PASSIVE checkpoint never catches up with the log, and the
    log is only reused from its start once a checkpoint has caught up: it would grow
    without end (about 5 MB a second at 500 busy tables). So once it holds more than
    :attr:`wal_restart_frames` pages, :meth:`maintain` follows with a RESTART checkpoint,
    which holds the writer back while it copies the little the PASSIVE one left (a few ms
    to a few tens of ms, every few seconds at most) and then lets the log start over.

    Inside a running event loop, the events appended in one turn of the loop share a
    transaction (a group commit): the first opens it and asks the loop to commit at the
    end of the turn, and :meth:`settle` commits it sooner. Every commit writes whole pages
    to the log, one or two a table, so a group of a few events costs about half as much
    CPU and log as committing each alone. The server calls :meth:`settle` before any byte
    leaves it, so nothing is told before it is stored. If a group's commit fails, the
    events of tables that may have moved on since are lost: the store then refuses every
    later write and settle (:class:`StoreFailedError`), calls :attr:`on_failure`, and the
    process must start again from what was stored (``hearts serve`` stops itself).
    Outside an event loop each event commits alone.
    """

    wal_restart_frames = 4096
    """Log pages (4 KiB each) past which :meth:`maintain` restarts the log."""

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        if self._path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = self._connect()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._migrate()
        self._checkpointer: sqlite3.Connection | None = None
        self._grouped = 0  # events appended in the open group (its transaction)
        self._grouping = False
        self._failed: StoreFailedError | None = None
        self.on_failure: Callable[[StoreFailedError], None] = lambda failure: None
        """Called once the store has failed (after the failure is logged)."""

    async def ping(self, timeout: float = 2.0) -> None:
        """Whether the store can serve (for ``/readyz``): :class:`StoreUnavailableError` if its
        file cannot be read or a failed commit stopped it."""
        if self._failed is not None:
            raise StoreUnavailableError("the database (a commit failed; the server restarts)")
        try:
            self._db.execute("SELECT 1").fetchone()
        except sqlite3.Error:
            raise StoreUnavailableError() from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        # NORMAL in WAL mode survives a killed process; only a power cut may lose the tail.
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _migrate(self) -> None:
        """Apply the migrations this file has not had yet, each in its own transaction."""
        self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = self._db.execute("SELECT max(version) FROM schema_version").fetchone()
        done = int(row[0] or 0)
        if done > len(SQLITE_MIGRATIONS):
            raise StoreSchemaError(f"{self._path} has schema version {done}, newer than this "
                               f"server's {len(SQLITE_MIGRATIONS)}: upgrade the server")
        for number, script in enumerate(SQLITE_MIGRATIONS[done:], start=done + 1):
            self._db.executescript(f"BEGIN; {script}; INSERT INTO schema_version VALUES "
                                   f"({number}); COMMIT;")

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied."""
        return int(self._db.execute("SELECT max(version) FROM schema_version").fetchone()[0])

    def create_table(self, table_id: str, settings: dict[str, Any]) -> None:
        self._write("INSERT INTO tables (id, created, settings) VALUES (?, ?, ?)",
                    (table_id, time.time(), json.dumps(settings)))

    def _write(self, sql: str, parameters: tuple[Any, ...]) -> sqlite3.Cursor:
        """A write other than an event: committed at once, after the open group."""
        self.settle()
        return self._db.execute(sql, parameters)

    def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        if self._failed is not None:
            raise self._failed
        row = (table_id, seq, compact_json(event))
        if not self._grouping:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop to end a group: the event commits alone
                self._db.execute(_INSERT_EVENT, row)
                return
            self._db.execute("BEGIN IMMEDIATE")
            self._grouping = True
            loop.call_soon(self._settle_turn)
        try:
            self._db.execute(_INSERT_EVENT, row)
        except sqlite3.Error as exc:
            if self._db.in_transaction:  # only this statement failed: the group stands
                raise
            self._grouping = False  # SQLite rolled the group back (a disk error)
            if self._grouped:
                raise self._fail(f"an event's write failed and took {self._grouped} "
                                 f"accepted events with it: {exc}") from exc
            raise
        self._grouped += 1

    def settle(self) -> None:
        if self._failed is not None:
            raise self._failed
        if not self._grouping:
            return
        self._grouping = False
        grouped, self._grouped = self._grouped, 0
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._fail(f"the commit of {grouped} accepted events failed: {exc}") from exc

    def _settle_turn(self) -> None:
        """The loop's turn is over: commit its group (a failure is logged by then)."""
        with contextlib.suppress(StoreFailedError):
            self.settle()

    def _fail(self, why: str) -> StoreFailedError:
        """Refuse everything from now on, and say so."""
        with contextlib.suppress(sqlite3.Error):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        self._failed = StoreFailedError(
            f"{self._path}: {why}; this process stores and tells nothing more: start it "
            "again to go on from what is stored")
        log.critical("%s", self._failed)
        self.on_failure(self._failed)
        return self._failed

    def mark_finished(self, table_id: str) -> None:
        self._write("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def _events(self, table_id: str) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT event FROM events WHERE table_id = ? ORDER BY seq", (table_id,))
        return [json.loads(row[0]) for row in rows]

    def load(self, table_id: str) -> StoredTable | None:
        row = self._db.execute("SELECT settings, finished FROM tables WHERE id = ?",
                               (table_id,)).fetchone()
        if row is None:
            return None
        return StoredTable(table_id, json.loads(row[0]), self._events(table_id), bool(row[1]))

    def load_all(self) -> list[StoredTable]:
        ids = [row[0] for row in self._db.execute("SELECT id FROM tables ORDER BY created")]
        return [t for t in (self.load(i) for i in ids) if t is not None]

    def put_score_sheet(self, sheet_id: str, key_digest: str, sheet: dict[str, Any]) -> int:
        self._write(
            "INSERT INTO score_sheets (id, key_digest, sheet, version, updated) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT(id) DO UPDATE SET sheet = excluded.sheet, "
            "version = version + 1, updated = excluded.updated",
            (sheet_id, key_digest, compact_json(sheet), time.time()))
        row = self._db.execute("SELECT version FROM score_sheets WHERE id = ?",
                               (sheet_id,)).fetchone()
        return int(row[0])

    def load_score_sheet(self, sheet_id: str) -> StoredScoreSheet | None:
        row = self._db.execute(
            "SELECT key_digest, sheet, version, updated FROM score_sheets WHERE id = ?",
            (sheet_id,)).fetchone()
        if row is None:
            return None
        return StoredScoreSheet(sheet_id, row[0], json.loads(row[1]), int(row[2]), float(row[3]))

    def link_player(self, key_digest: str, table_id: str, seat: int) -> None:
        self._write("INSERT OR IGNORE INTO player_games (key_digest, table_id, seat, joined)"
                    " VALUES (?, ?, ?, ?)", (key_digest, table_id, seat, time.time()))

    def player_games(self, key_digest: str) -> list[PlayerGame]:
        rows = self._db.execute(
            "SELECT p.table_id, p.seat, p.joined, t.finished, "
            "COALESCE(json_extract(t.settings, '$.title'), '') FROM player_games p "
            # a table's link may be written before the table (PostgreSQL queues the table)
            "JOIN tables t ON t.id = p.table_id WHERE p.key_digest = ? "
            "ORDER BY p.joined DESC, p.table_id", (key_digest,))
        return [PlayerGame(row[0], int(row[1]), float(row[2]), bool(row[3]), str(row[4]))
                for row in rows]

    def put_challenge(self, code: str, spec: dict[str, Any]) -> bool:
        cursor = self._write(
            "INSERT OR IGNORE INTO challenges (code, spec, created) VALUES (?, ?, ?)",
            (code, compact_json(spec), time.time()))
        return cursor.rowcount == 1

    def load_challenge(self, code: str) -> StoredChallenge | None:
        row = self._db.execute("SELECT spec, created FROM challenges WHERE code = ?",
                               (code,)).fetchone()
        return None if row is None else StoredChallenge(code, json.loads(row[0]), float(row[1]))

    def add_challenge_entry(self, code: str, entry_id: str, entry: dict[str, Any]) -> bool:
        cursor = self._write(
            "INSERT OR IGNORE INTO challenge_entries (code, entry_id, entry, submitted) "
            "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM challenges WHERE code = ?)",
            (code, entry_id, compact_json(entry), time.time(), code))
        return cursor.rowcount == 1

    def challenge_entries(self, code: str) -> list[ChallengeEntry]:
        rows = self._db.execute(
            "SELECT entry_id, entry, submitted FROM challenge_entries WHERE code = ? "
            "ORDER BY submitted, entry_id", (code,))
        return [ChallengeEntry(code, row[0], json.loads(row[1]), float(row[2])) for row in rows]

    def maintain(self) -> None:
        if self._path == ":memory:":
            return
        if self._checkpointer is None:
            self._checkpointer = self._connect()
            # how long a RESTART waits for the writer's turn before it tries next time
            self._checkpointer.execute("PRAGMA busy_timeout=100")
        # PASSIVE copies what it can without blocking the writer.
        _, log_frames, _ = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if log_frames > self.wal_restart_frames:
            self._checkpointer.execute("PRAGMA wal_checkpoint(RESTART)")

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
        if self._failed is None:
            self.settle()
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
