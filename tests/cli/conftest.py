"""Run the real ``hearts`` command in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import pytest

CLI = [sys.executable, "-m", "hearts.cli.main"]
# The tests read the card symbols in the output, whatever the machine's locale.
CLI_ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}

RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def hearts_cli() -> RunCli:
    """``hearts_cli("simulate", "--games", "3", stdin=None)``: run the CLI, return the result."""

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                              encoding="utf-8", env=CLI_ENV, timeout=120, check=False)

    return run
