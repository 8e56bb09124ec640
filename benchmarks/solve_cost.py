"""What the exact endgame solver (the search's ``solve`` option) costs, by hand size.

Rule-based (``normal``) players play seeded games; at each of their card decisions
with more than one distinct card, the same view is searched with a fixed number of
worlds, once by the flat search and once with ``solve=E`` (the ``tail`` variant: each
playout solves the round's end once every hand holds at most E cards). Printed per
hand size: the decisions, the milliseconds a decision takes each way, the solves a
decision makes, the cards a solve plays (mean and max: the size of its max^n search)
and the microseconds a solve takes (the solved decision's time over its solves).

    .venv/bin/python benchmarks/solve_cost.py --solve 3 --games 2
    .venv/bin/python benchmarks/solve_cost.py --solve 4 --worlds 20 --rules classic:players=5
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from hearts.cli.common import non_negative_int, positive_int, rules_text
from hearts.core import Card, CardSet, MoonChoice, PlayerView, Rules
from hearts.players import play_game
from hearts.players.base import Player
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.player import SearchPlayer, distinct_cards

__all__ = ["Recorder", "main"]


class Recorder:
    """A rule-based player that keeps the view of each card decision with a choice (it
    wraps one: the compiled class cannot be subclassed)."""

    def __init__(self) -> None:
        self.inner = RuleBasedPlayer()
        self.name = self.inner.name
        self.views: list[PlayerView] = []

    def choose_pass(self, view: PlayerView) -> CardSet:
        return self.inner.choose_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        if len(distinct_cards(view)) > 1:
            self.views.append(view)
        return self.inner.choose_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.inner.choose_moon(view)


def _timed(player: SearchPlayer, view: PlayerView) -> float:
    start = time.perf_counter()
    player.card_figures(view, distinct_cards(view))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Record the positions, time both searches on each, print a line per hand size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solve", type=non_negative_int, default=3,
                        help="hand size solved from")
    parser.add_argument("--worlds", type=positive_int, default=100, help="worlds a decision")
    parser.add_argument("--rules", type=rules_text, default="standard:rounds=2",
                        help="rules text")
    parser.add_argument("--games", type=positive_int, default=2)
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    views: list[PlayerView] = []
    for game in range(args.games):
        seats = [Recorder() for _ in range(rules.players)]
        players: list[Player] = list(seats)
        play_game(rules, players, seed=f"solve-cost-{game}")
        views += [view for seat in seats for view in seat.views]
    flat = SearchPlayer(0, level="expert", iterations=args.worlds)
    solved = SearchPlayer(0, level="expert", iterations=args.worlds, solve=args.solve)
    rows: dict[int, list[tuple[float, float, int, int]]] = defaultdict(list)
    for view in views:
        flat_seconds = _timed(flat, view)
        nodes, solves = solved.solve_nodes, solved.solves
        solved_seconds = _timed(solved, view)
        rows[len(view.hand)].append((flat_seconds, solved_seconds, solved.solves - solves,
                                     solved.solve_nodes - nodes))
    print(f"rules {rules.text}, solve={args.solve}, {args.worlds} worlds a decision, "
          f"{len(views)} decisions")
    print(f"{'hand':>4} {'decisions':>9} {'flat ms':>8} {'solved ms':>9} {'solves':>7} "
          f"{'cards/solve':>11} {'max':>7} {'us/solve':>8}")
    for hand in sorted(rows, reverse=True):
        row = rows[hand]
        solves = sum(r[2] for r in row)
        per_solve = [r[3] / r[2] for r in row if r[2]]
        print(f"{hand:4} {len(row):9} {1000 * statistics.fmean(r[0] for r in row):8.2f} "
              f"{1000 * statistics.fmean(r[1] for r in row):9.2f} {solves / len(row):7.0f} "
              f"{statistics.fmean(per_solve) if per_solve else 0:11.0f} "
              f"{max(per_solve, default=0):7.0f} "
              f"{1e6 * sum(r[1] for r in row) / solves if solves else 0:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
