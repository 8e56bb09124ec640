"""Strength and decision-time targets of the computer players, measured with the arena.

Every figure comes from ``hearts.arena`` matches on duplicate deals (each deal set
replayed with the bots rotated so each holds each hand), 4 players, in ``standard``
and ``card-commons``, with games to the rules' target. Each line prints the hands
played, the per-bot points per hand and the margin with 95% t intervals over deal
sets, and the time budget per decision as the level defines it.

Targets (issue 3):
  (a) rule-based vs three random: the rule-based bot takes <= 3.5 points per hand;
  (b) search vs three rule-based: its margin (their mean minus its points per hand)
      is >= 1.5;
  (d) decision time, the level at one seat, one worker (one core): p95 <= 1 s for
      expert, <= 50 ms for easy and normal. The verdict is on wall time; CPU time is
      printed beside it, since a machine shared with other work inflates wall time.
  (c), against OpenSpiel's ISMCTS, is ``benchmarks/openspiel_ismcts.py``.

    .venv/bin/python benchmarks/strength.py a --deal-sets 100
    .venv/bin/python benchmarks/strength.py b --search expert --deal-sets 20
    .venv/bin/python benchmarks/strength.py d --levels easy,normal,expert

A verdict says ``met`` when the mean meets the target and ``met (95%)`` when the
whole interval does. Levels that are not installed are skipped and named.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from hearts.arena import MatchConfig, interval_text, report, run_match, target_verdict
from hearts.arena.specs import BotSpec
from hearts.cli.common import (
    bot_spec,
    comma_list,
    positive_int,
    rules_text,
    seed_text,
    usable_cpus,
)
from hearts.core import Rules
from hearts.players.levels import LEVELS

__all__ = ["TARGETS", "main", "measure"]

PRESETS = ("standard", "card-commons")


def measure(rules: Rules, lineup: tuple[str, ...], deal_sets: int, seed: str,
            workers: int) -> dict[str, Any]:
    """One arena match's report."""
    config = MatchConfig(rules, lineup, deal_sets, seed)
    return report(run_match(config, workers=workers))


def _installed(spec: str) -> bool:
    return BotSpec.parse(spec).kind in LEVELS


def _bot(data: dict[str, Any], label: str) -> dict[str, Any]:
    return next(b for b in data["figures"]["bots"] if b["bot"] == label)


def _interval(value: dict[str, Any]) -> str:
    return f"{interval_text(value, bounds=True)}, 95% t over {value['samples']} deal sets"


def _line(name: str, rules: Rules, data: dict[str, Any]) -> str:
    figures = data["figures"]
    return (f"[{name}] {rules.text}: {figures['hands']} hands, {figures['games']} games, "
            f"{figures['deal_sets']} deal sets, seed {figures['seed']}, "
            f"{data['run']['workers']} workers, {data['run']['wall_seconds']:.0f} s")


def target_a(args: argparse.Namespace, out: list[dict[str, Any]]) -> None:
    """Rule-based vs three random: <= 3.5 points per hand."""
    for level in args.rule_based:
        if not _installed(level):
            print(f"[a] {level}: not installed, skipped")
            continue
        for rules in args.presets:
            data = measure(rules, (level, "random", "random", "random"), args.deal_sets,
                           args.seed, args.workers)
            bot = _bot(data, level)
            per_hand = bot["points_per_hand"]
            print(_line("a", rules, data))
            verdict = target_verdict(per_hand["mean"], per_hand["low"], per_hand["high"], 3.5,
                                     at_most=True)
            print(f"    {level}: {_interval(per_hand)} points per hand; target <= 3.5: {verdict}"
                  f"; p95 decision {data['timing'][level]['p95_ms']:.2f} ms")
            out.append({"target": "a", "rules": rules.text, "bot": level, "report": data})


