"""Kill the real ``hearts serve`` process (SIGKILL) mid-game: every table resumes exactly."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import Client, Server, autoplay, create_table, join_table

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL needs POSIX")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Process:
    """``hearts serve`` in a subprocess on a free loopback port."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def server(self) -> Server:
        return Server(f"http://127.0.0.1:{self.port}", None)

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hearts.cli.main", "serve", "--port", str(self.port),
             "--db", str(self.db), "--bot-delay", "0", "--entropy-timeout", "0.3",
             "--grace", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(200):
            try:
                async with httpx.AsyncClient() as http:
                    if (await http.get(f"{self.server.url}/api/config")).status_code == 200:
                        return
            except httpx.TransportError:
                await asyncio.sleep(0.05)
        raise AssertionError("hearts serve did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def process(tmp_path: Path) -> Iterator[Process]:
    proc = Process(tmp_path / "hearts.db")
    yield proc
    if proc.proc is not None and proc.proc.poll() is None:
        proc.kill()


async def test_sigkill_and_restart_resumes_every_table_exactly(process: Process) -> None:
    await process.start()
    server = process.server
    # Table A: four people, so nothing moves while the server is down or after it.
    made = await create_table(server, ["human"] * 4)
    table_a = made["table"]["id"]
    tokens = [made["token"]] + [(await join_table(server, table_a, n))["token"]
                                for n in ("Bob", "Cy", "Di")]
    people = [await Client.open(server, table_a, t) for t in tokens]
    # Table B: one person and computers, left in the middle of a round.
    made_b = await create_table(server, ["human", "random", "random", "random"])
    table_b = made_b["table"]["id"]
    solo = await Client.open(server, table_b, made_b["token"])
    await asyncio.gather(*(autoplay(c, until=lambda v: v["phase"] == "play")
                           for c in people))
    await autoplay(solo, max_actions=6)
    await asyncio.gather(*(c.settle() for c in (*people, solo)))
    before = {c.seat: (c.state_id, c.state) for c in people}
    before_b = (solo.state_id, solo.state)
    assert before[0][1]["phase"] == "play"
    process.kill()

    await process.start()
    people = [await Client.open(server, table_a, t) for t in tokens]
    for client in people:
        assert (client.state_id, client.state) == before[client.seat]
    solo_again = await Client.open(server, table_b, made_b["token"])
    assert solo_again.state_id >= before_b[0]  # its computers may have moved on since
    assert solo_again.state["hand"] or solo_again.state["phase"] == "deal"

    # An action acknowledged is an action stored: kill the moment the ack arrives.
    mover = next(c for c in people if c.seat in c.state["to_act"])
    await autoplay(mover, max_actions=1)
    ack = await mover.expect(lambda m: m["type"] == "ack")
    process.kill()
    await process.start()
    after = await Client.open(server, table_a, tokens[mover.seat])
    assert after.state_id == ack["state_id"] == before[0][0] + 1
    assert len(after.state["hand"]) == len(before[mover.seat][1]["hand"]) - 1
    process.kill()
