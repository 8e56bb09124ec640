"""The :class:`~hearts.server.store.Store` in PostgreSQL, for many server processes.

Writes are queued by the (synchronous) authority and stored by one writer task on the event
loop, each batch in one transaction through an asyncio connection pool (psycopg 3): a
table's events of the same moment share a commit, and the loop never waits on the database.
The invariant of the SQLite store still holds, one step later: nothing is told before it is
stored, because every message to a client waits in :meth:`PostgresStore.hold` until the
writes queued before it are committed.

The primary key ``(table_id, seq)`` fences a table's log: when two processes both believe
they own a table (one paused past its lease), only the first write of each event number
succeeds; the other process learns that it lost the table (``on_lost``) and drops it, and
the messages it held for that write are never sent.

Reads that callers make synchronously (loading every table at start-up, the shared score
sheets of ``/score``) use one small synchronous connection: they are rare and short.

While the database cannot be reached (a restart, an outage), nothing is lost and nothing is
told: the writer keeps its batch and tries again, waiting a little longer each time (at most
:data:`RETRY_MAX_S`), and the messages held behind it wait too; a request that needs the
database is refused promptly with :class:`~hearts.server.store.StoreUnavailableError` (``503
unavailable``), and the pool reconnects within a few seconds of the database returning.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from hearts.server.protocol import compact_json
from hearts.server.settings import ServerConfigError
from hearts.server.store import (
    ChallengeEntry,
    PlayerGame,
    StoredChallenge,
    StoredScoreSheet,
    StoredTable,
    StoreSchemaError,
    StoreUnavailableError,
)

__all__ = ["CONNECT_TIMEOUT_S", "FLUSH_TIMEOUT_S", "POOL_TIMEOUT_S", "POSTGRES_MIGRATIONS",
           "READ_CONNECT_TIMEOUT_S", "RECONNECT_TIMEOUT_S", "RETRY_MAX_S", "WRITE_TRIES",
           "PostgresStore", "check_reachable"]

CONNECT_TIMEOUT_S: Final = 10
"""How long the first connection to the database may take before the server gives up."""

POOL_TIMEOUT_S: Final = 3.0
"""How long a request waits for a pooled connection before it is refused (``unavailable``);
also the connect timeout of each new connection once the server runs."""

RECONNECT_TIMEOUT_S: Final = 4.0
"""How long the pool retries a lost connection (backing off from 1 s) before it gives up and
connects afresh on the next request: kept short, so that the back-off never grows past a
few seconds and the server recovers within seconds of the database's return."""

FLUSH_TIMEOUT_S: Final = 5.0
"""How long an answer waits for the writes before it (``unavailable`` past it)."""

READ_CONNECT_TIMEOUT_S: Final = 2
"""How long a synchronous read (run on the event loop) may take to connect afresh: the
shortest timeout the driver allows."""

RETRY_MAX_S: Final = 2.0
"""The longest pause between the writer's tries while the database cannot be reached."""

_DISCARD: Final = -2  # the seq of a write that deletes a table whose creation was refused

log = logging.getLogger(__name__)

