"""The game the terminal app runs: the authority that holds the whole state.

The human sees only ``view(state, human_seat)``; each computer seat decides from
its own view. Every action is saved at once (``hearts.persistence``), so a crash
or a quit loses nothing and ``hearts play --resume`` continues the game.
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from hearts.core.deal import round_deal_seed
from hearts.core.errors import IllegalActionError
from hearts.core.record import game_record, replay_game, seeded_record
from hearts.core.rules import Rules
from hearts.core.state import Action, Deal, GameState, Phase, new_game
from hearts.core.view import PlayerView, view
from hearts.persistence import (
    SavedGameError,
    clear_current_game,
    load_current_game,
    save_current_game,
    save_finished_game,
)
from hearts.players import LEVELS, Player, decide, make_player

__all__ = ["HUMAN", "SPEEDS", "GameSession", "GameSettings", "seat_names"]

HUMAN: Final = "human"
SPEEDS: Final = {"instant": 0.0, "fast": 0.25, "normal": 0.6, "slow": 1.2}
"""Seconds each computer move waits, so the human can follow the table."""


def seat_names(players: int, human_seat: int, human: str = "You") -> tuple[str, ...]:
    """Short names by place at the table as the human sees it: You, Left, Across, Right..."""
    names = []
    for seat in range(players):
        offset = (seat - human_seat) % players
        if offset == 0:
            names.append(human)
        elif players % 2 == 0 and offset == players // 2:
            names.append("Across")
        elif offset < players / 2:
            names.append("Left" if offset == 1 else f"Left {offset}")
        else:
            back = players - offset
            names.append("Right" if back == 1 else f"Right {back}")
    return tuple(names)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What the start screen chose; saved with the game so resume restores it."""

    rules: str = "card-commons"
    levels: tuple[str, ...] = (HUMAN, "random", "random", "random")
    seed: str = ""
    speed: str = "normal"
    auto_play: bool = False
    plain: bool = False
    name: str = "You"
    human_seat: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        rules = Rules.parse(self.rules)
        if len(self.levels) != rules.players:
            raise IllegalActionError(
                f"{rules.players} players need {rules.players} levels, got {len(self.levels)}")
        humans = [s for s, level in enumerate(self.levels) if level == HUMAN]
        if len(humans) != 1:
            raise IllegalActionError("exactly one seat is the human's")
        unknown = [lvl for lvl in self.levels if lvl != HUMAN and lvl not in LEVELS]
        if unknown:
            raise IllegalActionError(
                f"unknown level {unknown[0]!r}; levels are: {', '.join(LEVELS)}")
        if self.speed not in SPEEDS:
            raise IllegalActionError(f"speed is one of {', '.join(SPEEDS)}, not {self.speed!r}")
        object.__setattr__(self, "human_seat", humans[0])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict for the saved game."""
        data = asdict(self)
        data["levels"] = list(self.levels)
        del data["human_seat"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        """Settings back from a saved game."""
        try:
            return cls(rules=str(data["rules"]), levels=tuple(str(x) for x in data["levels"]),
                       seed=str(data["seed"]), speed=str(data.get("speed", "normal")),
                       auto_play=bool(data.get("auto_play", False)),
                       plain=bool(data.get("plain", False)),
                       name=str(data.get("name", "You")))
        except (KeyError, TypeError, IllegalActionError) as exc:
            raise SavedGameError(f"the saved game's settings are unusable: {exc}") from None


class GameSession:
    """The authoritative game, its computer players, the undo stack and saving."""

    def __init__(self, settings: GameSettings, state: GameState | None = None) -> None:
        if not settings.seed:
            settings = dataclasses.replace(settings, seed=str(secrets.randbelow(1_000_000)))
        self.settings = settings
        self.rules = Rules.parse(settings.rules)
        if state is None:
            state = new_game(self.rules, None)
        elif state.seed is not None:
            # The app deals each round itself (below), so a finished round's last trick
            # stays on the table until the human moves on; a seeded state would deal at once.
            state = new_game(state.rules, None).apply_all(state.history)
        self.state = state
        self.dealt_from_seed = all(
            not isinstance(a, Deal) or a.seed == round_deal_seed(settings.seed, n)
            for n, a in enumerate((a for a in state.history if isinstance(a, Deal)), start=1))
        self.human = settings.human_seat
        self.names = seat_names(self.rules.players, self.human, settings.name)
        self.players: dict[int, Player] = {
            seat: make_player(level, f"{settings.seed}/{seat}")
            for seat, level in enumerate(settings.levels) if level != HUMAN
        }
        self._undo: list[GameState] = []
        self.saved_to: Path | None = None
        self.deal_next()

    @classmethod
    def resume(cls) -> GameSession | None:
        """The saved unfinished game, replayed through the rules; None if there is none."""
        saved = load_current_game()
        if saved is None:
            return None
        record, settings = saved
        return cls(GameSettings.from_json(settings), replay_game(record))

    # ---------------------------------------------------------------- viewing
    def human_view(self) -> PlayerView:
        """What the human may see."""
        return view(self.state, self.human)

    @property
    def human_to_act(self) -> bool:
        """Whether the game waits on the human."""
        return self.human in self.state.to_act

    def bot_to_act(self) -> int | None:
        """A computer seat the game waits on, if any (passing is simultaneous)."""
        return next((s for s in self.state.to_act if s != self.human), None)

    @property
    def can_undo(self) -> bool:
        """Whether there is a decision of the human's to take back."""
        return bool(self._undo)

    # ---------------------------------------------------------------- acting
    def act(self, action: Action) -> None:
        """Apply the human's action (IllegalActionError leaves everything as it was)."""
        if getattr(action, "seat", None) != self.human:
            raise IllegalActionError(f"the human plays seat {self.human}")
        after = self.state.apply(action)
        self._undo.append(self.state)
        self.state = after
        self.save()

    def decide_bot(self, state: GameState, seat: int) -> Action:
        """A computer seat's decision from its own view (safe to run in a thread)."""
        return decide(self.players[seat], view(state, seat))

    def apply_bot(self, action: Action) -> None:
        """Apply a computer seat's action."""
        self.state = self.state.apply(action)
        self.save()

    def deal_next(self) -> bool:
        """Deal the next round from the game seed when the game waits for a deal."""
        if self.state.phase is not Phase.DEAL:
            return False
        deal_seed = round_deal_seed(self.settings.seed, self.state.round_no)
        self.state = self.state.apply(Deal.from_seed(self.rules, deal_seed))
        self.save()
        return True

    def undo(self) -> bool:
        """Return to the state before the human's last decision (all others are computers)."""
        if not self._undo:
            return False
        self.state = self._undo.pop()
        self.save()
        return True

    def set_preferences(self, *, speed: str | None = None, auto_play: bool | None = None) -> None:
        """Change the computer speed or auto-play of forced moves (kept for resume)."""
        self.settings = dataclasses.replace(
            self.settings,
            speed=self.settings.speed if speed is None else speed,
            auto_play=self.settings.auto_play if auto_play is None else auto_play)
        self.save()

    # ---------------------------------------------------------------- saving
    def record(self) -> dict[str, Any]:
        """The game record so far: as a seeded game when every deal came from the seed."""
        if self.dealt_from_seed and self.state.history:
            return seeded_record(self.state, self.settings.seed, self.names)
        return game_record(self.state, seats=self.names)

    def save(self) -> None:
        """Save the game in progress, or file the finished game and forget the unfinished one."""
        if self.state.is_over:
            if self.saved_to is None:
                self.saved_to = save_finished_game(self.record())
                clear_current_game()
            return
        # Every action saves, so the quick record (each deal with its deal seed) is kept.
        save_current_game(game_record(self.state, seats=self.names), self.settings.to_json())
