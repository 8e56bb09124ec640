"""``hearts play``: the Textual application."""

from __future__ import annotations

from textual.app import App

from hearts.tui.game import GameScreen
from hearts.tui.session import GameSession, GameSettings
from hearts.tui.start import StartScreen

__all__ = ["HeartsApp"]


class HeartsApp(App[None]):
    """The start screen, then the game; ``session`` resumes a game at once."""

    TITLE = "Card Commons Hearts"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, settings: GameSettings | None = None,
                 session: GameSession | None = None) -> None:
        super().__init__()
        self.settings = settings or GameSettings()
        self.session = session
        self.plain = (session.settings if session else self.settings).plain

    def on_mount(self) -> None:
        if self.session is not None:
            self.push_screen(GameScreen(self.session))
        else:
            self.push_screen(StartScreen(self.settings))

    def on_game_screen_started(self, message: GameScreen.Started) -> None:
        self.session = message.session

    @property
    def game(self) -> GameSession | None:
        """The session of the latest game (tests and the command read it after the run)."""
        return self.session
