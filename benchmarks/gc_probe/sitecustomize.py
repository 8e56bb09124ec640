"""The load benchmark's garbage-collector probe, loaded by the servers it starts.

``benchmarks/load.py`` puts this folder first on the server's ``PYTHONPATH`` and names a
file in ``HEARTS_GC_PROBE``: Python then imports this module at start-up, and every
collection's generation, start (wall clock) and CPU time go to that file, rewritten
twice a second. A collection stops every table of the process at once, so its pauses
are part of the latency tail the benchmark reports. Nothing happens without the variable.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from typing import Any

__all__: list[str] = []

_PATH = os.environ.get("HEARTS_GC_PROBE")


def _install(path: str) -> None:
    """Record every collection, and write the records to ``path`` twice a second."""
    records: list[tuple[float, int, float]] = []
    started: list[float] = [0.0, 0.0]

    def on_collection(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0], started[1] = time.time(), time.thread_time()
        else:
            records.append((started[0], info["generation"], time.thread_time() - started[1]))

    def write() -> None:
        while True:
            time.sleep(0.5)
            partial = f"{path}.part"
            with open(partial, "w", encoding="utf-8") as out:
                json.dump(records, out)
            os.replace(partial, path)

    gc.callbacks.append(on_collection)
    threading.Thread(target=write, name="gc-probe", daemon=True).start()


if _PATH:
    _install(_PATH)
