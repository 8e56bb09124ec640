"""A real server on a free loopback port, and scripted websocket players."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from hearts.server import UVICORN_OPTIONS, ServerConfig, create_app

# Scripted players act on every state at machine speed: a looser rate limit than people get.
# Quick waits, and rations high enough that scripted players are never limited (the
# rations themselves are tested in test_table_authority.py and test_bad_input.py).
FAST = ServerConfig(grace_s=30.0, entropy_timeout_s=0.3, bot_delay_s=0.0,
                    takeover_level="random", rate_burst=60, rate_per_s=200.0,
                    hint_burst=10_000, hint_per_s=10_000.0)


@dataclass
class Server:
    """A running server: its base URL and its application."""

    url: str
    app: Any

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[4:]

    def http(self) -> httpx.AsyncClient:
        # every body these tests post is JSON, as the pages send theirs
        return httpx.AsyncClient(base_url=self.url, timeout=10,
                                 headers={"Content-Type": "application/json"})


async def start_server(db: Path, config: ServerConfig) -> tuple[Server, uvicorn.Server,
                                                                asyncio.Task[None]]:
    app = create_app(db, config)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                           lifespan="on", **UVICORN_OPTIONS))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return Server(f"http://127.0.0.1:{port}", app), server, task


@pytest.fixture
def server_config() -> ServerConfig:
    return FAST


@pytest.fixture
async def server(tmp_path: Path, server_config: ServerConfig) -> AsyncIterator[Server]:
    handle, uv, task = await start_server(tmp_path / "hearts.db", server_config)
    yield handle
    uv.should_exit = True
    await asyncio.wait_for(task, 10)


class Client:
    """A websocket client that keeps every message it receives.

    One task reads the socket for as long as it is open and queues what arrives: a wait
    with a timeout then cancels only a queue's get, never the websocket's own receive, and
    the socket is read while the test is busy elsewhere (as a browser reads it).
    """

    def __init__(self, ws: ClientConnection, token: str | None) -> None:
        self.ws = ws
        self.token = token
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []  # what this client said (its own cards named)
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        self.state_id = -1
        self._next = 0
        self._arrived: asyncio.Queue[str | BaseException] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Queue every message until the socket closes (then queue why it closed)."""
        try:
            while True:
                self._arrived.put_nowait(str(await self.ws.recv()))
        except ConnectionClosed as closed:
            self._arrived.put_nowait(closed)

    @classmethod
    async def open(cls, server: Server, table_id: str, token: str | None) -> Client:
        ws = await connect(f"{server.ws_url}/ws/{table_id}", max_size=2**22)
        client = cls(ws, token)
        await client.send({"type": "hello", "token": token})
        welcome = await client.expect(
            lambda m: m["type"] == "welcome" or m.get("code") == "no_table")
        assert welcome["type"] == "welcome", welcome
        client.seat = welcome["seat"]
        client._next = len(client.received) - 1  # hand the welcome out again
        return client

    async def send(self, data: dict[str, Any] | str) -> None:
        if isinstance(data, dict):
            self.sent.append(data)
        await self.ws.send(data if isinstance(data, str) else json.dumps(data))

    def _note(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        if message["type"] in ("welcome", "state"):
            self.state = message["view"]
            self.state_id = message["state_id"]

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message not yet handed out."""
        if self._next < len(self.received):
            self._next += 1
            return self.received[self._next - 1]
        arrived = await asyncio.wait_for(self._arrived.get(), timeout)
        if isinstance(arrived, BaseException):
            self._arrived.put_nowait(arrived)  # every later receive hears it too
            raise arrived
        message = json.loads(arrived)
        self._note(message)
        self._next += 1
        return message

    async def expect(self, match: Callable[[dict[str, Any]], bool],
                     timeout: float = 5.0) -> dict[str, Any]:
        """The next message that matches (others are kept but skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, end - loop.time()))
            if match(message):
                return message

    async def settle(self, quiet: float = 0.3) -> None:
        """Read messages until none arrives for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(timeout=quiet)
            except TimeoutError:
                return

    async def close(self) -> None:
        await self.ws.close()
        await self._reader


def first_action(view: dict[str, Any], state_id: int) -> dict[str, Any] | None:
    """A simple legal decision from a view: lowest legal cards, moon subtract."""
    if view["seat"] is None or view["seat"] not in view["to_act"]:
        return None
    if view["phase"] == "pass":
        return {"type": "pass", "cards": view["legal"][: view["pass_count"]],
                "state_id": state_id}
    if view["phase"] == "play":
        return {"type": "play", "card": view["legal"][0], "state_id": state_id}
    if view["phase"] == "moon":
        return {"type": "moon", "choice": "subtract", "state_id": state_id}
    return None


async def create_table(server: Server, seats: list[str], name: str = "Ann",
                       **extra: Any) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.post("/api/tables", json={
            "name": name, "preset": extra.pop("preset", "card-commons"),
            "players": len(seats), "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def join_table(server: Server, table_id: str, name: str) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code == 200, response.text
    return dict(response.json())


class StalledError(AssertionError):
    """A scripted player heard nothing for too long: the game stopped moving."""


async def play_together(server: Server, table_id: str,
                        players: Sequence[Client | Awaitable[int]],
                        timeout: float = 120.0) -> None:
    """Autoplay every client until the game is over (or run the given :func:`autoplay`
    calls); if one fails or stalls, fail with every failure, each naming what its client
    last saw, and what the server's table waits for."""
    games = [autoplay(p) if isinstance(p, Client) else p for p in players]
    done = await asyncio.wait_for(asyncio.gather(*games, return_exceptions=True), timeout)
    failures = [d for d in done if isinstance(d, BaseException)]
    if failures:
        lines = [f"{type(f).__name__}: {f}" for f in failures]
        raise AssertionError("\n\n".join([*lines, table_report(server, table_id)]))


