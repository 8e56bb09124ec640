"""The server's garbage-collection policy: no collection while tables play, a sweep once
every few minutes instead.

Any collection stops every table at once, for as long as it takes to scan the objects it
looks at, and with many tables those are many: each table's state lives from one action to
the next, long enough to outlive the interpreter's young collections, so even those grow to
the tables' whole working set (``benchmarks/table_cost.py``: young collections of 50,000 to
160,000 objects, 50 to 190 ms, with 1,000 tables; full ones 200 to 450 ms). Yet reference
counting frees a table's objects as soon as its state is replaced: over a whole run of 1,000
games the collections found no unreachable object. So the interpreter's own collections are
off, and a thread *sweeps* (collects everything) every ``sweep_s`` seconds, or sooner once
the tracked objects have grown by as many as the last sweep kept (and at least ``growth``),
for the cycles that do form (uvicorn leaves about 40 objects in one for each connection
closed): one long pause, rare enough to stay out of the latency percentiles, and memory
that cannot run away."""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable

from hearts.server.settings import ServerConfigError

__all__ = ["SweepingCollector"]

_LOG = logging.getLogger(__name__)


class SweepingCollector:
    """Turn the interpreter's collections off and sweep every ``sweep_s`` seconds, or once
    the tracked objects have grown by as many as the last sweep kept and at least ``growth``,
    checked every ``check_s`` seconds on a thread of its own (a sweep holds the interpreter
    lock: the event loop waits for it as it would for a collection it had started)."""

    def __init__(self, sweep_s: float = 600.0, growth: int = 1_000_000, check_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not 0 < check_s <= sweep_s:
            raise ServerConfigError(f"the collector needs 0 < check_s <= sweep_s, not {check_s} "
                             f"and {sweep_s}")
        if growth <= 0:
            raise ServerConfigError(f"the growth that starts a sweep must be above 0, not {growth}")
        self.sweep_s = sweep_s
        self.growth = growth
        self.check_s = check_s
        self.sweeps = 0
        self.kept = 0
        self._clock = clock
        self._last = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Sweep once, freeze what exists now (the modules and the app: never scanned
        again, even by a sweep), turn the interpreter's collections off, start the thread."""
        gc.collect()
        gc.freeze()
        gc.disable()
        self.kept = 0
        self._last = self._clock()
        self._thread = threading.Thread(target=self._run, name="hearts-gc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the thread and turn the interpreter's collections back on."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        gc.enable()

    def due(self) -> bool:
        """Whether a sweep is due: its interval is over, or the tracked objects grew."""
        return (self._clock() - self._last >= self.sweep_s
                or gc.get_count()[0] >= max(self.growth, self.kept))

    def sweep(self) -> int:
        """Collect everything not frozen; the objects found unreachable."""
        started = time.perf_counter()
        found = gc.collect()
        paused = time.perf_counter() - started
        self._last = self._clock()
        self.sweeps += 1
        self.kept = len(gc.get_objects())
        _LOG.info("garbage sweep %d: %.0f ms, %d unreachable objects reclaimed, %d kept",
                  self.sweeps, 1e3 * paused, found, self.kept)
        return found

    def _run(self) -> None:
        while not self._stop.wait(self.check_s):
            if self.due():
                self.sweep()
