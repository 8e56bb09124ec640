"""``hearts verify RECORD``: check a downloaded game's shuffle commitments offline."""

from __future__ import annotations

import argparse
from pathlib import Path

from hearts.core import InvalidRecordError, verify_record_text

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``verify`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.add_argument("record", type=Path, help="a game record downloaded from a table page")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print OK or FAIL per round; exit 1 if any round fails."""
    try:
        text = args.record.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRecordError(f"cannot read {args.record}: {exc.strerror}") from None
    checks = verify_record_text(text)
    for check in checks:
        print(f"round {check.round_no}: {'OK' if check.ok else 'FAIL'}  {check.reason}")
    failed = sum(not c.ok for c in checks)
    print(f"{len(checks) - failed} of {len(checks)} deals verified"
          + ("" if not failed else f"; {failed} FAILED"))
    return 1 if failed else 0
