"""Moon play: the kernel's moon playouts, the rule-based levels' moon defence and the
``shooter`` level, each on positions where the right play is clear."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import TWO_LOSERS, kernel_position, random_position
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Card, GameState, Phase, Play, Rules, moon_shooter, read_position, view
from hearts.players import make_player
from hearts.players.hints import explain
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.rulebased.moon import attempting_moon, moon_suspect
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    POLICY_MOON,
    _moon_shooter,
    _sole_taker,
    mix_seed,
    playout,
    round_points,
)

SUITE: dict[str, GameState] = {entry.name: entry.state
                               for entry in load_benchmark("positions").load_suite()}


def _moon_share(state: GameState, playouts: int = 200) -> float:
    """Share of moon-policy playouts from the true deal that end in a moon."""
    start = kernel_position(state)
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


def _shooters(state: GameState) -> set[int | None]:
    """Who shoots the moon at the end of the round in progress, over every way the
    remaining cards can be played (small positions only: it walks them all)."""
    if state.phase is not Phase.PLAY:
        taken = [state.taken(seat).mask for seat in range(state.players)]
        return {moon_shooter(taken, state.rules)}
    seat = state.to_act[0]
    outcomes: set[int | None] = set()
    for card in state.legal_cards(seat):
        outcomes |= _shooters(state.apply(Play(seat, card)))
    return outcomes


def test_keeping_the_card_that_can_win_a_trick_stops_a_certain_moon() -> None:
    """``keep-the-entry`` (from a game against ``expert``): seat 1 has every point card
    and leads a club seat 0 cannot follow. Discarding the 10♦, the only card that can
    win a trick from seat 1, makes its moon certain whatever anyone plays; normal gives
    up a point card instead, and then no way of playing on lets the moon through."""
    state = SUITE["keep-the-entry"]
    assert _shooters(state.apply(Play(0, Card("TD")))) == {1}
    choice = RuleBasedPlayer().choose_play(view(state, 0))
    assert choice != Card("TD") and choice.mask & state.rules.point_cards
    assert _shooters(state.apply(Play(0, choice))) == {None}


def test_the_hint_says_why_the_points_go_to_the_runner() -> None:
    state = SUITE["keep-the-entry"]
    position = view(state, 0)
    reason = explain(position, Play(0, RuleBasedPlayer().choose_play(position)))
    assert reason == ("You are void in clubs: seat 1 may take every point anyway, so give up "
                      "the Q♠ and keep the cards that can still win a trick")


# Seat 0 has taken the only heart played so far and leads the A♥; seat 3 holds K♥ J♥ 7♥ 3♥.
UNDER_THE_RUNNERS_ACE = read_position(
    "standard 4 25,10,13,30 9CTCACQS5H8HQH/7C8CJC8DTDQD6H/2D7D9DJD2S4S2H/3D5S6S7S3H7HJHKH hold "
    "0:2CKC4CQC/1:JSTS9SKS/0:4D6D5DKD/3:3SASAD8S/0:6C3CTH5C/0:AH9H4H 3")


def test_the_heart_stopper_and_whether_a_moon_is_still_open() -> None:
    """Under the A♥ the K♥ is the top heart: seat 3's stopper. Seat 1's 6♥ stops
    nothing; and seat 0, the only point taker, sees no moon open to anyone else."""
    seat3, seat1, runner = (Knowledge.of(view(UNDER_THE_RUNNERS_ACE, s)) for s in (3, 1, 0))
    assert seat3.heart_stopper == Card("KH") and seat3.moon_open
    assert seat1.heart_stopper is None and seat1.moon_open
    assert not runner.moon_open


def test_under_the_runners_ace_it_keeps_the_king_and_says_so() -> None:
    """Ducking the K♥ under the A♥ sheds a heart liability in a normal hand, but against a
    seat that has every point card it throws away the one heart that can beat it."""
    position = view(UNDER_THE_RUNNERS_ACE, 3)
    card = RuleBasedPlayer().choose_play(position)
    assert card == Card("3H")
    assert explain(position, Play(3, card)) == (
        "Play under the A♥ and keep the K♥: it can still win a heart trick from anyone "
        "running for the moon")


def test_the_alarm_lets_a_lone_taker_run_while_it_may_lose_two_tricks() -> None:
    pos, codes = kernel_position(TWO_LOSERS), rules_array(TWO_LOSERS.rules)
    assert _sole_taker(pos, 4) == 3
    assert _moon_shooter(pos, codes, False) == -1
    assert _moon_shooter(pos, codes, True) == 3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 47))
def test_the_alarm_only_widens_the_test_for_a_lone_taker(seed: int, plays: int) -> None:
    """Whoever the near-certain test names, the alarm names too; the alarm names anyone
    else only when that seat alone has taken point cards."""
    state = random_position(Rules.parse("standard"), seed, plays)
    pos, codes = kernel_position(state), rules_array(state.rules)
    strict, alarmed = _moon_shooter(pos, codes, False), _moon_shooter(pos, codes, True)
    assert strict < 0 or alarmed == strict
    if alarmed != strict:
        assert alarmed == _sole_taker(pos, state.players)
