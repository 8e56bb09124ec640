"""Saved games and sheets: where they go, atomic writes, damaged files, and games saved
before chance was a step."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hearts.core import (
    CardSet,
    GameState,
    Phase,
    Rules,
    Sheet,
    game_record,
    new_game,
    new_hand,
    parse_record,
    replay_game,
)
from hearts.persistence import (
    SavedGameError,
    atomic_write_text,
    data_dir,
    list_sheets,
    load_current_game,
    load_sheet,
    save_current_game,
    save_sheet,
)
from hearts.players import RandomPlayer, run_game
from hearts.stats import game_line
from hearts.tui.session import HUMAN, GameSession, GameSettings, seat_names


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


def _old_save(settings: GameSettings, stop: Callable[[GameState], bool]) -> dict[str, Any]:
    """The record the app saved before chance was a step: an unseeded game whose rounds
    it dealt itself from the game seed."""
    rules = Rules.parse(settings.rules)
    seeded = run_game(new_game(rules, settings.seed), [RandomPlayer(s) for s in range(4)],
                      stop=stop)
    unseeded = new_game(rules).apply_all(seeded.history)
    assert unseeded.seed is None and unseeded.history == seeded.history
    return game_record(unseeded, seat_names(4, 0))


@pytest.mark.parametrize("where", ["in round 2", "after round 1's last trick"])
def test_a_game_saved_before_chance_was_a_step_resumes_as_its_seeded_game(where: str) -> None:
    settings = GameSettings(rules="card-commons:target=60", seed="old", speed="instant")
    if where == "in round 2":
        record = _old_save(settings, lambda s: s.round_no == 2 and len(s.tricks) == 3)
    else:
        record = _old_save(settings, lambda s: s.phase is Phase.DEAL and bool(s.results))
    save_current_game(record, settings.to_json())

    resumed = GameSession.resume()
    assert resumed is not None and resumed.state.seed == "old"
    assert resumed.state.history == replay_game(record).history
    # it goes on as the seeded game: its own dealer deals the next rounds
    final = run_game(resumed.state, [RandomPlayer(s) for s in range(4)])
    assert final.is_over
    again = replay_game(game_record(final))
    assert again.seed == "old" and again.totals == final.totals


def test_a_saved_position_not_dealt_from_the_seed_resumes_as_it_was() -> None:
    rules = Rules.parse("card-commons:pass_cycle=hold,target=5")
    hands = [CardSet(range(13 * s, 13 * s + 13)) for s in range(4)]
    settings = GameSettings(rules=rules.text, seed="5", speed="instant")
    save_current_game(game_record(new_hand(rules, hands)), settings.to_json())
    resumed = GameSession.resume()
    assert resumed is not None and resumed.state.seed is None
    assert resumed.human_view().hand == hands[0]


@pytest.mark.parametrize(("name", "human"), [("expert", 0), ("Across", 1), ("Bot 3", 2)])
def test_a_finished_game_is_kept_with_the_persons_seat_whatever_their_name(
        name: str, human: int) -> None:
    levels = tuple(HUMAN if seat == human else "random" for seat in range(4))
    settings = GameSettings(rules="card-commons:target=30", levels=levels, seed="9", name=name)
    final = run_game(new_game(Rules.parse(settings.rules), "9"),
                     [RandomPlayer(s) for s in range(4)])
    session = GameSession(settings, final)  # a game over is filed with the finished games
    assert session.saved_to is not None
    record = parse_record(session.saved_to.read_text(encoding="utf-8"))
    assert record["seats"][human] == name and record["people"] == [human]
    line = game_line(record)  # what hearts stats counts
    assert line is not None and line.seat == human
