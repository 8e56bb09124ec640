"""UCT inside each sampled world (the search player's ``tree`` option).

The tree search is tied to the flat search exactly: with one iteration a candidate each
candidate's lone iteration is the flat playout with the same randomness, so the figures
are equal to the last bit. Its move sets inside a world (one card of each run that
plays alike) are checked by swapping a dropped card for the card kept in its place in a
whole played-out round: every seat must take the same points. Whole games through the
core check that it never plays an illegal card; a seed fixes its figures.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import ALL_TABLES, kernel_position, random_position

from hearts.arena.specs import BotSpec, build_player
from hearts.core import Card, GameState, Rules, iter_mask, view
from hearts.players import play_game
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    POLICY_MOON,
    S_HANDS,
    S_HEARTS_BROKEN,
    S_LEADER,
    S_SIZE,
    S_TRICK,
    S_TRICK_LEN,
    S_TRICK_NO,
    S_TURN,
    evaluate_cards_tree,
    legal_mask,
    mix_seed,
    play_card,
    playout_recorded,
    round_points,
    world_moves,
)
from hearts.players.search.player import CandidateFigures, SearchPlayer, distinct_cards

RULES = Rules.parse("standard")
TABLES = ["standard", "card-commons:players=3", "classic:players=5",
          "standard:moon=shooter-choice,jack_of_diamonds=on"]


def _seen(text: str, seed: int, plays: int) -> tuple[GameState, list[Card]]:
    state = random_position(Rules.parse(text), seed, plays)
    return state, distinct_cards(view(state, state.to_act[0]))


def _figures(seed: int, text: str, plays: int, **options: float | str) -> list[CandidateFigures]:
    state, cards = _seen(text, seed, plays)
    player = SearchPlayer(random.Random(seed), level="expert", iterations=12, **options)
    return player.card_figures(view(state, state.to_act[0]), cards)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 46), table=st.sampled_from(TABLES))
def test_one_iteration_a_candidate_is_the_flat_search(seed: int, plays: int,
                                                      table: str) -> None:
    """``tree=1`` gives exactly the flat search's figures from the same seed."""
    assert _figures(seed, table, plays, tree=1) == _figures(seed, table, plays)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 40))
def test_a_horizon_past_the_round_is_the_whole_round(seed: int, plays: int) -> None:
    """A tree limited to more tricks than the round has left searches what an unlimited
    one does; one limited to the current trick searches less, so differs somewhere."""
    whole = _figures(seed, "standard", plays, tree=8)
    assert _figures(seed, "standard", plays, tree=8, horizon=13) == whole


def test_a_short_horizon_changes_the_search() -> None:
    """Over a handful of positions, a tree of the current trick only gives other figures
    than a tree of the whole round (the horizon is not ignored)."""
    differs = [_figures(seed, "standard", 9, tree=8, horizon=1)
               != _figures(seed, "standard", 9, tree=8) for seed in range(6)]
    assert any(differs)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 46), table=st.sampled_from(TABLES),
       stream=st.integers(0, 1000))
