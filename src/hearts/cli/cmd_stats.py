"""``hearts stats``: the terminal game's player statistics, from the finished games it keeps.

The figures come from :func:`hearts.stats.player_stats` over the records that the terminal
game saves when a game ends (:func:`hearts.persistence.finished_games`); a file there that
is not a valid record is named on standard error and left out, so one damaged file does
not hide the others.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from hearts.arena.stats import WINS_SENTENCE
from hearts.core import PRESETS, InvalidRecordError, parse_record
from hearts.persistence import HOME_ENV, data_dir, finished_games
from hearts.stats import GameLine, PlayerStats, game_line, summarize

__all__ = ["configure", "format_stats", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``stats`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = (
        "Your statistics in the terminal game, by preset: games, wins and shared wins, "
        "average points a hand, moons shot (by you) and allowed (shot by another seat), "
        "hands you took the Q♠, hands you took no point card. They are worked out from the "
        f"finished games the game keeps (in its data folder, or ${HOME_ENV}).")
    parser.epilog = (f"{WINS_SENTENCE}, as hearts simulate and "
                     "hearts arena count them.")
    parser.add_argument("--player", metavar="NAME",
                        help="whose statistics: a seat name in the records (default: your "
                             "seat, the one a person played, as the record says; in a record "
                             "that does not say, the one not named as a computer is: Left, "
                             "Across, Right, Bot 2, ...)")
    parser.add_argument("--preset", choices=PRESETS, help="only games of this preset")
    parser.add_argument("--json", action="store_true", help="write JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the statistics; 0 even when there are no games yet (it says so)."""
    lines: list[GameLine] = []
    skipped = 0
    paths = finished_games()
    for path in paths:
        try:
            line = game_line(parse_record(path.read_text(encoding="utf-8")), args.player)
        except (InvalidRecordError, OSError, UnicodeDecodeError) as exc:
            skipped += 1
            print(f"hearts stats: {path.name}: left out: {exc}", file=sys.stderr)
            continue
        if line is not None and (args.preset is None or line.preset == args.preset):
            lines.append(line)
    stats = summarize(lines)
    if args.json:
        print(json.dumps({"player": args.player, "folder": str(data_dir() / "games"),
                          "records": len(paths), "skipped": skipped,
                          "presets": [s.to_json() for s in stats.values()]}, indent=1))
    else:
        print(format_stats(stats, args.player))
    return 0


_ROWS: tuple[tuple[str, str], ...] = (
    ("games", "games"), ("wins", "wins"), ("shared_wins", "shared wins"), ("hands", "hands"),
    ("average_points", "average points a hand"), ("moons_shot", "moons shot"),
    ("moons_allowed", "moons allowed"), ("queens_taken", "hands you took the Q♠"),
    ("clean_hands", "hands with no point card"))


def format_stats(stats: dict[str, PlayerStats], player: str | None) -> str:
    """The statistics as text: one column a preset, then what the wins mean."""
    who = "your seat" if player is None else repr(player)
    if not stats:
        return f"No finished games for {who} yet: play one with 'hearts play'."
    columns = list(stats.values())
    table: list[list[str]] = [["", *(s.preset for s in columns)]]
    for key, label in _ROWS:
        table.append([label, *(_cell(s.to_json()[key]) for s in columns)])
    width = max(len(row[0]) for row in table)
    cells = [max(len(row[i]) for row in table) for i in range(1, len(table[0]))]
    lines = [f"Statistics for {who}"]
    for row in table:
        lines.append("  ".join([row[0].ljust(width),
                                *(cell.rjust(cells[i]) for i, cell in enumerate(row[1:]))]))
    lines += ["", *textwrap.wrap(f"{WINS_SENTENCE}.", 80)]
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)
