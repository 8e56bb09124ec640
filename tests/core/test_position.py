"""Positions as text: every round in progress writes and reads back to the same views, the
canonical text is a fixed point, and bad text gets an InvalidPositionError that says why."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    POSITION_FIELDS,
    CardSet,
    ChooseMoon,
    GameState,
    HeartsError,
    InvalidPositionError,
    MoonChoice,
    Phase,
    Play,
    PlayerView,
    Rules,
    new_game,
    new_hand,
    read_position,
    view,
    write_position,
)

TABLES = [
    "card-commons:players=3",
    "card-commons",
    "standard",
    *(f"classic:players={n}" for n in range(2, 7)),
    "standard:moon=shooter-choice,jack_of_diamonds=on",
    "card-commons:first_lead=dealer-left,pass_count=1",
]
DOCS = Path(__file__).parents[2] / "docs" / "positions.md"


def _comparable(seen: PlayerView) -> PlayerView:
    """A view less what a position does not carry: the score sheet of earlier rounds
    (a position carries the totals), and, while passing, the leader, which until play
    begins still names the last round's last winner."""
    leader = 0 if seen.phase is Phase.PASS else seen.leader
    return dataclasses.replace(seen, results=(), leader=leader)


def _assert_same_views(state: GameState, other: GameState) -> None:
    for seat in [None, *range(state.players)]:
        assert _comparable(view(other, seat)) == _comparable(view(state, seat)), seat


def _random_point(text: str, seed: int, steps: int) -> GameState:
    """A seeded game moved on by up to ``steps`` random legal actions, stopped in a round
    in progress (passing or playing)."""
    rules = Rules.parse(text).replace(target=60)
    rng = random.Random(seed)
    state = new_game(rules, seed)
    kept = state
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        state = state.apply(rng.choice(actions))
        if state.phase in (Phase.PASS, Phase.PLAY, Phase.MOON):
            kept = state
    return kept


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.integers(0, 160))
def test_positions_round_trip(text: str, seed: int, steps: int) -> None:
    """Before the pass, mid-pass, mid-trick and between tricks, in every preset and player
    count: reading the written position gives the same view to every seat, and writing
    it again gives the same text."""
    state = _random_point(text, seed, steps)
    written = write_position(state)
    again = read_position(written)
    _assert_same_views(state, again)
    assert write_position(again) == written
    assert len(written.split()) == len(POSITION_FIELDS)


def _moon_pending() -> GameState:
    """Classic (shooter's choice): seat 3 holds every club, leads 2♣ and takes every trick."""
    hands = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"]
    state = new_hand(Rules.parse("classic"), [CardSet.parse(h) for h in hands], round_no=4,
                     totals=[10, 20, 30, 40])
    while state.phase is Phase.PLAY:
        seat = state.to_act[0]
        state = state.apply(Play(seat, min(state.legal_cards(seat))))
    return state


def test_a_pending_moon_choice_round_trips() -> None:
    """All tricks played and the shooter still to choose: empty hands, 13 tricks, and the
    shooter's turn."""
    state = _moon_pending()
    assert state.phase is Phase.MOON
    written = write_position(state)
    assert written.split()[3] == "-/-/-/-" and written.split()[-1] == "3"
    again = read_position(written)
    assert again.phase is Phase.MOON and again.shooter == 3
    _assert_same_views(state, again)


def test_a_finished_round_has_no_position() -> None:
    """Before the first deal and between rounds there is no round in progress to write."""
    chosen = _moon_pending().apply(ChooseMoon(3, MoonChoice.SUBTRACT))
    for state in (new_game(Rules.parse("classic")), chosen):
        assert state.phase is Phase.DEAL
        with pytest.raises(InvalidPositionError, match="round in progress"):
            write_position(state)


def test_readers_accept_the_other_card_forms() -> None:
    """``10H``, lower case and commas read as the canonical two-letter cards."""
    state = new_hand(Rules.parse("standard"), [CardSet(list(range(s, 52, 4))) for s in range(4)],
                     round_no=4)
    written = write_position(state)
    loose = written.replace("TC", "10c").replace("QS", "q♠").replace("2C", "2C,")
    assert read_position(loose).hand(0) == state.hand(0)


def _documented_positions() -> list[str]:
    """Every position written in docs/positions.md (lines of a code block that start
    with a preset name)."""
    blocks = re.findall(r"```text\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    return [line for block in blocks for line in block.splitlines()
            if line.split(":")[0].split(" ")[0] in ("card-commons", "standard", "classic")]


