"""``hearts arena``: a match between bots on duplicate deals, with per-bot figures."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hearts.arena.cluster import run_match_ray
from hearts.arena.errors import ArenaError
from hearts.arena.match import MatchConfig, run_match
from hearts.arena.report import format_report, pool, read_report, report
from hearts.arena.specs import BotSpec
from hearts.arena.stats import WINS_SENTENCE
from hearts.cli.common import (
    RULES_HELP,
    check_output_file,
    games_progress,
    levels_text,
    positive_int,
    positive_number,
    rules_option,
    seed_text,
    usable_cpus,
    worker_count,
    write_lines,
)
from hearts.core import Rules
from hearts.protocol.host import DEFAULT_TIMEOUT, STARTUP_TIMEOUT
from hearts.wording import counted

__all__ = ["configure", "lineup", "refuse_programs_that_cannot_start"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``arena`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Play a match on duplicate deals: each deal set is replayed with "
                          "the bots rotated through the seats, so every bot holds every hand. "
                          "Reports each bot's points per hand with a 95% confidence interval, "
                          "its margin over the others, moons shot and allowed, and wins and "
                          f"shared wins. {WINS_SENTENCE}, as "
                          "hearts stats and hearts simulate count them.")
    parser.epilog = (f"Bots: {levels_text()} (options as LEVEL:key=value; LEVEL#TAG to tell "
                     "two bots of one kind apart), policy:PATH (a trained policy's .npz "
                     "file, docs/research.md), ismcts (OpenSpiel, options sims,uct,rollouts) "
                     "or 'ext:COMMAND' for a program speaking the bot protocol "
                     "(docs/bot-protocol.md). Example: hearts arena --rules standard --bot "
                     "normal --bot random --bot random --bot random")
    parser.add_argument("--bot", action="append", metavar="SPEC",
                        help="a bot, once per seat in seat order; fewer bots are repeated "
                             "around the table (two bots for four seats: two seats each)")
    parser.add_argument("--pool", nargs="+", type=Path, default=None, metavar="REPORT",
                        help="instead of playing, join the --json reports of matches of one "
                             "lineup and rules on different seeds (runs on several machines, "
                             "or one after another) into one report over all their deal sets")
    parser.add_argument("--rules", type=rules_option, default="card-commons",
                        metavar="RULES", help=RULES_HELP)
    parser.add_argument("--deal-sets", type=positive_int, default=50, metavar="N",
                        help="number of deal sets (game seeds), each played in every "
                             "rotation (default: 50)")
    parser.add_argument("--seed", type=seed_text, default=None,
                        help="match seed; the same seed gives the same figures, for any "
                             "--workers, unless a bot decides by the clock (a search with a "
                             "time budget), is not seeded (ismcts) or is an outside bot not "
                             "given the same --bot-seed (default: a fresh one, "
                             "shown in the report)")
    parser.add_argument("--bot-seed", type=seed_text, default=None, metavar="SECRET",
                        help="the secret outside (ext:) bots' seeds in hello are derived "
                             "from, with each seat's seed: give the one a report shows to "
                             "replay its outside bots the same way; keep it unguessable "
                             "while bots play, since a bot that found it and --seed could "
                             "deal every hand (default: a fresh 128-bit one when an ext: "
                             "bot plays, shown in the report)")
    parser.add_argument("--workers", type=positive_int, default=usable_cpus(), metavar="N",
                        help="worker processes (default: one per CPU this process may "
                             "use, so a run pinned with taskset gets one a pinned CPU; at "
                             "most that: more are cut to it, saying so; not used with --ray)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run the games as Ray tasks instead of local worker processes: "
                             "on the cluster at ADDRESS (HOST:PORT or ray://HOST:PORT), or "
                             "on a local Ray when no address is given; needs the 'cluster' "
                             "extra, and hearts installed on every node")
    parser.add_argument("--bot-timeout", type=positive_number, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help="seconds an external bot may take per decision "
                             f"(default: {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--bot-start-timeout", type=positive_number, default=STARTUP_TIMEOUT,
                        metavar="SECONDS",
                        help="seconds an external bot may take to start and answer hello, "
                             f"per seat and game (default: {STARTUP_TIMEOUT:g})")
    parser.add_argument("--fallback", default=None, metavar="LEVEL",
                        help="the built-in bot that takes over a failed external bot's seat "
                             "(default: normal if installed, else random)")
    parser.add_argument("--records", type=Path, default=None, metavar="FILE",
                        help="write every game's record to FILE, one JSON object a line")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1, after writing the report, when any bot "
                             "failed (its seat taken over by the fallback in any game; "
                             "pooled reports too): for a check that a bot plays whole "
                             "matches, where its figures would include the fallback's play")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def lineup(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot a seat: the bots as given, repeated around the table if fewer."""
    if not bots or players % len(bots):
        raise ArenaError(f"give one --bot per seat ({players}), or a number of bots that "
                           f"divides it to repeat them around the table; got {len(bots)}")
    return tuple(bots[s % len(bots)] for s in range(players))


