"""A state's action log: its history gives back every action applied, of every kind, and a
game's length adds nothing for the garbage collector to scan (a long game in progress must
not make every full collection of a busy server slower)."""

from __future__ import annotations

import gc
import itertools
import pickle
import random

from hearts_scenarios import moon_hand, play_out, random_action
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    MoonChoice,
    Phase,
    Rules,
    new_game,
    new_hand,
)

SEATINGS = [("card-commons", 3), ("card-commons", 4), ("standard", 4), ("classic", 2),
            ("classic", 5), ("classic", 6)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEATINGS), st.integers(0, 10_000), st.booleans(),
       st.integers(0, 400))
def test_history_gives_back_every_action_applied(seating: tuple[str, int], seed: int,
                                                 seeded: bool, length: int) -> None:
    rules = Rules.preset_rules(*seating)
    rng = random.Random(seed)
    state = new_game(rules, seed if seeded else None)
    applied = list(state.history)  # a seeded game starts dealt
    while len(applied) < length and not state.is_over:
        if state.phase is Phase.DEAL and state.next_deal is None:
            hands = list(range(52))
            rng.shuffle(hands)
            cards = [c for c in hands if rules.deck >> c & 1]
            size = rules.hand_size
            action = Deal(tuple(CardSet(cards[k * size:(k + 1) * size])
                                for k in range(rules.players)))
        else:
            action = random_action(state, rng)
        state = state.apply(action)
        applied.append(action)
    assert state.history == tuple(applied)
    assert pickle.loads(pickle.dumps(state)).history == state.history


def test_moon_choices_and_deal_seeds_are_kept() -> None:
    for choice in MoonChoice:
        waiting = moon_hand("classic")
        assert waiting.phase is Phase.MOON
        state = play_out(waiting, moon=choice)
        assert state.history[-1] == ChooseMoon(0, choice)
    rules = Rules.preset_rules("standard", 4)
    dealt = new_game(rules, 1).history[0]
    assert isinstance(dealt, Deal)
    for seed in (None, "", "a seed with ♥ and a long tail " * 20):
        state = new_hand(rules, dealt.hands, deal_seed=seed)
        assert state.history == (Deal(dealt.hands, seed),)


def tracked_objects(state: GameState) -> int:
    """How many objects the collector tracks that are reachable from ``state``'s data
    (classes, modules and functions, shared by every state, are not followed)."""
    seen: set[int] = set()
    stack: list[object] = [state]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        stack.extend(ref for ref in gc.get_referents(item)
                     if gc.is_tracked(ref) and not isinstance(ref, type)
                     and type(ref).__name__ not in ("module", "function", "dict"))
    return len(seen)


def test_a_long_game_tracks_no_more_objects_than_a_short_one() -> None:
    rules = Rules.preset_rules("standard", 4).replace(target=10_000)
    rng = random.Random(7)
    state = new_game(rules, 7)
    counts = []
    while len(counts) < 10:
        state = state.apply(random_action(state, rng))
        if state.phase is Phase.DEAL:
            counts.append(tracked_objects(state))
    # each finished round adds its result (a few objects), not its 50-odd actions
    assert len(state.history) > 500
    assert max(b - a for a, b in itertools.pairwise(counts)) <= 5, counts
