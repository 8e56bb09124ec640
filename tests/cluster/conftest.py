"""Several real ``hearts serve`` processes sharing one PostgreSQL database and one Redis.

Each process is started as a user starts it (the ``hearts`` command, as a subprocess),
with quick waits and a short lease so that a takeover happens within the test's time.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from tests.cluster.real_servers import REDIS, fresh_database
from tests.server.conftest import Server

LEASE_S = 2.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Node:
    """One ``hearts serve`` process of the cluster."""

    def __init__(self, db: str, log: Path, *, bus: bool = True, route_tag: str = "") -> None:
        self.port = _free_port()
        self.server = Server(f"http://127.0.0.1:{self.port}", None)
        hearts = Path(sys.executable).with_name("hearts")
        self.log = log
        # rate limits well above machine-speed scripted players; quick deals and computers
        env = os.environ | {"HEARTS_HOME": str(log.parent), "HEARTS_LOG": "INFO"}
        self.process = subprocess.Popen(
            [str(hearts), "serve", "--port", str(self.port), "--db", db,
             *(("--bus", REDIS, "--lease", str(LEASE_S)) if bus else ()),
             "--grace", "30", "--entropy-timeout", "0.3", "--bot-delay", "0",
             "--rate-limit", "200", *(("--route-tag", route_tag) if route_tag else ())],
            stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)

    async def ready(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.server.url, timeout=2) as http:
            while True:
                assert self.process.poll() is None, self.log.read_text()
                try:
                    if (await http.get("/api/config")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > end:
                    raise TimeoutError(self.log.read_text())
                await asyncio.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no lease given back."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture
def database() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture
async def cluster(database: str, tmp_path: Path
                  ) -> AsyncIterator[Callable[[int], Awaitable[list[Node]]]]:
    """Start ``n`` nodes on one database and Redis; all are stopped afterwards."""
    nodes: list[Node] = []

    async def start(n: int) -> list[Node]:
        made = [Node(database, tmp_path / f"node{len(nodes) + i}.log") for i in range(n)]
        nodes.extend(made)
        await asyncio.gather(*(node.ready() for node in made))
        return made

    yield start
    for node in nodes:
        node.stop()
        # shown when the test fails: what each process logged
        print(f"--- {node.log.name} (port {node.port})\n{node.log.read_text()}")
