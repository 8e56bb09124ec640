"""Duplicate challenges through the real server: made, played at challenge tables through
the hub to the end, on one leaderboard with results played elsewhere (the terminal's
records); forged, malformed and unfinished records refused with the reason; bad codes.

Runs against a real server (``tests/server/conftest.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.server.conftest import FAST, Client, Server, first_action, start_server

import hearts.challenge
from hearts.challenge import Challenge, check_entry
from hearts.core import NAME_LENGTH, game_record, replay_record, verify_record
from hearts.players import make_player
from hearts.players.driver import run_game
from hearts.server import challenge_routes
from hearts.server.challenge_routes import MAX_CHECKS
from hearts.server.player_routes import key_digest
from hearts.server.replay_routes import MAX_RECORD_BYTES
from hearts.server.settings import TableSettings

# Few sampled worlds a decision keep the searching opponents quick on a busy machine; the
# code carries the number, so every check repeats it.
QUICK = Challenge.create("card-commons", ["easy", "hard", "normal"], deals=2, seed="samecards",
                         iterations=20)

Pick = Callable[[list[str]], list[str]]


def lowest(legal: list[str]) -> list[str]:
    return legal


def highest(legal: list[str]) -> list[str]:
    return legal[::-1]


async def play_out(client: Client, pick: Pick = lowest, idle_s: float = 60.0) -> None:
    """Act whenever it is the client's turn (cards chosen from ``pick(legal)``) until the
    game is over."""
    acted: set[int] = set()
    while True:
        message = await client.recv(timeout=idle_s)
        if message["type"] == "error":
            acted.clear()  # refused (stale): act again on the current state
        view = client.state
        if view is None or client.state_id in acted:
            continue
        if view["phase"] == "over":
            return
        action = first_action(dict(view, legal=pick(view["legal"])), client.state_id)
        if action is not None:
            acted.add(client.state_id)
            await client.send(action)


async def play_challenge(server: Server, code: str, name: str, pick: Pick = lowest,
                         **extra: Any) -> dict[str, Any]:
    """Open a challenge table, play it to the end; its answer and its record."""
    async with server.http() as http:
        answer = await http.post(f"/api/challenges/{code}/play", json={"name": name, **extra})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    client = await Client.open(server, made["table"]["id"], made["token"])
    await asyncio.wait_for(play_out(client, pick), 240)
    await client.close()
    async with server.http() as http:
        record = (await http.get(f"/api/tables/{made['table']['id']}/record")).json()
    return {"answer": made, "record": record}


async def board_of(server: Server, code: str, entries: int) -> dict[str, Any]:
    """The challenge's board once it holds ``entries`` results (a table's result is
    checked after its game is over)."""
    async with server.http() as http:
        for _ in range(240):
            answer = await http.get(f"/api/challenges/{code}")
            assert answer.status_code == 200, answer.text
            data: dict[str, Any] = answer.json()
            if len(data["leaderboard"]) >= entries:
                return data
            await asyncio.sleep(0.25)
    raise AssertionError(f"the board never held {entries} results: {data}")


def terminal_record(challenge: Challenge, name: str, level: str = "easy", seed: str = "me",
                    deals: int | None = None) -> dict[str, Any]:
    """A challenge played as the terminal plays it (``deals``: only so many): the
    challenge's game, its computers, the person (a computer player standing for one) in
    seat 1."""
    seats = [make_player(level, seed),
             *(challenge.computer(s) for s in range(1, challenge.players))]
    final = run_game(challenge.new_game(), seats,
                     stop=None if deals is None else lambda state: len(state.results) >= deals)
    return game_record(final, [name, *(f"Computer {s + 1}" for s in range(1, challenge.players))])


async def post_entry(server: Server, code: str, body: Any) -> Any:
    async with server.http() as http:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return await http.post(f"/api/challenges/{code}/entries", content=content,
                               timeout=120)


# ---------------------------------------------------------------------- making one
async def test_a_challenge_is_made_from_preset_opponents_deals_and_seed(server: Server) -> None:
    spec = {"preset": "standard", "opponents": ["normal", "expert", "easy"], "deals": 3,
            "seed": "k3y"}
    async with server.http() as http:
        made = await http.post("/api/challenges", json=spec)
        again = await http.post("/api/challenges", json=spec)
        drawn = [await http.post("/api/challenges", json=dict(spec, seed="")) for _ in range(2)]
        options = await http.get("/api/challenges")
        page = await http.get(made.json()["url"])
        info = await http.get(f"/api/challenges/{made.json()['code']}")
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert made.json()["url"] == f"/c/{code}"
    assert Challenge.parse(code) == Challenge.create("standard", ["normal", "expert", "easy"],
                                                     3, "k3y")
    # the same four make the same challenge: found again, not made twice
    assert again.status_code == 200 and again.json()["code"] == code
    # no seed: one is drawn, a different one each time
    assert [d.status_code for d in drawn] == [201, 201]
    assert len({d.json()["code"] for d in drawn} | {code}) == 3
    assert options.json()["max_deals"] >= 3 and "expert" in options.json()["levels"]
    assert page.status_code == 200 and "Play these deals" in page.text
    assert info.json() == {"challenge": Challenge.parse(code).describe(), "leaderboard": []}
    # it is stored for its leaderboard
    store = server.app.state.hub.store
    assert store.load_challenge(code).spec == Challenge.parse(code).describe()


@pytest.mark.parametrize(("spec", "code", "words"), [
    ({"preset": "card-commons", "opponents": ["normal", "wizard", "easy"], "deals": 2},
     "bad_challenge", "opponent is one of"),
    ({"preset": "card-commons", "opponents": ["normal"], "deals": 2}, "bad_challenge",
     "opponents"),
    ({"preset": "card-commons", "opponents": ["normal"] * 3, "deals": 0}, "bad_challenge",
     "deals must be a whole number from 1"),
    ({"preset": "card-commons", "opponents": ["normal"] * 3, "deals": 999}, "bad_challenge",
     "deals must be a whole number from 1"),
    ({"preset": "card-commons", "opponents": ["normal"] * 3, "deals": 2, "seed": "olive"},
     "bad_challenge", "cannot be in a code"),
    ({"preset": "poker", "opponents": ["normal"] * 3, "deals": 2}, "bad_challenge",
     "unknown preset"),
    ({"preset": "card-commons", "opponents": "normal", "deals": 2}, "bad_message",
     "opponents is a list"),
    ({"preset": "card-commons", "opponents": ["normal"] * 3, "deals": "2"}, "bad_message",
     "deals is a whole number"),
    ({"preset": "card-commons", "opponents": ["normal"] * 3, "deals": 2, "seed": 7},
     "bad_message", "seed is text"),
])
async def test_a_bad_challenge_is_refused_saying_what_is_allowed(
        server: Server, spec: dict[str, Any], code: str, words: str) -> None:
    async with server.http() as http:
        answer = await http.post("/api/challenges", json=spec)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == code and words in answer.json()["message"]


async def test_bad_codes_get_a_clear_answer_everywhere(server: Server) -> None:
    code = QUICK.code
    typo = code[:-3] + ("a" if code[-3] != "a" else "b") + code[-2:]
    record = terminal_record(QUICK, "Ann")
    async with server.http() as http:
        for bad in (typo, "nonsense!", "x"):
            page = await http.get(f"/c/{bad}")
            assert page.status_code == 404 and "No challenge here" in page.text
            info = await http.get(f"/api/challenges/{bad}")
            assert info.status_code == 404 and info.json()["error"] == "no_challenge"
            play = await http.post(f"/api/challenges/{bad}/play", json={"name": "Ann"})
            assert play.status_code == 404 and play.json()["error"] == "no_challenge"
            entry = await http.post(f"/api/challenges/{bad}/entries", json=record)
            assert entry.status_code == 404 and entry.json()["error"] == "no_challenge"
        typo_info = await http.get(f"/api/challenges/{typo}")
    assert "mistyped" in typo_info.json()["message"]
    assert server.app.state.hub.store.load_challenge(typo) is None


# ---------------------------------------------------------------------- playing it
async def test_two_challengers_get_the_same_deals_and_computers_and_one_leaderboard(
        server: Server) -> None:
    code = QUICK.code
    ann, bob = await asyncio.gather(
        play_challenge(server, code, "Ann", lowest),
        play_challenge(server, code, "Bob", highest, player_key="b" * 32))
    first, second = ann["record"], bob["record"]
    assert first["seats"][0] == "Ann" and second["seats"][0] == "Bob"
    assert ann["answer"]["table"]["challenge"] == code
    assert ann["answer"]["url"] == f"/t/{ann['answer']['table']['id']}"
    # Both tables are private, seat 1 the challenger, the others the challenge's computers.
    assert not ann["answer"]["table"]["public"]
    assert [s["kind"] for s in ann["answer"]["table"]["seats"]] == ["human", *QUICK.opponents]
    # Every deal the same, from the challenge's seed, as `hearts verify` checks it.
    assert [r["hands"] for r in first["rounds"]] == [r["hands"] for r in second["rounds"]]
    assert len(first["rounds"]) == QUICK.deals
    for record in (first, second):
        checks = verify_record(record)
        assert all(c.ok and not c.committed for c in checks), checks
    # The computers answer the same cards the same way: the first action that differs
    # between the two games is a challenger's.
    actions = [replay_record(r).history for r in (first, second)]
    differ = next(i for i, (a, b) in enumerate(zip(*actions, strict=False)) if a != b)
    assert [getattr(a[differ], "seat", None) for a in actions] == [0, 0]
    # Both are on the one leaderboard, checked, ranked by total, deal by deal.
    board = (await board_of(server, code, 2))["leaderboard"]
    points = {r["seats"][0]: [entry["points"][0] for entry in r["rounds"]]
              for r in (first, second)}
    assert {row["name"]: row["points"] for row in board} == points
    assert [row["total"] for row in board] == sorted(sum(p) for p in points.values())
    assert board[0]["place"] == 1
    for row in board:
        result = check_entry(QUICK, first if row["name"] == "Ann" else second)
        assert row["fingerprint"] == result.fingerprint
    # The player key links the table to Bob's games.
    games = server.app.state.hub.store.player_games(key_digest("b" * 32))
    assert [g.table_id for g in games] == [bob["answer"]["table"]["id"]]
    # A third challenger who plays Ann's cards meets Ann's game, action for action, at a
    # table of its own: the same play, so the same entry.
    cy = await play_challenge(server, code, "Cy", lowest)
    assert replay_record(cy["record"]).history == actions[0]
    again = await post_entry(server, code, cy["record"])
    assert again.status_code == 200 and not again.json()["added"]
    assert len((await board_of(server, code, 2))["leaderboard"]) == 2


async def test_a_terminal_result_goes_on_the_board_beside_a_tables(server: Server) -> None:
    code = QUICK.code
    await play_challenge(server, code, "Ann")
    record = terminal_record(QUICK, "Tess", "normal")
    entered = await post_entry(server, code, record)
    assert entered.status_code == 201, entered.text
    data = entered.json()
    result = check_entry(QUICK, record)
    assert data["entry"]["name"] == "Tess" and data["entry"]["total"] == result.total
    assert data["added"] and data["code"] == code
    board = (await board_of(server, code, 2))["leaderboard"]
    assert {row["name"] for row in board} == {"Ann", "Tess"}
    tess = next(row for row in board if row["name"] == "Tess")
    assert tess["place"] == data["place"] and tess["points"] == list(result.points)
    # The same play again is the same entry, whatever name it is sent under.
    again = await post_entry(server, code, dict(record, seats=["Impostor", *record["seats"][1:]]))
    assert again.status_code == 200 and not again.json()["added"]
    assert len((await board_of(server, code, 2))["leaderboard"]) == 2


def submit_command(server: Server, path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``hearts challenge submit`` through the real CLI."""
    return subprocess.run([sys.executable, "-m", "hearts.cli.main", "challenge", "submit",
                           str(path), "--server", server.url, *extra],
                          capture_output=True, text=True, timeout=120)


