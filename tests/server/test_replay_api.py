"""``POST /api/replay``: every position of a record with every hand open, worked out by
the core; a bad record refused with a typed error; the analysis marked on its frames.

Runs against a real server (``tests/server/conftest.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.server.conftest import Server

from hearts.core import CardSet, Rules, game_record, hand_record, new_game, replay_game
from hearts.players import RandomPlayer
from hearts.players.driver import run_game
from hearts.server.replay_routes import MAX_RECORD_BYTES


def a_record(seed: str = "replay", rules: str = "card-commons") -> dict[str, Any]:
    parsed = Rules.parse(rules)
    final = run_game(new_game(parsed, seed=seed),
                     [RandomPlayer(s) for s in range(parsed.players)])
    return game_record(final, ["Ann", "Bot 2", "Bot 3", "Bot 4"][:parsed.players])


async def frames_of(server: Server, record: Any, query: str = "") -> dict[str, Any]:
    async with server.http() as http:
        answer = await http.post(f"/api/replay{query}", content=json.dumps(record))
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


async def test_frames_follow_the_record_card_by_card(server: Server) -> None:
    record = a_record()
    final = replay_game(record)
    replay = await frames_of(server, record)
    frames = replay["frames"]
    assert replay["names"] == record["seats"] and replay["players"] == 4
    assert [r["round"] for r in replay["rounds"]] == [r["round"] for r in record["rounds"]]
    for entry, start in zip(record["rounds"], replay["rounds"], strict=True):
        first = frames[start["frame"]]
        assert first["action"] is None and first["hands"] == entry["hands"]  # as dealt
        # every later frame of the round: the hands are the dealt ones, after the pass,
        # less the cards each seat has played so far (worked out from the record alone)
        after = frames[start["frame"] + 1:start["frame"] + 1 + len(entry["plays"])
                       + sum(p is not None for p in entry["passes"] or [])]
        played: list[set[str]] = [set() for _ in range(4)]
        passes = entry["passes"]
        for frame in after:
            action = frame["action"]
            if action["kind"] == "play":
                played[action["seat"]].add(action["card"])
                assert frame["round"] == entry["round"]
                for seat in range(4):
                    held = set(entry["hands"][seat])
                    if passes is not None and entry["pass_offset"]:
                        source = (seat - entry["pass_offset"]) % 4
                        held = held - set(passes[seat]) | set(passes[source])
                    assert set(frame["hands"][seat]) == held - played[seat]
        plays = [f["action"]["card"] for f in after if f["action"]["kind"] == "play"]
        assert plays == entry["plays"]
        # a trick's last card shows the whole trick and who took it
        done = [f for f in after if f["took"] is not None]
        assert len(done) == len(entry["plays"]) // 4
        assert all(len(f["table"]) == 4 for f in done)
        end = after[-1]
        assert end["result"]["points"] == entry["points"] and end["totals"] == entry["totals"]
    assert frames[-1]["totals"] == list(final.totals)
    assert frames[-1]["winners"] == list(final.winners) and frames[-1]["phase"] == "over"


async def test_the_same_record_gives_identical_frames_forwards_and_back(server: Server) -> None:
    record = a_record("again", "classic:players=3")
    first = await frames_of(server, record)
    second = await frames_of(server, record)
    assert first == second
    frames = first["frames"]
    # stepping to the end and back meets the same frame at every index
    forwards = [json.dumps(frames[i], sort_keys=True) for i in range(len(frames))]
    backwards = [json.dumps(frames[i], sort_keys=True) for i in reversed(range(len(frames)))]
    assert forwards == backwards[::-1]
    assert [f["index"] for f in frames] == list(range(len(frames)))


async def test_a_hand_record_replays_too(server: Server) -> None:
    final = replay_game(a_record("hand"))
    record = hand_record(final, 2)
    replay = await frames_of(server, record)
    assert replay["names"] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert replay["frames"][-1]["result"]["points"] == record["points"]
    assert [CardSet.parse(" ".join(h)).mask != 0 for h in replay["frames"][0]["hands"]] \
        == [True] * 4


@pytest.mark.parametrize(("body", "code", "words"), [
    ("{not json", "bad_message", "a record is a JSON object"),
    ("[1, 2]", "bad_message", "a record is a JSON object"),
    ("", "bad_record", "send a game or hand record"),
    (json.dumps({"format": "chess"}), "bad_record", "format must be"),
])
async def test_a_bad_body_is_refused_with_a_typed_error(server: Server, body: str, code: str,
                                                        words: str) -> None:
    async with server.http() as http:
        answer = await http.post("/api/replay", content=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == code and words in answer.json()["message"]


async def test_a_forged_play_is_refused_saying_where(server: Server) -> None:
    record = a_record("forged")
    plays = record["rounds"][0]["plays"]
    plays[4], plays[5] = plays[5], plays[4]  # out of turn order: someone follows wrongly
    record["rounds"][0]["points"] = [99, 0, 0, 0]
    async with server.http() as http:
        answer = await http.post("/api/replay", content=json.dumps(record))
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_record"
    assert "round 1" in answer.json()["message"]


async def test_a_record_over_the_limit_is_refused(server: Server) -> None:
    async with server.http() as http:
        answer = await http.post("/api/replay", content=b" " * (MAX_RECORD_BYTES + 1))
    assert answer.status_code == 413 and answer.json()["error"] == "too_large"


async def test_analysis_marks_each_decision_on_its_frame(server: Server) -> None:
    record = hand_record(replay_game(a_record("judged")), 1)
    replay = await frames_of(server, record, "?analyze=1")
    analysis = replay["analysis"]
    decisions = analysis["decisions"]
    assert len(decisions) == 4 * (1 + 13)  # every seat of a hand record: a pass, 13 cards
    for decision in decisions:
        action = replay["frames"][decision["frame"]]["action"]
        assert action["kind"] == decision["kind"] and action["seat"] == decision["seat"]
        assert action.get("card", action.get("cards")) == decision["taken"] or sorted(
            action.get("cards", [])) == sorted(decision["taken"])
    by_index = {d["index"]: d for d in decisions}
    costly = [by_index[i]["loss"] for i in analysis["costly"]]
    assert costly == sorted(costly, reverse=True) and all(loss > 0 for loss in costly)
    chosen_losses = sorted((d["loss"] for d in decisions if d["choices"] > 1), reverse=True)
    assert costly == chosen_losses[:len(costly)]
    assert [s["seat"] for s in analysis["summaries"]] == [0, 1, 2, 3]


async def test_one_analysis_at_a_time(server: Server) -> None:
    from hearts.server import replay_routes

    record = hand_record(replay_game(a_record("turns")), 1)
    # as if another request's analysis were running
    with replay_routes._ANALYSIS_SLOT.held():
        async with server.http() as http:
            busy = await http.post("/api/replay?analyze=1", content=json.dumps(record))
            plain = await http.post("/api/replay", content=json.dumps(record))
    assert busy.status_code == 503 and busy.json()["error"] == "busy"
    assert busy.headers["Retry-After"]
    assert plain.status_code == 200 and "analysis" not in plain.json()  # frames still served
    assert "analysis" in await frames_of(server, record, "?analyze=1")


@pytest.mark.parametrize("word", ["false", "no", "2", "yes"])
async def test_analyze_is_1_or_0_not_any_word_that_starts_the_costly_search(
        server: Server, word: str) -> None:
    async with server.http() as http:
        answer = await http.post(f"/api/replay?analyze={word}", content=json.dumps(a_record()))
    assert (answer.status_code, answer.json()["error"]) == (400, "bad_message"), answer.text
    assert answer.json()["message"] == f"analyze is 1 or 0, not {word!r}"
    assert "analysis" not in await frames_of(server, a_record(), "?analyze=0")
