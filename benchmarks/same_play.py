"""Whether two versions of the tree play alike: the same games from both, card for card.

Arena reports pool only when one code played them (``hearts.arena.match.playing_code``, a
digest of every playing source) or codes kept as playing alike (``PLAYS_AS``): without an
entry there, a docstring, a hint's wording or a new option off by default starts every
pool again. This script plays one arena match with each version, at fixed worlds so that
neither the clock nor the machine's load steers a search, and compares the games as played
(every member of their records that says what was played, byte for byte). When every game
is the same it prints the entry for ``hearts.arena.match.PLAYS_AS`` that lets the new
code's runs pool with the old code's; it exits 1 at the first game that differs, naming
it.

A version is a git revision (its ``src`` taken with ``git archive``) or, without
``--new``, the working tree as it stands. Each runs in its own Python process with its
``src`` first on the path. Fixed worlds leave the clock out: a change to how a search
spends its time is not shown harmless by this check, and wants a timed comparison
(``compare_reports.py``).

    .venv/bin/python benchmarks/same_play.py --old d72bb56 --new bf1d636
    .venv/bin/python benchmarks/same_play.py --old HEAD --bot expert:iterations=60,game_weight=0
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from hearts.cli.common import bot_spec, positive_int, rules_text, seed_text

__all__ = ["BOTS", "first_difference", "main", "revision"]

ROOT = Path(__file__).resolve().parents[1]
BOTS = ("expert:iterations=60", "hard:iterations=60", "normal", "easy")
"""Every level that plays by its own code, the search levels at fixed worlds."""


def revision(text: str) -> str:
    """An argparse type: a git revision of this repository that names a commit."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                            f"{text}^{{commit}}"], capture_output=True, text=True, check=False)
    if found.returncode != 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a commit of {ROOT}")
    return text


def _export(commit: str, into: Path) -> Path:
    """The ``src`` of a git revision, written under ``into``; its path."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _python(src: Path, *arguments: str) -> str:
    """Run this Python with ``src`` first on the path; its standard output."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, *arguments], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments[:3])} failed with the tree at {src}:\n"
                           f"{done.stderr.strip()}")
    return done.stdout


def _code(src: Path) -> str:
    """The playing code of the tree at ``src``, after checking that it is the one loaded."""
    where, code = _python(src, "-c", "import hearts; from hearts.arena.match import "
                          "playing_code; print(hearts.__file__); print(playing_code())"
                          ).split()
    if not Path(where).resolve().is_relative_to(src.resolve()):
        raise RuntimeError(f"the tree at {src} was not the one loaded ({where})")
    return code


def _records(src: Path, args: argparse.Namespace, into: Path) -> list[str]:
    """The play of each game of the match (:func:`play_of`), as the tree at ``src`` plays
    it."""
    bots = [option for bot in args.bot or BOTS for option in ("--bot", bot)]
    _python(src, "-m", "hearts.cli.main", "arena", *bots, "--rules", str(args.rules),
            "--deal-sets", str(args.deal_sets), "--seed", args.seed, "--workers", "1",
            "--records", str(into))
    return [play_of(line) for line in into.read_text(encoding="utf-8").splitlines()]


# The members of a game record that say what was played: the deals, every action, the
# results. Others say who played (``people``) and may come or go with a version.
_PLAY = ("rules", "seed", "seats", "first_round", "scores", "rounds", "complete", "totals",
         "winners")


def play_of(line: str) -> str:
    """An arena records line's game as played, one text to compare: its deal set and seat
    rotation, and its record's members of :data:`_PLAY`."""
    game = json.loads(line)
    record = game["record"]
    return json.dumps([game["deal_set"], game["rotation"], *(record.get(key) for key in _PLAY)])


def first_difference(old: list[str], new: list[str]) -> int | None:
    """The index of the first game whose record differs (or that one side lacks), or None
    when both played the same games."""
    for index, (before, after) in enumerate(zip(old, new, strict=False)):
        if before != after:
            return index
    return None if len(old) == len(new) else min(len(old), len(new))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, type=revision, metavar="REV",
                        help="the git revision whose code the new one should play as")
    parser.add_argument("--new", type=revision, default=None, metavar="REV",
                        help="a git revision (default: the working tree as it stands)")
    parser.add_argument("--bot", action="append", type=bot_spec, default=None,
                        help=f"a seat of the lineup, repeated (default: {' '.join(BOTS)})")
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--deal-sets", type=positive_int, default=3)
    parser.add_argument("--seed", type=seed_text, default="same-play")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="same-play-") as scratch:
        work = Path(scratch)
        trees = {"old": _export(args.old, work / "old"),
                 "new": _export(args.new, work / "new") if args.new else ROOT / "src"}
        try:
            codes = {side: _code(src) for side, src in trees.items()}
            games = {side: _records(src, args, work / f"{side}.jsonl")
                     for side, src in trees.items()}
        except RuntimeError as exc:  # a version that cannot play the match: say which
            print(f"same_play: {exc}", file=sys.stderr)
            return 2
    print(f"old {args.old} (code {codes['old']}), new {args.new or 'working tree'} "
          f"(code {codes['new']}): {len(games['old'])} and {len(games['new'])} games")
    differs = first_difference(games["old"], games["new"])
    if differs is not None:
        print(f"game {differs + 1} differs: the new code does not play as the old")
        return 1
    print("every game is the same, card for card")
    if codes["new"] != codes["old"]:
        print(f'PLAYS_AS entry: "{codes["new"]}": "{codes["old"]}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
