"""Our rules as the OpenSpiel game ``python_cc_hearts``: OpenSpiel's own game checks, its
uniform random and ISMCTS bots, and resampling that keeps to what the seat knows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hearts.core import PLAYER_COUNTS, PRESETS, InvalidRulesError, Phase, Rules, view

pyspiel = pytest.importorskip("pyspiel")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
from hearts.env.openspiel import GAME_NAME, HeartsState, rules_of  # noqa: E402  (needs pyspiel)
from hearts.players.observation import (  # noqa: E402
    HAND,
    OBSERVATION_SIZE,
    PLAYED,
    EncodingError,
)

TABLES = [(preset, players) for preset in sorted(PRESETS) for players in PLAYER_COUNTS[preset]]


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_openspiel_random_sim_test_passes(preset: str, players: int) -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules={preset},players={players},target=15)")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_rules_text_with_options_loads_through_the_parameter_dict() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "standard:moon=shooter-minus,target=20"})
    assert game.rules == Rules.parse("standard:moon=shooter-minus,target=20")
    assert game.new_initial_state().current_player() == pyspiel.PlayerId.CHANCE


@pytest.mark.parametrize("params", [{"players": 3.9}, {"target": 50.7}, {"target": "abc"},
                                    {"players": True}, {"rules": 5}], ids=repr)
def test_a_parameter_of_the_wrong_kind_is_refused_not_cut_down(params: dict[str, Any]) -> None:
    """``int(3.9)`` once made a three-player game of ``players=3.9``."""
    with pytest.raises(InvalidRulesError, match="the game's parameters are rules"):
        rules_of(params)
    assert rules_of({"players": 3}) == Rules.preset_rules("card-commons", 3)


def play(game: object, bots: list[object], seed: int) -> HeartsState:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            cards, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=odds)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state  # type: ignore[no-any-return]


def test_uniform_random_bots_play_a_whole_game_to_the_target() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules=classic,players=5,target=20)")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(5)]
    state = play(game, bots, 1)
    totals = state.core.totals
    assert max(totals) >= 20 and state.core.is_over
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.returns()[int(np.argmin(totals))] == max(state.returns())


@pytest.mark.parametrize("rules", ["standard", "classic:players=3", "card-commons:players=3"])
def test_ismcts_plays_against_random(rules: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "target": 1})
    n = game.num_players()
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
            *(pyspiel.make_uniform_random_bot(p, p) for p in range(1, n))]
    state = play(game, bots, 2)
    assert state.is_terminal() and len(state.core.results) >= 1


def positions(seed: int, rules: str) -> list[HeartsState]:
    """Positions of one random game at each decision, with the seat to act."""
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "target": 30})
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            cards, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=odds)))
            continue
        seen.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return seen


@pytest.mark.parametrize("rules", ["standard", "classic:players=3", "classic:players=6"])
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(rules: str) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = 0
    for state in positions(3, rules)[::7]:
        seat = state.current_player()
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        assert other.history()[:other.round_start] == state.history()[:state.round_start]
        hidden = [s for s in range(state.rules.players) if s != seat]
        moved += any(other.core.hand(s) != state.core.hand(s) for s in hidden)
        if state.core.phase is Phase.PLAY:
            assert view(other.core, seat).excluded == view(state.core, seat).excluded
    assert moved > 0, "resampling deals the hidden cards afresh"


def test_the_observation_tensor_is_the_shared_encoding() -> None:
    state = positions(1, "classic:players=4")[5]
    seat = state.current_player()
    tensor = np.array(state.observation_tensor(seat))
    assert tensor.shape == (OBSERVATION_SIZE,)
    assert np.flatnonzero(tensor[HAND:PLAYED]).tolist() == [int(c) for c in state.core.hand(seat)]
    assert str(state.core.round_no) in state.observation_string(seat)


@pytest.mark.parametrize("private", ["NONE", "ALL_PLAYERS"])
def test_an_observer_that_is_not_one_seats_view_is_refused_not_given_the_seats_cards(
        private: str) -> None:
    """A public-only observer was once handed the seat's own hand: an algorithm asking for
    public facts got private ones without a word."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(GAME_NAME)
    kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                      private_info=getattr(pyspiel.PrivateInfoType, private))
    with pytest.raises(EncodingError, match=f"one seat's view.*private_info={private}"):
        make_observation(game, kind)
    assert len(make_observation(game).tensor) == OBSERVATION_SIZE


def test_the_information_state_tensor_the_game_does_not_offer_is_refused_in_words() -> None:
    """It used to be an empty list, which a learner would take for a tensor of size 0."""
    game = pyspiel.load_game(GAME_NAME)
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(EncodingError, match="no information-state tensor: use observation_t"):
        state.information_state_tensor(0)
    assert len(state.observation_tensor(0)) == OBSERVATION_SIZE
    assert state.information_state_string(0).startswith("round 1 dealt")
