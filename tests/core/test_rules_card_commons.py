"""One scenario per rule sentence of the Card Commons text (000_…txt), the default preset."""

import re

import pytest
from hearts_scenarios import MOON_HANDS, deal, legal, pass_all, play, play_out, start, step

from hearts.core import (
    FULL_DECK,
    HEARTS,
    SUIT_MASKS,
    Card,
    CardSet,
    ChooseMoon,
    IllegalActionError,
    MoonChoice,
    MoonRule,
    PassCards,
    Phase,
    Play,
    Rules,
    card_points,
    format_sheet,
    new_game,
    new_hand,
    view,
)

CC4 = Rules.preset_rules("card-commons", 4)
CC3 = Rules.preset_rules("card-commons", 3)


# ---------------------------------------------------------------------- Goal
def test_card_commons_avoid_scoring_points_points_taken_add_to_the_score() -> None:
    state = play_out(start(CC4, totals=(5, 6, 7, 8)))
    points = state.results[-1].points
    assert sum(points) == 26 and min(points) >= 0
    assert state.totals == tuple(t + p for t, p in zip((5, 6, 7, 8), points, strict=True))


def test_card_commons_the_game_ends_after_the_round_in_which_a_player_reaches_100() -> None:
    state = start(CC4, {1: "QS"}, totals=(0, 99, 0, 0))
    while not state.round_points(1):
        state = step(state)
    assert state.phase is Phase.PLAY and state.totals == (0, 99, 0, 0)  # not mid-round
    done = play_out(state)
    assert done.totals[1] >= 100
    assert done.is_over and done.phase is Phase.OVER
    with pytest.raises(IllegalActionError, match="game is over"):
        done.apply(Play(0, Card("2C")))


def test_card_commons_the_game_goes_on_while_nobody_has_reached_100() -> None:
    state = play_out(start(CC4, totals=(0, 50, 0, 0)))
    assert max(state.totals) < 100
    assert not state.is_over and state.phase is Phase.DEAL and state.round_no == 5


def test_card_commons_the_player_with_the_lowest_score_wins() -> None:
    state = play_out(start(CC4, {1: "QS"}, totals=(40, 99, 30, 60)), prefer={1: "QS"})
    assert state.is_over
    best = min(state.totals)
    assert state.winners == tuple(s for s in range(4) if state.totals[s] == best)
    assert len(state.winners) == 1


# --------------------------------------------------------------------- Cards
def test_card_commons_use_a_standard_52_card_deck_without_jokers() -> None:
    assert CC4.deck == FULL_DECK and CC4.deck.bit_count() == 52
    hands = new_game(CC4, 3).history[0].hands  # type: ignore[union-attr]
    assert CardSet(0).mask == 0 and sum(len(h) for h in hands) == 52


def test_card_commons_with_3_players_take_out_the_2c_leaving_51_cards() -> None:
    assert CC3.removed == CardSet.parse("2C").mask
    assert CC3.deck.bit_count() == 51
    state = new_game(CC3, 9)
    assert all(Card("2C") not in state.dealt(s) for s in range(3))


# ------------------------------------------------------------------- Ranking
def test_card_commons_in_each_suit_the_ace_is_highest_and_the_2_is_lowest() -> None:
    state = start(CC4, {0: "2C", 1: "AC", 2: "KC", 3: "3C"})
    state = play(state, "2C AC KC 3C")
    assert state.tricks[0].winner == 1


def test_card_commons_there_is_no_trump_suit() -> None:
    state = start(CC4, {0: "2C 2D", 1: "3C AH", 2: "4C AS", 3: "5C 3D"},
                  voids={1: "D", 2: "D"})
    state = play(state, "2C 3C 4C 5C")  # seat 3 takes it and leads
    state = play(state, "3D 2D AH AS")  # an ace of hearts and of spades discarded on 3♦
    assert state.tricks[1].winner == 3


# ------------------------------------------------------------- Starting hand
def test_card_commons_deal_out_all_the_cards() -> None:
    for rules in (CC3, CC4):
        state = new_game(rules, "deal")
        dealt = [state.dealt(s).mask for s in range(rules.players)]
        union = 0
        for hand in dealt:
            assert not union & hand
            union |= hand
        assert union == rules.deck


def test_card_commons_with_4_players_everyone_gets_13_and_with_3_players_17() -> None:
    assert [len(new_game(CC4, 1).dealt(s)) for s in range(4)] == [13] * 4
    assert [len(new_game(CC3, 1).dealt(s)) for s in range(3)] == [17] * 3


