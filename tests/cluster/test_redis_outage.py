"""A Redis that goes away and comes back (restarted, so empty): every node is listed
again, keeps its tables' leases, and no client is left waiting on a message the bus lost.

Each test runs a Redis of its own (``redis-server`` on a free port) so that it may stop
it; PostgreSQL is the test server's (``HEARTS_TEST_POSTGRES``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.cluster.real_servers import POSTGRES, fresh_database
from tests.server.conftest import Client, create_table, join_table
from websockets.exceptions import ConnectionClosed

from hearts.server.bus import Bus

pytestmark = pytest.mark.skipif(
    not POSTGRES or shutil.which("redis-server") is None,
    reason="needs HEARTS_TEST_POSTGRES (tests/cluster/services.sh starts it) and redis-server")


class PrivateRedis:
    """A throwaway Redis on a fixed port that a test may stop and start again."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise TimeoutError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


async def _eventually(check: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, "not within the time"
        await asyncio.sleep(0.1)


async def test_after_a_redis_restart_every_node_is_listed_and_keeps_its_leases(
        private_redis: PrivateRedis) -> None:
    a, b = Bus(private_redis.url, lease_s=0.9), Bus(private_redis.url, lease_s=0.9)
    await a.start()
    await b.start()
    lost: list[str] = []
    a.on_lost = lost.append
    restored: list[bool] = []
    a.on_restored = lambda: restored.append(True)
    table = secrets.token_hex(4)
    try:
        assert await a.acquire(table)
        private_redis.stop()
        await asyncio.sleep(1.5)  # longer than a lease: both nodes fail to renew
        private_redis.start()  # empty: no node set, no lease, no liveness

        async def listed() -> bool:
            with_nodes = await a.redis.smembers("hearts:nodes")
            return {n.decode() for n in with_nodes} == {a.node_id, b.node_id}

        await _eventually(listed)
        await _eventually(lambda: _holder(b, table, a.node_id))
        assert await b.alive(a.node_id) and await a.alive(b.node_id)
        assert not await b.acquire(table)
        assert lost == [] and table in a.owned
        await _eventually(lambda: _true(bool(restored)))
    finally:
        await a.stop()
        await b.stop()


async def _holder(bus: Bus, table: str, node: str) -> bool:
    return await bus.owner(table) == node


async def _true(value: bool) -> bool:
    return value


@pytest.fixture
async def two_nodes(private_redis: PrivateRedis, tmp_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[Any]]:
    import tests.cluster.conftest as cluster

    monkeypatch.setattr(cluster, "REDIS", private_redis.url)
    with fresh_database() as database:
        nodes = [cluster.Node(database, tmp_path / f"node{n}.log") for n in range(2)]
        try:
            await asyncio.gather(*(node.ready() for node in nodes))
            yield nodes
        finally:
            for node in nodes:
                node.stop()
                print(f"--- {node.log.name}\n{node.log.read_text()}")


async def _lobby_ids(node: Any) -> set[str]:
    async with node.server.http() as http:
        return {t["id"] for t in (await http.get("/api/tables")).json()["tables"]}


async def test_after_a_redis_restart_each_lobby_lists_every_nodes_tables(
        two_nodes: list[Any], private_redis: PrivateRedis) -> None:
    first, second = two_nodes
    ids = {(await create_table(node.server, ["human", "human", "normal", "normal"])
            )["table"]["id"] for node in (first, second)}
    private_redis.stop()
    await asyncio.sleep(1.0)
    private_redis.start()
    await asyncio.sleep(4.0)  # two leases: every node has listed itself again

    async def both_list_all() -> bool:
        listed = [await _lobby_ids(node) for node in (first, second)]
        return all(ids <= found for found in listed)

    await _eventually(both_list_all, timeout=10.0)


async def _answered_or_closed(client: Client, request: int, timeout: float) -> str:
    """What became of a request: its answer's type, or ``closed``."""
    try:
        found = await client.expect(lambda m: m.get("id") == request
                                    and m["type"] in ("ack", "error", "pong"), timeout)
    except ConnectionClosed:
        return "closed"
    return str(found["type"]) if found["type"] != "error" else f"error {found['code']}"


async def _welcomed_or_closed(client: Client, after: int, timeout: float) -> str:
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            if any(m["type"] == "welcome" for m in client.received[after:]):
                return "welcomed"
            with contextlib.suppress(TimeoutError):
                await client.recv(timeout=0.2)
    except ConnectionClosed:
        return "closed"
    return "neither"


async def test_a_redis_outage_leaves_no_relayed_player_waiting(
        two_nodes: list[Any], private_redis: PrivateRedis) -> None:
    first, second = two_nodes
    made = await create_table(first.server, ["human", "human", "normal", "normal"])
    table_id = made["table"]["id"]
    bob = await join_table(second.server, table_id, "Bob")
    here = await Client.open(first.server, table_id, made["token"])
    relayed = await Client.open(second.server, table_id, bob["token"])
    await here.settle()
    await relayed.settle()
    seen = {id(c): len(c.received) for c in (here, relayed)}
    private_redis.stop()
    await asyncio.sleep(0.5)
    # a message through the relaying node while the bus is down: answered or refused
    await relayed.send({"type": "ping", "id": 41})
    outcome = await _answered_or_closed(relayed, 41, timeout=5.0)
    assert outcome in ("pong", "error table_moving"), outcome
    await asyncio.sleep(3.0)
    private_redis.start()
    # afterwards the relayed connection is greeted again or closed (the page
    # reconnects); the owner's own connection is still served
    state = await _welcomed_or_closed(relayed, seen[id(relayed)], timeout=12.0)
    assert state in ("welcomed", "closed"), state
    await here.send({"type": "ping", "id": 42})
    assert await _answered_or_closed(here, 42, timeout=10.0) in ("pong", "closed")
    # and a connection through either node is served
    for node, token in ((first, made["token"]), (second, bob["token"])):
        again = await Client.open(node.server, table_id, token)
        await again.send({"type": "ping", "id": 7})
        assert await _answered_or_closed(again, 7, timeout=10.0) == "pong"
        await again.close()
