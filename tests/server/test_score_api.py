"""The scorekeeper's API: rule facts asked of the core, shared sheets, exports.

Runs against a real server (``tests/server/conftest.py``); every sheet that arrives is
checked by the core, and every refusal is typed and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import FAST, Server, start_server

from hearts.core import (
    PLAYER_COUNTS,
    PRESETS,
    CardSet,
    MoonChoice,
    Rules,
    Sheet,
    Taken,
    card_points,
    fixed_moon_choice,
    moon_points,
)
from hearts.scoresheet import export


def a_sheet(rounds: int = 2) -> Sheet:
    sheet = Sheet(Rules.parse("classic:players=3,target=40,jack_of_diamonds=on"),
                  ("Ann", "Bo", "Cy"))
    for _ in range(rounds):
        sheet = sheet.add_round(points=[13, 3, 0], jack=2)
    return sheet


@pytest.mark.parametrize("text", ["card-commons:players=3", "card-commons", "standard",
                                  "classic:players=2,moon=others-plus",
                                  "classic:players=6,jack_of_diamonds=on,target=55",
                                  "card-commons:removed=JD+QS+2H+3H,jack_of_diamonds=on"])
async def test_the_rule_facts_are_the_cores(server: Server, text: str) -> None:
    rules = Rules.parse(text)
    async with server.http() as http:
        facts = (await http.get("/api/score/rules", params={"rules": text})).json()
    assert facts["rules"] == rules.text and facts["players"] == rules.players
    assert facts["target"] == rules.target and facts["moon"]["points"] == moon_points(rules)
    choice = fixed_moon_choice(rules)
    assert facts["moon"]["choice"] == (None if choice is None else choice.value)
    counts = PLAYER_COUNTS[rules.preset]
    assert facts["player_counts"] == [counts[0], counts[-1]]
    # the point cards shown for tapping are the deck's, each with its points
    shown = CardSet.parse(" ".join(c["card"] for c in facts["cards"]))
    scoring_jack = CardSet.parse("JD").mask & rules.deck if rules.jack_of_diamonds else 0
    assert shown.mask == rules.point_cards | scoring_jack
    for card in facts["cards"]:
        assert card["points"] == card_points(CardSet.parse(card["card"]).mask, rules)
    assert facts["hearts"] == sum(c["kind"] == "heart" for c in facts["cards"])
    assert facts["queen"]["in_deck"] == any(c["kind"] == "queen" for c in facts["cards"])


async def test_every_preset_and_count_is_published_for_offline_starts(server: Server) -> None:
    async with server.http() as http:
        presets = (await http.get("/api/score/presets")).json()["presets"]
        assert [p["name"] for p in presets] == list(PRESETS)
        for preset in presets:
            counts = PLAYER_COUNTS[preset["name"]]
            assert preset["players"] == [counts[0], counts[-1]]
            facts = (await http.get("/api/score/rules", params={
                "rules": preset["name"], "players": counts[0]})).json()
            assert facts["rules"] == Rules.preset_rules(preset["name"], counts[0]).text


@pytest.mark.parametrize(("params", "says"), [
    ({"rules": "bridge"}, "bridge"),
    ({"rules": "standard", "players": "3"}, "standard is played by 4 players, not 3"),
    ({"rules": "card-commons:players=4", "players": "3"}, "are for 4 players, but 3 names"),
    ({"rules": "card-commons", "players": "four"}, "players is a whole number"),
    ({"rules": "card-commons", "players": "\u0664"}, "players is a whole number"),  # int() took it
    ({"rules": "card-commons:target=0"}, "target"),
])
async def test_bad_rules_are_refused_with_the_reason(server: Server, params: dict[str, str],
                                                     says: str) -> None:
    async with server.http() as http:
        answer = await http.get("/api/score/rules", params=params)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_rules" and says in answer.json()["message"]


async def test_a_shared_sheet_is_read_by_anyone_and_changed_only_by_its_keeper(
        server: Server) -> None:
    first, second = a_sheet(1), a_sheet(2)
    async with server.http() as http:
        shared = await http.post("/api/score/sheets", json={"sheet": first.to_json()})
        assert shared.status_code == 201
        sheet_id, key = shared.json()["id"], shared.json()["key"]
        assert shared.json()["url"] == f"/score/s/{sheet_id}"
        read = (await http.get(f"/api/score/sheets/{sheet_id}")).json()
        assert Sheet.from_json(read["sheet"]) == first and read["version"] == 1
        assert read["facts"]["rules"] == first.rules.text
        assert (await http.get(f"/api/score/sheets/{sheet_id}?since=1")).status_code == 204

        wrong = await http.put(f"/api/score/sheets/{sheet_id}",
                               json={"key": "guess", "sheet": second.to_json()})
        assert wrong.status_code == 403 and wrong.json()["error"] == "not_keeper"
        missing = await http.put(f"/api/score/sheets/{sheet_id}", json={"sheet": {}})
        assert missing.status_code == 403
        assert (await http.get(f"/api/score/sheets/{sheet_id}?since=1")).status_code == 204

        changed = await http.put(f"/api/score/sheets/{sheet_id}",
                                 json={"key": key, "sheet": second.to_json()})
        assert changed.json() == {"id": sheet_id, "version": 2}
        read = (await http.get(f"/api/score/sheets/{sheet_id}?since=1")).json()
        assert Sheet.from_json(read["sheet"]) == second and read["version"] == 2
        for odd in ("²", "9" * 5000, "-1", "x", "1.0", ""):  # no version: said, not ignored
            answer = await http.get(f"/api/score/sheets/{sheet_id}", params={"since": odd})
            assert (answer.status_code, answer.json()["error"]) == (400, "bad_message")
            assert answer.json()["message"].startswith("since is a version number from 0")

        nobody = await http.get("/api/score/sheets/nope")
        assert nobody.status_code == 404 and nobody.json()["error"] == "no_sheet"
        assert (await http.put("/api/score/sheets/nope",
                               json={"key": key, "sheet": second.to_json()})).status_code == 404


def doctored(sheet: Sheet) -> dict[str, Any]:
    """A sheet file whose first round gives the Q♠ to two players."""
    data = sheet.to_json()
    data["rounds"][0]["taken"][1]["queen"] = True
    return data


@pytest.mark.parametrize(("body", "says"), [
    ({"sheet": doctored(a_sheet())}, "a saved round does not add up: only one player can "
                                     "take the Q♠; Ann and Bo are marked"),
    ({"sheet": {"format": "other"}}, "not a score sheet"),
    ({"sheet": "text"}, "sheet is the sheet file's JSON object"),
    ({}, "sheet is the sheet file's JSON object"),
])
async def test_a_sheet_that_does_not_add_up_is_refused_and_not_stored(
        server: Server, body: dict[str, Any], says: str) -> None:
    async with server.http() as http:
        shared = await http.post("/api/score/sheets", json=body)
        assert shared.status_code == 400 and shared.json()["error"] == "bad_sheet"
        assert says in shared.json()["message"]
        exported = await http.post("/api/score/export?kind=csv", json=body)
        assert exported.status_code == 400 and says in exported.json()["message"]

        good = await http.post("/api/score/sheets", json={"sheet": a_sheet(1).to_json()})
        sheet_id, key = good.json()["id"], good.json()["key"]
        refused = await http.put(f"/api/score/sheets/{sheet_id}", json={"key": key, **body})
        assert refused.status_code == 400
        kept = (await http.get(f"/api/score/sheets/{sheet_id}")).json()
        assert Sheet.from_json(kept["sheet"]) == a_sheet(1) and kept["version"] == 1


async def test_exports_are_those_of_hearts_score(server: Server) -> None:
    sheet = a_sheet(3).add_round(taken=[Taken(13, True), Taken(0, False, True), Taken()],
                                 moon_choice=MoonChoice.ADD)
    async with server.http() as http:
        for kind in ("csv", "md", "text"):
            answer = await http.post(f"/api/score/export?kind={kind}",
                                     json={"sheet": sheet.to_json()})
            assert answer.status_code == 200 and answer.text == export(sheet, kind)
            assert "attachment" in answer.headers["content-disposition"]
        bad = await http.post("/api/score/export?kind=pdf", json={"sheet": sheet.to_json()})
        assert bad.status_code == 400 and "csv, md, text" in bad.json()["message"]


async def test_a_body_over_the_limit_is_refused(server: Server) -> None:
    async with server.http() as http:
        answer = await http.post("/api/score/sheets", content=b"{" + b" " * 70_000 + b"}")
    assert answer.status_code == 413 and answer.json()["error"] == "too_large"


async def test_the_page_is_installable_and_its_worker_covers_score(server: Server) -> None:
    async with server.http() as http:
        for path in ("/score", "/score/s/anything"):
            page = await http.get(path)
            assert page.status_code == 200 and 'data-testid="entry"' in page.text
            assert 'rel="manifest" href="/static/score.webmanifest"' in page.text
        worker = await http.get("/score/sw.js")
        assert worker.status_code == 200
        assert worker.headers["service-worker-allowed"] == "/score"
        assert "javascript" in worker.headers["content-type"]
        manifest = json.loads((await http.get("/static/score.webmanifest")).text)
        assert manifest["start_url"] == "/score" and manifest["scope"] == "/score"
        assert manifest["display"] == "standalone"
        for icon in manifest["icons"]:
            assert (await http.get(icon["src"])).status_code == 200
        # everything the worker keeps for offline use is served
        cached = json.loads(worker.text.split("const ASSETS = ", 1)[1].split(";", 1)[0])
        for path in cached:
            assert (await http.get(path)).status_code == 200, path


async def test_a_shared_sheet_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "hearts.db"
    server, uv, task = await start_server(db, FAST)
    async with server.http() as http:
        shared = (await http.post("/api/score/sheets", json={"sheet": a_sheet().to_json()})).json()
    uv.should_exit = True
    await asyncio.wait_for(task, 10)
    server, uv, task = await start_server(db, FAST)
    try:
        async with server.http() as http:
            read = (await http.get(f"/api/score/sheets/{shared['id']}")).json()
            assert Sheet.from_json(read["sheet"]) == a_sheet()
            changed = await http.put(f"/api/score/sheets/{shared['id']}",
                                     json={"key": shared["key"], "sheet": a_sheet(1).to_json()})
            assert changed.json()["version"] == 2
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 10)
