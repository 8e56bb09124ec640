"""The counts every face prints agree with their number."""

import pytest

from hearts.wording import counted


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
