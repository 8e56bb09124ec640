"""Three ``hearts serve`` processes on PostgreSQL and Redis serve one table together."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from tests.cluster.conftest import Node
from tests.cluster.real_servers import REDIS, needs_servers
from tests.server.conftest import Client, autoplay, create_table, join_table, play_together
from tests.server.test_secrecy import cards_in, may_know, message_state_id, states_by_id

from hearts.core import CardSet, Deal, PassCards, Play, Rules, new_game, replay_game

Cluster = Callable[[int], Awaitable[list[Node]]]

pytestmark = needs_servers


async def test_clients_on_three_processes_play_a_whole_game(cluster: Cluster) -> None:
    first, second, third = await cluster(3)
    made = await create_table(first.server, ["human", "human", "human", "random"], target=30)
    table_id = made["table"]["id"]
    # joining through the other processes: they ask the table's owner
    bob = await join_table(second.server, table_id, "Bob")
    cy = await join_table(third.server, table_id, "Cy")
    assert (bob["seat"], cy["seat"]) == (1, 2)
    players = [await Client.open(first.server, table_id, made["token"]),
               await Client.open(second.server, table_id, bob["token"]),
               await Client.open(third.server, table_id, cy["token"])]
    watcher = await Client.open(third.server, table_id, None)
    await play_together(first.server, table_id, players)
    await watcher.settle()
    async with third.server.http() as http:
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
    final = replay_game(record)
    assert final.is_over
    for client in (*players, watcher):
        assert client.state is not None and client.state["phase"] == "over"
        assert client.state_id == players[0].state_id


def acted_at(record: dict[str, Any]) -> dict[tuple[int, str, tuple[str, ...]], range]:
    """Each game action of a record, (seat, kind and round, cards), with the state ids it may have
    made: a play exactly one; a pass, any of its round's passes (they are simultaneous:
    the record does not say in which order they came)."""
    rules = Rules.parse(record["rules"])
    state = new_game(rules, None)
    state_id = 0
    made: dict[tuple[int, str, tuple[str, ...]], range] = {}
    for number, entry in enumerate(record["rounds"]):
        state = state.apply(Deal(tuple(CardSet(h) for h in entry["hands"]), entry["deal_seed"]))
        state_id += 1
        passes = [(seat, cards) for seat, cards in enumerate(entry["passes"] or [])
                  if cards is not None]
        block = range(state_id + 1, state_id + len(passes) + 1)
        for seat, cards in passes:
            state = state.apply(PassCards(seat, CardSet(cards)))
            made[(seat, f"pass{number}", tuple(sorted(cards)))] = block
        state_id += len(passes)
        for name in entry["plays"]:
            seat = state.turn
            state = state.apply(Play(seat, next(iter(CardSet([name])))))
            state_id += 1
            made[(seat, f"play{number}", (name,))] = range(state_id, state_id + 1)
    return made


async def test_killing_the_owner_mid_trick_loses_no_acknowledged_action(
        cluster: Cluster) -> None:
    first, second, third = await cluster(3)
    made = await create_table(first.server, ["human", "human", "random", "random"],
                              target=30)
    table_id = made["table"]["id"]
    bob = await join_table(third.server, table_id, "Bob")
    ann_client = await Client.open(second.server, table_id, made["token"])
    bob_client = await Client.open(third.server, table_id, bob["token"])
    sent: dict[tuple[int, int], dict[str, Any]] = {}
    for client in (ann_client, bob_client):
        record_sends(client, sent)

    def mid_trick(view: dict[str, Any]) -> bool:
        """The fourth trick of the round or later, with cards on the table, Ann to play."""
        return (view["phase"] == "play" and len(view["tricks"]) >= 3 and
                len(view["trick"]) > 0 and view["to_act"] == [0])

    await play_together(second.server, table_id, [autoplay(ann_client, until=mid_trick),
                                                  autoplay(bob_client, until=mid_trick)], 60)
    acked_before = acknowledged(ann_client, sent) + acknowledged(bob_client, sent)
    assert len(acked_before) > 5
    # autoplay numbers its requests from 1 again: read later acks against later sends
    marks = [len(ann_client.received), len(bob_client.received)]
    first.kill()
    await play_together(second.server, table_id, [ann_client, bob_client], 90)
    async with second.server.http() as http:
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
    assert replay_game(record).is_over
    actions = acted_at(record)
    acked = (acked_before + acknowledged(ann_client, sent, marks[0])
             + acknowledged(bob_client, sent, marks[1]))
    # every acknowledged action is in the record, at the state id its ack gave ...
    for state_id, seat, kind, cards in acked:
        in_round = f"{kind}{round_of(record, state_id)}"
        assert state_id in actions[(seat, in_round, cards)], (state_id, seat, kind, cards)
    # ... and every action of the two people in the record was acknowledged once
    assert len(acked) == len({(i, s) for i, s, _, _ in acked})
    assert len(acked) == sum(1 for seat, _, _ in actions if seat in (0, 1))
    for client in (ann_client, bob_client):  # both clients were welcomed again elsewhere
        assert sum(m["type"] == "welcome" for m in client.received) >= 2


def round_of(record: dict[str, Any], state_id: int) -> int:
    """The index of the round a state id falls in (each round: deal, passes, plays)."""
    end = 0
    for number, entry in enumerate(record["rounds"]):
        end += 1 + sum(p is not None for p in entry["passes"] or []) + len(entry["plays"])
        if state_id <= end:
            return number
    raise AssertionError(f"state {state_id} is past the record's end")


def record_sends(client: Client, sent: dict[tuple[int, int], dict[str, Any]]) -> None:
    """Keep every action a client sends, by (its seat, the request id)."""
    send = client.send

    async def keeping(data: dict[str, Any] | str) -> None:
        if isinstance(data, dict) and "id" in data and data["type"] in ("pass", "play"):
            sent[(client.seat or 0, data["id"])] = data
        await send(data)
    client.send = keeping  # type: ignore[method-assign]


def acknowledged(client: Client, sent: dict[tuple[int, int], dict[str, Any]], since: int = 0
                 ) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """(state id, seat, kind, cards) of each action the server acknowledged to a client
    (in the messages from number ``since`` on)."""
    found = []
    for message in client.received[since:]:
        if message["type"] == "ack" and (client.seat, message.get("id")) in sent:
            action = sent[(client.seat or 0, message["id"])]
            cards = tuple(sorted(action["cards"])) if action["type"] == "pass" else (
                action["card"],)
            found.append((message["state_id"], client.seat or 0, action["type"], cards))
    return found


async def test_no_client_of_any_process_receives_a_card_it_may_not_see(
        cluster: Cluster) -> None:
    """The secrecy test of ``tests/server/test_secrecy.py``, with the table's connections
    spread over three processes: relayed messages are the owner's, seat by seat."""
    first, second, third = await cluster(3)
    made = await create_table(first.server, ["human", "random", "human", "random"],
                              target=30)
    table_id = made["table"]["id"]
    joined = await join_table(second.server, table_id, "Bob")
    watchers = [await Client.open(node.server, table_id, None) for node in (second, third)]
    ann = await Client.open(third.server, table_id, made["token"])
    ann_again = await Client.open(first.server, table_id, made["token"])  # a second tab
    bob = await Client.open(second.server, table_id, joined["token"])
    # Ann asks for hints through the relay: they name cards too, which must be her own.
    await play_together(first.server, table_id, [autoplay(ann, hints=True), bob])
    for client in (*watchers, ann_again):
        await client.settle(0.3)
    async with third.server.http() as http:
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
    assert replay_game(record).is_over
    states = states_by_id(record)
    checked = 0
    for client in (*watchers, ann, ann_again, bob):
        last = 0
        assert client.received, "every connection heard the game"
        for message in client.received:
            last = message_state_id(message, last)
            leaked = cards_in(message) - may_know(message, states[last], client)
            assert not leaked, (client.seat, last, message["type"], leaked)
            checked += len(cards_in(message))
    assert any(m["type"] == "hint" for m in ann.received)
    assert checked > 2000  # the check looked at real traffic, hands included


