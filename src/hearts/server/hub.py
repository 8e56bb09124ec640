"""Every table of one server: creating, finding, listing, loading them after a restart."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from hearts.core import HeartsError
from hearts.server.authority import TableAuthority
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import Store
from hearts.server.table import Table

__all__ = ["Hub"]

log = logging.getLogger(__name__)


class Hub:
    """The tables of one server and their shared store."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.tables: dict[str, Table] = {}
        # hint searches run one at a time, waiters in turn: a flood of hints queues here
        # instead of running many searches beside the tables' own computer players
        self.searches = asyncio.Semaphore(1)

    def load(self) -> int:
        """Rebuild every stored table by replaying its log; returns how many are unfinished."""
        unfinished = 0
        for stored in self.store.load_all():
            authority = TableAuthority(stored.table_id, TableSettings.from_json(stored.settings),
                                       self.store, self.config)
            try:
                authority.replay(stored.events)
            except (HeartsError, ValueError, KeyError):
                log.exception("table %s: its log does not replay; it is left out",
                              stored.table_id)
                continue
            self.tables[stored.table_id] = Table(authority)
            if not authority.state.is_over:
                unfinished += 1
        return unfinished

    def start(self) -> None:
        """Run every unfinished table (call inside the event loop)."""
        for table in self.tables.values():
            table.arm_grace()
            table.start()

    async def stop(self) -> None:
        """Stop every table's driver."""
        for table in self.tables.values():
            await table.stop()

    def create(self, settings: TableSettings, creator: str) -> tuple[Table, str]:
        """A new table with its creator in seat 1; returns it and the creator's seat token."""
        table_id = secrets.token_urlsafe(6)
        self.store.create_table(table_id, settings.to_json())
        table = Table(TableAuthority(table_id, settings, self.store, self.config))
        self.tables[table_id] = table
        token = secrets.token_urlsafe(24)
        table.join(creator, token, 0)
        table.start()
        return table, token

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables whose game is not over, newest first."""
        found = [t.authority.public_info() | {"free": t.authority.free_seats()}
                 for t in self.tables.values()
                 if t.authority.settings.public and not t.authority.state.is_over]
        return found[::-1]
