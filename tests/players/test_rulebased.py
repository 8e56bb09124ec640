"""Scenario tests for the rule-based players, each tied to a piece of Hearts know-how."""

from __future__ import annotations

import pytest
from hearts_scenarios import moon_state, play, start, turn_view

from hearts.core import Card, CardSet, MoonChoice, Phase, view
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import EasyPlayer, RuleBasedPlayer

NORMAL = RuleBasedPlayer()

# Seat 1 holds no club and an unguarded Q♠; seat 0 holds every club and leads them.
VOID_IN_CLUBS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    1: "QS 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
}


def test_void_in_the_suit_led_it_dumps_the_queen_on_trick_one_where_points_may_go_there() -> None:
    # card-commons: "first trick, void in suit led: any card, hearts and Q♠ included"
    state = play(start("card-commons", VOID_IN_CLUBS), "2C")
    assert NORMAL.choose_play(turn_view(state)) == Card("QS")


def test_void_in_the_suit_led_it_dumps_the_queen_once_the_rules_allow_it() -> None:
    # standard: "no points on the first trick", so the queen goes on trick two
    state = start("standard", VOID_IN_CLUBS)
    first = NORMAL.choose_play(turn_view(play(state, "2C")))
    assert first != Card("QS")
    state = play(state, f"2C {first} 8D 8S")
    state = play(state, "3C")
    assert NORMAL.choose_play(turn_view(state)) == Card("QS")


def test_it_keeps_the_queen_when_dumping_it_ends_the_game_with_it_losing() -> None:
    # seat 0 on 90 would reach 103 and end the game with seat 1 (95) behind seat 2 and 3
    state = play(start("card-commons", VOID_IN_CLUBS, totals=(90, 95, 40, 40)), "2C")
    assert NORMAL.choose_play(turn_view(state)) != Card("QS")


def test_it_dumps_the_queen_when_that_ends_the_game_with_it_winning() -> None:
    state = play(start("card-commons", VOID_IN_CLUBS, totals=(90, 10, 40, 40)), "2C")
    assert NORMAL.choose_play(turn_view(state)) == Card("QS")


# Seat 2 wins trick one with A♣ and leads spades; seat 3 sits behind it.
SPADE_LEAD = {
    0: "2C 5S 6S 7S 8S 9S TS JS 2D 3D 4D 5D 6D",
    1: "3C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    2: "AC KS KH AH 7D 8D 9D TD JD QD KD AD 4C",
    3: "5C AS 3S 4S 2S 6C 7C 8C 9C TC JC QC KC",
}


def test_it_plays_under_when_the_queen_may_still_fall() -> None:
    state = play(start("card-commons", SPADE_LEAD), "2C 3C AC 5C KS")
    seat3 = turn_view(state)
    assert seat3.seat == 3 and Card("AS") in seat3.legal
    assert NORMAL.choose_play(seat3) == Card("4S")


def test_last_to_play_it_ducks_a_trick_holding_the_queen() -> None:
    state = start("card-commons", {0: "2C 5S 6S 7S 9S TS JS 8D 2D 3D 4D 5D 6D",
                                   1: "3C KS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
                                   2: "AC 8S", 3: "4C QS"})
    state = play(state, "2C 3C AC 4C  8S QS 9S")
    seat1 = turn_view(state)
    assert seat1.seat == 1 and Card("KS") in seat1.legal
    assert NORMAL.choose_play(seat1) == Card("2S")


def test_it_drops_the_queen_under_the_ace() -> None:
    state = start("card-commons", {0: "AC AS", 1: "3C QS 2S 3S", 2: "4C", 3: "2C"})
    state = play(state, "2C AC 3C 4C  AS")
    seat1 = turn_view(state)
    assert seat1.seat == 1 and {"2S", "3S", "QS"} <= set(seat1.legal.names())
    assert NORMAL.choose_play(seat1) == Card("QS")


# Seat 0 takes A♣, then A♠ with the Q♠ under it: 13 points, all taken so far.
MOON_THREAT = {
    0: "AC TC 7C 9C AS AH KH QH AD KD QD JD TD",
    1: "2C QS 2H 5H 7H 8H 9H 2D 3D 4D 5D 6D 7D",
    2: "3C 5C JC 2S 3H 8D 9D",
    3: "4C 6C 8C QC KC 3S 4H 6H",
}
TWO_TRICKS = "2C 3C 4C AC  AS QS 2S 3S"


def test_it_sees_a_moon_threat_and_takes_a_heart_trick_to_stop_it() -> None:
    state = play(start("card-commons", MOON_THREAT), TWO_TRICKS + "  AH 2H 3H 4H  TC 5H 5C")
    seat3 = turn_view(state)
    know = Knowledge.of(seat3)
    assert know.moon_threat == 0 and know.points_taken[0] == 17
    assert NORMAL.choose_play(seat3) in (Card("QC"), Card("KC"))


