"""Game analysis: how much each decision of a recorded game cost, by the search's judgement.

:func:`analyze` replays a game (or hand) record through the rules and, for every pass,
card and moon choice of the chosen seats, asks the ``expert`` search to weigh the action
taken against every other candidate, from that seat's view only (what the player knew,
never the other hands). A decision's **loss** is how far the taken action's value falls
below the best candidate's, in the search's utility: points, as the others' average
points this round minus mine, plus what the round does to my chance of winning the
game (see :func:`hearts.players.search.kernel.utility`). Both actions are valued on the same
sampled deals, so the deal's luck cancels out of the difference.

Each decision with a real choice is marked by its loss (thresholds in points, like a
chess engine's game report):

- under 0.5: fine (it counts towards accuracy);
- 0.5 to under 1.5: an **inaccuracy**;
- 1.5 to under 4: a **mistake**;
- 4 or more: a **blunder**.

A seat's **accuracy** is the share of its decisions with a choice that were fine;
forced decisions (one legal card, or only cards that play alike; a moon choice the rules
make) are listed but not counted. With a ``seed`` every decision samples a fixed number
of deals from its own seed, so the report is the same however many workers run it.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Final

from hearts.core import (
    Action,
    Card,
    ChooseMoon,
    GameState,
    PassCards,
    Phase,
    Play,
    PlayerView,
    is_whole_number,
    record_seats,
    replay_record,
    round_steps,
    view,
)
from hearts.players.errors import PlayerError
from hearts.players.levels import LEVELS

__all__ = ["BLUNDER", "DEFAULT_ITERATIONS", "INACCURACY", "MISTAKE", "DecisionReport",
           "GameAnalysis", "SeatSummary", "analyze", "human_seats", "verdict"]

INACCURACY: Final = 0.5
MISTAKE: Final = 1.5
BLUNDER: Final = 4.0
# Deals a decision samples when the analysis is seeded (no time budget then).
DEFAULT_ITERATIONS: Final = 1000
# The search level that judges, and how many costly decisions a summary names.
_JUDGE: Final = "expert"
_WORST: Final = 3
_ROUNDING: Final = 3


def verdict(loss: float) -> str | None:
    """``inaccuracy``, ``mistake`` or ``blunder`` for a loss in points, None if fine."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True, slots=True)
class DecisionReport:
    """One decision: the action taken against the search's best, and what it cost.

    ``taken_value``/``best_value`` are the search's utility of each (points against the
    others' average, the game's standing counted in), ``taken_points``/``best_points``
    my expected points this round; ``choices`` is how many distinct candidates there
    were (1: forced) and ``worlds`` the deals sampled. A moon choice has no sampled deals
    (its outcome is certain)."""

    index: int
    round_no: int
    trick_no: int | None
    seat: int
    taken: Action
    best: Action
    taken_value: float
    best_value: float
    taken_points: float
    best_points: float
    choices: int
    worlds: int

    @property
    def forced(self) -> bool:
        """Whether there was nothing to choose."""
        return self.choices < 2

    @property
    def loss(self) -> float:
        """Points the taken action gives up against the best one (never below 0)."""
        return max(0.0, self.best_value - self.taken_value)

    @property
    def verdict(self) -> str | None:
        """The loss's mark (see :func:`verdict`)."""
        return None if self.forced else verdict(self.loss)

    def to_json(self) -> dict[str, Any]:
        """This decision as plain JSON."""
        return {"index": self.index, "round": self.round_no, "trick": self.trick_no,
                "seat": self.seat, "kind": _kind(self.taken), "taken": _action_json(self.taken),
                "best": _action_json(self.best),
                "taken_value": round(self.taken_value, _ROUNDING),
                "best_value": round(self.best_value, _ROUNDING),
                "taken_points": round(self.taken_points, _ROUNDING),
                "best_points": round(self.best_points, _ROUNDING),
                "loss": round(self.loss, _ROUNDING), "verdict": self.verdict,
                "choices": self.choices, "worlds": self.worlds}


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's report: accuracy, points lost, marks, and its costliest decisions."""

    seat: int
    name: str
    decisions: tuple[DecisionReport, ...]

    @property
    def chosen(self) -> tuple[DecisionReport, ...]:
        """The decisions with a real choice."""
        return tuple(d for d in self.decisions if not d.forced)

    @property
    def accuracy(self) -> float | None:
        """Share of the decisions with a choice that were fine (None: there were none)."""
        chosen = self.chosen
        if not chosen:
            return None
        return sum(d.verdict is None for d in chosen) / len(chosen)

    @property
    def points_lost(self) -> float:
        """The losses of all its decisions together."""
        return sum(d.loss for d in self.chosen)

    def count(self, mark: str) -> int:
        """How many of its decisions got ``mark``."""
        return sum(d.verdict == mark for d in self.decisions)

    @property
    def worst(self) -> tuple[DecisionReport, ...]:
        """Its costliest decisions with a loss, most costly first (at most three)."""
        costly = sorted((d for d in self.chosen if d.loss > 0), key=lambda d: -d.loss)
        return tuple(costly[:_WORST])

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON (the decisions by their index in the game's list)."""
        accuracy = self.accuracy
        return {"seat": self.seat, "name": self.name, "decisions": len(self.decisions),
                "with_choice": len(self.chosen),
                "accuracy": None if accuracy is None else round(accuracy, _ROUNDING),
                "points_lost": round(self.points_lost, _ROUNDING),
                "inaccuracies": self.count("inaccuracy"), "mistakes": self.count("mistake"),
                "blunders": self.count("blunder"),
                "worst": [d.index for d in self.worst]}


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of one record: settings, every decision, a summary a seat."""

    rules: str
    names: tuple[str, ...]
    seats: tuple[int, ...]
    seed: str | None
    iterations: int | None
    budget_s: float | None
    decisions: tuple[DecisionReport, ...]
    summaries: tuple[SeatSummary, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The whole analysis as plain JSON."""
        return {"rules": self.rules, "names": list(self.names), "seats": list(self.seats),
                "judge": _JUDGE, "seed": self.seed, "iterations": self.iterations,
                "budget_s": self.budget_s,
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE,
                               "blunder": BLUNDER},
                "summaries": [s.to_json() for s in self.summaries],
                "decisions": [d.to_json() for d in self.decisions]}


