"""Outside bots for the protocol's tests, written as small Python programs: each greets,
plays the first legal card (or passes its first cards), and does something of its own on
its third decision, so a test names only what its bot does wrong."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts.core import GameState, Rules, new_game
from hearts.players import Player, RandomPlayer, run_game
from hearts.protocol import ExternalPlayer, serve

_BOT = '''
import json, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
%s
        send({"type": "ready", "name": %r})
    elif message["type"] == "decide":
        decisions += 1
        view = message["view"]
        reply = {"type": "action", "id": message["id"]}
        if message["decision"] == "pass":
            reply["cards"] = view["hand"][:view["pass_count"]]
        else:
            reply["card"] = view["legal"][0]
        if decisions == 3:
%s
        send(reply)
'''


def write_bot(tmp_path: Path, name: str, third: str = "pass", *, on_hello: str = "pass",
              ready_as: str = "test bot") -> list[str]:
    """The command of a bot (kept as ``NAME_bot.py``) that runs the Python ``third`` on
    its third decision (``continue`` skips its answer) and ``on_hello`` on each hello
    (``line`` is the hello's line), and answers ready as ``ready_as``."""
    script = tmp_path / f"{name}_bot.py"
    script.write_text(_BOT % (textwrap.indent(on_hello, " " * 8), ready_as,
                              textwrap.indent(third, " " * 12)))
    return [sys.executable, str(script)]


def play_with_random(external: ExternalPlayer, rules: Rules, seed: str) -> GameState:
    """A whole game of seed ``seed`` with ``external`` at seat 0 and random players
    elsewhere; the bot is told the game's end (or closed) however the game ends."""
    players = [external, *(RandomPlayer(s) for s in range(1, rules.players))]
    state = new_game(rules, seed)
    try:
        state = run_game(state, players)
    finally:
        external.close(state.totals, state.winners)
    return state


def serve_lines(lines: list[dict[str, Any]], factory: Callable[..., Player],
                name: str = "t") -> tuple[int, list[dict[str, Any]]]:
    """What the bot side (:func:`hearts.protocol.serve`) answers to ``lines``: its exit
    status and its replies."""
    out = io.StringIO()
    status = serve(factory, io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), out,
                   name=name)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]