async def test_hearts_challenge_submit_puts_a_terminal_result_on_the_board(
        server: Server, tmp_path: Path) -> None:
    path = tmp_path / "tess.json"
    path.write_text(json.dumps(terminal_record(QUICK, "Tess", "hard")))
    done = await asyncio.to_thread(submit_command, server, path, "--code", QUICK.code)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "place 1" in done.stdout
    assert [row["name"] for row in (await board_of(server, QUICK.code, 1))["leaderboard"]] \
        == ["Tess"]
    # A table's downloaded record names its challenge: no --code needed; it is there already.
    played = await play_challenge(server, QUICK.code, "Ann")
    assert played["record"]["challenge"] == QUICK.code
    await board_of(server, QUICK.code, 2)
    path.write_text(json.dumps(played["record"]))
    again = await asyncio.to_thread(submit_command, server, path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "already there" in again.stdout
    # A forged one is refused, with the server's reason.
    path.write_text(json.dumps(other_computers_record(QUICK)))
    forged = await asyncio.to_thread(submit_command, server, path, "--code", QUICK.code)
    assert forged.returncode == 1 and "REFUSED (forged_entry)" in forged.stdout


async def test_a_result_for_a_code_never_made_here_makes_its_board(server: Server) -> None:
    elsewhere = Challenge.create("classic", ["easy", "random"], 1, "far", iterations=10)
    record = terminal_record(elsewhere, "Tess")
    entered = await post_entry(server, elsewhere.code, record)
    assert entered.status_code == 201, entered.text
    assert server.app.state.hub.store.load_challenge(elsewhere.code) is not None
    board = await board_of(server, elsewhere.code, 1)
    assert board["challenge"]["preset"] == "classic"


async def test_a_records_name_is_shown_as_a_seats_is(server: Server) -> None:
    record = terminal_record(QUICK, "  Tess \n the   Great" + "!" * 100)
    entered = await post_entry(server, QUICK.code, record)
    assert entered.status_code == 201, entered.text
    name = (await board_of(server, QUICK.code, 1))["leaderboard"][0]["name"]
    assert name == ("Tess the Great" + "!" * 100)[:NAME_LENGTH]


# ---------------------------------------------------------------------- refusals
def other_computers_record(challenge: Challenge) -> dict[str, Any]:
    """The challenge's deals played against other computers than its own."""
    seats = [make_player("easy", "me"),
             *(make_player("random", f"weak{s}") for s in range(1, challenge.players))]
    return game_record(run_game(challenge.new_game(), seats), ["Cheat", "A", "B", "C"])


async def test_forged_and_malformed_records_are_refused_with_the_reason(server: Server) -> None:
    code = QUICK.code
    honest = terminal_record(QUICK, "Ann")
    other = Challenge.create("card-commons", ["easy", "hard", "normal"], 2, "newcards",
                             iterations=20)
    swapped = json.loads(json.dumps(honest))
    hands = swapped["rounds"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    cases: list[tuple[Any, int, str, str]] = [
        (other_computers_record(QUICK), 400, "forged_entry", "the computer"),
        (terminal_record(other, "Ann"), 400, "forged_entry", "seed"),
        (swapped, 400, "bad_record", "the rules refuse this record"),
        ({"format": "nonsense"}, 400, "bad_record", "the rules refuse this record"),
        (terminal_record(QUICK, "Ann", deals=1), 400, "incomplete_entry", "1 of"),
        (b"[1, 2", 400, "bad_message", ""),
        (b"", 400, "bad_record", "send a game or hand record"),
    ]
    for body, status, error, words in cases:
        answer = await post_entry(server, code, body)
        assert answer.status_code == status, answer.text
        assert answer.json()["error"] == error and words in answer.json()["message"], answer.text
    assert server.app.state.hub.store.challenge_entries(code) == []


async def test_a_forged_record_names_the_first_computer_move_that_differs(server: Server) -> None:
    answer = await post_entry(server, QUICK.code, other_computers_record(QUICK))
    message = answer.json()["message"]
    assert "round 1" in message and "seat" in message and "the record says" in message


async def test_limits_on_entries(server: Server) -> None:
    record = terminal_record(QUICK, "Ann")
    huge = dict(record, padding="x" * MAX_RECORD_BYTES)
    answer = await post_entry(server, QUICK.code, huge)
    assert answer.status_code == 413 and answer.json()["error"] == "too_large"
    # checks run a few at a time: more are told to come back (nothing is stored)
    with contextlib.ExitStack() as taken:
        for _ in range(MAX_CHECKS):
            taken.enter_context(challenge_routes._CHECK_SLOTS.held())
        busy = await post_entry(server, QUICK.code, record)
    assert busy.status_code == 503 and busy.json()["error"] == "busy"
    assert busy.headers["Retry-After"]
    async with server.http() as http:
        nameless = await http.post(f"/api/challenges/{QUICK.code}/play", json={"name": " "})
        big = await http.post("/api/challenges", content=b"{" + b" " * 9000 + b"}")
    assert nameless.status_code == 400 and "name" in nameless.json()["message"]
    assert big.status_code == 413


# ---------------------------------------------------------------------- the table
def test_settings_keep_their_challenge_and_older_settings_load() -> None:
    settings = TableSettings(QUICK.rules.text, ("human", *QUICK.opponents), False, "t", "s",
                             QUICK.code)
    assert TableSettings.from_json(json.loads(json.dumps(settings.to_json()))) == settings
    older = settings.to_json()
    del older["challenge"]
    assert TableSettings.from_json(older).challenge is None


async def test_a_challenge_table_comes_back_after_a_restart(tmp_path: Path,
                                                            server_config: Any) -> None:
    db = tmp_path / "hearts.db"
    first, uv, task = await start_server(db, server_config)
    try:
        async with first.http() as http:
            made = (await http.post(f"/api/challenges/{QUICK.code}/play",
                                    json={"name": "Ann"})).json()
        client = await Client.open(first, made["table"]["id"], made["token"])
        # play until round 2 is dealt: round 1 dealt at creation, round 2 by an event
        await asyncio.wait_for(play_out_until_round(client, 2), 120)
        before = client.state
        assert before is not None
        await client.close()
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)
    again, uv, task = await start_server(db, server_config)
    try:
        client = await Client.open(again, made["table"]["id"], made["token"])
        assert client.state is not None and client.state["hand"] == before["hand"]
        await asyncio.wait_for(play_out(client), 240)
        await client.close()
        board = await board_of(again, QUICK.code, 1)
        assert board["leaderboard"][0]["name"] == "Ann"
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)


