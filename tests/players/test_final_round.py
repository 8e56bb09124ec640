"""The last round of a game of fixed ``rounds``: the players' game standing knows it ends
the game whatever the totals, and the search kernel's restatement agrees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import Rules
from hearts.players.search import kernel
from hearts.players.search.encode import rules_array
from hearts.players.standing import game_value, win_chances

totals_strategy = st.lists(st.integers(0, 130), min_size=3, max_size=6)


def test_the_kernel_is_told_the_last_round_of_a_rounds_game_only() -> None:
    rules = Rules.parse("standard:rounds=3")
    assert [rules_array(rules, r)[kernel.R_FINAL] for r in (1, 2, 3)] == [0, 0, 1]
    assert rules_array(rules)[kernel.R_FINAL] == 0
    assert rules_array(Rules.parse("standard"), 3)[kernel.R_FINAL] == 0


@given(totals_strategy, st.data())
def test_the_kernel_utility_of_a_last_round_is_the_shared_game_value(
        totals: list[int], data: st.DataObject) -> None:
    players = len(totals)
    points = data.draw(st.lists(st.integers(-26, 26), min_size=players, max_size=players))
    rules = Rules.parse(f"classic:players={players},rounds=2")
    codes = rules_array(rules, 2)
    for seat in range(players):
        expected = game_value(seat, points, totals, rules.target, final=True)
        got = kernel.utility(seat, np.array(points, dtype=np.int64),
                             np.array(totals, dtype=np.int64), codes)
        assert got == pytest.approx(expected, abs=1e-9)


def test_the_last_round_decides_the_game_whatever_the_totals() -> None:
    assert win_chances([10, 20, 10, 40], 100, final=True) == [0.5, 0.0, 0.5, 0.0]
    assert win_chances([10, 20, 10, 40], 100)[1] > 0.0
    # the same two points are worth the whole game on the last hand, not before it
    last = game_value(0, [0, 2, 0, 0], [10, 9, 30, 30], 100, final=True)
    earlier = game_value(0, [0, 2, 0, 0], [10, 9, 30, 30], 100)
    assert last > earlier + 30
