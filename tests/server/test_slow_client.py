"""A client that stops reading never holds anyone up: its queue overflows and it is closed."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from hearts.server.connection import Connection


class StuckSocket:
    """A websocket whose sends never complete (a client that stopped reading)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.release.wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


async def test_an_overflowing_client_is_dropped_without_blocking_the_sender() -> None:
    socket = StuckSocket()
    conn = Connection(cast(Any, socket), queue_size=8)
    drainer = asyncio.create_task(conn.drain())
    conn.send_text("message 0")
    for _ in range(3):
        await asyncio.sleep(0)  # the drainer takes it and gets stuck sending
    assert socket.sent == ["message 0"]
    for number in range(1, 100):
        conn.send_text(f"message {number}")  # never awaits, whatever the client does
    assert conn.overflowed
    assert conn.queue.qsize() == 1  # everything queued was dropped for the close marker
    socket.release.set()
    await asyncio.wait_for(drainer, 2)
    assert socket.closed_with == 1008
    assert socket.sent == ["message 0"]
    conn.send_text("after the end")
    assert conn.queue.empty()


async def test_a_client_that_keeps_up_gets_everything_in_order() -> None:
    socket = StuckSocket()
    socket.release.set()
    conn = Connection(cast(Any, socket), queue_size=8)
    drainer = asyncio.create_task(conn.drain())
    for number in range(50):
        conn.send_text(f"m{number}")
        await asyncio.sleep(0)
    conn.queue.put_nowait(None)
    await asyncio.wait_for(drainer, 2)
    assert socket.sent == [f"m{n}" for n in range(50)] and socket.closed_with == 1000