async def play_out_until_round(client: Client, round_no: int) -> None:
    """Play lowest cards until the view shows round ``round_no`` dealt, before acting."""
    acted: set[int] = set()
    while True:
        await client.recv(timeout=60)
        view = client.state
        if view is None or client.state_id in acted:
            continue
        if view["round"] >= round_no and view["hand"]:
            return
        action = first_action(view, client.state_id)
        if action is not None:
            acted.add(client.state_id)
            await client.send(action)


# ---------------------------------------------------------------------- fuzzing
# Every refusal code of the challenge API, by status (docs/web-protocol.md).
HTTP_CODES = {400: {"bad_message", "bad_challenge", "bad_record", "forged_entry",
                    "incomplete_entry"}, 404: {"no_challenge"}, 413: {"too_large"}}
KEYS = ["preset", "opponents", "deals", "seed", "name", "player_key", "format", "rules",
        "rounds", "seats"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=8)
VALUE = st.one_of(JSON, st.integers(-2, 30),
                  st.sampled_from(["card-commons", "classic", "Ann", "", " ", "abc", "k" * 40]),
                  st.lists(st.sampled_from(["easy", "normal", "random", "wizard"]), max_size=6))


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """Raw bytes, any JSON, or an object of the API's fields with values of any kind."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.binary(max_size=64))
    if kind == 1:
        return json.dumps(draw(JSON)).encode()
    return json.dumps(draw(st.dictionaries(st.sampled_from(KEYS), VALUE, max_size=6))).encode()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's examples, on its own event loop in a thread
    (Hypothesis runs each example synchronously)."""
    ready: list[Server] = []
    started = threading.Event()
    stop = threading.Event()

    async def main() -> None:
        handle, uv, task = await start_server(tmp_path_factory.mktemp("fuzz") / "h.db", FAST)
        ready.append(handle)
        started.set()
        await asyncio.to_thread(stop.wait)
        uv.should_exit = True
        await asyncio.wait_for(task, 10)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert started.wait(30)
    yield ready[0]
    stop.set()
    thread.join(15)


