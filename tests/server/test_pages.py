"""Pages, static assets and the lobby API of a running server."""

from __future__ import annotations

import pytest
from tests.server.conftest import Server, create_table


async def test_pages_and_assets_are_served(server: Server) -> None:
    async with server.http() as http:
        lobby = await http.get("/")
        assert lobby.status_code == 200 and 'data-testid="create-form"' in lobby.text
        table = await http.get("/t/anything")
        assert table.status_code == 200 and 'data-testid="hand"' in table.text
        for asset in ("table.js", "lobby.js", "deal.js", "cards.js", "copy.js", "style.css"):
            assert (await http.get(f"/static/{asset}")).status_code == 200
        for preset, words in (("card-commons", "take 26 off your own total"),
                              ("standard", "each other player scores 26"),
                              ("classic", "The lowest club left in the deck leads")):
            page = await http.get(f"/how-to-play/{preset}")
            assert page.status_code == 200 and words in page.text
            assert f'data-testid="howto-{preset}"' in page.text and "{body}" not in page.text
        missing = await http.get("/how-to-play/%3Cb%3Ebridge")  # a page, not the JSON of the API
        assert missing.status_code == 404 and missing.headers["content-type"].startswith(
            "text/html")
        assert "&lt;b&gt;bridge" in missing.text and "<b>bridge" not in missing.text
        assert all(f'href="/how-to-play/{name}"' in missing.text
                   for name in ("card-commons", "standard", "classic"))
        assert "{body}" not in missing.text and "{title}" not in missing.text
        config = (await http.get("/api/config")).json()
        assert "random" in config["levels"]
        assert [p["name"] for p in config["presets"]] == ["card-commons", "standard", "classic"]


async def test_public_tables_are_listed_and_private_ones_are_not(server: Server) -> None:
    public = await create_table(server, ["human", "human", "random", "random"])
    private = await create_table(server, ["human", "human", "random", "random"], public=False)
    async with server.http() as http:
        listed = (await http.get("/api/tables")).json()["tables"]
        ids = [t["id"] for t in listed]
        assert public["table"]["id"] in ids and private["table"]["id"] not in ids
        assert next(t for t in listed if t["id"] == public["table"]["id"])["free"] == [1]
        info = (await http.get(f"/api/tables/{private['table']['id']}")).json()
        assert info["free"] == [1] and info["seats"][0]["name"] == "Ann"
        assert (await http.get("/api/tables/nope")).status_code == 404


@pytest.mark.parametrize(("body", "words"), [
    ({"name": "A", "preset": "standard", "players": 3, "seats": ["human"] * 3}, "standard"),
    ({"name": "A", "preset": "card-commons", "players": 4, "seats": ["human"] * 3}, "one seat"),
    ({"name": "A", "players": 4, "seats": ["human", "genius", "human", "human"]}, "genius"),
    ({"name": "A", "players": 4, "seats": ["random", "human", "human", "human"]}, "creator"),
    ({"name": "", "players": 4, "seats": ["human"] * 4}, "name"),
    ({"name": "A", "players": 4, "seats": ["human"] * 4, "options": "moon=sideways"}, "moon"),
])
async def test_bad_table_settings_are_refused_with_the_reason(server: Server, body: dict,
                                                              words: str) -> None:
    async with server.http() as http:
        response = await http.post("/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["message"]


async def test_joining_takes_free_seats_until_none_is_left(server: Server) -> None:
    made = await create_table(server, ["human", "human", "random", "random"])
    table_id = made["table"]["id"]
    async with server.http() as http:
        first = await http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        assert first.status_code == 200 and first.json()["seat"] == 1
        assert first.json()["token"] != made["token"]
        full = await http.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
        assert full.status_code == 409 and "spectator" in full.json()["message"]