# ---------------------------------------------------------------- Play 1 pass
@pytest.mark.parametrize("rules", [CC4, CC3], ids=["4p", "3p"])
def test_card_commons_pass_3_cards(rules: Rules) -> None:
    state = start(rules, round_no=1)
    hand = list(state.hand(0))
    for wrong in (hand[:2], hand[:4]):
        with pytest.raises(IllegalActionError, match="pass exactly 3"):
            state.apply(PassCards(0, CardSet(wrong)))
    assert {len(a.cards) for a in state.legal_actions(0)} == {3}  # type: ignore[union-attr]


def test_card_commons_nobody_looks_at_received_cards_until_everybody_has_chosen() -> None:
    state = start(CC4, {0: "2C 3C 4C", 1: "2D 3D 4D", 2: "2S 3S 4S", 3: "AH KH QH"},
                  round_no=1)
    before = view(state, 0).hand
    state = pass_all(state, {3: "AH KH QH", 1: "2D 3D 4D", 2: "2S 3S 4S"})
    waiting = view(state, 0)
    assert waiting.received is None and waiting.hand == before
    assert view(state, 3).passed == CardSet.parse("AH KH QH")
    assert view(state, 3).received is None
    state = pass_all(state, {0: "2C 3C 4C"})
    assert view(state, 0).received == CardSet.parse("AH KH QH")


@pytest.mark.parametrize(("round_no", "offset"), [(1, 1), (2, 3), (3, 2)])
def test_card_commons_first_round_passes_left_second_right_third_across(
    round_no: int, offset: int
) -> None:
    state = start(CC4, round_no=round_no)
    chosen = {s: CardSet(list(state.hand(s))[:3]) for s in range(4)}
    for seat, cards in chosen.items():
        state = state.apply(PassCards(seat, cards))
    for seat, cards in chosen.items():
        assert state.received((seat + offset) % 4) == cards
        assert cards.mask & state.hand((seat + offset) % 4).mask == cards.mask


def test_card_commons_the_fourth_round_is_a_hold_round_then_the_cycle_starts_again() -> None:
    assert [CC4.pass_offset(r) for r in range(1, 9)] == [1, 3, 2, 0, 1, 3, 2, 0]
    fourth = new_hand(CC4, deal(CC4, {}), round_no=4)
    assert fourth.phase is Phase.PLAY and fourth.received(0) is None
    fifth = new_hand(CC4, deal(CC4, {}), round_no=5)
    assert fifth.phase is Phase.PASS and fifth.pass_offset == 1


def test_card_commons_with_3_players_no_pass_across_so_the_third_round_holds() -> None:
    assert [CC3.pass_offset(r) for r in range(1, 7)] == [1, 2, 0, 1, 2, 0]
    assert new_hand(CC3, deal(CC3, {}), round_no=3).phase is Phase.PLAY


# ------------------------------------------------------------ Play 2 the lead
def test_card_commons_whoever_holds_the_2c_after_the_pass_must_lead_it() -> None:
    state = start(CC4, {0: "2C 3C 4C", 1: "2D 3D 4D", 2: "2S 3S 4S", 3: "2H 3H 4H"},
                  round_no=1)
    state = pass_all(state, {0: "2C 3C 4C", 1: "2D 3D 4D", 2: "2S 3S 4S", 3: "2H 3H 4H"})
    assert state.turn == 1  # seat 0 passed 2♣ to its left
    assert legal(state) == {"2C"}
    with pytest.raises(IllegalActionError, match="first trick is led with 2C"):
        state.apply(Play(1, Card("3C")))


def test_card_commons_with_3_players_the_3c_leads_instead() -> None:
    state = start(CC3, {2: "3C"})
    assert state.turn == 2 and legal(state) == {"3C"}


# ---------------------------------------------------- Play 3 following suit
def test_card_commons_follow_suit_if_you_can() -> None:
    state = start(CC4, {0: "2C", 1: "9C 2H QS"}, voids={1: "C"})
    state = play(state, "2C")
    assert legal(state) == {"9C"}


def test_card_commons_play_goes_to_the_left() -> None:
    state = start(CC4, {2: "2C"})
    order = []
    for _ in range(4):
        order.append(state.turn)
        state = step(state)
    assert order == [2, 3, 0, 1]


