"""A PostgreSQL that stops and comes back: requests are refused promptly in the API's shape
(``503 unavailable``, retryable), a refused create leaves no table behind, ``/readyz`` names
the store, and the server serves again within seconds of the database's return.

Each test runs a PostgreSQL of its own (``initdb`` in a scratch folder) so that it may stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from tests.server.conftest import FAST, Server, start_server

_PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                 key=lambda p: [int(x) for x in p.parent.name.split(".") if x.isdigit()])

pytestmark = pytest.mark.skipif(
    not _PG_BIN or (os.getuid() == 0 and shutil.which("runuser") is None),
    reason="needs PostgreSQL's binaries (and runuser, as root)")

SEATS = ["human", "random", "random", "random"]


class PrivatePostgres:
    """A throwaway PostgreSQL on a fixed port that a test may stop and start again."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="hearts-pg-"))
        self.folder.chmod(0o755)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.url = f"postgresql://hearts@127.0.0.1:{self.port}/postgres"
        self.bin = _PG_BIN[-1]
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.folder / "pg"), "-U", "hearts", "--auth=trust")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "pg"), "-l", str(self.folder / "pg.log"),
                  "-w", "start", "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} "
                  f"-k {self.folder} -c fsync=off")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "pg"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped already
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    database = PrivatePostgres()
    database.start()
    try:
        yield database
    finally:
        database.remove()


@pytest.fixture
async def served(private_postgres: PrivatePostgres) -> AsyncIterator[Server]:
    handle, uv, task = await start_server(private_postgres.url, FAST)  # type: ignore[arg-type]
    try:
        yield handle
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, 20)


async def _timed(http: httpx.AsyncClient, method: str, path: str,
                 body: dict[str, Any] | None = None) -> tuple[httpx.Response, float]:
    start = time.monotonic()
    answer = await http.request(method, path, json=body)
    return answer, time.monotonic() - start


def _create(name: str) -> dict[str, Any]:
    return {"name": name, "seats": SEATS, "public": True, "player_key": "k" * 32}


def _stored_tables(url: str) -> list[str]:
    with psycopg.connect(url, autocommit=True) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM tables ORDER BY created")]


async def test_a_postgres_outage_is_refused_promptly_leaves_no_table_and_recovers(
        served: Server, private_postgres: PrivatePostgres) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        first = await http.post("/api/tables", json=_create("Ann"))
        assert first.status_code == 201, first.text
        assert (await http.get("/readyz")).status_code == 200

        private_postgres.stop()
        ready, took = await _timed(http, "GET", "/readyz")
        assert ready.status_code == 503 and took < 4, (ready.text, took)
        assert ready.json()["down"] == ["store"]
        for _ in range(2):  # the first finds the outage, the second knows of it
            refused, took = await _timed(http, "POST", "/api/tables", _create("Bo"))
            assert refused.status_code == 503 and took < 8, (refused.text, took)
            assert refused.json()["error"] == "unavailable"
            assert "try again" in refused.json()["message"]
            assert refused.headers["Retry-After"]
        mine, took = await _timed(http, "POST", "/api/me", {"player_key": "k" * 32})
        assert mine.status_code == 503 and took < 8, (mine.text, took)
        assert mine.json()["error"] == "unavailable"
        lobby = (await http.get("/api/tables")).json()["tables"]
        assert [t["id"] for t in lobby] == [first.json()["table"]["id"]]
        await asyncio.sleep(6)  # long enough for the pool to back off

        private_postgres.start()
        back = time.monotonic()
        while True:
            again = await http.post("/api/tables", json=_create("Cy"))
            if again.status_code == 201:
                break
            assert again.status_code == 503, again.text
            assert time.monotonic() - back < 8, "not serving 8 s after the database returned"
            await asyncio.sleep(0.25)
        assert (await http.get("/readyz")).status_code == 200
        await served.app.state.hub.settle()
    stored = _stored_tables(private_postgres.url)
    assert stored == [first.json()["table"]["id"], again.json()["table"]["id"]]
