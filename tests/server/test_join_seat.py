"""Joining a chosen seat (`POST /api/tables/{table}/join` with `seat`), as the table page's
join form sends it: a free seat other than the lowest is taken as asked; a seat someone
took meanwhile, or a computer's, is `409 no_seat` in the API's error shape with a message
that names the free seats, a whole sentence (the page shows it as it is), and changes
nothing. A seat the table lacks is `400 bad_message` (tests/server/test_bad_input.py)."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server, create_table


async def join(server: Server, table_id: str, name: str, seat: int) -> httpx.Response:
    async with server.http() as http:
        return await http.post(f"/api/tables/{table_id}/join",
                               json={"name": name, "seat": seat})


async def facts(server: Server, table_id: str) -> dict[str, Any]:
    async with server.http() as http:
        answer = await http.get(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def test_a_chosen_seat_is_taken_and_a_taken_one_is_refused_naming_the_free_seats(
        server: Server) -> None:
    table_id = (await create_table(server, ["human", "human", "human", "random"]))["table"]["id"]
    assert (await facts(server, table_id))["free"] == [1, 2]

    taken = await join(server, table_id, "Cy", 2)  # not the lowest free seat
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 2
    after = await facts(server, table_id)
    assert after["free"] == [1]
    assert [s["name"] for s in after["seats"]][:3] == ["Ann", None, "Cy"]

    # Bo's page still offered seat 3: refused, in words that name what is free now.
    for seat, why in ((2, "someone took it"), (3, "a computer's"), (0, "the creator's")):
        refused = await join(server, table_id, "Bo", seat)
        assert refused.status_code == 409, (why, refused.text)
        assert refused.json() == {"error": "no_seat", "message":
                                  f"Seat {seat + 1} is not free; free seats: 2."}, why
    assert await facts(server, table_id) == after

    assert (await join(server, table_id, "Bo", 1)).json()["seat"] == 1
    full = await join(server, table_id, "Dee", 1)
    assert (full.status_code, full.json()) == (409, {
        "error": "no_seat", "message": "Every seat is taken; you can watch as a spectator."})
