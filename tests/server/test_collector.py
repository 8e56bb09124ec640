"""The server's collection policy: the interpreter's collections off while it runs, cycles
still reclaimed by its sweeps (on time, or sooner when the tracked objects grow)."""

from __future__ import annotations

import gc
import re
import time
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from hearts.server.collector import SweepingCollector
from hearts.server.settings import ServerConfigError


class Node:
    """An object that can be part of a reference cycle."""

    other: object = None


def dropped_cycle() -> weakref.ref[Node]:
    """Make a two-object cycle, drop it, and keep only a weak reference to one end."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def restored_gc() -> Iterator[None]:
    """Leave the interpreter's collector as it was found (the tests run in one process)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.enable()


def test_running_turns_collections_off_and_stopping_back_on(restored_gc: None) -> None:
    collector = SweepingCollector(sweep_s=3600)
    collector.start()
    try:
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0
        cycle = dropped_cycle()
        for _ in range(50_000):  # far past any threshold: nothing collects by itself
            [].append(None)
        assert cycle() is not None
        assert collector.sweep() >= 2 and cycle() is None
    finally:
        collector.stop()
    assert gc.isenabled()


def test_a_sweep_is_due_on_time_or_when_the_tracked_objects_grow(restored_gc: None) -> None:
    clock = Clock()
    collector = SweepingCollector(sweep_s=60, growth=10_000, clock=clock)
    gc.disable()
    gc.freeze()  # the test process's own objects: only this test's count
    collector.sweep()
    assert not collector.due()
    clock.now = 59.9
    assert not collector.due()
    clock.now = 60.0
    assert collector.due()
    collector.sweep()
    assert not collector.due()
    kept = [[] for _ in range(10_000)]
    assert collector.due()
    collector.sweep()  # now keeps over 10,000 objects: it is due when as many more are made
    assert collector.kept > 10_000 and not collector.due()
    more = [[] for _ in range(collector.kept - 10)]
    assert not collector.due()
    more += [[] for _ in range(20)]
    assert collector.due()
    del kept, more


def test_the_thread_sweeps_without_being_asked(restored_gc: None) -> None:
    collector = SweepingCollector(sweep_s=0.05, check_s=0.01)
    collector.start()
    try:
        cycle = dropped_cycle()
        deadline = time.monotonic() + 5
        while cycle() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert cycle() is None and collector.sweeps >= 1
    finally:
        collector.stop()


@pytest.mark.parametrize(("options", "message"), [
    ({"sweep_s": 0.0}, "0 < check_s <= sweep_s"),
    ({"sweep_s": 1.0, "check_s": 2.0}, "0 < check_s <= sweep_s"),
    ({"growth": 0}, "must be above 0"),
])
def test_settings_out_of_range_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ServerConfigError, match=re.escape(message)):
        SweepingCollector(**options)
