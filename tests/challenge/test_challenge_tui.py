"""A challenge in the full-screen game: its opponents and deals, the rounds left in the
status line, no hints and no undo, and a record that ``check_entry`` accepts; screenshots
for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.tui.test_play import play_to_end, settle

from hearts.challenge import Challenge, check_entry
from hearts.core import Phase
from hearts.tui.app import HeartsApp
from hearts.tui.game import GameScreen
from hearts.tui.session import HUMAN, GameSession, GameSettings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

CHALLENGE = Challenge.create("standard", ["easy", "normal", "hard"], 2, "screen4", 16)


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "hearts-home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home


def challenge_settings() -> GameSettings:
    return GameSettings(rules=CHALLENGE.rules.text, levels=(HUMAN, *CHALLENGE.opponents),
                        seed=CHALLENGE.seed, speed="instant", name="Ada",
                        challenge=CHALLENGE.code)


def test_the_settings_must_be_the_challenges() -> None:
    settings = challenge_settings()
    assert GameSettings.from_json(settings.to_json()) == settings  # kept for --resume
    with pytest.raises(ValueError, match="sets the rules, the opponents and the seed"):
        GameSettings(rules=CHALLENGE.rules.text, levels=(HUMAN, "easy", "easy", "easy"),
                     seed=CHALLENGE.seed, challenge=CHALLENGE.code)


async def test_a_whole_challenge_by_keys_keeps_a_record_the_check_accepts() -> None:
    app = HeartsApp(session=GameSession(challenge_settings()))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        status = str(screen.query_one("#status").render())
        # a challenge plays its rounds alone: no target to show
        assert status.startswith("Round 1 of 2 · pass 3 cards to the left")
        await pilot.press("h")
        await settle(app, pilot)
        assert screen.hint_line == "No hints in a challenge: everyone plays these cards alone."
        app.save_screenshot("challenge-tui-80x24-pass.svg", str(SCREENSHOTS))
        for _ in range(40):  # into the play: a decision of the human's made, none to undo
            seen = screen.session.human_view()
            if seen.phase is Phase.PLAY and seen.my_turn:
                break
            await pilot.press(*["enter", "right"] * 2, "enter", "p")
            await settle(app, pilot)
        assert not screen.session.can_undo
        over = await play_to_end(app, pilot)
        app.save_screenshot("challenge-tui-80x24-over.svg", str(SCREENSHOTS))
        assert over is app.screen
    session = app.game
    assert session is not None and session.state.is_over and session.state.round_no == 2
    record = session.record()
    assert record["challenge"] == CHALLENGE.code
    result = check_entry(CHALLENGE, record)
    assert result.complete and result.name == "Ada"
