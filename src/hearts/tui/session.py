"""The game the terminal app runs: its settings, its state and the seats around it.

The game runs through the one driver (:func:`hearts.players.run_game_async`): the
human's seat is the screen's, each computer seat decides from its own view in a
worker thread, paced so the human can follow the table. Every action is saved at once
(``hearts.persistence``), so a crash or a quit loses nothing and ``hearts play
--resume`` continues the game; the human's decisions can be taken back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from hearts.challenge import Challenge, ChallengeError
from hearts.core import (
    MAX_LEVEL_TEXT,
    Action,
    Deal,
    GameState,
    HeartsError,
    IllegalActionError,
    PassCards,
    Phase,
    PlayerView,
    Rules,
    game_record,
    new_game,
    new_hand,
    replay_game,
    view,
)
from hearts.persistence import (
    SavedGameError,
    clear_current_game,
    load_current_game,
    save_current_game,
    save_finished_game,
)
from hearts.players import LEVELS, Player, QueueSeat, decide, make_player
from hearts.players.driver import Dealer, Observer, run_game_async
from hearts.players.levels import POLICY
from hearts.wording import seat_names

__all__ = [
    "HUMAN",
    "SPEEDS",
    "ComputerSeat",
    "GameSession",
    "GameSettings",
    "HumanSeat",
    "computer_player",
    "level_problem",
    "seat_names",
]

HUMAN: Final = "human"
SPEEDS: Final = {"instant": 0.0, "fast": 0.25, "normal": 0.6, "slow": 1.2}
"""Seconds each computer move waits, so the human can follow the table."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What the start screen chose; saved with the game so resume restores it. A
    computer's level is kept as given, options too (``expert:iterations=200``, as
    ``hearts play --levels`` takes it), so a resumed game seats the same players."""

    rules: str = "card-commons"
    levels: tuple[str, ...] = (HUMAN, "random", "random", "random")
    seed: str = ""
    speed: str = "normal"
    auto_play: bool = False
    plain: bool = False
    name: str = "You"
    challenge: str = ""
    """A duplicate challenge's code: its rules, opponents and seed, the human in seat 0."""
    human_seat: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        rules = Rules.parse(self.rules)
        if len(self.levels) != rules.players:
            raise IllegalActionError(
                f"{rules.players} players need {rules.players} levels, got {len(self.levels)}")
        humans = [s for s, level in enumerate(self.levels) if level == HUMAN]
        if len(humans) != 1:
            raise IllegalActionError("exactly one seat is the human's")
        problem = next(filter(None, (level_problem(level) for level in self.levels
                                     if level != HUMAN)), None)
        if problem is not None:
            raise IllegalActionError(problem)
        if self.speed not in SPEEDS:
            raise IllegalActionError(f"speed is one of {', '.join(SPEEDS)}, not {self.speed!r}")
        object.__setattr__(self, "human_seat", humans[0])
        if self.challenge:
            try:
                challenge = Challenge.parse(self.challenge)
            except ChallengeError as exc:
                raise IllegalActionError(str(exc)) from None
            if (rules, self.levels, self.seed) != (
                    challenge.rules, (HUMAN, *challenge.opponents), challenge.seed):
                raise IllegalActionError(f"challenge {challenge.code} sets the rules, the "
                                         "opponents and the seed, the human in seat 0")

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
                       name=str(data.get("name", "You")),
                       challenge=str(data.get("challenge", "")))
        except (KeyError, TypeError, IllegalActionError) as exc:
            raise SavedGameError(f"the saved game's settings are unusable: {exc}") from None


class HumanSeat(QueueSeat):
    """The human's seat: the screen is told when the game asks it (``asked``), and the
    answer comes from the queue the screen fills."""

    def __init__(self, asked: Callable[[PlayerView], None],
                 on_refused: Callable[[PlayerView, IllegalActionError], None]) -> None:
        super().__init__(on_refused)
        self._asked = asked
        self.waiting = False

    async def act(self, view: PlayerView) -> Action:
        """Tell the screen, then wait for the human's answer."""
        self._asked(view)
        self.waiting = True
        try:
            return await super().act(view)
        finally:
            self.waiting = False

    def submit(self, action: Action) -> None:
        """Queue the human's action, unless one is already waiting to be taken (a key
        pressed twice before the game moved on)."""
        if self.actions.empty():
            self.actions.put_nowait(action)


