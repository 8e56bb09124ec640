"""``benchmarks/rulebased_quick.py`` plays a preset of any player count: every seat of
every deal once, with the other seats' players and the pass cycle the preset names."""

from __future__ import annotations

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Rules, card_points, moon_points

QUICK = load_benchmark("rulebased_quick")


@pytest.mark.parametrize("preset", ["card-commons:players=3", "standard", "classic:players=5",
                                    "standard:jack_of_diamonds=true"])
def test_the_level_plays_every_seat_of_every_deal(preset: str) -> None:
    rules = Rules.parse(preset)
    times: list[float] = []
    scores = QUICK.run(rules, "normal", "random", 3, times)
    assert len(scores) == 3 * rules.players
    # a moon's −26 with the J♦'s −10 at the least (under that house rule), +26 at the most
    least = -moon_points(rules) + card_points(rules.deck & ~rules.point_cards, rules)
    assert all(least <= points <= moon_points(rules) for points in scores)
    assert len(times) >= 3 * rules.players * rules.hand_size  # every play timed, passes too
