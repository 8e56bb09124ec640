"""Games of a fixed number of ``rounds``: the players' game standing knows how many rounds
are left (the last one ends the game whatever the totals), and the search kernel's
restatement agrees."""

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


def test_the_kernel_is_told_the_rounds_left_of_a_rounds_game_only() -> None:
    rules = Rules.parse("standard:rounds=3")
    assert [rules_array(rules, r)[kernel.R_ROUNDS_LEFT] for r in (1, 2, 3)] == [2, 1, 0]
    assert rules_array(rules)[kernel.R_ROUNDS_LEFT] == -1
    assert rules_array(Rules.parse("standard"), 3)[kernel.R_ROUNDS_LEFT] == -1


def test_the_rules_count_the_rounds_left() -> None:
    rules = Rules.parse("standard:rounds=8")
    assert [rules.rounds_left(r) for r in (1, 7, 8, 9)] == [7, 1, 0, 0]
    assert [rules.final_round(r) for r in (7, 8)] == [False, True]
    assert Rules.parse("standard").rounds_left(50) is None


@given(totals_strategy, st.integers(1, 4), st.data())
def test_the_kernel_utility_of_a_rounds_game_is_the_shared_game_value(
        totals: list[int], rounds: int, data: st.DataObject) -> None:
    players = len(totals)
    points = data.draw(st.lists(st.integers(-26, 26), min_size=players, max_size=players))
    round_no = data.draw(st.integers(1, rounds))
    rules = Rules.parse(f"classic:players={players},rounds={rounds}")
    codes = rules_array(rules, round_no)
    for seat in range(players):
        expected = game_value(seat, points, totals, rules.target, rules.rounds_left(round_no))
        got = kernel.utility(seat, np.array(points, dtype=np.int64),
                             np.array(totals, dtype=np.int64), codes)
        assert got == pytest.approx(expected, abs=1e-9)


def test_the_last_round_decides_the_game_whatever_the_totals() -> None:
    assert win_chances([10, 20, 10, 40], 100, rounds_left=0) == [0.5, 0.0, 0.5, 0.0]
    assert win_chances([10, 20, 10, 40], 100)[1] > 0.0
    # the same two points are worth the whole game on the last hand, not before it
    last = game_value(0, [0, 2, 0, 0], [10, 9, 30, 30], 100, rounds_left=0)
    earlier = game_value(0, [0, 2, 0, 0], [10, 9, 30, 30], 100)
    assert last > earlier + 30


def test_a_lead_counts_for_more_with_fewer_rounds_left() -> None:
    """Ten points ahead with one round to go nearly wins a game of fixed rounds; with
    many to go, or none fixed, it is the same small edge the target alone gives."""
    totals = [20, 30, 30, 30]
    one_left = win_chances(totals, 100, rounds_left=1)[0]
    four_left = win_chances(totals, 100, rounds_left=4)[0]
    open_ended = win_chances(totals, 100)[0]
    assert one_left > four_left > open_ended
    assert win_chances(totals, 100, rounds_left=100) == win_chances(totals, 100)


def test_trailing_near_the_end_of_a_rounds_game_makes_a_moon_worth_the_risk() -> None:
    """Fifteen behind with a round to go after this one: a moon's swing is worth far more
    to the game than in an open-ended game at the same totals."""
    totals = [45, 30, 35, 40]
    moon = [0, 26, 26, 26]
    swing_rounds = game_value(0, moon, totals, 100, rounds_left=1) \
        - game_value(0, [26, 0, 0, 0], totals, 100, rounds_left=1)
    swing_open = game_value(0, moon, totals, 100) - game_value(0, [26, 0, 0, 0], totals, 100)
    assert swing_rounds > swing_open
