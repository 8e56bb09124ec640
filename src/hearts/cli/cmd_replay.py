"""``hearts replay``: check a game or hand record against the rules and show its score sheet;
with ``--step``, step through it in the terminal with every hand open
(:mod:`hearts.tui.replay_app`), its decisions' costs marked with ``--analyze``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hearts.cli.common import CommandLineError
from hearts.core import (
    GAME_FORMAT,
    HAND_FORMAT,
    GameState,
    IllegalActionError,
    InvalidRecordError,
    format_sheet,
    parse_record,
    record_seats,
)
from hearts.core import replay_record as core_replay_record
from hearts.wording import counted

__all__ = ["configure", "read_record", "read_records", "read_text", "record_label",
           "refuse_non_record", "replay_record", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Replay every action of a record through the rules, check every "
                          "stated result, and print the score sheet. The file holds one "
                          "record, or JSON lines of records (as hearts arena --records "
                          "writes). Exit status 1 if a game or hand record fails the check; "
                          "2 if the file is not a record at all (empty, cut short, not JSON, "
                          "another format), as for every command; in JSON lines such a line "
                          "fails alone.")
    parser.add_argument("file", metavar="RECORD",
                        help="the game or hand record (JSON, or JSON lines of records); "
                             "- reads standard input")
    parser.add_argument("--step", action="store_true",
                        help="step through the game in the terminal, every hand open: by "
                             "card, by trick, or to a round")
    parser.add_argument("--analyze", action="store_true",
                        help="with --step: judge the people's decisions first (hearts "
                             "analyze) and mark each one's cost")
    parser.add_argument("--analysis", metavar="JSON",
                        help="with --step: mark the decisions of this analysis (hearts "
                             "analyze --json) instead")
    parser.add_argument("--plain", action="store_true",
                        help="with --step: cards as letters (QS), for screen readers")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the records; 0 if all are valid, 1 if not (the reasons on standard error).
    A file of one text that is no game or hand record at all is bad input: it is
    refused at the command line's error boundary (exit 2), as every command that reads
    a record refuses it."""
    if args.step:
        return step(args)
    if args.analyze or args.analysis or args.plain:
        raise CommandLineError("--analyze, --analysis and --plain go with --step")
    label = record_label(args.file)
    records = read_records(read_text(args.file))
    if len(records) == 1:
        refuse_non_record(records[0][1], label)
    invalid = 0
    for where, data in records:
        named = label if where is None else f"{label}: {where}"
        try:
            state, names = replay_record(data)
        except InvalidRecordError as exc:
            invalid += 1
            print(f"hearts replay: {named}: invalid record: {exc}", file=sys.stderr)
            for line in _where(exc, data if isinstance(data, Mapping) else {}):
                print(f"  {line}", file=sys.stderr)
            continue
        assert isinstance(data, Mapping)  # an error value was raised above
        report = _report(named, data, state, names)
        print("\n".join(report if len(records) == 1 else report[:1]))
    if len(records) > 1:
        print(f"{len(records) - invalid} of {len(records)} records valid")
    return 1 if invalid else 0


def step(args: argparse.Namespace) -> int:
    """``--step``: the terminal replay viewer of one record (a refused record, or an
    analysis of another game, is an error before the screen opens)."""
    if args.file == "-":
        raise CommandLineError("--step reads the record from a file: standard input is "
                               "the keyboard")
    if args.analyze and args.analysis:
        raise CommandLineError("give --analyze or --analysis, not both")
    data = read_record(args.file, "--step")
    from hearts.replay import analyze_for_replay, build_replay

    replay = build_replay(data)
    analysis: Mapping[str, Any] | None = None
    if args.analysis:
        try:
            analysis = parse_record(read_text(args.analysis))
        except InvalidRecordError as exc:
            raise CommandLineError(f"--analysis {args.analysis}: not an analysis: {exc}"
                                   ) from None
    elif args.analyze:
        print("Analysing the decisions...", file=sys.stderr)
        analysis = analyze_for_replay(data)
    from hearts.tui.replay_app import ReplayApp

    app = ReplayApp(replay, analysis, plain=args.plain)  # checks the analysis fits the game
    app.run()
    return 0


def record_label(file: str) -> str:
    """How a refusal names the record file given as ``file`` (``-``: ``<stdin>``)."""
    return "<stdin>" if file == "-" else file


def read_record(file: str, reader: str) -> Mapping[str, Any]:
    """The one record in ``file`` (``-``: standard input) for a command that reads one
    (``reader``, as the refusal of a file of several names it), refused as every command
    that reads a record refuses what is no record (:func:`refuse_non_record`)."""
    label = record_label(file)
    records = read_records(read_text(file))
    if len(records) != 1:
        raise CommandLineError(f"{label} holds {len(records)} records (JSON lines); "
                               f"{reader} reads one")
    data = records[0][1]
    refuse_non_record(data, label)
    assert not isinstance(data, InvalidRecordError)  # refused above
    return data


