"""Decision time of the search levels: mean, p95 and max seconds per card played.

The search player sits at one seat (rotating) of seeded games against rule-based
(``normal``) players; every ``choose_play`` is timed on the wall clock, which is what
the budget bounds and what a person waits for. Decisions with one legal card are
answered at once and left out. Also printed: worlds sampled per decision.

    .venv/bin/python benchmarks/search_timing.py --games 3
    .venv/bin/python benchmarks/search_timing.py --levels expert --rules classic:players=5
    .venv/bin/python benchmarks/search_timing.py --levels expert --budgets 0.05,0.2,1

``--budgets`` times a level at other budgets (seconds a decision) than its own, as the
time curve (``strength_curve.py``) plays it: how many worlds each budget buys.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from hearts.cli.common import name_list, positive_int, positive_numbers, rules_text
from hearts.core import Card, PlayerView, Rules
from hearts.players import play_game
from hearts.players.base import Player
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.player import LEVEL_BUDGETS, SearchPlayer

__all__ = ["TimedSearch", "main"]


class TimedSearch(SearchPlayer):
    """A search player that records the wall time and worlds of each searched card."""

    def __init__(self, seed: int, level: str, budget_s: float | None = None) -> None:
        super().__init__(seed, level=level, budget_s=budget_s)
        self.seconds: list[float] = []
        self.worlds: list[int] = []

    def choose_play(self, view: PlayerView) -> Card:
        start = time.perf_counter()
        card = super().choose_play(view)
        if len(view.legal) > 1:
            self.seconds.append(time.perf_counter() - start)
            self.worlds.append(self.worlds_last)
        return card


def main(argv: list[str] | None = None) -> int:
    """Play the games and print one line of figures per level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=name_list(LEVEL_BUDGETS, "level", "search levels"),
                        default="hard,expert", help="comma-separated levels")
    parser.add_argument("--rules", type=rules_text, default="card-commons", help="rules text")
    parser.add_argument("--games", type=positive_int, default=3, help="games per level")
    parser.add_argument("--budgets", type=positive_numbers, default=None,
                        help="seconds a decision, comma-separated (default: each level's own)")
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    budgets: list[float | None] = args.budgets or [None]
    print(f"{'level':14} {'decisions':>9} {'mean s':>8} {'p95 s':>8} {'max s':>8} "
          f"{'worlds/decision':>16} {'median':>8}")
    for level, budget in itertools.product(args.levels, budgets):
        seconds: list[float] = []
        worlds: list[int] = []
        for game in range(args.games):
            seat = game % rules.players
            search = TimedSearch(game, level, budget)
            players: list[Player] = [RuleBasedPlayer() for _ in range(rules.players)]
            players[seat] = search
            play_game(rules, players, seed=f"timing-{game}")
            seconds += search.seconds
            worlds += search.worlds
        seconds.sort()
        p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
        label = level if budget is None else f"{level}@{budget:g}s"
        print(f"{label:14} {len(seconds):9} {statistics.mean(seconds):8.3f} {p95:8.3f} "
              f"{seconds[-1]:8.3f} {statistics.mean(worlds):16,.0f} "
              f"{statistics.median(worlds):8,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
