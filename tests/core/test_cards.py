"""Card numbering and parsing: one documented numbering, every accepted text form."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    ALL_CARDS,
    HEART_MASK,
    HEARTS,
    JACK_MASK,
    POINT_MASK,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    Card,
    CardSet,
    InvalidCardError,
    card_name,
    iter_mask,
    parse_card,
    repeated_card,
)


def test_the_documented_numbering_is_suit_times_13_plus_rank() -> None:
    assert [parse_card(t) for t in ("2C", "AC", "2D", "QS", "AH")] == [0, 12, 13, 36, 51]
    assert QUEEN_OF_SPADES == 36 and QUEEN_OF_SPADES.suit == 2 and QUEEN_OF_SPADES.rank == 10
    assert [Card(n).suit * 13 + Card(n).rank for n in range(52)] == list(range(52))


@pytest.mark.parametrize("text", ["QS", "Q♠", "q♠", "qs", " QS ", "Q♤"])
def test_the_queen_of_spades_parses_in_every_form(text: str) -> None:
    assert parse_card(text) == 36


@pytest.mark.parametrize("text", ["10H", "TH", "10♥", "t♥", "th"])
def test_the_ten_parses_as_10_or_t(text: str) -> None:
    assert parse_card(text) == parse_card("TH") == 3 * 13 + 8


@pytest.mark.parametrize(
    "text", ["", "Q", "S", "1S", "11H", "QX", "QSS", "♠Q", "Q S", "0H", "JOKER", "10", "AA"]
)
def test_anything_else_is_refused_with_the_forms_that_are_allowed(text: str) -> None:
    with pytest.raises(InvalidCardError, match=r"not a card: .*e\.g\. 'QS', '10H', 'TH'"):
        parse_card(text)


@pytest.mark.parametrize("value", [None, 36.0, b"QS", ["QS"]])
def test_a_card_must_be_text(value: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_numbers_run_from_0_to_51(number: int) -> None:
    with pytest.raises(InvalidCardError, match="0 to 51"):
        Card(number)


@given(st.integers(0, 51))
def test_every_face_of_a_card_parses_back_to_it(number: int) -> None:
    card = Card(number)
    assert Card(str(card)) == card == Card(card.pretty) == Card(card.pretty.lower())
    assert eval(repr(card)) == card
    assert card_name(card) == str(card)
    assert card.spoken.split()[-1] in ("clubs", "diamonds", "spades", "hearts")


def test_cards_are_spoken_in_words_as_the_web_client_says_them() -> None:
    assert Card("5C").spoken == "five of clubs"
    assert Card("10H").spoken == "ten of hearts"
    assert Card("QS").spoken == "queen of spades"


@given(st.text(max_size=5))
def test_parsing_any_text_gives_a_card_or_a_typed_error(text: str) -> None:
    try:
        card = parse_card(text)
    except InvalidCardError:
        return
    assert 0 <= card < 52
    assert parse_card(card_name(card)) == card


@given(st.integers(0, (1 << 52) - 1))
def test_a_card_set_round_trips_through_its_mask_names_and_repr(mask: int) -> None:
    cards = CardSet(mask)
    assert CardSet.parse(str(cards)) == cards == CardSet(cards.names())
    assert eval(repr(cards)) == cards
    assert list(cards) == sorted(cards) == list(iter_mask(mask))
    assert len(cards) == mask.bit_count()


def test_card_set_refuses_bad_members() -> None:
    with pytest.raises(InvalidCardError):
        CardSet.parse("QS ZZ")
    with pytest.raises(InvalidCardError, match="52 bits"):
        CardSet(1 << 52)


def test_the_point_masks_are_the_cards_they_name() -> None:
    assert CardSet(HEART_MASK) == CardSet(card for card in ALL_CARDS if card.suit == HEARTS)
    assert CardSet(QUEEN_MASK) == CardSet.parse("QS")
    assert CardSet(JACK_MASK) == CardSet.parse("JD")
    assert CardSet(POINT_MASK) == CardSet(HEART_MASK | QUEEN_MASK)


@given(st.lists(st.integers(0, 51), max_size=60))
def test_repeated_card_is_the_first_card_met_a_second_time(cards: list[int]) -> None:
    firsts = [card for i, card in enumerate(cards) if card in cards[:i]]
    assert repeated_card(cards) == (firsts[0] if firsts else None)
    # every reader of a card list refuses the same repeat, naming it
    if firsts:
        with pytest.raises(InvalidCardError, match=f"{card_name(firsts[0])} is named twice"):
            CardSet.parse(" ".join(card_name(c) for c in cards))
    else:
        assert CardSet.parse(" ".join(card_name(c) for c in cards)).mask == CardSet(cards).mask
