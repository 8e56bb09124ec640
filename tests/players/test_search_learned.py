"""The ``learned`` playout policy: when no moon is on, it leads as ``lead`` does and plays
to a trick in progress the card of the highest score over its decision features,
computed from the seat's view alone (the cards out, never another seat's hand); and it
plays whole games in every preset."""

from __future__ import annotations

import random

import numpy as np
import pytest
from search_positions import ALL_TABLES, kernel_position, random_position

from hearts.core import Card, Rules, view
from hearts.players.driver import play_game
from hearts.players.knowledge import Knowledge
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import (
    LEARNED_WEIGHTS,
    N_FEATURES,
    POLICY_LEAD,
    POLICY_LEARNED,
    _choose,
    _moon_shooter,
    card_features,
)
from hearts.players.search.player import SearchPlayer

ONE = np.array([1], dtype=np.int64)


def _positions(text: str, count: int):  # type: ignore[no-untyped-def]
    """Random mid-round positions of a table with a choice to make and no moon on: the
    world's position, the seat's view-only position, the rules, the cards out, and the
    view."""
    rules = Rules.parse(text)
    codes = rules_array(rules)
    for seed in range(count):
        plays = random.Random(seed).randrange(rules.deck.bit_count() - rules.players)
        state = random_position(rules, seed, plays)
        seat = state.to_act[0]
        seen = view(state, seat)
        if len(seen.legal) < 2 or not seen.trick:
            continue
        world = position_array(seen, [state.hand(s).mask for s in range(rules.players)])
        if _moon_shooter(world, codes, False) >= 0:
            continue
        alone = [0] * rules.players
        alone[seat] = seen.hand.mask
        yield world, position_array(seen, alone), codes, Knowledge.of(seen).out, seen


@pytest.mark.parametrize("text", ALL_TABLES)
def test_the_learned_card_is_the_best_scored_from_the_view(text: str) -> None:
    """To a trick in progress, the kernel's card (seeing the world) is the argmax, ties to
    the lower card, of the weights times the features computed from the seat's view
    alone; and it is not always the lead policy's card."""
    differs = 0
    for world, alone, codes, out, seen in _positions(text, 90):
        legal = np.array(list(seen.legal), dtype=np.int64)
        features = np.zeros((len(legal), N_FEATURES))
        card_features(alone, codes, out, legal, features)
        in_world = np.zeros_like(features)
        card_features(world, codes, out, legal, in_world)
        assert np.array_equal(features, in_world)  # other hands are never read
        expected = int(legal[int(np.argmax(features @ LEARNED_WEIGHTS))])
        chosen = int(_choose(world, codes, POLICY_LEARNED, ONE.copy()))
        assert chosen == expected, (text, str(seen.legal), str(Card(chosen)))
        differs += chosen != int(_choose(world, codes, POLICY_LEAD, ONE.copy()))
    assert differs > 0


@pytest.mark.parametrize("text", ALL_TABLES)
def test_search_with_the_learned_playout_plays_whole_games(text: str) -> None:
    """Every card the playouts pick is legal: a game to 30 runs to its end."""
    rules = Rules.parse(f"{text}{',' if ':' in text else ':'}target=30")
    players = [SearchPlayer(seat, iterations=20, playout="learned")
               for seat in range(rules.players)]
    state = play_game(rules, players, seed=f"learned-{text}")
    assert state.is_over


@pytest.mark.parametrize("text", ALL_TABLES)
def test_the_learned_policy_leads_as_the_lead_policy(text: str) -> None:
    rules = Rules.parse(text)
    codes = rules_array(rules)
    leads = 0
    for seed in range(40):
        state = random_position(rules, seed, rules.players * random.Random(seed).randrange(8))
        if state.trick:
            continue
        world = kernel_position(state)
        assert _choose(world, codes, POLICY_LEARNED, ONE.copy()) == \
            _choose(world, codes, POLICY_LEAD, ONE.copy())
        leads += 1
    assert leads > 0


def test_card_features_refuse_a_lead() -> None:
    """The features describe a card played to a trick in progress, not a lead."""
    rules = Rules.parse("standard")
    state = random_position(rules, 3, 0)
    seen = view(state, state.to_act[0])
    alone = [0] * rules.players
    alone[state.to_act[0]] = seen.hand.mask
    with pytest.raises(ValueError, match="trick in progress"):
        card_features(position_array(seen, alone), rules_array(rules), 0,
                      np.array(list(seen.legal), dtype=np.int64), np.zeros((1, N_FEATURES)))
