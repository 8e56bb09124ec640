"""Options shared by the subcommands: rules and player count, seeds, computer levels."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final, TextIO, TypeVar

from hearts.core import (
    MAX_DIGITS,
    PLAYER_COUNTS,
    HeartsError,
    InvalidRulesError,
    Rules,
    echoed,
    read_whole_number,
)
from hearts.players import LEVELS, Player
from hearts.players.levels import POLICY
from hearts.wording import counted

__all__ = [
    "DEFAULT_LEVEL",
    "HELP_WORDS",
    "QUIT_WORDS",
    "RULES_HELP",
    "CommandLineError",
    "add_rules_options",
    "ask_line",
    "bot_spec",
    "check_output_file",
    "check_output_folder",
    "comma_list",
    "existing_file",
    "fraction",
    "level_list",
    "level_name",
    "level_spec",
    "level_specs",
    "levels_text",
    "name_list",
    "new_seed",
    "non_negative_int",
    "non_negative_number",
    "player_count",
    "port_number",
    "positive_int",
    "positive_ints",
    "positive_number",
    "positive_numbers",
    "rules_from_args",
    "rules_option",
    "rules_text",
    "seat_levels",
    "seat_player",
    "seed_text",
    "usable_cpu_ids",
    "usable_cpus",
    "whole_number_range",
    "worker_count",
    "write_lines",
    "write_record",
]

DEFAULT_LEVEL = "random"
QUIT_WORDS: Final = frozenset({"quit", "q", "exit"})
"""What stops an interactive session (the text game, the score keeper) at any prompt."""
HELP_WORDS: Final = frozenset({"help", "?"})
"""What asks an interactive session's help at any prompt."""
_Item = TypeVar("_Item")
_SEED_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class CommandLineError(HeartsError, ValueError):
    """A command-line value that is not allowed (``hearts`` prints it and exits 2)."""


RULES_HELP: Final = ("preset and options as text, e.g. classic:players=5 or "
                     "standard:moon=shooter-choice (list them with 'hearts rules'; "
                     "default: card-commons)")
"""The help of every ``--rules``."""


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules TEXT`` and ``--players N``."""
    parser.add_argument("--rules", type=rules_option, default="card-commons",
                        metavar="RULES", help=RULES_HELP)
    parser.add_argument(
        "--players", type=player_count, metavar="N",
        help="number of players instead of the preset's (card-commons 3-4, standard 4, "
             "classic 2-6); a --rules text that states players= itself must agree")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules of ``--rules``, with ``--players`` (if given) replacing the player count.

    The count is changed on the preset, so the preset's per-count options (removed
    cards, pass count and cycle) follow it; options written in ``--rules`` are kept.
    A rules text that states ``players=`` and a ``--players`` that differs are refused
    (neither silently wins).
    """
    text: str = args.rules
    players: int | None = args.players
    try:
        rules = Rules.parse(text)
        stated = "players" in Rules.split_text(text)[1]
        if players is not None and players != rules.players and not stated:
            rules = rules.replace(players=players)
    except InvalidRulesError as exc:
        given = f"--rules {text!r}" + ("" if players is None else f" --players {players}")
        raise InvalidRulesError(f"{given}: {exc}") from None
    if players is not None and players != rules.players:
        raise CommandLineError(
            f"--rules {text!r} says {rules.players} players and --players says {players}: "
            "give the count once")
    return rules


def seed_text(text: str) -> str:
    """An argparse type: a seed of letters, digits, ``.``, ``_`` and ``-`` (it names files)."""
    if not _SEED_PATTERN.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"a seed is 1 to 64 letters, digits, '.', '_' or '-', not {text!r}")
    return text


def new_seed() -> str:
    """A fresh random seed, short enough to type back in."""
    return str(secrets.randbelow(1_000_000))


