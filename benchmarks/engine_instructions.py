"""Engine cost in CPU instructions per hand, ours against OpenSpiel's ``hearts``, under callgrind.

Wall-clock figures on a shared machine swing by a third from run to run; instruction
counts do not. This script runs the loops of ``engine_speed.py`` (the same drivers)
under ``valgrind --tool=callgrind`` twice per engine, once with no hands and once with
some, and divides the difference by the hands played: start-up and imports cancel out.
Instructions are not time (memory traffic differs), so read it beside ``engine_speed.py``.

    .venv/bin/python benchmarks/engine_instructions.py                 # standard rules
    .venv/bin/python benchmarks/engine_instructions.py --preset card-commons --games 60

Needs ``valgrind`` (Debian: ``apt-get install valgrind``); OpenSpiel is optional.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

from engine_speed import hearts_hands, openspiel_hand

from hearts.cli.common import non_negative_int, rules_text

__all__ = ["main"]

_COLLECTED = re.compile(r"Collected : ([\d,]+)")


def play(engine: str, preset: str, warm: int, games: int) -> int:
    """Play ``warm`` untimed runs, then ``games`` more; the hands of the latter."""
    rng = random.Random(1)
    if engine == "ours":
        from hearts.core import Rules

        rules = Rules.parse(preset)
        for i in range(warm):
            hearts_hands(rules, rng, i)
        return sum(hearts_hands(rules, rng, warm + i) for i in range(games))
    import pyspiel

    game = pyspiel.load_game("hearts")
    for _ in range(warm):
        openspiel_hand(game, rng)
    return sum(openspiel_hand(game, rng) for _ in range(games))


def instructions(engine: str, preset: str, warm: int, games: int) -> tuple[int, int]:
    """Instructions callgrind counts for a child process playing, and its hands."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, str(Path(__file__)), "--child", engine, "--preset", preset,
               "--warm", str(warm), "--games", str(games)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def per_hand(engine: str, preset: str, warm: int, games: int) -> tuple[float, int]:
    """Instructions per hand in steady state (start-up subtracted), and the hands timed."""
    base, _ = instructions(engine, preset, warm, 0)
    total, hands = instructions(engine, preset, warm, games)
    return (total - base) / hands, hands


def main() -> None:
    """Print instructions per hand for both engines and how many times fewer ours needs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", type=rules_text, default="standard", help="our rules text")
    parser.add_argument("--games", type=non_negative_int, default=40,
                        help="our whole games measured (OpenSpiel plays 5 hands a game)")
    parser.add_argument("--warm", type=non_negative_int, default=20,
                        help="our games played first")
    parser.add_argument("--child", choices=["ours", "openspiel"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    preset: str = args.preset.text
    if args.child:
        print(play(args.child, preset, args.warm, args.games))
        return
    # 0 is for the children that count start-up alone; a figure per hand needs hands
    if args.games < 1:
        parser.error(f"argument --games: at least 1 game is measured, not {args.games}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    from hearts.core._native import engine_in_use

    print(f"engine: {engine_in_use()}")
    ours, hands = per_hand("ours", preset, args.warm, args.games)
    print(f"card-commons-hearts ({preset}): {ours:,.0f} instructions/hand ({hands} hands)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel not installed: no comparison")
        return
    theirs, hands = per_hand("openspiel", preset, args.warm, args.games * 5)
    print(f"OpenSpiel hearts (Python loop): {theirs:,.0f} instructions/hand ({hands} hands)")
    print(f"ratio: {theirs / ours:.2f}x fewer instructions")


if __name__ == "__main__":
    main()
