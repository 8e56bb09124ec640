"""The faces' side of the real-deck score sheet (``hearts score``, in plain text and on
screen): how to type a round under the sheet's rules, reading a round as typed, and the
sheet as CSV, Markdown or numbered text.

The checks of a round (its cards against the deck, the moon rule, the game's end) are
the core's :class:`~hearts.core.scorekeeper.Sheet`; this module only turns text into
its entries and its results into text::

    >>> from hearts.core import Rules
    >>> sheet = enter_round(Sheet(Rules(), ("Ann", "Bo", "Cy", "Di")), "5h q 8h 0")
    >>> sheet.totals
    (5, 13, 8, 0)
    >>> sheet_csv(sheet).splitlines()[1]
    '1,5,5,13,13,8,8,0,0,'
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hearts.core import (
    HEART_MASK,
    JACK_MASK,
    MAX_TOTAL,
    QUEEN_MASK,
    InvalidRoundError,
    InvalidRulesError,
    InvalidSheetError,
    MoonChoice,
    MoonChoiceNeededError,
    Rules,
    Sheet,
    Taken,
    card_points,
    format_sheet,
)

__all__ = [
    "EXPORT_KINDS",
    "ParsedEntry",
    "add_entry",
    "enter_round",
    "entry_help",
    "export",
    "parse_round_entry",
    "sheet_csv",
    "sheet_markdown",
    "sheet_rows",
    "sheet_rules",
    "split_names",
    "start_sheet",
    "winner_text",
]

EXPORT_KINDS: Final = ("csv", "md", "text")
"""The forms a sheet is exported in: CSV, a Markdown table, the numbered text sheet."""

# A number in an entry has at most as many digits as the largest total a sheet keeps, so
# a longer one is "cannot read" in words, never Python's 4,300-digit conversion limit.
_DIGITS: Final = len(str(MAX_TOTAL))
_CARDS_TOKEN: Final = re.compile(rf"^(?:([0-9]{{1,{_DIGITS}}})H)?(Q)?(J)?$", re.IGNORECASE)
_POINTS_TOKEN: Final = re.compile(rf"^([+-]?[0-9]{{1,{_DIGITS}}})(J)?$", re.IGNORECASE)


# ---------------------------------------------------------------------- text entry
@dataclass(frozen=True, slots=True)
class ParsedEntry:
    """A typed round entry: points (with the J♦ taker) or the cards taken."""

    points: tuple[int, ...] | None = None
    taken: tuple[Taken, ...] | None = None
    jack: int | None = None


def split_names(text: str) -> list[str]:
    """Player names typed in one line: separated by commas, or by spaces when there is none.

    An empty name (``Ann,,Cy``) is refused rather than dropped: dropping it would
    silently start a game for fewer players than were meant.
    """
    parts = [p.strip() for p in text.split(",")] if "," in text else text.split()
    if not parts or not all(parts):
        raise InvalidSheetError(f"every player needs a name, separated by commas: {text!r}")
    return parts


def start_sheet(rules_text: str, names_text: str) -> Sheet:
    """A new sheet for the names typed: the rules' player count follows the names, unless
    the rules text states its own count (``classic:players=4``), which the names must
    then match."""
    names = split_names(names_text)
    return Sheet(sheet_rules(rules_text, len(names)), tuple(names))


def sheet_rules(rules_text: str, players: int) -> Rules:
    """The rules of a sheet for ``players`` named players: the count follows the names,
    unless the rules text states its own count, which the names must then match."""
    rules = Rules.parse(rules_text)
    if players != rules.players and "players" in Rules.split_text(rules_text)[1]:
        raise InvalidRulesError(f"the rules {rules_text!r} are for {rules.players} players, "
                                f"but {players} names are given")
    return rules.replace(players=players)


def entry_help(rules: Rules) -> str:
    """How to type a round under ``rules``, with examples of one round under them (one
    value a player, the deck's hearts and Q♠); the J♦'s ``j`` only where the J♦ scores
    (:attr:`Rules.jack_scores`), where a points entry must mark its taker."""
    points, cards = _example_round(rules)
    queen = "q = the Q♠, " if rules.deck & QUEEN_MASK else ""
    if rules.jack_scores:
        return ("Enter a round as each player's points as counted, j on the J♦'s taker "
                f"({points}), or as the cards each took: 5h = five hearts, {queen}"
                f"j = the J♦ (house rule), 0 = none ({cards}). The sheet applies the moon "
                "rule.")
    return (f"Enter a round as each player's points as counted ({points}), or as the cards "
            f"each took: 5h = five hearts, {queen}0 = none ({cards}). The sheet applies the "
            "moon rule.")


def _example_round(rules: Rules) -> tuple[str, str]:
    """One round under ``rules`` typed both ways, points and cards: five hearts to the
    first player, the Q♠ to the second, the other hearts (and a scoring J♦) to the third
    (the second at a table of two), nothing to the rest."""
    hearts = (rules.deck & HEART_MASK).bit_count()
    heart = card_points(rules.deck & HEART_MASK & -(rules.deck & HEART_MASK), rules)
    first = min(5, hearts)
    takers = [[first, False, False], [0, bool(rules.deck & QUEEN_MASK), False]]
    takers += [[0, False, False] for _ in range(rules.players - 2)]
    rest = takers[min(2, rules.players - 1)]
    rest[0] += hearts - first
    rest[2] = rules.jack_scores
    points, cards = [], []
    for count, queen, jack in takers:
        value = count * heart + (card_points(QUEEN_MASK, rules) if queen else 0) \
            + (card_points(JACK_MASK, rules) if jack else 0)
        points.append(f"{value}{'j' if jack else ''}")
        cards.append(f"{f'{count}h' if count else ''}{'q' if queen else ''}"
                     f"{'j' if jack else ''}" or "0")
    return " ".join(points), " ".join(cards)


def parse_round_entry(text: str, players: int) -> ParsedEntry:
    """Parse a typed round: ``13 5 8 0`` (points; ``-7j`` marks the J♦ taker) or
    ``5h q 8h 0`` (hearts taken ``Nh``, ``q`` the Q♠, ``j`` the J♦, ``0`` or ``-`` nothing)."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != players:
        raise InvalidRoundError(f"enter one value for each of the {players} players, "
                                f"got {len(tokens)}: {text.strip()!r}")
    if all(_POINTS_TOKEN.match(t) for t in tokens):
        jack = [s for s, t in enumerate(tokens) if t[-1] in "jJ"]
        if len(jack) > 1:
            raise InvalidRoundError("only one player can take the J♦; mark one with j")
        return ParsedEntry(points=tuple(int(t.rstrip("jJ")) for t in tokens),
                           jack=jack[0] if jack else None)
    taken = []
    for token in tokens:
        match = _CARDS_TOKEN.match("" if token in ("-", "0") else token)
        if match is None:
            raise InvalidRoundError(
                f"cannot read {token!r}: write points (13) or cards taken (5h, q, 5hq, 0)")
        taken.append(Taken(int(match.group(1) or 0), bool(match.group(2)), bool(match.group(3))))
    return ParsedEntry(taken=tuple(taken))


def enter_round(sheet: Sheet, text: str, moon_choice: MoonChoice | None = None, *,
                correct: bool = False) -> Sheet:
    """The sheet with the round typed as ``text`` added (with ``correct``, replacing the
    last round); :class:`MoonChoiceNeededError` when the shooter must choose first."""
    parsed = parse_round_entry(text, sheet.rules.players)
    base = sheet.drop_last_round() if correct else sheet
    return base.add_round(points=parsed.points, taken=parsed.taken, jack=parsed.jack,
                          moon_choice=moon_choice)


def add_entry(sheet: Sheet, text: str, ask_moon: Callable[[str], MoonChoice],
              *, correct: bool = False) -> Sheet:
    """:func:`enter_round`, asking the shooter's choice through ``ask_moon(name)`` where
    the rules give one."""
    try:
        return enter_round(sheet, text, correct=correct)
    except MoonChoiceNeededError as moon:
        choice = ask_moon(sheet.names[moon.shooter])
        return enter_round(sheet, text, choice, correct=correct)


# ---------------------------------------------------------------------- export
def winner_text(sheet: Sheet) -> str:
    """``Winner: Ann`` or ``Winners (tied): Ann, Bo`` ('' while the game goes on)."""
    if not sheet.winners:
        return ""
    names = ", ".join(sheet.names[s] for s in sheet.winners)
    return f"Winners (tied): {names}" if len(sheet.winners) > 1 else f"Winner: {names}"


_MOON_COLUMN: Final = "Shot the moon"
"""The last column's heading: the moon has a column of its own, so points stay numbers."""


def sheet_rows(sheet: Sheet) -> list[list[str | int]]:
    """The sheet as table rows: header, then the round number, each player's points and
    total (numbers), and who shot the moon (a name, or '')."""
    header: list[str | int] = ["Round"]
    for name in sheet.names:
        header += [name, f"{name} total"]
    header.append(_MOON_COLUMN)
    rows = [header]
    for result in sheet.results:
        row: list[str | int] = [result.round_no]
        for points, total in zip(result.points, result.totals, strict=True):
            row += [points, total]
        row.append("" if result.shooter is None else sheet.names[result.shooter])
        rows.append(row)
    return rows


# What a spreadsheet reads as the start of a formula in a text cell (OWASP: CSV injection).
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def sheet_csv(sheet: Sheet) -> str:
    """The sheet as CSV (one row a round: points and total per player as numbers, then the
    moon's shooter). A name that a spreadsheet would run as a formula (``=HYPERLINK(...)``:
    a shared sheet's names are anyone's) is written after a ``'``, which shows it as text."""
    rows = [[f"'{cell}" if isinstance(cell, str) and cell.startswith(_FORMULA_START) else cell
             for cell in row] for row in sheet_rows(sheet)]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def sheet_markdown(sheet: Sheet) -> str:
    """The sheet as a Markdown table, with the winners once the game is over."""
    rows = sheet_rows(sheet)
    lines = ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |"
             for row in rows]
    lines.insert(1, "|" + "---|" * len(rows[0]))
    if sheet.winners:
        lines += ["", winner_text(sheet)]
    return "\n".join(lines) + "\n"


def export(sheet: Sheet, kind: str) -> str:
    """The sheet as CSV (``csv``), Markdown (``md``) or the numbered text sheet."""
    if kind == "csv":
        return sheet_csv(sheet)
    if kind == "md":
        return sheet_markdown(sheet)
    return format_sheet(sheet.results, sheet.names, sheet.winners) + "\n"
