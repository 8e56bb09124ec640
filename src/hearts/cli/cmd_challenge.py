"""``hearts challenge``: make, show, check and submit duplicate challenges.

A challenge (:mod:`hearts.challenge`) is a code anyone can play: ``hearts play
--challenge CODE`` here, or ``/c/CODE`` on a server. ``check`` re-checks a played record
offline as a server does (every deal from the seed, every computer move decided again);
``submit`` sends it to a server's leaderboard, which checks it once more.
"""

from __future__ import annotations

import argparse
import http.client
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Final

from hearts.challenge import (
    CODE_ALPHABET,
    DEFAULT_ITERATIONS,
    MAX_DEALS,
    MAX_ITERATIONS,
    OPPONENT_LEVELS,
    Challenge,
    ChallengeResult,
    ForgedEntryError,
    check_entry,
    seed_error,
)
from hearts.cli.cmd_play import challenge_code
from hearts.cli.cmd_replay import read_record
from hearts.cli.common import CommandLineError, name_list, whole_number_range
from hearts.core import PRESETS, JsonTextError, is_whole_number, read_json
from hearts.wording import counted

__all__ = ["SUBMIT_TIMEOUT", "configure", "run_check", "run_new", "run_show", "run_submit"]

SUBMIT_TIMEOUT: Final = 120.0
"""Seconds to wait for a server's answer: it replays every computer move of the record."""
_SEED_LENGTH: Final = 10
_MAX_ANSWER_BYTES: Final = 1_000_000


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``challenge`` subcommand's actions (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Duplicate challenges: the same deals against the same computer "
                          "opponents for everyone who has the code. Play one with "
                          "'hearts play --challenge CODE'.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    # alone, as ``hearts`` alone: the help, exit status 0
    parser.set_defaults(func=lambda _args: _print_help(parser))

    new = actions.add_parser("new", help="make a challenge and print its code",
                             description="Make a challenge: print its code and link.")
    new.add_argument("--preset", choices=tuple(PRESETS), default="card-commons",
                     help="the rules (default: card-commons)")
    new.add_argument("--opponents",
                     type=name_list(OPPONENT_LEVELS, "level", "challenge opponents"),
                     default=["normal"] * 3, metavar="L1,L2,...",
                     help="a computer level for each seat after yours, from your left "
                          f"(levels: {', '.join(OPPONENT_LEVELS)}; default: normal,normal,"
                          "normal)")
    new.add_argument("--deals", type=whole_number_range(1, MAX_DEALS, "a number of deals"),
                     default=4, metavar="N",
                     help=f"how many deals, 1 to {MAX_DEALS} (default: 4)")
    new.add_argument("--seed", type=_challenge_seed, metavar="SEED",
                     help="the deals' seed (default: a random one; digits and lowercase "
                          "letters but i, l, o, u, v)")
    new.add_argument("--iterations",
                     type=whole_number_range(1, MAX_ITERATIONS, "a number of worlds"),
                     default=DEFAULT_ITERATIONS, metavar="N",
                     help=f"worlds an expert opponent searches a decision, 1 to "
                          f"{MAX_ITERATIONS} (default: {DEFAULT_ITERATIONS})")
    new.set_defaults(func=run_new)

    show = actions.add_parser("show", help="what a challenge code stands for",
                              description="Say what a challenge code stands for.")
    show.add_argument("code", type=challenge_code, metavar="CODE",
                      help="the challenge's code, or its link (ending /c/CODE)")
    show.set_defaults(func=run_show)

    check = actions.add_parser(
        "check", help="re-check a played record offline, as a server does",
        description="Re-check a record as a play of a challenge: the rules, every deal from "
                    "the seed and every computer move decided again. Prints the points deal "
                    "by deal, or the first difference found (exit status 1).")
    check.add_argument("record", metavar="RECORD",
                       help="the game record (JSON); - reads standard input")
    check.add_argument("--code", type=challenge_code, metavar="CODE",
                       help="the challenge (default: the one the record names)")
    check.set_defaults(func=run_check)

    submit = actions.add_parser(
        "submit", help="send a played record to a server's leaderboard",
        description="Send a challenge's record to URL/api/challenges/CODE/entries and print "
                    "its place on the leaderboard, or the server's refusal.")
    submit.add_argument("record", metavar="RECORD",
                        help="the game record (JSON); - reads standard input")
    submit.add_argument("--server", required=True, metavar="URL",
                        help="the server, e.g. https://hearts.example.org")
    submit.add_argument("--code", type=challenge_code, metavar="CODE",
                        help="the challenge (default: the one the record names)")
    submit.set_defaults(func=run_submit)


# ----------------------------------------------------------------------- actions
def _print_help(parser: argparse.ArgumentParser) -> int:
    """``hearts challenge`` with no action: its help, as ``hearts`` alone prints its."""
    parser.print_help()
    return 0


