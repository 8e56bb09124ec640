"""How the server tells an outage from an error, and undoes what an outage refused: the
PostgreSQL writer waits out an unreachable database but tries a refusing one a bounded
number of times; a join refused in an outage frees its seat; one request's timeout never
cancels another's lease; a session closes however full its queue; a table gone for good
is ``no_table``. No database runs here: fakes stand in for the connection and the bus."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout
from tests.server.conftest import Server, create_table

from hearts.server import routes
from hearts.server.connection import Connection
from hearts.server.hub import Hub, Session
from hearts.server.settings import ServerConfig
from hearts.server.store import SqliteStore, StoreUnavailableError
from hearts.server.store_postgres import WRITE_TRIES, PostgresStore, _NoDatabaseError, _Write

# ------------------------------------------------------------ the writer's classification
UNREACHABLE = [
    pg_errors.AdminShutdown("terminating connection due to administrator command"),
    pg_errors.CrashShutdown("terminating connection because of crash of another process"),
    pg_errors.CannotConnectNow("the database system is starting up"),
    pg_errors.ConnectionFailure("connection failure"),
    pg_errors.ConnectionException("connection exception"),
    psycopg.OperationalError("consuming input failed: server closed the connection"),
]
REFUSING = [
    pg_errors.DiskFull("could not extend file: No space left on device"),
    pg_errors.QueryCanceled("canceling statement due to statement timeout"),
    pg_errors.ProgramLimitExceeded("index row size exceeds maximum"),
    pg_errors.DeadlockDetected("deadlock detected"),
    pg_errors.OutOfMemory("out of memory"),
]


class FakeConnection:
    """A pooled connection whose statements raise ``error``; ``broken`` as psycopg marks
    a connection whose socket failed."""

    def __init__(self, error: Exception | None, broken: bool = False) -> None:
        self.error = error
        self.closed = False
        self.broken = broken

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    @contextlib.asynccontextmanager
    async def cursor(self) -> AsyncIterator[FakeConnection]:
        yield self

    async def executemany(self, sql: str, rows: list[Any]) -> None:
        if self.error is not None:
            raise self.error


class FakePool:
    def __init__(self, conn: FakeConnection | None = None,
                 error: Exception | None = None) -> None:
        self.conn = conn
        self.error = error

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[FakeConnection]:
        if self.error is not None:
            raise self.error
        assert self.conn is not None
        yield self.conn


def _store(pool: FakePool | None = None) -> PostgresStore:
    store = PostgresStore("postgresql://nobody@127.0.0.1:1/none")
    if pool is not None:
        store.pool = pool  # type: ignore[assignment]
    return store


def _writes(table_id: str = "t1") -> list[_Write]:
    return [_Write(table_id, 1, '{"t":"join"}')]


@pytest.mark.parametrize("error", UNREACHABLE, ids=lambda e: type(e).__name__)
async def test_an_unreachable_database_is_told_apart(error: psycopg.OperationalError) -> None:
    store = _store(FakePool(FakeConnection(error)))
    with pytest.raises(_NoDatabaseError):
        await store._write(_writes())


async def test_no_pooled_connection_in_time_is_an_unreachable_database() -> None:
    store = _store(FakePool(error=PoolTimeout("couldn't get a connection after 3.00 sec")))
    with pytest.raises(_NoDatabaseError):
        await store._write(_writes())


async def test_any_error_on_a_broken_connection_is_an_unreachable_database() -> None:
    store = _store(FakePool(FakeConnection(pg_errors.QueryCanceled("cancelled"), broken=True)))
    with pytest.raises(_NoDatabaseError):
        await store._write(_writes())


@pytest.mark.parametrize("error", REFUSING, ids=lambda e: type(e).__name__)
async def test_a_database_that_refuses_is_no_outage(error: psycopg.OperationalError) -> None:
    store = _store(FakePool(FakeConnection(error)))
    with pytest.raises(type(error)):
        await store._write(_writes())


@pytest.mark.parametrize("error", REFUSING, ids=lambda e: type(e).__name__)
async def test_a_refusing_database_loses_the_table_after_a_few_tries(
        error: psycopg.OperationalError) -> None:
    conn = FakeConnection(error)
    store = _store(FakePool(conn))
    tries = 0
    write = store._write

    async def counted(writes: list[_Write]) -> None:
        nonlocal tries
        tries += 1
        await write(writes)

    store._write = counted  # type: ignore[method-assign]
    lost: list[str] = []
    store.on_lost = lost.append
    await asyncio.wait_for(store._store_batch(_writes()), 10)
    assert lost == ["t1"]
    assert not store.down  # never an outage: nothing is held back
    assert tries == 1 + WRITE_TRIES  # the batch, then the table's own tries


async def test_an_outage_is_waited_out_and_loses_nothing() -> None:
    conn = FakeConnection(pg_errors.AdminShutdown("terminating connection"))
    store = _store(FakePool(conn))
    lost: list[str] = []
    store.on_lost = lost.append
    seen_down = []

    async def back_soon() -> None:
        await asyncio.sleep(0.6)
        seen_down.append(store.down)
        conn.error = None

    async with asyncio.TaskGroup() as group:
        group.create_task(back_soon())
        group.create_task(asyncio.wait_for(store._store_batch(_writes()), 10))
    assert seen_down == [True] and not store.down
    assert lost == []


@pytest.mark.parametrize(("unstored", "lost"), [([], []), (None, ["t1"])])
async def test_a_write_found_stored_already_counts_as_written(
        unstored: list[_Write] | None, lost: list[str]) -> None:
    """A commit whose acknowledgement was lost is tried again and meets its own rows:
    written, not fenced; rows that differ are another process's, and the table is lost."""
    store = _store(FakePool(FakeConnection(pg_errors.UniqueViolation("duplicate key"))))

    async def stored_already(writes: list[_Write]) -> list[_Write] | None:
        return unstored

    store._unstored = stored_already  # type: ignore[method-assign]
    told: list[str] = []
    store.on_lost = told.append
    await asyncio.wait_for(store._store_batch(_writes()), 10)
    assert told == lost


