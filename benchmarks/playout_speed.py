"""Playout speed of the search kernel: whole hands per second on one core.

Each hand is dealt in the kernel (a shuffle of the deck in play), played to the last
trick and scored (moon included), with every seat following one policy: ``random``
(uniform over the legal cards, the figure comparable to a plain random-playout loop)
or one of the search's playout policies (``PLAYOUTS``: ``heuristic``, ``moon``, ``lead``,
``learned``; ``--policies`` picks them). Numba runs single-threaded, so this
is one core; the clock is this process's CPU time, so other load on a shared machine
does not count against it. The first call compiles or loads the on-disk cache and is
not timed.

    .venv/bin/python benchmarks/playout_speed.py --seconds 2
    .venv/bin/python benchmarks/playout_speed.py --rules classic:players=6 --seconds 1
    .venv/bin/python benchmarks/playout_speed.py --rules standard --policies lead,learned
"""

from __future__ import annotations

import argparse
import time

from hearts.cli.common import name_list, positive_number, rules_text
from hearts.core import Rules
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import POLICY_RANDOM, play_random_hands
from hearts.players.search.player import PLAYOUTS

__all__ = ["TABLES", "hands_per_second", "main"]

TABLES = [
    "card-commons",
    "card-commons:players=3",
    "standard",
    *(f"classic:players={n}" for n in range(2, 7)),
]
_POLICIES = {"random": POLICY_RANDOM, **PLAYOUTS}


def hands_per_second(rules: Rules, policy: int, seconds: float) -> float:
    """Whole hands per CPU second, measured in batches for about ``seconds`` of CPU."""
    codes = rules_array(rules)
    play_random_hands(codes, 10, policy, 0)  # compile or load the cache
    batch, hands, spent, seed = 10_000, 0, 0.0, 1
    while spent < seconds:
        start = time.process_time()
        play_random_hands(codes, batch, policy, seed)
        spent += time.process_time() - start
        hands += batch
        seed += 1
    return hands / spent


def main(argv: list[str] | None = None) -> int:
    """Print hands per second for each table and policy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=rules_text, action="append",
                        help="rules text (repeatable); "
                        "default: every preset at every player count")
    parser.add_argument("--seconds", type=positive_number, default=2.0,
                        help="time per measurement")
    parser.add_argument("--policies", type=name_list(_POLICIES, "policy", "policies"),
                        default=["random", "heuristic"],
                        help=f"comma-separated, of: {', '.join(_POLICIES)} "
                        "(default: random,heuristic)")
    args = parser.parse_args(argv)
    print(f"{'rules':28}" + "".join(f" {name + ' hands/s':>18}" for name in args.policies))
    for rules in args.rules or [Rules.parse(text) for text in TABLES]:
        rates = [hands_per_second(rules, _POLICIES[name], args.seconds)
                 for name in args.policies]
        print(f"{rules.text:28}" + "".join(f" {rate:18,.0f}" for rate in rates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
