"""Intervals at small samples: cut to the range their figure can take, and flagged where
too few deal sets or no spread among them leave them not to be trusted."""

from __future__ import annotations

import pytest

from hearts.arena import MatchConfig, MatchResult, format_report, pool, report, t_interval
from hearts.arena.match import GameOutcome
from hearts.arena.report import hand_points_range
from hearts.arena.stats import FEW_SAMPLES, NO_SPREAD, TRUSTED_SAMPLES, welch_interval
from hearts.core import Rules

AB = ("random#a", "random#b", "random#a", "random#b")
BA = ("random#b", "random#a", "random#b", "random#a")


def _report(rules: str, deal_sets: list[tuple[tuple[int, ...], tuple[int, ...],
                                              tuple[int, ...], tuple[int, ...]]],
            seed: str = "small") -> dict[str, object]:
    """A report of ``AB`` whose deal set k gives the hand points and winners of its two
    games, ``(points AB, winners AB, points BA, winners BA)``."""
    config = MatchConfig(Rules.parse(rules), AB, len(deal_sets), seed)
    outcomes = []
    for deal_set, (first, first_won, second, second_won) in enumerate(deal_sets):
        for rotation, seating, points, winners in ((0, AB, first, first_won),
                                                   (1, BA, second, second_won)):
            outcomes.append(GameOutcome(
                deal_set, rotation, seating, (points,), (None,), points, winners,
                ((0.001,),) * 4, ((0.001,),) * 4, (None,) * 4))
    return report(MatchResult(config, tuple(outcomes), workers=1, wall_seconds=0.0))


# deal set 0: A takes nothing and wins both games; deal set 1: A takes 13 a seat and
# wins neither. A's win rates per deal set 0.5 and 0: a t interval of 0.25 ± 3.18
SWING = [((0, 13, 0, 13), (0, 2), (13, 0, 13, 0), (1, 3)),
         ((13, 0, 13, 0), (1, 3), (0, 13, 0, 13), (0, 2))]


def test_a_t_interval_is_cut_to_the_range_it_is_given() -> None:
    wide = t_interval([0.0, 1.0])
    assert wide.low is not None and wide.low < -5 and wide.high is not None and wide.high > 6
    cut = t_interval([0.0, 1.0], within=(0.0, 1.0))
    assert (cut.mean, cut.low, cut.high) == (0.5, 0.0, 1.0)
    assert cut.half_width == 0.5  # mean ± half_width holds the whole interval
    one_side = t_interval([0.0, 0.5], within=(0.0, None))
    assert one_side.low == 0.0 and one_side.high == pytest.approx(0.25 + 12.7062 * 0.25,
                                                                  rel=1e-4)
    assert one_side.half_width == pytest.approx(12.7062 * 0.25, rel=1e-4)
    # an interval inside its range is the t interval, untouched
    assert t_interval([1, 2, 3, 4, 5], within=(0, 26)) == t_interval([1, 2, 3, 4, 5])


def test_the_range_of_a_hands_points_is_asked_of_the_rules() -> None:
    """Others-plus moons never take points off: no hand scores below 0; a moon that the
    shooter takes off goes to -26, and 10 more with a scoring J♦."""
    assert hand_points_range(Rules.parse("standard")) == (0, 26)
    assert hand_points_range(Rules.parse("card-commons")) == (-26, 26)
    assert hand_points_range(Rules.parse("classic")) == (-26, 26)
    assert hand_points_range(Rules.parse("standard:jack_of_diamonds=on")) == (-10, 26)
    assert hand_points_range(Rules.parse("card-commons:jack_of_diamonds=on")) == (-36, 26)


