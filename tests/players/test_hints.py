"""Hints for concrete positions: the strongest level's move, and a reason a person reads."""

from __future__ import annotations

import pytest
from hearts_scenarios import moon_state, play, start, turn_view
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    new_game,
    view,
)
from hearts.players import RandomPlayer
from hearts.players.hints import explain, hint, hint_level
from hearts.players.levels import LEVELS
from hearts.players.rulebased import EasyPlayer, RuleBasedPlayer

VOID_IN_CLUBS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    1: "QS 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
}


@pytest.fixture
def normal_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin hints to the rule-based level, whatever search levels exist."""
    monkeypatch.delitem(LEVELS, "expert", raising=False)


@pytest.mark.usefixtures("normal_hints")
def test_void_in_the_suit_led_the_hint_dumps_the_queen() -> None:
    suggestion = hint(turn_view(play(start("card-commons", VOID_IN_CLUBS), "2C")))
    assert suggestion.action == Play(1, Card("QS"))
    assert suggestion.reason == "You are void in clubs: dump the Q♠"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_plays_under_the_king() -> None:
    spade_lead = {0: "2C 5S 6S 7S 8S 9S TS JS 2D 3D 4D 5D 6D",
                  1: "3C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                  2: "AC KS KH AH 7D 8D 9D TD JD QD KD AD 4C",
                  3: "5C AS 3S 4S 2S 6C 7C 8C 9C TC JC QC KC"}
    suggestion = hint(turn_view(play(start("card-commons", spade_lead), "2C 3C AC 5C KS")))
    assert suggestion.action == Play(3, Card("4S"))
    assert suggestion.reason == "Play under the K♠ to avoid taking the trick"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_drops_the_queen_under_the_ace() -> None:
    state = start("card-commons", {0: "AC AS", 1: "3C QS 2S 3S", 2: "4C", 3: "2C"})
    suggestion = hint(turn_view(play(state, "2C AC 3C 4C  AS")))
    assert suggestion.action == Play(1, Card("QS"))
    assert suggestion.reason == "Drop the Q♠ under the A♠: seat 0 takes it"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_leads_a_low_spade_to_flush_out_the_queen() -> None:
    # seat 0 wins trick one with the A♣ and holds low spades; the Q♠ is elsewhere
    state = start("standard", {0: "AC 2S 3S 4S KD QD JD TD 9D 8D 7D 6D 5D", 1: "3C", 2: "4D",
                               3: "2C QS"}, voids={2: "C"})
    state = play(state, "2C AC 3C 4D")
    suggestion = hint(turn_view(state))
    assert suggestion.action == Play(0, Card("2S"))
    assert suggestion.reason == "Lead a low spade to flush out the Q♠"


@pytest.mark.usefixtures("normal_hints")
def test_the_pass_hint_names_the_danger_of_the_high_spades() -> None:
    state = start("card-commons", {0: "QS AS 2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 5H"}, round_no=1)
    suggestion = hint(view(state, 0))
    assert isinstance(suggestion.action, PassCards)
    assert {"QS", "AS"} <= set(suggestion.action.cards.names())
    assert suggestion.reason.startswith("Pass ")
    assert "the Q♠ has too few low spades to hide behind" in suggestion.reason
    assert "the A♠ would catch the Q♠" in suggestion.reason


@pytest.mark.usefixtures("normal_hints")
def test_the_moon_hint_explains_the_game_ending_choice() -> None:
    state = moon_state("classic:players=2", (0, 90))
    suggestion = hint(view(state, 0))
    assert suggestion.action == ChooseMoon(0, MoonChoice.ADD)
    assert suggestion.reason == "Add 26 to every other player: that ends the game with you winning"


def test_a_given_player_is_explained_too() -> None:
    # easy discards its highest-ranked card, here the Q♠
    position = turn_view(play(start("card-commons", VOID_IN_CLUBS), "2C"))
    suggestion = hint(position, EasyPlayer())
    assert suggestion.action == Play(1, Card("QS"))
    assert explain(position, Play(1, Card("7H"))) == "You are void in clubs: dump the 7♥"
    assert explain(position, Play(1, Card("7D"))) == "You are void in clubs: get rid of the high 7♦"


def test_hints_use_the_expert_level_when_it_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "expert", lambda rng: EasyPlayer(name="expert"))
    assert hint_level() == "expert"
    position = view(start("card-commons", {0: "QS 2S 3S 4S 5S AC KC 9C 2D 3D 4D 2H 3H"},
                          round_no=1), 0)
    expert_pass = hint(position).action
    normal_pass = PassCards(0, RuleBasedPlayer().choose_pass(position))
    assert expert_pass == PassCards(0, CardSet.parse("QS AC KC")) != normal_pass


def test_the_only_legal_card_is_explained() -> None:
    position = turn_view(start("card-commons", VOID_IN_CLUBS))
    assert explain(position, Play(0, Card("2C"))) == "The 2♣ must lead the first trick"


@settings(max_examples=30)
@given(
    preset_count=st.sampled_from([("card-commons", 3), ("card-commons", 4), ("standard", 4),
                                  ("classic", 2), ("classic", 3), ("classic", 5),
                                  ("classic", 6)]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
)
def test_every_decision_of_a_game_gets_a_legal_hint_with_a_one_line_reason(
    preset_count: tuple[str, int], seed: int, steps: int
) -> None:
    preset, players = preset_count
    state = new_game(Rules.parse(f"{preset}:players={players}"), seed)
    randoms = [RandomPlayer(seed + s) for s in range(players)]
    for _ in range(steps):
        if state.phase is Phase.DEAL:
            state = state.apply(state.next_deal)
            continue
        seat = state.to_act[0]
        for player in (RuleBasedPlayer(), randoms[seat]):
            suggestion = hint(view(state, seat), player)
            assert suggestion.reason and "\n" not in suggestion.reason
            after = state.apply(suggestion.action)  # raises if the hint were illegal
        state = after


def test_following_on_the_first_trick_is_explained_by_the_card_chosen() -> None:
    position = turn_view(play(start("standard", {0: "2C", 1: "3C 9C KC"}), "2C"))
    assert explain(position, Play(1, Card("KC"))) == (
        "Points may fall on the first trick only from a hand holding nothing else: "
        "shed your high K♣")
    assert explain(position, Play(1, Card("3C"))) == (
        "You cannot play under the 2♣: play your lowest, the 3♣, so a later card may beat it")


ONLY_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_the_first_trick_explanation_keeps_the_exception_for_a_hand_of_only_points() -> None:
    # standard bars points from trick one unless a hand holds nothing else: seat 3 holds
    # only hearts, so a heart may fall on seat 1's K♣ and the reason must not deny it
    state = play(start("standard", {0: "2C", 1: "3C 9C KC", 2: "2S", 3: ONLY_HEARTS},
                       voids={2: "C"}), "2C")
    reason = explain(turn_view(state), Play(1, Card("KC")))
    assert reason == ("Points may fall on the first trick only from a hand holding "
                      "nothing else: shed your high K♣")
    last = turn_view(play(state, "KC 2S"))
    assert last.seat == 3 and last.legal == CardSet.parse(ONLY_HEARTS)


def test_once_points_fell_on_the_first_trick_shedding_is_not_called_safe() -> None:
    state = play(start("standard", {0: "2C", 1: ONLY_HEARTS, 2: "3C 9C KC"}), "2C 2H")
    reason = explain(turn_view(state), Play(2, Card("KC")))
    assert "first trick" not in reason
