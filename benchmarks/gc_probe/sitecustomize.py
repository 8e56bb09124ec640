"""The load benchmark's garbage-collector probe, loaded by the servers it starts.

``benchmarks/load.py`` puts this folder first on the server's ``PYTHONPATH`` and names a
file in ``HEARTS_GC_PROBE``: Python then imports this module at start-up, and each
collection's start (wall clock), generation and CPU time go to that file as a line of
JSON when it ends (a few a second: no thread, nothing else in the measured process). A
collection stops every table of the process at once, so its pauses are part of the
latency tail the benchmark reports. Nothing happens without the variable.
"""

from __future__ import annotations

import gc
import json
import os
import time
from typing import Any

__all__: list[str] = []

_PATH = os.environ.get("HEARTS_GC_PROBE")


def _install(path: str) -> None:
    """Append a line to ``path`` at the end of every collection."""
    out = open(path, "a", encoding="utf-8")  # noqa: SIM115 (open for the process's life)
    started: list[float] = [0.0, 0.0]

    def on_collection(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0], started[1] = time.time(), time.thread_time()
        else:
            cpu = time.thread_time() - started[1]
            out.write(f"{json.dumps([started[0], info['generation'], cpu])}\n")
            out.flush()

    gc.callbacks.append(on_collection)


if _PATH:
    _install(_PATH)
