"""Environment throughput: agent steps per second with random legal actions, on one core.

Three ways to play Hearts for learning, measured in the same run:

- ``batched N``: :class:`hearts.env.batched.BatchedHearts` with N games stepped together.
  Timed: drawing a random allowed action for every game (compiled,
  ``BatchedHearts.random_actions``) and ``step`` (the rules, the per-hand core calls, every
  observation and mask, auto-reset, and arrays the caller may keep).
- ``pettingzoo AEC``: PettingZoo's own ``agent_iter``/``last``/``step`` loop over our
  :class:`hearts.env.HeartsAECEnv` (one game), a random allowed action from the mask by
  NumPy each step.
- ``openspiel hearts``: ``pyspiel.load_game("hearts")`` driven from Python, a random legal
  action each player step (chance steps, the deal card by card, are played but not counted).

An agent step is one decision: a card to pass or play, or a moon choice. Every loop plays
whole games (OpenSpiel's game is one hand). Pin it to one core::

    taskset -c 1 .venv/bin/python benchmarks/env_speed.py --seconds 3

The load average is printed before and after. Each row gives steps per wall second and
per CPU second of this process: on a machine shared with other work the wall figure falls
with the load, the CPU figure much less (it still pays for caches shared with others).
``copy=False`` returns the simulator's own arrays (no 3.8 kB copy a game a step).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np

from hearts.cli.common import positive_number, rules_text
from hearts.core import Rules
from hearts.env import HeartsAECEnv
from hearts.env.batched import BatchedHearts
from hearts.players.search.kernel import mix_seed

__all__ = ["aec_steps", "batched_steps", "main", "openspiel_steps"]

BATCH_SIZES = (1, 64, 1024)
TARGET = 1_000_000


Rate = tuple[float, float]


def _measure(run: Callable[[], int], seconds: float) -> Rate:
    """Steps per wall second and per CPU second of this process, of ``run`` (a burst that
    returns its step count) repeated for ``seconds`` of wall time."""
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += run()
    return steps / elapsed, steps / (time.process_time() - cpu_start)


def batched_steps(rules: Rules, n: int, seconds: float, copy: bool = True) -> Rate:
    """Agent steps per second of ``n`` batched games with random allowed actions."""
    batch = BatchedHearts(n, rules, seed=1, copy=copy)
    batch.reset()
    rng = np.array([mix_seed(1, 0)], dtype=np.int64)
    burst = max(1, 4096 // n)

    def run() -> int:
        for _ in range(burst):
            batch.step(batch.random_actions(rng))
        return burst * n

    run()  # compile, or load the cached machine code, before timing
    return _measure(run, seconds)


def aec_steps(rules: Rules, seconds: float) -> Rate:
    """Agent steps per second of PettingZoo's AEC loop over our environment."""
    env = HeartsAECEnv(rules)
    rng = np.random.default_rng(1)
    games = iter(range(1 << 62))

    def run() -> int:
        env.reset(seed=next(games))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return _measure(run, seconds)


def openspiel_steps(seconds: float) -> Rate | None:
    """Agent steps per second of OpenSpiel's ``hearts`` from Python (None if absent)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def run() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, _ = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return _measure(run, seconds)


def main(argv: list[str] | None = None) -> None:
    """Print the table of steps per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_number, default=3.0, help="time per row")
    parser.add_argument("--rules", type=rules_text, default="standard",
                        help="rules text (default standard)")
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"cores allowed: {sorted(os.sched_getaffinity(0))}; rules {rules.text}")
    print("timed: batched = random_actions + step (obs, mask, rewards: the caller's to keep); "
          "AEC = agent_iter/last/step + a NumPy random choice; OpenSpiel = "
          "legal_actions + apply_action (chance steps not counted)")
    rows: list[tuple[str, Rate | None]] = [
        (f"batched N={n}", batched_steps(rules, n, args.seconds)) for n in BATCH_SIZES]
    rows.append((f"batched N={BATCH_SIZES[-1]} copy=False",
                 batched_steps(rules, BATCH_SIZES[-1], args.seconds, copy=False)))
    rows.append(("pettingzoo AEC (our env)", aec_steps(rules, args.seconds)))
    rows.append(("openspiel hearts (python)", openspiel_steps(args.seconds)))
    print(f"{'loop':<32}{'steps/s (wall)':>16}{'steps/CPU s':>16}")
    for name, rate in rows:
        if rate is None:
            print(f"{name:<32}{'not installed':>16}")
        else:
            print(f"{name:<32}{rate[0]:>16,.0f}{rate[1]:>16,.0f}")
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    best = rows[len(BATCH_SIZES) - 1][1]
    for label, value in (("wall", best[0]), ("CPU", best[1])) if best else ():
        verdict = "met" if value >= TARGET else "NOT met"
        print(f"target {TARGET:,} steps/s at N={BATCH_SIZES[-1]} (caller-owned arrays), "
              f"{label} time: {verdict}")


if __name__ == "__main__":
    main()
