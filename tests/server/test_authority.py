"""The server checks every message in a fixed order, answers with typed errors, carries on."""

from __future__ import annotations

import asyncio
import json

from tests.server.conftest import Client, Server, create_table, first_action, join_table

from hearts.server import ServerConfig


async def my_turn(client: Client, phase: str | None = None, alone: bool = True) -> dict:
    """Wait for a state in which this client must act in ``phase`` (answering commitments
    with entropy, playing other phases); ``alone``: nobody else is still to act."""
    while True:
        view = client.state
        if view is not None:
            mine = view["to_act"] == [client.seat] if alone else client.seat in view["to_act"]
            if mine and (phase is None or view["phase"] == phase):
                return {"view": view, "state_id": client.state_id}
            if client.seat in view["to_act"] and phase is not None and view["phase"] != phase:
                await client.send(first_action(view, client.state_id))  # get there
                done = await ack_or_error(client)
                if done["type"] == "ack":
                    await client.expect(lambda m, at=done["state_id"]: m["type"] == "state"
                                        and m["state_id"] >= at)
                continue
        message = await client.recv(timeout=10)
        if message["type"] == "commit":
            await client.send({"type": "entropy", "value": "abc"})


async def ack_or_error(client: Client) -> dict:
    return await client.expect(lambda m: m["type"] in ("ack", "error"))


async def test_stale_state_id_is_refused_and_the_current_state_resent(server: Server) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    client = await Client.open(server, made["table"]["id"], made["token"])
    message = await my_turn(client, "play")
    action = first_action(message["view"], message["state_id"])
    assert action is not None
    await client.send(dict(action, state_id=message["state_id"] - 1, id=7))
    error = await ack_or_error(client)
    assert error["type"] == "error" and error["code"] == "stale_state" and error["id"] == 7
    resent = await client.expect(lambda m: m["type"] == "state")
    assert resent["state_id"] == message["state_id"]
    await client.send(dict(action, id=8))
    ack = await ack_or_error(client)
    assert ack == {"type": "ack", "id": 8, "state_id": message["state_id"] + 1}


async def test_a_pass_chosen_before_another_seat_passed_is_not_stale(server: Server) -> None:
    made = await create_table(server, ["human", "human", "random", "random"])
    table_id = made["table"]["id"]
    joined = await join_table(server, table_id, "Bob")
    ann = await Client.open(server, table_id, made["token"])
    bob = await Client.open(server, table_id, joined["token"])
    seen = await asyncio.gather(my_turn(ann, "pass", alone=False),
                                my_turn(bob, "pass", alone=False))
    seen_id = min(m["state_id"] for m in seen)
    ann_pass = first_action(seen[0]["view"], seen_id)
    # a pass chosen before this round's passing began (state 0: before the deal) is stale
    await ann.send(dict(ann_pass, state_id=0))
    assert (await ack_or_error(ann))["code"] == "stale_state"
    await ann.send(ann_pass)
    assert (await ack_or_error(ann))["type"] == "ack"
    # Bob chose before Ann's pass moved the table on: passing is simultaneous, not stale
    await bob.send(first_action(seen[1]["view"], seen_id))
    assert (await ack_or_error(bob))["type"] == "ack"


async def test_double_click_second_play_is_refused(server: Server) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    client = await Client.open(server, made["table"]["id"], made["token"])
    message = await my_turn(client, "play")
    action = first_action(message["view"], message["state_id"])
    assert action is not None
    await client.send(action)
    await client.send(action)
    assert (await ack_or_error(client))["type"] == "ack"
    second = await ack_or_error(client)
    assert second["type"] == "error"
    assert second["code"] in ("not_your_turn", "illegal", "stale_state")


async def test_illegal_card_names_the_legal_ones_and_changes_nothing(server: Server) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    client = await Client.open(server, made["table"]["id"], made["token"])
    message = await my_turn(client, "play")
    view = message["view"]
    illegal = next((c for c in view["hand"] if c not in view["legal"]), None)
    not_mine = next(c for c in ("2C", "AS", "QS", "AH", "KD") if c not in view["hand"])
    for card in filter(None, (illegal, not_mine)):
        await client.send({"type": "play", "card": card, "state_id": message["state_id"]})
        error = await ack_or_error(client)
        assert error["code"] == "illegal", error
        assert card in error["message"]
        assert error["state_id"] == message["state_id"]
    await client.send({"type": "play", "card": "ZZ", "state_id": message["state_id"]})
    error = await ack_or_error(client)
    assert error["code"] == "illegal" and "not a card" in error["message"]
    await client.send(first_action(view, message["state_id"]))
    assert (await ack_or_error(client))["type"] == "ack"


