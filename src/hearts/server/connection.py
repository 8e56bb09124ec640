"""One websocket's send side: a queue drained by its own task, so nobody waits on a slow
client."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from hearts.server.protocol import compact_json

__all__ = ["Connection"]


class Connection:
    """One websocket: a send queue drained by its own task, so nobody waits on a slow client."""

    def __init__(self, websocket: WebSocket, queue_size: int) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(queue_size)
        self.overflowed = False
        self.close_code = 1000
        self.last_rate_error = 0.0

    def send_text(self, text: str) -> None:
        """Queue a message; a client that falls this far behind is disconnected."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self, code: int = 1000) -> None:
        """Close once what is queued is sent (``1013``: try again later; the page
        reconnects on any close); with the queue full, at once, dropping what it holds."""
        self.close_code = code
        if self.overflowed:
            return  # closing already (1008)
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # too far behind to send the rest: close now, unsent
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.queue.get_nowait()
            self.queue.put_nowait(None)

    def send(self, data: dict[str, Any]) -> None:
        """Queue a JSON message."""
        self.send_text(compact_json(data))

    async def drain(self) -> None:
        """Send queued messages until told to stop (None) or the client is gone. A gone
        client ends the task quietly: an exception kept by the finished task would hold the
        connection's objects in a reference cycle until the next full collection (about 140
        objects a connection; ``hearts serve`` sweeps only every few minutes)."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
            await self.websocket.close(code=1008 if self.overflowed else self.close_code)
        except WebSocketDisconnect:
            return
