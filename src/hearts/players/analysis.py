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
of deals from its own seed, named by its place in the game (the round and the action's
place in it), so a decision's verdict is the same however many workers run it and
whichever other seats are judged.
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
    is_finite_number,
    is_whole_number,
    record_people,
    record_seats,
    replay_record,
    round_steps,
    view,
)
from hearts.players.errors import PlayerError
from hearts.players.levels import LEVELS

__all__ = ["BLUNDER", "DEFAULT_ITERATIONS", "INACCURACY", "MISTAKE", "AnalysisPlan",
           "DecisionReport", "GameAnalysis", "SeatSummary", "analyze", "human_seats",
           "judging_settings", "plan_analysis", "verdict"]

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
    """The analysis of one record: settings, every decision, a summary a seat.

    ``iterations`` is the deals each decision sampled (None: a time budget ruled) and
    ``budget_s`` the seconds each decision had (None: fixed deals, no clock)."""

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
def human_seats(names: Sequence[str], people: Sequence[int] | None = None
                ) -> tuple[int, ...]:
    """The seats persons played: ``people``, as the record states it
    (:func:`hearts.core.record_people`), or for a record that does not say, the seats
    whose names are not a computer's (``Bot 2``, ``Computer 3 (normal)``, a level such as
    ``expert`` or ``hard:budget=0.2``, or the places the terminal gives computers,
    ``Left``, ``Across``, ``Right``); every seat when none is a person."""
    found = tuple(people) if people is not None else tuple(
        seat for seat, name in enumerate(names) if not _computer_name(name))
    return found or tuple(range(len(names)))


def _computer_name(name: str) -> bool:
    """Whether a name is one a computer gets: the guess for records that do not say who
    played (a person may choose any name, so a record's ``people`` comes first)."""
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


def _decisions(final: GameState, seats: Sequence[int]
               ) -> list[tuple[PlayerView, Action, str]]:
    """Every decision of ``seats`` in the game ``final`` ends: the view before, the action
    and its place in the game, ``ROUND/N`` with N counting the round's passes, plays and
    moon choice of every seat from 1 (each round restarted from its hand record:
    :func:`round_steps`, so a game record and its round's hand record agree)."""
    found: list[tuple[PlayerView, Action, str]] = []
    before: GameState | None = None
    place = 0
    for round_no, action, state in round_steps(final):
        place = 0 if action is None else place + 1
        if action is not None and before is not None and action.seat in seats:
            found.append((view(before, action.seat), action, f"{round_no}/{place}"))
        before = state
    return found


# ------------------------------------------------------------------ judging
def judging_settings(seed: str | None = None, iterations: int | None = None,
                     budget_s: float | None = None) -> tuple[int | None, float | None]:
    """The deals a decision samples and the seconds it may take, as :func:`analyze`
    judges with these settings: with ``seed``, ``iterations`` deals (default
    :data:`DEFAULT_ITERATIONS`) and no clock; without it, ``iterations`` if given, else
    ``budget_s`` seconds (default the ``expert`` level's). A time budget with a seed or
    iterations would be ignored, or break the seed's promise of the same report, so it
    is refused: :class:`PlayerError`, as for a setting out of its range."""
    from hearts.players.search.player import LEVEL_BUDGETS, MAX_BUDGET_S

    if iterations is not None and not is_whole_number(iterations, 1):
        raise PlayerError(f"iterations must be a whole number of at least 1, not "
                          f"{iterations!r}")
    if budget_s is not None:
        if not (is_finite_number(budget_s) and 0 < budget_s <= MAX_BUDGET_S):
            raise PlayerError(f"the time budget is a number of seconds above 0 and at most "
                              f"{MAX_BUDGET_S}, not {budget_s!r}")
        if seed is not None or iterations is not None:
            raise PlayerError(f"a time budget ({budget_s:g} s) is used only when neither a "
                              "seed nor iterations fix the deals a decision; drop the "
                              "budget, or the seed and the iterations")
    if iterations is None and seed is not None:
        iterations = DEFAULT_ITERATIONS
    if iterations is not None:
        return iterations, None
    return None, budget_s if budget_s is not None else LEVEL_BUDGETS[_JUDGE].seconds


