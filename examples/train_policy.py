"""Train a small Hearts policy on the batched simulator, then measure it in the arena.

A worked example of learning on our rules with NumPy alone: REINFORCE (policy gradient with
a mean baseline) for a one-hidden-layer softmax policy over the allowed actions of the
944-value observation. Seat 0 of every game is the learner; the other seats play uniformly
random allowed actions (compiled inside :class:`hearts.env.batched.BatchedHearts`). Each
episode is one hand and the reward is the learner's points of that hand, negated.

The weights go to an ``.npz`` file that ``hearts arena --bot policy:FILE`` and
``hearts bot policy:FILE`` can seat (:class:`hearts.players.policy.PolicyPlayer`, which
plays the best-scored allowed action). The example ends with an arena match on duplicate
deals, the trained policy against three ``random`` seats, and prints the margin in points
per hand with its 95% interval::

    .venv/bin/python examples/train_policy.py --minutes 3 --out policy.npz
    .venv/bin/hearts arena --rules standard --bot policy:policy.npz --bot random \\
        --bot random --bot random --deal-sets 100 --seed 1
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import numpy.typing as npt

from hearts.arena.match import MatchConfig, run_match
from hearts.arena.report import format_report, report
from hearts.cli.common import non_negative_int, positive_int, positive_number, rules_text
from hearts.core import Rules
from hearts.env.batched import BatchedHearts
from hearts.players.observation import ACTION_COUNT, OBSERVATION_SIZE, POINTS_SCALE
from hearts.players.policy import Layers, policy_logits, save_layers
from hearts.players.search.kernel import mix_seed

Array = npt.NDArray[np.float32]
LEARNER = 0


def init_layers(hidden: int, rng: np.random.Generator) -> Layers:
    """Small random weights: a ReLU hidden layer, then the action scores."""
    sizes = [OBSERVATION_SIZE, hidden, ACTION_COUNT]
    return [((rng.standard_normal((a, b)) * np.sqrt(2.0 / a) * (0.1 if b == ACTION_COUNT else 1))
             .astype(np.float32), np.zeros(b, dtype=np.float32))
            for a, b in itertools.pairwise(sizes)]


def sample_actions(probs: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action a row, drawn by its probabilities, never one of probability 0: the draw
    is taken in (0, the row's sum], which float32 rounding may leave just under 1 (a draw
    of [0, 1) past it once chose action 53 under any mask)."""
    cumulative = probs.cumsum(axis=1)
    draws = (1.0 - rng.random(len(probs)))[:, None] * cumulative[:, -1:]
    return (cumulative < draws).sum(axis=1)


def masked_softmax(scores: Array, masks: npt.NDArray[np.int8]) -> Array:
    """Action probabilities over the allowed actions only."""
    scores = np.where(masks > 0, scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=1, keepdims=True)


def gradients(layers: Layers, obs: Array, masks: npt.NDArray[np.int8],
              actions: npt.NDArray[np.int64], advantages: Array) -> Layers:
    """The gradient of the mean of ``advantage * log pi(action)`` for every layer."""
    (w0, b0), (w1, b1) = layers
    hidden_in = obs @ w0 + b0
    hidden = np.maximum(hidden_in, 0.0)
    probs = masked_softmax(hidden @ w1 + b1, masks)
    grad_scores = -probs
    grad_scores[np.arange(len(actions)), actions] += 1.0
    grad_scores *= advantages[:, None] / len(actions)
    grad_hidden = (grad_scores @ w1.T) * (hidden_in > 0)
    return [(obs.T @ grad_hidden, grad_hidden.sum(axis=0)),
            (hidden.T @ grad_scores, grad_scores.sum(axis=0))]