class ComputerSeat:
    """A computer player paced for a person to follow: it waits until ``ready`` allows
    (the table is in view and the speed's pause has passed), then decides from its own
    view in a worker thread, so the screen stays responsive."""

    def __init__(self, player: Player, ready: Callable[[PlayerView], Awaitable[None]]) -> None:
        self.player = player
        self._ready = ready

    async def act(self, view: PlayerView) -> Action:
        """The player's decision, once the table is ready for it."""
        await self._ready(view)
        return await asyncio.to_thread(decide, self.player, view)

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """Raise: a computer player must only choose legal actions."""
        raise error


class GameSession:
    """The game (a seeded one), its computer players, the undo stack and saving."""

    def __init__(self, settings: GameSettings, state: GameState | None = None) -> None:
        if not settings.seed:
            settings = dataclasses.replace(settings, seed=str(secrets.randbelow(1_000_000)))
        self.settings = settings
        self.rules = Rules.parse(settings.rules)
        self.state = new_game(self.rules, settings.seed) if state is None else state
        self.human = settings.human_seat
        self.names = seat_names(self.rules.players, self.human, settings.name)
        self.challenge = Challenge.parse(settings.challenge) if settings.challenge else None
        self.players: dict[int, Player] = {
            seat: self.challenge.computer(seat) if self.challenge
            else computer_player(level, seat, self.rules, f"{settings.seed}/{seat}")
            for seat, level in enumerate(settings.levels) if level != HUMAN
        }
        # a resumed game can take back what it could before it was saved
        self._undo = [] if self.challenge else _decided_from(self.state, self.human)
        self.saved_to: Path | None = None
        self.save()

    @classmethod
    def resume(cls) -> GameSession | None:
        """The saved unfinished game, replayed through the rules; None if there is none."""
        saved = load_current_game()
        if saved is None:
            return None
        record, data = saved
        settings = GameSettings.from_json(data)
        state = _as_seeded(replay_game(record), settings.seed)
        from hearts.arena.errors import BotSpecError

        try:
            return cls(settings, state)
        except BotSpecError as exc:  # a level's option this version's player does not take
            raise SavedGameError(f"the saved game's settings are unusable: {exc}") from None

    # ---------------------------------------------------------------- viewing
    def human_view(self) -> PlayerView:
        """What the human may see."""
        return view(self.state, self.human)

    @property
    def can_undo(self) -> bool:
        """Whether there is a decision of the human's to take back."""
        return bool(self._undo)

    def pause(self, seen: PlayerView) -> float:
        """Seconds a computer waits before this decision (none for passes, made at once)."""
        return 0.0 if seen.phase is Phase.PASS else SPEEDS[self.settings.speed]

    # ---------------------------------------------------------------- playing
    async def play(self, human: HumanSeat, *, dealer: Dealer,
                   ready: Callable[[PlayerView], Awaitable[None]],
                   observers: Sequence[Observer] = ()) -> GameState:
        """Run the game from its current state through the driver until it is finished
        (or cancelled, for an undo); the human answers through ``human``."""
        seats = [human if seat == self.human else ComputerSeat(self.players[seat], ready)
                 for seat in range(self.rules.players)]
        return await run_game_async(self.state, seats, dealer=dealer, stop=_without_dealer,
                                    observers=(self._keep, *observers))

    def _keep(self, before: GameState, action: Action, after: GameState) -> None:
        """Keep and save each new state; a human decision can be taken back (not in a
        challenge, where the others' answers are known once seen)."""
        if getattr(action, "seat", None) == self.human and self.challenge is None:
            self._undo.append(before)
        self.state = after
        self.save()

    def undo(self) -> bool:
        """Return to the state before the human's last decision (all others are computers).

        Stop the game's run first: it would go on from the state it holds."""
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
        """The game record so far: the person's seat as its ``people``, whatever name
        they chose (a challenge's names its code too, for submitting it)."""
        if self.challenge is not None:
            record = game_record(self.state, self.names, people=(self.human,))
            record["challenge"] = self.challenge.code
            return record
        levels = [None if level == HUMAN else level for level in self.settings.levels]
        return game_record(self.state, self.names, people=(self.human,), levels=levels)

    def save(self) -> None:
        """Save the game in progress, or file the finished game and forget the unfinished one."""
        if self.state.is_over:
            if self.saved_to is None:
                self.saved_to = save_finished_game(self.record())
                clear_current_game()
            return
        save_current_game(self.record(), self.settings.to_json())


