"""Bad actions, fuzzed: always a typed error, and the refused-on state is unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    IllegalActionError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    game_record,
    new_game,
)


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Every observable fact of a state, for comparing before and after."""
    seats = range(state.players)
    return (
        state.phase, state.round_no, state.to_act, state.totals, state.results,
        state.trick, state.tricks, state.hearts_broken, state.queen_played,
        tuple(state.hand(s) for s in seats), tuple(state.chosen_pass(s) for s in seats),
        tuple(state.received(s) for s in seats), tuple(state.taken(s) for s in seats),
        tuple(state.legal_cards(s) for s in seats), state.history,
        game_record(state),
    )


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """A reachable position: a preset, a seed and some random legal actions."""
    name, players = draw(st.sampled_from([("card-commons", 3), ("standard", 4), ("classic", 2),
                                          ("classic", 3), ("classic", 6)]))
    rules = Rules.preset_rules(name, players).replace(target=draw(st.integers(10, 100)))
    seed = draw(st.integers(0, 10_000))
    rng = random.Random(seed)
    state = new_game(rules, seed) if draw(st.integers(0, 9)) else new_game(rules, None)
    for _ in range(draw(st.integers(0, 300))):
        if not state.to_act:
            break
        seat = state.to_act[0]
        if state.phase is Phase.PASS:
            cards = rng.sample(list(state.hand(seat)), rules.pass_count)
            state = state.apply(PassCards(seat, CardSet(cards)))
        else:
            state = state.apply(rng.choice(state.legal_actions(seat)))
    return state


seats = st.integers(-2, 7) | st.sampled_from([None, True, "0", 1.0])
cards = st.integers(-3, 55).map(lambda c: Card(c) if 0 <= c < 52 else c) | st.sampled_from(
    ["QS", None, 3.5])
card_sets = st.integers(0, (1 << 52) - 1).map(CardSet) | st.lists(
    st.integers(0, 51), max_size=5).map(CardSet) | st.sampled_from([None, "QS 2C 3C", 7])
actions = st.one_of(
    st.builds(Play, seats, cards),
    st.builds(PassCards, seats, card_sets),
    st.builds(ChooseMoon, seats, st.sampled_from([*MoonChoice, "add", None])),
    st.builds(Deal, st.lists(card_sets, max_size=7).map(tuple) | st.lists(card_sets, max_size=5),
              st.none() | st.text(max_size=3) | st.integers()),
    st.sampled_from([None, "2C", 36, object()]),
)


@settings(max_examples=60)
@given(positions(), st.lists(actions, min_size=1, max_size=5))
def test_bad_actions_are_typed_errors_that_change_nothing(state: GameState,
                                                          tries: list[Any]) -> None:
    for action in tries:
        before = snapshot(state)
        try:
            after = state.apply(action)
        except IllegalActionError as error:
            assert str(error)
            assert snapshot(state) == before
            continue
        assert snapshot(state) == before  # a legal action leaves the old state alone too
        state = after


def test_a_deal_of_the_right_cards_in_the_wrong_shape_is_refused() -> None:
    state = new_game(Rules.preset_rules("standard"), None)
    hands = Deal.from_seed(state.rules, "shape/1").hands
    for bad, why in ((Deal(list(hands)), "a tuple of 4 CardSets"),  # type: ignore[arg-type]
                     (Deal(hands, 7), "a deal seed is text or None")):  # type: ignore[arg-type]
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match=why):
            state.apply(bad)
        assert snapshot(state) == before
    assert state.apply(Deal(hands, "shape/1")).deal_seed == "shape/1"
