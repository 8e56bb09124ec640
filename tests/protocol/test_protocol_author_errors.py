"""A bot author reads what went wrong in words about their mistake (a bot author's report):
bytes that are not UTF-8, a second answer to one decision, a decision after the game's
end, a card that is not in the hand. The codes stay as documented."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.protocol.scripted_bots import play_with_random, serve_lines, write_bot

from hearts.core import Card, Phase, PlayerView, Rules, new_game, view
from hearts.players import RandomPlayer, decide, make_player
from hearts.protocol import ExternalPlayer, ProtocolError
from hearts.protocol.messages import decide_message, decode, hello_message, parse_action

RULES = Rules.parse("standard:target=30")
HELLO = hello_message(0, RULES)


def _play_view() -> PlayerView:
    """The first view of seat 0 in which it must play."""
    state = new_game(RULES, 11)
    players = [RandomPlayer(s) for s in range(4)]
    while not (state.phase is Phase.PLAY and state.to_act == (0,)):
        turn = state.to_act[0]
        state = state.apply(decide(players[turn], view(state, turn)))
    return view(state, 0)

# What each bot does on its third decision (the first two are fine).
MISTAKES = {
    "not_utf8": ('sys.stdout.buffer.write(b\'{"type":"action","id":%d,"card":"\\xff\\xfe"}\\n\''
                 ' % message["id"]); sys.stdout.buffer.flush(); continue',
                 "decision 3: the line is not UTF-8: byte 0xff at position 32"),
    "twice": ("send(reply)", "decision 4: answered decision 3 twice (decision 4 is pending)"),
}


@pytest.mark.parametrize("kind", sorted(MISTAKES))
def test_the_host_says_what_the_bot_did(kind: str, tmp_path: Path) -> None:
    mistake, complaint = MISTAKES[kind]
    external = ExternalPlayer(write_bot(tmp_path, kind, mistake), 0, RULES,
                              fallback=make_player("random", 1), timeout=5)
    state = play_with_random(external, RULES, "authors")
    assert state.is_over
    assert external.error is not None and complaint in external.error, external.error


def test_a_line_that_is_not_utf8_is_called_so() -> None:
    with pytest.raises(ProtocolError, match=r"the line is not UTF-8: byte 0xff at position 5 "
                                            r"\(invalid start byte\)") as refused:
        decode(b'{"a":\xff}\n')
    assert refused.value.code == "bad_message"


def test_a_card_not_in_the_hand_is_called_so_with_the_allowed_cards() -> None:
    seat_view = _play_view()
    outside = next(Card(c) for c in range(52) if Card(c) not in seat_view.hand)
    with pytest.raises(ProtocolError, match=rf"{outside} is not in the hand \(allowed: "
                                            rf"{seat_view.legal}\)"):
        parse_action({"type": "action", "id": 2, "card": str(outside)}, 2, seat_view)


@pytest.mark.parametrize(("ending", "words"), [
    ({"type": "end", "reason": "over", "totals": [0, 0, 0, 0], "winners": [0]},
     "decide after end: that game is over (a new game starts with hello)"),
    ({"type": "error", "message": "your seat is taken over"},
     "decide after the host's error: that game is over"),
])
def test_a_decision_after_the_game_ended_says_so(ending: dict[str, object],
                                                 words: str) -> None:
    lines = [HELLO, ending, decide_message(1, _play_view()), HELLO,
             decide_message(2, _play_view())]
    status, replies = serve_lines(lines, lambda seat, rules: make_player("random", seat))
    assert status == 1
    assert [r["type"] for r in replies] == ["ready", "error", "ready", "action"]
    assert replies[1]["code"] == "no_game" and words in replies[1]["message"]
