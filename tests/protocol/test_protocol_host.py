"""Seating outside programs: a bot that misbehaves is logged and replaced, the game goes on."""

from __future__ import annotations

import io
import json
import logging
import sys
from pathlib import Path

import pytest
from tests.protocol.scripted_bots import play_with_random, write_bot

from hearts.core import Phase, Rules, new_game, view
from hearts.players import make_player
from hearts.protocol import ExternalPlayer, serve

RULES = Rules.parse("standard:target=30")

# What each bot does on its third decision (the first two are fine).
MISBEHAVIOURS = {
    "timeout": ("time.sleep(30)", "no answer within 0.5 s"),
    "crash": ("sys.exit(3)", "exit status 3"),
    "garbage": ('print("I fold", flush=True); continue', "not JSON (Expecting value"),
    "illegal": ('reply["card"] = next(c for c in view["hand"] + ["2C"] '
                'if c not in view["legal"])', "not a legal play now"),
    "wrong_id": ('reply["id"] = 999', "answers id 999"),
    "error": ('send({"type": "error", "message": "out of ideas"}); continue',
              "the bot reported an error: 'out of ideas'"),
    "coded_error": ('send({"type": "error", "code": "bad_view", "message": "odd"}); continue',
                    "the bot reported an error (bad_view): 'odd'"),
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVIOURS))
def test_a_misbehaving_bot_is_replaced_and_the_game_completes(
        kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    misbehaviour, complaint = MISBEHAVIOURS[kind]
    fallback = make_player("random", 1)
    external = ExternalPlayer(write_bot(tmp_path, kind, misbehaviour), 0, RULES,
                              fallback=fallback, timeout=0.5)
    with caplog.at_level(logging.ERROR, logger="hearts.protocol"):
        state = play_with_random(external, RULES, "host-test")
    assert state.is_over
    assert external.error is not None and complaint in external.error
    assert "decision 3" in external.error
    logged = [r.getMessage() for r in caplog.records if r.name == "hearts.protocol"]
    assert len(logged) == 1
    assert complaint in logged[0] and "seat 0 is played by random" in logged[0]
    # the bot's own moves stand: its first two decisions are in the game's history
    assert len([a for a in state.history if getattr(a, "seat", None) == 0]) > 3


def test_a_well_behaved_bot_plays_the_whole_game(tmp_path: Path) -> None:
    command = write_bot(tmp_path, "good")
    external = ExternalPlayer(command, 0, RULES, fallback=make_player("random", 1))
    state = play_with_random(external, RULES, "host-test")
    assert state.is_over and external.error is None
    assert external.bot_name == "test bot"


def test_a_program_that_does_not_start_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="hearts.protocol"):
        external = ExternalPlayer(["/nonexistent/bot-program"], 0, RULES,
                                  fallback=make_player("random", 2))
        state = play_with_random(external, RULES, "host-test")
    assert state.is_over
    assert external.error is not None and "could not start" in external.error
    assert any("could not start" in r.getMessage() for r in caplog.records)


def test_a_bot_that_refuses_hello_is_replaced(tmp_path: Path) -> None:
    script = tmp_path / "refuse.py"
    refusal = json.dumps({"type": "error", "message": "wrong version"})
    script.write_text(f"import sys\nsys.stdin.readline()\nprint({refusal!r}, flush=True)\n")
    external = ExternalPlayer([sys.executable, str(script)], 0, RULES,
                              fallback=make_player("random", 3))
    assert external.error is not None and "at hello" in external.error
    assert play_with_random(external, RULES, "host-test").is_over


def test_the_bot_side_answers_hello_and_decisions() -> None:
    state = new_game(RULES, 9)
    seat_view = view(state, 1)
    lines = [
        {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 1, "seat": 1,
         "rules": RULES.text},
        {"type": "decide", "id": 1, "decision": "pass", "view": seat_view.to_json()},
        {"type": "end", "reason": "over", "totals": [0, 0, 0, 0], "winners": [0]},
    ]
    out = io.StringIO()
    status = serve(lambda seat, rules: make_player("random", seat),
                   io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), out, name="r")
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 0
    assert replies[0]["type"] == "ready" and replies[0]["name"] == "r"
    assert replies[1]["type"] == "action" and replies[1]["id"] == 1
    assert set(replies[1]["cards"]) <= set(seat_view.hand.names())
    assert len(replies) == 2
    assert state.phase is Phase.PASS


def test_the_bot_side_refuses_another_version() -> None:
    out = io.StringIO()
    hello = {"type": "hello", "protocol": "card-commons-hearts-bot", "version": 99, "seat": 0,
             "rules": "standard"}
    status = serve(lambda seat, rules: make_player("random", seat),
                   io.StringIO(json.dumps(hello) + "\n"), out, name="r")
    reply = json.loads(out.getvalue())
    assert status == 1
    assert reply["type"] == "error" and "version 1" in reply["message"]
