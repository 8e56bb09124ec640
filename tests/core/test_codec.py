"""The one JSON form of cards and actions: every action survives JSON, every malformed
input is a CodecError naming the field, and the bytes are those every format always used."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    ACTION_KINDS,
    ALL_CARDS,
    Card,
    CardSet,
    ChooseMoon,
    CodecError,
    Deal,
    MoonChoice,
    PassCards,
    Play,
    decode_action,
    decode_card,
    decode_cards,
    decode_moon_choice,
    encode_action,
    encode_card,
    encode_cards,
    encode_moon_choice,
)

CARDS = st.sampled_from(list(CardSet(ALL_CARDS)))
SEATS = st.integers(0, 5)
ACTIONS = st.one_of(
    st.builds(Play, SEATS, CARDS),
    st.builds(PassCards, SEATS, st.frozensets(CARDS, max_size=4).map(CardSet)),
    st.builds(ChooseMoon, SEATS, st.sampled_from(list(MoonChoice))),
)


@given(ACTIONS)
def test_every_action_survives_json(action: PassCards | Play | ChooseMoon) -> None:
    kind, fields = encode_action(action)
    assert kind in ACTION_KINDS
    wire = json.loads(json.dumps({"t": kind, "seat": action.seat, **fields}))
    assert decode_action(wire["t"], wire["seat"], wire) == action


def test_every_card_and_card_set_survives_json() -> None:
    for card in CardSet(ALL_CARDS):
        assert decode_card(json.loads(json.dumps(encode_card(card)))) == card
    deck = CardSet(ALL_CARDS)
    assert decode_cards(encode_cards(deck)) == deck
    for choice in MoonChoice:
        assert decode_moon_choice(encode_moon_choice(choice)) is choice


def test_every_written_card_name_reads() -> None:
    assert decode_card("10H") == decode_card("TH") == decode_card("th") == Card("TH")
    assert decode_card("Q♠") == Card("QS")
    assert decode_cards(["QS", "2C"]) == CardSet.parse("2C QS")


def test_the_bytes_are_the_formats_of_records_events_and_protocols() -> None:
    """Stored tables, records and bots written before the codec still read the same."""
    def event(action: PassCards | Play | ChooseMoon) -> str:
        kind, fields = encode_action(action)
        return json.dumps({"t": kind, "seat": action.seat, **fields}, separators=(",", ":"))

    assert event(Play(1, Card("TH"))) == '{"t":"play","seat":1,"card":"TH"}'
    assert event(PassCards(0, CardSet.parse("AH QS 2C"))) == \
        '{"t":"pass","seat":0,"cards":["2C","QS","AH"]}'
    assert event(ChooseMoon(3, MoonChoice.ADD)) == '{"t":"moon","seat":3,"choice":"add"}'


MALFORMED: list[tuple[str, Any, Any, str]] = [
    # kind, seat, fields, the field the error names
    ("play", 0, {}, "card"),
    ("play", 0, {"card": 5}, "card"),
    ("play", 0, {"card": "ZZ"}, "card"),
    ("play", 0, {"card": ["QS"]}, "card"),
    ("pass", 0, {"cards": "2C 3C 4C"}, "cards"),
    ("pass", 0, {"cards": [1, 2, 3]}, "cards"),
    ("pass", 0, {"cards": ["2C", "XX"]}, "cards"),
    ("pass", 0, {"cards": ["2C", "2C", "3C"]}, "cards"),
    ("pass", 0, {"cards": None}, "cards"),
    ("moon", 0, {"choice": "both"}, "choice"),
    ("moon", 0, {"choice": "SUBTRACT"}, "choice"),
    ("moon", 0, {"choice": 1}, "choice"),
    ("moon", 0, {}, "choice"),
    ("dance", 0, {"card": "QS"}, "kind"),
    (None, 0, {"card": "QS"}, "kind"),
    ("play", "1", {"card": "QS"}, "seat"),
    ("play", True, {"card": "QS"}, "seat"),
    ("play", None, {"card": "QS"}, "seat"),
]


@pytest.mark.parametrize(("kind", "seat", "fields", "field"), MALFORMED)
def test_a_malformed_action_names_the_field_and_changes_nothing(kind: Any, seat: Any,
                                                                fields: dict[str, Any],
                                                                field: str) -> None:
    before = copy.deepcopy(fields)
    with pytest.raises(CodecError) as caught:
        decode_action(kind, seat, fields)
    assert caught.value.field == field
    assert str(caught.value).startswith(field) or field in ("kind", "seat")
    assert fields == before


@pytest.mark.parametrize(("value", "words"), [
    ("2C 3C", "must be a list of card names"),
    (["2C", "2C"], "2C is listed twice"),
    (["2C", "QQ"], "not a card"),
])
def test_bad_card_lists_say_what_is_allowed(value: Any, words: str) -> None:
    with pytest.raises(CodecError, match=words):
        decode_cards(value, "hand")


@pytest.mark.parametrize("value", [["2C"], ["2C", "3C", "4C", "5C"], ["2C", "2C", "3C"]])
def test_a_counted_card_list_needs_exactly_that_many_different_cards(value: list[str]) -> None:
    with pytest.raises(CodecError, match="exactly 3 different cards"):
        decode_cards(value, count=3)
    assert decode_cards(["2C", "3C", "4C"], count=3) == CardSet.parse("2C 3C 4C")


def test_the_moon_error_says_which_choices_exist() -> None:
    with pytest.raises(CodecError, match="choice must be subtract or add, not 'both'"):
        decode_moon_choice("both")


def test_a_deal_has_no_seat_action_form() -> None:
    with pytest.raises(CodecError, match="pass, play, moon"):
        encode_action(Deal((CardSet(),)))
