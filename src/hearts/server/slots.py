"""Bounds on blocking work that HTTP requests start in worker threads.

A re-check of a challenge entry, a game's analysis and a player page's first build are
Python computations of tens of milliseconds to seconds. In a worker thread each holds
the GIL most of its time, so a crowd of them would slow every table's event loop. Each
kind gets a few slots; a request that finds none free is told to come back (``busy``,
answered 503 with ``Retry-After`` by ``routes.guarded``) instead of queueing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from hearts.server.protocol import RequestError

__all__ = ["RETRY_AFTER_S", "WorkSlots"]

RETRY_AFTER_S = 30
"""What a ``busy`` answer's ``Retry-After`` says, in seconds."""


class WorkSlots:
    """At most ``most`` jobs of one kind at once, server-wide."""

    def __init__(self, most: int, busy: str) -> None:
        self.most = most
        self.busy = busy
        self._free = threading.BoundedSemaphore(most)

    @contextmanager
    def held(self) -> Iterator[None]:
        """A slot for the block; RequestError ``busy`` (saying ``busy``) when none is free."""
        if not self._free.acquire(blocking=False):
            raise RequestError("busy", self.busy)
        try:
            yield
        finally:
            self._free.release()
