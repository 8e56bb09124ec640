"""Quick strength and speed figures of the rule-based levels (the arena does the official runs).

Strength: one level against ``random`` players in every other seat, over duplicate
deals: every deal is played once with the level in each seat, so every seat's cards are
played by it once; the pass direction follows the preset's cycle by deal number.
Speed: wall time per decision of ``easy`` and ``normal`` over the same games;
``--profile N`` also prints the N functions the timed decisions spent most time in
(cProfile around the decisions only, not the engine between them); ``--repeat R``
decides every recorded view R more times afresh and reports the mean of each
decision's best time, a figure a busy machine barely moves.

    .venv/bin/python benchmarks/rulebased_quick.py --deals 125   # 500 hands a preset
    taskset -c 1 .venv/bin/python benchmarks/rulebased_quick.py --deals 30 --levels normal \
        --opponents normal --repeat 5   # issue 15: normal's decision at a table of normals
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import statistics
import time
from collections.abc import Callable

from hearts.cli.common import (
    comma_list,
    level_list,
    level_name,
    non_negative_int,
    positive_int,
    rules_text,
)
from hearts.core import (
    Card,
    CardSet,
    MoonChoice,
    PlayerView,
    Rules,
    card_points,
    deal_hands,
    forget_round_facts,
    new_hand,
)
from hearts.core._native import engine_in_use as core_engine
from hearts.players import Player, make_player, run_game
from hearts.players._native import engine_in_use as players_engine


class TimedPlayer:
    """Wraps a player and records the seconds each decision took and the views it was
    asked (and profiles the decisions when given a profiler)."""

    def __init__(self, inner: Player, times: list[float],
                 profiler: cProfile.Profile | None = None,
                 asked: list[tuple[str, PlayerView]] | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times
        self.profiler = profiler
        self.asked = asked

    def _timed(self, decide: Callable[[PlayerView], object], view: PlayerView) -> object:
        if self.profiler is not None:
            self.profiler.enable()
        start = time.perf_counter()
        answer = decide(view)
        self.times.append(time.perf_counter() - start)
        if self.profiler is not None:
            self.profiler.disable()
        if self.asked is not None:
            self.asked.append((decide.__name__, view))
        return answer

    def choose_pass(self, view: PlayerView) -> CardSet:
        return self._timed(self.inner.choose_pass, view)  # type: ignore[return-value]

    def choose_play(self, view: PlayerView) -> Card:
        return self._timed(self.inner.choose_play, view)  # type: ignore[return-value]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self._timed(self.inner.choose_moon, view)  # type: ignore[return-value]


def run(rules: Rules, level: str, opponents: str, deals: int, times: list[float],
        profiler: cProfile.Profile | None = None,
        asked: list[tuple[str, PlayerView]] | None = None) -> list[int]:
    """Points per hand of ``level`` against ``opponents`` over ``deals`` duplicate deals."""
    scores: list[int] = []
    for deal in range(deals):
        hands = tuple(CardSet(h) for h in deal_hands(rules, f"rulebased-quick-{deal}"))
        for seat in range(rules.players):
            players = [make_player(opponents, f"{deal}-{seat}-{s}")
                       for s in range(rules.players)]
            players[seat] = TimedPlayer(make_player(level), times, profiler, asked)
            state = new_hand(rules, hands, round_no=1 + deal % len(rules.pass_cycle))
            state = run_game(state, players, stop=lambda s: bool(s.results))
            scores.append(state.results[-1].points[seat])
    return scores


def best_times(level: str, asked: list[tuple[str, PlayerView]], repeat: int) -> list[float]:
    """Each recorded decision's best time over ``repeat`` more tries by one player (as a
    server reuses its players), each on a fresh copy of the view (no fact it cached).

    Every pass starts with no round facts kept between decisions, so the decision after
    each trick pays for adding it, as at a table where no other seat did it first."""
    player = make_player(level)
    best = [float("inf")] * len(asked)
    for _ in range(repeat):
        forget_round_facts()
        for i, (decision, view) in enumerate(asked):
            fresh = dataclasses.replace(view)
            decide = getattr(player, decision)
            start = time.perf_counter()
            decide(fresh)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive_int, default=125,
                        help="duplicate deals a preset")
    parser.add_argument("--levels", type=level_list, default="easy,normal")
    parser.add_argument("--presets", type=comma_list(rules_text), default="standard,card-commons")
    parser.add_argument("--opponents", type=level_name, default="random",
                        help="level of the other seats")
    parser.add_argument("--profile", type=non_negative_int, default=0, metavar="N",
                        help="print the N functions the decisions spent most time in")
    parser.add_argument("--repeat", type=non_negative_int, default=0, metavar="R",
                        help="decide every view R more times; report the best times' mean")
    parser.add_argument("--sort", choices=sorted(pstats.Stats.sort_arg_dict_default),
                        default="tottime", metavar="SORT", help="profile order (pstats key)")
    args = parser.parse_args()
    print(f"engines: core {core_engine()}; players {players_engine()}")
    for level in args.levels:
        times: list[float] = []
        profiler = cProfile.Profile() if args.profile else None
        asked: list[tuple[str, PlayerView]] | None = [] if args.repeat else None
        for rules in args.presets:
            scores = run(rules, level, args.opponents, args.deals, times, profiler, asked)
            mean = statistics.fmean(scores)
            half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
            equal = card_points(rules.deck, rules) / rules.players
            print(f"{level:7} vs {rules.players - 1} {args.opponents}, {rules.text:13} "
                  f"{len(scores)} hands: {mean:.2f} ± {half:.2f} points/hand (an equal "
                  f"player: {equal:.2f})")
        ordered = sorted(times)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"{level:7} per decision: mean {1000 * statistics.fmean(times):.3f} ms, "
              f"p95 {1000 * p95:.3f} ms, max {1000 * ordered[-1]:.1f} ms, {len(times)} decisions")
        if asked:
            best = best_times(level, asked, args.repeat)
            print(f"{level:7} per decision, best of {args.repeat} more: "
                  f"mean {1e6 * statistics.fmean(best):.1f} µs")
        if profiler is not None:
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.profile)


if __name__ == "__main__":
    main()
