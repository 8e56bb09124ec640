"""Moon play: the kernel's moon playouts, the rule-based levels' moon defence and the
``shooter`` level, each on positions where the right play is clear."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from hearts.core import Card, GameState, view
from hearts.players import make_player
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.rulebased.moon import attempting_moon, moon_suspect
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import POLICY_MOON, mix_seed, playout, round_points

ROOT = Path(__file__).parents[2]


def _suite() -> dict[str, GameState]:
    spec = importlib.util.spec_from_file_location("positions_benchmark_moon",
                                                  ROOT / "benchmarks" / "positions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return {entry.name: entry.state for entry in module.load_suite()}


SUITE = _suite()


def _moon_share(state: GameState, playouts: int = 200) -> float:
    """Share of moon-policy playouts from the true deal that end in a moon."""
    hands = [state.hand(seat).mask for seat in range(state.players)]
    start = position_array(view(state, state.to_act[0]), hands)
    rules = rules_array(state.rules)
    totals = np.array(state.totals, dtype=np.int64)
    points = np.zeros(state.players, dtype=np.int64)
    moons = 0
    for seed in range(playouts):
        pos = start.copy()
        playout(pos, rules, POLICY_MOON, np.array([mix_seed(seed, 7)], dtype=np.int64))
        moons += round_points(pos, rules, totals, points) != 0
    return moons / playouts


@pytest.mark.parametrize(("name", "moon"), [
    ("certain-moon-overtake", False),  # the defender overtakes the 8♥ with the 10♥
    ("cheap-heart", False),  # the A♣ takes a heart from the runner at once
    ("take-everything", True),  # the runner cashes the A♥ before the 3♥
    ("must-shoot", True),
])
def test_moon_playouts_run_and_stop_moons(name: str, moon: bool) -> None:
    """In the suite's moon positions the playouts do what the position asks: a seat with
    every point card so far and control takes the rest, and its opponents, seeing it,
    stop one that can be stopped (the plain heuristic policy gets all four wrong)."""
    share = _moon_share(SUITE[name])
    assert share >= 0.95 if moon else share <= 0.05


def test_the_runner_is_suspected_at_once_and_threatening_with_enough_points() -> None:
    """Seat 1 has won every trick of ``cheap-heart``, the Q♠ among them: seat 0 suspects
    it from the first point and treats it as a threat worth a trick."""
    seen = Knowledge.of(view(SUITE["cheap-heart"], 0))
    assert moon_suspect(seen) == 1
    assert seen.moon_threat == 1


def test_normal_breaks_the_attempt_with_the_cheapest_trick() -> None:
    state = SUITE["cheap-heart"]
    assert RuleBasedPlayer().choose_play(view(state, 0)) == Card("AC")


def test_the_shooter_level_plays_a_certain_moon_out() -> None:
    """Where the moon is certain both variants attempt it, and the ``shooter`` level
    (the aggressive one) cashes the A♥ that makes it."""
    state = SUITE["take-everything"]
    certain = Knowledge.of(view(state, 0))
    assert attempting_moon(certain) and attempting_moon(certain, aggressive=True)
    shooter = make_player("shooter")
    assert isinstance(shooter, RuleBasedPlayer) and shooter.aggressive
    assert shooter.choose_play(view(state, 0)) == Card("AH")