def target_b(args: argparse.Namespace, out: list[dict[str, Any]]) -> None:
    """Search vs three rule-based: margin >= 1.5 points per hand."""
    opponent = args.rule_based[-1]
    for search in args.search:
        if not _installed(search) or not _installed(opponent):
            print(f"[b] {search} vs {opponent}: not installed, skipped")
            continue
        for rules in args.presets:
            data = measure(rules, (search, opponent, opponent, opponent), args.deal_sets,
                           args.seed, args.workers)
            bot = _bot(data, search)
            margin = bot["margin"]
            timing = data["timing"][search]
            print(_line("b", rules, data))
            print(f"    {search}: {_interval(bot['points_per_hand'])} points per hand; "
                  f"{opponent}: {_interval(_bot(data, opponent)['points_per_hand'])}")
            print(f"    margin {_interval(margin)}; target >= 1.5: "
                  f"{target_verdict(margin['mean'], margin['low'], margin['high'], 1.5)}; "
                  f"{search} decisions p50 {timing['p50_ms']:.0f} ms, "
                  f"p95 {timing['p95_ms']:.0f} ms")
            out.append({"target": "b", "rules": rules.text, "bot": search, "report": data})


def target_d(args: argparse.Namespace, out: list[dict[str, Any]]) -> None:
    """Decision time on one core: p95 <= 1 s (expert), <= 50 ms (easy, normal)."""
    limits = {"easy": 50.0, "normal": 50.0, "expert": 1000.0}
    for level in args.levels:
        if not _installed(level):
            print(f"[d] {level}: not installed, skipped")
            continue
        kind = BotSpec.parse(level).kind
        for rules in args.presets:
            # the level at one seat, fast rule-based (or random) players at the others
            others = "normal" if "normal" in LEVELS and kind != "normal" else "random"
            data = measure(rules, (level, others, others, others), args.timing_deal_sets,
                           args.seed, 1)
            timing = data["timing"][level]
            limit = limits.get(kind)
            verdict = "" if limit is None else (
                f"; target p95 <= {limit:g} ms: "
                f"{'met' if timing['p95_ms'] <= limit else 'NOT met'}")
            print(_line("d", rules, data))
            cpu = timing["cpu"]
            print(f"    {level}: {timing['decisions']} decisions, wall mean "
                  f"{timing['mean_ms']:.2f} ms, p50 {timing['p50_ms']:.2f} ms, p95 "
                  f"{timing['p95_ms']:.2f} ms, max {timing['max_ms']:.2f} ms{verdict}")
            print(f"    {level}: CPU time mean {cpu['mean_ms']:.2f} ms, "
                  f"p50 {cpu['p50_ms']:.2f} ms, p95 {cpu['p95_ms']:.2f} ms, "
                  f"max {cpu['max_ms']:.2f} ms; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
            out.append({"target": "d", "rules": rules.text, "bot": level, "report": data})


TARGETS = {"a": target_a, "b": target_b, "d": target_d}


def _target(text: str) -> str:
    """An argparse type: the letter of one of :data:`TARGETS`."""
    if text not in TARGETS:
        raise argparse.ArgumentTypeError(
            f"unknown target {text!r}; targets are {', '.join(TARGETS)}")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", type=_target, default=list(TARGETS),
                        help="which targets to measure: a, b, d (default: all three)")
    # split at every comma, as before: a spec in these lists carries one option at most
    specs = comma_list(bot_spec)
    parser.add_argument("--presets", type=comma_list(rules_text), default=",".join(PRESETS))
    parser.add_argument("--rule-based", type=specs, default="easy,normal",
                        help="rule-based levels for (a); the last is the opponent in (b)")
    parser.add_argument("--search", type=specs, default="hard,expert",
                        help="search levels for (b), options allowed (expert:budget=0.5)")
    parser.add_argument("--levels", type=specs, default="easy,normal,hard,expert",
                        help="levels whose decision time (d) measures")
    parser.add_argument("--deal-sets", type=positive_int, default=50,
                        help="deal sets per match for (a) and (b) (4 games each)")
    parser.add_argument("--timing-deal-sets", type=positive_int, default=2,
                        help="deal sets per timing match (d), played on one worker")
    parser.add_argument("--seed", type=seed_text, default="strength-1")
    parser.add_argument("--workers", type=positive_int, default=usable_cpus(),
                        help="worker processes (default: one per CPU this process may use)")
    parser.add_argument("--json-out", default=None, help="also write every report to this file")
    args = parser.parse_args(argv)
    out: list[dict[str, Any]] = []
    for name in args.targets:
        TARGETS[name](args, out)
        sys.stdout.flush()
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as file:
            json.dump(out, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
