"""Fuzzing ``hearts bot``'s loop (issue 11): any line, JSON or raw bytes, gets an answer
or a typed protocol error, never a crash, and the bot answers the next good line."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import Phase, Rules, new_game, view
from hearts.players import RandomPlayer, decide, make_player
from hearts.protocol import serve
from hearts.protocol.messages import decide_message, parse_action
from hearts.protocol.views import view_from_json

RULES = Rules.parse("standard")
HELLO = {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 1, "seat": 0,
         "players": 4, "rules": RULES.text}
INPUT_CODES = {"bad_message", "bad_view", "no_game", "wrong_version"}


def _decisions() -> list[dict[str, Any]]:
    """Real decide messages of seat 0: a pass, plays at several points of a round."""
    state = new_game(RULES, 3)
    players = [RandomPlayer(s) for s in range(4)]
    found: list[dict[str, Any]] = []
    while state.round_no == 1 and state.phase in (Phase.PASS, Phase.PLAY):
        if 0 in state.to_act:
            found.append(decide_message(len(found) + 1, view(state, 0)))
        turn = state.to_act[0]
        state = state.apply(decide(players[turn], view(state, turn)))
    return found


DECISIONS = _decisions()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@st.composite
def mutated_decisions(draw: st.DrawFn) -> dict[str, Any]:
    """A real decide with one field of its view (or of the message, its type aside)
    replaced or dropped."""
    message = json.loads(json.dumps(draw(st.sampled_from(DECISIONS))))
    target = draw(st.sampled_from(["message", "view", "view", "view"]))
    where = message if target == "message" else message["view"]
    key = draw(st.sampled_from(sorted(set(where) - {"type"})))
    if draw(st.booleans()):
        del where[key]
    elif isinstance(where[key], list) and where[key] and draw(st.booleans()):
        items = where[key]
        items[draw(st.integers(0, len(items) - 1))] = draw(JSON)
    else:
        where[key] = draw(JSON | st.integers(-3, 60) | st.sampled_from(
            ["2C", "QS", "AH", "standard", "classic:players=3", "pass", "play", "moon"]))
    return message


def _run(lines: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve(lambda seat, rules: make_player("random", seat), io.StringIO("".join(lines)), out,
          name="fuzz")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _check(replies: list[dict[str, Any]], good: dict[str, Any]) -> None:
    """Every reply is an answer or an input error, and the last good decide is answered."""
    for reply in replies[:-1]:
        assert reply["type"] in ("ready", "action") or reply.get("code") in INPUT_CODES, reply
    assert parse_action(replies[-1], good["id"], view_from_json(good["view"]))


@given(st.lists(JSON, max_size=4))
def test_random_json_lines_get_answers_or_errors(messages: list[Any]) -> None:
    good = DECISIONS[-1]
    lines = [json.dumps(m) + "\n" for m in messages]
    _check(_run([json.dumps(HELLO) + "\n", *lines, json.dumps(HELLO) + "\n",
                 json.dumps(good) + "\n"]), good)


def _mutated_case(message: dict[str, Any]) -> None:
    good = DECISIONS[0]
    replies = _run([json.dumps(HELLO) + "\n", json.dumps(message) + "\n",
                    json.dumps(good) + "\n"])
    assert len(replies) == 3
    if replies[1]["type"] == "action":  # the change left a view some game could show
        assert parse_action(replies[1], message["id"], view_from_json(message["view"]))
    _check(replies, good)


@given(mutated_decisions())
@settings(max_examples=150)
def test_mutated_views_get_answers_or_errors(message: dict[str, Any]) -> None:
    _mutated_case(message)


@given(st.lists(st.binary(max_size=64), max_size=4))
def test_raw_bytes_get_answers_or_errors(chunks: list[bytes]) -> None:
    good = DECISIONS[1]
    data = b"\n".join([json.dumps(HELLO).encode(), *chunks, json.dumps(good).encode()])
    out = io.StringIO()
    serve(lambda seat, rules: make_player("random", seat), io.BytesIO(data + b"\n"), out,
          name="fuzz")
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0]["type"] == "ready"
    # a chunk may hold a hello of its own, or leave the good decide's line joined to it
    for reply in replies[1:]:
        assert reply["type"] in ("ready", "action") or reply.get("code") in INPUT_CODES, reply


@pytest.mark.slow
@given(mutated_decisions())
@settings(max_examples=3000)
def test_mutated_views_deeply(message: dict[str, Any]) -> None:
    _mutated_case(message)
