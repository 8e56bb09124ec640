"""Every TUI test keeps its saved games in a temporary HEARTS_HOME."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "hearts-home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home
