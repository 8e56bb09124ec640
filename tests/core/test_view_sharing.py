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


@settings(max_examples=60, deadline=None)
@given(state=states())
def test_views_together_are_the_views_one_by_one(state: GameState) -> None:
    seats = [None, *range(state.players)]
    assert views_of(state, seats) == [view(state, seat) for seat in seats]


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
