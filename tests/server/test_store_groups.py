"""The SQLite store's group commits: the events of one turn of the event loop share a
commit, nothing is sent before the store holds what it tells, and a failed commit stops
the store instead of losing events quietly."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from hearts.server.app import SettledSends
from hearts.server.store import SqliteStore, StoreFailedError

SETTINGS = {"rules": "card-commons:players=4", "seats": ["human"] * 4, "public": True,
            "title": "t", "bot_seed": "s"}


def stored_events(path: Path) -> int:
    """The events another process would find in the file now."""
    with sqlite3.connect(path) as other:
        return int(other.execute("SELECT count(*) FROM events").fetchone()[0])


def log_pages(path: Path) -> int:
    """The pages written to the write-ahead log so far (nothing is copied back: the
    store's own connection still reads, so a checkpoint here stops short)."""
    with sqlite3.connect(path) as other:
        return int(other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])


def make_store(path: Path, tables: int = 8) -> SqliteStore:
    store = SqliteStore(path)
    for number in range(tables):
        store.create_table(f"t{number}", SETTINGS)
    return store


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "h.db"


@pytest.fixture
def store(path: Path) -> Iterator[SqliteStore]:
    made = make_store(path)
    yield made
    made.close()


def play(number: int) -> dict[str, Any]:
    return {"t": "play", "seat": number % 4, "card": "2C"}


def test_outside_an_event_loop_each_event_is_stored_at_once(tmp_path: Path) -> None:
    store = make_store(tmp_path / "h.db")
    store.append("t0", 1, play(0))
    assert stored_events(tmp_path / "h.db") == 1
    store.close()


async def test_the_events_of_one_loop_turn_share_one_commit_at_its_end(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = make_store(path)
    for number in range(8):
        store.append(f"t{number}", 1, play(number))
    assert stored_events(path) == 0  # the turn is not over
    await asyncio.sleep(0)
    assert stored_events(path) == 8
    grouped = log_pages(path)
    store.close()

    alone_path = tmp_path / "alone.db"
    alone = make_store(alone_path)
    for number in range(8):
        alone.append(f"t{number}", 1, play(number))
        await asyncio.sleep(0)
    assert stored_events(alone_path) == 8
    # a commit writes whole pages: one group of 8 writes fewer than 8 commits of one
    assert grouped < log_pages(alone_path)
    alone.close()


async def test_settle_stores_the_turns_events_before_it_ends(
        store: SqliteStore, path: Path) -> None:
    store.append("t0", 1, play(0))
    store.append("t1", 1, play(1))
    store.settle()
    assert stored_events(path) == 2
    store.append("t0", 2, play(2))  # a new group after a settle
    assert stored_events(path) == 2
    store.settle()
    assert stored_events(path) == 3


async def test_other_writes_commit_at_once_with_the_group_before_them(
        store: SqliteStore, path: Path) -> None:
    store.append("t0", 1, play(0))
    store.create_table("new", SETTINGS)
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT count(*) FROM tables WHERE id = 'new'").fetchone()[0] == 1
    assert stored_events(path) == 1


async def test_a_statement_that_fails_alone_leaves_the_group_standing(
        store: SqliteStore, path: Path) -> None:
    store.append("t0", 1, play(0))
    store.append("t1", 1, play(1))
    with pytest.raises(sqlite3.IntegrityError):
        store.append("t0", 1, play(2))  # event 1 of t0 is there already
    store.settle()
    assert stored_events(path) == 2
    loaded = store.load("t0")
    assert loaded is not None and loaded.events == [play(0)]


async def serve(app: SettledSends, scope_type: str, sent: list[tuple[Message, int]],
                path: Path) -> None:
    """Run ``app`` once; note each message it sends with the events stored by then."""
    async def receive() -> Message:
        return {"type": "http.request"}

    async def send(message: Message) -> None:
        sent.append((message, stored_events(path)))

    await app({"type": scope_type}, receive, send)


@pytest.mark.parametrize("scope_type", ["http", "websocket"])
async def test_every_message_leaves_after_the_events_before_it_are_stored(
        store: SqliteStore, path: Path, scope_type: str) -> None:

    async def table(scope: Scope, receive: Receive, send: Send) -> None:
        for number in range(3):
            store.append(f"t{number}", 1, play(number))
            await send({"type": "websocket.send", "text": f"played {number}"})

    sent: list[tuple[Message, int]] = []
    await serve(SettledSends(table, store.settle), scope_type, sent, path)
    assert [stored for _, stored in sent] == [1, 2, 3]


class FailingCommits:
    """An SQLite connection whose disk fails at the next commit: the transaction is
    rolled back and the commit raises, as SQLite does on an I/O error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *parameters: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


async def test_a_failed_commit_stops_the_store_and_nothing_is_told(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "h.db"
    store = make_store(path)
    failures: list[StoreFailedError] = []
    store.on_failure = failures.append
    real = store._db
    store._db = FailingCommits(real)  # type: ignore[assignment]

    async def table(scope: Scope, receive: Receive, send: Send) -> None:
        store.append("t0", 1, play(0))
        store.append("t1", 1, play(1))
        await send({"type": "websocket.send", "text": "played"})

    sent: list[tuple[Message, int]] = []
    with pytest.raises(StoreFailedError, match="the commit of 2 accepted events failed"):
        await serve(SettledSends(table, store.settle), "websocket", sent, path)
    assert sent == []  # the message about the lost events never left
    assert len(failures) == 1 and "start it again" in str(failures[0])
    assert "disk I/O error" in caplog.text
    store._db = real  # the disk is back: the store still refuses, until a restart
    with pytest.raises(StoreFailedError):
        store.append("t2", 1, play(2))
    with pytest.raises(StoreFailedError):
        store.settle()
    store.close()
    assert stored_events(path) == 0
    again = SqliteStore(path)  # a restart goes on from what was stored
    again.append("t0", 1, play(0))
    again.settle()
    assert stored_events(path) == 1
    again.close()