def test_card_commons_if_you_have_no_card_of_the_suit_led_play_any_card() -> None:
    state = start(CC4, {0: "2C 3C", 1: "AC", 3: "4C"}, voids={2: "C"})
    state = play(state, "2C AC")  # seat 2 (no clubs) to play
    hand2 = state.hand(2)
    assert not hand2.suit(0)
    assert legal(state) == set(hand2.names())


@pytest.mark.parametrize("rules", [CC4, CC3], ids=["4p", "3p"])
def test_card_commons_that_includes_a_heart_or_the_qs_even_on_the_first_trick(
        rules: Rules) -> None:
    lead = str(Card(rules.lowest_club))  # 2♣, or 3♣ with three players
    state = start(rules, {0: lead, 1: "QS AH KH"}, voids={1: "C"})
    state = play(state, lead)
    assert {"QS", "AH", "KH"} <= legal(state)
    state = play(state, "QS")
    assert state.trick[-1] == (1, Card("QS"))


# --------------------------------------------------- Play 4 taking the trick
def test_card_commons_the_highest_card_of_the_suit_led_takes_the_trick() -> None:
    state = start(CC4, {0: "2C", 1: "7C", 2: "9C", 3: "AH"}, voids={3: "C"})
    state = play(state, "2C 7C 9C AH")
    assert state.tricks[0].winner == 2
    assert Card("AH") in state.taken(2)


def test_card_commons_whoever_takes_it_leads_next_and_can_lead_a_heart() -> None:
    state = start(CC4, {0: "2C", 1: "7C 2H 3H", 2: "9C 4H", 3: "3C"})
    state = play(state, "2C 7C 9C 3C")
    assert state.turn == 2 and not state.hearts_broken
    assert "4H" in legal(state)
    state = play(state, "4H")
    assert state.leader == 2


# -------------------------------------------------------------- Play 5 round
def test_card_commons_play_until_every_card_has_been_played() -> None:
    state = start(CC4)
    for _ in range(51):
        state = step(state)
    assert state.phase is Phase.PLAY and len(state.tricks) == 12
    state = step(state)
    assert len(state.results) == 1 and sum(len(state.hand(s)) for s in range(4)) == 0


def test_card_commons_then_score_the_round_and_deal_the_next_one() -> None:
    state = new_game(CC4, "next")
    first = [state.dealt(s) for s in range(4)]
    state = pass_all(state, {s: " ".join(state.hand(s).names()[:3]) for s in range(4)})
    state = play_out(state)
    assert len(state.results) == 1 and state.round_no == 2
    # the round's last trick stays on the table until the seeded dealer's step
    assert state.phase is Phase.DEAL and len(state.tricks) == 13 and state.to_act == ()
    assert state.next_deal is not None and state.legal_actions() == [state.next_deal]
    state = state.apply(state.next_deal)
    assert state.phase is Phase.PASS and state.pass_offset == 3
    assert [state.dealt(s) for s in range(4)] != first
    assert all(len(state.hand(s)) == 13 for s in range(4))


# ------------------------------------------------------------------- Scoring
def test_card_commons_count_the_points_in_the_tricks_you_took_and_add_them() -> None:
    state = play_out(start(CC4, totals=(1, 2, 3, 4)))
    line = state.results[-1]
    for seat in range(4):
        won = [t for t in state.tricks if t.winner == seat]
        cards = CardSet([c for t in won for c in t.cards])
        assert line.points[seat] == card_points(cards.mask, CC4)
        assert line.totals[seat] == (1, 2, 3, 4)[seat] + line.points[seat]


def test_card_commons_each_heart_scores_1_the_qs_13_every_other_card_0() -> None:
    assert card_points(SUIT_MASKS[HEARTS], CC4) == 13
    assert card_points(CardSet.parse("5H").mask, CC4) == 1
    assert card_points(CardSet.parse("QS").mask, CC4) == 13
    others = FULL_DECK & ~SUIT_MASKS[HEARTS] & ~CardSet.parse("QS").mask
    assert card_points(others, CC4) == 0


def test_card_commons_taking_all_13_hearts_and_the_qs_is_shooting_the_moon() -> None:
    state = play_out(start(CC4, {0: MOON_HANDS[4]}))
    assert state.results[-1].shooter == 0


def test_card_commons_a_moon_takes_26_off_your_score_and_others_score_0() -> None:
    state = play_out(start(CC4, {0: MOON_HANDS[4]}, totals=(30, 20, 10, 40)))
    assert state.results[-1].points == (-26, 0, 0, 0)
    assert state.totals == (4, 20, 10, 40)


