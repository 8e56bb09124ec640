"""The protocol's messages: views survive JSON, answers are checked against the view."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    new_game,
    view,
)
from hearts.players import RandomPlayer, decide
from hearts.protocol import ProtocolError, view_from_json
from hearts.protocol.messages import (
    action_message,
    decide_message,
    decode,
    encode,
    hello_message,
    parse_action,
)


def _position(rules_text: str, seed: int, steps: int) -> GameState:
    """A position ``steps`` random decisions into a seeded game."""
    state = new_game(Rules.parse(rules_text), seed)
    players = [RandomPlayer(seed * 10 + s) for s in range(state.players)]
    for _ in range(steps):
        if state.is_over:
            break
        if state.next_deal is not None:  # between rounds: the seeded dealer's step
            state = state.apply(state.next_deal)
            continue
        seat = state.to_act[0]
        state = state.apply(decide(players[seat], view(state, seat)))
    return state


@given(
    rules_text=st.sampled_from(["card-commons", "standard", "classic:players=5",
                                "classic:players=3", "classic:moon=shooter-choice,target=30"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
)
def test_every_view_survives_json(rules_text: str, seed: int, steps: int) -> None:
    state = _position(rules_text, seed, steps)
    for seat in [None, *range(state.players)]:
        original = view(state, seat)
        wire = json.loads(encode(original.to_json()))
        assert view_from_json(wire) == original


def _play_view() -> PlayerView:
    state = _position("standard", 3, 12)  # past the pass, into the play
    assert state.phase is Phase.PLAY
    return view(state, state.to_act[0])


def _pass_view() -> PlayerView:
    state = new_game(Rules.parse("standard"), 5)
    assert state.phase is Phase.PASS
    return view(state, 2)


def test_a_legal_play_answer_becomes_the_play() -> None:
    seat_view = _play_view()
    card = next(iter(seat_view.legal))
    message = decode(encode(action_message(7, Play(seat_view.seat or 0, card))))
    assert parse_action(message, 7, seat_view) == Play(seat_view.seat or 0, card)


def test_a_pass_answer_becomes_the_pass() -> None:
    seat_view = _pass_view()
    cards = CardSet(list(seat_view.hand)[:3])
    assert parse_action({"type": "action", "id": 1, "cards": cards.names()}, 1, seat_view) \
        == PassCards(2, cards)


@pytest.mark.parametrize(("answer", "complaint"), [
    ({"type": "action", "id": 2, "cards": []}, "answers id 2"),
    ({"type": "action", "id": True, "cards": []}, "answers id True"),  # True == 1 in Python
    ({"type": "action", "id": 1.0, "cards": []}, "answers id 1.0"),
    ({"type": "move", "id": 1}, "expected an \"action\""),
    ({"type": "action", "id": 1, "cards": "2C 3C 4C"}, "a list of 3 card names"),
    ({"type": "action", "id": 1, "cards": ["2C"]}, "exactly 3"),
    ({"type": "action", "id": 1, "cards": ["XX", "2C", "3C"]}, "not a card"),
])
def test_bad_pass_answers_say_what_is_wrong(answer: dict[str, object], complaint: str) -> None:
    with pytest.raises(ProtocolError, match=complaint):
        parse_action(answer, 1, _pass_view())


def test_passing_cards_from_outside_the_hand_is_refused() -> None:
    seat_view = _pass_view()
    outside = CardSet((1 << 52) - 1 & ~seat_view.hand.mask)
    own = list(seat_view.hand)[:2]
    answer = {"type": "action", "id": 1, "cards": [str(own[0]), str(own[1]),
                                                   str(next(iter(outside)))]}
    with pytest.raises(ProtocolError, match="not in the hand"):
        parse_action(answer, 1, seat_view)


def test_a_repeated_card_is_not_three_cards() -> None:
    card = str(next(iter(_pass_view().hand)))
    with pytest.raises(ProtocolError, match="3 different cards"):
        parse_action({"type": "action", "id": 1, "cards": [card, card, card]}, 1, _pass_view())


def test_an_illegal_play_names_the_legal_cards() -> None:
    seat_view = _play_view()
    illegal = next(iter(seat_view.hand - seat_view.legal))
    with pytest.raises(ProtocolError, match=r"not a legal play now \(allowed: "):
        parse_action({"type": "action", "id": 3, "card": str(illegal)}, 3, seat_view)


def test_moon_answers_are_subtract_or_add() -> None:
    state = _moon_position()
    shooter_view = view(state, state.to_act[0])
    assert parse_action({"type": "action", "id": 1, "choice": "add"}, 1, shooter_view) \
        == ChooseMoon(shooter_view.seat or 0, MoonChoice.ADD)
    with pytest.raises(ProtocolError, match="subtract or add"):
        parse_action({"type": "action", "id": 1, "choice": "both"}, 1, shooter_view)
    assert decide_message(4, shooter_view)["decision"] == "moon"


def _moon_position() -> GameState:
    """Classic rules (the shooter chooses) with one seat dealt every point card."""
    rules = Rules.parse("classic")
    rng = random.Random(1)
    for _ in range(2000):
        state = new_game(rules, rng.randrange(10**9))
        players = [_Greedy(s) for s in range(4)]
        while state.phase in (Phase.PASS, Phase.PLAY):
            seat = state.to_act[0]
            state = state.apply(decide(players[seat], view(state, seat)))
        if state.phase is Phase.MOON:
            return state
    raise AssertionError("no moon shot found")


class _Greedy(RandomPlayer):
    """Seat 0 takes every trick it can; the others throw their points away."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat

    def choose_pass(self, view: PlayerView) -> CardSet:
        ordered = sorted(view.hand, key=lambda c: (c.suit == 3 or c == 36, c.rank))
        return CardSet(ordered[:3] if self.seat == 0 else ordered[-3:])

    def choose_play(self, view: PlayerView) -> Card:
        pick = max if self.seat == 0 else _dump
        return pick(view.legal)


def _dump(cards: CardSet) -> Card:
    return max(cards, key=lambda c: (c.suit == 3 or c == 36, -c.rank if c.suit != 3 else c.rank))


def test_garbage_lines_are_protocol_errors() -> None:
    with pytest.raises(ProtocolError, match=r"not JSON \(Expecting value at line 1, column 1\)"):
        decode("hello there\n")
    with pytest.raises(ProtocolError, match="with a \"type\""):
        decode("[1, 2]\n")
    with pytest.raises(ProtocolError, match="NaN is not a JSON number"):
        decode('{"type": "hello", "version": NaN}\n')


def test_a_malformed_view_names_the_field() -> None:
    wire = _play_view().to_json()
    wire["hand"] = ["2C", "ZZ"]
    with pytest.raises(ProtocolError, match="hand"):
        view_from_json(wire)
    del wire["hand"]
    with pytest.raises(ProtocolError, match="missing field 'hand'"):
        view_from_json(wire)


def test_hello_names_protocol_version_seat_and_rules() -> None:
    message = hello_message(2, Rules.parse("standard:target=50"))
    assert message == {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 1,
                       "seat": 2, "players": 4, "rules": "standard:target=50"}
    assert "\n" not in encode(decide_message(1, _play_view()))[:-1]

