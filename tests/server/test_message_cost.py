"""``benchmarks/message_cost.py`` plays a preset of any player count: a table of the
preset's seats, every seat's message timed, the connected seats sent every state."""

from __future__ import annotations

import json

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Rules

COST = load_benchmark("message_cost")


@pytest.mark.parametrize(("preset", "connected"), [
    ("card-commons:players=3", 3), ("standard", 1), ("classic:players=5", 2)])
def test_a_table_of_the_presets_seats_plays_to_the_end(preset: str, connected: int) -> None:
    rules = Rules.parse(preset)
    ((table, steps),) = COST.record_games(rules, 1, connected)
    assert table.state.is_over and table.state.rules == rules
    keepers = sorted(table.subscribers, key=lambda keeper: keeper.seat)
    assert [keeper.seat for keeper in keepers] == list(range(connected))
    assert all(json.loads(keeper.text)["type"] for keeper in keepers)  # each was sent to
    assert steps[-1].state is table.state
    assert [step.state_id for step in steps] == list(range(steps[0].state_id, table.state_id + 1))
    figures = COST.time_steps([(table, steps)], repeats=1)
    assert set(figures) == {"broadcast_state", "view", "to_json"}
    assert all(micros > 0 for micros in figures.values())