def usable_cpu_ids() -> list[int]:
    """The CPUs this process may run on, in order: its affinity (``taskset``, a
    container's cpuset), which ``os.cpu_count`` ignores; every CPU where the platform
    keeps no affinity."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def usable_cpus() -> int:
    """How many CPUs this process may run on (:func:`usable_cpu_ids`). The default
    worker count: more workers than CPUs share them, and a search on a clock then finds
    fewer worlds."""
    return len(usable_cpu_ids())


def worker_count(asked: int, command: str, work: str) -> int:
    """``--workers`` of ``hearts COMMAND``, cut to the CPUs this process may use
    (:func:`usable_cpus`: more would only share them, and a search on a clock would
    find fewer worlds), saying so on standard error: ``...; WORK on N``. Every command
    with ``--workers`` asks it."""
    cpus = usable_cpus()
    if asked <= cpus:
        return asked
    print(f"hearts {command}: --workers {asked} is more than the "
          f"{counted(cpus, 'CPU')} this process may use; {work} on {cpus}", file=sys.stderr)
    return cpus


MAX_NUMBER: Final = 1_000_000
"""The largest number an option of seconds, a rate or a weight takes: 11.5 days of a wait
is past any real one, and a larger one overflowed where it was used (``--rate-limit
1e308`` as a count of messages, ``--bot-start-timeout 1e308`` as a lock's timeout)."""


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of at least 0 (a count where 0 means none)."""
    return _whole_number(text, 0)


def _whole_number(text: str, least: int, most: int | None = None,
                  what: str = "a whole number") -> int:
    """``text`` as a whole number from ``least`` to ``most`` (with no ``most``, as many
    digits as :func:`hearts.core.read_whole_number` reads: :data:`MAX_DIGITS`); the usage
    message names it as ``what`` and says the range allowed."""
    value = read_whole_number(text)  # ASCII digits: int() would take "٣" and "1_000"
    if value is None or value < least or (most is not None and value > most):
        allowed = (f"of at least {least} (at most {MAX_DIGITS} digits)" if most is None
                   else f"from {least} to {most}")
        raise argparse.ArgumentTypeError(f"{what} {allowed} is expected, not {text!r}")
    return value


def whole_number_range(least: int, most: int, what: str = "a whole number"
                       ) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` to ``most``, named as ``what`` in
    its usage message (``a number of deals from 1 to 20 is expected``)."""

    def whole_number(text: str) -> int:
        return _whole_number(text, least, most, what)

    return whole_number


def positive_ints(text: str) -> list[int]:
    """An argparse type: comma-separated whole numbers of at least 1 (``1,4,16``)."""
    try:
        return [positive_int(part) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"comma-separated whole numbers of at least 1 are expected, not {text!r}") from None


def _number(text: str, allowed: Callable[[float], bool], expected: str) -> float:
    """``text`` read as a number that ``allowed`` accepts, else a usage error saying what is
    ``expected`` (NaN fails every comparison, so ``nan`` is refused with the non-numbers)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not allowed(value):
        raise argparse.ArgumentTypeError(f"{expected} is expected, not {text!r}")
    return value


def positive_number(text: str) -> float:
    """An argparse type: a number above 0 and at most :data:`MAX_NUMBER`, such as seconds
    to run."""
    return _number(text, lambda value: 0 < value <= MAX_NUMBER,
                   f"a number above 0 and at most {MAX_NUMBER:,}")


def non_negative_number(text: str) -> float:
    """An argparse type: a number of at least 0 and at most :data:`MAX_NUMBER`, such as a
    pause that may be none."""
    return _number(text, lambda value: 0 <= value <= MAX_NUMBER,
                   f"a number of at least 0 and at most {MAX_NUMBER:,}")


def fraction(text: str) -> float:
    """An argparse type: a number above 0 and at most 1, such as a share or a trust."""
    return _number(text, lambda value: 0 < value <= 1, "a number above 0 and at most 1")


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    return _whole_number(text, 1, 65535, "a port")


def existing_file(text: str) -> Path:
    """An argparse type: the path of a file that exists (one to read), refused while
    parsing rather than after the work it was given for has begun."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text!r}")
    return path


def positive_numbers(text: str) -> list[float]:
    """An argparse type: comma-separated numbers above 0 (``0.05,0.5,1``)."""
    try:
        return [positive_number(part) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"comma-separated numbers above 0 and at most {MAX_NUMBER:,} are expected, "
            f"not {text!r}") from None


