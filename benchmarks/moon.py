"""Moon defence: how often each level lets an attacker shoot the moon, with the arena.

For every defending level and every attacker, one arena match seats three defenders and
one attacker on duplicate deals (every rotation, so the attacker holds every seat's
cards), games to the rules' target. Printed per pairing: the hands played, the moons the
attacker shot as a share of hands with a 95% Wilson interval (the target is at most 3%),
the moons the defenders shot, and the defenders' and the attacker's points per hand
with 95% t intervals over deal sets. Attackers: ``shooter`` (goes for the moon whenever
it plausibly can) and ``expert``. Search levels sample a fixed number of worlds a
decision (``--iterations``), so the figures do not depend on the machine's load.

    .venv/bin/python benchmarks/moon.py --deal-sets 10
    .venv/bin/python benchmarks/moon.py --defenders normal --attackers shooter --deal-sets 100

``--records DIR`` keeps every game of each pairing as JSON lines, one file a pairing
(``DIR/normal-vs-expert.jsonl``, as ``hearts arena --records`` writes them), for
``hearts replay`` and ``hearts analyze``: the hands where a moon got through are the
evidence for a defence. ``--json-out DIR`` writes each pairing's arena report
(``DIR/moon-normal-vs-expert-SEED.json``), and ``--pool REPORT ...`` joins the reports of
earlier runs (other seeds, other sittings) pairing by pairing instead of playing, as
``hearts arena --pool`` does: only runs of one code digest, or of codes that play alike,
pool.

    .venv/bin/python benchmarks/moon.py --deal-sets 30 --seed moon-2 --json-out runs
    .venv/bin/python benchmarks/moon.py --pool runs/moon-*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scipy.stats import binomtest

from hearts.arena import (
    MatchConfig,
    interval_text,
    pool_by,
    read_report,
    report,
    run_match,
    target_verdict,
)
from hearts.cli.common import level_list, positive_int, rules_text, seed_text, write_lines
from hearts.core import Rules

__all__ = ["main", "moon_row", "pairing_report", "pooled_pairings"]

_SEARCH = ("hard", "expert")
_TARGET = 0.03


def _spec(level: str, iterations: int) -> str:
    return f"{level}:iterations={iterations}" if level in _SEARCH else level


def pairing_report(rules: str, defender: str, attacker: str, deal_sets: int, seed: str,
                   iterations: int, workers: int,
                   records: Path | None = None) -> dict[str, Any]:
    """One pairing's arena report: three ``defender`` seats against one ``attacker`` (its
    games written to ``records``/DEFENDER-vs-ATTACKER.jsonl when given)."""
    defence = _spec(defender, iterations)
    # the same level on both sides needs two spec texts for the arena to tell them apart:
    # a tag, which changes nothing in the player
    attack = _spec(attacker, iterations) + ("#attacker" if attacker == defender else "")
    config = MatchConfig(Rules.parse(rules), (defence, defence, defence, attack), deal_sets, seed,
                         keep_records=records is not None)
    result = run_match(config, workers=workers)
    if records is not None:
        write_lines(records / f"{defender}-vs-{attacker}.jsonl", result.record_lines())
    return report(result)


def moon_row(data: dict[str, Any]) -> dict[str, Any]:
    """A pairing's figures from its arena report (one run's or a pool's): hands, moons shot
    by the attacker (the bot of one seat) with a 95% Wilson interval and by the
    defenders, points per hand of each side."""
    figures = data["figures"]
    attack = next(bot for bot in figures["bots"] if bot["seats"] == 1)
    defence = next(bot for bot in figures["bots"] if bot["seats"] != 1)
    hands = figures["hands"]
    shot = attack["moons_shot"]
    interval = binomtest(shot, hands).proportion_ci(confidence_level=0.95, method="wilson")
    return {"defender": defence["bot"], "attacker": attack["bot"], "hands": hands,
            "deal_sets": figures["deal_sets"], "moons_allowed": shot, "share": shot / hands,
            "low": interval.low, "high": interval.high,
            "defender_moons": defence["moons_shot"],
            "defender_points": defence["points_per_hand"],
            "attacker_points": attack["points_per_hand"],
            "seconds": data["run"]["wall_seconds"]}


def pooled_pairings(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reports of several runs grouped by pairing (the match's lineup) and pooled, each
    pairing's runs in seed order, the pairings in the order they first appear.
    ArenaError (a ValueError) from :func:`hearts.arena.pool` when runs of one pairing do
    not pool."""
    return list(pool_by(reports, lambda data: tuple(data["figures"]["lineup"])).values())


def _print_row(row: dict[str, Any]) -> None:
    share = f"{row['moons_allowed']} = {row['share']:.1%} ({row['low']:.1%}-{row['high']:.1%})"
    verdict = target_verdict(row["share"], row["low"], row["high"], _TARGET, at_most=True)
    print(f"{row['defender']:26} {row['attacker']:32} {row['hands']:>6} {share:>26} "
          f"{row['defender_moons']:>4} {interval_text(row['defender_points'], 2):>18} "
          f"{interval_text(row['attacker_points'], 2):>18} {verdict:>9}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--defenders", type=level_list, default="normal,hard,expert")
    parser.add_argument("--attackers", type=level_list, default="shooter,expert")
    parser.add_argument("--deal-sets", type=positive_int, default=10,
                        help="deal sets per pairing (4 games each, one per rotation)")
    parser.add_argument("--iterations", type=positive_int, default=200,
                        help="worlds a search decision samples")
    parser.add_argument("--seed", type=seed_text, default="moon-1")
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--records", type=Path, default=None, metavar="DIR",
                        help="write each pairing's game records to DIR")
    parser.add_argument("--json-out", type=Path, default=None, metavar="DIR",
                        help="also write each pairing's arena report to "
                             "DIR/moon-DEFENDER-vs-ATTACKER-SEED.json")
    parser.add_argument("--pool", nargs="+", type=Path, default=None, metavar="REPORT",
                        help="join the reports of earlier runs pairing by pairing instead "
                             "of playing")
    args = parser.parse_args(argv)
    header = (f"{'defender':26} {'attacker':32} {'hands':>6} {'moons allowed (95% CI)':>26} "
              f"{'own':>4} {'defender pts/hand':>18} {'attacker pts/hand':>18} {'verdict':>9}")
    footer = ("own: moons the defenders shot; points per hand: mean ± 95% t half-width over "
              "deal sets")
    if args.pool is not None:
        try:
            reports = [read_report(path) for path in args.pool]
            rows = [moon_row(data) for data in pooled_pairings(reports)]
        except (ValueError, KeyError, StopIteration) as exc:
            parser.error(f"--pool: {exc}")
        print(f"{len(args.pool)} reports pooled into {len(rows)} pairings; target: moons "
              f"allowed <= {_TARGET:.0%} of hands")
        print(header)
        for row in rows:
            _print_row(row)
        print(footer)
        return 0
    rules: str = args.rules.text
    print(f"rules {rules}, seed {args.seed}, {args.deal_sets} deal sets a pairing, "
          f"search levels at {args.iterations} worlds a decision; three defenders, one "
          f"attacker; target: moons allowed <= {_TARGET:.0%} of hands")
    print(header)
    for defender in args.defenders:
        for attacker in args.attackers:
            data = pairing_report(rules, defender, attacker, args.deal_sets, args.seed,
                                  args.iterations, args.workers, args.records)
            if args.json_out is not None:
                args.json_out.mkdir(parents=True, exist_ok=True)
                path = args.json_out / f"moon-{defender}-vs-{attacker}-{args.seed}.json"
                path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            _print_row(moon_row(data))
    print(footer)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
