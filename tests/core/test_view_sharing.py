"""Views built together share what every seat may see and nothing else.

A table builds every seat's view after each action with :func:`views`, and encodes the
members that differ from seat to seat (``PlayerView.seat_json``) apart from the rest
(issue 15). These properties hold at random states of random games in every preset:
``views`` gives what ``view`` gives seat by seat, and two seats' (or a seat's and a
spectator's) view JSON differ only in ``seat_json`` members, which hold the seat's
own cards exactly as ``to_json`` does; and a view, built without the dataclass's
``__init__`` for speed, holds every field.
"""

from __future__ import annotations

import dataclasses
import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest
from hearts_scenarios import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    PRESETS,
    GameState,
    IllegalActionError,
    InvalidRulesError,
    PlayerView,
    Rules,
    view,
)
from hearts.core import views as views_of


def _rules(preset: str, players: int) -> Rules | None:
    try:
        return Rules.parse(f"{preset}:players={players},target=40")
    except InvalidRulesError:
        return None


RULES = [rules for preset in PRESETS for players in range(2, 7)
         if (rules := _rules(preset, players)) is not None]


@st.composite
def states(draw: st.DrawFn) -> GameState:
    """A state some way into a seeded random game (deals, passes, plays, its end)."""
    rules = draw(st.sampled_from(RULES))
    return random_game(rules, draw(st.integers(0, 10_000)), draw(st.integers(0, 400)))


def _another(state: GameState) -> GameState:
    """An equal state that is another object (a copy is the state itself)."""
    twin: GameState = pickle.loads(pickle.dumps(state))
    assert twin is not state
    return twin


@settings(max_examples=60, deadline=None)
@given(state=states())
def test_views_together_are_the_views_one_by_one(state: GameState) -> None:
    seats = [None, *range(state.players)]
    # each seat's view of an equal state that is another object: a view built afresh
    assert views_of(state, seats) == [view(_another(state), seat) for seat in seats]


@settings(max_examples=30, deadline=None)
@given(state=states(), other=states())
def test_a_states_views_are_built_once_and_never_answer_for_another_state(
        state: GameState, other: GameState) -> None:
    """The views of the state asked last are kept (a table asks for them several times
    in a row); asking for another state's views, between or after, gets that state's own."""
    seats = [None, *range(state.players)]
    first = [view(state, seat) for seat in seats]
    assert all(view(state, seat) is seen for seat, seen in zip(seats, first, strict=True))
    for seat in (None, *range(other.players)):
        assert view(other, seat) == view(_another(other), seat)
    assert [view(state, seat) for seat in seats] == first
    assert [view(_another(state), seat).to_json() for seat in seats] == [
        seen.to_json() for seen in first]


def test_threads_asking_for_views_of_their_own_states_get_their_own() -> None:
    """A hint search or a computer player in a thread may ask for views while the event
    loop does: the kept views are replaced whole, so no thread gets another's."""
    games = [random_game(RULES[0], seed, 30 + seed) for seed in range(6)]

    def facts(state: GameState, seat: int) -> tuple[object, ...]:
        """What a seat's view must show, read from the state itself."""
        return (seat, state.hand(seat), state.legal_cards(seat), state.to_act, state.trick,
                tuple(len(state.hand(s)) for s in range(state.players)))

    def shown(state: GameState, seat: int) -> tuple[object, ...]:
        seen = view(state, seat)
        return (seen.seat, seen.hand, seen.legal, seen.to_act, seen.trick, seen.hand_sizes)

    def ask(index: int) -> bool:
        state = games[index]
        return all(shown(state, seat) == facts(state, seat)
                   for _ in range(300) for seat in range(state.players))

    with ThreadPoolExecutor(len(games)) as pool:
        assert all(pool.map(ask, range(len(games))))


@settings(max_examples=60, deadline=None)
@given(state=states())
def test_seats_views_differ_only_in_their_own_members(state: GameState) -> None:
    spectator = view(state, None).to_json()
    own_members = set(view(state, None).seat_json())
    for seat in range(state.players):
        seen = view(state, seat)
        shown = seen.to_json()
        assert list(shown) == list(spectator)  # the same members in the same order
        assert {k: v for k, v in shown.items() if k not in own_members} == {
            k: v for k, v in spectator.items() if k not in own_members}
        assert seen.seat_json() == {k: shown[k] for k in own_members}
        assert shown["hand"] == seen.hand.names() and shown["seat"] == seat


def test_views_refuse_a_seat_that_is_not_at_the_table() -> None:
    state = random_game(RULES[0], 1, 10)
    with pytest.raises(IllegalActionError, match="no seat 9"):
        views_of(state, [0, 9])


@settings(max_examples=30, deadline=None)
@given(state=states())
def test_a_view_holds_every_field_and_equals_one_built_field_by_field(
        state: GameState) -> None:
    """``view`` skips the dataclass's __init__ for speed: it must set every field."""
    names = {field.name for field in dataclasses.fields(PlayerView)}
    for seat in (None, *range(state.players)):
        seen = view(state, seat)
        assert set(vars(seen)) == names
        assert PlayerView(**{name: getattr(seen, name) for name in names}) == seen
