"""The score sheet of ``000_…txt``: one numbered line per round, each player's
round points and new total."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hearts.core.state import RoundResult

__all__ = ["SheetLine", "format_sheet", "sheet_lines"]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One numbered line: round points and running totals, with the moon marked."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None


def sheet_lines(results: Sequence[RoundResult]) -> list[SheetLine]:
    """Sheet lines from round results, numbered from 1 in play order."""
    return [SheetLine(r.round_no, r.points, r.totals, r.shooter) for r in results]


def format_sheet(results: Sequence[RoundResult], names: Sequence[str],
                 winners: Sequence[int] = ()) -> str:
    """A plain-text sheet: ``points = total`` per player, moon shots marked with ``*``."""
    width = max(9, *(len(n) for n in names))
    header = "Round " + " ".join(f"{n:>{width}}" for n in names)
    lines = [header, "-" * len(header)]
    for line in sheet_lines(results):
        cells = []
        for seat, (points, total) in enumerate(zip(line.points, line.totals, strict=True)):
            mark = "*" if line.shooter == seat else " "
            cells.append(f"{points:+d}{mark}= {total}".rjust(width))
        lines.append(f"{line.number:>4}. " + " ".join(cells))
    if any(line.shooter is not None for line in sheet_lines(results)):
        lines.append("* shot the moon")
    if winners:
        won = ", ".join(names[s] for s in winners)
        lines.append(f"Winner{'s' if len(winners) > 1 else ''}: {won}")
    return "\n".join(lines)
