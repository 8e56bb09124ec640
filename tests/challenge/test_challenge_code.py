"""A challenge's code: it round-trips, it is short and URL-safe, and a typo is an error
(never another challenge); bad specifications say what is allowed."""

from __future__ import annotations

import re
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.challenge import (
    CODE_ALPHABET,
    CODE_VERSION,
    MAX_DEALS,
    MAX_ITERATIONS,
    MAX_SEED_LENGTH,
    OPPONENT_LEVELS,
    Challenge,
    ChallengeError,
)
from hearts.core import PLAYER_COUNTS, PRESETS, Rules
from hearts.players import LEVELS


@st.composite
def challenges(draw: st.DrawFn) -> Challenge:
    preset = draw(st.sampled_from(list(PRESETS)))
    players = draw(st.sampled_from(list(PLAYER_COUNTS[preset])))
    opponents = draw(st.lists(st.sampled_from(list(OPPONENT_LEVELS)), min_size=players - 1,
                              max_size=players - 1))
    seed = draw(st.text(CODE_ALPHABET, min_size=1, max_size=MAX_SEED_LENGTH))
    return Challenge.create(preset, opponents, draw(st.integers(1, MAX_DEALS)), seed,
                            draw(st.integers(1, MAX_ITERATIONS)))


@given(challenges())
def test_a_code_names_its_challenge_and_is_short_and_url_safe(challenge: Challenge) -> None:
    code = challenge.code
    assert Challenge.parse(code) == challenge
    assert Challenge.parse(f"  {code.upper()} ") == challenge  # read back as people type it
    assert len(code) <= 30 and set(code) <= set(CODE_ALPHABET)
    assert urllib.parse.quote(code, safe="") == code


@given(challenges(), st.data())
def test_any_one_mistyped_character_is_an_error(challenge: Challenge, data: st.DataObject) -> None:
    code = challenge.code
    where = data.draw(st.integers(0, len(code) - 1))
    typo = data.draw(st.sampled_from(CODE_ALPHABET).filter(lambda c: c != code[where]))
    with pytest.raises(ChallengeError, match="mistyped or two are swapped"):
        Challenge.parse(code[:where] + typo + code[where + 1:])


@given(challenges(), st.data())
def test_any_two_swapped_neighbours_are_an_error(challenge: Challenge, data: st.DataObject) -> None:
    code = challenge.code
    where = data.draw(st.integers(0, len(code) - 2))
    swapped = code[:where] + code[where + 1] + code[where] + code[where + 2:]
    if swapped == code:
        return  # the same two characters: no typo at all
    with pytest.raises(ChallengeError, match="mistyped or two are swapped"):
        Challenge.parse(swapped)


@given(challenges(), st.integers(1, 3))
def test_a_code_cut_short_or_run_on_is_an_error(challenge: Challenge, cut: int) -> None:
    with pytest.raises(ChallengeError):
        Challenge.parse(challenge.code[:-cut])
    with pytest.raises(ChallengeError):
        Challenge.parse(challenge.code + challenge.code[-cut:])


@given(st.text(CODE_ALPHABET + "-iO!", min_size=8, max_size=32))
def test_any_text_is_a_challenge_it_names_or_a_challenge_error(text: str) -> None:
    try:
        challenge = Challenge.parse(text)
    except ChallengeError:
        return
    assert challenge.code == text.lower()


def _checked(body: str) -> str:
    """``body`` with the one last character that passes the check."""
    for check in CODE_ALPHABET:
        try:
            Challenge.parse(body + check)
        except ChallengeError as exc:
            if "does not check out" in str(exc):
                continue
        return body + check
    raise AssertionError("no check character fits")


@given(challenges(), st.data())
def test_a_mangled_code_that_checks_out_is_refused_or_names_what_it_says(
        challenge: Challenge, data: st.DataObject) -> None:
    """Past the check character, every field is still checked (``_checked`` makes any body
    pass the check)."""
    body = challenge.code[:-1]
    start = data.draw(st.integers(0, len(body)))
    end = data.draw(st.integers(start, len(body)))
    middle = data.draw(st.text(CODE_ALPHABET, max_size=4))
    mangled = _checked(body[:start] + middle + body[end:])
    try:
        named = Challenge.parse(mangled)
    except ChallengeError:
        return
    assert named.code == mangled


