"""The start screen: preset, player count, each opponent's level, target, seed, speed, and
the other rule options given (``hearts play --rules standard:rounds=8``). A level given
with options (``hearts play --levels expert:iterations=200,normal``) is offered beside the
plain levels, and the opponents' levels are spelled out while one has options."""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from hearts.core import PLAYER_COUNTS, PRESET_HELP, PRESETS, HeartsError, Rules
from hearts.persistence import data_dir
from hearts.players import LEVELS
from hearts.tui.session import HUMAN, SPEEDS, GameSession, GameSettings, seat_names

__all__ = ["StartScreen", "player_counts"]

_MAX_OPPONENTS: Final = max(counts[-1] for counts in PLAYER_COUNTS.values()) - 1


def player_counts(preset: str) -> list[int]:
    """The player counts a preset allows (asked of the rules, not restated here)."""
    return list(PLAYER_COUNTS[preset])


class StartScreen(Screen[None]):
    """Choose the game, then Start (Enter on the focused Start button)."""

    DEFAULT_CSS = """
    StartScreen { layout: vertical; padding: 0 1; }
    StartScreen #title { text-style: bold; height: 1; }
    StartScreen .row { height: 1; margin: 1 0 0 0; }
    StartScreen Label { width: auto; margin: 0 1 0 0; }
    StartScreen Select { width: 20; height: 1; margin: 0 2 0 0; }
    StartScreen Input { width: 14; margin: 0 2 0 0; }
    StartScreen #opponents { grid-size: 3; grid-rows: 1; height: 2; margin: 1 0 0 0; }
    StartScreen .opponent { height: 1; }
    StartScreen .opponent Label { width: 8; }
    StartScreen .opponent Select { width: 16; }
    StartScreen #about, StartScreen #error, StartScreen #saved { height: auto; margin: 1 0 0 0; }
    StartScreen #options, StartScreen #levels { height: auto; }
    StartScreen #error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "resume", "Resume saved game"),
                Binding("ctrl+s", "start", "Start"), Binding("escape", "leave", "Quit")]

    def __init__(self, settings: GameSettings | None = None) -> None:
        super().__init__()
        self.defaults = settings or GameSettings()
        self.base_rules = Rules.parse(self.defaults.rules)

    def compose(self) -> ComposeResult:
        rules = self.base_rules
        levels = [lvl for lvl in self.defaults.levels if lvl != HUMAN]
        # the plain levels, then any given with options, which the start keeps
        level_options = [(name, name) for name in dict.fromkeys([*LEVELS, *levels])]
        yield Static("Card Commons Hearts: a new game", id="title")
        with Horizontal(classes="row"):
            yield Label("Preset")
            yield Select([(name, name) for name in PRESETS], value=rules.preset,
                         allow_blank=False, compact=True, id="preset")
            yield Label("Players")
            yield Select([(str(n), n) for n in player_counts(rules.preset)],
                         value=rules.players, allow_blank=False, compact=True, id="players")
        with Grid(id="opponents"):
            for index in range(_MAX_OPPONENTS):
                level = levels[index] if index < len(levels) else levels[-1]
                with Horizontal(classes="opponent", id=f"opponent-{index}"):
                    yield Label("", id=f"opponent-label-{index}")
                    yield Select(level_options, value=level, allow_blank=False,
                                 compact=True, id=f"level-{index}")
        with Horizontal(classes="row"):
            yield Label("Target")
            yield Input(str(rules.target), restrict=r"\d*", compact=True, id="target")
            yield Label("Seed")
            yield Input(self.defaults.seed, placeholder="random", compact=True, id="seed")
        with Horizontal(classes="row"):
            yield Label("Speed")
            yield Select([(name, name) for name in SPEEDS], value=self.defaults.speed,
                         allow_blank=False, compact=True, id="speed")
            yield Checkbox(self.auto_label(self.defaults.auto_play), self.defaults.auto_play,
                           compact=True, id="auto-play")
        with Horizontal(classes="row"):
            yield Button("Start (Enter)", id="start", compact=True, variant="primary")
        with Vertical():
            yield Static(id="about")
            yield Static(id="options", markup=False)
            yield Static(id="levels", markup=False)
            yield Static(id="error")
            yield Static(id="saved")
        yield Footer()

    def on_mount(self) -> None:
        self.update_seats()
        self.query_one("#start", Button).focus()
        if (data_dir() / "current-game.json").exists():
            self.query_one("#saved", Static).update(
                "An unfinished game is saved: ctrl+r resumes it (a new game replaces it).")

    def selected_rules(self) -> Rules:
        preset = str(self.query_one("#preset", Select).value)
        players = int(str(self.query_one("#players", Select).value))
        base = self.base_rules
        rules = base if (base.preset, base.players) == (preset, players) \
            else Rules.preset_rules(preset, players)
        target = self.query_one("#target", Input).value.strip()
        return rules.replace(target=target) if target else rules

    def update_seats(self) -> None:
        preset = str(self.query_one("#preset", Select).value)
        players_select = self.query_one("#players", Select)
        counts = player_counts(preset)
        current = players_select.value
        with self.prevent(Select.Changed):
            players_select.set_options([(str(n), n) for n in counts])
            players_select.value = current if current in counts else \
                (4 if 4 in counts else counts[-1])
        players = int(str(players_select.value))
        names = seat_names(players, 0)
        for index in range(_MAX_OPPONENTS):
            row = self.query_one(f"#opponent-{index}")
            row.display = index < players - 1
            if index < players - 1:
                self.query_one(f"#opponent-label-{index}", Label).update(names[index + 1])
        self.query_one("#about", Static).update(PRESET_HELP[preset])
        self.query_one("#options", Static).update(self.options_text(preset, players))
        self.update_levels()

    def chosen_levels(self, players: int) -> list[str]:
        """The opponents' levels chosen, from the human's left."""
        return [str(self.query_one(f"#level-{i}", Select).value) for i in range(players - 1)]

    def update_levels(self) -> None:
        """Spell out the opponents' levels while one has options: a level box is too
        narrow for ``expert:iterations=200,game_weight=0``."""
        players = int(str(self.query_one("#players", Select).value))
        levels = self.chosen_levels(players)
        text = ""
        if any(level not in LEVELS for level in levels):
            names = seat_names(players, 0)
            text = "Levels: " + "; ".join(f"{names[seat]} {level}"
                                          for seat, level in enumerate(levels, start=1)) + "."
        self.query_one("#levels", Static).update(text)

    def options_text(self, preset: str, players: int) -> str:
        """The rule options given beyond the preset's (the player count and the target
        have their own boxes): kept while the preset and the player count stay as given,
        and said to be left behind when either changes."""
        base = self.base_rules
        given = {key: value for key, value in Rules.split_text(base.text)[1].items()
                 if key not in ("players", "target")}
        if not given:
            return ""
        shown = ", ".join(f"{key}={value}" for key, value in given.items())
        if (base.preset, base.players) == (preset, players):
            return f"Options: {shown}."
        return (f"Options {shown} are for {base.preset} with {base.players} players; "
                f"this game plays {preset}'s own.")

    @staticmethod
    def auto_label(on: bool) -> str:
        # Spelled out: without colour the box looks the same ticked or not.
        return f"Auto-play forced moves: {'on' if on else 'off'}"

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = self.auto_label(event.value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("preset", "players"):
            self.update_seats()
        elif str(event.select.id).startswith("level-"):
            self.update_levels()

    def settings(self) -> GameSettings:
        rules = self.selected_rules()
        levels = self.chosen_levels(rules.players)
        return GameSettings(
            rules=rules.text, levels=(HUMAN, *levels),
            seed=self.query_one("#seed", Input).value.strip(),
            speed=str(self.query_one("#speed", Select).value),
            auto_play=self.query_one("#auto-play", Checkbox).value,
            plain=self.defaults.plain, name=self.defaults.name)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, _: Input.Submitted) -> None:
        self.action_start()

    def action_leave(self) -> None:
        """Escape leaves a box being typed in (as in the replay's round box), and quits
        from anywhere else."""
        if isinstance(self.focused, Input):
            self.set_focus(None)
        else:
            self.app.exit()

    def action_start(self) -> None:
        from hearts.tui.game import GameScreen

        try:
            session = GameSession(self.settings())
        except HeartsError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.app.switch_screen(GameScreen(session))

    def action_resume(self) -> None:
        from hearts.tui.game import GameScreen

        try:
            session = GameSession.resume()
        except HeartsError as exc:
            self.query_one("#error", Static).update(f"The saved game cannot be resumed: {exc}")
            return
        if session is None:
            self.query_one("#error", Static).update("There is no saved game to resume.")
            return
        self.app.switch_screen(GameScreen(session))