async def test_one_process_on_postgres_keeps_its_tables_across_a_restart(
        database: str, tmp_path: Path) -> None:
    """PostgreSQL without a bus: one process, as with SQLite; a restart replays the table."""
    node = Node(database, tmp_path / "alone.log", bus=False)
    try:
        await node.ready()
        made = await create_table(node.server, ["human", "random", "random", "random"],
                                  target=30)
        table_id = made["table"]["id"]
        ann = await Client.open(node.server, table_id, made["token"])
        # stopped where the game waits for Ann: nothing moves while the process is down
        await asyncio.wait_for(autoplay(ann, until=lambda v: len(v["tricks"]) >= 5
                                        and v["to_act"] == [0]), 60)
        before = ann.state_id
        await ann.close()
    finally:
        node.stop()
    again = Node(database, tmp_path / "again.log", bus=False)
    try:
        await again.ready()
        ann = await Client.open(again.server, table_id, made["token"])
        assert ann.state_id == before and ann.state is not None
        assert len(ann.state["tricks"]) >= 5
        await asyncio.wait_for(autoplay(ann), 90)
        assert ann.state["phase"] == "over"
    finally:
        again.stop()


async def test_a_route_tag_names_the_process_that_owns_the_table(
        database: str, tmp_path: Path) -> None:
    """``--route-tag``: the ids of a process's new tables begin with its tag, and that
    process holds their lease, so a proxy routing by the tag spares the relay; a client
    that reaches another process is still relayed and plays the game out."""
    nodes = [Node(database, tmp_path / f"tag-{tag}.log", route_tag=tag) for tag in ("a", "b")]
    bus = Redis.from_url(REDIS, decode_responses=True)
    try:
        await asyncio.gather(*(node.ready() for node in nodes))
        for tag, node, other in (("a", *nodes), ("b", *reversed(nodes))):
            made = await create_table(node.server, ["human", "random", "random", "random"],
                                      target=10)
            table_id = made["table"]["id"]
            assert table_id.startswith(f"{tag}."), table_id
            found = re.search(r"as node (\S+) of the cluster", node.log.read_text())
            assert found is not None, node.log.read_text()
            for _ in range(100):
                holder = await bus.get(f"hearts:lease:{table_id}")
                if holder is not None:
                    break
                await asyncio.sleep(0.05)
            assert holder == found.group(1)
            ann = await Client.open(other.server, table_id, made["token"])
            await asyncio.wait_for(autoplay(ann), 90)
            assert ann.state is not None and ann.state["phase"] == "over"
            await ann.close()
    finally:
        await bus.aclose()
        for node in nodes:
            node.stop()


def test_a_route_tag_is_checked_and_needs_a_bus(tmp_path: Path) -> None:
    hearts = [sys.executable, "-m", "hearts.cli.main", "serve", "--db", str(tmp_path / "x.db")]
    bad = subprocess.run([*hearts, "--route-tag", "Node_1", "--bus", REDIS],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "1-16 lowercase letters and digits" in bad.stderr
    alone = subprocess.run([*hearts, "--route-tag", "n1"], capture_output=True, text=True,
                           timeout=60)
    assert alone.returncode != 0 and "give --bus too" in alone.stderr