def test_without_a_moon_threat_it_ducks_the_same_kind_of_trick() -> None:
    # seat 2 took a heart on trick three, so seat 0 (17 points) cannot shoot any more
    state = play(start("card-commons", MOON_THREAT),
                 TWO_TRICKS + "  7C 2H JC 6C  3H 4H AH 5H  TC 7H 5C")
    seat3 = turn_view(state)
    know = Knowledge.of(seat3)
    assert know.moon_threat is None and know.points_taken[0] == 17
    assert NORMAL.choose_play(seat3) == Card("8C")


# ----------------------------------------------------------------- passing
def pass_view(hand: str, preset: str = "card-commons"):  # type: ignore[no-untyped-def]
    """Seat 0's view before passing left with ``hand``."""
    return view(start(preset, {0: hand}, round_no=1), 0)


def test_it_passes_an_unguarded_queen_and_the_high_spades() -> None:
    chosen = NORMAL.choose_pass(pass_view("QS AS 2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 5H"))
    assert {"QS", "AS"} <= set(chosen.names())


def test_it_keeps_a_queen_guarded_by_many_low_spades() -> None:
    chosen = NORMAL.choose_pass(pass_view("QS 2S 3S 4S 5S AC KC 9C 2D 3D 4D 2H 3H"))
    assert not {"QS", "2S", "3S", "4S", "5S"} & set(chosen.names())


def test_it_passes_the_ace_and_king_of_spades_without_the_queen_or_guards() -> None:
    chosen = NORMAL.choose_pass(pass_view("AS KS 2C 5C 8C TC 2D 5D 8D TD 2H 3H 4H"))
    assert {"AS", "KS"} <= set(chosen.names())


def test_it_voids_a_short_suit_and_keeps_low_hearts() -> None:
    chosen = NORMAL.choose_pass(pass_view("KD 9D 2C 3C 4C 5C 6C 2S 3S 4S 2H 3H 4H"))
    assert {"KD", "9D"} <= set(chosen.names())
    assert not {"2H", "3H", "4H"} & set(chosen.names())


def test_with_a_moon_hand_it_passes_its_low_cards_and_keeps_control() -> None:
    # seven top hearts and the top diamonds: the low spade, club and heart are the losers
    chosen = NORMAL.choose_pass(pass_view("AH KH QH JH TH 9H 8H 2S 3C AS AC AD KD"))
    assert chosen == CardSet.parse("2S 3C 8H")


def test_easy_passes_its_highest_cards() -> None:
    chosen = EasyPlayer().choose_pass(pass_view("QS 2S 3S 4S 5S AC KC 9C 2D 3D 4D 2H 3H"))
    assert chosen == CardSet.parse("QS AC KC")


# -------------------------------------------------------------- the moon choice
@pytest.mark.parametrize(
    ("preset", "totals", "expected"),
    [
        # adding 26 to seat 1 ends the game with the shooter winning
        ("classic:players=2", (0, 90), MoonChoice.ADD),
        # adding would put seat 2 over 100 while seat 1 (50+26) beats the shooter (90)
        ("classic:players=3", (90, 50, 80), MoonChoice.SUBTRACT),
        # nobody near the end: the trailing shooter takes 26 off itself
        ("classic:players=3", (60, 20, 30), MoonChoice.SUBTRACT),
        # the leading shooter adds to the others, hastening an end it would win
        ("classic:players=3", (10, 40, 50), MoonChoice.ADD),
    ],
)
def test_the_moon_choice_follows_the_game_score(
    preset: str, totals: tuple[int, ...], expected: MoonChoice
) -> None:
    state = moon_state(preset, totals)
    assert state.phase is Phase.MOON and state.shooter == 0
    choice = NORMAL.choose_moon(view(state, 0))
    assert choice is expected
    after = state.apply_all([])
    assert after.phase is Phase.MOON  # the choice above did not touch the state


def test_the_shooter_keeps_a_plausible_moon_hand_that_normal_breaks_up() -> None:
    """Five hearts from the top and the top diamonds and clubs: ``normal`` passes its
    aces away, the aggressive ``shooter`` keeps control and passes its losers."""
    hand = pass_view("AH KH QH JH 5H 2S 3C 4C AS AC AD KD 9D")
    assert {"AH", "AS"} <= set(NORMAL.choose_pass(hand).names())
    shooter = RuleBasedPlayer("shooter", aggressive=True)
    assert shooter.choose_pass(hand) == CardSet.parse("2S 3C 4C")