def comma_list(item: Callable[[str], _Item]) -> Callable[[str], list[_Item]]:
    """An argparse type: comma-separated values, each read by the argparse type ``item``
    (for values that hold no comma of their own: levels, preset names, plain bot specs)."""

    def items(text: str) -> list[_Item]:
        return [item(part) for part in text.split(",")]

    return items


def rules_text(text: str) -> Rules:
    """An argparse type: a rules text (``standard:rounds=8``) read as its rules; a bad
    one is refused with the core's reason, which says what is allowed."""
    try:
        return Rules.parse(text)
    except InvalidRulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rules_option(text: str) -> str:
    """An argparse type: a rules text, checked now (:func:`rules_text`) and kept as the
    text given, which the command reads with ``--players`` (:func:`rules_from_args`)."""
    rules_text(text)
    return text


def player_count(text: str) -> int:
    """An argparse type: a player count some preset is played by; the preset chosen
    judges it (:func:`rules_from_args`)."""
    counts = [count for allowed in PLAYER_COUNTS.values() for count in allowed]
    return _whole_number(text, min(counts), max(counts), "a player count")


def bot_spec(text: str) -> str:
    """An argparse type: a bot spec as the arena takes it (``expert:iterations=300``),
    returned as given (it is the bot's label). A built-in level is made once, so that an
    option it does not take is refused now, not when the match starts."""
    # imported here: the arena brings NumPy and multiprocessing, which a command that
    # names no bot should not load at start-up
    from hearts.arena import BotSpec, BotSpecError, build_player

    try:
        spec = BotSpec.parse(text)
        if spec.kind in LEVELS:
            build_player(spec, seat=0, rules=Rules(), seed="bot-spec-check")
    except BotSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def level_spec(text: str) -> str:
    """An argparse type: a computer player as ``hearts bot`` takes one, read by the
    arena's bot-spec parser (:func:`bot_spec`): a level of :data:`LEVELS`, with options
    (``expert:iterations=300``, ``expert:game_weight=0``), or ``policy:PATH``; returned as
    given, the level's name in lower case (``Easy`` is ``easy``). Outside programs
    (``ext:``) and OpenSpiel's ``ismcts`` sit only in the arena, which hosts them."""
    text = text.strip()
    name = re.split("[:#]", text, maxsplit=1)[0]
    level = name.strip().lower()
    if level not in LEVELS and not (level == POLICY and text[len(name):].startswith(":")):
        raise argparse.ArgumentTypeError(
            f"unknown level {echoed(name)}; levels are: {levels_text()} (options as "
            "LEVEL:key=value, e.g. expert:iterations=300), or policy:PATH (a trained "
            "policy); outside programs and ismcts play in 'hearts arena'")
    return bot_spec(level + text[len(name):])


def level_specs(text: str) -> list[str]:
    """An argparse type: comma-separated :func:`level_spec` players, one a seat from seat
    0. A part written ``key=value`` is one more option of the player before it, so
    ``expert:iterations=300,game_weight=0,normal`` is two players."""
    specs: list[str] = []
    for part in text.split(","):
        key, eq, _ = part.partition("=")
        if eq and ":" not in key and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return [level_spec(spec) for spec in specs]


def seat_player(spec: str, seat: int, rules: Rules, seed: str) -> Player:
    """A fresh player for ``seat`` from a :func:`level_spec` (its randomness from
    ``seed``), built as the arena builds one: a bare level is the same player as
    :func:`hearts.players.make_player` gives for that seed."""
    from hearts.arena.specs import BotSpec, build_player

    return build_player(BotSpec.parse(spec), seat=seat, rules=rules, seed=seed)


def name_list(choices: Iterable[str], kind: str,
              plural: str) -> Callable[[str], list[str]]:
    """An argparse type: comma-separated names, each one of ``choices`` (lower case, as
    :func:`level_name` reads one: ``Easy`` is ``easy``); an unknown one is refused naming
    ``kind`` and listing the ``plural`` there are."""
    known = list(choices)

    def names(text: str) -> list[str]:
        given = [name.strip().lower() for name in text.split(",")]
        unknown = [name for name in given if name not in known]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {kind} {', '.join(unknown)!r}; {plural} are: {', '.join(known)}")
        return given

    return names


