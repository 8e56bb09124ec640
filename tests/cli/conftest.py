"""Run the real ``hearts`` command in a subprocess."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Callable

import pytest

from hearts.cli.main import main

CLI = [sys.executable, "-m", "hearts.cli.main"]
# The tests read the card symbols in the output, whatever the machine's locale; a CLI
# that a test has to abort prints its stack (faulthandler) for the failure report.
CLI_ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1",
           "PYTHONFAULTHANDLER": "1"}

RunCli = Callable[..., subprocess.CompletedProcess[str]]
MainResult = tuple[int, str, str]


@pytest.fixture
def hearts_cli() -> RunCli:
    """``hearts_cli("simulate", "--games", "3", stdin=None)``: run the CLI, return the result."""

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                              encoding="utf-8", env=CLI_ENV, timeout=120, check=False)

    return run


def _ctrl_c_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def start_hearts() -> Callable[..., subprocess.Popen[str]]:
    """``start_hearts("play", ...)`` starts the CLI with text pipes on all three streams,
    and Ctrl-C (SIGINT) acted on as in a terminal, whatever the tests inherited: a shell
    starts a background job with it ignored, and Python keeps it so."""

    def start(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen([*CLI, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                env=CLI_ENV, bufsize=0, preexec_fn=_ctrl_c_as_in_a_terminal)

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
