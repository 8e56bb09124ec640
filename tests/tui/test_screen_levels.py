"""The full-screen game with levels given with options (``hearts play --levels
expert:iterations=200,normal,normal``): the start screen shows and keeps them, the saved
game keeps them, resume seats the same players, and the record names them as given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Select, Static

from hearts.core import IllegalActionError, game_record
from hearts.persistence import SavedGameError, load_current_game
from hearts.players import LEVELS
from hearts.tui.app import HeartsApp
from hearts.tui.session import HUMAN, GameSession, GameSettings
from hearts.tui.start import StartScreen

EXPERT = "expert:iterations=9,game_weight=0"
GIVEN = GameSettings(levels=(HUMAN, EXPERT, "normal", "hard:iterations=4"), seed="21",
                     speed="instant")


def _worlds(session: GameSession, seat: int) -> int:
    worlds: int = session.players[seat].budget.max_worlds  # type: ignore[attr-defined]
    return worlds


async def test_the_start_screen_shows_and_keeps_levels_with_options() -> None:
    app = HeartsApp(GIVEN)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        values = [screen.query_one(f"#level-{i}", Select).value for i in range(3)]
        assert values == [EXPERT, "normal", "hard:iterations=4"]
        shown = str(screen.query_one("#levels", Static).render())
        assert shown == f"Levels: Left {EXPERT}; Across normal; Right hard:iterations=4."
        # the plain levels are still offered, and choosing them all hides the line
        for index in (0, 2):
            screen.query_one(f"#level-{index}", Select).value = "easy"
        await pilot.pause()
        assert str(screen.query_one("#levels", Static).render()) == ""
        for level in [*LEVELS, "hard:iterations=4"]:  # a value not offered is refused
            screen.query_one("#level-1", Select).value = level
        screen.query_one("#level-1", Select).value = "normal"
        screen.query_one("#level-0", Select).value = EXPERT
        await pilot.pause()
        settings = screen.settings()
    assert settings.levels == (HUMAN, EXPERT, "normal", "easy")


def test_the_saved_game_and_resume_seat_the_same_players(hearts_home: Path) -> None:
    session = GameSession(GIVEN)
    assert _worlds(session, 1) == 9 and _worlds(session, 3) == 4
    assert session.players[1].game_weight == 0  # type: ignore[attr-defined]
    _, saved = load_current_game() or ({}, {})
    assert saved["levels"] == [HUMAN, EXPERT, "normal", "hard:iterations=4"]
    resumed = GameSession.resume()
    assert resumed is not None and resumed.settings == session.settings
    assert _worlds(resumed, 1) == 9 and _worlds(resumed, 3) == 4
    assert resumed.players[1].game_weight == 0  # type: ignore[attr-defined]
    assert game_record(resumed.state) == game_record(session.state)


def test_the_record_names_each_computers_level_as_given() -> None:
    record = GameSession(GIVEN).record()
    assert record["levels"] == [None, EXPERT, "normal", "hard:iterations=4"]
    json.dumps(record)  # as kept


@pytest.mark.parametrize(("level", "says"), [
    ("wizard", "unknown bot 'wizard'"),
    ("ext:python3 bot.py", "a computer of the game is a level"),
    ("expert:iterations", "options are written key=value"),
])
def test_settings_refuse_a_level_no_game_can_seat(level: str, says: str) -> None:
    with pytest.raises(IllegalActionError, match=says):
        GameSettings(levels=(HUMAN, level, "normal", "normal"))


def test_a_saved_game_whose_level_takes_no_such_option_is_said(hearts_home: Path) -> None:
    GameSession(GIVEN)
    path = hearts_home / "current-game.json"
    data = json.loads(path.read_text())
    data["settings"]["levels"][1] = "expert:wisdom=3"
    path.write_text(json.dumps(data))
    with pytest.raises(SavedGameError, match="level expert takes no option 'wisdom'"):
        GameSession.resume()
