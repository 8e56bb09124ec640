"""A player's history through the real server: whole games played over websockets, each
seat linked to a private player key at create or join, and ``POST /api/me`` answering
that key's finished games and statistics, checked against :mod:`hearts.stats` over the
records downloaded from the tables themselves. Another key sees nothing; a bad key is
refused with a typed error and changes nothing; the store holds the key's digest only."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import Client, Server, create_table, play_together

from hearts.server import player_routes
from hearts.server.player_routes import MAX_HISTORIES
from hearts.stats import game_line, player_stats


def new_key() -> str:
    """A key as the browser makes one (24 random bytes, URL-safe base64)."""
    return secrets.token_urlsafe(24)


async def join(server: Server, table_id: str, name: str, key: str) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.post(f"/api/tables/{table_id}/join",
                                   json={"name": name, "player_key": key})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def history(server: Server, key: Any) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.post("/api/me", json={"player_key": key})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def record_of(server: Server, table_id: str) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200, response.text
    return dict(response.json())


async def play_out(server: Server, table_id: str, tokens: list[str]) -> dict[str, Any]:
    """Every person at the table plays the lowest legal cards until the game is over;
    returns the table's downloaded record."""
    clients = [await Client.open(server, table_id, token) for token in tokens]
    await play_together(server, table_id, clients)
    for client in clients:
        await client.close()
    return await record_of(server, table_id)