def refuse_programs_that_cannot_start(bots: Sequence[str]) -> None:
    """An ArenaError for the first ``ext:`` bot whose program cannot be started here (no
    such file, not executable, a missing interpreter), before any game: its every seat
    would be played by the fallback, and the match would measure the fallback. Each
    program is started as its host starts it, and stopped at once."""
    for text in dict.fromkeys(bots):
        spec = BotSpec.parse(text)
        if not spec.is_external:
            continue
        try:
            process = subprocess.Popen(spec.command, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:
            raise ArenaError(
                f"--bot {text!r}: cannot start {shlex.join(spec.command)!r}: "
                f"{exc.strerror or exc}; give a program that runs here (a path to an "
                "executable file, or a command on PATH)") from None
        process.kill()
        process.wait()


def run(args: argparse.Namespace) -> int:
    """Play the match and print its report."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="hearts arena: %(message)s")
    if args.pool is not None:
        if args.bot:
            raise ArenaError("--pool joins reports already made: give it without --bot")
        data = pool([read_report(path) for path in args.pool])
        print(json.dumps(data, indent=2) if args.json else format_report(data))
        return _status(data, strict=args.strict)
    if not args.bot:
        raise ArenaError("give the bots (--bot SPEC, once per seat), or --pool REPORT ... to "
                         "join the reports of earlier matches")
    rules = Rules.parse(args.rules)
    if args.records is not None:
        check_output_file(args.records, "--records")
    if not args.ray:  # a cluster's nodes start the programs there, not here
        refuse_programs_that_cannot_start(args.bot)
    # local workers only: Ray counts a cluster's CPUs itself (and --workers is not used)
    workers = 1 if args.ray is not None else worker_count(args.workers, "arena", "playing")
    config = MatchConfig(
        rules=rules, lineup=lineup(args.bot, rules.players), deal_sets=args.deal_sets,
        seed=args.seed if args.seed is not None else secrets.token_hex(4),
        timeout=args.bot_timeout, startup_timeout=args.bot_start_timeout,
        fallback=args.fallback, keep_records=args.records is not None,
        bot_seed=args.bot_seed if args.bot_seed is not None or not any(
            BotSpec.parse(bot).is_external for bot in args.bot) else secrets.token_hex(16))
    with games_progress(args.quiet) as progress:
        if args.ray is not None:
            result = run_match_ray(config, args.ray or None, progress=progress)
        else:
            result = run_match(config, workers=workers, progress=progress)
    if args.records is not None:
        write_lines(args.records, result.record_lines())
    data = report(result)
    print(json.dumps(data, indent=2) if args.json else format_report(data))
    return _status(data, strict=args.strict)


def _status(data: dict[str, Any], *, strict: bool) -> int:
    """The exit status once the report is out: 1 under ``--strict`` where a bot failed
    (said on stderr, bot by bot), else 0."""
    failed = [bot for bot in data["figures"]["bots"] if bot["fallbacks"]]
    if not strict or not failed:
        return 0
    for bot in failed:
        print(f"hearts arena: --strict: {bot['bot']} failed; its seat was taken over in "
              f"{counted(bot['fallbacks'], 'game')}", file=sys.stderr)
    return 1


