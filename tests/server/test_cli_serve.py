"""``hearts serve`` options and its default store path."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearts.cli.cmd_serve import default_db
from hearts.cli.main import build_parser


def test_the_default_store_lives_in_hearts_home(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("HEARTS_HOME", str(tmp_path))
    assert default_db() == tmp_path / "server.db"


def test_serve_options_parse_with_their_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)
    assert (args.grace, args.entropy_timeout, args.bot_delay) == (60.0, 3.0, 0.7)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000",
                                      "--db", "x.db", "--grace", "5"])
    assert (args.host, args.port, args.db, args.grace) == ("0.0.0.0", 9000, Path("x.db"), 5.0)
