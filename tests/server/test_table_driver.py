"""The async driver without a socket: the game runs through the one game driver, a
person's action is applied before the next is checked, and a leaver's seat is played by
a stand-in after the grace period until the game ends."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from tests.server.conftest import FAST
from tests.server.test_table_authority import Watcher

from hearts.core import Phase
from hearts.server.authority import TableAuthority
from hearts.server.protocol import RequestError
from hearts.server.settings import TableSettings
from hearts.server.store import SqliteStore
from hearts.server.table import Table

CONFIG = dataclasses.replace(FAST, grace_s=0.05, entropy_timeout_s=0.05)


def make_table(store: SqliteStore | None = None) -> Table:
    settings = TableSettings.build(preset="standard", players=4, options="", target=1,
                                   seats=["human", "random", "random", "random"],
                                   public=True, title="Test", bot_seed="seed")
    store = store or SqliteStore(":memory:")
    store.create_table("t", settings.to_json())
    return Table(TableAuthority("t", settings, store, CONFIG))


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


async def test_a_persons_actions_are_applied_one_at_a_time() -> None:
    table = make_table()
    authority = table.authority
    ann = Watcher(0)
    table.join("Ann", "token", 0)
    table.attach(ann)
    table.start()
    try:
        await until(lambda: 0 in authority.state.to_act)
        assert authority.state.phase is Phase.PASS
        cards = authority.state.hand(0).names()[:3]
        data = {"type": "pass", "cards": cards, "state_id": authority.state_id}
        await table.submit(ann, data, rid=1)
        # applied and acknowledged by the time submit returns: the same pass is now refused
        assert authority.state.has_chosen(0)
        ack = ann.last("ack")
        assert ack["id"] == 1 and data["state_id"] < ack["state_id"] <= authority.state_id
        with pytest.raises(RequestError) as caught:
            await table.submit(ann, data, rid=2)
        assert caught.value.code in ("not_your_turn", "stale_state", "illegal")
        await until(lambda: authority.state.phase is Phase.PLAY and 0 in authority.state.to_act)
        state_id = authority.state_id
        card = authority.state.legal_cards(0).names()[0]
        await table.submit(ann, {"type": "play", "card": card, "state_id": state_id}, rid=3)
        assert authority.state_id > state_id and card not in authority.state.hand(0).names()
    finally:
        await table.stop()


async def test_a_leavers_seat_gets_a_stand_in_and_the_game_ends() -> None:
    table = make_table()
    authority = table.authority
    ann = Watcher(0)
    table.join("Ann", "token", 0)
    table.attach(ann)
    table.start()
    try:
        await until(lambda: 0 in authority.state.to_act)
        table.detach(ann)
        await until(lambda: authority.seats[0].away)
        await until(lambda: authority.state.is_over)
        assert authority.state.results and authority.state.winners
        # computers played every seat, the stand-in too: every action was stored
        stored = authority.store.load("t")
        assert stored is not None and stored.finished and len(stored.events) == authority.seq
    finally:
        await table.stop()


class FlakyStore(SqliteStore):
    """A store whose disk fails once: on seat 1's first pass."""

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.failed = False

    def append(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        if event["t"] == "pass" and event["seat"] == 1 and not self.failed:
            self.failed = True
            raise sqlite3.OperationalError("disk I/O error")
        super().append(table_id, seq, event)


async def test_after_a_failed_store_the_game_starts_again_from_what_was_stored(
        caplog: pytest.LogCaptureFixture) -> None:
    table = make_table(FlakyStore())
    authority = table.authority
    ann = Watcher(0)
    table.join("Ann", "token", 0)
    table.attach(ann)
    table.start()
    try:
        await until(lambda: authority.store.failed)  # type: ignore[attr-defined]
        assert not authority.state.has_chosen(1)  # nothing unstored is current
        await until(lambda: authority.state.has_chosen(1))  # the game went on
        assert "the game driver failed" in caplog.text
        # Ann's ask in the stopped game does not take her pass: the running game does.
        data = {"type": "pass", "cards": authority.state.hand(0).names()[:3],
                "state_id": authority.state_id}
        await table.submit(ann, data, rid=1)
        assert authority.state.has_chosen(0) or authority.state.phase is Phase.PLAY
        stored = authority.store.load("t")
        assert stored is not None and len(stored.events) == authority.seq
        passes = [e["seat"] for e in stored.events if e["t"] == "pass"]
        assert sorted(passes) == [0, 1, 2, 3]
    finally:
        await table.stop()
