"""Fuzzing the web server's inputs (issue 11): any websocket message (JSON or raw bytes)
and any HTTP body gets a typed ``error`` event / 4xx answer or a correct answer, the
connection carries on, and a refused input changes no table. A few seconds by default;
``-m slow`` runs them deeper."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.server.conftest import Server, start_server
from tests.server.test_bad_input import snapshot
from websockets.sync.client import ClientConnection, connect

from hearts.server import ServerConfig

CONFIG = ServerConfig(grace_s=600.0, entropy_timeout_s=0.3, bot_delay_s=0.0,
                      takeover_level="random", rate_burst=10_000, rate_per_s=10_000.0)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a module's examples, on its own event loop in a thread (Hypothesis
    runs each example synchronously)."""
    ready: list[Server] = []
    started = threading.Event()
    stop: list[asyncio.Event] = []

    async def main() -> None:
        handle, uv, task = await start_server(tmp_path_factory.mktemp("fuzz") / "h.db", CONFIG)
        stop.append(asyncio.Event())
        ready.append(handle)
        started.set()
        await stop[0].wait()
        uv.should_exit = True
        await asyncio.wait_for(task, 10)

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert started.wait(30)
    yield ready[0]
    loop.call_soon_threadsafe(stop[0].set)
    thread.join(15)


def post(server: Server, path: str, body: bytes) -> httpx.Response:
    with httpx.Client(base_url=server.url, timeout=10,
                      headers={"Content-Type": "application/json"}) as http:
        return http.post(path, content=body)


def new_table(server: Server, seats: list[str]) -> dict[str, Any]:
    made = post(server, "/api/tables", json.dumps(
        {"name": "Ann", "preset": "standard", "players": len(seats), "seats": seats}).encode())
    assert made.status_code == 201, made.text
    return dict(made.json())


def greet(ws: ClientConnection, made: dict[str, Any]) -> None:
    """Say hello with the creator's token, and wait until seat 0 must act."""
    ws.send(json.dumps({"type": "hello", "token": made["token"]}))
    my_turn(ws, [])


def exchange(ws: ClientConnection, text: str | bytes, ping: int) -> list[dict[str, Any]]:
    """Send ``text``, then a ping: every message up to its pong (the pong left out)."""
    ws.send(text)
    ws.send(json.dumps({"type": "ping", "id": ping}))
    got: list[dict[str, Any]] = []
    while True:
        message = json.loads(ws.recv(10))
        if message["type"] == "pong" and message.get("id") == ping:
            return got
        if message["type"] != "table":  # connections coming and going
            got.append(message)


DEEP = settings(max_examples=1000)

# Every code a refused websocket message may get (docs/web-protocol.md).
WS_CODES = {"too_large", "bad_message", "unknown_type", "hello_first", "not_seated",
            "bad_token", "game_over", "not_your_turn", "illegal", "stale_state",
            "no_commitment", "entropy_taken", "no_seat", "not_creator"}
HTTP_CODES = {400: {"bad_message", "bad_rules"}, 404: {"no_table"},
              409: {"no_seat", "in_progress"}, 413: {"too_large"}}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=10)
CARDS = st.sampled_from([r + s for s in "CDSH" for r in "23456789TJQKA"] + ["10H", "Q♠"])
FIELD = st.one_of(JSON, CARDS, st.lists(CARDS, max_size=4), st.integers(-2, 40),
                  st.sampled_from(["subtract", "add", "abc", "human", "random", "standard"]))
# What a parser may choke on: deep nesting, numbers of thousands of digits, lone surrogates.
EXTREME = st.one_of(
    st.integers(900, 4000).map(lambda n: "[" * n + "]" * n),
    st.integers(4300, 4500).map(lambda n: "9" * n),
    st.sampled_from(['"\\ud800"', '"\\udfff x"', "1e999999", "-0", "NaN", "Infinity"]))
WS_TYPES = ["hello", "entropy", "pass", "play", "moon", "start", "ping", "nonsense"]