async def test_not_your_turn_and_spectators_cannot_act(server: Server) -> None:
    made = await create_table(server, ["human", "human", "random", "random"])
    table_id = made["table"]["id"]
    joined = await join_table(server, table_id, "Bob")
    ann = await Client.open(server, table_id, made["token"])
    bob = await Client.open(server, table_id, joined["token"])
    watcher = await Client.open(server, table_id, None)
    assert watcher.seat is None
    both = await asyncio.gather(my_turn(ann, "pass", alone=False),
                                my_turn(bob, "pass", alone=False))
    for client, message in zip((ann, bob), both, strict=True):
        await client.send(first_action(message["view"], message["state_id"]))
        result = await ack_or_error(client)
        while result["type"] == "error":  # another pass got in first: retry, newer id
            assert result["code"] == "stale_state"
            await client.send(first_action(message["view"], result["state_id"]))
            result = await ack_or_error(client)
    # In play exactly one seat is to act; the other is refused.
    message = await ann.expect(lambda m: m["type"] == "state" and m["view"]["phase"] == "play"
                               and m["state_id"] == ann.state_id
                               and m["view"]["to_act"][0] in (0, 1), timeout=10)
    idle = bob if message["view"]["to_act"] == [ann.seat] else ann
    await idle.send({"type": "play", "card": "2C", "state_id": idle.state_id})
    error = await ack_or_error(idle)
    assert error["code"] == "not_your_turn"
    await watcher.send({"type": "play", "card": "2C", "state_id": watcher.state_id})
    assert (await ack_or_error(watcher))["code"] == "not_seated"


async def test_a_wrong_token_watches_and_cannot_act(server: Server) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    client = await Client.open(server, made["table"]["id"], "not-the-token")
    assert client.seat is None
    assert any(m.get("code") == "bad_token" for m in client.received)
    await client.send({"type": "pass", "cards": ["2C", "3C", "4C"], "state_id": 1})
    assert (await ack_or_error(client))["code"] == "not_seated"


async def test_bad_messages_get_errors_and_the_connection_carries_on(server: Server) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    table_id = made["table"]["id"]
    raw = await Client.open(server, table_id, None)
    cases = [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"kind": "play"}), "unknown_type"),
        (json.dumps({"type": "play", "card": "QS"}), "bad_message"),
        (json.dumps({"type": "play", "card": 5, "state_id": 1}), "bad_message"),
        (json.dumps({"type": "pass", "cards": [1, 2, 3], "state_id": 1}), "bad_message"),
        (json.dumps({"type": "play", "card": "QS", "state_id": True}), "bad_message"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
    ]
    for text, code in cases:
        await raw.send(text)
        error = await ack_or_error(raw)
        assert error["code"] == code, (text[:40], error)
    await raw.send({"type": "ping", "id": "still-here"})
    pong = await raw.expect(lambda m: m["type"] == "pong")
    assert pong["id"] == "still-here"


async def test_hello_comes_first(server: Server) -> None:
    from websockets.asyncio.client import connect

    made = await create_table(server, ["human", "random", "random", "random"])
    async with connect(f"{server.ws_url}/ws/{made['table']['id']}") as ws:
        await ws.send(json.dumps({"type": "ping"}))
        error = json.loads(await ws.recv())
        assert error["code"] == "hello_first"
    async with connect(f"{server.ws_url}/ws/nosuchtable") as ws:
        assert json.loads(await ws.recv())["code"] == "no_table"


async def test_a_flood_is_rate_limited_and_the_table_carries_on(server: Server,
                                                                server_config: ServerConfig
                                                                ) -> None:
    made = await create_table(server, ["human", "random", "random", "random"])
    client = await Client.open(server, made["table"]["id"], made["token"])
    for i in range(1000):
        await client.send({"type": "ping", "id": i})
    pongs, limited = 0, 0
    while True:
        try:
            message = await client.recv(timeout=1.0)
        except TimeoutError:
            break
        pongs += message["type"] == "pong"
        limited += message.get("code") == "rate_limited"
    # the hello took one token; a few refill while the flood arrives
    assert server_config.rate_burst - 1 <= pongs < server_config.rate_burst + 200
    assert 1 <= limited <= 3  # one notice a second, not one per dropped message
    await asyncio.sleep(1.0)
    message = await my_turn(client)
    await client.send(first_action(message["view"], message["state_id"]))
    assert (await ack_or_error(client))["type"] == "ack"


async def test_game_over_refuses_actions_and_the_record_downloads(server: Server) -> None:
    from tests.server.conftest import autoplay

    made = await create_table(server, ["human", "random", "random", "random"], target=10)
    table_id = made["table"]["id"]
    async with server.http() as http:
        early = await http.get(f"/api/tables/{table_id}/record")
    assert early.status_code == 409
    client = await Client.open(server, table_id, made["token"])
    await asyncio.wait_for(autoplay(client), 60)
    await client.send({"type": "play", "card": "2C", "state_id": client.state_id})
    assert (await ack_or_error(client))["code"] == "game_over"
    async with server.http() as http:
        record = await http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    assert record.json()["complete"] is True
