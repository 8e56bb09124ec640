"""What a seat's view holds: everything it may know, nothing it may not."""

import json

import pytest
from hearts_scenarios import pass_all, play, start

from hearts.core import CardSet, IllegalActionError, Phase, Rules, new_game, view

STD = Rules.preset_rules("standard")


def test_a_view_is_json_ready_and_holds_the_seats_own_hand() -> None:
    state = new_game(STD, "view")
    seen = view(state, 2)
    assert json.loads(json.dumps(seen.to_json()))["hand"] == state.hand(2).names()
    assert seen.hand == state.hand(2) and seen.my_turn and seen.phase is Phase.PASS
    assert seen.hand_sizes == (13, 13, 13, 13)


def test_a_spectator_sees_no_hand_only_the_table() -> None:
    state = play(start(STD, {0: "2C", 1: "3C"}), "2C 3C")
    seen = view(state, None)
    assert seen.hand == CardSet() and seen.legal == CardSet() and not seen.my_turn
    assert seen.passed is None and seen.received is None
    assert seen.played == CardSet.parse("2C 3C")
    assert [str(c) for _, c in seen.trick] == ["2C", "3C"]


def test_a_seat_knows_the_cards_it_passed_but_not_what_it_will_get() -> None:
    state = start(STD, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"},
                  round_no=1)
    state = pass_all(state, {0: "AS KS QS", 3: "AC KC QC"})
    mine = view(state, 0)
    assert mine.passed == CardSet.parse("AS KS QS") and mine.received is None
    assert mine.has_chosen == (True, False, False, True)
    assert view(state, 1).passed is None  # seat 1 has not chosen; it sees no one's choice
    assert "AS" not in json.dumps(view(state, 1).to_json())
    state = pass_all(state, {1: "AD KD QD", 2: "AH KH QH"})
    after = view(state, 0)
    assert after.received == CardSet.parse("AC KC QC")
    assert CardSet.parse("AS KS QS").mask & after.unseen().mask == 0  # seat 1 holds them


def test_a_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="seats are 0 to 3"):
        view(new_game(STD, 1), 4)