def table_report(server: Server, table_id: str) -> str:
    """What a table's driver is doing: its state, whose turn, each seat's queued action."""
    if server.app is None:
        return f"table {table_id}: its server runs in another process"
    table = server.app.state.hub.tables.get(table_id)
    if table is None:
        return f"table {table_id} is not served here"
    authority = table.authority
    task = table._task
    lines = [f"server: state {authority.state_id}, phase {authority.state.phase.name}, to act "
             f"{authority.state.to_act}, driver "
             f"{'none' if task is None else 'done' if task.done() else 'running'}"]
    awaiting: Any = None if task is None or task.done() else task.get_coro()
    while getattr(awaiting, "cr_frame", None) is not None:  # down the chain of awaits
        frame = awaiting.cr_frame
        lines.append(f"  driver awaits at {frame.f_code.co_name} "
                     f"({frame.f_code.co_filename}:{frame.f_lineno})")
        awaiting = awaiting.cr_await
    if awaiting is not None:
        lines.append(f"  driver awaits {awaiting!r}")
    for seat in table.seats:
        lines.append(f"seat {seat.seat}: pending {seat.pending}, queued {seat.inbox.qsize()}, "
                     f"computer plays {authority.computer_plays(seat.seat)}")
    return "\n".join(lines)


def _commitments_awaiting_entropy(message: dict[str, Any]) -> list[int]:
    """The rounds a message says the dealer has committed to and not yet dealt, as the web
    table reads them: a commit message, or a welcome before the round's deal."""
    if message["type"] == "commit":
        return [message["round"]]
    if message["type"] != "welcome" or message["view"]["phase"] != "deal":
        return []
    return [fair["round"] for fair in message["fairness"]
            if fair["server_seed"] is None and fair["round"] == message["view"]["round"]]


async def autoplay(client: Client, until_over: bool = True, max_actions: int = 10_000,
                   hints: bool = False, idle_s: float = 20.0,
                   until: Callable[[dict[str, Any]], bool] | None = None) -> int:
    """Play the lowest legal cards whenever it is this client's turn, one action at a time
    (asking for a hint first if ``hints``) until the game is over or ``until(view)``;
    returns the number of actions sent.

    Every request carries an id, and an answer counts only for the request whose id it
    carries: a hint's refusal (rate limited, say) is not the play's. The server answers a
    connection's requests in the order sent, so a ``ping`` sent after the play tells a play
    that went unanswered (dropped by the message rate limit, or lost with the node that
    owned the table) from one still being applied: its pong comes after the play's answer,
    if there is one. The player acts again only on the table's newer state, never a view
    it acted on already.
    """
    sent = 0  # actions sent; the action's request id
    pending = False  # the last action is not answered yet
    probe: str | None = None  # the id of a ping asking whether the pending action arrived
    probes = 0
    acted: set[int] = set()
    answered_at = -1
    idle = 0.0
    while sent < max_actions:
        try:
            message = await client.recv(timeout=0.5)
            idle = 0.0
        except TimeoutError:
            idle += 0.5
            if idle >= idle_s:
                raise StalledError(f"seat {client.seat}: no message for {idle_s} s; waiting "
                                   f"for an answer: {pending}, acted on {sorted(acted)[-3:]}, "
                                   f"at state {client.state_id}; its last messages (oldest "
                                   f"first): {client.received[-4:]}") from None
            message = {"type": "idle"}
        for round_no in _commitments_awaiting_entropy(message):
            await client.send({"type": "entropy", "value": f"e{client.seat}x{round_no}",
                               "id": f"entropy{round_no}"})
        rid = message.get("id")
        if pending and rid == sent and message["type"] in ("ack", "error"):
            pending, probe = False, None
            # The answer names the table's state; its own state message follows it. Acting
            # before that arrives would act again on the view the action was sent from.
            answered_at = message.get("state_id", answered_at)
            if message["type"] == "error":
                acted.clear()  # refused (stale, say): act again on the current state
        elif pending and probe is not None and rid == probe:
            # answered after the action, which went unanswered: it never arrived
            pending, probe = False, None
            answered_at = message.get("state_id", answered_at)
            acted.clear()
        elif message.get("code") == "rate_limited" and rid is None:
            # Some message was dropped, which one unsaid. The server says so at most once
            # a second and drops the rest unsaid: wait that out before asking (a question
            # sooner could be dropped with no word, and the player would wait for good).
            await asyncio.sleep(1.1)
            if pending:
                probes += 1
                probe = f"probe{probes}"
                await client.send({"type": "ping", "id": probe})
        elif message["type"] == "welcome" and pending and probe is None:
            # welcomed again (the table moved to another node): ask whether the action
            # reached the table's new owner
            probes += 1
            probe = f"probe{probes}"
            await client.send({"type": "ping", "id": probe})
        view = client.state
        if view is None or pending or client.state_id in acted or client.state_id < answered_at:
            continue
        if (view["phase"] == "over" and until_over) or (until is not None and until(view)):
            return sent
        action = first_action(view, client.state_id)
        if action is not None:
            acted.add(client.state_id)
            if hints:
                await client.send({"type": "hint", "id": f"hint{sent + 1}"})
            sent += 1
            await client.send(dict(action, id=sent))
            pending = True
    return sent
