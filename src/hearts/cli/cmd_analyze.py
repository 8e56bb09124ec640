"""``hearts analyze``: a game report from the search, like a chess engine's, for Hearts.

Reads a record with the shared readers of ``hearts replay``, judges every decision of
the chosen seats with :func:`hearts.players.analysis.analyze`, and prints each seat's
accuracy, points lost, marks and costliest decisions (or every figure as JSON).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from hearts.cli.cmd_replay import read_records, read_text, replay_record
from hearts.cli.common import (
    CommandLineError,
    games_progress,
    positive_int,
    positive_number,
    seed_text,
)
from hearts.core import Card, read_whole_number, seat_name
from hearts.players import PlayerError
from hearts.wording import counted

__all__ = ["configure", "run"]


def _seat_list(text: str) -> list[int]:
    """An argparse type: seat numbers from 0, separated by commas."""
    read = [read_whole_number(part) for part in text.split(",")]
    seats = [seat for seat in read if seat is not None and seat >= 0]
    if len(seats) != len(read):
        raise argparse.ArgumentTypeError(
            f"seats are numbers from 0 separated by commas, e.g. 0,2; not {text!r}")
    return seats


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``analyze`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    from hearts.players.analysis import BLUNDER, DEFAULT_ITERATIONS, INACCURACY, MISTAKE

    parser.description = (
        "Judge every decision of a game record with the expert search, from each seat's "
        "own view: the action taken against the best one and the points it gave up, then "
        "each seat's accuracy and its three most costly decisions.")
    parser.epilog = (
        f"Marks by points lost (the search's utility: the others' average points minus "
        f"mine, plus the round's worth for winning the game, each 1% of chance to win the "
        f"game counted as 1 point, so a loss can exceed a round's 26 points): under "
        f"{INACCURACY:g} fine; "
        f"from {INACCURACY:g} an inaccuracy; from {MISTAKE:g} a mistake; from "
        f"{BLUNDER:g} a blunder. Accuracy: the share of decisions with a choice that were "
        "fine (forced ones do not count). With --seed the report is reproducible: each "
        "decision samples a fixed number of deals, whatever --workers.")
    parser.add_argument("file", metavar="FILE",
                        help="the game or hand record (JSON, or JSON lines of records); "
                             "- reads standard input")
    parser.add_argument("--seats", type=_seat_list, metavar="S1,S2,...",
                        help="seats to judge, from 0 (default: the people, as the record's "
                             "seat names show them; every seat if the names do not say)")
    parser.add_argument("--seed", type=seed_text, metavar="SEED",
                        help="judge reproducibly: fixed deals a decision from this seed")
    parser.add_argument("--iterations", type=positive_int, metavar="N",
                        help=f"deals sampled a decision (default with --seed: "
                             f"{DEFAULT_ITERATIONS}; without: the expert's time budget)")
    parser.add_argument("--budget", type=positive_number, metavar="SECONDS",
                        help="time a decision without --seed or --iterations "
                             "(default: the expert's)")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="N",
                        help="processes judging side by side (default: 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Analyse each record of the file; print the reports (text or JSON)."""
    from hearts.core import InvalidRecordError
    from hearts.players.analysis import analyze

    label = "<stdin>" if args.file == "-" else args.file
    records = read_records(read_text(args.file))
    reports: list[dict[str, Any]] = []
    for where, data in records:
        named = label if where is None else f"{label}: {where}"
        try:
            replay_record(data)
        except InvalidRecordError as exc:
            raise CommandLineError(f"{named}: invalid record: {exc}") from None
        assert not isinstance(data, InvalidRecordError)
        with games_progress(args.quiet, "decisions") as progress:
            try:
                result = analyze(data, args.seats, seed=args.seed, iterations=args.iterations,
                                 budget_s=args.budget, workers=args.workers,
                                 progress=progress)
            except PlayerError as exc:
                raise CommandLineError(f"{named}: {exc}") from None
        report = {"record": named, **result.to_json()}
        reports.append(report)
        if not args.json:
            print("\n".join(text_report(report)))
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, ensure_ascii=False,
                         indent=1))
    return 0


def text_report(report: dict[str, Any]) -> list[str]:
    """The report of one record as lines of text."""
    how = (f"{report['iterations']} deals a decision" if report["iterations"] is not None
           else "the expert's time budget a decision")
    seed = f", seed {report['seed']}" if report["seed"] is not None else ""
    lines = [f"{report['record']}: {report['rules']}, judged by {report['judge']} "
             f"({how}{seed})"]
    decisions = report["decisions"]
    for summary in report["summaries"]:
        lines.append("")
        seat, name = summary["seat"], summary["name"]
        named = f" ({name})" if name != seat_name(seat) else ""  # a record's own name
        lines.append(f"Seat {seat}{named}: {_accuracy(summary)}, "
                     f"{summary['points_lost']:.1f} points lost; "
                     f"{_marks(summary)}")
        worst = [decisions[i] for i in summary["worst"]]
        if worst:
            lines.append("  Most costly:")
            lines.extend(f"    {_decision_line(d)}" for d in worst)
        flagged = [d for d in decisions if d["seat"] == summary["seat"] and d["verdict"]
                   and d["index"] not in summary["worst"]]
        if flagged:
            lines.append("  Also marked:")
            lines.extend(f"    {_decision_line(d)}" for d in flagged)
    return lines


def _accuracy(summary: dict[str, Any]) -> str:
    if summary["accuracy"] is None:
        return f"no decision with a choice ({summary['decisions']} forced)"
    good = round(summary["accuracy"] * summary["with_choice"])
    return (f"accuracy {100 * summary['accuracy']:.0f}% ({good} of "
            f"{summary['with_choice']} decisions with a choice)")


def _marks(summary: dict[str, Any]) -> str:
    counts = [(summary["inaccuracies"], "inaccuracy", "inaccuracies"),
              (summary["mistakes"], "mistake", "mistakes"),
              (summary["blunders"], "blunder", "blunders")]
    return ", ".join(counted(n, one, many) for n, one, many in counts)


def _decision_line(decision: dict[str, Any]) -> str:
    where = f"round {decision['round']}"
    if decision["trick"] is not None:
        where += f", trick {decision['trick']}"
    kind = decision["kind"]
    verb = {"play": "played", "pass": "passed", "moon": "chose"}[kind]
    mark = f" ({decision['verdict']})" if decision["verdict"] else ""
    return (f"{where}: {verb} {_shown(kind, decision['taken'])}, best "
            f"{_shown(kind, decision['best'])}: {decision['loss']:.1f} points lost{mark}; "
            f"expected points {decision['taken_points']:.1f} against "
            f"{decision['best_points']:.1f}")


def _shown(kind: str, action: str | Sequence[str]) -> str:
    if kind == "moon":
        return str(action)
    names = [action] if isinstance(action, str) else list(action)
    return " ".join(Card(name).pretty for name in names)

