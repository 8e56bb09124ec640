"""Worker counts default to the CPUs a process may use, not the machine's: a run pinned
with ``taskset`` to one core gets one worker, so its searches do not share the core and
find fewer worlds on their clock (an ISMCTS run once did, with two workers on one core)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hearts.cli.common import usable_cpus
from hearts.cli.main import build_parser

_ARENA_WORKERS = ("from hearts.cli.main import build_parser; "
                  "print(build_parser().parse_args(['arena', '--bot', 'random']).workers)")


def test_the_default_is_this_process_s_affinity() -> None:
    assert usable_cpus() == len(os.sched_getaffinity(0))
    assert build_parser().parse_args(["arena", "--bot", "random"]).workers == usable_cpus()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_a_process_pinned_to_one_cpu_gets_one_worker() -> None:
    one = min(os.sched_getaffinity(0))
    pinned = subprocess.run([sys.executable, "-c", _ARENA_WORKERS], capture_output=True,
                            text=True, check=True, timeout=120,
                            preexec_fn=lambda: os.sched_setaffinity(0, {one}))
    assert pinned.stdout.strip() == "1"