@st.composite
def messages(draw: st.DrawFn) -> str | bytes:
    """Raw bytes, any JSON, or a message of a known type with fields of any value."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.binary(max_size=64))
    if kind == 1:
        return json.dumps(draw(JSON))
    if kind == 2:
        key = draw(st.sampled_from(["card", "state_id", "id", "token", "value"]))
        return f'{{"type": "{draw(st.sampled_from(WS_TYPES))}", "{key}": {draw(EXTREME)}}}'
    fields = draw(st.dictionaries(
        st.sampled_from(["card", "cards", "state_id", "choice", "value", "token", "id"]),
        FIELD, max_size=4))
    return json.dumps({"type": draw(st.sampled_from(WS_TYPES)), **fields})


def my_turn(ws: ClientConnection, seen: list[dict[str, Any]]) -> None:
    """Read until a state shows seat 0 alone to act (or the game over), after ``seen``:
    while passing, the computers may still be choosing when seat 0 may already pass."""
    states = [m for m in seen if m["type"] in ("state", "welcome")]
    while not states or not (states[-1]["view"]["to_act"] == [0]
                             or states[-1]["view"]["phase"] == "over"):
        message = json.loads(ws.recv(10))
        if message["type"] == "commit":
            ws.send(json.dumps({"type": "entropy", "value": "fuzz"}))
        if message["type"] in ("state", "welcome"):
            states.append(message)


@given(st.lists(messages(), max_size=8))
def test_websocket_messages_are_answered_or_refused(live: Server, texts: list[str | bytes]
                                                    ) -> None:
    _websocket_case(live, texts)


@pytest.mark.slow
@given(st.lists(messages(), max_size=30))
@DEEP
def test_websocket_messages_deeply(live: Server, texts: list[str | bytes]) -> None:
    _websocket_case(live, texts)


def _websocket_case(server: Server, texts: list[str | bytes]) -> None:
    state = server.app.state
    if not hasattr(state, "made"):  # the first example: a game waiting on seat 0
        state.made = new_table(server, ["human", "random", "random", "random"])
    with connect(f"{server.ws_url}/ws/{state.made['table']['id']}", max_size=2**22) as ws:
        greet(ws, state.made)
        for ping, text in enumerate(texts):
            before = snapshot(server)
            replies = exchange(ws, text, ping)
            for reply in replies:
                assert reply["type"] in ("ack", "state", "welcome", "pong", "commit",
                                         "reveal") or reply.get("code") in WS_CODES, (text, reply)
            if any(r["type"] == "ack" for r in replies):  # a correct action: the game goes on
                my_turn(ws, replies)
            elif any(r["type"] == "welcome" for r in replies):  # a new hello: seat 0 again
                greet(ws, state.made)
            else:
                assert snapshot(server) == before, text


BODY_KEYS = ["name", "preset", "players", "seats", "target", "options", "public", "title",
             "seat"]


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """Raw bytes, any JSON, or an object of the API's fields with values of any kind."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.binary(max_size=64))
    if kind == 1:
        return json.dumps(draw(JSON)).encode()
    if kind == 2:
        return f'{{"{draw(st.sampled_from(BODY_KEYS))}": {draw(EXTREME)}}}'.encode()
    body = draw(st.dictionaries(st.sampled_from(BODY_KEYS), FIELD, max_size=6))
    if draw(st.booleans()):
        body["seats"] = draw(st.lists(st.sampled_from(["human", "random", "easy", "x"]),
                                      min_size=3, max_size=5))
        body["players"] = len(body["seats"])
        body["name"] = draw(st.sampled_from(["Ann", "", " ", "A" * 40]))
    return json.dumps(body).encode()


@given(body=bodies(), where=st.sampled_from(["create", "join", "nowhere"]))
def test_http_bodies_are_answered_or_refused(live: Server, body: bytes, where: str) -> None:
    _http_case(live, body, where)


@pytest.mark.slow
@given(body=bodies(), where=st.sampled_from(["create", "join", "nowhere"]))
@DEEP
def test_http_bodies_deeply(live: Server, body: bytes, where: str) -> None:
    _http_case(live, body, where)


def _http_case(server: Server, body: bytes, where: str) -> None:
    state = server.app.state
    if not hasattr(state, "open_table"):  # free seats to join
        state.open_table = new_table(server, ["human", "human", "human", "random"])
    table_id = state.open_table["table"]["id"]
    path = {"create": "/api/tables", "join": f"/api/tables/{table_id}/join",
            "nowhere": "/api/tables/no-such-table/join"}[where]
    before = seats(server)
    answer = post(server, path, body)
    if answer.status_code in (200, 201):
        assert {"token", "seat", "table"} <= set(answer.json())
        return
    assert answer.json()["error"] in HTTP_CODES.get(answer.status_code, set()), \
        (answer.status_code, answer.text)
    assert seats(server) == before


def seats(server: Server) -> list[tuple[Any, ...]]:
    """The tables and who sits where (the games themselves run on)."""
    return [(tid, [(s.kind, s.name, s.token_hash) for s in t.authority.seats])
            for tid, t in sorted(server.app.state.hub.tables.items())]
