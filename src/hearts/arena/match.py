"""Matches between bots on duplicate deals, played in parallel worker processes.

A match is ``deal_sets`` game seeds. Each seed's games are replayed once per
distinct rotation of the lineup (rotation ``j`` seats ``lineup[(s - j) % n]`` at
seat ``s``), so every bot holds every seat's cards of the same deals. A game runs
to the rules' target; the arena counts points per hand over all its hands and game
wins over whole games. Every game and player is seeded from the match seed, so a
match gives the same figures for any number of workers.

Games run through the one driver (:func:`hearts.players.driver.run_game`): bots only
ever get views, and the arena only times their decisions: an outside bot's own, never
those its fallback made after it failed (counted apart, as ``fallback_moves``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import hearts
from hearts.arena.errors import ArenaError
from hearts.arena.specs import BotSpec, build_player
from hearts.core import (
    Action,
    GameState,
    IllegalActionError,
    PlayerView,
    Rules,
    game_record,
    new_game,
)
from hearts.players.base import Player
from hearts.players.driver import PlayerSeat, run_game
from hearts.protocol.host import DEFAULT_TIMEOUT, STARTUP_TIMEOUT, ExternalPlayer

__all__ = [
    "GameOutcome",
    "GameTask",
    "MatchConfig",
    "MatchResult",
    "game_seed",
    "match_tasks",
    "play_game_task",
    "playing_code",
    "rotations",
    "run_match",
]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What to play: rules, one bot spec a seat, how many deal sets, from which seed.

    ``bot_seed`` is the secret outside bots' hello seeds are derived from, with each
    seat's seed (None: hello gives them no seed). It must be one the bots cannot guess: a
    seed derived from the match's ``seed`` alone, which deals the cards, would let a bot
    that tries the likely match seeds work every hand out."""

    rules: Rules
    lineup: tuple[str, ...]
    deal_sets: int
    seed: str
    timeout: float = DEFAULT_TIMEOUT
    startup_timeout: float = STARTUP_TIMEOUT
    fallback: str | None = None
    keep_records: bool = False
    bot_seed: str | None = None

    def __post_init__(self) -> None:
        if len(self.lineup) != self.rules.players:
            raise ArenaError(f"the lineup needs {self.rules.players} bots (one a seat), "
                             f"got {len(self.lineup)}")
        if self.deal_sets < 1:
            raise ArenaError(f"a match needs at least one deal set, not {self.deal_sets}")
        for text in self.lineup:
            BotSpec.parse(text)  # fail before any game starts
        if self.fallback is not None and BotSpec.parse(self.fallback).is_external:
            raise ArenaError("the fallback must be a built-in bot, not an external one")
        for timeout in (self.timeout, self.startup_timeout):
            if not 0 < timeout < math.inf:
                raise ArenaError(f"the bot timeouts must be positive seconds, not {timeout:g}")


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game of a match: a deal set played with one rotation of the lineup."""

    config: MatchConfig
    deal_set: int
    rotation: int
    seating: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What one game gave: points and moon shooters by round, totals, failures, and each
    seat's decision times, wall clock and this thread's CPU (a bot in another process,
    an external one, uses no CPU here): the bot's own decisions only, where a failed
    external bot's seat was taken over (``fallback_moves``: the fallback's decisions,
    the one its bot failed among them). ``bot_names``: per seat, the name an external bot
    gave in ``ready`` (None for a built-in bot, or one that gave none)."""

    deal_set: int
    rotation: int
    seating: tuple[str, ...]
    points: tuple[tuple[int, ...], ...]
    shooters: tuple[int | None, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    decision_seconds: tuple[tuple[float, ...], ...]
    decision_cpu_seconds: tuple[tuple[float, ...], ...]
    failures: tuple[str | None, ...]
    record: dict[str, Any] | None = None
    fallback_moves: tuple[int, ...] = ()  # per seat: decisions a fallback made for it
    bot_names: tuple[str | None, ...] = ()


# The sources that decide how a bot plays: the rules, every player, and the adapter and
# spec parser through which the arena seats outside and configured bots.
_PLAYING_SOURCES = ("core", "players", "arena/openspiel.py", "arena/specs.py")


@functools.cache
def playing_code() -> str:
    """A digest of the sources that decide how the bots play. Reports pool only when it
    is the same: a changed player is no longer the bot that the earlier deal sets
    measured, even under the same spec."""
    root = Path(hearts.__file__).parent
    digest = hashlib.sha256()
    for source in _PLAYING_SOURCES:
        path = root / source
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


# Codes shown to play as an earlier code does, each with the check that showed it: their
# sources differ (a docstring, a hint's words, an option whose default plays as before),
# their play does not. Kept out of the playing sources, so an entry changes no digest.
PLAYS_AS: Final[Mapping[str, str]] = MappingProxyType({
    # bf1d636 (the game_weight option at its default, hints' card order) plays as d72bb56:
    # `benchmarks/same_play.py --old d72bb56 --new bf1d636`, 12 games alike
    "815203e430b8cf4e": "3034cfa28dd2008f",
    # a hint's words on points: `same_play.py --old bf1d636`, 12 games alike, and 12 more
    # with --bot expert:iterations=60,game_weight=0 --bot hard:iterations=60,game_weight=0
    # --bot shooter --bot expert:iterations=40
    "9b9706bfa8f74c3c": "815203e430b8cf4e",
    # the kernel's LEARNED_WEIGHTS made public: `same_play.py --old 14673e5`, 12 games
    # alike, and 12 more with --bot expert:iterations=60,game_weight=0,playout=learned
    # --bot hard:iterations=60,game_weight=0 --bot shooter --bot expert:iterations=40,alarm=0
    "632d585fafb01ea6": "9b9706bfa8f74c3c",
    # options, sheets, records and views typed at the edge (a787c39 to 7b5dd50):
    # `same_play.py --old a787c39 --new 7b5dd50`, 12 games alike, and 12 more with
    # --bot expert:iterations=60,game_weight=0 --bot hard:iterations=60,game_weight=0
    # --bot shooter --bot expert:iterations=40
    "8726b2c04558bfc2": "632d585fafb01ea6",
    # rules built as objects checked for each option's kind (16ecf6c to b8b583b): the same
    # two `same_play.py` runs (--old 16ecf6c --new b8b583b), 12 and 12 games alike
    "f94bd950d98c5b4d": "8726b2c04558bfc2",
    # a comment moved back to its constant (ab8fef7 to c4e98c8): the same two
    # `same_play.py` runs (--old ab8fef7 --new c4e98c8), 12 and 12 games alike
    "17e39a4168ac6df2": "f94bd950d98c5b4d",
    # one home for a whole number; the core's seat accessors and the players' options
    # check their arguments (65b2846 to f3f1c5f): the same two runs, 12 and 12 alike
    "c2ec8dfff73ddddf": "17e39a4168ac6df2",
    # card, record, rules-text and encoding checks of bad input, first_lead's help
    # (c7e52fe to 8bb74aa): the same two runs, 12 and 12 games alike
    "217ec6112ac6d1bb": "c2ec8dfff73ddddf",
    # NumPy integers in cards, ASCII digits in bot-spec options, hearts.core.inputs
    # (9a1390b to ededc98): the same two runs, 12 and 12 games alike
    "bd1eef90e7884649": "217ec6112ac6d1bb",
    # a card number read without a protocol check, bot-spec options with underscores
    # (a3eae87 to bd5bf1f): the same two runs, 12 and 12 games alike
    "5c03d35672a71acc": "bd1eef90e7884649",
    # view() asks the state's own seat check (3c2c767 to 487729e): the same two runs,
    # 12 and 12 games alike
    "fadfc3b887a495b7": "5c03d35672a71acc",
    # a hint's chances rounded by chance_percent, as_whole_number (b6216be to d547d2a):
    # the same two runs, 12 and 12 games alike
    "3af608e4a0130ffc": "fadfc3b887a495b7",
    # one JSON reader, typed CLI errors, ismcts option checks (d547d2a to f137930): the
    # same two runs, 12 and 12 games alike
    "dc1c261369897d70": "3af608e4a0130ffc",
    # chance_percent's halves, read_json's floats (f137930 to 99b7c69): the same two
    # runs, 12 and 12 games alike
    "d2ad1873c598d679": "dc1c261369897d70",
    # shown_name and the web API's refusals (99b7c69 to d63234b): the same two runs, 12
    # and 12 games alike
    "d59e6a7ba7d2a373": "d2ad1873c598d679",
    # read_json's surrogates, CardSet.parse's repeated cards, echoed, the environments'
    # checks, the rounds option's and the presets' help (e3ba9ba to session 42's first
    # commit): the same two runs, 12 and 12 games alike
    "47d99119abe29f8c": "d59e6a7ba7d2a373",
    # echoed in every core refusal, shown_name's trailing space (9d7602a to the session's
    # third commit): the same two runs, 12 and 12 games alike
    "1387629ee4aa7d41": "47d99119abe29f8c",
    # shown_name keeps unassigned characters, same_name, echoed's long ints (3b13d44 to
    # the session's fourth commit): the same two runs, 12 and 12 games alike
    "77b7d07115057136": "1387629ee4aa7d41",
    # repeated_card, one home for a card named twice (4e00158 to session 43's first
    # commit): `same_play.py --old 4e00158`, and again with the four bots above, 12 and 12
    # games alike
    "62f86b4bfb805bb6": "77b7d07115057136",
    # alike_runs, the figures' cards that play alike (session 43's second commit): the
    # same two runs, 12 and 12 games alike
    "a04988d1a0476419": "62f86b4bfb805bb6",
    # a record's people, analysis seeded by a decision's place (session 43): the same two
    # runs, 12 and 12 games alike, compared by their play (same_play's play_of)
    "72ea48d7608c2659": "a04988d1a0476419",
    # Rules.jack_scores, asked by the score sheet (session 43, after review): the same two
    # runs, 12 and 12 games alike
    "3e8d65c30141bb85": "72ea48d7608c2659",
    # a file that is no policy said in words (session 43's last commit): the same two runs,
    # 12 and 12 games alike
    "a40407fc6c04750e": "3e8d65c30141bb85",
    # session 44: a record's levels, bot specs' tags refused with options, policy files
    # with weights that are no numbers refused: the same two runs, 12 and 12 games alike
    "cf24d75419d5218b": "a40407fc6c04750e",
    # outside bots' hello seed from a secret (--bot-seed), a level a record keeps at most
    # MAX_LEVEL_TEXT: the same two runs, 12 and 12 games alike
    "8f21f210fc49fbdd": "cf24d75419d5218b",
})


def first_code(code: str) -> str:
    """The earliest code that ``code`` plays as (:data:`PLAYS_AS`), itself when none: runs
    of codes with the same first code measured the same bots, and pool."""
    seen = {code}
    while code in PLAYS_AS:
        code = PLAYS_AS[code]
        if code in seen:
            raise ValueError(f"PLAYS_AS loops through {code}")
        seen.add(code)
    return code


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Every game's outcome, ordered by deal set then rotation, the wall time, and the
    code that played (:func:`playing_code`, taken as the match started)."""

    config: MatchConfig
    outcomes: tuple[GameOutcome, ...]
    workers: int
    wall_seconds: float = field(compare=False)
    code: str = field(default_factory=playing_code, compare=False)

    def record_lines(self) -> Iterator[str]:
        """Each kept game record as one JSON line with its deal set and rotation (the
        format of ``hearts arena --records``, which ``hearts replay`` reads)."""
        for outcome in self.outcomes:
            yield json.dumps({"deal_set": outcome.deal_set, "rotation": outcome.rotation,
                              "record": outcome.record}, separators=(",", ":"))


def rotations(lineup: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """The distinct seatings of a lineup, rotation number first.

    ``[A, B, A, B]`` gives two seatings (rotations 0 and 1); ``[A, R, R, R]`` four.
    """
    n = len(lineup)
    seen: set[tuple[str, ...]] = set()
    result = []
    for j in range(n):
        seating = tuple(lineup[(s - j) % n] for s in range(n))
        if seating not in seen:
            seen.add(seating)
            result.append((j, seating))
    return result


def game_seed(match_seed: str, deal_set: int) -> str:
    """The game seed of a deal set (its rounds are dealt from it by the core)."""
    return f"{match_seed}/d{deal_set}"


def _players(task: GameTask) -> list[Player]:
    config = task.config
    players: list[Player] = []
    try:
        for seat, text in enumerate(task.seating):
            seed = f"{config.seed}/d{task.deal_set}/r{task.rotation}/s{seat}"
            players.append(build_player(
                BotSpec.parse(text), seat=seat, rules=config.rules, seed=seed,
                timeout=config.timeout, startup_timeout=config.startup_timeout,
                fallback=config.fallback, names=task.seating,
                bot_seed=None if config.bot_seed is None else f"{config.bot_seed}/{seed}"))
    except BaseException:
        _close(players, None)
        raise
    return players


def _close(players: Sequence[Player], state: GameState | None) -> None:
    for player in players:
        if isinstance(player, ExternalPlayer):
            if state is not None and state.is_over:
                player.close(state.totals, state.winners)
            else:
                player.close(reason="aborted")


class _TimedSeat:
    """A bot's seat that records how long each of its own decisions takes."""

    def __init__(self, player: Player) -> None:
        self._seat = PlayerSeat(player)
        self._external = player if isinstance(player, ExternalPlayer) else None
        self.seconds: list[float] = []
        self.cpu_seconds: list[float] = []

    def act(self, view: PlayerView) -> Action:
        """The bot's action, timed in wall-clock and this thread's CPU seconds; not timed
        where the fallback of a failed external bot decided (the host counts it)."""
        handed_over = self._external.fallback_moves if self._external is not None else 0
        started, cpu_started = time.perf_counter(), time.thread_time()
        action = self._seat.act(view)
        seconds = time.perf_counter() - started
        cpu_seconds = time.thread_time() - cpu_started
        if self._external is None or self._external.fallback_moves == handed_over:
            self.seconds.append(seconds)
            self.cpu_seconds.append(cpu_seconds)
        return action

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """Raise: a bot's illegal action is a bug in it (an external one's host falls
        back before it gets here)."""
        self._seat.refused(view, error)


def play_game_task(task: GameTask) -> GameOutcome:
    """Play one game of a match to its end (runs in a worker process)."""
    config = task.config
    players = _players(task)
    seats = [_TimedSeat(player) for player in players]
    state: GameState | None = None
    try:
        state = run_game(new_game(config.rules, game_seed(config.seed, task.deal_set)), seats)
    finally:
        _close(players, state)
    return GameOutcome(
        deal_set=task.deal_set,
        rotation=task.rotation,
        seating=task.seating,
        points=tuple(r.points for r in state.results),
        shooters=tuple(r.shooter for r in state.results),
        totals=state.totals,
        winners=state.winners,
        decision_seconds=tuple(tuple(seat.seconds) for seat in seats),
        decision_cpu_seconds=tuple(tuple(seat.cpu_seconds) for seat in seats),
        failures=tuple(p.error if isinstance(p, ExternalPlayer) else None for p in players),
        record=game_record(state, seats=task.seating, people=()) if config.keep_records else None,
        fallback_moves=tuple(p.fallback_moves if isinstance(p, ExternalPlayer) else 0
                             for p in players),
        bot_names=tuple(p.bot_name if isinstance(p, ExternalPlayer) else None
                        for p in players),
    )


def match_tasks(config: MatchConfig) -> list[GameTask]:
    """Every game of a match: each deal set in each distinct rotation, in that order."""
    seatings = rotations(config.lineup)
    return [GameTask(config, deal_set, j, seating)
            for deal_set in range(config.deal_sets) for j, seating in seatings]


def run_match(config: MatchConfig, *, workers: int = 1,
              progress: Progress | None = None) -> MatchResult:
    """Play every game of a match on ``workers`` processes (1: in this process).

    ``progress(done, total)`` is called after each game.
    """
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, not {workers}")
    tasks = match_tasks(config)
    code = playing_code()
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    if workers == 1:
        for task in tasks:
            outcomes.append(play_game_task(task))
            if progress is not None:
                progress(len(outcomes), len(tasks))
    else:
        # spawn, not fork: the parent may run threads (a progress bar, a bot's reader)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(play_game_task, task) for task in tasks]
            try:
                for future in as_completed(futures):
                    outcomes.append(future.result())
                    if progress is not None:
                        progress(len(outcomes), len(tasks))
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    outcomes.sort(key=lambda o: (o.deal_set, o.rotation))
    return MatchResult(config, tuple(outcomes), workers, time.perf_counter() - started, code)
