"""More time, more strength: ``expert``'s margin over three ``normal`` players by budget.

For each budget, one arena match seats ``expert`` with that budget against three
``normal`` players on duplicate deals (every rotation), games to the rules' target, and
prints the hands played, expert's margin (the others' points per hand minus its own)
with a 95% t interval over deal sets, its points per hand and game wins, and its decision times
(median and p95 wall time). Budgets are seconds a decision (``--budgets``, the issue's
0.05, 0.1, 0.2, 0.5, 1 by default) or, machine-independent, worlds a decision
(``--worlds``). The full curve at useful precision takes hours of CPU; shorten it with
``--deal-sets``, a lower ``--target`` or fewer budgets, and read each figure with its
hands and budget.

    .venv/bin/python benchmarks/strength_curve.py --deal-sets 4 --target 50
    .venv/bin/python benchmarks/strength_curve.py --worlds 50,200,800 --deal-sets 10
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hearts.arena import MatchConfig, report, run_match
from hearts.core import Rules

__all__ = ["curve_point", "main"]


def curve_point(rules: Rules, spec: str, opponent: str, deal_sets: int, seed: str,
                workers: int) -> dict[str, Any]:
    """The arena report of ``spec`` against three ``opponent``."""
    config = MatchConfig(rules, (spec, opponent, opponent, opponent), deal_sets, seed)
    return report(run_match(config, workers=workers))


def _interval(value: dict[str, Any]) -> str:
    half = value["half_width"]
    if half is None:
        return f"{value['mean']:+.2f}"
    return f"{value['mean']:+.2f} ± {half:.2f} ({value['low']:+.2f} to {value['high']:+.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--target", type=int, default=None,
                        help="game target (shorter games for a quick curve)")
    parser.add_argument("--budgets", default="0.05,0.1,0.2,0.5,1",
                        help="seconds a decision, comma-separated")
    parser.add_argument("--worlds", default=None,
                        help="worlds a decision instead of seconds, comma-separated")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--options", default="", help="more level options, e.g. playout=heuristic")
    parser.add_argument("--opponent", default="normal")
    parser.add_argument("--deal-sets", type=int, default=4,
                        help="deal sets per budget (4 games each, one per rotation)")
    parser.add_argument("--seed", default="curve-1")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    if args.target is not None:
        rules = rules.replace(target=args.target)
    unit, values = ("iterations", args.worlds) if args.worlds else ("budget", args.budgets)
    extra = f",{args.options}" if args.options else ""
    print(f"{args.level}{extra} vs three {args.opponent}: rules {rules.text}, seed {args.seed}, "
          f"{args.deal_sets} deal sets a point, {args.workers} worker(s)")
    print(f"{unit:>10} {'hands':>6} {'margin (95% CI)':>30} {'pts/hand':>9} "
          f"{'win/seat':>8} {'p50 ms':>8} {'p95 ms':>8} {'wall s':>7}")
    for value in values.split(","):
        spec = f"{args.level}:{unit}={value}{extra}"
        data = curve_point(rules, spec, args.opponent, args.deal_sets, args.seed, args.workers)
        bot = next(b for b in data["figures"]["bots"] if b["bot"] == spec)
        timing = data["timing"][spec]
        print(f"{value:>10} {data['figures']['hands']:>6} {_interval(bot['margin']):>30} "
              f"{bot['points_per_hand']['mean']:>9.2f} {bot['win_rate_per_seat']:>8.3f} "
              f"{timing['p50_ms']:>8.0f} "
              f"{timing['p95_ms']:>8.0f} {data['run']['wall_seconds']:>7.0f}")
        sys.stdout.flush()
    print("margin: the three opponents' points per hand minus the level's (positive: the "
          "level took fewer); 95% t interval over deal sets; win/seat: games won (an even "
          "share is 0.25)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
