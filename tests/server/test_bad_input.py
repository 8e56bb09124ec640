"""Bad input to the web server (issue 11): every malformed websocket message is an
``error`` event and the connection carries on; every malformed HTTP body is a 4xx answer;
numbers are checked for their type (``true`` is not seat 1); an internal failure is
logged and answered ``server_error``. Nothing refused changes a table."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from websockets.asyncio.client import ClientConnection, connect

from hearts.server import ServerConfig, protocol
from hearts.server.app import ClusterRouting
from hearts.server.authority import TableAuthority
from hearts.server.protocol import RequestError


@pytest.fixture
def server_config() -> ServerConfig:
    return ServerConfig(grace_s=30.0, entropy_timeout_s=0.3, bot_delay_s=0.0,
                        takeover_level="random", rate_burst=10_000, rate_per_s=10_000.0)


async def post(server: Server, path: str, **kwargs: Any) -> httpx.Response:
    async with server.http() as http:
        return await http.post(path, **kwargs)


async def new_table(server: Server, seats: list[str] | None = None) -> dict[str, Any]:
    seats = seats or ["human", "human", "random", "random"]
    made = await post(server, "/api/tables", json={"name": "Ann", "preset": "standard",
                                                    "players": len(seats), "seats": seats})
    assert made.status_code == 201, made.text
    return dict(made.json())


def authority(server: Server, table_id: str) -> TableAuthority:
    found: TableAuthority = server.app.state.hub.tables[table_id].authority
    return found


def snapshot(server: Server) -> list[tuple[Any, ...]]:
    """Everything a refused request must leave as it was, for every table."""
    return [(tid, t.authority.seq, t.authority.state_id, len(t.authority.rounds),
             [(s.kind, s.name, s.token_hash) for s in t.authority.seats])
            for tid, t in sorted(server.app.state.hub.tables.items())]


async def seated(server: Server, made: dict[str, Any]) -> ClientConnection:
    """A websocket to the table that has said hello with the creator's token."""
    ws = await connect(f"{server.ws_url}/ws/{made['table']['id']}", max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def exchange(ws: ClientConnection, text: str | bytes, ping: int
                   ) -> list[dict[str, Any]]:
    """Send ``text``, then a ping: every message up to its pong (the pong left out)."""
    await ws.send(text)
    await ws.send(json.dumps({"type": "ping", "id": ping}))
    got: list[dict[str, Any]] = []
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "pong" and message.get("id") == ping:
            return got
        if message["type"] != "table":  # connections coming and going
            got.append(message)


@pytest.mark.parametrize(("text", "code", "words"), [
    ("[" * 4000, "bad_message", "nested too deep"),
    ('{"type": "ping", "id": ' + "[" * 1500 + "]" * 1500 + "}", "bad_message", "nested"),
    ('{"type": "play", "card": "QS", "state_id": ' + "9" * 4000 + "}", "bad_message",
     "state_id"),
    ('{"type": "play", "card": "QS", "state_id": true}', "bad_message", "state_id"),
    ('{"type": "ping", "id": true}', "bad_message", "id must be"),
    ('{"type": "hello", "token": "\\ud800"}', "bad_message", "lone surrogate"),
    (b"\xff\xfe", "bad_message", "JSON object"),
])
async def test_malformed_websocket_messages_are_errors_and_the_socket_carries_on(
        server: Server, text: str | bytes, code: str, words: str) -> None:
    made = await new_table(server)
    ws = await seated(server, made)
    before = snapshot(server)
    replies = await exchange(ws, text, 1)
    assert [m.get("code") for m in replies] == [code], replies
    assert words in replies[0]["message"]
    assert snapshot(server) == before
    assert await exchange(ws, '{"type": "ping"}', 2) == [{"type": "pong", "id": None,
                                                          "state_id": 0}]
    await ws.close()


async def test_an_internal_failure_is_logged_and_answered_server_error(
        server: Server, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    made = await new_table(server)

    def broken(self: TableAuthority, seat: int | None) -> None:
        raise KeyError("a bug")
    monkeypatch.setattr(TableAuthority, "hint_view", broken)
    ws = await seated(server, made)
    with caplog.at_level(logging.ERROR, logger="hearts.server.websocket"):
        replies = await exchange(ws, '{"type": "hint", "id": 5}', 1)
    assert [(m["code"], m["id"]) for m in replies] == [("server_error", 5)]
    # the connection carries on
    assert await exchange(ws, '{"type": "ping", "id": 3}', 2) == [{"type": "pong", "id": 3,
                                                                   "state_id": 0}]
    await ws.close()
    logged = [r for r in caplog.records if r.name == "hearts.server.websocket"]
    assert logged and "'hint' message" in logged[0].getMessage()
    assert made["table"]["id"] in logged[0].getMessage() and logged[0].exc_info


@pytest.mark.parametrize(("body", "status", "code"), [
    (b"[" * 5000, 400, "bad_message"),
    (b'{"name": "Bob", "seat": ' + b"1" * 5000 + b"}", 400, "bad_message"),
    (b"\xff\xfe{}", 400, "bad_message"),
    (b'{"name": "\\ud800"}', 400, "bad_message"),
    (b'{"name": "Bob", "seat": true}', 400, "bad_message"),
    (b'{"name": "Bob", "seat": 1.0}', 400, "bad_message"),
    (b'{"name": ["Bob"]}', 400, "bad_message"),
    (b'{"name": "Bob", "seat": 0}', 409, "no_seat"),
    (b" " * 9000, 413, "too_large"),
])
async def test_malformed_join_bodies_are_4xx_and_change_nothing(
        server: Server, body: bytes, status: int, code: str) -> None:
    made = await new_table(server)
    before = snapshot(server)
    answer = await post(server, f"/api/tables/{made['table']['id']}/join", content=body)
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
    assert snapshot(server) == before


async def test_seat_true_is_not_seat_one(server: Server) -> None:
    made = await new_table(server)
    table_id = made["table"]["id"]
    join = f"/api/tables/{table_id}/join"
    refused = await post(server, join, json={"name": "Bob", "seat": True})
    assert refused.status_code == 400 and "seat" in refused.json()["message"]
    assert authority(server, table_id).seats[1].name is None
    with pytest.raises(RequestError, match="not True"):
        authority(server, table_id).join("Bob", "token", True)
    taken = await post(server, join, json={"name": "Bob", "seat": 1})
    assert taken.status_code == 200 and taken.json()["seat"] == 1


@pytest.mark.parametrize(("change", "code"), [
    ({"players": True}, "bad_message"),
    ({"target": True}, "bad_message"),
    ({"target": 10**60}, "bad_message"),
    ({"public": "yes"}, "bad_message"),
    ({"name": 7}, "bad_message"),
    ({"title": {"a": 1}}, "bad_message"),
    ({"options": ["moon=add"]}, "bad_message"),
    ({"preset": "standard:players=3"}, "bad_rules"),
    ({"preset": None}, "bad_message"),
])
async def test_create_checks_the_type_of_every_field(server: Server, change: dict[str, Any],
                                                     code: str) -> None:
    body = {"name": "Ann", "preset": "standard", "players": 4,
            "seats": ["human", "random", "random", "random"]} | change
    answer = await post(server, "/api/tables", json=body)
    assert (answer.status_code, answer.json()["error"]) == (400, code), answer.text
    assert snapshot(server) == []


async def test_an_internal_http_failure_is_logged_and_answered_server_error(
        server: Server, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    made = await new_table(server)

    def broken(self: TableAuthority) -> list[int]:
        raise KeyError("a bug")
    monkeypatch.setattr(TableAuthority, "free_seats", broken)
    with caplog.at_level(logging.ERROR, logger="hearts.server.routes"):
        async with server.http() as http:
            answer = await http.get(f"/api/tables/{made['table']['id']}")
    assert answer.status_code == 500 and answer.json()["error"] == "server_error"
    assert any(f"/api/tables/{made['table']['id']}" in r.getMessage() and r.exc_info
               for r in caplog.records)


async def test_a_seat_past_its_connection_limit_watches_as_a_spectator(server: Server) -> None:
    made = await new_table(server)
    limit = server.app.state.hub.config.max_seat_connections
    sockets = [await seated(server, made) for _ in range(limit)]
    try:
        extra = await connect(f"{server.ws_url}/ws/{made['table']['id']}", max_size=2**22)
        sockets.append(extra)
        await extra.send(json.dumps({"type": "hello", "token": made["token"]}))
        seen = []
        while not seen or seen[-1]["type"] != "welcome":
            seen.append(json.loads(await extra.recv()))
        assert [m["code"] for m in seen if m["type"] == "error"] == ["too_many_connections"]
        assert seen[-1]["seat"] is None and seen[-1]["view"]["hand"] == []
        seats = authority(server, made["table"]["id"]).seats
        assert seats[0].connections == limit
    finally:
        for ws in sockets:
            await ws.close()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          None])
async def test_a_body_that_does_not_say_it_is_json_opens_no_table(
        server: Server, content_type: str | None) -> None:
    """A form or text/plain needs no CORS preflight: another site could post one from a
    visitor's browser and open tables or take seats in their name."""
    made = await new_table(server)
    before = snapshot(server)
    body = json.dumps({"name": "Eve", "seats": ["human", "random", "random", "random"]})
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        headers = {} if content_type is None else {"Content-Type": content_type}
        for path in ("/api/tables", f"/api/tables/{made['table']['id']}/join"):
            answer = await http.post(path, content=body.encode(), headers=headers)
            assert answer.status_code == 415, answer.text
            assert answer.json()["error"] == "not_json"
    assert snapshot(server) == before


async def test_a_body_slower_than_its_time_is_408_and_frees_the_connection(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that promises more bytes than it sends (slowloris) once held its handler
    and connection for as long as it kept the socket open."""
    monkeypatch.setattr(protocol, "BODY_SECONDS", 0.5)
    before = snapshot(server)
    host, port = server.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                 b"\r\nContent-Length: 100\r\n\r\n{\"name\": \"Ann\"")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)  # answered, then closed
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer
    assert json.loads(body)["error"] == "too_slow"
    assert snapshot(server) == before


async def test_a_relayed_body_is_read_in_the_same_limits_of_time_and_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that relays a table's request to the process owning it read the body with
    no time limit (a slowloris held it) and cut one past 64 KiB unsaid."""
    monkeypatch.setattr(protocol, "BODY_SECONDS", 0.2)

    class OtherOwner:  # the bus's hub: the table is another process's
        bus = object()

        def __init__(self) -> None:
            self.relayed: list[bytes] = []

        async def resolve(self, table_id: str) -> str:
            return "process-b"

        async def relay_http(self, target: str, request: dict[str, Any]) -> dict[str, Any]:
            self.relayed.append(base64.b64decode(request["body"]))
            return {"status": 200, "headers": [["content-type", "application/json"]],
                    "body": base64.b64encode(b"{}").decode()}

    async def answer(*messages: dict[str, Any], then_wait: bool = False) -> tuple[int, Any]:
        hub, queue, sent = OtherOwner(), list(messages), []

        async def receive() -> dict[str, Any]:
            if queue:
                return queue.pop(0)
            if then_wait:
                await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def owner_here(*_: Any) -> None:
            raise AssertionError("the request was not relayed")

        scope = {"type": "http", "path": "/api/tables/abc/join", "method": "POST",
                 "query_string": b"", "app": SimpleNamespace(state=SimpleNamespace(hub=hub))}
        await ClusterRouting(owner_here)(scope, receive, send)
        return sent[0]["status"], json.loads(sent[1]["body"]) if sent[0]["status"] != 200 \
            else hub.relayed[-1]

    part = {"type": "http.request", "body": b'{"na', "more_body": True}
    assert (await answer(part, then_wait=True))[0] == 408
    status, said = await answer(*[part] * 3000, {"type": "http.request", "body": b"}"})
    assert (status, said["error"]) == (413, "too_large")
    assert (await answer(part))[0] == 400  # the client went away midway
    assert await answer(part, {"type": "http.request", "body": b'me": "Bo"}'}) == (
        200, b'{"name": "Bo"}')


@pytest.mark.parametrize("name", ["\u0000", "\u200b", "\u2060\ufeff", "\u202e", "\u0007\b",
                                  "\u0301\u0301", "   "], ids=repr)
async def test_a_name_no_one_can_see_takes_no_seat_and_opens_no_table(
        server: Server, name: str) -> None:
    made = await new_table(server)
    before = snapshot(server)
    joined = await post(server, f"/api/tables/{made['table']['id']}/join", json={"name": name})
    assert (joined.status_code, joined.json()["error"]) == (400, "bad_message"), joined.text
    opened = await post(server, "/api/tables",
                        json={"name": name, "seats": ["human", "random", "random", "random"]})
    assert (opened.status_code, opened.json()["error"]) == (400, "bad_message"), opened.text
    assert snapshot(server) == before


async def test_a_name_is_kept_as_shown_without_its_invisible_characters(server: Server) -> None:
    made = await new_table(server)
    joined = await post(server, f"/api/tables/{made['table']['id']}/join",
                        json={"name": " Bo\u200b\u0000  b\n"})
    assert joined.status_code == 200, joined.text
    seats = server.app.state.hub.tables[made["table"]["id"]].authority.seats
    assert seats[joined.json()["seat"]].name == "Bo b"


@pytest.mark.parametrize(("title", "shown"), [
    ("  Friday\u200b  night\n", "Friday night"), ("   ", "Ann's table"),
    ("\u202e\u0000", "Ann's table"), ("T" * 500, "T" * 60)])
async def test_a_title_is_kept_as_shown_and_one_that_shows_nothing_is_the_default(
        server: Server, title: str, shown: str) -> None:
    opened = await post(server, "/api/tables", json={
        "name": "Ann", "title": title, "seats": ["human", "random", "random", "random"]})
    assert opened.status_code == 201, opened.text
    assert opened.json()["table"]["title"] == shown


@pytest.mark.parametrize("seat", [-1, 4, 2**53])
async def test_a_seat_the_table_lacks_is_a_bad_message_not_a_taken_seat(
        server: Server, seat: int) -> None:
    made = await new_table(server)
    before = snapshot(server)
    answer = await post(server, f"/api/tables/{made['table']['id']}/join",
                        json={"name": "Bo", "seat": seat})
    assert (answer.status_code, answer.json()["error"]) == (400, "bad_message"), answer.text
    assert "seat is a seat number from 0 to 3" in answer.json()["message"]
    assert snapshot(server) == before


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("PUT", "/api/tables", 405, "method_not_allowed"),
    ("GET", "/api/replay", 405, "method_not_allowed"),
    ("GET", "/api/no-such-thing", 404, "not_found"),
])
async def test_starlettes_own_refusals_under_api_have_the_apis_error_shape(
        server: Server, method: str, path: str, status: int, code: str) -> None:
    async with server.http() as http:
        answer = await http.request(method, path)
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
    assert answer.json()["message"]
    async with server.http() as http:
        page = await http.get("/no-such-page")
    assert page.status_code == 404 and page.text == "Not Found"  # a page keeps plain text
