"""``hearts replay``: check a game or hand record against the rules and show its score sheet."""

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
    replay_game,
    replay_hand,
)

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Replay every action of a record through the rules, check every "
                          "stated result, and print the score sheet. Exit status 1 if the "
                          "record is invalid.")
    parser.add_argument("file", metavar="FILE", help="the record (JSON); - reads standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record; 0 if valid, 1 if not (the reason on standard error)."""
    label = "<stdin>" if args.file == "-" else args.file
    text = _read(args.file)
    data: Mapping[str, Any] = {}
    try:
        data = parse_record(text)
        kind = data.get("format")
        if kind == GAME_FORMAT:
            state = replay_game(data)
            names = _seat_names(data, state.players)
        elif kind == HAND_FORMAT:
            state = replay_hand(data)
            names = [f"Seat {seat}" for seat in range(state.players)]
        else:
            raise InvalidRecordError(
                f"format must be {GAME_FORMAT!r} or {HAND_FORMAT!r}, not {kind!r}")
    except InvalidRecordError as exc:
        print(f"hearts replay: {label}: invalid record: {exc}", file=sys.stderr)
        for line in _where(exc, data):
            print(f"  {line}", file=sys.stderr)
        return 1
    print("\n".join(_report(label, data, state, names)))
    return 0


def _read(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandLineError(f"cannot read {file!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CommandLineError(f"{file!r} is not UTF-8 text") from None


def _seat_names(data: Mapping[str, Any], players: int) -> list[str]:
    seats = data.get("seats")
    if seats is None:
        return [f"Seat {seat}" for seat in range(players)]
    if not isinstance(seats, list) or len(seats) != players or not all(
            isinstance(name, str) and name for name in seats):
        raise InvalidRecordError(f"record: seats need {players} names, one a seat")
    return seats


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
    lines = [f"{label}: a valid {kind} record ({len(state.results)} round"
             f"{'s' if len(state.results) != 1 else ''} replayed and checked)",
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