def refuse_non_record(data: Mapping[str, Any] | InvalidRecordError, label: str) -> None:
    """Raise an InvalidRecordError naming ``label`` where ``data`` is no game or hand
    record at all (a text that is no JSON object, or an object of another format): what
    no check can judge is bad input, not a record that failed its check. Every command
    that reads a record says it so: ``FILE: not a record: WHY``."""
    if isinstance(data, InvalidRecordError):
        error = data
    elif data.get("format") in (GAME_FORMAT, HAND_FORMAT):
        return
    else:
        try:
            core_replay_record(data)  # the core words its refusal of the format
        except InvalidRecordError as exc:
            error = exc
        else:  # pragma: no cover - the core replays only those formats
            return
    raise InvalidRecordError(f"{label}: not a record: {error}") from None


def replay_record(data: Mapping[str, Any] | InvalidRecordError
                  ) -> tuple[GameState, list[str]]:
    """Replay a game or hand record (by its format); the state and the seat names."""
    if isinstance(data, InvalidRecordError):
        raise data
    state = core_replay_record(data)
    if data.get("format") == GAME_FORMAT:
        return state, _seat_names(data, state.players)
    return state, list(record_seats(data, state.players))


Records = list[tuple[str | None, Mapping[str, Any] | InvalidRecordError]]


def read_records(text: str) -> Records:
    """The records in a file: one JSON record (where None), or JSON lines, one record a
    line, where each is ``line N`` (``hearts arena --records`` wraps each record as
    ``{"deal_set": …, "rotation": …, "record": {…}}``). A line that is not a record
    is an :class:`InvalidRecordError` in its place, so the others are still checked."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2 or not lines[0][1].lstrip().startswith("{"):
        return [(None, _record_or_error(text)[1])]
    try:
        whole = parse_record(text)  # one record written over several lines
    except InvalidRecordError:
        records: Records = []
        for number, line in lines:
            about, data = _record_or_error(line)
            records.append((f"line {number}{about}", data))
        return records
    return [(None, _unwrapped(whole)[1])]


def _record_or_error(text: str) -> tuple[str, Mapping[str, Any] | InvalidRecordError]:
    """The record in one JSON text, unwrapped from an arena line (see :func:`_unwrapped`),
    or the error as a value."""
    try:
        return _unwrapped(parse_record(text))
    except InvalidRecordError as exc:
        return "", exc


def _unwrapped(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """A record, taken out of an arena line with its deal set and rotation in words."""
    inner = data.get("record")
    if "format" in data or not isinstance(inner, Mapping):
        return "", data
    return f" (deal set {data.get('deal_set')!r}, rotation {data.get('rotation')!r})", inner


def read_text(file: str) -> str:
    """A file's text (``-``: standard input), or a CommandLineError saying why not."""
    if file == "-":
        try:
            return sys.stdin.read()
        except UnicodeDecodeError:
            raise CommandLineError("standard input is not UTF-8 text") from None
    try:
        return Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandLineError(f"cannot read {file!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CommandLineError(f"{file!r} is not UTF-8 text") from None


def _seat_names(data: Mapping[str, Any], players: int) -> list[str]:
    """The record's seat names, or the core's defaults (``Seat 1``...) where it has
    none, as every other face names them; a malformed ``seats`` is refused."""
    names = list(record_seats(data, players))
    if data.get("seats") is not None and data["seats"] != names:  # the core fell back
        raise InvalidRecordError(f"record: seats need {players} names, one a seat")
    return names


def _where(error: InvalidRecordError, data: Mapping[str, Any]) -> list[str]:
    """Spell out an illegal action: round, trick, seat (with its name), card, alternatives."""
    cause = error.__cause__
    if not isinstance(cause, IllegalActionError):
        return []
    seats = data.get("seats")
    lines = []
    if cause.round_no is not None:
        lines.append(f"round:   {cause.round_no}")
    if cause.trick_no is not None:
        lines.append(f"trick:   {cause.trick_no}")
    if cause.seat is not None:
        name = (seats[cause.seat] if isinstance(seats, list) and 0 <= cause.seat < len(seats)
                else None)
        named = f" ({name})" if isinstance(name, str) else ""
        lines.append(f"seat:    {cause.seat}{named} (seats count from 0 in seat order)")
    if cause.card is not None:
        lines.append(f"card:    {cause.card}")
    if cause.legal:
        lines.append(f"allowed: {' '.join(cause.legal)}")
    return lines


def _report(label: str, data: Mapping[str, Any], state: GameState,
            names: Sequence[str]) -> list[str]:
    kind = "game" if data.get("format") == GAME_FORMAT else "hand"
    lines = [f"{label}: a valid {kind} record ({counted(len(state.results), 'round')} "
             "replayed and checked)",
             f"rules: {state.rules.text}"]
    if kind == "game":
        lines.append(f"seed:  {data.get('seed') if data.get('seed') is not None else '-'}")
    else:
        scores = ", ".join(str(s) for s in data.get("scores", [0] * state.players))
        lines.append(f"round {data.get('round')}, scores going in: {scores}")
    lines.append("seats: " + " | ".join(f"{seat}: {name}" for seat, name in enumerate(names)))
    lines.append("")
    lines.append(format_sheet(state.results, names, state.winners))
    if kind == "game" and not state.is_over:
        lines.append(f"Not finished: the record stops in round {state.round_no} "
                     f"({state.phase.value}).")
    elif kind == "hand" and not state.results:
        lines.append(f"Not finished: the record stops in the {state.phase.value} phase.")
    return lines
