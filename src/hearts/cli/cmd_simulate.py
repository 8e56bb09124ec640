"""``hearts simulate``: whole games between computer players, summed up per seat.

Game ``n`` (from 1) of ``--seed S`` is dealt from the game seed ``S-n`` (so round ``r``
from the deal seed ``S-n/r``), and seat ``s`` of it is a fresh player of its level
seeded with ``S-n/seat-s``. A record written by ``--records`` stores the game seed;
``--seed S --first n --games 1`` plays that game again, action for action, unless a level
decides by the clock (``hard`` and ``expert`` search for a time budget): given a fixed
number of worlds (``expert:iterations=300``) they replay exactly too.
"""

from __future__ import annotations

import argparse
import json
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearts.arena.stats import WINS_SENTENCE, shared_win, win_share
from hearts.cli.common import (
    add_rules_options,
    check_output_folder,
    games_progress,
    level_spec,
    level_specs,
    levels_text,
    new_seed,
    positive_int,
    rules_from_args,
    seat_levels,
    seat_player,
    seed_text,
    write_record,
)
from hearts.core import GameState, Rules, game_record
from hearts.players import play_game
from hearts.wording import counted

__all__ = ["SimulationTally", "configure", "game_seed", "run", "seat_names"]


def game_seed(seed: str, number: int) -> str:
    """The seed of game ``number`` (from 1) of a simulation seeded with ``seed``."""
    return f"{seed}-{number}"


def seat_names(levels: list[str]) -> list[str]:
    """Seat names for a record and the summary: level and seat number (from 0, as in records)."""
    return [f"{level} {seat}" for seat, level in enumerate(levels)]


