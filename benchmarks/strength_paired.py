"""Is one bot stronger than another? Their points per hand compared deal set by deal set.

Seats ``--a`` and ``--b`` at one table with ``--opponent`` in the other seats (or, with
no opponent, two seats each), plays every rotation of each duplicate deal set with the
arena, and prints the difference in points per hand (b's minus a's: positive when ``a``
took fewer) with a 95% t interval over deal sets. Both bots hold every hand of a deal
set against the same opponents, so the luck of the cards cancels inside each sample;
the interval is narrower than the two bots' separate margins would give. Each bot's
decision times (p50, p95 and mean wall time) are printed beside it, so a comparison at
equal time can be read off.

``--json-out`` also writes the run (its deal sets' samples, the code that played:
:func:`hearts.arena.match.playing_code`) to a file, and ``--pool`` joins such files of
one comparison on different seeds into one interval over all their deal sets, refusing
runs of other bots, rules or code. Runs too long for one sitting add up this way; the
runs kept in ``benchmarks/results/`` do so across sessions.

    .venv/bin/python benchmarks/strength_paired.py --a expert --b hard --deal-sets 4
    .venv/bin/python benchmarks/strength_paired.py --a expert:iterations=400 \\
        --b expert:iterations=400,trust=1 --opponent normal --deal-sets 20 --target 50
    .venv/bin/python benchmarks/strength_paired.py --a expert --b hard --opponent normal \\
        --rules standard:rounds=8 --deal-sets 10 --seed real-1 --json-out real-1.json
    .venv/bin/python benchmarks/strength_paired.py --pool real-1.json real-2.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts.arena import MatchConfig, run_match
from hearts.arena.match import first_code
from hearts.arena.stats import Interval, interval_text, t_interval
from hearts.cli.cmd_arena import lineup
from hearts.cli.common import bot_spec, positive_int, rules_text, seed_text
from hearts.core import InvalidRulesError, Rules, read_json

__all__ = ["PAIRED_FORMAT", "Paired", "main", "paired_difference", "pool", "run_json"]

PAIRED_FORMAT = "card-commons-hearts/paired"
# What must be the same for runs to pool: the comparison itself, and code that plays alike.
_SAME = ("code", "a", "b", "opponent", "rules")


@dataclass(frozen=True, slots=True)
class Paired:
    """What a paired match found: b's points per hand minus a's over deal sets (and each
    deal set's value, to pool runs), the hands each bot played, the games, the wall
    time, each bot's decision times (p50, p95, mean in ms) and the code that played."""

    difference: Interval
    samples: tuple[float, ...]
    hands: int
    games: int
    wall_seconds: float
    times: dict[str, tuple[float, float, float]]
    code: str


def paired_difference(rules: Rules, a: str, b: str, opponent: str | None, deal_sets: int,
                      seed: str, workers: int) -> Paired:
    """Per deal set, b's points per hand minus a's; with both bots' hands and times."""
    seats = lineup((a, b) if opponent is None else (a, b, opponent, opponent), rules.players)
    result = run_match(MatchConfig(rules, seats, deal_sets, seed), workers=workers,
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
    hands = sum(len(by_bot[a]) for by_bot in points.values()) // seats.count(a)
    return Paired(t_interval(samples), tuple(samples), hands, len(result.outcomes),
                  result.wall_seconds,
                  {bot: _percentiles(times) for bot, times in seconds.items()}, result.code)


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


def run_json(rules: Rules, a: str, b: str, opponent: str | None, seed: str,
             data: Paired) -> dict[str, Any]:
    """A run as JSON: what was compared, by which code, and its deal sets' samples."""
    return {"format": PAIRED_FORMAT, "code": data.code, "a": a, "b": b,
            "opponent": opponent, "rules": rules.text, "seeds": [seed],
            "samples": list(data.samples), "hands": data.hands, "games": data.games,
            "wall_seconds": round(data.wall_seconds, 1),
            "times": {bot: list(times) for bot, times in data.times.items()},
            "machine": {"cpus": os.cpu_count(), "load": [round(x, 2) for x in os.getloadavg()]}}


def pool(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs of one comparison on different seeds as one: their samples joined, each
    bot's times over all runs (:func:`_pooled_times`). ValueError, saying which, for
    anything else."""
    if not runs:
        raise ValueError("nothing to pool: give at least one run")
    first = runs[0]
    seeds: list[str] = []
    for run in runs:
        if not isinstance(run, dict) or run.get("format") != PAIRED_FORMAT:
            raise ValueError(f"not a paired run (its format is not {PAIRED_FORMAT!r})")
        for key in _SAME:
            same = (first_code(run[key]) == first_code(first[key]) if key == "code"
                    else run[key] == first[key])
            if not same:
                raise ValueError(f"only runs of one {key} pool: {run[key]!r} is not "
                                 f"{first[key]!r}")
        for seed in run["seeds"]:
            if seed in seeds:
                raise ValueError(f"seed {seed!r} appears twice: its deals would count twice")
            seeds.append(seed)
    return {**first, "seeds": seeds, "samples": [x for run in runs for x in run["samples"]],
            **{key: sum(run[key] for run in runs) for key in ("hands", "games", "wall_seconds")},
            "times": _pooled_times(runs), "machine": [run["machine"] for run in runs]}


def _pooled_times(runs: list[dict[str, Any]]) -> dict[str, tuple[float, float, float]]:
    """Each bot's decision times over runs that kept only their percentiles: the largest
    of the runs' percentiles (an upper bound, as the arena pools them) and the mean
    weighted by each run's hands (the decisions a hand hardly vary)."""
    hands = sum(run["hands"] for run in runs)
    return {bot: (max(run["times"][bot][0] for run in runs),
                  max(run["times"][bot][1] for run in runs),
                  sum(run["hands"] * run["times"][bot][2] for run in runs) / hands)
            for bot in runs[0]["times"]}


def _print(run: dict[str, Any]) -> None:
    advantage = interval_text(t_interval(run["samples"]).to_json(), signed=True, bounds=True)
    opponent = run["opponent"]
    print(f"{run['a']} vs {run['b']}" + (f" with two {opponent}" if opponent else "")
          + f": rules {run['rules']}, seed {' '.join(run['seeds'])}, code {run['code']}, "
          f"{len(run['samples'])} deal sets, {run['games']} games, {run['hands']} hands "
          f"each, {run['wall_seconds']:.0f} s")
    print(f"  advantage of a (b's points per hand minus a's): {advantage}, "
          "95% t interval over deal sets")
    of_runs = " (largest run's)" if len(run["seeds"]) > 1 else ""
    for bot, (p50, p95, mean) in run["times"].items():
        print(f"  {bot}: decision p50 {p50:.0f} ms{of_runs}, p95 {p95:.0f} ms{of_runs}, "
              f"mean {mean:.1f} ms")
    print("  per deal set: " + " ".join(f"{x:+.3f}" for x in run["samples"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=bot_spec, help="bot spec whose advantage is measured")
    parser.add_argument("--b", type=bot_spec, help="bot spec it is compared with")
    parser.add_argument("--opponent", type=bot_spec, default=None,
                        help="bot spec in the other two seats (default: none, two seats each)")
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--target", type=positive_int, default=None, help="game target")
    parser.add_argument("--deal-sets", type=positive_int, default=10)
    parser.add_argument("--seed", type=seed_text, default="paired-1")
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--json-out", type=Path, default=None, help="also write the run here")
    parser.add_argument("--pool", nargs="+", type=Path, default=None, metavar="RUN",
                        help="join runs written by --json-out instead of playing")
    args = parser.parse_args(argv)
    if args.pool is not None:
        try:
            run = pool([read_json(path.read_bytes()) for path in args.pool])
        except (OSError, ValueError, KeyError) as exc:  # ValueError: pool's, read_json's
            parser.error(f"--pool: {exc}")
        _print(run)
        return 0
    if not (args.a and args.b):
        parser.error("give the two bots (--a SPEC --b SPEC), or --pool RUN ...")
    rules: Rules = args.rules
    if args.target is not None:
        try:
            rules = rules.replace(target=args.target)
        except InvalidRulesError as exc:
            parser.error(f"argument --target: {exc}")
    data = paired_difference(rules, args.a, args.b, args.opponent, args.deal_sets,
                             args.seed, args.workers)
    print(file=sys.stderr)
    run = run_json(rules, args.a, args.b, args.opponent, args.seed, data)
    _print(run)
    if args.json_out:
        args.json_out.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
