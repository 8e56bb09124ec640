"""Whole games through the server: commitments before each deal, reveals after each
round, the downloaded record verifies offline and replays."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.server.conftest import FAST, Client, Server, create_table, join_table, play_together

from hearts.core import commitment, replay_game, verify_record
from hearts.server import ServerConfig


@pytest.fixture
def server_config() -> ServerConfig:
    """The dealer waits for both people's entropy however slow the machine (it deals at
    once when both have sent it), so every round's entropy is theirs."""
    return dataclasses.replace(FAST, entropy_timeout_s=60.0)


async def test_two_people_play_a_whole_game_and_every_deal_verifies(server: Server,
                                                                   tmp_path: Path) -> None:
    made = await create_table(server, ["human", "normal", "human", "easy"], target=50,
                              preset="standard")
    table_id = made["table"]["id"]
    bob_token = (await join_table(server, table_id, "Bob"))["token"]
    ann = await Client.open(server, table_id, made["token"])
    bob = await Client.open(server, table_id, bob_token)
    await play_together(server, table_id, [ann, bob])
    await asyncio.gather(ann.settle(), bob.settle())
    assert ann.state["phase"] == "over" and ann.state["winners"]
    async with server.http() as http:
        response = await http.get(f"/api/tables/{table_id}/record")
    record = response.json()
    assert record["seats"][0] == "Ann" and record["seats"][2] == "Bob"
    assert replay_game(record).totals == tuple(record["totals"])
    assert all(check.ok for check in verify_record(record))

    # What the clients were told matches the record, in the right order.
    commits = {m["round"]: m["commitment"] for m in ann.received if m["type"] == "commit"}
    reveals = {m["round"]: m for m in ann.received if m["type"] == "reveal"}
    rounds = record["rounds"]
    assert sorted(reveals) == list(range(1, len(rounds) + 1))
    for number, entry in enumerate(rounds, start=1):
        fair = entry["fairness"]
        assert commitment(fair["server_seed"]) == fair["commitment"]
        assert reveals[number]["server_seed"] == fair["server_seed"]
        assert reveals[number]["deal_seed"] == entry["deal_seed"]
        assert sorted(fair["entropy"]) == [f"e0x{number}", f"e2x{number}"]
        if number in commits:
            assert commits[number] == fair["commitment"]
    order = [(m["type"], m.get("round", m.get("view", {}).get("round"))) for m in ann.received
             if m["type"] in ("commit", "reveal")
             or (m["type"] == "state" and m["view"]["hand"])]
    for number in commits:
        first_cards = order.index(next(o for o in order if o == ("state", number)))
        assert order.index(("commit", number)) < first_cards
        assert order.index(("reveal", number)) > first_cards

    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "hearts.cli.main", "verify", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(rounds)} of {len(rounds)} deals verified" in done.stdout
