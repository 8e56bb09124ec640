"""Cards that play alike: the search simulates one card of a run, so the run must truly
play alike. What lies between two of my cards may be in another hand (unseen, or passed
by me), in the trick in progress (winning it or not) or in an earlier trick (shown)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import ALL_TABLES, random_position

from hearts.core import (
    Card,
    CardSet,
    GameState,
    PassCards,
    Phase,
    Play,
    Rules,
    new_hand,
    read_position,
    view,
)
from hearts.players.search.player import SearchPlayer, distinct_cards

# Standard, trick 12: seat 1 has taken every point card so far and leads 8♥; seats 2 and 3
# showed they have no hearts, so seat 1 holds the A♥. Seat 0 holds 3♥ and 10♥: the 3♥
# lets the moon through (26 to everyone else), the 10♥ breaks it for 2 points.
CERTAIN_MOON = ("standard 4 0,0,0,0 3HTH/AH/8S/JS hold 2:2C3C4CAC/1:KC5C6C7C/1:QC8C9CTC/"
                "1:AD2D3D4D/1:KD5D6D7D/1:QD8D9DTD/1:AS2S3SKS/1:QS4S5S6S/1:JH6H7H2H/"
                "1:QH9HJC4H/1:KHJD9S5H/1:8H7STS 0")


def _distinct(text: str) -> list[str]:
    state = read_position(text)
    return [str(card) for card in distinct_cards(view(state, state.to_act[0]))]


def test_the_issue_position_keeps_both_hearts() -> None:
    """The 8♥ winning the trick lies between 3♥ and 10♥: they are two choices, not one."""
    assert _distinct(CERTAIN_MOON) == ["3H", "TH"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_search_breaks_the_certain_moon(seed: int) -> None:
    """With the 3♥ the moon is certain; the search must play the 10♥ (it played the 3♥
    when both counted as one card, having nothing to compare)."""
    state = read_position(CERTAIN_MOON)
    seen = view(state, 0)
    player = SearchPlayer(seed, level="hard", iterations=300)
    low, high = player.card_values(seen, [Card("3H"), Card("TH")])
    assert high > low
    assert SearchPlayer(seed, level="hard", iterations=300).choose_play(seen) == Card("TH")


# Card Commons without passing, the dealer's left (seat 1) leading trick one.
HOLD = Rules.parse("card-commons:first_lead=dealer-left,pass_cycle=hold")
# Seat 0: 3♥ 10♥ and clubs; seat 1 leads diamonds; seat 2 throws 4-7♥ and 9♥ on them.
HEARTS_APART = ["3H TH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
                "{one} 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                "4H 5H 6H 7H 9H 2S 3S 4S 5S 6S 7S 8S 9S",
                "{three} JH QH KH AH KC AC 2D TS JS QS KS AS"]
FIVE_TRICKS = ["AD", "4H", "2D", "2C", "KD", "5H", "TS", "3C", "QD", "6H", "JS", "4C",
               "JD", "7H", "KC", "5C", "TD", "9H", "AC", "6C"]


def _after(hands: list[str], plays: list[str], rules: Rules = HOLD) -> GameState:
    state = new_hand(rules, [CardSet.parse(h) for h in hands])
    for card in plays:
        state = state.apply(Play(state.to_act[0], Card(card)))
    return state


def _names(state: GameState) -> list[str]:
    return [str(c) for c in distinct_cards(view(state, state.to_act[0]))]


def _hearts_apart(eight: int, plays: list[str]) -> GameState:
    """Five diamond tricks (4-7♥ and 9♥ shown), then ``plays``, with seat 0 to play."""
    one, three = ("8H", "2H") if eight == 1 else ("2H", "8H")
    hands = [h.format(one=one, three=three) for h in HEARTS_APART]
    state = _after(hands, [*FIVE_TRICKS, *plays])
    assert state.to_act == (0,)
    return state


def test_the_card_winning_the_trick_keeps_two_cards_apart() -> None:
    """Seat 1 leads 8♥ and it is winning: 3♥ loses to it and 10♥ beats it."""
    state = _hearts_apart(1, ["8H", "2S", "2H"])
    assert view(state, 0).winning == (1, Card("8H"))
    assert _names(state) == ["3H", "TH"]


def test_a_card_of_the_trick_that_is_beaten_does_not() -> None:
    """The same 8♥ under seat 3's Q♥: 3♥ and 10♥ both lose the trick, and after it the
    one kept plays as the other would have."""
    state = _hearts_apart(1, ["8H", "2S", "QH"])
    assert view(state, 0).winning == (3, Card("QH"))
    assert _names(state) == ["3H"]


def test_a_discard_ignores_the_trick_in_progress() -> None:
    """Diamonds led and seat 3 threw the 8♥: seat 0, void too, cannot win with a heart,
    so 3♥ and 10♥ are alike (and its clubs are one run)."""
    state = _hearts_apart(3, ["9D", "2S", "8H"])
    assert _names(state) == ["7C", "3H"]


PASSING = Rules.parse("card-commons:first_lead=dealer-left")
PASS_HANDS = ["5C 6C 7C 2D 3D 4D 2S 3S 4S 2H 3H 4H AD",
              "8C 9C TC JC QC KC AC 5D 6D 7D 8D 9D TD",
              "2C 3C 4C JD QD KD 5S 6S 7S 8S 9S TS JS",
              "QS KS AS 5H 6H 7H 8H 9H TH JH QH KH AH"]
PASSES = ["6C 2D 3D", "5D 6D 7D", "JD QD KD", "5H 6H 7H"]


def _passed(plays: list[str]) -> GameState:
    """Seat 0 passes 6♣ to seat 1 (round one passes left); then ``plays``."""
    state = new_hand(PASSING, [CardSet.parse(h) for h in PASS_HANDS])
    for seat, cards in enumerate(PASSES):
        state = state.apply(PassCards(seat, CardSet.parse(cards)))
    for card in plays:
        state = state.apply(Play(state.to_act[0], Card(card)))
    assert state.to_act == (0,)
    return state


def test_a_card_i_passed_keeps_two_cards_apart() -> None:
    """The 6♣ is not unseen to seat 0 (it knows seat 1 holds it), yet it lies between
    5♣ and 7♣: a later club trick can tell them apart."""
    state = _passed(["8C", "2C", "JD"])
    assert Card("6C") not in view(state, 0).unseen()
    assert _names(state) == ["5C", "7C"]


def test_a_card_i_passed_and_see_winning_keeps_them_apart() -> None:
    """Seat 1 leads the 6♣ it was passed and nobody beats it yet."""
    state = _passed(["6C", "2C", "JD"])
    assert _names(state) == ["5C", "7C"]


def test_shown_cards_do_not_keep_two_cards_apart() -> None:
    """6♣ was played in an earlier trick: 5♣ and 7♣ are alike."""
    hands = ["5C 7C 2D 3D 4D 2S 3S 4S 2H 3H 4H AD KC",
             "6C 8C 9C TC JC QC AC 5D 6D 7D 8D 9D TD",
             "2C 3C 4C JD QD KD 5S 6S 7S 8S 9S TS JS",
             "QS KS AS 5H 6H 7H 8H 9H TH JH QH KH AH"]
    state = _after(hands, ["6C", "2C", "QS", "KC"])
    assert state.to_act == (0,)
    names = _names(state)
    assert "5C" in names and "7C" not in names


def _swapped_continuations_agree(state: GameState, kept: Card, merged: Card,
                                 rng: random.Random) -> None:
    """Play ``kept`` in one copy and ``merged`` in the other, then the same random cards
    (the two swapped for the seat that holds them): every trick goes to the same seat and
    the round ends with the same points."""
    me = state.to_act[0]
    one = state.apply(Play(me, kept))
    other = state.apply(Play(me, merged))
    swap = {kept: merged, merged: kept}
    round_no = state.round_no
    while one.phase is Phase.PLAY and one.round_no == round_no:
        seat = one.to_act[0]
        card = rng.choice(list(one.legal_cards(seat)))
        one = one.apply(Play(seat, card))
        other = other.apply(Play(seat, swap.get(card, card) if seat == me else card))
        assert [t.winner for t in one.tricks] == [t.winner for t in other.tricks]
    assert one.phase is other.phase
    assert [one.round_points(s) for s in range(one.players)] == [
        other.round_points(s) for s in range(other.players)]
    assert one.totals == other.totals


@settings(max_examples=120, deadline=None)
@given(st.sampled_from([*ALL_TABLES, "standard:jack_of_diamonds=on"]),
       st.integers(0, 2**32 - 1), st.integers(0, 51))
def test_merged_cards_play_alike_whatever_follows(text: str, seed: int, plays: int) -> None:
    """For every card the search does not simulate, its stand-in gives the same tricks
    and points as it would, whatever everyone plays afterwards (all cards known here:
    the claim must hold in every world the search could sample)."""
    state = random_position(Rules.parse(text), seed, plays)
    if state.phase is not Phase.PLAY:
        return
    seat = state.to_act[0]
    kept_cards = distinct_cards(view(state, seat))
    rng = random.Random(seed)
    stand_in = kept_cards[0]
    for card in state.legal_cards(seat):
        if card in kept_cards:
            stand_in = card
            continue
        for _ in range(3):
            _swapped_continuations_agree(state, stand_in, card, rng)
