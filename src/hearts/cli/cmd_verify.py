"""``hearts verify RECORD``: check a game record offline: its deals and its play.

Each round's deal is checked against its shuffle commitment (a web table's record), or
against the game seed where there is none (a local game, an arena match); then, unless
``--deals-only``, every action is replayed through the rules and every stated result
checked, as ``hearts replay`` does.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from hearts.cli.cmd_replay import (
    read_records,
    read_text,
    record_label,
    refuse_non_record,
    replay_record,
)
from hearts.core import InvalidRecordError, verify_record
from hearts.wording import counted

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``verify`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Check every deal of a game record against its published "
                          "commitment (or its game seed), then replay every action through "
                          "the rules. The file holds one record, or JSON lines of records "
                          "(as hearts arena --records writes). Exit status 1 if anything "
                          "fails.")
    parser.add_argument("record", metavar="RECORD",
                        help="a game record (JSON), e.g. downloaded from a table page; "
                             "- reads standard input")
    parser.add_argument("--deals-only", action="store_true",
                        help="check the deals only, not the play")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print OK or FAIL per round and for the replay; exit 1 if a check fails. A file that
    is not a game record is an error (exit 2); in JSON lines, that line fails alone."""
    label = record_label(args.record)
    records = read_records(read_text(args.record))
    if len(records) == 1:
        refuse_non_record(records[0][1], label)
        return 0 if _verify(records[0][1], deals_only=args.deals_only) else 1
    failed = 0
    for where, data in records:
        print(f"{label}: {where}")
        try:
            failed += not _verify(data, deals_only=args.deals_only)
        except InvalidRecordError as exc:
            print(f"FAIL  not a game record: {exc}")
            failed += 1
    print(f"{len(records) - failed} of {len(records)} records verified"
          + ("" if not failed else f"; {failed} FAILED"))
    return 1 if failed else 0


def _verify(data: Mapping[str, Any] | InvalidRecordError, *, deals_only: bool) -> bool:
    """Check one record, printing what was checked; True if all is well (an
    InvalidRecordError if it is not a game record at all)."""
    if isinstance(data, InvalidRecordError):
        raise data
    checks = verify_record(data)
    for check in checks:
        print(f"round {check.round_no}: {'OK' if check.ok else 'FAIL'}  {check.reason}")
    failed = sum(not c.ok for c in checks)
    seeded = sum(c.ok and not c.committed for c in checks)
    print(f"{len(checks) - failed} of {len(checks)} deals verified"
          + ("" if not seeded else f" ({seeded} by the game seed alone, with no commitment: "
                                   "whoever knew the seed knew the deal)")
          + ("" if not failed else f"; {failed} FAILED"))
    if deals_only:
        return not failed
    try:
        state, _ = replay_record(data)
    except InvalidRecordError as exc:
        print(f"replay: FAIL  {exc}")
        return False
    rounds = len(state.results)
    print(f"replay: OK  every action is legal and every stated result is right "
          f"({counted(rounds, 'round')} replayed)")
    return not failed
