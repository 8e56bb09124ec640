"""A player who drops keeps the seat for a grace period, then a computer stands in until
they come back with their token; nobody waits on a leaver."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from tests.server.conftest import FAST, Client, Server, autoplay, create_table, join_table

from hearts.server import ServerConfig


@pytest.fixture
def server_config() -> ServerConfig:
    return dataclasses.replace(FAST, grace_s=0.5)


async def test_a_leaver_is_replaced_after_the_grace_period_and_returns(server: Server) -> None:
    made = await create_table(server, ["human", "human", "random", "random"])
    table_id = made["table"]["id"]
    bob_token = (await join_table(server, table_id, "Bob"))["token"]
    ann = await Client.open(server, table_id, made["token"])
    bob = await Client.open(server, table_id, bob_token)
    await asyncio.gather(autoplay(ann, until=lambda v: v["phase"] == "play"),
                         autoplay(bob, until=lambda v: v["phase"] == "play"))
    await bob.close()
    # Within the grace period Bob's seat is his: shown as disconnected, not away.
    seats = await ann.expect(lambda m: m["type"] == "table"
                             and not m["table"]["seats"][1]["connected"])
    assert seats["table"]["seats"][1]["away"] is False
    # Then a computer stands in and the game goes on without him.
    away = await ann.expect(lambda m: m["type"] == "table" and m["table"]["seats"][1]["away"],
                            timeout=3)
    assert away["table"]["seats"][1]["connected"] is False
    # Ann plays on alone for two whole rounds' worth of turns: Bob's seat never stalls it.
    start_round = ann.state["round"]
    await autoplay(ann, until=lambda v: v["round"] >= start_round + 1 and v["phase"] == "play")
    # Bob comes back with his token and has his seat again, in the current state.
    bob = await Client.open(server, table_id, bob_token)
    assert bob.seat == 1 and bob.state["round"] >= start_round + 1
    back = await ann.expect(lambda m: m["type"] == "table"
                            and m["table"]["seats"][1]["connected"], timeout=3)
    assert back["table"]["seats"][1]["away"] is False
    # Once it is Bob's turn the table waits for him again (no computer plays his seat).
    await ann.settle()
    await autoplay(ann, until=lambda v: 1 in v["to_act"] and v["phase"] == "play")
    waited_at = ann.state_id
    await asyncio.sleep(1.0)
    await bob.settle()
    assert bob.state_id == waited_at and 1 in bob.state["to_act"]
    assert await autoplay(bob, max_actions=1) == 1


async def test_nobody_waits_for_a_seat_that_never_connects(server: Server) -> None:
    made = await create_table(server, ["human", "human", "random", "random"])
    table_id = made["table"]["id"]
    await join_table(server, table_id, "Ghost")  # takes the seat, never connects
    ann = await Client.open(server, table_id, made["token"])
    await asyncio.wait_for(autoplay(ann, until=lambda v: v["round"] >= 2), 30)


async def test_the_tables_creator_starts_it_and_a_friend_only_while_they_are_away(
        server: Server) -> None:
    """Any seated friend could start the table with computers before the others came."""
    made = await create_table(server, ["human", "human", "human", "random"])
    table_id = made["table"]["id"]
    ann = await Client.open(server, table_id, made["token"])
    bo = await Client.open(server, table_id, (await join_table(server, table_id, "Bo"))["token"])
    assert bo.received[0]["table"]["may_start"] == [0]  # its welcome
    await bo.send({"type": "start"})
    refused = await bo.expect(lambda m: m["type"] == "error")
    assert refused["code"] == "not_creator"
    assert refused["message"].startswith("Ann, who made this table, starts it")
    await ann.close()  # the creator leaves: the friend may start
    seen = await bo.expect(lambda m: m["type"] == "table" and not m["table"]["seats"][0][
        "connected"])
    assert seen["table"]["may_start"] == [0, 1]
    await bo.send({"type": "start"})
    started = await bo.expect(lambda m: m["type"] == "table" and m["table"]["started"])
    assert started["table"]["may_start"] == []
    assert [s["kind"] for s in started["table"]["seats"]][2] == "random"


async def test_start_now_fills_free_seats_with_computers(server: Server) -> None:
    made = await create_table(server, ["human", "human", "human", "random"])
    ann = await Client.open(server, made["table"]["id"], made["token"])
    assert ann.state["phase"] == "deal" and not ann.received[0]["table"]["started"]
    await ann.send({"type": "start"})
    started = await ann.expect(lambda m: m["type"] == "table" and m["table"]["started"])
    assert [s["kind"] for s in started["table"]["seats"]] == ["human", "random", "random",
                                                               "random"]
    await asyncio.wait_for(autoplay(ann, until=lambda v: v["phase"] == "play"), 10)
