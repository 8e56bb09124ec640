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

Every point plays the same deals (one seed), so the curve's rise is read deal set by deal
set: the last line is the highest budget's margin minus the lowest's, paired over the
deal sets, with its 95% t interval (the luck of the cards cancels inside each pair, as in
``strength_paired.py``). ``--json-out DIR`` writes each point's arena report there;
``--pool REPORT ...`` joins reports of several runs (other seeds, other sittings) point by
point, as ``hearts arena --pool`` does, and pairs the lowest and the highest point over
the seeds that both played (the others still count in each point's own figures).

    .venv/bin/python benchmarks/strength_curve.py --deal-sets 4 --target 50
    .venv/bin/python benchmarks/strength_curve.py --worlds 50,200,800 --deal-sets 10
    .venv/bin/python benchmarks/strength_curve.py --budgets 0.05,1 --seed curve-2 --json-out runs
    .venv/bin/python benchmarks/strength_curve.py --pool runs/*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from hearts.arena import (
    MatchConfig,
    interval_text,
    pool,
    pool_by,
    read_report,
    report,
    run_match,
    t_interval,
    win_rate_text,
)
from hearts.cli.common import (
    bot_spec,
    level_name,
    positive_int,
    positive_ints,
    positive_numbers,
    rules_text,
    seed_text,
)
from hearts.core import InvalidRulesError, Rules

__all__ = ["curve_point", "main", "paired_ends", "point_text", "pooled_points", "rise"]


def curve_point(rules: Rules, spec: str, opponent: str, deal_sets: int, seed: str,
                workers: int) -> dict[str, Any]:
    """The arena report of ``spec`` against three ``opponent``."""
    config = MatchConfig(rules, (spec, opponent, opponent, opponent), deal_sets, seed)
    return report(run_match(config, workers=workers))


def point_text(number: float) -> str:
    """A budget or world count as a spec and a file name write it: whole numbers without
    a decimal point (``1``, ``1234567``), others in full (``0.05``), so the same point
    always has the same spec and its runs pool."""
    return str(int(number)) if float(number).is_integer() else repr(float(number))


def _level_bot(data: dict[str, Any]) -> dict[str, Any]:
    """The figures of the one bot of a point that is not the three opponents."""
    bots = data["figures"]["bots"]
    return next(bot for bot in bots if bot["seats"] == 1)


def rise(low: dict[str, Any], high: dict[str, Any]) -> dict[str, Any] | None:
    """The high point's margin minus the low one's, deal set by deal set, as an interval;
    None when the two did not play the same deals (other seeds or deal sets)."""
    if low["figures"]["seed"] != high["figures"]["seed"]:
        return None
    lows = _level_bot(low)["by_deal_set"]["margin"]
    highs = _level_bot(high)["by_deal_set"]["margin"]
    if len(lows) != len(highs):
        return None
    return t_interval([h - lo for lo, h in zip(lows, highs, strict=True)]).to_json()


def pooled_points(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reports of curve points grouped by the level's spec and pooled, each group's runs
    in seed order (so that points of the same seeds pair deal set by deal set), the
    points by budget (or worlds), lowest first."""
    points = pool_by(reports, lambda data: _level_bot(data)["bot"])
    return [points[spec] for spec in sorted(points, key=_budget)]


def paired_ends(reports: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The lowest and the highest point, each pooled over only the seeds that both
    played (so that :func:`rise` pairs them even when the middle points, or one end,
    have runs of other seeds); None when no seed played both."""
    by_seed: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for data in reports:
        by_seed[_level_bot(data)["bot"]][data["figures"]["seed"]] = data
    specs = sorted(by_seed, key=_budget)
    if len(specs) < 2:
        return None
    low, high = by_seed[specs[0]], by_seed[specs[-1]]
    common = sorted(low.keys() & high.keys())
    if not common:
        return None
    return pool([low[seed] for seed in common]), pool([high[seed] for seed in common])


def _budget(spec: str) -> float:
    """The budget or worlds a point's spec names (``expert:budget=0.5,...``)."""
    value = spec.partition(":")[2].partition(",")[0].partition("=")[2]
    try:
        return float(value)
    except ValueError:
        return float("inf")


def _print_point(label: str, data: dict[str, Any]) -> None:
    bot = _level_bot(data)
    timing = data["timing"][bot["bot"]]
    margin = interval_text(bot["margin"], 2, signed=True, bounds=True)
    print(f"{label:>16} {data['figures']['hands']:>6} {margin:>30} "
          f"{bot['points_per_hand']['mean']:>9.2f} {win_rate_text(bot):>15} "
          f"{timing['p50_ms']:>8.0f} {timing['p95_ms']:>8.0f} "
          f"{data['run']['wall_seconds']:>7.0f}")
    sys.stdout.flush()


def _print_end(points: list[tuple[str, dict[str, Any]]],
               ends: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
    """The legend, and the rise from the first point to the last over ``ends`` (the two
    points' reports on the deals both played)."""
    print("margin: the three opponents' points per hand minus the level's (positive: the "
          "level took fewer); 95% t interval over deal sets; win/seat: games won a seat, with "
          "its 95% t interval over deal sets (an even share is 0.25)")
    if len(points) < 2:
        return
    low_label, high_label = points[0][0], points[-1][0]
    change = None if ends is None else rise(*ends)
    if ends is None or change is None:
        print(f"rise from {low_label} to {high_label}: not paired (the points played "
              "other deals)")
    else:
        print(f"rise from {low_label} to {high_label}, paired over the "
              f"{len(_level_bot(ends[0])['by_deal_set']['margin'])} deal sets both played "
              f"({ends[0]['run'].get('pooled', 1)} seeds): "
              f"{interval_text(change, 2, signed=True, bounds=True)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--target", type=positive_int, default=None,
                        help="game target (shorter games for a quick curve)")
    parser.add_argument("--budgets", type=positive_numbers, default=[0.05, 0.1, 0.2, 0.5, 1.0],
                        help="seconds a decision, comma-separated")
    parser.add_argument("--worlds", type=positive_ints, default=None,
                        help="worlds a decision instead of seconds, comma-separated")
    parser.add_argument("--level", type=level_name, default="expert")
    parser.add_argument("--options", default="", help="more level options, e.g. playout=heuristic")
    parser.add_argument("--opponent", type=bot_spec, default="normal")
    parser.add_argument("--deal-sets", type=positive_int, default=4,
                        help="deal sets per budget (4 games each, one per rotation)")
    parser.add_argument("--seed", type=seed_text, default="curve-1")
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--json-out", type=Path, default=None, metavar="DIR",
                        help="also write each point's arena report into this folder")
    parser.add_argument("--pool", nargs="+", type=Path, default=None, metavar="REPORT",
                        help="join the reports of earlier runs point by point instead of playing")
    args = parser.parse_args(argv)
    header = (f"{'point':>16} {'hands':>6} {'margin (95% CI)':>30} {'pts/hand':>9} "
              f"{'win/seat':>15} {'p50 ms':>8} {'p95 ms':>8} {'wall s':>7}")
    points: list[tuple[str, dict[str, Any]]] = []
    if args.pool is not None:
        try:
            reports = [read_report(path) for path in args.pool]
            pooled = pooled_points(reports)
            ends = paired_ends(reports)
        except (ValueError, KeyError, StopIteration) as exc:
            parser.error(f"--pool: {exc}")
        print(f"{len(args.pool)} reports pooled into {len(pooled)} points")
        print(header)
        for data in pooled:
            label = _level_bot(data)["bot"].partition(":")[2]
            points.append((label, data))
            _print_point(label, data)
        _print_end(points, ends)
        return 0
    rules: Rules = args.rules
    if args.target is not None:
        try:
            rules = rules.replace(target=args.target)
        except InvalidRulesError as exc:
            parser.error(f"argument --target: {exc}")
    unit, values = ("iterations", args.worlds) if args.worlds else ("budget", args.budgets)
    extra = f",{args.options}" if args.options else ""
    try:  # the level with its options, as each point makes it
        bot_spec(f"{args.level}:{unit}={point_text(values[0])}{extra}")
    except argparse.ArgumentTypeError as exc:
        parser.error(f"argument {'--options' if args.options else '--level'}: {exc}")
    print(f"{args.level}{extra} vs three {args.opponent}: rules {rules.text}, seed {args.seed}, "
          f"{args.deal_sets} deal sets a point, {args.workers} worker(s)")
    print(header)
    if args.json_out is not None:
        args.json_out.mkdir(parents=True, exist_ok=True)
    for number in values:
        value = point_text(number)
        spec = f"{args.level}:{unit}={value}{extra}"
        data = curve_point(rules, spec, args.opponent, args.deal_sets, args.seed, args.workers)
        points.append((f"{unit}={value}", data))
        _print_point(f"{unit}={value}", data)
        if args.json_out is not None:
            path = args.json_out / f"curve-{unit}-{value}-{args.seed}.json"
            path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    _print_end(points, (points[0][1], points[-1][1]) if points else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
