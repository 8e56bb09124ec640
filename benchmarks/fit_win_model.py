"""Fit the game-standing model of :mod:`hearts.players.standing` to simulated games.

Whole games are simulated in the search kernel (every seat following one playout
policy, no passing) from zero totals to the rules' target. Every hand's starting totals
are one sample, labelled with the game's winners. The model's two constants, the
scale's base and slope (``s = target * (base + slope * left / target)``), are chosen by
maximum likelihood (the winners' probability, a tie counted as a shared win), and the
script prints them with the fit's log-loss beside the even-chances baseline, on a
held-out half of the games. The constants are then copied by hand into
``hearts/players/standing.py`` and the kernel (a test ties the two).

    .venv/bin/python benchmarks/fit_win_model.py --games 20000
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from hearts.core import Rules
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    POLICY_HEURISTIC,
    POLICY_MOON,
    S_SIZE,
    deal_position,
    mix_seed,
    playout,
    round_points,
)

__all__ = ["main", "simulate"]

_POLICIES = {"heuristic": POLICY_HEURISTIC, "moon": POLICY_MOON}


def simulate(rules: Rules, games: int, policy: int, seed: int
             ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per hand started: the totals, the game's winners (1/ties each) and the game index."""
    codes = rules_array(rules)
    players = rules.players
    deck = np.array([c for c in range(52) if rules.deck >> c & 1], dtype=np.int64)
    pos = np.zeros(S_SIZE, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    rng = np.array([mix_seed(seed, 0)], dtype=np.int64)
    states: list[list[int]] = []
    shares: list[list[float]] = []
    game_of: list[int] = []
    for game in range(games):
        totals = np.zeros(players, dtype=np.int64)
        start = len(states)
        while totals.max() < rules.target:
            states.append(totals.tolist())
            game_of.append(game)
            deal_position(codes, rng, pos, deck)
            playout(pos, codes, policy, rng)
            round_points(pos, codes, totals, points)
            totals += points
        best = totals.min()
        share = [(1.0 / int((totals == best).sum())) if t == best else 0.0 for t in totals]
        shares.extend([share] * (len(states) - start))
    return (np.array(states, dtype=np.float64), np.array(shares, dtype=np.float64),
            np.array(game_of, dtype=np.int64))


def log_loss(params: npt.NDArray[np.float64], totals: npt.NDArray[np.float64],
             shares: npt.NDArray[np.float64], target: int) -> float:
    """Mean negative log-probability of the winners under the model with ``params``."""
    base, slope = params
    left = target - totals.max(axis=1, keepdims=True)
    scale = np.maximum(target * (base + slope * left / target), 1e-6)
    logits = -(totals - totals.min(axis=1, keepdims=True)) / scale
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    won = np.log(np.maximum((np.exp(logp) * (shares > 0)).sum(axis=1), 1e-300))
    return float(-won.mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--policy", choices=sorted(_POLICIES), default="moon")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    totals, shares, game_of = simulate(rules, args.games, _POLICIES[args.policy], args.seed)
    train, test = game_of % 2 == 0, game_of % 2 == 1
    fit = minimize(log_loss, np.array([0.1, 0.2]), args=(totals[train], shares[train],
                                                          rules.target), method="Nelder-Mead")
    base, slope = fit.x
    print(f"{args.games} games ({len(totals)} hands) of {rules.text}, policy {args.policy}, "
          f"seed {args.seed}")
    print(f"WIN_SCALE_BASE = {base:.4f}")
    print(f"WIN_SCALE_SLOPE = {slope:.4f}")
    print(f"held-out log-loss {log_loss(fit.x, totals[test], shares[test], rules.target):.4f}"
          f" (even chances: {math.log(rules.players):.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
