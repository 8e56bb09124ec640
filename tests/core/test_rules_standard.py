"""One scenario per rule sentence of the standard text (002_…txt)."""

import pytest
from hearts_scenarios import MOON_HANDS, deal, legal, pass_all, play, play_out, start, step

from hearts.core import (
    FULL_DECK,
    Card,
    CardSet,
    IllegalActionError,
    InvalidRulesError,
    MoonChoice,
    MoonRule,
    PassCards,
    Phase,
    Play,
    Rules,
    card_points,
    new_game,
    new_hand,
    view,
)

STD = Rules.preset_rules("standard")

# Seat 0 takes every heart by discards on its club tricks; seat 3 keeps Q♠ back and
# takes it with the last trick, led by seat 0's 2♠ (see the sentence tests below).
THIRTEEN_HEARTS = {
    0: "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S",
    1: "2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KD",
    2: "AH KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    3: "QS 3S 4S 5S 6S 7S 8S 9S TS JS KS AS AD",
}
THIRTEEN_PREFER = {
    0: "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2S",
    1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    2: "AH KH",
    3: "3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
}
# As above, but seat 1 keeps KH to the last trick and seat 3 gives up Q♠ early.
ONE_SHORT = {**THIRTEEN_HEARTS, 1: "2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
             2: "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"}
ONE_SHORT_PREFER = {**THIRTEEN_PREFER, 2: "AH", 3: "QS 3S"}


# ------------------------------------------------------------------ Overview
def test_standard_a_trick_taking_game_for_four() -> None:
    assert STD.players == 4
    for players in (2, 3, 5, 6):
        with pytest.raises(InvalidRulesError, match="standard is played by 4 players"):
            Rules.preset_rules("standard", players)


def test_standard_the_aim_is_to_score_as_few_points_as_possible() -> None:
    state = play_out(start(STD, totals=(90, 95, 99, 80)))
    assert state.is_over
    assert state.winners == (state.totals.index(min(state.totals)),)


def test_standard_hearts_cost_a_point_each_and_the_queen_of_spades_thirteen() -> None:
    assert card_points(CardSet.parse("2H 9H").mask, STD) == 2
    assert card_points(CardSet.parse("QS").mask, STD) == 13


def test_standard_house_rules_vary_so_agree_them_before_you_start() -> None:
    agreed = Rules.parse("standard:moon=shooter-minus,target=50")
    assert agreed.moon is MoonRule.SHOOTER_MINUS and agreed.target == 50
    assert Rules.parse(agreed.text) == agreed
    assert new_game(agreed, 1).rules.text == "standard:moon=shooter-minus,target=50"


# ---------------------------------------------------------------- 1. Setup
def test_standard_deal_the_full_52_card_deck_evenly_thirteen_cards_each() -> None:
    state = new_game(STD, "setup")
    assert STD.deck == FULL_DECK
    assert [len(state.dealt(s)) for s in range(4)] == [13] * 4
    assert CardSet(0).mask == 0
    union = 0
    for seat in range(4):
        union |= state.dealt(seat).mask
    assert union == FULL_DECK


def test_standard_aces_are_high_and_there_is_no_trump_suit() -> None:
    state = start(STD, {0: "2C", 1: "AC", 2: "KC", 3: "3C"})
    state = play(state, "2C AC KC 3C")
    assert state.tricks[0].winner == 1
    state = start(STD, {0: "2C 2D", 1: "3C AS", 2: "4C KS", 3: "5C 3D"},
                  voids={1: "D", 2: "D"})
    state = play(state, "2C 3C 4C 5C 3D 2D AS KS")  # spades discarded on a diamond lead
    assert state.tricks[1].winner == 3


