"""Two versions of a bot on the same deals: arena reports compared deal set by deal set.

A change to a player (an option, or other code, even a scratch copy of the tree) is
measured best on the very deals the unchanged player played: run both with the same
seeds (``hearts arena --json``, a benchmark's ``--json-out``), then give this script the
reports of each side. Each side's reports pool as ``hearts arena --pool`` pools them (one
code and lineup a side, no seed twice); the two sides must have played the same rules,
seeds and deal sets, but may differ in code and in the bot's spec. The bot compared is
the one in the first seat of each side's lineup. It prints each side's margin (the other
bots' points per hand minus the bot's), points per hand, win rate a seat and moons, and
the differences B minus A, paired over the deal sets, with 95% t intervals: the luck of
the cards cancels inside each pair, as in ``strength_paired.py``.

With ``--unpaired`` the sides need only the same rules: they may have played other seeds,
as a bot that does not repeat its games from a seed must (OpenSpiel's ISMCTS), and the
differences are of the two sides' means over their deal sets, with Welch's t intervals
(wider: the cards' luck no longer cancels).

    hearts arena --bot expert:iterations=300 --bot normal --rules standard --seed s1 \\
        --deal-sets 150 --json > a.json
    PYTHONPATH=/tmp/changed/src python -m hearts.cli.main arena ... --json > b.json
    .venv/bin/python benchmarks/compare_reports.py --a a.json --b b.json
    .venv/bin/python benchmarks/compare_reports.py --unpaired \\
        --a benchmarks/results/ismcts10k-expert-alarm-*.json --b ismcts10k-gw0-*.json
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hearts.arena import (
    ArenaError,
    code_text,
    interval_text,
    pool,
    read_report,
    seeds_text,
    t_interval,
    welch_interval,
)
from hearts.cli.common import existing_file

__all__ = ["FIGURES", "compare", "main"]

FIGURES = ("margin", "points_per_hand", "win_rate_per_seat")
"""The figures a report keeps deal set by deal set, and so the ones that pair."""


def _first_bot(data: dict[str, Any]) -> dict[str, Any]:
    """The figures of the bot in the first seat of a report's lineup."""
    spec = data["figures"]["lineup"][0]
    return next(bot for bot in data["figures"]["bots"] if bot["bot"] == spec)


def compare(a_reports: list[dict[str, Any]], b_reports: list[dict[str, Any]], *,
            paired: bool = True) -> dict[str, Any]:
    """Each side pooled, and B's first bot less A's, figure by figure: paired over the
    deal sets, or (not ``paired``) as a difference of the sides' means. ValueError,
    saying what differs, when a side does not pool or the sides did not play the same
    rules (and, paired, the same seeds and deal sets)."""
    sides = {}
    for name, reports in (("a", a_reports), ("b", b_reports)):
        try:
            sides[name] = pool(sorted(reports, key=lambda data: data["figures"]["seed"]))
        except ValueError as exc:
            raise ValueError(f"side {name.upper()}: {exc}") from None
    a, b = sides["a"]["figures"], sides["b"]["figures"]
    if a["rules"] != b["rules"]:
        raise ValueError(f"the sides played other rules ({a['rules']} and {b['rules']}): "
                         "their games do not compare")
    if paired:
        if a["seed"] != b["seed"]:
            raise ValueError(f"the sides played other seeds ({a['seed']} and {b['seed']}): "
                             "their deals do not pair")
        counts = [sorted((data["figures"]["seed"], data["figures"]["deal_sets"])
                         for data in side) for side in (a_reports, b_reports)]
        if counts[0] != counts[1]:
            raise ValueError(f"the sides played other deal sets of a seed ({counts[0]} and "
                             f"{counts[1]}): their deals do not pair")
    bots = {name: _first_bot(data) for name, data in sides.items()}
    differences = {}
    for figure in FIGURES:
        before, after = bots["a"]["by_deal_set"][figure], bots["b"]["by_deal_set"][figure]
        if paired:
            interval = t_interval([y - x for x, y in zip(before, after, strict=True)])
        else:
            interval = welch_interval(before, after)
        differences[figure] = interval.to_json()
    return {"a": sides["a"], "b": sides["b"], "bots": bots, "difference": differences,
            "paired": paired}


def _side_text(label: str, data: dict[str, Any], bot: dict[str, Any]) -> str:
    return (f"{label}: {bot['bot']} ({code_text(data)}): margin "
            f"{interval_text(bot['margin'], signed=True)}, "
            f"{interval_text(bot['points_per_hand'])} points a hand, "
            f"wins a seat {bot['win_rate_per_seat']:.3f}, "
            f"moons {bot['moons_shot']} shot and {bot['moons_allowed']} allowed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", nargs="+", required=True, type=existing_file, metavar="REPORT",
                        help="side A's arena reports (the baseline)")
    parser.add_argument("--b", nargs="+", required=True, type=existing_file, metavar="REPORT",
                        help="side B's arena reports, of the same seeds (but --unpaired)")
    parser.add_argument("--unpaired", action="store_true",
                        help="compare the sides' means (Welch's t): they may have played "
                             "other seeds")
    args = parser.parse_args(argv)
    try:
        result = compare([read_report(path) for path in args.a],
                         [read_report(path) for path in args.b], paired=not args.unpaired)
    except (ArenaError, ValueError) as exc:
        print(f"compare_reports: {exc}", file=sys.stderr)
        return 2
    a, b = result["a"]["figures"], result["b"]["figures"]
    if args.unpaired:
        print(f"{a['rules']}: A {a['deal_sets']} deal sets of {seeds_text(a)}, lineup "
              f"{' '.join(a['lineup'])}; B {b['deal_sets']} deal sets of {seeds_text(b)}, "
              f"lineup {' '.join(b['lineup'])}")
    else:
        print(f"{a['rules']}, {seeds_text(a)}: {a['deal_sets']} deal sets, lineup "
              f"{' '.join(a['lineup'])} (A), {' '.join(b['lineup'])} (B)")
    for side in ("a", "b"):
        print(_side_text(side.upper(), result[side], result["bots"][side]))
    how = "Welch's t, unpaired" if args.unpaired else "t over deal sets"
    for figure, interval in result["difference"].items():
        print(f"B - A, {figure.replace('_', ' ')}: "
              f"{interval_text(interval, signed=True, bounds=True)} (95% {how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
