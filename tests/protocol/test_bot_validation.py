"""``hearts bot`` checks every message and view it reads (issue 11): a view no game could
show, a hello that contradicts its rules, a line that is no JSON at all each get an
``error`` answer with a code, and the bot answers the next message as before."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from hearts.core import Card, CardSet, Phase, PlayerView, Rules, new_game, view
from hearts.players import RandomPlayer, decide, make_player
from hearts.protocol import serve
from hearts.protocol.messages import decide_message

RULES = Rules.parse("standard")
HELLO = {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 1, "seat": 0,
         "players": 4, "rules": RULES.text}


def _play_view(seat: int = 0, rules: Rules = RULES) -> PlayerView:
    """The first view of ``seat`` in which it must play."""
    state = new_game(rules, 11)
    players = [RandomPlayer(s) for s in range(4)]
    while not (state.phase is Phase.PLAY and state.to_act == (seat,)):
        turn = state.to_act[0]
        state = state.apply(decide(players[turn], view(state, turn)))
    return view(state, seat)


def _serve(lines: list[Any], player: Callable[[int, Rules], Any] | None = None
           ) -> tuple[int, list[dict[str, Any]]]:
    """Run the bot on ``lines`` (messages, or raw text lines); its status and replies."""
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                   for line in lines)
    out = io.StringIO()
    status = serve(player or (lambda seat, rules: make_player("random", seat)),
                   io.StringIO(text), out, name="t")
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def _decide(wire: dict[str, Any], decision: str = "play") -> dict[str, Any]:
    return {"type": "decide", "id": 1, "decision": decision, "view": wire}


def _then_a_good_decision(lines: list[Any]) -> list[dict[str, Any]]:
    """The replies to ``lines`` followed by a good decide, whose answer must be an action."""
    good = decide_message(2, _play_view())
    status, replies = _serve([*lines, good])
    assert status == 1
    assert replies[-1]["type"] == "action" and replies[-1]["id"] == 2
    return replies[:-1]


def _error(replies: list[dict[str, Any]], code: str, words: str) -> None:
    assert replies[-1]["type"] == "error", replies
    assert replies[-1]["code"] == code and words in replies[-1]["message"], replies[-1]


def test_an_empty_legal_list_is_a_protocol_error_not_a_crash() -> None:
    wire = _play_view().to_json() | {"legal": []}
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view", "'legal' is empty")


def test_a_legal_card_outside_the_hand_is_refused() -> None:
    seen = _play_view()
    outside = next(Card(c) for c in range(52) if Card(c) not in seen.hand)
    wire = seen.to_json() | {"legal": [str(outside)]}
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view", "not in the hand")


def test_legal_cards_the_rules_do_not_allow_are_refused() -> None:
    seen = _play_view()
    wrong = seen.hand - seen.legal
    assert wrong
    wire = seen.to_json() | {"legal": CardSet(list(wrong)[:1]).names()}
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view", "the rules allow")


def test_a_sixty_card_hand_is_refused() -> None:
    wire = _play_view().to_json()
    wire["hand"] = [f"{r}{s}" for s in "CDSH" for r in "23456789TJQKA"] + ["XX"] * 8
    _, replies = _serve([HELLO, _decide(wire)])
    _error(replies, "bad_view", "hand")
    wire["hand"] = [f"{r}{s}" for s in "CDSH" for r in "23456789TJQKA"]  # 52 distinct cards
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view", "13 cards a hand")


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"players": 9}, "bad_message", "seat 4 players, not 9"),
    ({"players": True}, "bad_message", "not True"),
    ({"seat": 7}, "bad_message", "from 0 to 3"),
    ({"seat": True}, "bad_message", "not True"),
    ({"rules": None}, "bad_message", "needs the rules text"),
    ({"version": 2}, "wrong_version", "version 1"),
    ({"version": True}, "wrong_version", "version 1, not 'card-commons-hearts-bot' version True"),
    ({"version": 1.0}, "wrong_version", "not 'card-commons-hearts-bot' version 1.0"),
])
def test_a_hello_that_contradicts_its_rules_is_refused(change: dict[str, Any], code: str,
                                                       words: str) -> None:
    status, replies = _serve([HELLO | change, HELLO])
    assert status == 1
    _error(replies[:1], code, words)
    assert replies[1]["type"] == "ready"


def test_a_view_of_nine_players_under_standard_is_refused() -> None:
    wire = _play_view().to_json()
    wire["totals"] = [0] * 9
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view", "seat 4 players")


def test_a_view_of_totals_past_any_game_is_refused() -> None:
    wire = _play_view().to_json()
    wire["totals"] = [10**30, 0, 0, 0]  # a search player's 64-bit arithmetic overflowed
    _error(_then_a_good_decision([HELLO, _decide(wire)]), "bad_view",
           "totals must be a whole number from -999999999 to 999999999")


def test_a_view_of_another_seat_or_rules_than_hello_is_refused() -> None:
    other = _play_view(1).to_json()
    _error(_then_a_good_decision([HELLO, _decide(other)]), "bad_view", "hello gave seat 0")
    other_rules = _play_view(0, Rules.parse("standard:target=50")).to_json()
    _error(_then_a_good_decision([HELLO, _decide(other_rules)]), "bad_view",
           "under 'standard:target=50'; hello gave seat 0 under 'standard'")


@pytest.mark.parametrize("decision_id", [True, "7", None, 1.5])
def test_a_decision_id_is_a_whole_number(decision_id: object) -> None:
    message = decide_message(1, _play_view()) | {"id": decision_id}
    _error(_then_a_good_decision([HELLO, message]), "bad_message", "numeric id")


def test_a_decision_before_hello_is_refused() -> None:
    status, replies = _serve([decide_message(1, _play_view())])
    assert status == 1
    _error(replies, "no_game", "before hello")


def test_garbage_lines_get_errors_and_the_bot_goes_on() -> None:
    replies = _then_a_good_decision(["[" * 100_000, "1" * 5000, "{not json", "[1]",
                                     '{"type": 3}', HELLO])
    assert [r.get("code") for r in replies[:5]] == ["bad_message"] * 5
    assert "nested too deep" in replies[0]["message"]
    assert replies[5]["type"] == "ready"


def test_a_failing_player_is_an_internal_error_and_the_bot_goes_on() -> None:
    class Broken(RandomPlayer):
        calls = 0

        def choose_play(self, view: PlayerView) -> Card:
            Broken.calls += 1
            if Broken.calls == 1:
                raise KeyError("boom")
            return super().choose_play(view)

    good = decide_message(1, _play_view())
    status, replies = _serve([HELLO, good, good], lambda seat, rules: Broken(seat))
    assert status == 1
    _error(replies[:2], "internal", "KeyError")
    assert replies[2]["type"] == "action"


def test_hearts_bot_survives_deep_nesting_and_bytes_that_are_not_utf8() -> None:
    good = json.dumps(HELLO).encode()
    lines = b"[" * 100_000 + b"\n\xff\xfe{\n" + good + b"\n"
    done = subprocess.run([sys.executable, "-m", "hearts.cli.main", "bot", "random"],
                          input=lines, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1, done.stderr
    assert [r["type"] for r in replies] == ["error", "error", "ready"]
    assert "nested too deep" in replies[0]["message"]
    assert "UTF-8" in replies[1]["message"]
    assert b"Traceback" not in done.stderr
