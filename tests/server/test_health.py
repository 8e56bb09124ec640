"""``/healthz`` (the process answers) and ``/readyz`` (its store answers) on SQLite."""

from __future__ import annotations

import pytest
from tests.server.conftest import Server

from hearts.server.store import StoreUnavailableError


async def test_healthz_and_readyz_answer_200_with_a_working_sqlite_store(
        server: Server) -> None:
    async with server.http() as http:
        health = await http.get("/healthz")
        ready = await http.get("/readyz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "store": "ok", "bus": "none"}


async def test_readyz_is_503_naming_the_store_when_it_does_not_answer(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def down(timeout: float) -> None:
        raise StoreUnavailableError()

    monkeypatch.setattr(server.app.state.hub.store, "ping", down)
    async with server.http() as http:
        ready = await http.get("/readyz")
        health = await http.get("/healthz")
    assert ready.status_code == 503 and ready.headers["Retry-After"]
    assert ready.json()["down"] == ["store"] and ready.json()["error"] == "unavailable"
    assert health.status_code == 200