# Numbered from 1: append, never edit one that has shipped.
POSTGRES_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        settings TEXT NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE TABLE score_sheets (
        id TEXT PRIMARY KEY,
        key_digest TEXT NOT NULL,
        sheet TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tables_unfinished ON tables (created) WHERE NOT finished;
    """,
    # who sat where, by player key digest (no foreign key: the link is written at once, the
    # table itself by the writer a moment later); the duplicate challenges and their results
    """
    CREATE TABLE player_games (
        key_digest TEXT NOT NULL,
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        joined DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (key_digest, table_id, seat)
    );
    CREATE INDEX player_games_by_key ON player_games (key_digest, joined);
    CREATE TABLE challenges (
        code TEXT PRIMARY KEY,
        spec TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE challenge_entries (
        code TEXT NOT NULL REFERENCES challenges(code),
        entry_id TEXT NOT NULL,
        entry TEXT NOT NULL,
        submitted DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, entry_id)
    );
    """,
)

# Any constant shared by every process serializes their migrations.
_MIGRATION_LOCK = 0x4845415254


@dataclass(slots=True)
class _Write:
    """One queued write: a new table (seq 0), an event (seq from 1), a finish (seq -1) or
    the deletion of a table whose creation was refused (seq -2)."""

    table_id: str
    seq: int
    text: str
    created: float = 0.0




class _UnreachableError(Exception):
    """A write failed because the database could not be reached: ``pending`` still waits."""

    def __init__(self, pending: list[_Write], exc: psycopg.OperationalError) -> None:
        super().__init__(str(exc))
        self.pending = pending
        self.reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]


WRITE_TRIES: Final = 3
"""How often a table's writes are tried when the database answers with an error (a full
disk, a cancelled statement, a deadlock) before the table is lost to this process."""

_UNREACHABLE_STATES: Final = frozenset({"57P01", "57P02", "57P03"})  # shut down, starting


class _NoDatabaseError(Exception):
    """The database could not be reached: ``error`` is the driver's."""

    def __init__(self, error: psycopg.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _unreachable(exc: psycopg.OperationalError, conn: Any) -> bool:
    """Whether ``exc`` means the database cannot be reached (an outage: wait and try again),
    not that it refused the statement (a full disk, a cancelled query, a deadlock: errors
    tried a bounded number of times): no pooled connection in time, a connection broken or
    closed, or SQLSTATE class 08 (connection exception) or 57P01-57P03 (shutting down,
    starting up). An error without a SQLSTATE comes from the client's side of a connection
    that failed."""
    if isinstance(exc, PoolTimeout):
        return True
    if conn is not None and (conn.closed or conn.broken):
        return True
    state = exc.sqlstate
    if state is None:
        return True
    return state.startswith("08") or state in _UNREACHABLE_STATES


def check_reachable(url: str) -> None:
    """Connect once to the database ``url`` names, so that a URL the driver cannot use (a
    port of letters) or a server that does not answer is refused in words
    (:class:`ServerConfigError`) before anything listens, not as a traceback when the
    pool's first connection times out; the password is never shown."""
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True):
            return
    except psycopg.Error as exc:
        try:
            parts = conninfo_to_dict(url)
            where = (f"{parts.get('host', 'localhost')}:{parts.get('port', 5432)}"
                     f"/{parts.get('dbname', '')}")
        except psycopg.Error:
            where = "the URL given"
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServerConfigError(f"cannot use the PostgreSQL database at {where}: "
                                f"{reason}") from None


