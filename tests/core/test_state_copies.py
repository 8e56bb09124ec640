"""A state is immutable: copying gives it back, pickling round-trips even a long game."""

import copy
import pickle
import random

from hearts.core import CardSet, PassCards, Phase, Rules, game_record, new_game


def test_a_long_game_pickles_and_copies() -> None:
    rules = Rules.preset_rules("classic", 6).replace(target=200)
    rng = random.Random(4)
    state = new_game(rules, 4)
    while not state.is_over:
        seat = state.to_act[0]
        if state.phase is Phase.PASS:
            cards = rng.sample(list(state.hand(seat)), rules.pass_count)
            state = state.apply(PassCards(seat, CardSet(cards)))
        else:
            state = state.apply(rng.choice(state.legal_actions(seat)))
    assert len(state.history) > 1500  # deeper than the interpreter's recursion limit
    again = pickle.loads(pickle.dumps(state))
    assert again.history == state.history and game_record(again) == game_record(state)
    assert copy.deepcopy(state) is state and copy.copy(state) is state