def test_world_moves_drop_only_cards_that_play_alike(seed: int, plays: int, table: str,
                                                     stream: int) -> None:
    """In a world where every hand is known, the moves are legal cards, one at least of
    each suit that is legal; and a dropped card swapped for the kept card below it, in a
    whole round played out after the kept one, gives every seat the same points."""
    rules = Rules.parse(table)
    state = random_position(rules, seed, plays)
    pos = kernel_position(state)
    encoded = rules_array(rules, state.round_no)
    moves = np.empty(20, dtype=np.int64)
    kept = [int(card) for card in moves[:world_moves(pos, encoded, moves)]]
    legal = sorted(iter_mask(legal_mask(pos, encoded)))
    assert set(kept) <= set(legal)
    assert {card // 13 for card in kept} == {card // 13 for card in legal}
    for dropped in sorted(set(legal) - set(kept)):
        stand_in = max(card for card in kept if card < dropped)
        assert _points_after(pos, encoded, state, stand_in, dropped, stream) \
            == _points_after(pos, encoded, state, stand_in, stand_in, stream)


def test_a_card_in_the_trick_tells_two_cards_apart() -> None:
    """Seat 2 holds 3♥ 4♥ T♥ and 2♣ with the 8♥ led and no other heart out: 3♥ and 4♥
    play alike, T♥ (which beats the 8♥) does not."""
    hands = ["7C 8C 9C", "TC JC QC", "3H 4H TH 2C", "4C 5C 6C"]
    pos = np.zeros(S_SIZE, dtype=np.int64)
    for seat, hand in enumerate(hands):
        pos[S_HANDS + seat] = sum(Card(card).mask for card in hand.split())
    pos[S_TRICK], pos[S_TRICK_LEN] = int(Card("8H")), 1
    pos[S_LEADER], pos[S_TURN], pos[S_TRICK_NO], pos[S_HEARTS_BROKEN] = 1, 2, 9, 1
    moves = np.empty(20, dtype=np.int64)
    count = world_moves(pos, rules_array(RULES), moves)
    assert [Card(int(card)) for card in moves[:count]] == [Card("3H"), Card("TH")]


def _points_after(pos: np.ndarray, rules: np.ndarray, state: GameState, kept: int,
                  played: int, stream: int) -> list[int]:
    """Each seat's points when ``played`` is played now and the round goes on as the
    policy plays it after ``kept``, with ``kept`` and ``played`` swapped in that line."""
    line = pos.copy()
    cards = np.empty(60, dtype=np.int64)
    legal = np.empty(60, dtype=np.int64)
    count = 0
    if not play_card(line, rules, kept):
        count = playout_recorded(line, rules, POLICY_MOON,
                                 np.array([mix_seed(7, stream)], dtype=np.int64), cards, legal)
    swap = {kept: played, played: kept}
    replay = pos.copy()
    for card in [played, *(swap.get(int(c), int(c)) for c in cards[:count])]:
        assert replay[S_HANDS + replay[S_TURN]] >> card & 1
        play_card(replay, rules, card)
    points = np.zeros(state.players, dtype=np.int64)
    round_points(replay, rules, np.array(state.totals, dtype=np.int64), points)
    return [int(p) for p in points]


@pytest.mark.parametrize("text", ALL_TABLES)
def test_tree_players_finish_whole_games_legally(text: str) -> None:
    """Tree search players at every seat finish a whole game in every preset and player
    count (the core rejects any illegal card), the whole round and one trick deep, my
    own later plays searched and left to the policy."""
    rules = Rules.parse(text).replace(target=40)
    players = [SearchPlayer(seat, level="expert", iterations=3, tree=4, horizon=seat % 2,
                            own=("search", "policy")[seat // 2 % 2],
                            first=("lowest", "policy")[seat % 3 % 2])
               for seat in range(rules.players)]
    assert play_game(rules, players, seed=text).is_over


def test_no_tree_decision_waits_for_numba() -> None:
    """Making a player loads the tree kernel with the argument types its decisions use
    (the options of a bot spec arrive as ints), so no decision compiles it."""
    spec = BotSpec.parse("expert:tree=2,explore=8,iterations=3")
    players = [build_player(spec, seat=seat, rules=RULES, seed="warm") for seat in range(4)]
    before = set(evaluate_cards_tree.signatures)  # type: ignore[attr-defined]
    assert before
    play_game(Rules.parse("classic:target=30"), players, seed="warm")
    assert set(evaluate_cards_tree.signatures) == before  # type: ignore[attr-defined]


def test_figures_are_filled_and_reproducible() -> None:
    """From the same seed the figures are the same; every chance lies in [0, 1], the
    points within the round's, and each candidate counts the budget's worlds."""
    runs = [_figures(3, "standard", 14, tree=16) for _ in range(2)]
    assert runs[0] == runs[1]
    for figures in runs[0]:
        assert figures.worlds == 12
        chances = [figures.queen, figures.moon_mine, figures.moon_against,
                   figures.game_ends, figures.game_lost]
        assert all(0.0 <= chance <= 1.0 for chance in chances)
        assert -26.0 <= figures.points <= 26.0
    assert runs[0] != _figures(3, "standard", 14, tree=16, explore=0)
    assert runs[0] != _figures(3, "standard", 14, tree=16, own="policy")
    assert runs[0] != _figures(3, "standard", 14, tree=16, first="policy")


def test_tree_options_reach_the_player_and_bad_ones_are_refused() -> None:
    """``expert:tree=8,explore=4,horizon=1,own=policy,first=policy`` reaches the player; a
    negative value, an unknown ``own`` or ``first``, or a tree with a lookahead or
    weighted worlds, is refused with what is allowed."""
    spec = BotSpec.parse("expert:tree=8,explore=4,horizon=1,own=policy,first=policy,"
                         "iterations=5")
    player = build_player(spec, seat=0, rules=RULES, seed="tree")
    assert isinstance(player, SearchPlayer)
    assert (player.tree, player.explore, player.horizon) == (8, 4.0, 1)
    assert not player.search_mine and player.policy_first
    assert isinstance(player.explore, float)
    with pytest.raises(ValueError, match="at least 0"):
        SearchPlayer(1, tree=-1)
    with pytest.raises(ValueError, match="one of: search, policy"):
        SearchPlayer(1, tree=4, own="nobody")
    with pytest.raises(ValueError, match="one of: lowest, policy"):
        SearchPlayer(1, tree=4, first="highest")
    with pytest.raises(ValueError, match="does not combine"):
        SearchPlayer(1, tree=4, lookahead="others")
    with pytest.raises(ValueError, match="does not combine"):
        SearchPlayer(1, tree=4, trust=0.5)
