"""A session whose table's owner keeps answering ``moved`` backs off instead of asking it
hundreds of times a second, and a node gives back the lease of a table it lost or could
not load, so that no other node's clients are sent to it in vain.

The bus is a stand-in (no Redis): the node that "owns" the table is alive and answers every
relayed hello with ``moved``, as a node that lost a table while its lease lingered did.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hearts.server.hub import _WELCOME, MOVE_BACKOFF_MAX_S, Hub, Session
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import SqliteStore, StoreUnavailableError

TABLE = "t1"
HELLO = '{"type":"hello","token":null}'


class StaleOwnerBus:
    """A bus on which ``other`` holds every lease, is alive, and answers each relayed
    message with ``moved`` (it no longer has the table)."""

    def __init__(self) -> None:
        self.node_id = "here"
        self.lease_ms = 2000
        self.owned: set[str] = set()
        self.asked = 0  # how many times the table's owner was looked up
        self.released: list[str] = []
        self.hub: Hub | None = None

    async def owner(self, table_id: str) -> str | None:
        self.asked += 1
        return "other"

    async def alive(self, node: str) -> bool:
        return True

    async def acquire(self, table_id: str) -> bool:
        return False

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self.released.append(table_id)

    async def publish(self, node: str, payload: dict[str, Any]) -> int:
        if payload.get("op") == "msg":
            assert self.hub is not None  # the owner's answer, a moment later
            asyncio.get_running_loop().call_soon(
                self.hub._on_bus, {"op": "moved", "table": payload["table"]})
        return 1

    def post(self, node: str, payload: dict[str, Any]) -> None:
        pass


class Socket:
    """A connection's stand-in: what it was sent, and whether it was closed."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.last_rate_error = 0.0
        self.sent: list[str] = []
        self.closed: int | None = None

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def send(self, data: dict[str, Any]) -> None:
        self.sent.append(str(data))

    def close(self, code: int = 1000) -> None:
        self.closed = code


@pytest.fixture
def hub(tmp_path: Path) -> Hub:
    bus = StaleOwnerBus()
    made = Hub(SqliteStore(tmp_path / "hub.db"), ServerConfig(), bus)  # type: ignore[arg-type]
    bus.hub = made
    return made


def _session(hub: Hub) -> Session:
    session = Session(hub, TABLE, Socket())  # type: ignore[arg-type]
    session.place("other")
    hub.sessions[session.key] = session
    return session


async def test_a_session_told_moved_again_and_again_backs_off(hub: Hub) -> None:
    bus: StaleOwnerBus = hub.bus  # type: ignore[assignment]
    session = _session(hub)
    await session.handle(HELLO)
    # looked up at 0, 0.2 and 0.6 s (then 1.4, 3.0, 5.0 ...): a handful, not hundreds; the
    # back-off reaches 0.8 s after the third look, however slowly this machine runs
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0
    while session.backoff < 0.8:
        assert loop.time() < deadline, (bus.asked, session.backoff)
        await asyncio.sleep(0.01)
    assert 2 <= bus.asked <= 5, bus.asked  # waiting, to look again
    for task in list(hub._busy):
        task.cancel()


async def test_a_welcome_ends_the_back_off(hub: Hub) -> None:
    session = _session(hub)
    session.backoff = MOVE_BACKOFF_MAX_S
    hub._out(session.key, '{"type":"state","state_id":3}')
    assert session.backoff == MOVE_BACKOFF_MAX_S
    hub._out(session.key, '{"type":"welcome","state_id":3,"seat":null}')
    assert session.backoff == 0.0
    assert session.conn.sent[-1].startswith('{"type":"welcome"')  # type: ignore[attr-defined]


async def test_a_lost_table_gives_its_lease_back(hub: Hub) -> None:
    bus: StaleOwnerBus = hub.bus  # type: ignore[assignment]
    settings = TableSettings.build(preset="card-commons", players=4, options="", target=None,
                                   seats=["human", "random", "random", "random"],
                                   public=False, title="", bot_seed="s")
    table, _ = hub.create(settings, "Ann")
    table_id = table.table_id
    # what a session takes for a welcome is how the authority's welcome begins
    assert table.authority.message_text(None, "welcome").startswith(_WELCOME)
    bus.owned.add(table_id)
    hub._lost(table_id)
    assert table_id not in hub.tables and table_id not in bus.owned
    await asyncio.sleep(0)  # the release is a task of its own
    await asyncio.sleep(0)
    assert bus.released == [table_id]
    for task in list(hub._busy):
        task.cancel()
    await table.stop()


async def test_a_table_that_cannot_be_loaded_gives_its_lease_back(
        hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    bus: StaleOwnerBus = hub.bus  # type: ignore[assignment]

    def down(table_id: str) -> None:
        raise StoreUnavailableError()

    monkeypatch.setattr(hub.store, "load", down)
    bus.owned.add(TABLE)  # taken just now, to load it
    with pytest.raises(StoreUnavailableError):
        await hub._take(TABLE)
    assert bus.released == [TABLE] and TABLE not in bus.owned
