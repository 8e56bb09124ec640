"""``hearts analyze``: a game report from the search, like a chess engine's, for Hearts.

Reads a record with the shared readers of ``hearts replay``, checks every record of the
file (:func:`hearts.players.analysis.plan_analysis`) before judging any, judges every
decision of the chosen seats, and prints each seat's accuracy, points lost, marks and
costliest decisions in 80 columns (or every figure as JSON).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Sequence
from typing import Any

from hearts.cli.cmd_replay import (
    read_records,
    read_text,
    record_label,
    refuse_non_record,
    replay_record,
)
from hearts.cli.common import (
    CommandLineError,
    games_progress,
    positive_int,
    positive_number,
    seed_text,
    worker_count,
)
from hearts.core import Card, read_whole_number
from hearts.players import PlayerError
from hearts.wording import counted

__all__ = ["configure", "run"]

WIDTH = 80
"""The columns of the text report."""


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
        "decision samples a fixed number of deals from its own seed, whatever --workers "
        "and whichever other --seats are judged.")
    parser.add_argument("file", metavar="RECORD",
                        help="the game or hand record (JSON, or JSON lines of records); "
                             "- reads standard input")
    parser.add_argument("--seats", type=_seat_list, metavar="S1,S2,...",
                        help="seats to judge, numbered from 0 as in 'hearts replay' "
                             "(0: Seat 1); default: the people, as the record says (an "
                             "older record: as its seat names show them); every seat if "
                             "neither says")
    parser.add_argument("--seed", type=seed_text, metavar="SEED",
                        help="judge reproducibly: fixed deals a decision from this seed")
    parser.add_argument("--iterations", type=positive_int, metavar="N",
                        help=f"deals sampled a decision (default with --seed: "
                             f"{DEFAULT_ITERATIONS}; without: the expert's time budget)")
    parser.add_argument("--budget", type=positive_number, metavar="SECONDS",
                        help="time a decision when neither --seed nor --iterations is "
                             "given (refused with them, which fix the deals instead; "
                             "default: the expert's)")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="N",
                        help="processes judging side by side (default: 1; at most one a "
                             "CPU this process may use: more are cut to that, saying so)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check every record of the file, then analyse each; print the reports (text or
    JSON). A bad record or setting is refused before any decision is judged, and before
    any note (``--workers`` cut to the CPUs) is said. A file that is no record at all is
    refused as every command that reads one refuses it; in JSON lines, such a line is
    an invalid record of the file."""
    from hearts.core import InvalidRecordError
    from hearts.players.analysis import judging_settings, plan_analysis

    try:
        judging_settings(args.seed, args.iterations, args.budget)
    except PlayerError as exc:  # the one setting argparse cannot judge alone: --budget
        raise CommandLineError(f"--budget: {exc}") from None
    label = record_label(args.file)
    records = read_records(read_text(args.file))
    if len(records) == 1:
        refuse_non_record(records[0][1], label)
    plans = []
    for where, data in records:
        named = label if where is None else f"{label}: {where}"
        try:
            replay_record(data)  # as hearts replay checks it: the seat names too
            assert not isinstance(data, InvalidRecordError)
            plans.append((named, plan_analysis(data, args.seats, seed=args.seed,
                                               iterations=args.iterations,
                                               budget_s=args.budget)))
        except InvalidRecordError as exc:
            raise CommandLineError(f"{named}: invalid record: {exc}") from None
        except PlayerError as exc:
            raise CommandLineError(f"{named}: {exc}") from None
    workers = worker_count(args.workers, "analyze", "judging")
    reports: list[dict[str, Any]] = []
    for named, plan in plans:
        with games_progress(args.quiet, "decisions") as progress:
            result = plan.judge(workers, progress)
        report = {"record": named, **result.to_json()}
        reports.append(report)
        if not args.json:
            print("\n".join(text_report(report)))
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, ensure_ascii=False,
                         indent=1))
    return 0


def text_report(report: dict[str, Any]) -> list[str]:
    """The report of one record as lines of text of at most :data:`WIDTH` columns; each
    seat headed by its name as the record gives it, or as the core names a seat no one
    named (``Seat 1`` for seat 0), as ``hearts replay`` shows it."""
    if report["iterations"] is not None:
        how = f"{counted(report['iterations'], 'deal')} a decision"
    else:
        how = f"a time budget of {report['budget_s']:g} s a decision"
    seed = f", seed {report['seed']}" if report["seed"] is not None else ""
    names = report["names"]
    lines = [*_fit(f"{report['record']}: {report['rules']}"),
             *_fit(f"judged by {report['judge']} ({how}{seed})"),
             *_fit("seats: " + " | ".join(f"{seat}: {name}"
                                         for seat, name in enumerate(names)))]
    decisions = report["decisions"]
    for summary in report["summaries"]:
        lines.append("")
        lines.extend(_fit(f"{names[summary['seat']]}: {_accuracy(summary)}, "
                          f"{summary['points_lost']:.1f} points lost;"))
        lines.extend(_fit(_marks(summary), "  "))
        worst = [decisions[i] for i in summary["worst"]]
        if worst:
            lines.append("  Most costly:")
            lines.extend(line for d in worst for line in _decision_lines(d))
        flagged = [d for d in decisions if d["seat"] == summary["seat"] and d["verdict"]
                   and d["index"] not in summary["worst"]]
        if flagged:
            lines.append("  Also marked:")
            lines.extend(line for d in flagged for line in _decision_lines(d))
    return lines


def _fit(text: str, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` in lines of at most :data:`WIDTH` columns, the first led by ``first``,
    the others by ``rest`` (default: ``first`` and two spaces)."""
    rest = first + "  " if rest is None else rest
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False)


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


def _decision_lines(decision: dict[str, Any]) -> list[str]:
    """A decision in two lines or more: where, the action against the best and the loss,
    then the expected points of each."""
    where = f"round {decision['round']}"
    if decision["trick"] is not None:
        where += f", trick {decision['trick']}"
    kind = decision["kind"]
    verb = {"play": "played", "pass": "passed", "moon": "chose"}[kind]
    mark = f" ({decision['verdict']})" if decision["verdict"] else ""
    return [*_fit(f"{where}: {verb} {_shown(kind, decision['taken'])}, best "
                  f"{_shown(kind, decision['best'])}: {decision['loss']:.1f} points "
                  f"lost{mark};", "    "),
            *_fit(f"expected points {decision['taken_points']:.1f} against "
                  f"{decision['best_points']:.1f}{_loss_elsewhere(decision)}", "      ")]


def _loss_elsewhere(decision: dict[str, Any]) -> str:
    """Why a loss can come with fewer points for the seat: the utility also weighs the
    others' points and the game, which the points alone do not show."""
    if decision["best_points"] <= decision["taken_points"] + 0.05:
        return ""
    return ("; the best takes more points this round and gains more against the others' "
            "points or the chance to win the game")


def _shown(kind: str, action: str | Sequence[str]) -> str:
    if kind == "moon":
        return str(action)
    names = [action] if isinstance(action, str) else list(action)
    return " ".join(Card(name).pretty for name in names)