def test_card_commons_a_score_can_go_below_0() -> None:
    state = play_out(start(CC3, {0: MOON_HANDS[3]}))
    assert state.totals == (-26, 0, 0)
    assert view(state, 1).totals[0] == -26


def test_card_commons_players_tied_for_the_lowest_score_share_the_win() -> None:
    probe = play_out(start(CC4))
    points = probe.results[-1].points
    top = points.index(max(points))
    low = [s for s in range(4) if s != top]
    ends = [0] * 4
    ends[top], ends[low[0]], ends[low[1]], ends[low[2]] = 100, 60, 60, 80
    totals = tuple(e - p for e, p in zip(ends, points, strict=True))
    assert max(totals) < 100  # nobody had reached 100 before this round
    state = play_out(start(CC4, totals=totals))
    assert state.is_over and state.totals == tuple(ends)
    assert state.winners == tuple(sorted(low[:2]))


# -------------------------------------------------- Playing with your own deck
def test_card_commons_write_one_numbered_line_for_each_round_with_points_and_totals() -> None:
    state = new_game(CC4, "sheet")
    while len(state.results) < 2:
        if state.next_deal is not None:  # between rounds: the seeded dealer's step
            state = state.apply(state.next_deal)
        state = pass_all(state, {s: " ".join(state.hand(s).names()[-3:]) for s in state.to_act})
        state = play_out(state)
    sheet = format_sheet(state.results, ["Ann", "Bo", "Cy", "Di"])
    lines = sheet.splitlines()
    assert lines[0].split() == ["Round", "Ann", "Bo", "Cy", "Di"]
    numbered = [line for line in lines if line.lstrip()[:2] in ("1.", "2.")]
    assert [line.split()[0] for line in numbered] == ["1.", "2."]
    for result, line in zip(state.results, numbered, strict=True):
        cells = re.findall(r"([+-]\d+)\*?\s*=\s*(-?\d+)", line)
        assert [int(p) for p, _ in cells] == list(result.points)
        assert [int(t) for _, t in cells] == list(result.totals)


# ------------------------------------------------------ How this version differs
def test_card_commons_hearts_can_be_led_at_any_time_after_the_first_trick() -> None:
    state = start(CC4, {0: "2C 5H", 1: "3C", 2: "4C", 3: "AC 6H 7H"})
    assert CC4.moon is MoonRule.SHOOTER_MINUS
    state = play(state, "2C 3C 4C AC")
    assert not state.hearts_broken and state.turn == 3
    assert {"6H", "7H"} <= legal(state)


def test_card_commons_but_not_on_the_first_trick_whoever_leads_it() -> None:
    # with the house rule that the dealer's left leads trick one with any card, the
    # first lead is still no heart: "at any time *after* the first trick"
    rules = CC4.replace(first_lead="dealer-left")
    state = start(rules, {0: "2H 9C"})  # round 4: the dealer is seat 3, seat 0 leads
    assert state.trick_no == 0 and state.turn == 0
    assert "2H" not in legal(state) and "9C" in legal(state)


def test_card_commons_unlike_the_published_rules_a_heart_may_lead_before_any_heart_fell() -> None:
    fixed = {0: "2C 5H", 1: "3C", 2: "4C", 3: "AC 6H 7H"}
    published = Rules.preset_rules("classic", 4)
    ours = play(start(CC4, fixed), "2C 3C 4C AC")
    theirs = play(start(published, fixed), "2C 3C 4C AC")
    assert "6H" in legal(ours)
    assert "6H" not in legal(theirs)
    with pytest.raises(IllegalActionError, match="hearts are not broken"):
        theirs.apply(Play(3, Card("6H")))


def test_card_commons_shooting_the_moon_always_takes_26_off_your_own_score() -> None:
    before = start(CC4, {0: MOON_HANDS[4]})
    for _ in range(51):
        before = step(before)
    after = step(before)
    assert after.phase is not Phase.MOON  # no decision is asked for
    assert after.results[-1].moon_choice is MoonChoice.SUBTRACT


def test_card_commons_the_shooter_may_not_choose_to_add_26_to_the_others() -> None:
    state = start(CC4, {0: MOON_HANDS[4]})
    for _ in range(51):
        state = step(state)
    with pytest.raises(IllegalActionError, match="no moon choice is pending"):
        state.apply(ChooseMoon(0, MoonChoice.ADD))
    assert step(state).results[-1].points == (-26, 0, 0, 0)