@given(body=bodies(), where=st.sampled_from(["create", "play", "entries", "bad-code"]))
def test_fuzzed_challenge_bodies_are_answered_or_refused(live: Server, body: bytes,
                                                         where: str) -> None:
    path = {"create": "/api/challenges", "play": f"/api/challenges/{QUICK.code}/play",
            "entries": f"/api/challenges/{QUICK.code}/entries",
            "bad-code": "/api/challenges/1c4nope/play"}[where]
    with httpx.Client(base_url=live.url, timeout=30,
                      headers={"Content-Type": "application/json"}) as http:
        answer = http.post(path, content=body)
    if answer.status_code in (200, 201):
        expected = {"create": {"code", "url", "challenge"},
                    "play": {"table", "seat", "token", "url", "challenge"}}[where]
        assert expected <= set(answer.json())
        return
    assert answer.json()["error"] in HTTP_CODES.get(answer.status_code, set()), \
        (answer.status_code, answer.text)


async def test_a_challenge_table_gives_no_hints(server: Server) -> None:
    """Every challenger plays the same deals on their own: the welcome says hints are off
    and a hint asked anyway is refused."""
    async with server.http() as http:
        made = (await http.post(f"/api/challenges/{QUICK.code}/play",
                                json={"name": "Hal"})).json()
    client = await Client.open(server, made["table"]["id"], made["token"])
    welcome = next(m for m in client.received if m["type"] == "welcome")
    assert welcome["hints"] is False
    await client.send({"type": "hint", "id": 7})
    refused = await client.expect(lambda m: m["type"] == "error")
    assert refused["code"] == "no_hints" and "challenge" in refused["message"]
    await client.close()