def test_the_documented_examples_read_and_are_canonical() -> None:
    examples = _documented_positions()
    assert len(examples) >= 3
    for text in examples:
        assert write_position(read_position(text)) == text


GOOD = ("standard 4 0,0,0,0 3HTH/AH/8S/JS hold 2:2C3C4CAC/1:KC5C6C7C/1:QC8C9CTC/"
        "1:AD2D3D4D/1:KD5D6D7D/1:QD8D9DTD/1:AS2S3SKS/1:QS4S5S6S/1:JH6H7H2H/1:QH9HJC4H/"
        "1:KHJD9S5H/1:8H7STS 0")


def test_the_good_example_reads() -> None:
    """The base of the error cases below is itself a legal position."""
    state = read_position(GOOD)
    assert state.to_act == (0,) and state.trick_no == 11
    assert write_position(state) == GOOD


@pytest.mark.parametrize(("text", "says"), [
    ("standard 4 0,0,0,0", "7 fields"),
    (GOOD.replace("standard", "nonsense"), "rules: unknown preset"),
    (GOOD.replace(" 4 ", " four "), "round: 'four' is not a whole number"),
    (GOOD.replace(" 4 ", " 0 "), "round: 0 is out of range"),
    (GOOD.replace("0,0,0,0", "0,0,0"), "totals: 3 given, but 4 seats"),
    (GOOD.replace("0,0,0,0", "0,0,0,100"), "already ends the game"),
    (GOOD.replace("3HTH/", "3HTH3H/"), "3H is written twice"),
    (GOOD.replace("3HTH/", "3HZZ/"), "hand of seat 0: not a card: 'ZZ'"),
    (GOOD.replace("3HTH/", "3H/"), "missing TH"),
    (GOOD.replace(" hold ", " 2C3C4C/?/?/? "), "round 4 passes no cards"),
    (GOOD.replace(" 4 0,0", " 1 0,0"), "passes 3 cards a seat"),
    (GOOD.replace("1:QS4S5S6S", "2:QS4S5S6S"), "trick 8: led by seat 2, but seat 1 leads it"),
    (GOOD.replace("1:QS4S5S6S", "QS4S5S6S"), "needs its leader first"),
    (GOOD.replace("1:KC5C6C7C", "1:KC5C6C"), "trick 2: 3 cards"),
    # seat 0 discards a diamond on the club lead while holding clubs
    (GOOD.replace("2:2C3C4CAC", "2:2C3C4DAC").replace("1:AD2D3D4D", "1:AD2D3D4C"),
     "trick 1: round 4, trick 1, seat 0: 4D cannot be played"),
    (GOOD[:-1] + "3", "turn: the position says '3' acts next"),
])
def test_bad_positions_say_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(says)):
        read_position(text)


def test_passes_must_fit_the_hands() -> None:
    """Mid-pass, a pass of cards the seat does not hold is refused by the engine."""
    state = new_game(Rules.parse("card-commons"), 7)
    written = write_position(state)
    fields = written.split()
    held = CardSet.parse(" ".join(re.findall("..", fields[3].split("/")[1])))
    foreign = next(c for c in range(52) if c not in held)
    fields[4] = f"?/{CardSet([foreign])}{''.join(str(c) for c in list(held)[:2])}/?/?"
    with pytest.raises(InvalidPositionError, match="not in seat 1's hand"):
        read_position(" ".join(fields))


_ALPHABET = "0123456789TJQKACDSH?-/:,+ hold"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.integers(0, 120),
       st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["drop", "put", "swap"]),
                          st.sampled_from(_ALPHABET)), min_size=1, max_size=4))
def test_mangled_positions_fail_only_with_the_typed_error(
        text: str, seed: int, steps: int, edits: list[tuple[int, str, str]]) -> None:
    """Random edits of real positions either read (to a position that writes back
    canonically) or raise InvalidPositionError; nothing else escapes."""
    written = list(write_position(_random_point(text, seed, steps)))
    for where, how, char in edits:
        at = where % max(1, len(written))
        if how == "drop" and written:
            del written[at]
        elif how == "put":
            written.insert(at, char)
        elif written:
            other = (at * 7 + 3) % len(written)
            written[at], written[other] = written[other], written[at]
    try:
        state = read_position("".join(written))
    except InvalidPositionError as exc:
        assert isinstance(exc, HeartsError) and str(exc)
        return
    read_position(write_position(state))


@given(st.text(max_size=200))
def test_any_text_fails_only_with_the_typed_error(text: str) -> None:
    with contextlib.suppress(InvalidPositionError):
        read_position(text)


def test_not_text_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="a position is text"):
        read_position(42)  # type: ignore[arg-type]
