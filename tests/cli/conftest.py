"""Run the real ``hearts`` command in a subprocess."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from hearts.cli.main import main

CLI = [sys.executable, "-m", "hearts.cli.main"]
# The tests read the card symbols in the output, whatever the machine's locale.
CLI_ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1"}

RunCli = Callable[..., subprocess.CompletedProcess[str]]
MainResult = tuple[int, str, str]


@pytest.fixture
def hearts_cli() -> RunCli:
    """``hearts_cli("simulate", "--games", "3", stdin=None)``: run the CLI, return the result."""

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                              encoding="utf-8", env=CLI_ENV, timeout=120, check=False)

    return run


@pytest.fixture
def start_hearts() -> Callable[..., subprocess.Popen[str]]:
    """``start_hearts("play", ...)`` starts the CLI with text pipes on all three streams."""

    def start(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen([*CLI, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                env=CLI_ENV, bufsize=0)

    return start


@pytest.fixture
def hearts_main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
                ) -> Callable[..., MainResult]:
    """``hearts_main("simulate", ...)`` runs ``main()`` in this process (quicker than a
    subprocess, for the many short error cases); returns (status, stdout, stderr)."""

    def run(*args: str, stdin: str = "") -> MainResult:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse's own usage errors
            status = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return status, out, err

    return run
