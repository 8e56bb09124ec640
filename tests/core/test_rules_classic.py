"""One scenario per rule sentence of the classic text (003_…txt, suit symbols lost: RULES.md)."""

import pytest
from hearts_scenarios import MOON_HANDS, deal, legal, pass_all, play, play_out, start, step

from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    IllegalActionError,
    InvalidRulesError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    card_points,
    deal_hands,
    new_game,
    new_hand,
    shuffled_deck,
    view,
)


def classic(players: int = 4) -> Rules:
    """The classic preset for a player count."""
    return Rules.preset_rules("classic", players)


def won(state, seat: int) -> CardSet:  # type: ignore[no-untyped-def]
    """Cards a seat took in the tricks of the last hand played."""
    return CardSet([c for t in state.tricks if t.winner == seat for c in t.cards])


# ------------------------------------------------------------ Number of players
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_classic_two_to_six_players(players: int) -> None:
    assert classic(players).players == players
    assert new_game(classic(players), 1).players == players


@pytest.mark.parametrize("players", [1, 7])
def test_classic_not_fewer_than_two_nor_more_than_six(players: int) -> None:
    with pytest.raises(InvalidRulesError, match="classic is played by 2 to 6 players"):
        classic(players)


def test_classic_if_three_players_discard_the_2c_leaving_51_cards() -> None:
    assert classic(3).removed == CardSet.parse("2C").mask
    assert classic(3).deck.bit_count() == 51


def test_classic_with_three_players_each_has_17_cards_and_passes_four() -> None:
    rules = classic(3)
    assert rules.hand_size == 17 and rules.pass_count == 4
    state = new_game(rules, "three")
    assert [len(state.dealt(s)) for s in range(3)] == [17] * 3
    with pytest.raises(IllegalActionError, match="pass exactly 4"):
        state.apply(PassCards(0, CardSet(list(state.hand(0))[:3])))
    state = state.apply(PassCards(0, CardSet(list(state.hand(0))[:4])))
    assert state.has_chosen(0)


def test_classic_more_than_four_players_remove_the_lowest_clubs_so_hands_are_equal() -> None:
    assert classic(6).removed == CardSet.parse("2C 3C 4C 5C").mask
    assert classic(6).hand_size == 8
    assert classic(4).removed == 0 and classic(2).removed == 0


def test_classic_if_five_play_get_rid_of_the_2_and_3_each_has_ten_cards() -> None:
    rules = classic(5)
    assert rules.removed == CardSet.parse("2C 3C").mask
    assert [len(new_game(rules, 5).dealt(s)) for s in range(5)] == [10] * 5


# ---------------------------------------------------------------- Object, cards
def test_classic_object_to_score_the_least_amount_of_points() -> None:
    state = play_out(start(classic(), {0: MOON_HANDS[4]}, totals=(98, 80, 50, 40)),
                     moon=MoonChoice.ADD)
    assert state.is_over and state.winners == (3,)


def test_classic_standard_52_card_deck_no_trump_aces_high_2_low() -> None:
    rules = classic()
    assert rules.deck.bit_count() == 52
    state = start(rules, {0: "2C 2D", 1: "AC AH", 2: "3C AS", 3: "4C 3D"},
                  voids={1: "D", 2: "D"})
    state = play(state, "2C AC 3C 4C")
    assert state.tricks[0].winner == 1  # ace high
    fresh = start(rules, {0: "2C 2D", 1: "3C AS", 2: "4C AH", 3: "5C 3D"},
                  voids={1: "D", 2: "D"})
    fresh = play(fresh, "2C 3C 4C 5C 3D 2D AS AH")
    assert fresh.tricks[1].winner == 3  # no trump: the 3 of the suit led beats two aces


# ---------------------------------------------------------------------- Dealing
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_classic_all_cards_are_dealt_clockwise(players: int) -> None:
    rules = classic(players)
    order = shuffled_deck(rules.deck, "clockwise")
    hands = deal_hands(rules, "clockwise")
    for k, card in enumerate(order):
        assert hands[k % players] >> card & 1  # card k to the k-th seat round the table
    assert sorted(order) == [c for c in range(52) if rules.deck >> c & 1]


