"""A state is immutable: copying gives it back, pickling round-trips even a long game."""

import copy
import pickle

from hearts_scenarios import random_game

from hearts.core import Rules, game_record


def test_a_long_game_pickles_and_copies() -> None:
    rules = Rules.preset_rules("classic", 6).replace(target=200)
    state = random_game(rules, 4)
    assert len(state.history) > 1500  # deeper than the interpreter's recursion limit
    again = pickle.loads(pickle.dumps(state))
    assert again.history == state.history and game_record(again) == game_record(state)
    assert copy.deepcopy(state) is state and copy.copy(state) is state