# ------------------------------------------------------------------ the record
def human_seats(names: Sequence[str]) -> tuple[int, ...]:
    """The seats a record's names show as people: not a computer's name (``Bot 2``,
    ``Computer 3 (normal)``, a level such as ``expert`` or ``hard:budget=0.2``, or the
    places the terminal gives computers, ``Left``, ``Across``, ``Right``); every seat
    when the names say none is a person."""
    people = tuple(seat for seat, name in enumerate(names) if not _computer_name(name))
    return people or tuple(range(len(names)))


def _computer_name(name: str) -> bool:
    words = name.split()
    if len(words) >= 2 and words[0] in ("Bot", "Computer") and words[1].isdigit():
        return True
    if words and words[0] in ("Left", "Right") and all(w.isdigit() for w in words[1:]):
        return True
    return name == "Across" or name.split(":")[0] in LEVELS


@dataclass(frozen=True, slots=True)
class _Task:
    """A decision to judge: the seat's view before it, the action taken, the settings."""

    index: int
    view: PlayerView
    taken: Action
    seed: str
    iterations: int | None
    budget_s: float | None


def _decisions(final: GameState, seats: Sequence[int]) -> list[tuple[PlayerView, Action]]:
    """Every decision of ``seats`` in the game ``final`` ends: the view before, the action
    (each round restarted from its hand record: :func:`round_steps`)."""
    found: list[tuple[PlayerView, Action]] = []
    before: GameState | None = None
    for _, action, state in round_steps(final):
        if action is not None and before is not None and action.seat in seats:
            found.append((view(before, action.seat), action))
        before = state
    return found