class Adam:
    """The Adam step, ascending the gradient."""

    def __init__(self, layers: Layers, rate: float) -> None:
        self.rate = rate
        self.moments = [[np.zeros_like(p) for p in layer] for layer in layers]
        self.squares = [[np.zeros_like(p) for p in layer] for layer in layers]
        self.steps = 0

    def step(self, layers: Layers, grads: Layers) -> None:
        self.steps += 1
        for layer, grad, moment, square in zip(layers, grads, self.moments, self.squares,
                                               strict=True):
            for param, g, m, v in zip(layer, grad, moment, square, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                m_hat = m / (1 - 0.9 ** self.steps)
                v_hat = v / (1 - 0.999 ** self.steps)
                param += self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(rules: Rules, seconds: float, games: int, hidden: int, rate: float,
          seed: int) -> Layers:
    """Train against random opponents for ``seconds``; prints progress as it goes."""
    rng = np.random.default_rng(seed)
    layers = init_layers(hidden, rng)
    optimiser = Adam(layers, rate)
    batch = BatchedHearts(games, rules, seed=seed, episode="hand", reward="hand")
    obs, masks, to_act = batch.reset()
    others = np.array([mix_seed(seed, 1)], dtype=np.int64)
    # samples of the learner's decisions, by the game number (one hand) they belong to
    pending_obs: list[Array] = []
    pending_masks: list[npt.NDArray[np.int8]] = []
    pending_actions: list[npt.NDArray[np.int64]] = []
    pending_games: list[npt.NDArray[np.int64]] = []
    returns: dict[int, float] = {}
    started = time.perf_counter()
    recent: list[float] = []
    report_at = started + 10
    while time.perf_counter() - started < seconds:
        actions = batch.random_actions(others)
        learning = np.flatnonzero(to_act == LEARNER)
        if len(learning):
            probs = masked_softmax(policy_logits(layers, obs[learning]), masks[learning])
            chosen = sample_actions(probs, rng)
            actions[learning] = chosen
            pending_obs.append(obs[learning])
            pending_masks.append(masks[learning])
            pending_actions.append(chosen)
            pending_games.append(batch.game_numbers[learning].copy())
        finished_games = batch.game_numbers.copy()
        obs, masks, rewards, done, to_act = batch.step(actions)
        for i in np.flatnonzero(done):
            returns[int(finished_games[i])] = float(rewards[i, LEARNER]) / POINTS_SCALE
        if len(returns) < games:
            continue
        all_games = np.concatenate(pending_games)
        ready = np.array([g in returns for g in all_games.tolist()])
        sample_returns = np.array([returns.get(g, 0.0) for g in all_games.tolist()],
                                  dtype=np.float32)[ready]
        advantages = (sample_returns - sample_returns.mean()) / (sample_returns.std() + 1e-6)
        grads = gradients(layers, np.concatenate(pending_obs)[ready],
                          np.concatenate(pending_masks)[ready],
                          np.concatenate(pending_actions)[ready], advantages)
        optimiser.step(layers, grads)
        recent.extend(returns.values())
        keep = ~ready
        pending_obs = [np.concatenate(pending_obs)[keep]]
        pending_masks = [np.concatenate(pending_masks)[keep]]
        pending_actions = [np.concatenate(pending_actions)[keep]]
        pending_games = [all_games[keep]]
        returns = {}
        if time.perf_counter() >= report_at:
            print(f"{time.perf_counter() - started:6.0f} s  learner points per hand "
                  f"{-np.mean(recent) * POINTS_SCALE:5.2f} over {len(recent)} hands", flush=True)
            recent = []
            report_at += 10
    return layers


def main(argv: list[str] | None = None) -> None:
    """Train, save, then evaluate against ``random`` in the arena."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=rules_text, default="standard",
                        help="rules text (default: %(default)s)")
    parser.add_argument("--minutes", type=positive_number, default=3.0,
                        help="training time in minutes (default: %(default)s)")
    parser.add_argument("--games", type=positive_int, default=256,
                        help="games stepped together (default: %(default)s)")
    parser.add_argument("--hidden", type=positive_int, default=64,
                        help="hidden layer width (default: %(default)s)")
    parser.add_argument("--rate", type=positive_number, default=3e-3,
                        help="Adam learning rate (default: %(default)s)")
    parser.add_argument("--seed", type=non_negative_int, default=1,
                        help="seed of the weights, the games and the arena's deals "
                             "(default: %(default)s)")
    parser.add_argument("--out", default="policy.npz",
                        help="where to save the weights (default: %(default)s)")
    parser.add_argument("--deal-sets", type=positive_int, default=100,
                        help="deal sets of the arena match after training "
                             "(default: %(default)s)")
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    layers = train(rules, args.minutes * 60, args.games, args.hidden, args.rate, args.seed)
    save_layers(args.out, layers)
    print(f"saved {args.out}")
    lineup = (f"policy:{args.out}", *("random",) * (rules.players - 1))
    result = run_match(MatchConfig(rules, lineup, args.deal_sets, str(args.seed)))
    print(format_report(report(result)))


if __name__ == "__main__":
    main()