def level_name(text: str) -> str:
    """An argparse type: one computer level of :data:`hearts.players.levels.LEVELS`."""
    level = text.strip().lower()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown level {text!r}; levels are: {', '.join(LEVELS)}")
    return level


def levels_text() -> str:
    """The known levels, for help texts."""
    return ", ".join(LEVELS)


def level_list(text: str) -> list[str]:
    """An argparse type: comma-separated levels, one a seat from seat 0."""
    return comma_list(level_name)(text)


def seat_levels(players: int, levels: list[str] | None, level: str | None) -> list[str]:
    """Each seat's level: ``levels`` from seat 0, the remaining seats ``level`` (or random)."""
    chosen = list(levels or [])
    if len(chosen) > players:
        raise CommandLineError(
            f"--levels names {len(chosen)} levels but the game has {players} players")
    return chosen + [level or DEFAULT_LEVEL] * (players - len(chosen))


def check_output_file(path: Path, option: str) -> None:
    """Before the work starts: ``path`` (given as ``option``) can take a file written
    by :func:`write_lines` (not a folder; its folder made and writable), so a long
    game or match never ends in a file it cannot write."""
    if path.is_dir():
        raise CommandLineError(f"{option} {str(path)!r} is a folder; give a file name")
    _check_folder(path.parent, option, path)


def check_output_folder(path: Path, option: str) -> None:
    """Before the work starts: ``path`` (given as ``option``) is, or can be made, a
    folder that takes files."""
    _check_folder(path, option, path)


def _check_folder(folder: Path, option: str, given: Path) -> None:
    blocking = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if blocking is not None and not blocking.is_dir():
        raise CommandLineError(f"{option} {str(given)!r}: {str(blocking)!r} is a file, "
                               "not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise CommandLineError(f"{option} {str(given)!r}: cannot write there: "
                               f"{exc.strerror or exc}") from None


def write_lines(path: Path, lines: Iterable[str]) -> None:
    """Write lines of text, creating the folder if needed.

    The file appears whole or not at all (written aside, then renamed), so an
    interrupted run never leaves half a file behind.
    """
    partial = path.with_name(path.name + ".partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with partial.open("w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in lines)
        partial.replace(path)
    except OSError as exc:
        raise CommandLineError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def write_record(path: Path, record: Mapping[str, Any]) -> None:
    """Write a record as one line of JSON (see :func:`write_lines`)."""
    write_lines(path, [json.dumps(record)])


@contextlib.contextmanager
def games_progress(quiet: bool, label: str = "games"
                   ) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar of games (or other ``label``) done with the time left, on standard
    error when it is a terminal and not ``quiet``; yields its update function
    ``(done, total)``, or None."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # loaded only by the long commands that show a bar
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def ask_line(prompt: str, stdin: TextIO, stdout: TextIO, *, echo: bool = False) -> str | None:
    """Write ``prompt``, read one line and give it without its line end; None at the end
    of input. An interactive session's one reader: a line is read as bytes and decoded
    by itself (in the input's encoding), so a line that is not text in it is answered
    with an error and asked again, never ending the session nor losing the lines before
    it (Python decodes a piped input a whole chunk at a time). ``echo`` writes the line
    back when the input is not a terminal, so a scripted session reads as a transcript."""
    while True:
        stdout.write(prompt)
        stdout.flush()
        buffer = getattr(stdin, "buffer", None)
        raw = stdin.readline() if buffer is None else buffer.readline()
        if not raw:
            stdout.write("\n")
            return None
        encoding = getattr(stdin, "encoding", None) or "utf-8"
        try:
            line = raw if isinstance(raw, str) else raw.decode(encoding)
        except UnicodeDecodeError as exc:
            # a piped line ends no line of the output; a typed one's Enter already did
            start = "" if stdin.isatty() else "\n"
            stdout.write(f"{start}error: that line is not {encoding.upper()} text "
                         f"({exc.reason} at byte {exc.start}); type it again\n")
            continue
        line = line.rstrip("\r\n")
        if echo and not stdin.isatty():
            stdout.write(line + "\n")
        return line
