"""Fit the game-standing model of :mod:`hearts.players.standing` to simulated games.

Whole games are simulated in the search kernel (every seat following one playout
policy, no passing) from zero totals to the rules' target. Every hand's starting totals
are one sample, labelled with the game's winners. The model's constants are chosen by
maximum likelihood (the winners' probability, a tie counted as a shared win) on half of
the games, and the script prints them with the fit's log-loss on the other half beside
the even-chances baseline:

- the scale's base and slope (``s = target * (base + slope * left / target)``), from games
  played to the target;
- the round scale (``s`` at most ``round_scale * sqrt(r)`` with ``r`` rounds left), from
  games of a fixed number of rounds (``--rounds``, each count as many games), the base
  and slope held at the values the players use (``hearts.players.standing``); beside
  it, the log-loss of that model without the round term on the same hands.

The constants are then copied by hand into ``hearts/players/standing.py`` and the kernel
(a test ties the two).

    .venv/bin/python benchmarks/fit_win_model.py --games 20000
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from hearts.cli.common import non_negative_int, positive_int, positive_ints, rules_text
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
from hearts.players.standing import WIN_SCALE_BASE, WIN_SCALE_SLOPE

__all__ = ["Hands", "log_loss", "main", "simulate"]

Floats = npt.NDArray[np.float64]
Hands = tuple[Floats, Floats, npt.NDArray[np.int64], Floats]

_POLICIES = {"heuristic": POLICY_HEURISTIC, "moon": POLICY_MOON}
_NO_LIMIT = 1e9  # "rounds left" of a game that only its target ends


def simulate(rules: Rules, games: int, policy: int, seed: int) -> Hands:
    """Per hand started: the totals, the game's winners (1/ties each), the game index and
    the rounds the game may still play (:data:`_NO_LIMIT` if only the target ends it)."""
    codes = rules_array(rules)
    players = rules.players
    deck = np.array([c for c in range(52) if rules.deck >> c & 1], dtype=np.int64)
    pos = np.zeros(S_SIZE, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    rng = np.array([mix_seed(seed, 0)], dtype=np.int64)
    states: list[list[int]] = []
    shares: list[list[float]] = []
    game_of: list[int] = []
    rounds_left: list[float] = []
    for game in range(games):
        totals = np.zeros(players, dtype=np.int64)
        start = len(states)
        played = 0
        while totals.max() < rules.target and not rules.final_round(played):
            states.append(totals.tolist())
            game_of.append(game)
            left = rules.rounds_left(played)
            rounds_left.append(_NO_LIMIT if left is None else left)
            deal_position(codes, rng, pos, deck)
            playout(pos, codes, policy, rng)
            round_points(pos, codes, totals, points)
            totals += points
            played += 1
        best = totals.min()
        share = [(1.0 / int((totals == best).sum())) if t == best else 0.0 for t in totals]
        shares.extend([share] * (len(states) - start))
    return (np.array(states, dtype=np.float64), np.array(shares, dtype=np.float64),
            np.array(game_of, dtype=np.int64), np.array(rounds_left, dtype=np.float64))


def log_loss(base: float, slope: float, round_scale: float, hands: Hands,
             target: int) -> float:
    """Mean negative log-probability of the winners of ``hands`` under the model."""
    totals, shares, _, rounds_left = hands
    left = target - totals.max(axis=1, keepdims=True)
    scale = np.minimum(target * (base + slope * left / target),
                       round_scale * np.sqrt(rounds_left[:, None]))
    logits = -(totals - totals.min(axis=1, keepdims=True)) / np.maximum(scale, 1e-6)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    won = np.log(np.maximum((np.exp(logp) * (shares > 0)).sum(axis=1), 1e-300))
    return float(-won.mean())


def _halves(hands: Hands) -> tuple[Hands, Hands]:
    """The hands of the even games (to fit) and of the odd ones (held out)."""
    games = hands[2]
    even, odd = games % 2 == 0, games % 2 == 1
    return (tuple(part[even] for part in hands),  # type: ignore[return-value]
            tuple(part[odd] for part in hands))


def _join(parts: list[Hands]) -> Hands:
    return tuple(np.concatenate([part[i] for part in parts]) for i in range(4))  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=rules_text, default="standard",
                        help="rules of the games (default standard; a rounds option is "
                             "ignored: --rounds gives those)")
    parser.add_argument("--games", type=positive_int, default=20_000,
                        help="games simulated to the target, and of each --rounds count")
    parser.add_argument("--rounds", type=positive_ints, default=[4, 8, 12, 16],
                        help="round counts of the games the round scale is fitted to")
    parser.add_argument("--policy", choices=sorted(_POLICIES), default="moon")
    parser.add_argument("--seed", type=non_negative_int, default=12)
    args = parser.parse_args(argv)
    rules: Rules = args.rules.replace(rounds=0)
    policy = _POLICIES[args.policy]
    to_target = _halves(simulate(rules, args.games, policy, args.seed))
    fit = minimize(lambda p: log_loss(p[0], p[1], _NO_LIMIT, to_target[0], rules.target),
                   np.array([0.1, 0.2]), method="Nelder-Mead")
    base, slope = (float(x) for x in fit.x)
    print(f"{args.games} games ({len(to_target[0][0]) + len(to_target[1][0])} hands) of "
          f"{rules.text} to the target, policy {args.policy}, seed {args.seed}")
    print(f"WIN_SCALE_BASE = {base:.4f}")
    print(f"WIN_SCALE_SLOPE = {slope:.4f}")
    print(f"held-out log-loss {log_loss(base, slope, _NO_LIMIT, to_target[1], rules.target):.4f}"
          f" (even chances: {math.log(rules.players):.4f})")
    counted = [_halves(simulate(rules.replace(rounds=rounds), args.games, policy,
                                args.seed + rounds)) for rounds in args.rounds]
    train, test = _join([part[0] for part in counted]), _join([part[1] for part in counted])
    base, slope = WIN_SCALE_BASE, WIN_SCALE_SLOPE
    fit = minimize(lambda p: log_loss(base, slope, p[0], train, rules.target),
                   np.array([5.0]), method="Nelder-Mead")
    round_scale = float(fit.x[0])
    print(f"{args.games} games of each of {', '.join(map(str, args.rounds))} rounds "
          f"({len(train[0]) + len(test[0])} hands), with the players' base {base} and "
          f"slope {slope}")
    print(f"WIN_ROUND_SCALE = {round_scale:.4f}")
    without = log_loss(base, slope, _NO_LIMIT, test, rules.target)
    print(f"held-out log-loss {log_loss(base, slope, round_scale, test, rules.target):.4f}"
          f" (without the round term: {without:.4f}; even chances: "
          f"{math.log(rules.players):.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
