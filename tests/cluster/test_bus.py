"""The bus on a real Redis: a lease has one holder, a lost lease is noticed, relayed
messages arrive in order, and a node nobody hears is taken for dead at once."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as redis
from tests.cluster.real_servers import REDIS, needs_servers

from hearts.server.bus import Bus

pytestmark = needs_servers


@pytest.fixture
async def buses() -> AsyncIterator[Callable[..., Any]]:
    started: list[Bus] = []

    async def start(lease_s: float = 1.5) -> Bus:
        bus = Bus(REDIS, lease_s=lease_s)
        await bus.start()
        started.append(bus)
        return bus

    yield start
    for bus in started:
        await bus.stop()


async def test_a_lease_has_one_holder_until_given_back(buses: Callable[..., Any]) -> None:
    a, b = await buses(), await buses()
    table = secrets.token_hex(4)
    assert await a.acquire(table)
    assert not await b.acquire(table)
    assert await b.owner(table) == a.node_id
    await asyncio.sleep(2.0)  # longer than the lease: a renews it
    assert not await b.acquire(table) and await b.owner(table) == a.node_id
    await a.release(table)
    assert await b.acquire(table) and await a.owner(table) == b.node_id


async def test_a_node_that_loses_a_lease_is_told(buses: Callable[..., Any]) -> None:
    a = await buses(lease_s=0.9)
    lost: list[str] = []
    a.on_lost = lost.append
    table = secrets.token_hex(4)
    assert await a.acquire(table)
    # as if a paused past its lease and another node took the table meanwhile
    await a.redis.set(f"hearts:lease:{table}", "another-node", px=5000)
    for _ in range(20):
        if lost:
            break
        await asyncio.sleep(0.1)
    assert lost == [table] and table not in a.owned


async def test_relayed_messages_arrive_in_order(buses: Callable[..., Any]) -> None:
    a, b = await buses(), await buses()
    heard: list[Any] = []
    b.on_message = lambda payload: heard.append(payload["n"])
    b.on_out = lambda conn, text: heard.append((conn, text))
    sent: list[Any] = []
    for n in range(300):
        if n % 3:
            a.post(b.node_id, {"op": "moved", "n": n})
            sent.append(n)
        else:  # relayed connections' texts, whatever they hold, NULs and all
            a.post_out(b.node_id, f"c{n}", f'{{"n": {n}, "odd": "\u00e9\0x"}}')
            sent.append((f"c{n}", f'{{"n": {n}, "odd": "\u00e9\0x"}}'))
    for _ in range(50):
        if len(heard) == len(sent):
            break
        await asyncio.sleep(0.05)
    assert heard == sent


async def test_a_node_nobody_hears_is_dead_at_once(buses: Callable[..., Any]) -> None:
    a, b = await buses(), await buses()
    assert await a.alive(b.node_id)
    assert await a.publish(b.node_id, {"op": "msg"}) == 1
    await b.stop()  # its liveness key is deleted; a silent death leaves it a lease long
    assert not await a.alive(b.node_id)
    ghost = secrets.token_hex(4)
    await a.redis.set(f"hearts:alive:{ghost}", "1", px=5000)  # a key that outlived its node
    assert await a.alive(ghost)
    assert await a.publish(ghost, {"op": "msg"}) == 0
    assert not await a.alive(ghost)


async def test_a_cancellation_that_redis_turns_into_an_error_does_not_outlive_the_stop(
        buses: Callable[..., Any]) -> None:
    """redis-py can turn a cancellation inside a command into a plain Redis error; the
    lease keeper, which carries on after such errors, must still end with the stop."""
    bus = await buses(lease_s=0.3)

    async def hanging_set(*args: Any, **kwargs: Any) -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise redis.TimeoutError("the cancellation, as redis-py may report it") from None

    bus.redis.set = hanging_set
    await asyncio.sleep(0.3)  # the keeper (every 0.1 s) now waits inside the command
    tasks = list(bus._tasks)
    await bus.stop()
    _, running = await asyncio.wait(tasks, timeout=2.0)
    assert not running, [task.get_name() for task in running]