# ---------------------------------------------------------------------- Passing
def test_classic_three_cards_are_passed_except_every_fourth_hand() -> None:
    rules = classic()
    assert rules.pass_count == 3
    assert [rules.pass_offset(r) != 0 for r in range(1, 9)] == [True, True, True, False] * 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_classic_three_cards_are_passed_with_each_hand_four_by_three_players(
        players: int) -> None:
    rules = classic(players)
    count = 4 if players == 3 else 3  # the text's 3-player exception
    state = start(rules, round_no=1)
    hand = list(state.hand(0))
    for wrong in (hand[:count - 1], hand[:count + 1]):
        with pytest.raises(IllegalActionError, match=f"pass exactly {count}"):
            state.apply(PassCards(0, CardSet(wrong)))
    assert {len(a.cards) for a in state.legal_actions(0)} == {count}  # type: ignore[union-attr]


def test_classic_select_the_cards_and_give_them_to_the_appropriate_opponent() -> None:
    state = start(classic(), {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"},
                  round_no=1)
    state = pass_all(state, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH", 3: "AC KC QC"})
    assert state.received(1) == CardSet.parse("AS KS QS")
    assert state.received(0) == CardSet.parse("AC KC QC")


def test_classic_pass_from_your_own_hand_before_you_can_look_at_your_new_cards() -> None:
    state = start(classic(), {0: "AS KS QS", 3: "AC KC QC"}, round_no=1)
    with pytest.raises(IllegalActionError, match="not in seat 0's hand"):
        state.apply(PassCards(0, CardSet.parse("AS KS AC")))
    state = pass_all(state, {3: "AC KC QC", 1: " ".join(state.hand(1).names()[:3]),
                             2: " ".join(state.hand(2).names()[:3])})
    assert view(state, 0).received is None and "AC" not in view(state, 0).hand
    with pytest.raises(IllegalActionError, match="not in seat 0's hand"):
        state.apply(PassCards(0, CardSet.parse("AS KS AC")))  # AC is not yet its card


@pytest.mark.parametrize(("round_no", "offset"), [(1, 1), (2, 3), (3, 2)])
def test_classic_first_hand_left_second_right_third_opposite(round_no: int, offset: int) -> None:
    state = start(classic(), round_no=round_no)
    chosen = {s: CardSet(list(state.hand(s))[:3]) for s in range(4)}
    for seat, cards in chosen.items():
        state = state.apply(PassCards(seat, cards))
    assert all(state.received((s + offset) % 4) == chosen[s] for s in range(4))


def test_classic_fourth_hand_no_cards_are_passed() -> None:
    state = start(classic(), round_no=4)
    assert state.phase is Phase.PLAY and state.hand(0) == state.dealt(0)


def test_classic_this_cycle_of_passes_repeats_until_the_end_of_the_game() -> None:
    assert [classic().pass_offset(r) for r in range(1, 13)] == [1, 3, 2, 0] * 3


def test_classic_with_two_players_alternate_between_passing_and_no_pass() -> None:
    rules = classic(2)
    assert [rules.pass_offset(r) for r in range(1, 7)] == [1, 0, 1, 0, 1, 0]
    state = start(rules, round_no=1)
    mine, theirs = CardSet(list(state.hand(0))[:3]), CardSet(list(state.hand(1))[:3])
    state = state.apply(PassCards(0, mine)).apply(PassCards(1, theirs))
    assert state.received(1) == mine and state.received(0) == theirs


def test_classic_with_three_players_skip_the_third_hand() -> None:
    assert [classic(3).pass_offset(r) for r in range(1, 7)] == [1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize("players", [5, 6])
def test_classic_more_than_four_pass_to_each_opponent_before_repeating(players: int) -> None:
    rules = classic(players)
    cycle = [rules.pass_offset(r) for r in range(1, len(rules.pass_cycle) + 1)]
    passes = [o for o in cycle if o]
    assert sorted(passes) == list(range(1, players))  # every opponent exactly once
    assert cycle[-1] == 0  # then the hold hand
    assert rules.pass_offset(len(cycle) + 1) == cycle[0]


# ---------------------------------------------------------------------- Playing
@pytest.mark.parametrize(("players", "club"), [(2, "2C"), (3, "3C"), (4, "2C"), (5, "4C"),
                                               (6, "6C")])
def test_classic_the_player_with_the_lowest_club_must_lead_it(players: int, club: str) -> None:
    rules = classic(players)
    seat = players - 1
    state = start(rules, {seat: club})
    assert state.turn == seat and legal(state) == {club}


def test_classic_the_play_continues_clockwise() -> None:
    state = start(classic(5), {3: "4C"})
    order = []
    for _ in range(5):
        order.append(state.turn)
        state = step(state)
    assert order == [3, 4, 0, 1, 2]


def test_classic_the_next_player_must_follow_suit_if_possible() -> None:
    state = start(classic(), {0: "2C", 1: "9C 3H QS 2D"})
    state = play(state, "2C")
    assert legal(state) == set(state.hand(1).suit(0).names())


def test_classic_first_trick_void_any_card_except_a_heart_or_the_queen() -> None:
    state = start(classic(), {0: "2C", 1: "QS AH 2D 3S"}, voids={1: "C"})
    state = play(state, "2C")
    assert legal(state) == set(state.hand(1).names()) - {"QS"} - set(
        state.hand(1).suit(3).names())


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_classic_first_trick_no_heart_or_queen_at_every_player_count(players: int) -> None:
    rules = classic(players)
    lead = str(Card(rules.lowest_club))
    state = play(start(rules, {0: lead, 1: "QS AH 2D 3S"}, voids={1: "C"}), lead)
    assert legal(state) == set(state.hand(1).names()) - {"QS"} - set(
        state.hand(1).suit(3).names())


@pytest.mark.parametrize("players", [2, 3, 6])
def test_classic_hearts_cannot_be_led_after_a_clean_first_trick_at_every_player_count(
        players: int) -> None:
    rules = classic(players)
    state = start(rules, {0: str(Card(rules.lowest_club)), 1: "AC 8H 2D"})
    while not state.tricks:  # the first trick: each its lowest card, seat 1 its ace
        state = state.apply(Play(1, Card("AC"))) if state.turn == 1 else step(state)
    assert state.turn == 1 and not state.hearts_broken
    assert "8H" not in legal(state) and "2D" in legal(state)


def test_classic_first_trick_a_hand_of_only_hearts_and_the_queen_may_play_them() -> None:
    only_points = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = play(start(classic(), {0: "2C", 1: only_points}), "2C")
    assert legal(state) == set(only_points.split())  # RULES.md note 3


def test_classic_the_highest_card_of_the_suit_led_wins_and_leads_the_next_trick() -> None:
    state = start(classic(), {0: "2C", 1: "5C", 2: "JC", 3: "9C"})
    state = play(state, "2C 5C JC 9C")
    assert state.tricks[0].winner == 2 and state.turn == 2


def test_classic_after_the_first_trick_a_heart_or_the_queen_may_be_dumped_when_void() -> None:
    state = start(classic(), {0: "2C 3D", 1: "AC 2D", 2: "3C QS 9H", 3: "4C"}, voids={2: "D"})
    state = play(state, "2C AC 3C 4C 2D")
    assert {"QS", "9H"} <= legal(state)


def test_classic_hearts_cannot_be_led_until_a_heart_was_discarded_on_another_trick() -> None:
    state = start(classic(), {0: "2C 3D", 1: "AC 2D", 2: "3C 9H", 3: "4C AD 8H"},
                  voids={2: "D"})
    state = play(state, "2C AC 3C 4C")
    assert "8H" not in legal(state, 1) and not state.hearts_broken
    state = play(state, "2D 9H AD 3D")  # seat 2 discards a heart; seat 3 takes the trick
    assert state.hearts_broken and state.turn == 3 and "8H" in legal(state)


def test_classic_a_heart_led_or_followed_is_not_played_as_a_discard() -> None:
    # five players hold ten cards: seat 1 has only hearts left after trick one and leads
    # one; every heart on that trick follows suit, so hearts stay unbroken for seat 3
    fixed = {0: "4C", 1: "AC 2H 3H 4H 5H 6H 7H 8H 9H TH", 2: "5C JH QH", 3: "6C KH AH",
             4: "7C"}
    state = play(start(classic(5), fixed), "4C AC 5C 6C 7C")
    state = play(state, "2H JH AH")
    state = step(step(state))  # seats 4 and 0 hold no heart: they discard other suits
    assert state.tricks[-1].winner == 3 and not state.hearts_broken
    assert "KH" not in legal(state) and legal(state)


def test_classic_the_queen_of_spades_does_not_break_hearts() -> None:
    state = start(classic(), {0: "2C 2S", 1: "AC KS", 2: "3C QS", 3: "4C AS 9H"})
    state = play(state, "2C AC 3C 4C KS QS AS 2S")
    assert state.queen_played and state.turn == 3
    assert "9H" not in legal(state)


def test_classic_a_hand_of_only_hearts_may_lead_one() -> None:
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = play(start(classic(), {0: "2C", 1: "AC " + hearts, 2: "3C", 3: "4C"}),
                 "2C AC 3C 4C")
    assert not state.hearts_broken and legal(state) == set(hearts.split())  # RULES.md note 3


def test_classic_the_game_continues_until_someone_reaches_100_at_the_end_of_a_hand() -> None:
    state = start(classic(), {1: "QS"}, totals=(0, 99, 0, 0))
    while not state.round_points(1) and state.phase is Phase.PLAY:
        state = step(state)
    assert state.phase is Phase.PLAY  # 100 passed mid-hand: the hand is still played out
    state = play_out(state)
    assert state.totals[1] >= 100 and state.is_over


# ---------------------------------------------------------------------- Scoring
def test_classic_each_heart_scores_one_point_and_the_queen_13() -> None:
    assert card_points(CardSet.parse("2H").mask, classic()) == 1
    assert card_points(CardSet.parse("QS").mask, classic()) == 13


def test_classic_count_the_penalty_points_among_the_tricks_you_won() -> None:
    state = play_out(start(classic(), totals=(3, 3, 3, 3)))
    for seat in range(4):
        assert state.results[-1].points[seat] == card_points(won(state, seat).mask, classic())


def test_classic_example_4_6_7_8_k_of_hearts_and_the_queen_score_18() -> None:
    assert card_points(CardSet.parse("4H 6H 7H 8H KH QS").mask, classic()) == 18


def test_classic_the_shooter_may_choose_to_have_every_opponent_assessed_26() -> None:
    state = start(classic(), {0: MOON_HANDS[4]}, totals=(10, 20, 30, 40))
    for _ in range(52):
        state = step(state)
    assert state.phase is Phase.MOON and state.to_act == (0,)
    assert view(state, 2).shooter == 0
    with pytest.raises(IllegalActionError, match="only the shooter"):
        state.apply(ChooseMoon(1, MoonChoice.ADD))
    added = state.apply(ChooseMoon(0, MoonChoice.ADD))
    assert added.results[-1].points == (0, 26, 26, 26)
    assert added.totals == (10, 46, 56, 66)


def test_classic_or_to_have_their_running_total_reduced_by_26() -> None:
    state = play_out(start(classic(), {0: MOON_HANDS[4]}, totals=(10, 20, 30, 40)),
                     moon=MoonChoice.SUBTRACT)
    assert state.results[-1].points == (-26, 0, 0, 0) and state.totals == (-16, 20, 30, 40)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_classic_the_moon_needs_every_heart_and_the_queen_at_any_count(players: int) -> None:
    state = play_out(start(classic(players), {0: MOON_HANDS[players]}), moon=MoonChoice.ADD)
    assert state.results[-1].shooter == 0
    assert state.results[-1].points == (0,) + (26,) * (players - 1)


def test_classic_as_soon_as_one_or_more_reach_100_the_game_ends_and_lowest_wins() -> None:
    state = play_out(start(classic(), {0: MOON_HANDS[4]}, totals=(90, 74, 80, 90)),
                     moon=MoonChoice.ADD)
    assert state.totals == (90, 100, 106, 116) and state.is_over
    assert state.winners == (0,)
    tied = new_hand(classic(), deal(classic(), {0: MOON_HANDS[4]}), totals=(99, 73, 80, 90),
                    round_no=4)
    tied = play_out(tied, moon=MoonChoice.ADD)
    assert tied.totals == (99, 99, 106, 116) and tied.winners == (0, 1)  # note 4: ties share
    with pytest.raises(IllegalActionError, match="game is over"):
        tied.apply(Play(0, Card("2C")))
