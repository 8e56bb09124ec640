"""One contract for every store: the same tests run on SQLite and on PostgreSQL.

PostgreSQL runs when ``HEARTS_TEST_POSTGRES`` names a server (``tests/cluster/services.sh``
starts one; CI sets it) and skips, saying so, otherwise. A deferred store (PostgreSQL)
writes later: the tests wait for its writes with ``flush`` where the contract says "stored",
and check its own promise too: nothing held behind a write is sent before the write is
stored, and nothing held behind a refused write is ever sent.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from tests.cluster.real_servers import fresh_database, needs_postgres

from hearts.server.authority import TableAuthority
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import (
    SQLITE_MIGRATIONS,
    DeferredStore,
    SqliteStore,
    Store,
    StoreSchemaError,
)

SETTINGS = {"rules": "card-commons:players=4", "seats": ["human"] * 4, "public": True,
            "title": "t", "bot_seed": "s"}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        sqlite = SqliteStore(tmp_path / "hearts.db")
        yield sqlite
        sqlite.close()
        return
    from hearts.server.store_postgres import PostgresStore

    with fresh_database() as url:
        postgres = PostgresStore(url)
        await postgres.open()
        yield postgres
        await postgres.aclose()


async def stored(store: Store) -> None:
    """Wait until the store holds every write made so far."""
    store.settle()
    if isinstance(store, DeferredStore):
        await store.flush()


async def test_a_table_comes_back_with_its_settings_and_its_log_in_order(store: Store) -> None:
    store.create_table("a", SETTINGS)
    events = [{"t": "join", "seat": s, "name": f"P{s}", "token": "x" * s} for s in range(4)]
    for seq, event in enumerate(events, start=1):
        store.append("a", seq, event)
    await stored(store)
    loaded = store.load("a")
    assert loaded is not None
    assert (loaded.table_id, loaded.settings, loaded.events, loaded.finished) == (
        "a", SETTINGS, events, False)
    assert store.load("nobody") is None


async def test_finished_tables_keep_their_log(store: Store) -> None:
    store.create_table("a", SETTINGS)
    store.append("a", 1, {"t": "fill", "seats": [1, 2, 3], "level": "random"})
    store.mark_finished("a")
    await stored(store)
    loaded = store.load("a")
    assert loaded is not None and loaded.finished and len(loaded.events) == 1


async def test_load_all_gives_every_table_oldest_first(store: Store) -> None:
    for name in ("b", "a", "c"):
        store.create_table(name, SETTINGS | {"title": name})
        await stored(store)
        await asyncio.sleep(0.01)  # creation times differ
    assert [t.table_id for t in store.load_all()] == ["b", "a", "c"]


async def test_an_event_number_is_written_once(store: Store) -> None:
    """Two writers of one table (a process paused past its lease, and its successor):
    the second write of an event number is refused and the first is kept."""
    store.create_table("a", SETTINGS)
    store.append("a", 1, {"t": "first"})
    await stored(store)
    if isinstance(store, DeferredStore):
        lost: list[str] = []
        store.on_lost = lost.append
        told: list[str] = []
        store.append("a", 1, {"t": "second"})
        store.hold("a", lambda: told.append("after the refused write"))
        await store.flush()
        assert lost == ["a"] and told == []
    else:
        with pytest.raises(sqlite3.IntegrityError):
            store.append("a", 1, {"t": "second"})
    loaded = store.load("a")
    assert loaded is not None and loaded.events == [{"t": "first"}]


async def test_score_sheets_are_versioned(store: Store) -> None:
    assert store.put_score_sheet("s", "digest", {"rounds": []}) == 1
    assert store.put_score_sheet("s", "digest", {"rounds": [[1]]}) == 2
    sheet = store.load_score_sheet("s")
    assert sheet is not None
    assert (sheet.key_digest, sheet.sheet, sheet.version) == ("digest", {"rounds": [[1]]}, 2)
    assert store.load_score_sheet("other") is None


async def test_a_player_key_lists_the_tables_it_sat_at_newest_first(store: Store) -> None:
    store.link_player("k1", "old", 0)  # linked before its table is stored: shown once it is
    for table_id in ("old", "new", "theirs"):
        store.create_table(table_id, SETTINGS | {"title": f"{table_id}'s table"})
    await stored(store)
    store.link_player("k1", "new", 2)
    store.link_player("k1", "new", 2)  # again: one link
    store.link_player("k2", "theirs", 1)
    store.mark_finished("old")
    await stored(store)
    games = store.player_games("k1")
    assert [(g.table_id, g.seat, g.finished, g.title) for g in games] == [
        ("new", 2, False, "new's table"), ("old", 0, True, "old's table")]
    assert games[0].joined >= games[1].joined
    assert [g.table_id for g in store.player_games("k2")] == ["theirs"]
    assert store.player_games("nobody") == []


async def test_a_challenge_is_stored_once_with_its_leaderboard(store: Store) -> None:
    spec = {"preset": "standard", "deals": 4}
    assert store.put_challenge("C1", spec)
    assert not store.put_challenge("C1", {"preset": "changed"})  # a code names one challenge
    loaded = store.load_challenge("C1")
    assert loaded is not None and (loaded.code, loaded.spec) == ("C1", spec)
    assert store.load_challenge("C2") is None
    assert not store.add_challenge_entry("C2", "e", {"name": "x"})  # no such challenge
    assert store.add_challenge_entry("C1", "e1", {"name": "Ann", "points": [3, 0]})
    assert not store.add_challenge_entry("C1", "e1", {"name": "Ann again"})
    assert store.add_challenge_entry("C1", "e2", {"name": "Bo", "points": [0, 13]})
    entries = store.challenge_entries("C1")
    assert [(e.entry_id, e.entry["name"]) for e in entries] == [("e1", "Ann"), ("e2", "Bo")]
    assert entries[0].submitted <= entries[1].submitted
    assert store.challenge_entries("C2") == []


async def test_a_whole_table_replays_from_the_store(store: Store) -> None:
    """A table's authority writes its events; a second authority replays them from the
    store to the same state, state id and seats."""
    settings = TableSettings.build(preset="card-commons", players=4, options="", target=30,
                                   seats=["human", "random", "random", "random"],
                                   public=True, title="t", bot_seed="b")
    store.create_table("g", settings.to_json())
    first = TableAuthority("g", settings, store, ServerConfig())
    first.join("Ann", "token", 0)
    first.commit_round("11" * 32)
    while not first.state.is_over:
        before = first.state
        action = first.deal() if not before.to_act else before.legal_actions(
            before.to_act[0])[0]
        first.commit_action(before, action, before.apply(action))
        if first.needs_commitment:
            first.commit_round(f"{first.state.round_no:02d}" * 32)
    await stored(store)
    loaded = store.load("g")
    assert loaded is not None and loaded.finished
    second = TableAuthority("g", settings, store, ServerConfig())
    second.replay(loaded.events)
    assert second.state.is_over and second.state_id == first.state_id
    assert second.names == first.names and second.record() == first.record()


@needs_postgres
async def test_a_deferred_store_tells_nothing_before_it_is_stored() -> None:
    from hearts.server.store_postgres import PostgresStore

    with fresh_database() as url:
        store = PostgresStore(url)
        await store.open()
        try:
            # (what was held back, the events stored when it was told); the callbacks only
            # record, since the store logs and swallows a callback's own errors
            told: list[tuple[str, int]] = []

            def teller(n: int) -> Callable[[], None]:
                def tell() -> None:
                    # what is told is already in the database, by another connection
                    loaded = store.load("a")
                    told.append((f"event {n}", len(loaded.events) if loaded else -1))
                return tell
            store.hold("a", lambda: told.append(("nothing queued", 0)))
            assert told == [("nothing queued", 0)]
            store.create_table("a", SETTINGS)
            for seq in range(1, 6):
                store.append("a", seq, {"t": "e", "n": seq})
                store.hold("a", teller(seq))
            assert len(told) == 1  # nothing stored yet: nothing told
            await store.flush()
            assert [what for what, _ in told[1:]] == [f"event {n}" for n in range(1, 6)]
            assert all(stored >= n for n, (_, stored) in enumerate(told[1:], 1)), told
        finally:
            await store.aclose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=needs_postgres)])
async def test_migrations_are_numbered_and_run_once(kind: str, tmp_path: Path) -> None:
    if kind == "sqlite":
        first = SqliteStore(tmp_path / "m.db")
        assert first.schema_version == len(SQLITE_MIGRATIONS)
        first.create_table("kept", SETTINGS)
        first.close()
        again = SqliteStore(tmp_path / "m.db")  # a second open migrates nothing
        assert again.schema_version == len(SQLITE_MIGRATIONS) and again.load("kept")
        again._db.execute("INSERT INTO schema_version VALUES (99)")
        again.close()
        with pytest.raises(StoreSchemaError, match="newer than this server"):
            SqliteStore(tmp_path / "m.db")
        return
    from hearts.server.store_postgres import POSTGRES_MIGRATIONS, PostgresStore

    with fresh_database() as url:
        stores: list[Any] = [PostgresStore(url) for _ in range(3)]
        # several processes starting at once migrate once, in turn
        await asyncio.gather(*(s.open() for s in stores))
        assert {s.schema_version for s in stores} == {len(POSTGRES_MIGRATIONS)}
        rows = stores[0]._query_all("SELECT version FROM schema_version", ())
        assert sorted(r[0] for r in rows) == list(range(1, len(POSTGRES_MIGRATIONS) + 1))
        stores[0]._query_one("INSERT INTO schema_version VALUES (99) RETURNING version", ())
        for opened in stores:
            await opened.aclose()
        newer = PostgresStore(url)
        with pytest.raises(StoreSchemaError, match="newer than this server"):
            await newer.open()
        await newer.pool.close()


@pytest.mark.parametrize("restart_frames", [200, None], ids=["restarted", "passive-only"])
def test_the_sqlite_log_stays_bounded_while_writes_never_stop(tmp_path: Path,
                                                              restart_frames: int | None) -> None:
    """Appends that never stop for long while the checkpoints run (a busy server): PASSIVE
    checkpoints alone never catch up, so the log grows with every write (the contrast
    case); restarted past its bound, it stays small."""
    store = SqliteStore(tmp_path / "busy.db")
    store.wal_restart_frames = restart_frames or 10**9
    store.create_table("t", SETTINGS)
    wal = tmp_path / "busy.db-wal"
    stop = False
    checkpoints = 0

    def upkeep() -> None:
        nonlocal checkpoints
        while not stop:
            store.maintain()
            checkpoints += 1
            time.sleep(0.05)

    worker = threading.Thread(target=upkeep)
    worker.start()
    try:
        # one commit, at least one 4 KiB page of log, each: about 24 MB of log in all,
        # with a little of the server's other work between appends
        for seq in range(6_000):
            store.append("t", seq, {"kind": "note", "text": "x" * 200})
            time.sleep(0.0001)
    finally:
        stop = True
        worker.join()
    assert checkpoints > 10
    size = wal.stat().st_size
    if restart_frames is None:
        assert size > 16 << 20, size
    else:
        assert size < 6 << 20, size
    assert len(store.load("t").events) == 6_000  # type: ignore[union-attr]
    store.close()
