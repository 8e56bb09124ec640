"""The kernel repeats the play rules for speed, so it must agree with the core exactly.

Random rounds are played through ``GameState.apply`` and the kernel side by side: at
every turn both must offer the same legal cards, and every round must score the same
points (moon included). Kernel playouts (random and heuristic) are replayed through the
core the same way. Every preset and player count is covered, plus the house options.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from search_positions import ALL_TABLES, kernel_position, random_position, start_of_play

from hearts.core import ChooseMoon, GameState, MoonChoice, Phase, Play, Rules, iter_mask
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    MOON_ADD,
    MOON_SUBTRACT,
    POLICY_ALARM,
    POLICY_HEURISTIC,
    POLICY_LEAD,
    POLICY_LEARNED,
    POLICY_MOON,
    POLICY_RANDOM,
    S_HANDS,
    S_TAKEN,
    legal_mask,
    mix_seed,
    play_card,
    playout_recorded,
    round_points,
    round_points_for_choice,
)

RULES = [  # every preset and player count, then house options
    *ALL_TABLES,
    "card-commons:jack_of_diamonds=on,first_lead=dealer-left",
    "card-commons:removed=2H+3H+4H+5H,hearts_lead=after-heart",
    "standard:moon=shooter-minus,first_lead=dealer-left",
    "standard:hearts_lead=any-time,jack_of_diamonds=on,moon=shooter-choice",
    "classic:hearts_lead=after-heart-or-queen,first_trick=any",
    "classic:players=5,jack_of_diamonds=on,first_lead=dealer-left",
]
_MOST_HEARTS = "+".join(f"{rank}H" for rank in "23456789TJQK")
MOON_RULES = [  # with all hearts but one or none removed, moons are common
    f"card-commons:players=3,removed=AH+{_MOST_HEARTS}",
    f"standard:removed={_MOST_HEARTS},jack_of_diamonds=on",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},hearts_lead=any-time",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},jack_of_diamonds=on",
]
CHOICES = {MoonChoice.SUBTRACT: MOON_SUBTRACT, MoonChoice.ADD: MOON_ADD}


def _round_over(state: GameState, round_no: int) -> bool:
    """Whether the round has ended (a hold round may already be dealt and in play)."""
    return state.phase is not Phase.PLAY or state.round_no != round_no


def _core_points(state: GameState, choice: MoonChoice) -> tuple[int, ...]:
    if state.phase is Phase.MOON:
        state = state.apply(ChooseMoon(state.to_act[0], choice))
    return state.results[-1].points


def _random_round_agrees(rules: Rules, seed: int) -> int | None:
    """Play one random round through core and kernel side by side, checking that they
    agree at every turn and on the points; returns the round's shooter."""
    codes = rules_array(rules)
    points = np.zeros(rules.players, dtype=np.int64)
    rng = random.Random(seed)
    state = start_of_play(rules, seed)
    pos = kernel_position(state)
    round_no = state.round_no
    while not _round_over(state, round_no):
        seat = state.to_act[0]
        legal = state.legal_cards(seat).mask
        assert legal_mask(pos, codes) == legal, (rules.text, seed, state.history[-1:])
        card = rng.choice(list(iter_mask(legal)))
        state = state.apply(Play(seat, card))
        over = play_card(pos, codes, card)
        assert over == _round_over(state, round_no)
        if not over:
            assert list(pos[S_HANDS:S_HANDS + rules.players]) == [
                state.hand(s).mask for s in range(rules.players)]
            assert list(pos[S_TAKEN:S_TAKEN + rules.players]) == [
                state.taken(s).mask for s in range(rules.players)]
    if state.phase is Phase.MOON:
        for choice, code in CHOICES.items():
            round_points_for_choice(pos, codes, code, points)
            assert tuple(points) == _core_points(state, choice), (rules.text, seed, choice)
        return state.shooter
    round_points(pos, codes, np.zeros(rules.players, dtype=np.int64), points)
    result = state.results[-1]
    assert tuple(points) == result.points, (rules.text, seed)
    return result.shooter


@pytest.mark.parametrize("text", RULES)
def test_random_rounds_agree_with_core(text: str) -> None:
    """Random legal play: same legal sets at every turn, same positions, same points."""
    for seed in range(6):
        _random_round_agrees(Rules.parse(text), seed)


@pytest.mark.parametrize("text", MOON_RULES)
def test_moon_rounds_agree_with_core(text: str) -> None:
    """With most hearts removed the moon is shot often: both moon scorings, the J♦ beside
    them, and the shooter's choice must match the core."""
    shooters = [_random_round_agrees(Rules.parse(text), seed) for seed in range(12)]
    assert any(s is not None for s in shooters)


@pytest.mark.parametrize("policy", [POLICY_RANDOM, POLICY_HEURISTIC, POLICY_MOON, POLICY_LEAD,
                                    POLICY_LEARNED, POLICY_LEARNED | POLICY_ALARM])
@pytest.mark.parametrize("text", RULES)
def test_kernel_playouts_replay_in_core(text: str, policy: int) -> None:
    """Kernel playouts from random mid-round positions replay legally in the core,
    with the kernel's legal sets, and score what the core scores."""
    rules = Rules.parse(text)
    codes = rules_array(rules)
    totals = np.array([rules.target - 30 + 7 * s for s in range(rules.players)],
                      dtype=np.int64)
    points = np.zeros(rules.players, dtype=np.int64)
    cards = np.zeros(52, dtype=np.int64)
    legal = np.zeros(52, dtype=np.int64)
    for seed in range(8):
        rng = random.Random(seed)
        state = random_position(rules, seed + 100, rng.randrange(rules.deck.bit_count()))
        pos = kernel_position(state)
        round_no = state.round_no
        kernel_rng = np.array([mix_seed(seed, policy)], dtype=np.int64)
        count = playout_recorded(pos, codes, policy, kernel_rng, cards, legal)
        for step in range(count):
            seat = state.to_act[0]
            assert legal[step] == state.legal_cards(seat).mask, (text, seed, step)
            state = state.apply(Play(seat, int(cards[step])))
        assert _round_over(state, round_no)
        moon = round_points(pos, codes, totals, points)
        choice = MoonChoice.ADD if moon == MOON_ADD else MoonChoice.SUBTRACT
        assert tuple(points) == _core_points(state, choice), (text, seed)
