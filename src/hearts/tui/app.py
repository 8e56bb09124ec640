"""``hearts play``: the Textual application.

At start it builds the hint player in a worker thread, as the server does at its start:
the first search player of a process loads (after an install: compiles) its kernel, which
takes many seconds, and the first hint should not wait for that.
"""

from __future__ import annotations

from textual import work
from textual.app import App
from textual.worker import Worker

from hearts.players import make_player
from hearts.players.hints import hint_level
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
        self.hint_warm_up: Worker[None] | None = None

    def on_mount(self) -> None:
        self.hint_warm_up = self.warm_up_hints()
        if self.session is not None:
            self.push_screen(GameScreen(self.session))
        else:
            self.push_screen(StartScreen(self.settings))

    @work(thread=True, group="warm-up", exit_on_error=False)
    def warm_up_hints(self) -> None:
        """Build the hint player once, off the screen's thread, so its kernel is ready."""
        make_player(hint_level())

    def on_game_screen_started(self, message: GameScreen.Started) -> None:
        self.session = message.session

    @property
    def game(self) -> GameSession | None:
        """The session of the latest game (tests and the command read it after the run)."""
        return self.session