def test_win_rates_and_points_per_hand_of_two_deal_sets_stay_in_their_range() -> None:
    """The audit saw a win rate's interval from -1.46 to 1.71 and points per hand below 0
    under rules where no hand scores below 0."""
    a, b = _report("standard", SWING)["figures"]["bots"]  # type: ignore[index]
    assert a["by_deal_set"]["win_rate_per_seat"] == [0.5, 0.0]
    # two seats of four: a bot wins at most every game, 1/2 a seat
    assert (a["win_rate"]["low"], a["win_rate"]["high"]) == (0.0, 0.5)
    assert a["by_deal_set"]["points_per_hand"] == [0.0, 13.0]
    assert a["points_per_hand"]["low"] == 0.0 and a["points_per_hand"]["high"] == 26.0
    assert a["margin"]["low"] >= -26 and a["margin"]["high"] <= 26
    assert b["win_rate"]["low"] == 0.0 and b["win_rate"]["high"] == 0.5
    # pooled, the same ranges
    pooled = pool([_report("standard", SWING, "one"), _report("standard", SWING, "two")])
    a = pooled["figures"]["bots"][0]
    assert a["win_rate"]["low"] >= 0 and a["win_rate"]["high"] <= 0.5
    assert a["points_per_hand"]["low"] >= 0


def test_points_per_hand_may_go_below_0_where_a_moon_is_taken_off() -> None:
    """A bot that took 2 and then 3 points a hand: 2.5 ± 6.35, whose low bound is cut to
    0 under others-plus moons and kept under a moon taken off the shooter (to -26)."""
    sets = [((2, 11, 2, 11), (0, 2), (11, 2, 11, 2), (1, 3)),
            ((3, 10, 3, 10), (0, 2), (10, 3, 10, 3), (1, 3))]
    kept = _report("card-commons", sets)["figures"]["bots"][0]  # type: ignore[index]
    assert kept["points_per_hand"]["low"] == pytest.approx(2.5 - 12.7062 * 0.5, rel=1e-4)
    cut = _report("standard", sets)["figures"]["bots"][0]  # type: ignore[index]
    assert cut["points_per_hand"]["low"] == 0.0
    assert cut["points_per_hand"]["high"] == kept["points_per_hand"]["high"]
    wide = _report("card-commons", SWING)["figures"]["bots"][0]  # type: ignore[index]
    assert wide["points_per_hand"]["low"] == -26.0  # 6.5 - 82.6, cut to a moon's worth


def test_an_interval_says_when_it_is_not_to_be_trusted() -> None:
    assert TRUSTED_SAMPLES == 10
    assert t_interval([0.75, 0.75]).doubts == (FEW_SAMPLES, NO_SPREAD)
    assert t_interval([0.75, 0.75]).half_width == 0
    assert t_interval([0.5]).doubts == (FEW_SAMPLES,)
    assert t_interval([0.1, 0.2] * 5).doubts == ()
    assert t_interval([0.3] * 10).doubts == (NO_SPREAD,)
    assert t_interval([0.1, 0.2]).to_json()["doubts"] == [FEW_SAMPLES]
    assert welch_interval([1.0, 1.0], [2.0, 2.0]).doubts == (FEW_SAMPLES, NO_SPREAD)
    assert welch_interval([1.0, 2.0] * 5, [2.0, 3.0] * 5).doubts == ()


def test_the_report_flags_intervals_of_few_deal_sets_and_of_no_spread() -> None:
    """The audit saw a win rate of ``0.75 ± 0.000`` from two deal sets: no spread, and
    two samples."""
    same = [((0, 13, 0, 13), (0, 2), (13, 0, 13, 0), (1, 3))] * 2  # both deal sets alike
    data = _report("standard", same)
    a = data["figures"]["bots"][0]  # type: ignore[index]
    assert a["win_rate"]["half_width"] == 0
    assert a["win_rate"]["doubts"] == a["points_per_hand"]["doubts"] == [FEW_SAMPLES,
                                                                       NO_SPREAD]
    text = " ".join(format_report(data).split())
    assert ("2 deal sets: intervals over fewer than 10 are not to be trusted (play more "
            "deal sets, or pool reports)") in text
    assert ("pts/hand, margin, win/seat: the same in every deal set, so no measure of "
            "doubt: not to be trusted") in text
    # ten deal sets with spread: no note
    trusted = _report("standard", SWING * 5)
    assert "not to be trusted" not in format_report(trusted)
    a = trusted["figures"]["bots"][0]  # type: ignore[index]
    assert a["points_per_hand"]["doubts"] == a["win_rate"]["doubts"] == []