async def test_reads_are_refused_at_once_while_the_database_is_down() -> None:
    store = _store()
    store._open = True
    store.down = True
    with pytest.raises(StoreUnavailableError):
        store.load("t1")  # no connection is even tried


# ------------------------------------------------------------ a join refused
async def test_a_join_refused_in_an_outage_frees_its_seat(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = (await create_table(server, ["human", "human", "human", "random"]))["table"]["id"]

    async def outage(hub: Hub, table_id: str) -> None:
        raise StoreUnavailableError()

    monkeypatch.setattr(routes, "_stored", outage)
    async with server.http() as http:
        refused = await http.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
        assert refused.status_code == 503, refused.text
        facts = (await http.get(f"/api/tables/{table_id}")).json()
    assert facts["free"] == [1, 2]
    hub: Hub = server.app.state.hub
    stored = hub.store.load(table_id)
    assert stored is not None
    assert [e["t"] for e in stored.events][-2:] == ["join", "leave"]
    monkeypatch.undo()
    async with server.http() as http:
        taken = await http.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
    assert taken.status_code == 200 and taken.json()["seat"] == 1, taken.text


async def test_a_join_undone_is_undone_after_a_restart_too(tmp_path: Path) -> None:
    from hearts.server.authority import TableAuthority
    from hearts.server.settings import TableSettings

    store = SqliteStore(tmp_path / "t.db")
    settings = TableSettings.build(preset="standard", players=4, options="", target=None,
                                   seats=["human", "human", "random", "random"],
                                   public=False, title="t", bot_seed="00")
    store.create_table("t1", settings.to_json())
    authority = TableAuthority("t1", settings, store, ServerConfig())
    assert authority.join("Bo", "token-b", None) == 0
    assert not authority.unjoin(0, "another token")
    assert authority.unjoin(0, "token-b")
    store.settle()
    again = TableAuthority("t1", settings, store, ServerConfig())
    stored = store.load("t1")
    assert stored is not None
    again.replay(stored.events)
    assert again.free_seats()[0] == 0 and again.seat_of("token-b") is None


# ------------------------------------------------------------ one request's claims
class SlowBus:
    """A bus whose leases take ``delay`` seconds to take."""

    def __init__(self, delay: float) -> None:
        self.node_id = "here"
        self.lease_ms = 2000
        self.owned: set[str] = set()
        self.delay = delay
        self.acquired: list[str] = []

    async def acquire(self, table_id: str) -> bool:
        await asyncio.sleep(self.delay)
        self.owned.add(table_id)
        self.acquired.append(table_id)
        return True

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)


async def test_a_timed_out_settle_cancels_no_lease(tmp_path: Path) -> None:
    from hearts.server.settings import TableSettings

    bus = SlowBus(0.3)
    hub = Hub(SqliteStore(tmp_path / "h.db"), ServerConfig(), bus)  # type: ignore[arg-type]
    settings = TableSettings.build(preset="standard", players=4, options="", target=None,
                                   seats=["human", "human", "random", "random"],
                                   public=False, title="t", bot_seed="00")
    first, _ = hub.create(settings, "Ann")
    second, _ = hub.create(settings, "Bo")
    with pytest.raises(TimeoutError):  # the first request gives up on its own lease
        await asyncio.wait_for(hub.settle(first.table_id), 0.05)
    await asyncio.wait_for(hub.settle(second.table_id), 5)  # the other's is not cancelled
    await asyncio.sleep(0.05)
    assert sorted(bus.acquired) == sorted([first.table_id, second.table_id])
    for table in (first, second):
        await table.stop()


# ------------------------------------------------------------ closing a session
class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


async def test_a_close_goes_through_a_full_queue() -> None:
    socket = Socket()
    conn = Connection(socket, 3)  # type: ignore[arg-type]
    for n in range(3):
        conn.send_text(str(n))
    conn.close(1013)
    await asyncio.wait_for(conn.drain(), 5)
    assert socket.closed == 1013


async def test_a_session_whose_table_is_gone_is_told_no_table(tmp_path: Path) -> None:
    class NoTableBus(SlowBus):
        async def owner(self, table_id: str) -> str | None:
            return None

    hub = Hub(SqliteStore(tmp_path / "h.db"), ServerConfig(), NoTableBus(0))  # type: ignore[arg-type]
    sent: list[dict[str, Any]] = []
    closed: list[int] = []

    class Conn:
        seat = None
        last_rate_error = 0.0

        def send(self, data: dict[str, Any]) -> None:
            sent.append(data)

        def send_text(self, text: str) -> None:
            sent.append(json.loads(text))

        def close(self, code: int = 1000) -> None:
            closed.append(code)

    session = Session(hub, "gone", Conn())  # type: ignore[arg-type]
    assert not await session._move('{"type":"play","id":7}')
    assert [m["code"] for m in sent] == ["no_table"] and sent[0]["id"] == 7
    assert closed == [4404]