@dataclass
class SimulationTally:
    """Per-seat totals over the games played so far: ``wins`` and ``shared_wins`` as
    every command counts them (:func:`hearts.arena.stats.win_share` and
    :func:`~hearts.arena.stats.shared_win`), ``tied_games`` the games won in a tie."""

    players: int
    games: int = 0
    hands: int = 0
    tied_games: int = 0
    points: list[int] = field(default_factory=list)
    final_totals: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    shared_wins: list[int] = field(default_factory=list)
    moons_shot: list[int] = field(default_factory=list)
    moons_allowed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for counts in (self.points, self.final_totals, self.shared_wins, self.moons_shot,
                       self.moons_allowed):
            counts.extend([0] * self.players)
        self.wins.extend([0.0] * self.players)

    def add(self, state: GameState) -> None:
        """Count one finished game."""
        self.games += 1
        self.hands += len(state.results)
        for result in state.results:
            for seat, points in enumerate(result.points):
                self.points[seat] += points
                if result.shooter is not None:
                    self.moons_shot[seat] += result.shooter == seat
                    self.moons_allowed[seat] += result.shooter != seat
        for seat, total in enumerate(state.totals):
            self.final_totals[seat] += total
        winners = state.winners
        self.tied_games += len(winners) > 1
        for seat in range(self.players):
            self.wins[seat] += win_share(winners, seat)
            self.shared_wins[seat] += shared_win(winners, seat)

    def points_per_hand(self) -> list[float]:
        """Mean round points of each seat."""
        return [p / self.hands if self.hands else 0.0 for p in self.points]

    def mean_totals(self) -> list[float]:
        """Mean final total of each seat."""
        return [t / self.games if self.games else 0.0 for t in self.final_totals]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``simulate`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Play whole games between computer players (random by default) "
                          "and print per-seat results: points a hand, mean final total, "
                          "wins and shared wins, moons shot and allowed. "
                          f"{WINS_SENTENCE}, as hearts stats and "
                          "hearts arena count them.")
    parser.epilog = ("Game n of --seed S is dealt from seed S-n (round r from S-n/r); seat s "
                     "plays with the seed S-n/seat-s. '--seed S --first n --games 1' plays "
                     "game n again, unless a level decides by the clock: hard and expert "
                     "search for a time budget, so they replay exactly only with a fixed "
                     "number of worlds (expert:iterations=300).")
    add_rules_options(parser)
    parser.add_argument("--games", type=positive_int, default=100, metavar="N",
                        help="games to play (default: 100)")
    parser.add_argument("--seed", type=seed_text, metavar="SEED",
                        help="seed of the whole run (default: a random one, printed)")
    parser.add_argument("--first", type=positive_int, default=1, metavar="N",
                        help="number of the first game (default: 1)")
    parser.add_argument("--level", type=level_spec, metavar="LEVEL",
                        help="level of every seat not named by --levels (default: random; "
                             f"levels: {levels_text()}; options as LEVEL:key=value, e.g. "
                             "expert:iterations=300, as hearts bot and hearts arena take "
                             "them; or policy:PATH, a trained policy)")
    parser.add_argument("--levels", type=level_specs, metavar="L1,L2,...",
                        help="levels seat by seat from seat 0, e.g. random,random,random,random "
                             "or expert:iterations=300,game_weight=0,normal,normal,normal")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--records", type=Path, metavar="DIR",
                        help="write each game's record as DIR/game-<seed>-<n>.json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the games, write any records, print the summary."""
    rules = rules_from_args(args)
    levels = seat_levels(rules.players, args.levels, args.level)
    names = seat_names(levels)
    if args.records is not None:
        check_output_folder(args.records, "--records")
    seed: str = args.seed if args.seed is not None else new_seed()
    numbers = range(args.first, args.first + args.games)
    tally = SimulationTally(rules.players)
    started = time.perf_counter()
    try:
        with games_progress(args.quiet) as progress:
            _play_all(args, rules, seed, numbers, levels, names, tally, progress)
    except KeyboardInterrupt:
        # Ctrl-C: sum up the games finished so far, then exit as interrupted.
        if not tally.games:
            raise
        interrupted = True
    else:
        interrupted = False
    elapsed = time.perf_counter() - started
    played = range(numbers.start, numbers.start + tally.games)
    summary = _summary(rules, seed, played, levels, names, tally, elapsed, args.records)
    print(json.dumps(summary) if args.json else "\n".join(_human_lines(summary)))
    return 130 if interrupted else 0


def _play_all(args: argparse.Namespace, rules: Rules, seed: str, numbers: range,
              levels: list[str], names: list[str], tally: SimulationTally,
              progress: Callable[[int, int], None] | None) -> None:
    """Play every game in turn into the tally, writing records as asked."""
    for number in numbers:
        this_seed = game_seed(seed, number)
        players = [seat_player(level, seat, rules, f"{this_seed}/seat-{seat}")
                   for seat, level in enumerate(levels)]
        state = play_game(rules, players, this_seed)
        tally.add(state)
        if args.records is not None:
            write_record(args.records / f"game-{this_seed}.json",
                         game_record(state, names, people=()))  # computers alone
        if progress is not None:
            progress(tally.games, len(numbers))


def _summary(rules: Rules, seed: str, numbers: range, levels: list[str], names: list[str],
             tally: SimulationTally, elapsed: float, records: Path | None) -> dict[str, Any]:
    return {
        "rules": rules.text,
        "players": rules.players,
        "seed": seed,
        "first_game": numbers.start,
        "games": tally.games,
        "game_seeds": [game_seed(seed, number) for number in numbers],
        "hands": tally.hands,
        "levels": levels,
        "seats": names,
        "points_per_hand": [round(p, 4) for p in tally.points_per_hand()],
        "mean_final_total": [round(t, 4) for t in tally.mean_totals()],
        "wins": [round(w, 4) for w in tally.wins],
        "shared_wins": tally.shared_wins,
        "tied_games": tally.tied_games,
        "moons_shot": tally.moons_shot,
        "moons_allowed": tally.moons_allowed,
        "elapsed_s": round(elapsed, 4),
        "hands_per_s": round(tally.hands / elapsed, 1) if elapsed > 0 else None,
        "records": None if records is None else str(records),
    }


def _human_lines(summary: dict[str, Any]) -> list[str]:
    games = summary["games"]
    first, last = summary["game_seeds"][0], summary["game_seeds"][-1]
    lines = [
        f"{counted(games, 'game')} of {summary['rules']} "
        f"({summary['players']} players), seed {summary['seed']} "
        f"(game seeds {first} to {last})",
        f"{summary['hands']} hands ({summary['hands'] / games:.1f} a game) "
        f"in {summary['elapsed_s']:.2f} s: {summary['hands_per_s'] or 0:.0f} hands/s",
        "",
    ]
    width = max(4, *(len(n) for n in summary["seats"]))
    lines.append(f"{'Seat':<{width}}  {'points/hand':>11}  {'mean total':>10}  "
                 f"{'wins':>7}  {'win %':>6}  {'shared':>6}  {'moons':>7}")
    for seat, name in enumerate(summary["seats"]):
        wins = summary["wins"][seat]
        moons = f"{summary['moons_shot'][seat]}/{summary['moons_allowed'][seat]}"
        lines.append(
            f"{name:<{width}}  {summary['points_per_hand'][seat]:>11.2f}  "
            f"{summary['mean_final_total'][seat]:>10.1f}  {wins:>7.2f}  "
            f"{100 * wins / games:>5.1f}%  {summary['shared_wins'][seat]:>6}  {moons:>7}")
    lines += ["", *textwrap.wrap(
        f"{WINS_SENTENCE} ({counted(summary['tied_games'], 'game')} "
        "ended in a tie); moons: shot by the seat / by the others.", 80)]
    if summary["records"] is not None:
        lines.append(f"Records written to {summary['records']}/game-<seed>-<n>.json")
    return lines