def test_a_newer_revision_is_said_to_be_one() -> None:
    code = Challenge.create("standard", ["easy"] * 3, 2, "abc").code
    newer = CODE_ALPHABET[CODE_ALPHABET.index(CODE_VERSION) + 1]
    with pytest.raises(ChallengeError, match=f"is of revision '{newer}', made by a newer "
                       f"program; this one plays revision {CODE_VERSION}"):
        Challenge.parse(_checked(newer + code[1:-1]))


@pytest.mark.parametrize(("code", "says"), [
    ("", "a challenge code is 11 to 30 characters"),
    ("1c4nnn01" + "6e" + "a" * 30, "a challenge code is 11 to 30 characters"),
    ("1c4nnn016e3-abc", "'-' is not in a code"),
    ("1c4nnn016e3oil", "'i', 'l', 'o' is not in a code"),
])
def test_malformed_codes_say_what_is_wrong(code: str, says: str) -> None:
    with pytest.raises(ChallengeError, match=re.escape(says)):
        Challenge.parse(code)


def test_a_code_that_checks_out_but_names_nothing_is_refused() -> None:
    with pytest.raises(ChallengeError, match="names no preset"):
        Challenge.parse(_checked("1z4nnn016e3abc"))
    with pytest.raises(ChallengeError, match="unknown opponent level"):
        Challenge.parse(_checked("1c4nqn016e3abc"))
    with pytest.raises(ChallengeError, match="standard is played by 4 players"):
        Challenge.parse(_checked("1s3nn016e3abc"))
    with pytest.raises(ChallengeError, match="deals must be a whole number from 1 to 20"):
        Challenge.parse(_checked("1c4nnn006e3abc"))


@pytest.mark.parametrize(("args", "says"), [
    (("chess", ["easy"] * 3, 2, "abc"), "unknown preset 'chess'; presets are: card-commons"),
    (("standard", ["easy"] * 2, 2, "abc"), "standard is played by 4 players: give 3 opponents"),
    (("classic", ["easy"] * 6, 2, "abc"), "give 1 to 5 opponents, not 6"),
    (("standard", ["easy", "easy", "policy:x.npz"], 2, "abc"),
     "a challenge opponent is one of random, easy, normal, hard, expert, shooter"),
    (("standard", ["easy"] * 3, 0, "abc"), f"deals must be a whole number from 1 to {MAX_DEALS}"),
    (("standard", ["easy"] * 3, MAX_DEALS + 1, "abc"), "from 1 to 20, not 21"),
    (("standard", ["easy"] * 3, 2, ""), "a challenge seed is 1 to 16 characters"),
    (("standard", ["easy"] * 3, 2, "x" * 17), "a challenge seed is 1 to 16 characters"),
    (("standard", ["easy"] * 3, 2, "hello!"), "seed 'hello!': '!', 'l', 'o' cannot be in a code"),
    (("standard", ["easy"] * 3, 2, "abc", 0), "iterations must be a whole number from 1 to 500"),
    (("standard", ["easy"] * 3, 2, "abc", MAX_ITERATIONS + 1), "not 501"),
    (("standard", "easy", 2, "abc"), "opponents are a list of levels"),
])
def test_bad_specifications_say_what_is_allowed(args: tuple[object, ...], says: str) -> None:
    with pytest.raises(ChallengeError, match=re.escape(says)):
        Challenge.create(*args)  # type: ignore[arg-type]


def test_the_opponent_levels_are_ladder_levels_with_letters_of_their_own() -> None:
    assert set(OPPONENT_LEVELS) <= set(LEVELS)
    letters = list(OPPONENT_LEVELS.values())
    assert len(set(letters)) == len(letters) and set(letters) <= set(CODE_ALPHABET)


def test_the_rules_play_every_deal_whatever_the_totals() -> None:
    challenge = Challenge.create("classic", ["easy", "normal"], 5, "Abc")
    assert challenge.seed == "abc"
    rules = challenge.rules
    base = Rules.preset_rules("classic", 3)
    assert rules.rounds == 5 and rules.players == 3
    assert rules.replace(rounds=0, target=base.target) == base
    assert not any(rules.final_round(r) for r in range(1, 5)) and rules.final_round(5)


def test_the_description_is_what_the_code_says() -> None:
    challenge = Challenge.create("card-commons", ["hard", "expert"], 3, "seed9", 40)
    assert challenge.describe() == {
        "code": challenge.code, "preset": "card-commons", "players": 3,
        "opponents": ["hard", "expert"], "deals": 3, "iterations": 40, "seed": "seed9",
        "rules": challenge.rules.text, "revision": CODE_VERSION, "stale": None}
