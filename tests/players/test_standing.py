"""The game-standing model: sensible chances, and the kernel's restatement agrees with it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import Rules
from hearts.players import standing
from hearts.players.search import kernel
from hearts.players.search.encode import rules_array
from hearts.players.standing import game_value, win_chances

totals_strategy = st.lists(st.integers(0, 130), min_size=3, max_size=6)


def test_the_kernel_restates_the_same_constants() -> None:
    assert kernel._WIN_SCALE_BASE == standing.WIN_SCALE_BASE
    assert kernel._WIN_SCALE_SLOPE == standing.WIN_SCALE_SLOPE
    assert kernel._WIN_ROUND_SCALE == standing.WIN_ROUND_SCALE


@given(totals_strategy, st.data())
def test_kernel_utility_is_the_shared_game_value(totals: list[int], data: st.DataObject) -> None:
    """The search's utility and the rule-based players' game value are one model, at
    any game weight a search player takes."""
    players = len(totals)
    points = data.draw(st.lists(st.integers(-26, 26), min_size=players, max_size=players))
    weight = data.draw(st.sampled_from([standing.GAME_WEIGHT, 0, 1, 37,
                                        standing.MAX_GAME_WEIGHT]))
    rules = Rules.parse(f"classic:players={players}")
    codes = rules_array(rules, game_weight=weight)
    for seat in range(players):
        expected = game_value(seat, points, totals, rules.target, weight=weight)
        got = kernel.utility(seat, np.array(points, dtype=np.int64),
                             np.array(totals, dtype=np.int64), codes)
        assert got == pytest.approx(expected, abs=1e-9)


@given(totals_strategy)
def test_chances_are_a_distribution_that_favours_low_totals(totals: list[int]) -> None:
    chances = win_chances(totals, 100)
    assert sum(chances) == pytest.approx(1.0)
    for a in range(len(totals)):
        for b in range(len(totals)):
            if totals[a] < totals[b]:
                assert chances[a] >= chances[b]


def test_a_finished_game_is_decided_and_ties_share() -> None:
    assert win_chances([40, 101, 40, 90], 100) == [0.5, 0.0, 0.5, 0.0]


def test_the_same_lead_matters_more_near_the_end() -> None:
    """Ten points ahead is worth more when the game is about to end."""
    early = win_chances([0, 10, 10, 10], 100)[0]
    late = win_chances([80, 90, 90, 90], 100)[0]
    assert early < late


def test_a_game_ending_hand_outweighs_its_points() -> None:
    """Taking 13 points to end the game as the winner beats taking 26 to keep it open
    (a fixed bonus of 10 would not tell them apart by enough), and the leader of a game
    about to end gives up points to end it rather than let a rival take the lead."""
    totals = [80, 95, 60, 90]
    end_and_win = game_value(2, [0, 13, 13, 0], totals, 100)
    keep_going = game_value(2, [0, 0, 26, 0], totals, 100)
    assert end_and_win > keep_going + 30
    close_out = game_value(2, [0, 0, 10, 16], totals, 100)  # 106: over, 70 wins
    stay_clean = game_value(2, [13, 0, 0, 13], totals, 100)  # 93, 103: over, 60 wins
    assert stay_clean > close_out > game_value(2, [0, 0, 26, 0], totals, 100)


def test_game_weight_zero_scores_the_hand_alone() -> None:
    """At weight 0 a hand is worth the others' mean points less one's own, whatever it
    does to the game: the search plays as a one-hand game scores."""
    points, totals = [13, 0, 5, 8], [95, 60, 70, 80]
    codes = rules_array(Rules.parse("standard"), game_weight=0)
    for seat in range(4):
        hand_alone = sum(p for s, p in enumerate(points) if s != seat) / 3 - points[seat]
        assert game_value(seat, points, totals, 100, weight=0) == hand_alone
        assert kernel.utility(seat, np.array(points, dtype=np.int64),
                              np.array(totals, dtype=np.int64), codes) == hand_alone
    assert game_value(1, points, totals, 100) > game_value(1, points, totals, 100, weight=0)
