"""The rule facts players and faces ask of the core, checked against the game itself over
random games in every preset and player count (and against hand-made positions)."""

from __future__ import annotations

import random

from hearts_scenarios import random_action, start
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    ALL_CARDS,
    HEARTS,
    PLAYER_COUNTS,
    PRESETS,
    QUEEN_OF_SPADES,
    Card,
    CardSet,
    FirstTrick,
    GameState,
    InvalidRulesError,
    Phase,
    Play,
    Rules,
    game_over,
    game_winners,
    moon_points,
    new_game,
    view,
)

PRESET_COUNTS = [(name, n) for name in PRESETS for n in PLAYER_COUNTS[name]]
presets = st.sampled_from(PRESET_COUNTS).map(lambda pc: Rules.preset_rules(*pc))
seeds = st.integers(0, 2**32 - 1)


def positions(rules: Rules, seed: int) -> list[GameState]:
    """Every state of one random seeded game."""
    rng = random.Random(seed)
    state = new_game(rules, seed)
    states = [state]
    while not state.is_over:
        state = state.apply(random_action(state, rng))
        states.append(state)
    return states


def test_player_counts_are_the_counts_each_preset_builds() -> None:
    for name in PRESETS:
        built = [n for n in range(1, 9) if _builds(name, n)]
        assert built == list(PLAYER_COUNTS[name]), name


def _builds(name: str, players: int) -> bool:
    try:
        Rules.preset_rules(name, players)
    except InvalidRulesError:
        return False
    return True


@settings(max_examples=25, deadline=None)
@given(presets, seeds)
def test_no_seat_is_ever_shown_to_lack_a_card_it_holds(rules: Rules, seed: int) -> None:
    for state in positions(rules, seed):
        if state.phase is not Phase.PLAY:
            continue
        seen = view(state, state.turn)
        for seat, excluded in enumerate(seen.excluded):
            assert not excluded & state.hand(seat).mask, (seat, CardSet(excluded))
        for seat, suits in enumerate(seen.voids()):
            assert not any(card.suit in suits for card in state.hand(seat))


@settings(max_examples=25, deadline=None)
@given(presets, seeds)
def test_the_trick_facts_agree_with_the_cards_on_the_table(rules: Rules, seed: int) -> None:
    for state in positions(rules, seed):
        if state.phase is not Phase.PLAY:
            continue
        seen = view(state, state.turn)
        n = rules.players
        assert seen.still_to_play == tuple((state.turn + i) % n
                                           for i in range(1, n - len(state.trick)))
        if state.trick:
            led = state.trick[0][1].suit
            assert seen.winning == max((entry for entry in state.trick if entry[1].suit == led),
                                       key=lambda entry: entry[1])
        else:
            assert seen.winning is None
        unplayed = [card for card in ALL_CARDS
                    if rules.deck >> card & 1 and card not in seen.played]
        assert seen.points_left == sum(1 for card in unplayed if card.suit == HEARTS) + (
            13 if QUEEN_OF_SPADES in unplayed else 0)
        assert seen.points_barred == (not state.tricks
                                      and rules.first_trick is FirstTrick.NO_POINTS)


@settings(max_examples=25, deadline=None)
@given(presets, seeds)
def test_passes_go_to_the_pass_target(rules: Rules, seed: int) -> None:
    for state in positions(rules, seed):
        if state.phase is not Phase.PLAY or state.trick_no or state.trick:
            continue
        for seat in range(rules.players):
            seen = view(state, seat)
            target, source = seen.pass_target, seen.pass_source
            if seen.passed is None:
                assert target is None and source is None
                continue
            assert target is not None and source is not None
            assert view(state, target).received == seen.passed
            assert view(state, source).passed == seen.received
        break


@settings(max_examples=25, deadline=None)
@given(presets, seeds)
def test_the_game_ends_and_is_won_as_scoring_says(rules: Rules, seed: int) -> None:
    states = positions(rules, seed)
    for state in states:
        played = state.first_round - 1 + len(state.results)
        assert state.is_over == game_over(state.totals, rules, played)
        assert state.winners == game_winners(state.totals, rules, played)
        assert view(state, None).is_over == state.is_over


def test_before_a_point_card_falls_the_points_left_are_the_moon() -> None:
    state = start("standard", {0: "2C 5H", 1: "3C QS", 2: "4C 6H", 3: "AC 7H"})
    for card in ("2C", "3C", "4C", "AC"):
        state = state.apply(Play(state.turn, Card(card)))
    assert view(state, 0).points_left == moon_points(state.rules) == 26


def test_the_only_card_says_why_it_is_forced() -> None:
    state = start("classic:players=4", {
        0: "2C", 1: "3C 8D", 2: "9D QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH KH", 3: "AC"})
    assert view(state, 0).forced_reason(Card("2C")) == "The 2♣ must lead the first trick"
    state = state.apply(Play(0, Card("2C")))
    assert view(state, 1).forced_reason(Card("3C")) == \
        "You must follow suit, and the 3♣ is your only club"
    state = state.apply(Play(1, Card("3C")))
    assert view(state, 2).legal == CardSet.parse("9D")
    assert view(state, 2).forced_reason(Card("9D")) == \
        "No points on the first trick: the 9♦ is your only card without points"