def run_new(args: argparse.Namespace) -> int:
    """Print the new challenge's code, its link's path and how to play it."""
    seed = args.seed or "".join(secrets.choice(CODE_ALPHABET) for _ in range(_SEED_LENGTH))
    challenge = Challenge.create(args.preset, args.opponents, args.deals, seed,
                                 args.iterations)
    print(challenge.code)
    print(f"Link:    /c/{challenge.code} on a server")
    print(f"Play it: hearts play --challenge {challenge.code}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print what the code stands for."""
    challenge: Challenge = args.code
    print(f"Challenge {challenge.code}")
    print(f"  rules:      {challenge.rules.text} ({counted(challenge.deals, 'deal')}, "
          "the game ends after them)")
    print(f"  opponents:  {', '.join(challenge.opponents)} (seats 1-{challenge.players - 1}, "
          "from your left)")
    print(f"  seed:       {challenge.seed}")
    print(f"  iterations: {challenge.iterations} worlds an expert decision")
    if challenge.stale is not None:
        print(f"  note:       {challenge.stale}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Print the entry's points deal by deal (exit 0), or the forgery found (exit 1)."""
    record, challenge = _read_entry(args)
    try:
        result = check_entry(challenge, record)
    except ForgedEntryError as exc:
        print(f"FORGED  not a play of challenge {challenge.code}: {exc}")
        return 1
    print(f"OK  {result.name} played challenge {challenge.code}"
          + ("" if result.complete else
             f" (unfinished: {len(result.points)} of {challenge.deals} deals)"))
    print(_points_line(result))
    print(f"fingerprint {result.fingerprint}")
    return 0


def run_submit(args: argparse.Namespace) -> int:
    """POST the record; print the place it took, or the server's refusal (exit 1)."""
    record, challenge = _read_entry(args)
    url = _entries_url(args.server, challenge)
    request = urllib.request.Request(
        url, data=json.dumps(record).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=SUBMIT_TIMEOUT) as response:
            answer = _json_answer(response.read(_MAX_ANSWER_BYTES))
    except urllib.error.HTTPError as exc:
        refusal = _json_answer(exc.read(_MAX_ANSWER_BYTES))
        code = refusal.get("code") or refusal.get("error") or f"HTTP {exc.code}"
        print(f"REFUSED ({code}): {refusal.get('message') or exc.reason}")
        return 1
    except urllib.error.URLError as exc:
        raise CommandLineError(f"cannot reach {args.server}: {exc.reason}") from None
    except TimeoutError:
        raise CommandLineError(f"{args.server} did not answer within {SUBMIT_TIMEOUT:.0f} "
                               "seconds") from None
    except http.client.HTTPException as exc:  # an address http cannot use, a non-HTTP reply
        raise CommandLineError(f"{args.server} did not answer as a web server does: "
                               f"{type(exc).__name__} {exc}".rstrip()) from None
    entry = answer.get("entry")
    place = answer.get("place")
    if not (isinstance(entry, Mapping) and is_whole_number(entry.get("total"))
            and is_whole_number(place, 1)):
        raise CommandLineError(f"{args.server} answered, but not with a place on the "
                               "leaderboard: is it a Card Commons Hearts server?")
    already = "" if answer.get("added", True) else " (this play was already there)"
    print(f"Entered on the leaderboard of challenge {challenge.code}: place {place}, "
          f"{entry['total']} points{already}")
    return 0


# ----------------------------------------------------------------------- helpers
def _read_entry(args: argparse.Namespace) -> tuple[dict[str, Any], Challenge]:
    """The record in the file (refused as every command refuses a file that is no
    record) and the challenge: ``--code``, else the one it names."""
    record = dict(read_record(args.record, f"hearts challenge {args.action}"))
    if args.code is not None:
        return record, args.code
    named = record.get("challenge")
    if not isinstance(named, str):
        raise CommandLineError("the record names no challenge (a record saved by 'hearts "
                               "play --challenge' does): give it with --code CODE")
    try:
        return record, challenge_code(named)
    except argparse.ArgumentTypeError as exc:
        raise CommandLineError(f"the record's challenge: {exc}") from None


def _challenge_seed(text: str) -> str:
    """An argparse type: a challenge's seed (its code is made of it)."""
    problem = seed_error(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def _entries_url(server: str, challenge: Challenge) -> str:
    """``SERVER/api/challenges/CODE/entries`` for an http(s) server address."""
    try:
        parts = urllib.parse.urlsplit(server.strip())
        usable = parts.scheme in ("http", "https") and bool(parts.netloc)
        parts.port  # noqa: B018  (a port that is no number raises here, not when sending)
    except ValueError:  # a broken address: "http://[::1", a port of letters
        usable = False
    if not usable:
        raise CommandLineError(f"--server is an http:// or https:// address, not {server!r}")
    return f"{server.strip().rstrip('/')}/api/challenges/{challenge.code}/entries"


def _json_answer(raw: bytes) -> dict[str, Any]:
    """A server's JSON object answer, or an empty one where it sent something else."""
    try:
        data = read_json(raw)
    except JsonTextError:
        return {}
    return data if isinstance(data, dict) else {}


def _points_line(result: ChallengeResult) -> str:
    deals = "  ".join(f"deal {number}: {points}"
                      for number, points in enumerate(result.points, start=1))
    return f"{deals}  total {result.total}"