async def test_a_result_the_server_stopped_before_entering_is_entered_at_its_next_start(
        tmp_path: Path, server_config: Any) -> None:
    db = tmp_path / "hearts.db"
    first, uv, task = await start_server(db, server_config)
    try:
        played = await play_challenge(first, QUICK.code, "Ann")
        await board_of(first, QUICK.code, 1)
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)
    # as if the server had stopped between the game's end and its entry
    with sqlite3.connect(db) as raw:
        assert raw.execute("DELETE FROM challenge_entries").rowcount == 1
    again, uv, task = await start_server(db, server_config)
    try:
        board = await board_of(again, QUICK.code, 1)
        assert [row["name"] for row in board["leaderboard"]] == ["Ann"]
        assert board["leaderboard"][0]["fingerprint"] == check_entry(
            QUICK, played["record"]).fingerprint
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)


async def test_a_challenge_of_older_computers_keeps_its_board_but_is_not_played(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an upgrade that changed the computers' decisions (a newer revision), an old
    challenge's page and board stand, but a new table or entry is refused with the reason."""
    record = terminal_record(QUICK, "Ann")
    assert (await post_entry(server, QUICK.code, record)).status_code == 201
    newer = hearts.challenge.CODE_ALPHABET[hearts.challenge.CODE_ALPHABET.index(
        hearts.challenge.CODE_VERSION) + 1]
    monkeypatch.setattr(hearts.challenge, "CODE_VERSION", newer)
    monkeypatch.setattr(hearts.challenge, "_REVISIONS", hearts.challenge._REVISIONS + newer)
    async with server.http() as http:
        info = (await http.get(f"/api/challenges/{QUICK.code}")).json()
        play = await http.post(f"/api/challenges/{QUICK.code}/play", json={"name": "Bo"})
    assert info["challenge"]["stale"] and [row["name"] for row in info["leaderboard"]] == ["Ann"]
    again = await post_entry(server, QUICK.code, terminal_record(QUICK, "Cy", seed="cy"))
    for refused in (play, again):
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] == "stale_challenge"
        assert "can no longer be played or checked" in refused.json()["message"]
