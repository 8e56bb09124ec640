"""Start-up time of the command line: ``hearts --help``, ``hearts rules`` and
``import hearts.core``, each a fresh process, against the 0.15 s target.

A command a person types should answer at once, so ``hearts`` imports a subcommand's
module only when that command runs (``hearts.cli.main``). Each figure is the wall
time of a whole process, the interpreter's own start included: the least and the
median over the runs (the least is the least disturbed by other load).

    .venv/bin/python benchmarks/startup.py --runs 20

The commands run through the ``hearts`` script beside this Python when it is
installed, else as ``python -m hearts.cli.main``. The first line says which engine
the core loads (compiled, or pure Python with ``HEARTS_PURE_PYTHON=1``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from hearts.cli.common import positive_int, positive_number
from hearts.core._native import engine_in_use

__all__ = ["hearts_command", "main", "time_command"]

TARGET_S = 0.15


def hearts_command() -> list[str]:
    """How to run ``hearts`` with this Python: its installed script, or the module."""
    script = Path(sys.executable).with_name("hearts")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hearts.cli.main"]


def time_command(command: list[str], runs: int) -> list[float]:
    """Wall seconds of ``runs`` fresh runs of ``command`` (after one unmeasured run that
    fills the file cache)."""
    subprocess.run(command, capture_output=True, check=True)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return times


def main(argv: list[str] | None = None) -> int:
    """Time each command and compare it with the target; exit 1 if one misses it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive_int, default=15,
                        help="runs of each command (default 15)")
    parser.add_argument("--target", type=positive_number, default=TARGET_S,
                        help=f"seconds a command may take to start (default {TARGET_S})")
    args = parser.parse_args(argv)
    hearts = hearts_command()
    commands = {
        "hearts --help": [*hearts, "--help"],
        "hearts rules": [*hearts, "rules"],
        "import hearts.core": [sys.executable, "-c", "import hearts.core"],
        "python (bare)": [sys.executable, "-c", "pass"],
    }
    print(f"engine: {engine_in_use()}; {args.runs} runs each; target {args.target:.2f} s")
    missed = 0
    for label, command in commands.items():
        times = time_command(command, args.runs)
        least, median = min(times), statistics.median(times)
        if label.startswith("python"):
            verdict = "(the interpreter alone)"
        elif median <= args.target:
            verdict = "meets the target"
        else:
            missed += 1
            verdict = f"over the target by {median - args.target:.3f} s"
        print(f"{label:<19} min {least:.3f} s  median {median:.3f} s  {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
