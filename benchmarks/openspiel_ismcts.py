"""Target (c): our search player against OpenSpiel's ISMCTS bot, two seats each.

OpenSpiel (``pip install open-spiel``) plays through the adapter in
``hearts.arena.openspiel`` (bot spec ``ismcts``): its C++ ``ISMCTSBot`` with a
random-rollout evaluator, 1,000 simulations a decision, unlimited world samples,
the most visited action chosen. The match is an arena match in our ``standard``
preset on duplicate deals (each deal set replayed with the two bots swapped), 4
players, whole games to 100; the target is a margin (ISMCTS's points per hand
minus ours) of at least 1.0 with its 95% interval.

Rules: OpenSpiel's ``hearts`` defaults (pass_cards, no_pts_on_first_trick,
must_break_hearts, qs_breaks_hearts on; can_lead_any_club, jd_bonus,
avoid_all_tricks_bonus, can_lead_hearts_instead_of_qs off) play each hand exactly as
``standard`` does: 2♣ leads, no hearts or Q♠ on trick one unless the hand holds only
those, hearts led once a heart or Q♠ has been played (or only hearts are held), moon
= shooter 0 and +26 to the others. Differences: OpenSpiel plays one hand and draws
its pass direction at random, so the adapter sets the direction of the round
(left, right, across, hold) and ISMCTS plays every hand for its own points, blind
to the game totals; its resampler ignores the suits a seat has shown void.
OpenSpiel's ISMCTS does not repeat its choices from a seed, so reruns vary.

``--pool REPORT ...`` joins the reports of earlier runs (``--json-out``; other seeds,
other sittings) instead of playing, as ``hearts arena --pool`` does, and prints the
pooled margin against the target with each side's decision times.

    .venv/bin/python benchmarks/openspiel_ismcts.py --search expert --deal-sets 10
    .venv/bin/python benchmarks/openspiel_ismcts.py --search normal --deal-sets 4  # baseline
    # issue 12's target: a margin of at least 2.5 against ISMCTS at 10,000 simulations
    .venv/bin/python benchmarks/openspiel_ismcts.py --simulations 10000 --target 2.5
    .venv/bin/python benchmarks/openspiel_ismcts.py --target 2.5 \\
        --pool benchmarks/results/ismcts10k-expert-alarm-*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hearts.arena import (
    MatchConfig,
    format_report,
    interval_text,
    pool,
    read_report,
    report,
    run_match,
    target_verdict,
)
from hearts.cli.common import (
    bot_spec,
    existing_file,
    non_negative_number,
    positive_int,
    positive_number,
    rules_text,
    seed_text,
    usable_cpus,
)

__all__ = ["main", "target_line"]


def target_line(data: dict[str, Any], target: float) -> str:
    """The target's line for a report of one run or a pool: our bot (the lineup's first)
    against ISMCTS (its second), the hands, the margin and its verdict, and each side's
    decision times (p95 of wall time, the budget a player feels)."""
    figures = data["figures"]
    ours, theirs = figures["lineup"][:2]
    margin = next(b for b in figures["bots"] if b["bot"] == ours)["margin"]
    verdict = target_verdict(margin["mean"], margin["low"], margin["high"], target)
    times = ", ".join(f"{bot} {data['timing'][bot]['p95_ms']:.0f} ms" for bot in (ours, theirs))
    return (f"[c] {ours} vs {theirs} in {figures['rules']}: {figures['deal_sets']} deal sets, "
            f"{figures['hands']} hands; margin {interval_text(margin, bounds=True)} points per "
            f"hand (95% t over deal sets); target >= {target:g}: {verdict}; decision p95 "
            f"{times}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--search", type=bot_spec, default="expert",
                        help="our bot spec, e.g. expert or expert:budget=0.5 (default: expert)")
    parser.add_argument("--sims", "--simulations", type=positive_int, default=1000,
                        help="ISMCTS simulations a decision (the issue's target: 10000)")
    parser.add_argument("--target", type=non_negative_number, default=1.0,
                        help="the margin to beat (1.0 at 1,000 simulations; the issue asks "
                             "2.5 at 10,000)")
    parser.add_argument("--uct", type=positive_number, default=5.0,
                        help="ISMCTS exploration constant (5, as in OpenSpiel's own ISMCTS test)")
    parser.add_argument("--deal-sets", type=positive_int, default=10,
                        help="deal sets (each played twice, the bots swapped)")
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--seed", type=seed_text, default="ismcts-1")
    parser.add_argument("--workers", type=positive_int, default=usable_cpus(),
                        help="worker processes (default: one per CPU this process may use)")
    parser.add_argument("--json-out", default=None, help="also write the report to this file")
    parser.add_argument("--pool", nargs="+", type=existing_file, default=None,
                        metavar="REPORT", help="join the reports of earlier runs instead of "
                                               "playing")
    args = parser.parse_args(argv)
    if args.pool is not None:
        try:
            data = pool([read_report(path) for path in args.pool])
        except ValueError as exc:
            parser.error(f"--pool: {exc}")
        print(format_report(data))
        print(f"\n{target_line(data, args.target)}")
        return 0
    ismcts = f"ismcts:sims={args.sims},uct={args.uct:g}"
    config = MatchConfig(args.rules, (args.search, ismcts, args.search, ismcts),
                         args.deal_sets, args.seed)
    data = report(run_match(config, workers=args.workers))
    print(format_report(data))
    print(f"\n{target_line(data, args.target)}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
