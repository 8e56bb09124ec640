"""The ``rounds`` option: a game of at most a fixed number of rounds (the target may end it
sooner), the last of them ending it whatever the totals.

It is what a duplicate challenge plays (``hearts.challenge``), and every game-end fact
asks it: the game state, records, positions, the real-deck score sheet.
"""

from __future__ import annotations

import random
import re

import pytest
from hearts_scenarios import random_action, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    MAX_ROUNDS,
    OPTION_HELP,
    PLAYER_COUNTS,
    PRESETS,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidSheetError,
    Phase,
    Rules,
    Sheet,
    game_over,
    game_record,
    game_winners,
    new_game,
    read_position,
    replay_game,
    write_position,
)

PRESET_COUNTS = [(name, n) for name in PRESETS for n in PLAYER_COUNTS[name]]


def test_a_four_player_game_of_two_rounds_ends_after_round_two() -> None:
    rules = Rules.parse("card-commons:rounds=2")
    final = random_game(rules, seed=7)
    assert final.phase is Phase.OVER and final.round_no == 2
    assert [r.round_no for r in final.results] == [1, 2]
    assert max(final.totals) < rules.target  # it ended on the rounds, not the target
    lowest = min(final.totals)
    assert final.winners == tuple(s for s, t in enumerate(final.totals) if t == lowest)
    record = game_record(final)
    assert record["complete"] is True and len(record["rounds"]) == 2
    assert replay_game(record).totals == final.totals


def test_after_round_one_of_two_the_game_waits_for_the_next_deal() -> None:
    rng = random.Random(3)
    state = new_game(Rules.parse("standard:rounds=2"), 3)
    while not state.results:
        state = state.apply(random_action(state, rng))
    assert state.phase is Phase.DEAL and not state.is_over and state.winners == ()


def test_a_record_with_a_round_after_the_last_is_refused() -> None:
    final = random_game(Rules.parse("card-commons:rounds=1"), seed=11)
    longer = random_game(Rules.parse("card-commons"), seed=11)
    record = game_record(final)
    record["rounds"] = game_record(longer)["rounds"][:2]
    del record["totals"], record["winners"], record["complete"]
    with pytest.raises(InvalidRecordError, match="round 2: the game was already over"):
        replay_game(record)


def test_the_target_still_ends_a_game_before_its_last_round() -> None:
    # standard adds a moon to the others, so every round gives someone a point
    final = random_game(Rules.parse("standard:target=1,rounds=5"), seed=5)
    assert final.is_over and final.round_no == 1


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(PRESET_COUNTS), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_the_game_ends_exactly_when_scoring_says(preset_count: tuple[str, int], rounds: int,
                                                 seed: int) -> None:
    rules = Rules.preset_rules(*preset_count).replace(rounds=rounds, target=60)
    rng = random.Random(seed)
    state = new_game(rules, seed)
    while True:
        played = len(state.results)
        assert state.is_over == game_over(state.totals, rules, played)
        assert state.winners == game_winners(state.totals, rules, played)
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    assert rounds == 0 or len(state.results) <= rounds
    assert max(state.totals) >= rules.target or len(state.results) == rounds


def test_the_option_is_zero_in_every_preset_and_round_trips_in_text() -> None:
    for preset, players in PRESET_COUNTS:
        assert Rules.preset_rules(preset, players).rounds == 0
    rules = Rules.parse("classic:players=5,rounds=8")
    assert rules.rounds == 8 and rules.text == "classic:players=5,rounds=8"
    assert Rules.parse(rules.text) == rules
    assert Rules.parse("standard:rounds=0") == Rules.parse("standard")
    assert "or sooner when someone reaches the target" in OPTION_HELP["rounds"]


def test_the_final_round_is_the_last_of_rounds_and_never_without_it() -> None:
    rules = Rules.parse("standard:rounds=3")
    assert [rules.final_round(r) for r in (1, 2, 3, 4)] == [False, False, True, True]
    assert not any(Rules.parse("standard").final_round(r) for r in range(1, 50))


@pytest.mark.parametrize(("text", "says"), [
    ("standard:rounds=-1", "rounds must be 0 (play to the target) or a number of rounds "
                           f"from 1 to {MAX_ROUNDS}, not -1"),
    (f"standard:rounds={MAX_ROUNDS + 1}", f"from 1 to {MAX_ROUNDS}, not {MAX_ROUNDS + 1}"),
    ("standard:rounds=two", "rounds must be a whole number in ASCII digits"),
    ("standard:rounds=2,rounds=3", "option rounds is given twice"),
])
def test_bad_rounds_are_clear_errors(text: str, says: str) -> None:
    with pytest.raises(InvalidRulesError, match=re.escape(says)):
        Rules.parse(text)


def test_rounds_built_from_objects_are_checked_too() -> None:
    with pytest.raises(InvalidRulesError, match="rounds must be a whole number"):
        Rules().replace(rounds=True)
    with pytest.raises(InvalidRulesError, match="from 1 to"):
        Rules().replace(rounds=MAX_ROUNDS + 1)


def test_the_score_sheet_ends_after_the_last_round() -> None:
    sheet = Sheet(Rules.parse("standard:rounds=2"), ("A", "B", "C", "D"))
    sheet = sheet.add_round(points=[1, 12, 13, 0])
    assert not sheet.is_over and sheet.winners == ()
    sheet = sheet.add_round(points=[13, 0, 0, 13])
    assert sheet.is_over and sheet.winners == (1,)
    with pytest.raises(InvalidSheetError, match="round 3 follows the end of the game"):
        Sheet(sheet.rules, sheet.names, (*sheet.entries, sheet.entries[0]))


def test_a_position_after_the_last_round_is_refused() -> None:
    rules = Rules.parse("standard:rounds=2")
    text = write_position(new_game(rules, 4))
    assert read_position(text).round_no == 1
    later = text.replace(" 1 0,0,0,0 ", " 3 0,0,0,0 ")
    with pytest.raises(InvalidPositionError, match="comes after the game's last round"):
        read_position(later)