@dataclass(frozen=True, slots=True)
class AnalysisPlan:
    """A record replayed and checked, with the seats and settings to judge it by
    (:func:`plan_analysis`): every refusal comes before any search, so that a file of
    records can be checked whole before the first is judged (:meth:`judge`). It keeps
    the replayed game (``final``), not yet a view a decision."""

    final: GameState
    names: tuple[str, ...]
    seats: tuple[int, ...]
    seed: str | None
    iterations: int | None
    budget_s: float | None
    run_seed: str

    def judge(self, workers: int = 1,
              progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
        """Judge every decision, on ``workers`` processes (never more than there are
        decisions); ``progress(done, total)`` follows them."""
        _check_workers(workers)
        tasks = [_Task(i, seen, action, f"{self.run_seed}/{place}", self.iterations,
                       self.budget_s)
                 for i, (seen, action, place) in enumerate(_decisions(self.final,
                                                                      self.seats))]
        reports = _judge_all(tasks, workers, progress)
        summaries = tuple(SeatSummary(s, self.names[s],
                                      tuple(d for d in reports if d.seat == s))
                          for s in self.seats)
        return GameAnalysis(self.final.rules.text, self.names, self.seats, self.seed,
                            self.iterations, self.budget_s, tuple(reports), summaries)


def plan_analysis(record: Mapping[str, Any], seats: Sequence[int] | None = None, *,
                  seed: str | None = None, iterations: int | None = None,
                  budget_s: float | None = None) -> AnalysisPlan:
    """Replay ``record``, check ``seats`` (default: :func:`human_seats`) and the settings
    (:func:`judging_settings`), searching nothing yet.
    Raises :class:`InvalidRecordError` for a record the rules reject,
    :class:`PlayerError` for bad seats or settings."""
    iterations, budget_s = judging_settings(seed, iterations, budget_s)
    final = replay_record(record)
    names = record_seats(record, final.players)
    given = human_seats(names, record_people(record, final.players)) if seats is None \
        else tuple(seats)
    bad = [s for s in given if not is_whole_number(s, 0, final.players - 1)]
    if bad or not given:
        raise PlayerError(f"seats run from 0 to {final.players - 1}, not {bad or 'none'}")
    chosen = tuple(sorted(set(given)))  # after the check: {1, True} would keep one
    run_seed = seed if seed is not None else str(random.getrandbits(64))
    return AnalysisPlan(final, names, chosen, seed, iterations, budget_s, run_seed)


def analyze(record: Mapping[str, Any], seats: Sequence[int] | None = None, *,
            seed: str | None = None, iterations: int | None = None,
            budget_s: float | None = None, workers: int = 1,
            progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Judge every decision of ``seats`` (default: :func:`human_seats`) in ``record``:
    :func:`plan_analysis`, then :meth:`AnalysisPlan.judge`.

    With ``seed`` each decision samples ``iterations`` deals (default
    :data:`DEFAULT_ITERATIONS`) from its own seed, ``SEED/ROUND/N`` (N: its place among
    the round's actions of every seat, from 1), and the result depends neither on
    ``workers`` nor on the other seats judged; without it, ``iterations`` (if given) or
    the ``expert`` time budget (``budget_s`` seconds a decision, default the level's;
    refused beside a seed or iterations, which fix the deals) rules. ``workers``
    processes judge decisions side by side; ``progress(done, total)`` follows them.
    Raises :class:`InvalidRecordError` for a record the rules reject, :class:`PlayerError`
    for bad seats or settings."""
    _check_workers(workers)
    plan = plan_analysis(record, seats, seed=seed, iterations=iterations, budget_s=budget_s)
    return plan.judge(workers, progress)


def _check_workers(workers: object) -> None:
    if not is_whole_number(workers, 1):
        raise PlayerError(f"workers must be a whole number of at least 1, not {workers!r}")


def _judge_all(tasks: list[_Task], workers: int,
               progress: Callable[[int, int], None] | None) -> list[DecisionReport]:
    reports: list[DecisionReport] = []
    if workers == 1 or len(tasks) < 2:
        for task in tasks:
            reports.append(_judge(task))
            if progress is not None:
                progress(len(reports), len(tasks))
        return reports
    # spawn, not fork: the caller may run threads (a progress bar, a server's loop); no
    # more processes than decisions, each a fresh interpreter that loads the search
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
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
