"""Every entry of the core checks what it is given: a wrong seat, round, total or seed is an
IllegalActionError in words, in the compiled engine as in pure Python (CI runs this file
in both), never a bare TypeError or another seat's cards by Python's negative index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from hearts.core import (
    Card,
    CardSet,
    GameState,
    IllegalActionError,
    InvalidCardError,
    JsonTextError,
    Play,
    Rules,
    as_whole_number,
    echoed,
    is_whole_number,
    new_game,
    new_hand,
    parse_card,
    read_json,
    shown_name,
    view,
    views,
)

NOT_SEATS: list[Any] = ["1", True, False, -1, 4, 1.0, [0]]

SEAT_ACCESSORS: dict[str, Callable[[GameState, Any], object]] = {
    "hand": GameState.hand,
    "dealt": GameState.dealt,
    "chosen_pass": GameState.chosen_pass,
    "received": GameState.received,
    "has_chosen": GameState.has_chosen,
    "taken": GameState.taken,
    "round_points": GameState.round_points,
    "legal_cards": GameState.legal_cards,
    "legal_actions": GameState.legal_actions,
    "view": view,
    "views": lambda state, seat: views(state, [0, seat]),
}


@pytest.mark.parametrize("bad", NOT_SEATS, ids=repr)
@pytest.mark.parametrize("name", SEAT_ACCESSORS)
def test_a_seat_that_is_not_at_the_table_is_refused_by_every_accessor(
        name: str, bad: Any) -> None:
    state = new_game(Rules(), seed=7)
    before = state.hand(3)
    with pytest.raises(IllegalActionError, match="seats are 0 to 3"):
        SEAT_ACCESSORS[name](state, bad)
    assert state.hand(3) == before


def test_the_accessors_answer_for_every_real_seat() -> None:
    state = new_game(Rules(), seed=7)
    for seat in range(4):
        assert len(state.hand(seat)) == 13 and state.hand(seat) == state.dealt(seat)
        assert view(state, seat).seat == seat and view(state, seat).hand == state.hand(seat)
        assert not state.has_chosen(seat) and state.round_points(seat) == 0
    assert view(state, None).hand.mask == 0


def _hands() -> list[Any]:
    dealt = new_game(Rules(), seed=7)
    return [dealt.hand(seat) for seat in range(4)]


@pytest.mark.parametrize(("options", "words"), [
    ({"round_no": "2"}, "rounds are numbered from 1, not '2'"),
    ({"round_no": True}, "rounds are numbered from 1, not True"),
    ({"round_no": 0}, "rounds are numbered from 1, not 0"),
    ({"round_no": 2.0}, "rounds are numbered from 1, not 2.0"),
    ({"totals": 5}, "totals need one whole-number score a seat"),
    ({"totals": [0, 0, 0]}, "totals need one whole-number score a seat"),
    ({"totals": [0, 0, 0, 1.5]}, "totals need one whole-number score a seat"),
    ({"totals": [0, 0, True, 0]}, "totals need one whole-number score a seat"),
    ({"deal_seed": 5}, "a deal seed is text or None, not 5"),
])
def test_new_hand_refuses_a_wrong_argument_in_words(options: dict[str, Any],
                                                    words: str) -> None:
    with pytest.raises(IllegalActionError, match=words.replace("(", r"\(")):
        new_hand(Rules(), _hands(), **options)


@pytest.mark.parametrize(("arguments", "words"), [
    ({"rules": "standard"}, "rules must be a Rules object, not 'standard'"),
    ({"seed": [1]}, r"a game seed is a whole number or text, not \[1\]"),
    ({"seed": 1.5}, "a game seed is a whole number or text, not 1.5"),
    ({"seed": True}, "a game seed is a whole number or text, not True"),
])
def test_new_game_refuses_a_wrong_argument_in_words(arguments: dict[str, Any],
                                                    words: str) -> None:
    with pytest.raises(IllegalActionError, match=words):
        new_game(**arguments)


def test_a_play_of_true_is_not_a_play_of_card_one() -> None:
    state = new_game(Rules(), seed=7)
    while state.phase.value != "play":
        state = state.apply(state.legal_actions()[0])
    seat = state.turn
    with pytest.raises(IllegalActionError, match="not a card: True"):
        state.apply(Play(seat, True))  # type: ignore[arg-type]
    assert state.apply(Play(seat, parse_card("2C"))).trick == ((seat, parse_card("2C")),)


@pytest.mark.parametrize(("value", "low", "high", "whole"), [
    (3, None, None, True), (-3, None, None, True), (0, 0, 0, True), (2**70, 1, None, True),
    (True, None, None, False), (False, 0, 1, False), (3.0, None, None, False),
    ("3", None, None, False), (None, None, None, False), (5, 0, 4, False), (-1, 0, None, False),
])
def test_is_whole_number(value: object, low: int | None, high: int | None,
                         whole: bool) -> None:
    assert is_whole_number(value, low, high) is whole


@pytest.mark.parametrize(("value", "number"), [
    (3, 3), (-3, -3), (np.int64(5), 5), (np.uint64(2**63), 2**63), (np.array(7), 7),
    (True, None), (np.True_, None), (np.array(True), None), (3.0, None), (np.float64(3), None),
    (np.array(3.0), None), (np.array([3]), None), ("3", None), (None, None)], ids=repr)
def test_as_whole_number(value: object, number: int | None) -> None:
    found = as_whole_number(value)
    assert found == number and (found is None or type(found) is int)


@pytest.mark.parametrize("bad", [True, False, 2.7, None, np.float64(3), np.array([5])],
                         ids=repr)
def test_a_card_is_a_name_or_a_number_never_a_bool_or_a_float(bad: Any) -> None:
    with pytest.raises(InvalidCardError, match="a card is a card name or a number from 0"):
        Card(bad)


@pytest.mark.parametrize("bad", ["ZZ", -1, 52], ids=repr)
def test_a_card_name_or_number_that_is_no_card_is_refused(bad: Any) -> None:
    with pytest.raises(InvalidCardError):
        Card(bad)


def test_a_card_set_takes_no_bool_and_holds_no_bool() -> None:
    assert Card(np.int64(5)) == Card("7C") and Card(51) == Card("AH")
    with pytest.raises(InvalidCardError, match="a card mask is a whole number, not True"):
        CardSet(True)
    for bad in (2.5, None):
        with pytest.raises(InvalidCardError, match="cards are a mask or an iterable of cards"):
            CardSet(bad)  # type: ignore[arg-type]
    low = CardSet.parse("2C 3C")
    with pytest.raises(InvalidCardError, match="3C is named twice in '2C 3C 3c'"):
        CardSet.parse("2C 3C 3c")
    with pytest.raises(InvalidCardError, match="cards are text like 'QS 2C', not 5"):
        CardSet.parse(5)  # type: ignore[arg-type]
    assert 1 in low and "3C" in low and True not in low
    # a NumPy integer is the card it numbers, as an observation's index is
    assert np.int64(1) in low and CardSet(np.int64(3)) == low
    # an array of card numbers is cards, as np.flatnonzero of a mask gives them
    assert CardSet(np.array([0, 1])) == low and np.array([5]) not in low


@pytest.mark.parametrize(("text", "said"), [
    ("{", "not JSON (Expecting property name enclosed in double quotes at line 1, column 2)"),
    ("[NaN]", "NaN is not a JSON number"), ('{"a": -Infinity}', "-Infinity is not a JSON number"),
    ("1" * 5000, "a number has more digits than a reader takes (over 4,300)"),
    ("[" * 100_000, "JSON nested too deeply to read"),
    (b"\xff", "not UTF-8 text (invalid start byte at byte 0)"),
    ("[1e400]", "1e400 is past the largest number a reader takes"),
    # json.loads guesses UTF-16 and UTF-32 from bytes; a reader takes UTF-8 alone
    ('{"a": 1}'.encode("utf-16"), "not UTF-8 text (invalid start byte at byte 0)"),
    (b"\xef\xbb\xbf{}", "not JSON (Unexpected UTF-8 BOM"),
    # a lone surrogate names no character: escaped, as a key, deep, or in the text itself
    ('{"a": "\\ud800"}', "text must be Unicode"), ('{"\\uDFFF": 1}', "text must be Unicode"),
    ('[[{"a": ["x", "\\udbff y"]}]]', "text must be Unicode"),
    ('"\udcff"', "text must be Unicode"),
], ids=lambda value: repr(value)[:20])
def test_read_json_refuses_in_words_what_json_loads_raises_a_mix_for(
        text: str | bytes, said: str) -> None:
    with pytest.raises(JsonTextError) as refused:
        read_json(text)
    assert str(refused.value).startswith(said)


def test_echoed_quotes_what_was_given_cut_to_a_length() -> None:
    assert echoed("ab") == "'ab'" and echoed("9" * 100) == "'" + "9" * 37 + "…'"
    assert echoed(list(range(100)), 20) == "[0, 1, 2, 3, 4, 5, …"
    assert echoed(10**5000) == "a whole number of about 5,000 digits"
    with pytest.raises(InvalidCardError, match="about 5,000 digits"):  # not a ValueError
        CardSet(10**5000)


def test_read_json_reads_json() -> None:
    assert read_json('{"a": [1, 2.5, null, "\u00e9"]}') == {"a": [1, 2.5, None, "é"]}
    assert read_json(b'"\xc3\xa9"') == "é"
    # a surrogate pair is one character, and an escaped backslash before "ud800" no escape
    assert read_json('["\\ud83d\\ude00", "\\\\ud800"]') == ["\U0001f600", "\\ud800"]


@pytest.mark.parametrize(("given", "shown"), [
    ("  Ann  Lee ", "Ann Lee"), ("Bo\u200b\u0000b", "Bob"), ("\u202eevE", "evE"),
    ("Zoë ★", "Zoë ★"), ("42", "42"), ("x" * 30, "x" * 24), ("\u00e9", "é"),
    ("\u0000", None), ("\u200b\ufeff", None), ("\u0301\u0301", None), ("   ", None),
    ("\udcff", None), ("", None)], ids=repr)
def test_shown_name_keeps_what_a_reader_sees(given: str, shown: str | None) -> None:
    assert shown_name(given) == shown
