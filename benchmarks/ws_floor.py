"""The floor under ``hearts serve``: a bare Starlette websocket server that answers the load
benchmark's traffic with no game logic.

``benchmarks/load.py`` runs it beside the real server (``--floor``) and prints its CPU per
action next to the server's, as ``loop_floor.py`` does for the engine: the server's figure
read against what any Python websocket server on the same stack (Starlette, uvicorn with
the server's options, uvloop, one process) must spend moving the same messages.

Before it listens, the floor records one real game as the load benchmark's scripted player
sees it (``TableAuthority`` with ``--level`` computers; seat 0 plays as ``load.choose``
does): every message that connection gets, in order, and where it acts. Then every
table's connection is a replay of that script: the same texts of the same sizes, the
computers' pause before each of their plays, an ``ack`` (echoing the request id) for each
of the player's messages. Nothing is checked, decided, built, encoded or stored while the
benchmark measures. The load client counts the floor's actions as it counts the
server's: by the state ids of the messages it gets.

    .venv/bin/python benchmarks/ws_floor.py --port 8765 --bot-delay 0.7
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from load import choose
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from hearts.cli.common import level_name, non_negative_number, port_number
from hearts.core import Action, GameState, Phase, decode_action, view
from hearts.players import decide, make_player
from hearts.server import UVICORN_OPTIONS
from hearts.server.authority import TableAuthority
from hearts.server.settings import HUMAN, ServerConfig, TableSettings
from hearts.server.store import SqliteStore

__all__ = ["Script", "create_floor", "main", "record_script"]

_ACK = '{"type":"ack","id":%s,"state_id":%d}'


@dataclass
class Script:
    """One game as the scripted player's connection sees it.

    ``steps`` are ``("send", text, state_id)``, ``("pause", "", 0)`` (a computer thinks for
    the server's bot delay) and ``("ack", "", state_id)`` (read the player's next message
    and acknowledge it at that state id)."""

    hello: list[str]
    steps: list[tuple[str, str, int]] = field(default_factory=list)


class _Recorder:
    """Seat 0's connection, keeping what it is sent."""

    seat = 0

    def __init__(self, script: Script) -> None:
        self.script = script
        self.state_id = 0

    def send_text(self, text: str) -> None:
        data = json.loads(text)
        self.state_id = data.get("state_id", self.state_id)
        self.script.steps.append(("send", text, self.state_id))


def record_script(level: str, seed: str = "floor") -> Script:
    """Play one game on a real table authority and keep seat 0's messages."""
    settings = TableSettings.build(preset="card-commons", players=4, options="", target=None,
                                   seats=[HUMAN, level, level, level], public=False,
                                   title="floor", bot_seed=seed)
    store = SqliteStore(":memory:")
    store.create_table("floor", settings.to_json())
    table = TableAuthority("floor", settings, store, ServerConfig(), clock=lambda: 0.0)
    table.join("Load", "floor-token", 0)
    script = Script(hello=[])
    recorder = _Recorder(script)
    table.attach(recorder)
    welcome: list[str] = []
    table.welcome(_Collect(welcome), None)
    script.hello = [text for _, text, _ in script.steps] + welcome
    script.steps.clear()
    rounds = itertools.count()
    while not table.state.is_over:
        state = table.state
        if table.needs_commitment:
            table.commit_round(f"{seed}/{next(rounds)}".encode().hex())
            script.steps.append(("ack", "", table.state_id))  # the player's entropy
            table.add_entropy(0, "a" * 32)
            _commit(table, state, table.deal())
            continue
        seats = sorted(state.to_act, key=lambda seat: seat == 0)  # computers first
        seat = seats[0]
        if seat == 0:
            message = choose(view(state, 0).to_json(), table.state_id, 1)
            assert message is not None
            action = decode_action(message["type"], 0, message)
            after = state.apply(action)
            script.steps.append(("ack", "", table.state_id + 1))
            _commit(table, state, action, after)
            continue
        if state.phase is Phase.PLAY:
            script.steps.append(("pause", "", 0))
        player = make_player(level, f"{seed}/{seat}/{table.state_id}")
        _commit(table, state, decide(player, view(state, seat)))
    return script


class _Collect:
    """Seat 0's second connection, for the welcome alone."""

    seat = 0

    def __init__(self, into: list[str]) -> None:
        self.into = into

    def send_text(self, text: str) -> None:
        self.into.append(text)


def _commit(table: TableAuthority, before: GameState, action: Action,
            after: GameState | None = None) -> None:
    table.commit_action(before, action, before.apply(action) if after is None else after)


def create_floor(script: Script, bot_delay: float) -> Starlette:
    """The floor's application: the lobby calls the load benchmark makes, and the socket."""
    names = itertools.count()

    async def config(request: Request) -> JSONResponse:
        return JSONResponse({})

    async def create(request: Request) -> JSONResponse:
        return JSONResponse({"table": {"id": f"f{next(names)}"}, "seat": 0, "token": "t"},
                            status_code=201)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            await websocket.receive_text()  # hello
            for text in script.hello:
                await websocket.send_text(text)
            for kind, text, state_id in script.steps:
                if kind == "send":
                    await websocket.send_text(text)
                elif kind == "pause":
                    await asyncio.sleep(bot_delay)
                else:
                    data: dict[str, Any] = json.loads(await websocket.receive_text())
                    await websocket.send_text(_ACK % (json.dumps(data.get("id")), state_id))
            await websocket.receive_text()  # the game is over: wait for the client to go
        except WebSocketDisconnect:
            return

    return Starlette(routes=[
        Route("/api/config", config),
        Route("/api/tables", create, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", socket),
    ])


def main() -> None:
    """Record the script, then serve the floor until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=port_number, required=True)
    parser.add_argument("--bot-delay", type=non_negative_number, default=0.7)
    parser.add_argument("--level", type=level_name, default="normal")
    args = parser.parse_args()
    app = create_floor(record_script(args.level), args.bot_delay)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", **UVICORN_OPTIONS)


if __name__ == "__main__":
    main()
