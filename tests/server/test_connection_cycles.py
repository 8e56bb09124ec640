"""A connection the client closes leaves no reference cycle of the server's objects behind:
``hearts serve`` runs with the interpreter's collections off (``collector.py``), so such a
cycle would be kept until the next sweep, minutes later."""

from __future__ import annotations

import asyncio
import gc

from conftest import Client, Server, create_table


async def test_a_closed_connection_leaves_no_cycle_of_the_servers_objects(
        server: Server) -> None:
    made = await create_table(server, ["human", "normal", "normal", "normal"])
    hub = server.app.state.hub
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            client = await Client.open(server, made["table"]["id"], None)
            await client.close()
        for _ in range(200):  # until the server has seen every close
            if not hub.sessions:
                break
            await asyncio.sleep(0.01)
        assert not hub.sessions
        await asyncio.sleep(0.05)  # the sessions' send tasks end after them
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = sorted({type(item).__qualname__ for item in gc.garbage
                       if type(item).__module__.startswith("hearts.")})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert ours == []