def level_problem(level: str) -> str | None:
    """What is wrong with a computer's level, or None: a level of the ladder, with
    options as the arena's bot-spec parser reads them (``expert:iterations=200``), or
    ``policy:PATH``; the options themselves are judged when the player is made."""
    if level in LEVELS:
        return None
    if len(level) > MAX_LEVEL_TEXT:  # the game's record states each level as given
        return (f"a level the game records is at most {MAX_LEVEL_TEXT} characters, "
                f"options included, not {len(level)}")
    from hearts.arena.specs import EXTERNAL, ISMCTS, BotSpec

    try:
        kind = BotSpec.parse(level).kind
    except HeartsError as exc:
        return str(exc)
    if kind in (EXTERNAL, ISMCTS):
        return (f"a computer of the game is a level ({', '.join(LEVELS)}, options as "
                f"LEVEL:key=value) or {POLICY}:PATH, not {level!r}")
    return None


def computer_player(level: str, seat: int, rules: Rules, seed: str) -> Player:
    """A fresh computer for ``seat`` from its level (see :func:`level_problem`), built as
    the arena builds one, as ``hearts simulate`` seats one; the text game seats its
    computers with it too. A plain level is the same player :func:`make_player` gives
    for that seed, made without the arena, so a game of plain levels loads no NumPy."""
    if level in LEVELS:
        return make_player(level, seed)
    from hearts.arena.specs import BotSpec, build_player

    return build_player(BotSpec.parse(level), seat=seat, rules=rules, seed=seed)


def _decided_from(state: GameState, seat: int) -> list[GameState]:
    """The state before each of ``seat``'s decisions in the game ``state`` ends, oldest
    first: the undo stack the game had when it was saved, rebuilt from its start.
    Empty where its start cannot be rebuilt from the state alone (a seeded game that
    began after round 1, which the app never starts).

    A record keeps a round's passes in seat order; ``seat``'s is taken after the
    others', as the computers pass at once, so taking it back keeps their passes (and
    the cards that come back) as the game before the save did."""
    history = state.history
    first = history[0] if history else None
    if state.seed is not None:
        start = new_game(state.rules, state.seed)
    elif isinstance(first, Deal):
        start = new_hand(state.rules, first.hands, round_no=state.first_round,
                         totals=state.start_totals, deal_seed=first.seed)
    else:
        return []  # nothing dealt yet: nothing decided
    dealt = len(start.history)
    if (start.first_round, start.start_totals, start.history) != \
            (state.first_round, state.start_totals, history[:dealt]):
        return []
    decided, here = [], start
    for action in _own_pass_last(history[dealt:], seat):
        if getattr(action, "seat", None) == seat:
            decided.append(here)
        here = here.apply(action)
    return decided


def _own_pass_last(actions: Sequence[Action], seat: int) -> list[Action]:
    """``actions`` with ``seat``'s pass after the other passes of its round (a round's
    passes are chosen at once: any order leads to the same play)."""
    ordered: list[Action] = []
    passes: list[PassCards] = []
    for action in [*actions, None]:  # None: the end, after a pass still being chosen
        if isinstance(action, PassCards):
            passes.append(action)
            continue
        passes.sort(key=lambda chosen: chosen.seat == seat)
        ordered += passes
        passes = []
        if action is not None:
            ordered.append(action)
    return ordered


def _without_dealer(state: GameState) -> bool:
    """The game waits for a deal that only an authority could give (an unseeded position)."""
    return state.phase is Phase.DEAL and state.next_deal is None


def _as_seeded(state: GameState, seed: str) -> GameState:
    """A game saved before chance became a step as the seeded game it is.

    Such a save is unseeded, each round dealt by the app from the game seed; its
    actions replay on ``new_game(rules, seed)``, whose dealer gives the same deals. A
    game that was not dealt from ``seed`` (a position from elsewhere) stays as it is.
    """
    if state.seed is not None:
        return state
    seeded = new_game(state.rules, seed)
    if (state.first_round, state.start_totals, state.history[:1]) != \
            (seeded.first_round, seeded.start_totals, seeded.history):
        return state
    try:
        return seeded.apply_all(state.history[1:])
    except IllegalActionError:
        return state
