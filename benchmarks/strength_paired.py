"""Is one bot stronger than another? Their points per hand compared deal set by deal set.

Seats ``--a`` and ``--b`` at one table with ``--opponent`` in the other seats (or, with
no opponent, two seats each), plays every rotation of each duplicate deal set with the
arena, and prints the difference in points per hand (b's minus a's: positive when ``a``
took fewer) with a 95% t interval over deal sets. Both bots hold every hand of a deal
set against the same opponents, so the luck of the cards cancels inside each sample;
the interval is narrower than the two bots' separate margins would give. Each bot's
decision times (p50, p95 and mean wall time) are printed beside it, so a comparison at
equal time can be read off.

    .venv/bin/python benchmarks/strength_paired.py --a expert --b hard --deal-sets 4
    .venv/bin/python benchmarks/strength_paired.py --a expert:iterations=400 \\
        --b expert:iterations=400,trust=1 --opponent normal --deal-sets 20 --target 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass

from hearts.arena import MatchConfig, run_match
from hearts.arena.stats import Interval, t_interval
from hearts.core import Rules

__all__ = ["Paired", "main", "paired_difference"]


@dataclass(frozen=True, slots=True)
class Paired:
    """What a paired match found: b's points per hand minus a's over deal sets (and each
    deal set's value, to pool runs), the hands each bot played, the games, the wall
    time, and each bot's decision times (p50, p95, mean in ms)."""

    difference: Interval
    samples: tuple[float, ...]
    hands: int
    games: int
    wall_seconds: float
    times: dict[str, tuple[float, float, float]]


def paired_difference(rules: Rules, a: str, b: str, opponent: str | None, deal_sets: int,
                      seed: str, workers: int) -> Paired:
    """Per deal set, b's points per hand minus a's; with both bots' hands and times."""
    lineup = (a, b) if opponent is None else (a, b, opponent, opponent)
    result = run_match(MatchConfig(rules, lineup, deal_sets, seed), workers=workers,
                       progress=_progress)
    points: dict[int, dict[str, list[int]]] = defaultdict(lambda: {a: [], b: []})
    seconds: dict[str, list[float]] = {a: [], b: []}
    for game in result.outcomes:
        for seat, bot in enumerate(game.seating):
            if bot in (a, b):
                points[game.deal_set][bot] += [hand[seat] for hand in game.points]
                seconds[bot] += game.decision_seconds[seat]
    samples = [statistics.fmean(by_bot[b]) - statistics.fmean(by_bot[a])
               for by_bot in points.values()]
    hands = sum(len(by_bot[a]) for by_bot in points.values())
    return Paired(t_interval(samples), tuple(samples), hands, len(result.outcomes),
                  result.wall_seconds,
                  {bot: _percentiles(times) for bot, times in seconds.items()})


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)


def _percentiles(times: list[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and mean in milliseconds (the mean is what sets the
    time a whole game takes, so comparisons at equal time go by it)."""
    ordered = sorted(times)
    if not ordered:
        return 0.0, 0.0, 0.0
    return (1000 * ordered[len(ordered) // 2],
            1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
            1000 * statistics.fmean(ordered))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="bot spec whose advantage is measured")
    parser.add_argument("--b", required=True, help="bot spec it is compared with")
    parser.add_argument("--opponent", default=None,
                        help="bot spec in the other two seats (default: none, two seats each)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--target", type=int, default=None, help="game target")
    parser.add_argument("--deal-sets", type=int, default=10)
    parser.add_argument("--seed", default="paired-1")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    if args.target is not None:
        rules = rules.replace(target=args.target)
    data = paired_difference(rules, args.a, args.b, args.opponent, args.deal_sets,
                             args.seed, args.workers)
    diff = data.difference
    half = diff.half_width
    interval = "" if half is None else f" ± {half:.3f} ({diff.low:+.3f} to {diff.high:+.3f})"
    print(f"{args.a} vs {args.b}" + (f" with two {args.opponent}" if args.opponent else "")
          + f": rules {rules.text}, seed {args.seed}, {args.deal_sets} deal sets, "
          f"{data.games} games, {data.hands} hands each, {data.wall_seconds:.0f} s")
    print(f"  advantage of a (b's points per hand minus a's): {diff.mean:+.3f}{interval}, "
          "95% t interval over deal sets")
    for bot, (p50, p95, mean) in data.times.items():
        print(f"  {bot}: decision p50 {p50:.0f} ms, p95 {p95:.0f} ms, mean {mean:.1f} ms")
    print("  per deal set: " + " ".join(f"{x:+.3f}" for x in data.samples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
