"""Hypothesis property tests over random whole games, every preset and player count."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from hearts_reference import Table, reference_legal
from hearts_scenarios import random_action
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    FirstLead,
    FirstTrick,
    GameState,
    HeartsLead,
    MoonChoice,
    MoonRule,
    Phase,
    Play,
    Rules,
    game_record,
    hand_record,
    new_game,
    parse_card,
    replay_game,
    replay_hand,
    view,
)

PRESET_COUNTS = [("card-commons", 3), ("card-commons", 4), ("standard", 4)] + [
    ("classic", n) for n in range(2, 7)
]
presets = st.sampled_from(PRESET_COUNTS).map(lambda pc: Rules.preset_rules(*pc))


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A preset with any mix of the option values the engine offers."""
    base = draw(presets)
    return base.replace(
        first_lead=draw(st.sampled_from(FirstLead)),
        first_trick=draw(st.sampled_from(FirstTrick)),
        hearts_lead=draw(st.sampled_from(HeartsLead)),
        moon=draw(st.sampled_from(MoonRule)),
        jack_of_diamonds=draw(st.booleans()),
        target=draw(st.integers(20, 100)),
    )


any_rules = st.one_of(presets, house_rules())
seeds = st.integers(0, 2**32 - 1)


def walk(rules: Rules, seed: int) -> Iterator[tuple[GameState, Any]]:
    """Every (state, action taken) of a random seeded game; the last action is None."""
    rng = random.Random(seed)
    state = new_game(rules, seed)
    while not state.is_over:
        action = random_action(state, rng)
        yield state, action
        state = state.apply(action)
    yield state, None


def final(rules: Rules, seed: int) -> GameState:
    """The end of a random seeded game."""
    *_, (state, _) = walk(rules, seed)
    return state


# ------------------------------------------------------------------ properties
@given(any_rules, seeds)
def test_each_card_is_played_once_a_round(rules: Rules, seed: int) -> None:
    plays: list[int] = []
    for state, action in walk(rules, seed):
        if isinstance(action, Play):
            plays.append(action.card)
            if len(plays) == rules.deck.bit_count():
                assert sorted(plays) == [c for c in range(52) if rules.deck >> c & 1]
                plays = []
        if state.is_over:
            assert plays == []


@given(any_rules, seeds)
def test_every_play_is_legal_by_an_independent_statement_of_the_rules(
    rules: Rules, seed: int
) -> None:
    table: Table | None = None
    for state, action in walk(rules, seed):
        if state.phase is Phase.PLAY and table is None:
            table = Table(rules, [set(state.hand(s)) for s in range(rules.players)], state.turn)
        if table is not None and state.phase is Phase.PLAY:
            assert state.turn == table.turn
            assert set(state.legal_cards()) == reference_legal(table)
            assert isinstance(action, Play)
            led = table.trick[0] // 13 if table.trick else None
            if led is not None and any(c // 13 == led for c in table.hands[table.turn]):
                assert action.card // 13 == led  # follow suit when you can
            table.play(action.card)
            if not any(table.hands):
                table = None


@given(any_rules, seeds)
def test_a_round_scores_26_or_the_moon_adjustment(rules: Rules, seed: int) -> None:
    state = final(rules, seed)
    jack = 10 if rules.jack_of_diamonds else 0
    for line in state.results:
        if line.shooter is None:
            assert sum(line.points) == 26 - jack
            continue
        assert line.moon_choice is not None
        others = [p for s, p in enumerate(line.points) if s != line.shooter]
        own = line.points[line.shooter]
        if line.moon_choice is MoonChoice.SUBTRACT:
            assert own in (-26, -36) and all(p in (0, -10) for p in others)
        else:
            assert own in (0, -10) and all(p in (26, 16) for p in others)
        assert sum(line.points) == (-26 if line.moon_choice is MoonChoice.SUBTRACT
                                    else 26 * (rules.players - 1)) - jack
    assert state.totals == tuple(map(sum, zip(*(r.points for r in state.results), strict=True)))
    assert max(state.totals) >= rules.target
    assert all(max(r.totals) < rules.target for r in state.results[:-1])
    assert state.winners == tuple(s for s, t in enumerate(state.totals)
                                  if t == min(state.totals))


@given(any_rules, seeds)
def test_legal_actions_are_never_empty_while_the_game_runs(rules: Rules, seed: int) -> None:
    for state, _ in walk(rules, seed):
        if state.is_over:
            assert state.to_act == () and state.legal_actions() == []
            continue
        if state.phase is Phase.DEAL:  # chance: the seeded dealer's one deal, no seat
            assert state.to_act == () and state.legal_actions() == [state.next_deal]
            continue
        assert state.to_act
        for seat in state.to_act:
            assert state.legal_actions(seat) if state.phase is not Phase.PASS \
                else state.legal_cards(seat)


@given(any_rules, seeds, st.integers(0, 400))
def test_records_round_trip_whole_games_unfinished_games_and_hands(
    rules: Rules, seed: int, stop: int
) -> None:
    states = [s for s, _ in walk(rules, seed)]
    for state in (states[-1], states[min(stop, len(states) - 1)]):
        record = game_record(state, [f"P{s}" for s in range(rules.players)])
        text = json.dumps(record)
        again = replay_game(json.loads(text))
        assert game_record(again, record["seats"]) == record
        assert again.totals == state.totals and again.winners == state.winners
        assert again.results == state.results and again.phase is state.phase
        assert [again.hand(s) for s in range(rules.players)] == [
            state.hand(s) for s in range(rules.players)]
    done = states[-1]
    for line in done.results[:3]:
        hand = json.loads(json.dumps(hand_record(done, line.round_no)))
        replayed = replay_hand(hand)
        assert replayed.results[-1] == line


CARD_NAME = re.compile(r"^(10|[2-9TJQKA])[CDSH]$")


def _card_names(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if CARD_NAME.match(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _card_names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _card_names(item)


@given(any_rules, seeds)
def test_views_never_show_another_seats_cards(rules: Rules, seed: int) -> None:
    for step, (state, _) in enumerate(walk(rules, seed)):
        if step % 11:
            continue  # every eleventh position (all phases come round) keeps it quick
        played = 0
        for trick in state.tricks:
            for card in trick.cards:
                played |= 1 << card
        for _, card in state.trick:
            played |= 1 << card
        for seat in (*range(rules.players), None):
            known = played
            if seat is not None and state.phase is not Phase.DEAL:
                known |= state.hand(seat).mask
                chosen = state.chosen_pass(seat)
                received = state.received(seat)
                known |= chosen.mask if chosen else 0
                known |= received.mask if received else 0
            shown = view(state, seat).to_json()
            assert "seed" not in json.dumps(shown)
            for name in _card_names(shown):
                assert known >> parse_card(name) & 1, (seat, name, shown)
