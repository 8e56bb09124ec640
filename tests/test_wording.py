"""The words every face prints: counts agree with their number, a pass names its way,
and a seat is named by its place from the person's."""

import pytest

from hearts.core import pass_direction_name
from hearts.wording import counted, partner_note, pass_where, passing, seat_names


@pytest.mark.parametrize(("number", "noun", "plural", "text"), [
    (1, "deal set", None, "1 deal set"),
    (2, "deal set", None, "2 deal sets"),
    (0, "game", None, "0 games"),
    (-1, "point", None, "-1 point"),
    (-26, "point", None, "-26 points"),
    (1, "inaccuracy", "inaccuracies", "1 inaccuracy"),
    (3, "inaccuracy", "inaccuracies", "3 inaccuracies"),
])
def test_a_count_takes_the_singular_for_one_and_the_plural_otherwise(
        number: int, noun: str, plural: str | None, text: str) -> None:
    assert counted(number, noun, plural) == text


@pytest.mark.parametrize(("direction", "where", "words"), [
    ("left", "to the left", "pass 3 cards to the left"),
    ("right", "to the right", "pass 3 cards to the right"),
    ("across", "across", "pass 3 cards across"),
    ("2 to the left", "2 to the left", "pass 3 cards 2 to the left"),
])
def test_a_pass_goes_where_its_direction_says(direction: str, where: str, words: str) -> None:
    assert pass_where(direction) == where
    assert passing(3, direction) == words


@pytest.mark.parametrize(("players", "human_seat", "names"), [
    (2, 0, ("You", "Across")),
    (3, 0, ("You", "Left", "Right")),
    (4, 0, ("You", "Left", "Across", "Right")),
    (4, 2, ("Across", "Right", "You", "Left")),
    (5, 0, ("You", "Left", "Left 2", "Right 2", "Right")),
    (6, 0, ("You", "Left", "Left 2", "Across", "Right 2", "Right")),
])
def test_seats_are_named_by_place_from_the_persons(players: int, human_seat: int,
                                                   names: tuple[str, ...]) -> None:
    assert seat_names(players, human_seat) == names


@pytest.mark.parametrize("players", range(3, 7))  # at two, a pass "left" goes "Across"
def test_a_seats_name_says_the_pass_direction_to_it(players: int) -> None:
    """The text game names a pass by its direction alone: the partner's name says no more."""
    names = seat_names(players, 0)
    for offset in range(1, players):
        direction = pass_direction_name(offset, players)  # "left", "2 to the left", "across"
        place, *count = reversed(direction.split(" to the "))
        assert names[offset] == " ".join([place.capitalize(), *count])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_pass_names_its_seat_only_where_the_direction_does_not(players: int) -> None:
    """At a table of two the pass goes "to the left" to the seat named Across: the prompt
    once said the direction alone, naming nobody the table shows."""
    names = seat_names(players, 0)
    for offset in range(1, players):
        note = partner_note(pass_direction_name(offset, players), names[offset])
        assert note == ("" if players > 2 else ", to Across"), (offset, names[offset])