class PostgresStore:
    """:class:`~hearts.server.store.DeferredStore` in PostgreSQL (see the module's text)."""

    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        self.url = url
        self.pool = AsyncConnectionPool(
            url, min_size=1, max_size=pool_size, open=False,
            kwargs={"autocommit": True, "connect_timeout": int(POOL_TIMEOUT_S)},
            timeout=POOL_TIMEOUT_S, reconnect_timeout=RECONNECT_TIMEOUT_S,
            reconnect_failed=self._reconnect_failed,
            # a connection broken by a database restart is replaced, not handed out
            check=AsyncConnectionPool.check_connection)
        self.down = False
        """Whether the last write failed because the database could not be reached."""
        self._open = False
        self.on_lost: Callable[[str], None] = self._log_lost
        self._sync: psycopg.Connection[Any] | None = None
        self._sync_lock = threading.Lock()
        self._queue: list[_Write] = []
        self._queued = 0  # tickets: one per write queued, from 1
        self._stored = 0  # every write up to this ticket is done (stored, or its table lost)
        self._held: collections.deque[tuple[int, str, Callable[[], None]]] = collections.deque()
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._lost: set[str] = set()
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ life
    async def open(self) -> None:
        """Connect, apply the migrations not yet applied, start the writer."""
        await self.pool.open(wait=True, timeout=10)
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                               "(version INTEGER NOT NULL)")
            row = await (await conn.execute("SELECT max(version) FROM schema_version")
                         ).fetchone()
            done = int(row[0] or 0) if row else 0
            if done > len(POSTGRES_MIGRATIONS):
                raise StoreSchemaError(f"the database has schema version {done}, newer than "
                                   f"this server's {len(POSTGRES_MIGRATIONS)}: upgrade it")
            for number, script in enumerate(POSTGRES_MIGRATIONS[done:], start=done + 1):
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_version VALUES (%s)", (number,))
        self._sync = await asyncio.to_thread(psycopg.connect, self.url, autocommit=True)
        self._open = True
        self._wake = asyncio.Event()
        self._writer = asyncio.create_task(self._write_loop(), name="postgres-writer")

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied."""
        row = self._query_one("SELECT max(version) FROM schema_version", ())
        return int(row[0]) if row else 0

    async def aclose(self) -> None:
        """Store what is queued, stop the writer and disconnect."""
        self._open = False
        if self._writer is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self.flush(timeout=FLUSH_TIMEOUT_S, even_if_down=True)
            self._writer.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._sync is not None:
            self._sync.close()
            self._sync = None
        await self.pool.close(timeout=2.0)

    @staticmethod
    def _reconnect_failed(pool: AsyncConnectionPool[Any]) -> None:
        log.warning("the database pool could not reconnect for %.0f s; it connects afresh "
                    "on the next request", RECONNECT_TIMEOUT_S)

    async def ping(self, timeout: float = 2.0) -> None:
        """Whether a pooled connection answers within ``timeout`` (for ``/readyz``):
        :class:`StoreUnavailableError` if not."""
        try:
            async with asyncio.timeout(timeout), \
                    self.pool.connection(timeout=timeout) as conn:
                await conn.execute("SELECT 1")
        except (psycopg.OperationalError, TimeoutError):
            raise StoreUnavailableError() from None

    def close(self) -> None:
        """Nothing: the asynchronous :meth:`aclose` releases a deferred store."""

    def maintain(self) -> None:
        """Nothing to do: PostgreSQL keeps its own house (autovacuum)."""

    def settle(self) -> None:
        """Nothing: messages wait for their writes in :meth:`hold` instead."""

    # ------------------------------------------------------------ writes (queued)
    def create_table(self, table_id: str, settings: dict[str, Any]) -> None:
        self._push(_Write(table_id, 0, compact_json(settings), time.time()))

    def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        if seq < 1:
            raise ValueError(f"event numbers start at 1, not {seq}")
        self._push(_Write(table_id, seq, compact_json(event)))

    def mark_finished(self, table_id: str) -> None:
        self._push(_Write(table_id, -1, ""))

    def discard(self, table_id: str) -> None:
        """A new table whose creation was refused (its store or lease failed): drop its
        queued writes and delete whatever of it was stored already, so that nothing of it
        is left for a lobby or an orphan check to find."""
        self._lost.add(table_id)
        self._queue = [w for w in self._queue if w.table_id != table_id]
        self._push(_Write(table_id, _DISCARD, ""))

    def _push(self, write: _Write) -> None:
        if self._wake is None:
            raise RuntimeError("the PostgreSQL store is not open: await open() first")
        if write.table_id in self._lost and write.seq != _DISCARD:
            return  # its owner is being stopped; nothing of it is told either
        self._queue.append(write)
        self._queued += 1
        self._wake.set()

    def hold(self, table_id: str, send: Callable[[], None]) -> None:
        """Call ``send`` once every write queued so far is stored (now, if none waits)."""
        if table_id in self._lost:
            return
        if self._stored == self._queued:
            send()
        else:
            self._held.append((self._queued, table_id, send))

    async def flush(self, timeout: float | None = FLUSH_TIMEOUT_S,
                    even_if_down: bool = False) -> None:
        """Return once every write queued so far is done (stored, or its table lost);
        :class:`StoreUnavailableError` at once while the database cannot be reached (unless
        ``even_if_down``), or if that takes over ``timeout`` seconds."""
        if self._stored == self._queued:
            return
        if self.down and not even_if_down:
            raise StoreUnavailableError()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((self._queued, future))
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise StoreUnavailableError() from None

    def forget_lost(self, table_id: str) -> None:
        """A table this process lost is loaded again: store its writes once more."""
        self._lost.discard(table_id)

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, []
            if not batch:
                continue
            ticket = self._queued
            await self._store_batch(batch)
            self._stored = ticket
            self._release()

    def _release(self) -> None:
        held = self._held
        while held and held[0][0] <= self._stored:
            _, table_id, send = held.popleft()
            if table_id not in self._lost:
                try:
                    send()
                except Exception:  # one subscriber's failure must not stop the writer
                    log.exception("a held message could not be sent")
        waiting = []
        for ticket, future in self._waiters:
            if ticket <= self._stored:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((ticket, future))
        self._waiters = waiting

    async def _store_batch(self, batch: list[_Write]) -> None:
        """Store a batch in one transaction; if that fails, each table's part in its own,
        and a table whose part still fails (:data:`WRITE_TRIES` times, or fenced: another
        process stored its event first) is lost to this process. While the database cannot
        be reached (:func:`_unreachable`), try again (backing off, up to
        :data:`RETRY_MAX_S`) until it can: an outage loses no table, and holds every message
        behind the writes until they are stored."""
        pending = batch
        pause = 0.25
        while pending:
            try:
                pending = await self._store_once(pending)
            except _UnreachableError as failed:
                pending = failed.pending
                if not self.down:
                    log.warning("the database cannot be reached (%s); %d writes wait and are "
                                "tried again", failed.reason, len(pending))
                self.down = True
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)
        if self.down:
            log.warning("the database is reachable again: the waiting writes are stored")
            self.down = False

    async def _store_once(self, batch: list[_Write]) -> list[_Write]:
        """One try at a batch: the writes still to store ([] when done), or
        :class:`_UnreachableError` carrying them."""
        try:
            await self._write(batch)
            return []
        except _NoDatabaseError as exc:
            raise _UnreachableError(batch, exc.error) from None
        except (pg_errors.IntegrityError, psycopg.OperationalError) as exc:
            log.warning("a write batch of %d failed (%s); storing table by table",
                        len(batch), exc)
        by_table: dict[str, list[_Write]] = {}
        for write in batch:
            by_table.setdefault(write.table_id, []).append(write)
        tables = list(by_table.items())
        for done, (table_id, writes) in enumerate(tables):
            try:
                await self._store_table(table_id, writes)
            except _NoDatabaseError as exc:
                raise _UnreachableError([w for _, ws in tables[done:] for w in ws],
                                        exc.error) from None
        return []

    async def _store_table(self, table_id: str, writes: list[_Write]) -> None:
        """Store one table's writes, or lose the table: fenced (a row of it stored already
        differs), or failing :data:`WRITE_TRIES` times. A write whose commit went through
        though its acknowledgement was lost is found stored, and counts as written."""
        for attempt in range(WRITE_TRIES):
            try:
                await self._write(writes)
                return
            except pg_errors.IntegrityError:
                remaining = await self._unstored(writes)
                if remaining is None:
                    self._lose(table_id, "another process stored its next event first")
                    return
                if not remaining:
                    return  # stored already: an earlier commit whose answer was lost
                writes = remaining
            except _NoDatabaseError:
                raise
            except psycopg.OperationalError as exc:
                if attempt == WRITE_TRIES - 1:
                    self._lose(table_id, f"the database failed: {exc}")
                    return
                await asyncio.sleep(0.2 * (attempt + 1))
        self._lose(table_id, "its writes could not be stored")

    async def _unstored(self, writes: list[_Write]) -> list[_Write] | None:
        """Which of a table's ``writes`` are not stored yet, or None if a row stored under
        the same key differs (another process wrote it: the table is fenced)."""
        remaining: list[_Write] = []
        try:
            async with self.pool.connection() as conn:
                for write in writes:
                    if write.seq == 0:
                        cur = await conn.execute("SELECT settings FROM tables WHERE id = %s",
                                                 (write.table_id,))
                    elif write.seq > 0:
                        cur = await conn.execute(
                            "SELECT event FROM events WHERE table_id = %s AND seq = %s",
                            (write.table_id, write.seq))
                    else:
                        remaining.append(write)  # an update or a delete: harmless again
                        continue
                    row = await cur.fetchone()
                    if row is None:
                        remaining.append(write)
                    elif row[0] != write.text:
                        return None
        except psycopg.OperationalError as exc:
            if _unreachable(exc, None):
                raise _NoDatabaseError(exc) from None
            return None
        return remaining

    async def _write(self, writes: list[_Write]) -> None:
        """Store ``writes`` in one transaction: :class:`_NoDatabaseError` if the database cannot
        be reached, any other error as the driver raises it."""
        conn: psycopg.AsyncConnection[Any] | None = None
        try:
            async with self.pool.connection() as conn, conn.transaction(), \
                    conn.cursor() as cur:
                await self._write_on(cur, writes)
        except psycopg.OperationalError as exc:
            if _unreachable(exc, conn):
                raise _NoDatabaseError(exc) from None
            raise

    async def _write_on(self, cur: psycopg.AsyncCursor[Any], writes: list[_Write]) -> None:
        # looked at once connected: a creation refused meanwhile is not stored
        writes = [w for w in writes if w.table_id not in self._lost or w.seq == _DISCARD]
        creates = [(w.table_id, w.created, w.text) for w in writes if w.seq == 0]
        events = [(w.table_id, w.seq, w.text) for w in writes if w.seq > 0]
        finished = [(w.table_id,) for w in writes if w.seq == -1]
        discarded = [(w.table_id,) for w in writes if w.seq == _DISCARD]
        if creates:
            await cur.executemany(
                "INSERT INTO tables (id, created, settings) VALUES (%s, %s, %s)", creates)
        if events:
            await cur.executemany(
                "INSERT INTO events (table_id, seq, event) VALUES (%s, %s, %s)", events)
        if finished:
            await cur.executemany("UPDATE tables SET finished = TRUE WHERE id = %s",
                                  finished)
        for sql in ("DELETE FROM player_games WHERE table_id = %s",
                    "DELETE FROM events WHERE table_id = %s",
                    "DELETE FROM tables WHERE id = %s"):
            if discarded:
                await cur.executemany(sql, discarded)

    def _lose(self, table_id: str, why: str) -> None:
        log.warning("table %s: this process lost it (%s)", table_id, why)
        self._lost.add(table_id)
        self._queue = [w for w in self._queue if w.table_id != table_id]
        self.on_lost(table_id)

    @staticmethod
    def _log_lost(table_id: str) -> None:
        log.error("table %s is lost to this process and nobody stops it", table_id)

    # ------------------------------------------------------------ reads
    def _run(self, sql: str, params: tuple[Any, ...]) -> psycopg.Cursor[Any]:
        """Run one statement on the synchronous connection, connecting afresh (one try, of
        at most :data:`READ_CONNECT_TIMEOUT_S`) if a database restart broke it.

        These reads run on the event loop, so they never wait long: while the writer finds
        the database unreachable (``down``) they are refused at once, and a connection that
        cannot be made is :class:`StoreUnavailableError` after that one short try."""
        if not self._open:
            raise RuntimeError("the PostgreSQL store is not open: await open() first")
        if self.down:
            raise StoreUnavailableError()
        connected = False
        failure: psycopg.OperationalError | None = None
        for _ in range(2):
            try:
                if self._sync is None or self._sync.closed:
                    if connected:
                        break
                    connected = True
                    self._sync = psycopg.connect(self.url, autocommit=True,
                                                 connect_timeout=READ_CONNECT_TIMEOUT_S)
                return self._sync.execute(sql, params)
            except psycopg.OperationalError as exc:
                failure = exc
                if self._sync is not None:
                    self._sync.close()
                    self._sync = None
        reason = (str(failure).strip().splitlines() or [type(failure).__name__])[0]
        log.warning("a read failed: the database cannot be reached (%s)", reason)
        raise StoreUnavailableError()

    def _query_one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self._sync_lock:
            return self._run(sql, params).fetchone()

    def _query_all(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._sync_lock:
            return self._run(sql, params).fetchall()

    def load(self, table_id: str) -> StoredTable | None:
        row = self._query_one("SELECT settings, finished FROM tables WHERE id = %s",
                              (table_id,))
        if row is None:
            return None
        events = self._query_all("SELECT event FROM events WHERE table_id = %s ORDER BY seq",
                                 (table_id,))
        return StoredTable(table_id, json.loads(row[0]), [json.loads(e[0]) for e in events],
                           bool(row[1]))

    async def load_async(self, table_id: str) -> StoredTable | None:
        try:
            async with self.pool.connection() as conn:
                row = await (await conn.execute(
                    "SELECT settings, finished FROM tables WHERE id = %s", (table_id,))
                ).fetchone()
                if row is None:
                    return None
                events = await (await conn.execute(
                    "SELECT event FROM events WHERE table_id = %s ORDER BY seq", (table_id,))
                ).fetchall()
        except psycopg.OperationalError:
            raise StoreUnavailableError() from None
        return StoredTable(table_id, json.loads(row[0]), [json.loads(e[0]) for e in events],
                           bool(row[1]))

    def load_all(self) -> list[StoredTable]:
        ids = [row[0] for row in self._query_all("SELECT id FROM tables ORDER BY created", ())]
        return [t for t in (self.load(i) for i in ids) if t is not None]

    async def unfinished_ids(self, limit: int = 1000) -> list[str]:
        """Tables whose game is not over, oldest first (for taking orphans over)."""
        try:
            async with self.pool.connection() as conn:
                rows = await (await conn.execute(
                    "SELECT id FROM tables WHERE NOT finished ORDER BY created LIMIT %s",
                    (limit,))).fetchall()
        except psycopg.OperationalError:
            raise StoreUnavailableError() from None
        return [row[0] for row in rows]

    # ------------------------------------------------------------ score sheets
    def put_score_sheet(self, sheet_id: str, key_digest: str, sheet: dict[str, Any]) -> int:
        row = self._query_one(
            "INSERT INTO score_sheets (id, key_digest, sheet, version, updated) "
            "VALUES (%s, %s, %s, 1, %s) ON CONFLICT (id) DO UPDATE SET sheet = excluded.sheet, "
            "version = score_sheets.version + 1, updated = excluded.updated RETURNING version",
            (sheet_id, key_digest, compact_json(sheet), time.time()))
        assert row is not None
        return int(row[0])

    def load_score_sheet(self, sheet_id: str) -> StoredScoreSheet | None:
        row = self._query_one(
            "SELECT key_digest, sheet, version, updated FROM score_sheets WHERE id = %s",
            (sheet_id,))
        if row is None:
            return None
        return StoredScoreSheet(sheet_id, row[0], json.loads(row[1]), int(row[2]),
                                float(row[3]))


    # ------------------------------------------------------------ players and challenges
    def link_player(self, key_digest: str, table_id: str, seat: int) -> None:
        self._query_one(
            "INSERT INTO player_games (key_digest, table_id, seat, joined) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING seat",
            (key_digest, table_id, seat, time.time()))

    def player_games(self, key_digest: str) -> list[PlayerGame]:
        rows = self._query_all(
            "SELECT p.table_id, p.seat, p.joined, t.finished, "
            "COALESCE(t.settings::jsonb ->> 'title', '') FROM player_games p "
            "JOIN tables t ON t.id = p.table_id WHERE p.key_digest = %s "
            "ORDER BY p.joined DESC, p.table_id", (key_digest,))
        return [PlayerGame(row[0], int(row[1]), float(row[2]), bool(row[3]), str(row[4]))
                for row in rows]

    def put_challenge(self, code: str, spec: dict[str, Any]) -> bool:
        row = self._query_one(
            "INSERT INTO challenges (code, spec, created) VALUES (%s, %s, %s) "
            "ON CONFLICT DO NOTHING RETURNING code", (code, compact_json(spec), time.time()))
        return row is not None

    def load_challenge(self, code: str) -> StoredChallenge | None:
        row = self._query_one("SELECT spec, created FROM challenges WHERE code = %s", (code,))
        return None if row is None else StoredChallenge(code, json.loads(row[0]), float(row[1]))

    def add_challenge_entry(self, code: str, entry_id: str, entry: dict[str, Any]) -> bool:
        row = self._query_one(
            "INSERT INTO challenge_entries (code, entry_id, entry, submitted) "
            "SELECT %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM challenges WHERE code = %s) "
            "ON CONFLICT DO NOTHING RETURNING entry_id",
            (code, entry_id, compact_json(entry), time.time(), code))
        return row is not None

    def challenge_entries(self, code: str) -> list[ChallengeEntry]:
        rows = self._query_all(
            "SELECT entry_id, entry, submitted FROM challenge_entries WHERE code = %s "
            "ORDER BY submitted, entry_id", (code,))
        return [ChallengeEntry(code, row[0], json.loads(row[1]), float(row[2])) for row in rows]