# --------------------------------------------------------------- 2. Passing
def test_standard_every_player_chooses_three_cards_then_picks_up_what_they_were_passed() -> None:
    state = start(STD, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"},
                  round_no=1)
    with pytest.raises(IllegalActionError, match="pass exactly 3"):
        state.apply(PassCards(0, CardSet.parse("AS KS")))
    state = pass_all(state, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"})
    assert state.hand(1).mask & CardSet.parse("AS KS QS").mask
    assert CardSet.parse("AS KS QS").mask & state.hand(0).mask == 0
    assert state.received(0) == CardSet.parse("AC KC QC")


def test_standard_choose_before_you_look_at_what_is_coming() -> None:
    state = start(STD, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"},
                  round_no=1)
    state = pass_all(state, {3: "AC KC QC"})
    seen = view(state, 0)
    assert seen.received is None and "AC" not in seen.hand.names()
    assert "AC" not in view(state, 0).to_json()["hand"]
    state = pass_all(state, {1: "AD KD QD", 2: "AH KH QH"})
    assert view(state, 0).received is None  # seat 0 has not chosen yet
    with pytest.raises(IllegalActionError, match="already chosen"):
        state.apply(PassCards(3, CardSet.parse("2D 3D 4D")))


def test_standard_the_direction_rotates_each_hand_left_right_across_no_pass() -> None:
    assert [STD.pass_offset(r) for r in (1, 2, 3, 4)] == [1, 3, 2, 0]
    for round_no, offset in ((1, 1), (2, 3), (3, 2)):
        state = start(STD, round_no=round_no)
        chosen = {s: CardSet(list(state.hand(s))[-3:]) for s in range(4)}
        for seat, cards in chosen.items():
            state = state.apply(PassCards(seat, cards))
        assert all(state.received((s + offset) % 4) == chosen[s] for s in range(4))


def test_standard_no_pass_play_the_hand_as_dealt() -> None:
    state = start(STD, round_no=4)
    assert state.phase is Phase.PLAY
    assert all(state.hand(s) == state.dealt(s) for s in range(4))
    with pytest.raises(IllegalActionError, match="cannot pass now"):
        state.apply(PassCards(0, CardSet(list(state.hand(0))[:3])))


def test_standard_then_the_cycle_repeats() -> None:
    assert [STD.pass_offset(r) for r in range(5, 13)] == [1, 3, 2, 0] * 2
    assert new_hand(STD, deal(STD, {}), round_no=8).phase is Phase.PLAY


# ------------------------------------------------------------------ 3. Play
def test_standard_the_holder_of_the_two_of_clubs_leads_it_to_start_the_first_trick() -> None:
    state = start(STD, {2: "2C"})
    assert state.turn == 2 and legal(state) == {"2C"}


def test_standard_players_follow_suit_if_they_can() -> None:
    state = start(STD, {0: "2C", 1: "KC 2H QS AD"})
    state = play(state, "2C")
    assert legal(state) == set(state.hand(1).suit(0).names())
    with pytest.raises(IllegalActionError, match="must follow suit"):
        state.apply(Play(1, Card("AD")))


def test_standard_if_you_cannot_follow_you_may_play_anything_subject_to_restrictions() -> None:
    state = start(STD, {0: "2C", 1: "AC 4D", 2: "3C", 3: "4C"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 4D")  # seat 1 leads a diamond, seat 2 is void
    assert state.turn == 2
    assert legal(state) == set(state.hand(2).names())


def test_standard_the_highest_card_of_the_led_suit_wins_and_that_player_leads_next() -> None:
    state = start(STD, {0: "2C", 1: "TC", 2: "9C", 3: "3C"})
    state = play(state, "2C TC 9C 3C")
    assert state.tricks[0].winner == 1 and state.turn == 1 and state.leader == 1


# ---------------------------------------------------------- 4. Restrictions
def test_standard_no_points_on_the_first_trick() -> None:
    state = start(STD, {0: "2C", 1: "QS AH 2D"}, voids={1: "C"})
    state = play(state, "2C")
    allowed = legal(state)
    assert "QS" not in allowed and "AH" not in allowed and "2D" in allowed
    with pytest.raises(IllegalActionError, match="first trick"):
        state.apply(Play(1, Card("AH")))


def test_standard_you_may_not_play_a_heart_or_queen_on_trick_one_unless_only_points() -> None:
    hearts_and_queen = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = start(STD, {0: "2C", 1: hearts_and_queen})
    state = play(state, "2C")
    assert legal(state) == set(hearts_and_queen.split())


def test_standard_hearts_must_be_broken() -> None:
    state = start(STD, {0: "2C", 1: "AC 2D 9H", 2: "3C", 3: "4C"})
    state = play(state, "2C AC 3C 4C")
    assert not state.hearts_broken and "9H" not in legal(state)
    with pytest.raises(IllegalActionError, match="hearts are not broken"):
        state.apply(Play(1, Card("9H")))


def test_standard_a_heart_may_be_led_once_one_was_discarded_on_an_earlier_trick() -> None:
    state = start(STD, {0: "2C 3D", 1: "AC 2D 9H", 2: "3C 5H", 3: "4C 4D"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C")
    state = play(state, "2D")  # seat 1 leads a diamond, seat 2 discards a heart
    state = play(state, "5H 4D 3D")
    assert state.hearts_broken and state.tricks[1].winner == 3
    assert state.hand(3).suit(3), "seat 3 needs a heart for this scenario"
    assert set(state.hand(3).suit(3).names()) <= legal(state)


def test_standard_or_once_the_queen_of_spades_has_been_played() -> None:
    state = start(STD, {0: "2C 2S", 1: "AC KS", 2: "3C QS", 3: "4C AS 9H"})
    state = play(state, "2C AC 3C 4C")
    state = play(state, "KS QS AS 2S")  # seat 3 takes the queen and leads
    assert state.queen_played and not state.hearts_broken and state.turn == 3
    assert "9H" in legal(state)


def test_standard_unless_hearts_are_all_you_hold() -> None:
    state = start(STD, {0: "2C", 1: "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 2: "3C",
                        3: "4C"})
    state = play(state, "2C AC 3C 4C")
    assert not state.hearts_broken and not state.queen_played
    assert legal(state) == set(state.hand(1).names())


def test_standard_you_may_always_play_a_heart_when_you_cannot_follow_suit() -> None:
    state = start(STD, {0: "2C", 1: "AC 2D", 2: "3C 9H", 3: "4C"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 2D")
    assert not state.hearts_broken and "9H" in legal(state)


def test_standard_that_is_how_hearts_get_broken() -> None:
    state = start(STD, {0: "2C", 1: "AC 2D", 2: "3C 9H", 3: "4C"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 2D 9H")
    assert state.hearts_broken and view(state, 0).hearts_broken


# --------------------------------------------------------------- 5. Scoring
def test_standard_each_heart_scores_1_and_the_queen_of_spades_13() -> None:
    state = play_out(start(STD), prefer={s: "QS" for s in range(4)})
    line = state.results[-1]
    for seat in range(4):
        won = CardSet([c for t in state.tricks if t.winner == seat for c in t.cards])
        expected = len(won.suit(3)) + (13 if Card("QS") in won else 0)
        assert line.points[seat] == expected


def test_standard_a_full_hand_distributes_26_points() -> None:
    for seed in range(5):
        state = new_game(STD, seed)
        state = pass_all(state, {s: " ".join(state.hand(s).names()[:3]) for s in range(4)})
        assert sum(play_out(state).results[-1].points) == 26


# -------------------------------------------------------- 6. Shooting the moon
def test_standard_a_shooter_scores_zero_and_every_other_player_26() -> None:
    state = play_out(start(STD, {0: MOON_HANDS[4]}, totals=(10, 20, 30, 40)))
    assert state.results[-1].shooter == 0
    assert state.results[-1].points == (0, 26, 26, 26)
    assert state.totals == (10, 46, 56, 66)


def test_standard_some_tables_let_the_shooter_subtract_26_instead() -> None:
    table = Rules.parse("standard:moon=shooter-minus")
    state = play_out(start(table, {0: MOON_HANDS[4]}, totals=(10, 20, 30, 40)))
    assert state.results[-1].points == (-26, 0, 0, 0)


def test_standard_agree_which_before_you_start() -> None:
    assert STD.moon is MoonRule.OTHERS_PLUS
    state = start(STD, {0: MOON_HANDS[4]})
    for _ in range(52):
        state = step(state)
    assert state.phase is not Phase.MOON  # nobody decides at the table
    assert Rules.parse("standard:moon=shooter-choice").moon is MoonRule.SHOOTER_CHOICE


def test_standard_an_attempt_one_card_short_is_catastrophic() -> None:
    state = play_out(start(STD, ONE_SHORT), prefer=ONE_SHORT_PREFER)
    line = state.results[-1]
    assert line.shooter is None
    assert line.points[0] == 25 and sum(line.points) == 26


# ----------------------------------------------------------------- 7. Winning
def test_standard_play_continues_until_someone_reaches_100_points() -> None:
    going = play_out(start(STD, totals=(0, 0, 0, 0)))
    assert going.phase is Phase.DEAL and not going.is_over
    ended = play_out(start(STD, {0: MOON_HANDS[4]}, totals=(0, 74, 50, 50)))
    assert ended.totals[1] == 100 and ended.is_over


def test_standard_reaching_100_is_counted_when_the_hand_is_scored_not_mid_hand() -> None:
    # A hand's points count only once it is over (a moon may still turn them), so
    # "when someone reaches 100" is at the end of that hand, as in the other two texts.
    state = start(STD, {1: "QS"}, totals=(0, 99, 0, 0))
    while not state.round_points(1):
        state = step(state)
    assert state.phase is Phase.PLAY and not state.is_over and state.totals[1] == 99
    done = play_out(state)
    assert done.totals[1] >= 100 and done.is_over and done.phase is Phase.OVER


def test_standard_the_player_with_the_lowest_score_at_that_moment_wins() -> None:
    ended = play_out(start(STD, {0: MOON_HANDS[4]}, totals=(90, 74, 50, 50)))
    assert ended.totals == (90, 100, 76, 76)
    assert ended.winners == (2, 3)


# ----------------------------------------------------------- 8. Strategy
def test_standard_void_yourself_early_to_discard_the_queen() -> None:
    state = start(STD, {0: "2C 3D", 1: "AC 2D", 2: "3C QS", 3: "4C 4D"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 2D")
    assert "QS" in legal(state)
    state = play(state, "QS")
    assert state.trick[-1] == (2, Card("QS"))


def test_standard_an_unprotected_ace_or_king_of_spades_takes_the_queen() -> None:
    state = start(STD, {0: "2C 2S", 1: "AC AS", 2: "3C", 3: "4C QS"}, voids={2: "S"})
    state = play(state, "2C AC 3C 4C AS")
    state = play_out(state, prefer={3: "QS"})
    assert Card("QS") in CardSet([c for t in state.tricks if t.winner == 1 for c in t.cards])


def test_standard_one_heart_taken_by_another_player_stops_the_moon() -> None:
    state = play_out(start(STD, ONE_SHORT), prefer=ONE_SHORT_PREFER)
    line = state.results[-1]
    assert line.shooter is None and line.points == (25, 0, 0, 1)


# ----------------------------------------------------------- Commonly argued
def test_standard_you_must_follow_suit_the_restrictions_only_apply_when_you_cannot() -> None:
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = start(STD, {0: "2C QS", 1: "AC " + hearts, 2: "3C AH", 3: "4C"})
    state = play(state, "2C")
    assert legal(state) == {"AC"}  # only points besides the club: it must still follow
    state = play(state, "AC 3C 4C")
    state = play(state, "2H")  # seat 1 holds only hearts and leads one, hearts unbroken
    assert legal(state) == {"AH"}  # following with a heart is no restriction


def test_standard_hearts_may_be_discarded_any_time_you_are_void() -> None:
    state = start(STD, {0: "2C", 1: "AC 2D", 2: "3C 9H", 3: "4C"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 2D")
    assert not state.hearts_broken and "9H" in legal(state)


def test_standard_no_points_on_the_first_trick_including_the_queen() -> None:
    state = start(STD, {0: "2C", 1: "QS 2D 2S"}, voids={1: "C"})
    state = play(state, "2C")
    assert "QS" not in legal(state) and {"2D", "2S"} <= legal(state)


def test_standard_shooting_the_moon_requires_all_fourteen_point_cards() -> None:
    state = play_out(start(STD, THIRTEEN_HEARTS), prefer=THIRTEEN_PREFER)
    line = state.results[-1]
    won0 = CardSet([c for t in state.tricks if t.winner == 0 for c in t.cards])
    assert len(won0.suit(3)) == 13 and Card("QS") not in won0  # thirteen is not enough
    assert line.shooter is None and line.points == (13, 0, 0, 13)


def test_standard_the_lowest_score_wins() -> None:
    state = play_out(start(STD, {0: MOON_HANDS[4]}, totals=(80, 60, 40, 20)))
    assert state.totals == (80, 86, 66, 46) and not state.is_over
    state = play_out(start(STD, {0: MOON_HANDS[4]}, totals=(80, 74, 40, 20)))
    assert state.winners == (3,)
    assert MoonChoice.ADD is state.results[-1].moon_choice
