"""Real PostgreSQL and Redis for tests, named by ``HEARTS_TEST_POSTGRES`` and
``HEARTS_TEST_REDIS`` (``tests/cluster/services.sh`` starts a throwaway pair; CI does).

Without them the tests that need them skip, saying so. Each test gets a database of its
own, dropped afterwards, so tests never see each other's tables.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

__all__ = ["POSTGRES", "REDIS", "fresh_database", "needs_postgres", "needs_servers"]

POSTGRES = os.environ.get("HEARTS_TEST_POSTGRES", "")
REDIS = os.environ.get("HEARTS_TEST_REDIS", "")

needs_postgres = pytest.mark.skipif(
    not POSTGRES, reason="HEARTS_TEST_POSTGRES is not set (tests/cluster/services.sh starts one)")
needs_servers = pytest.mark.skipif(
    not (POSTGRES and REDIS), reason="HEARTS_TEST_POSTGRES and HEARTS_TEST_REDIS are not set "
    "(tests/cluster/services.sh starts both)")


@contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new, empty database on the test server, dropped afterwards."""
    import psycopg
    from psycopg import sql

    name = f"hearts_test_{secrets.token_hex(4)}"
    base, _, _ = POSTGRES.rpartition("/")
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