def as_me(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record with the seat the test knows a key sat in named "me" (the others get
    names of their own), so that ``hearts.stats`` finds that seat by name."""
    names = [f"other {s + 1}" for s in range(len(record["seats"]))]
    names[seat] = "me"
    return record | {"seats": names}


def expected_stats(records_and_seats: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    figures = player_stats([as_me(record, seat) for record, seat in records_and_seats], "me")
    return {preset: stats.to_json() for preset, stats in figures.items()}


async def test_a_keys_games_and_statistics_match_the_records(server: Server,
                                                             tmp_path: Path) -> None:
    ann, other_ann, stranger = new_key(), new_key(), new_key()

    # Game 1: Ann alone against computers, standard rules.
    first = await create_table(server, ["human", "random", "random", "random"], name="Ann",
                               preset="standard", target=1, player_key=ann)
    first_id = first["table"]["id"]
    first_record = await play_out(server, first_id, [first["token"]])

    # Game 2: another person, also called Ann, makes a table and Ann joins it: names repeat,
    # the keys tell the seats apart. (Played again, a few times at most, until the two
    # seats' figures differ, so that taking one seat for the other shows.)
    shared: list[tuple[str, dict[str, Any]]] = []
    while len(shared) < 3:
        second = await create_table(server, ["human", "human", "random", "random"],
                                    name="Ann", target=1, player_key=other_ann)
        second_id = second["table"]["id"]
        joined = await join(server, second_id, "Ann", ann)
        assert joined["seat"] == 1
        second_record = await play_out(server, second_id, [second["token"], joined["token"]])
        assert second_record["seats"][:2] == ["Ann", "Ann"]
        shared.insert(0, (second_id, second_record))
        if game_line(as_me(second_record, 0), "me") != game_line(as_me(second_record, 1), "me"):
            break

    # Game 3 has not started (a seat is free): it is listed to go back to, not counted.
    waiting = await create_table(server, ["human", "human", "random", "random"], name="Ann",
                                 title="Ann's second try", player_key=ann)

    mine = await history(server, ann)
    newest_first = [*shared, (first_id, first_record)]
    assert [g["table"] for g in mine["games"]] == [t for t, _ in newest_first]
    assert [g["seat"] for g in mine["games"]] == [1] * len(shared) + [0]
    for game, (_, record) in zip(mine["games"], newest_first, strict=True):
        seat = game["seat"]
        assert game["won"] == (seat in record["winners"])
        assert game["points"] == record["totals"][seat]
        assert game["totals"] == record["totals"] and game["names"] == record["seats"]
        assert game["hands"] == len(record["rounds"])
        assert game["record"] == f"/api/tables/{game['table']}/record"
        assert game["replay"] == f"/replay?table={game['table']}"
    stats = {s["preset"]: s for s in mine["stats"]}
    assert stats == expected_stats([(r, 1) for _, r in shared] + [(first_record, 0)])
    assert set(stats) == {"standard", "card-commons"}
    assert stats["standard"]["games"] == 1 and stats["card-commons"]["games"] == len(shared)
    # ... by its title, so that a player who left several can tell them apart
    assert [(p["table"], p["title"]) for p in mine["playing"]] == [
        (waiting["table"]["id"], "Ann's second try")]

    theirs = await history(server, other_ann)
    assert [(g["table"], g["seat"]) for g in theirs["games"]] == [(t, 0) for t, _ in shared]
    assert {s["preset"]: s for s in theirs["stats"]} == expected_stats(
        [(r, 0) for _, r in shared])

    nobody = await history(server, stranger)
    assert nobody["games"] == nobody["stats"] == nobody["playing"] == []

    # The store holds each key's digest and never the key itself.
    database = tmp_path / "hearts.db"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        digests = {row[0] for row in db.execute("SELECT key_digest FROM player_games")}
    assert digests == {hashlib.sha256(k.encode()).hexdigest() for k in (ann, other_ann)}
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("hearts.db*"))
    assert hashlib.sha256(ann.encode()).hexdigest().encode() in stored
    assert ann.encode() not in stored and other_ann.encode() not in stored


@pytest.mark.parametrize("key", ["short", "x" * 129, "has spaces in it, twenty-two+", 12345,
                                 ["a" * 30], "ä" * 30, "a/b" * 10])
async def test_a_bad_key_is_refused_and_changes_nothing(server: Server, key: Any) -> None:
    async with server.http() as http:
        before = len(server.app.state.hub.tables)
        made = await http.post("/api/tables", json={
            "name": "Ann", "players": 4, "seats": ["human", "human", "random", "random"],
            "player_key": key})
        assert made.status_code == 400
        assert made.json()["error"] == "bad_message"
        assert "22 to 128 characters" in made.json()["message"]
        assert len(server.app.state.hub.tables) == before  # no table was made

        table = await create_table(server, ["human", "human", "random", "random"])
        table_id = table["table"]["id"]
        refused = await http.post(f"/api/tables/{table_id}/join",
                                  json={"name": "Bob", "player_key": key})
        assert refused.status_code == 400 and refused.json()["error"] == "bad_message"
        info = (await http.get(f"/api/tables/{table_id}")).json()
        assert info["free"] == [1]  # the seat is still free

        asked = await http.post("/api/me", json={"player_key": key})
        assert asked.status_code == 400 and asked.json()["error"] == "bad_message"
        assert "22 to 128 characters" in asked.json()["message"]


async def test_the_history_needs_a_key_in_the_body(server: Server) -> None:
    async with server.http() as http:
        missing = await http.post("/api/me", json={})
        assert missing.status_code == 400 and missing.json()["error"] == "bad_message"
        assert "player_key" in missing.json()["message"]
        not_json = await http.post("/api/me", content=b"player_key=abc")
        assert not_json.status_code == 400 and not_json.json()["error"] == "bad_message"
        huge = await http.post("/api/me", json={"player_key": "k" * 5000})
        assert huge.status_code == 413 and huge.json()["error"] == "too_large"
        # The key never goes in a URL: the history is not a GET.
        assert (await http.get("/api/me")).status_code == 405
        page = await http.get("/me")
        assert page.status_code == 200 and "Your player key" in page.text


async def test_a_table_made_without_a_key_is_nobodys(server: Server) -> None:
    key = new_key()
    table = await create_table(server, ["human", "random", "random", "random"], target=1)
    await play_out(server, table["table"]["id"], [table["token"]])
    assert (await history(server, key))["games"] == []


async def test_a_finished_table_not_in_memory_is_rebuilt_from_its_log(server: Server) -> None:
    """With several servers a finished table may live in another's memory, or in none:
    its game is then rebuilt from the stored events."""
    key = new_key()
    table = await create_table(server, ["human", "random", "random", "random"], target=1,
                               player_key=key)
    table_id = table["table"]["id"]
    record = await play_out(server, table_id, [table["token"]])
    server.app.state.hub.tables.pop(table_id)
    mine = await history(server, key)
    assert [g["table"] for g in mine["games"]] == [table_id]
    assert mine["games"][0]["totals"] == record["totals"]
    assert {s["preset"]: s for s in mine["stats"]} == expected_stats([(record, 0)])


async def test_pages_are_worked_out_a_few_at_a_time(server: Server) -> None:
    """Building a page holds the GIL in a worker thread: with every slot busy, one more
    asker is told to come back (503 ``busy`` with ``Retry-After``), and served after."""
    key = new_key()
    with contextlib.ExitStack() as taken:
        for _ in range(MAX_HISTORIES):
            taken.enter_context(player_routes._HISTORY_SLOTS.held())
        async with server.http() as http:
            busy = await http.post("/api/me", json={"player_key": key})
    assert busy.status_code == 503 and busy.json()["error"] == "busy"
    assert int(busy.headers["Retry-After"]) > 0
    assert (await history(server, key))["games"] == []
