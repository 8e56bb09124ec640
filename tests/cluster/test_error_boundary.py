"""A failure outside any route (the middleware that holds a change's answer until it is
stored) is answered in the API's error shape: ``503 unavailable`` for an outage of the
store or the bus, ``500 server_error`` for anything else, never Starlette's plain text."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from tests.cluster.real_servers import fresh_database, needs_postgres
from tests.server.conftest import FAST, Server, start_server

from hearts.server.store import StoreUnavailableError

pytestmark = needs_postgres

KEY = "k" * 32


@pytest.fixture
async def served() -> AsyncIterator[Server]:
    with fresh_database() as url:
        handle, uv, task = await start_server(url, FAST)  # type: ignore[arg-type]
        try:
            yield handle
        finally:
            uv.should_exit = True
            await asyncio.wait_for(task, 20)


def _failing_settle(served: Server, failure: Exception) -> None:
    """The hub's settling fails from now on: only the middleware waits on it for ``/api/me``."""
    async def settle(table_id: str | None = None) -> None:
        raise failure

    served.app.state.hub.settle = settle


async def test_an_outage_in_the_middleware_is_503_unavailable(served: Server) -> None:
    _failing_settle(served, StoreUnavailableError())
    async with served.http() as http:
        answer = await http.post("/api/me", json={"player_key": KEY})
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"] == "unavailable" and answer.headers["Retry-After"]


async def test_any_other_failure_in_the_middleware_is_500_server_error(served: Server) -> None:
    _failing_settle(served, RuntimeError("a bug, not an outage"))
    async with served.http() as http:
        answer = await http.post("/api/me", json={"player_key": KEY})
        assert answer.status_code == 500, answer.text
        assert answer.json()["error"] == "server_error"
        assert (await http.get("/api/config")).status_code == 200  # a GET waits on nothing


async def test_a_refusal_does_not_wait_for_the_store(served: Server) -> None:
    _failing_settle(served, StoreUnavailableError())
    async with served.http() as http:
        answer = await http.post("/api/me", json={})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_message", answer.text
