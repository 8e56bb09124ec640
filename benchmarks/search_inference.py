"""Does weighing worlds by the others' plays point at the true deal?

Plays seeded games (``--opponents`` at every seat), and at decisions of the play phase
after the first ``--from-trick`` tricks compares, from the deciding seat's view, the
weight of the true deal (:func:`~hearts.players.search.kernel.world_weight`) with the
mean weight of the worlds the sampler deals. A ratio above 1 means the weights favour
worlds like the true one: the inference points the right way. Prints the geometric mean
of the ratio, the share of decisions where it is above 1, and the effective share of
worlds the weights leave (their spread's cost in samples), per trust.

    .venv/bin/python benchmarks/search_inference.py --games 4 --opponents normal
    .venv/bin/python benchmarks/search_inference.py --games 2 --opponents hard:iterations=200
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

import numpy as np

from hearts.arena.specs import BotSpec, build_player
from hearts.cli.common import (
    bot_spec,
    comma_list,
    fraction,
    non_negative_int,
    positive_int,
    rules_text,
)
from hearts.core import GameState, Phase, PlayerView, Rules, new_game, view
from hearts.players import run_game
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import POLICY_MOON, mix_seed, world_weight
from hearts.players.search.player import round_history
from hearts.players.search.sampler import HiddenInfo

__all__ = ["main"]


def _weights(seen: PlayerView, hands: list[int], trust: float, worlds: int,
             rng: random.Random) -> tuple[float, list[float]]:
    """The true deal's weight and the weights of ``worlds`` sampled worlds."""
    me = seen.seat
    assert me is not None
    start, played, history = round_history(seen)
    rules = rules_array(seen.rules, seen.round_no)
    scratch = np.zeros_like(start)

    def weight(world: list[int] | tuple[int, ...]) -> float:
        state = np.array([mix_seed(rng.getrandbits(32), 0)], dtype=np.int64)
        return float(world_weight(start, rules, me, np.array(world, dtype=np.int64),
                                  played, history, trust, POLICY_MOON, state, scratch))

    info = HiddenInfo.of(seen).consistent()
    return weight(hands), [weight(info.sample(rng)) for _ in range(worlds)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=positive_int, default=4)
    parser.add_argument("--opponents", type=bot_spec, default="normal",
                        help="bot spec at every seat")
    parser.add_argument("--rules", type=rules_text, default="standard:rounds=4")
    parser.add_argument("--trusts", type=comma_list(fraction), default=[0.25, 0.5, 0.75],
                        help="weights of a play the model does not expect (above 0, at most 1)")
    parser.add_argument("--worlds", type=positive_int, default=300)
    parser.add_argument("--from-trick", type=non_negative_int, default=3)
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    if args.from_trick >= rules.hand_size:
        parser.error(f"argument --from-trick: a hand of {rules.text} has {rules.hand_size} "
                     f"tricks, so at most {rules.hand_size - 1} is allowed, not {args.from_trick}")
    trusts: list[float] = args.trusts
    ratios: dict[float, list[float]] = {t: [] for t in trusts}
    shares: dict[float, list[float]] = {t: [] for t in trusts}
    rng = random.Random(1)

    def observe(state: GameState) -> bool:
        if state.phase is Phase.PLAY and len(state.tricks) >= args.from_trick:
            seat = state.to_act[0]
            hands = [state.hand(s).mask for s in range(rules.players)]
            for trust in trusts:
                true, sampled = _weights(view(state, seat), hands, trust, args.worlds, rng)
                mean = statistics.fmean(sampled)
                ratios[trust].append(math.log(true / mean))
                shares[trust].append(mean ** 2 / statistics.fmean(w * w for w in sampled))
        return False

    for game in range(args.games):
        players = [build_player(BotSpec.parse(args.opponents), seat=seat, rules=rules,
                                seed=f"inference-{game}-{seat}")
                   for seat in range(rules.players)]
        run_game(new_game(rules, f"inference-{game}"), players, stop=observe)
    print(f"opponents {args.opponents}, rules {rules.text}, {args.games} games, "
          f"{args.worlds} worlds a decision, from trick {args.from_trick}")
    print(f"{'trust':>6} {'decisions':>9} {'true/mean (geo)':>16} {'true > mean':>12} "
          f"{'effective share':>16}")
    for trust in trusts:
        logs = ratios[trust]
        print(f"{trust:6.2f} {len(logs):9d} {math.exp(statistics.fmean(logs)):16.2f} "
              f"{sum(x > 0 for x in logs) / len(logs):12.2f} "
              f"{statistics.fmean(shares[trust]):16.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
