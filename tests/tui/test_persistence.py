"""Saved games and sheets: where they go, atomic writes, damaged files."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearts.core import Rules
from hearts.core.scorekeeper import Sheet
from hearts.persistence import (
    SavedGameError,
    atomic_write_text,
    data_dir,
    list_sheets,
    load_current_game,
    load_sheet,
    save_sheet,
)
from hearts.tui.session import GameSession, GameSettings


def test_hearts_home_decides_where_everything_is_kept(hearts_home: Path) -> None:
    assert data_dir() == hearts_home
    session = GameSession(GameSettings(seed="1"))
    assert (hearts_home / "current-game.json").exists()
    record, settings = load_current_game() or ({}, {})
    assert record["rounds"][0]["deal_seed"] and settings["seed"] == "1"
    assert session.state.round_no == 1


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    atomic_write_text(target, "old")

    with pytest.raises(TypeError):
        atomic_write_text(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["file.json"]


def test_a_damaged_saved_game_is_a_clear_error(hearts_home: Path) -> None:
    hearts_home.mkdir(parents=True, exist_ok=True)
    (hearts_home / "current-game.json").write_text("{not json")
    with pytest.raises(SavedGameError, match="cannot be read"):
        GameSession.resume()


def test_sheet_names_are_checked_and_sheets_listed() -> None:
    sheet = Sheet(Rules(), ("A", "B", "C", "D")).add_round(points=(13, 13, 0, 0))
    save_sheet("friday night", sheet)
    assert list_sheets() == ["friday night"]
    assert load_sheet("friday night") == sheet
    with pytest.raises(SavedGameError, match="sheet name"):
        save_sheet("../escape", sheet)
    with pytest.raises(SavedGameError, match="no sheet named 'other'; saved sheets: friday"):
        load_sheet("other")