# ------------------------------------------------------------------ judging
def analyze(record: Mapping[str, Any], seats: Sequence[int] | None = None, *,
            seed: str | None = None, iterations: int | None = None,
            budget_s: float | None = None, workers: int = 1,
            progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Judge every decision of ``seats`` (default: :func:`human_seats`) in ``record``.

    With ``seed`` each decision samples ``iterations`` deals (default
    :data:`DEFAULT_ITERATIONS`) from its own seed, and the result does not depend on
    ``workers``; without it, ``iterations`` (if given) or the ``expert`` time budget
    (``budget_s`` seconds a decision, default the level's) rules. ``workers`` processes
    judge decisions side by side; ``progress(done, total)`` follows them. Raises
    :class:`InvalidRecordError` for a record the rules reject, :class:`PlayerError`
    for bad seats or settings."""
    if not is_whole_number(workers, 1):
        raise PlayerError(f"workers must be a whole number of at least 1, not {workers!r}")
    if iterations is not None and not is_whole_number(iterations, 1):
        raise PlayerError(f"iterations must be a whole number of at least 1, not "
                          f"{iterations!r}")
    final = replay_record(record)
    names = record_seats(record, final.players)
    given = human_seats(names) if seats is None else tuple(seats)
    bad = [s for s in given if not is_whole_number(s, 0, final.players - 1)]
    chosen = tuple(dict.fromkeys(given))  # after the check: {1: ..., True: ...} keeps one
    if bad or not chosen:
        raise PlayerError(f"seats run from 0 to {final.players - 1}, not {bad or 'none'}")
    if seed is not None and iterations is None:
        iterations = DEFAULT_ITERATIONS
    run_seed = seed if seed is not None else str(random.getrandbits(64))
    tasks = [_Task(i, seen, action, f"{run_seed}/{i}", iterations, budget_s)
             for i, (seen, action) in enumerate(_decisions(final, chosen))]
    reports = _judge_all(tasks, workers, progress)
    summaries = tuple(SeatSummary(s, names[s], tuple(d for d in reports if d.seat == s))
                      for s in sorted(chosen))
    return GameAnalysis(final.rules.text, names, tuple(sorted(chosen)), seed, iterations,
                        None if iterations is not None else budget_s, tuple(reports),
                        summaries)


def _judge_all(tasks: list[_Task], workers: int,
               progress: Callable[[int, int], None] | None) -> list[DecisionReport]:
    reports: list[DecisionReport] = []
    if workers == 1 or len(tasks) < 2:
        for task in tasks:
            reports.append(_judge(task))
            if progress is not None:
                progress(len(reports), len(tasks))
        return reports
    # spawn, not fork: the caller may run threads (a progress bar, a server's loop)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_judge, task) for task in tasks]
        try:
            for future in as_completed(futures):
                reports.append(future.result())
                if progress is not None:
                    progress(len(reports), len(tasks))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return sorted(reports, key=lambda d: d.index)


def _judge(task: _Task) -> DecisionReport:
    """The search's verdict on one decision (run in a worker process)."""
    from hearts.players.search.player import SearchPlayer, distinct_cards

    seen, taken = task.view, task.taken
    assert seen.seat is not None
    player = SearchPlayer(random.Random(task.seed), level=_JUDGE, budget_s=task.budget_s,
                          iterations=task.iterations)
    trick_no = seen.trick_no + 1 if seen.phase is Phase.PLAY else None
    here = (task.index, seen.round_no, trick_no, seen.seat)
    if isinstance(taken, ChooseMoon):
        return _judge_moon(here, player, seen, taken)
    if isinstance(taken, Play):
        cards = distinct_cards(seen)
        if len(cards) < 2:
            return DecisionReport(*here, taken, taken, 0.0, 0.0, 0.0, 0.0, 1, 0)
        if taken.card not in cards:
            cards.append(taken.card)
        figures = player.card_figures(seen, cards)
        actions: list[Action] = [Play(seen.seat, card) for card in cards]
        mine = cards.index(taken.card)
    else:
        assert isinstance(taken, PassCards)
        figures = player.pass_figures(seen, extra=taken.cards)
        actions = [PassCards(seen.seat, f.cards) for f in figures]
        mine = next(i for i, f in enumerate(figures) if f.cards == taken.cards)
        if len(figures) < 2:
            return DecisionReport(*here, taken, taken, 0.0, 0.0, 0.0, 0.0, 1, 0)
    best = max(range(len(figures)), key=lambda i: figures[i].utility)
    return DecisionReport(*here, taken, actions[best], figures[mine].utility,
                          figures[best].utility, figures[mine].points, figures[best].points,
                          len(figures), figures[best].worlds)


def _judge_moon(here: tuple[int, int, int | None, int], player: Any, seen: PlayerView,
                taken: ChooseMoon) -> DecisionReport:
    values = player.moon_values(seen)
    best = max(values, key=lambda choice: values[choice][0])
    value, points = values[taken.choice]
    return DecisionReport(*here, taken, ChooseMoon(taken.seat, best), value, values[best][0],
                          points, values[best][1], len(values), 0)


# ------------------------------------------------------------------ words
def _kind(action: Action) -> str:
    if isinstance(action, PassCards):
        return "pass"
    if isinstance(action, Play):
        return "play"
    return "moon"


def _action_json(action: Action) -> str | list[str]:
    if isinstance(action, PassCards):
        return action.cards.names()
    if isinstance(action, Play):
        return str(Card(action.card))
    assert isinstance(action, ChooseMoon)
    return action.choice.value
