"""``hearts serve``: the game server with its browser client and its store (an SQLite
file, or PostgreSQL shared by several processes connected through Redis)."""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sqlite3
from pathlib import Path

import platformdirs

from hearts.cli.common import (
    CommandLineError,
    non_negative_number,
    port_number,
    positive_number,
)

__all__ = ["configure", "default_db", "route_tag", "run", "store_argument"]


def default_db() -> Path:
    """``server.db`` in the user's data directory (``$HEARTS_HOME`` when set)."""
    home = os.environ.get("HEARTS_HOME") or platformdirs.user_data_dir("card-commons-hearts")
    return Path(home) / "server.db"


def store_argument(text: str) -> str | Path:
    """A ``--db`` value: a ``postgresql://`` URL as given, else an SQLite file's path."""
    from hearts.server.store import is_postgres_url

    return text if is_postgres_url(text) else Path(text)


def route_tag(text: str) -> str:
    """A ``--route-tag``: 1-16 lowercase letters and digits (it begins table ids in URLs)."""
    if not re.fullmatch(r"[a-z0-9]{1,16}", text):
        raise argparse.ArgumentTypeError(
            f"a route tag is 1-16 lowercase letters and digits, not {text!r}")
    return text


def _redacted(url: str) -> str:
    """A URL as the banner shows it: without its password."""
    from hearts.server.bus import redact_url

    return redact_url(url)


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Run the game server: tables in the browser for people and "
                          "computer players (invite links, spectators, replays, duplicate "
                          "challenges) and a phone score sheet at /score. Tables and game "
                          "logs are kept in an SQLite file (--db), or in PostgreSQL shared "
                          "by several processes connected through Redis (--bus; "
                          "docs/deploy.md). HEARTS_LOG=INFO shows the server's own log "
                          "lines (default: WARNING).")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every interface; default %(default)s)")
    parser.add_argument("--port", type=port_number, default=8000, help="port (default %(default)s)")
    parser.add_argument("--db", type=store_argument, default=None,
                        help="SQLite file of tables and game logs, or a postgresql:// URL "
                        f"(default {default_db()})")
    parser.add_argument("--rate-limit", type=positive_number, default=10.0,
                        metavar="PER_SECOND",
                        help="messages a second one connection may send, with bursts of "
                        "twice as many or 20, whichever is more (default %(default)s)")
    parser.add_argument("--bus", default=None, metavar="redis://HOST:PORT",
                        help="run as one of several processes sharing a PostgreSQL --db, "
                        "connected through this Redis server (docs/deploy.md)")
    parser.add_argument("--lease", type=positive_number, default=5.0, metavar="SECONDS",
                        help="with --bus: how long a table stays with a process that stopped "
                        "answering before another takes it over (default %(default)s)")
    parser.add_argument("--route-tag", type=route_tag, default=None, metavar="TAG",
                        help="with --bus: begin the ids of the tables this process creates "
                        "with TAG and a dot, so a proxy can send their clients here "
                        "(docs/deploy.md)")
    parser.add_argument("--grace", type=non_negative_number, default=60.0, metavar="SECONDS",
                        help="how long a player who dropped keeps the seat before a computer "
                        "stands in (default %(default)s)")
    parser.add_argument("--entropy-timeout", type=non_negative_number, default=3.0,
                        metavar="SECONDS",
                        help="how long a deal waits for players' entropy (default %(default)s)")
    parser.add_argument("--bot-delay", type=non_negative_number, default=0.7, metavar="SECONDS",
                        help="pause before each computer play, so people see the trick "
                        "(default %(default)s)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from hearts.server import UVICORN_OPTIONS, ServerConfig, create_app
    from hearts.server.collector import SweepingCollector
    from hearts.server.store import SqliteStore

    log_level = os.environ.get("HEARTS_LOG", "WARNING").upper()
    levels = logging.getLevelNamesMapping()  # the logging module's own names
    if log_level not in levels:
        named = ", ".join(sorted(levels, key=lambda name: (levels[name], name)))
        raise CommandLineError(f"HEARTS_LOG is one of {named}, not {log_level!r}")
    db = args.db or default_db()
    config = ServerConfig(grace_s=args.grace, entropy_timeout_s=args.entropy_timeout,
                          bot_delay_s=args.bot_delay, rate_per_s=args.rate_limit,
                          rate_burst=max(20, int(2 * args.rate_limit)),
                          table_prefix=f"{args.route_tag}." if args.route_tag else "")
    if args.route_tag and args.bus is None:
        raise CommandLineError("--route-tag routes tables between the processes of a cluster: "
                         "give --bus too")
    bus = None
    if args.bus is not None:
        from hearts.server.bus import Bus, is_redis_url

        if not is_redis_url(args.bus):
            raise CommandLineError(f"--bus takes a redis:// URL, not {_redacted(args.bus)!r}")
        bus = Bus(args.bus, lease_s=args.lease)
    try:
        app = create_app(db, config, bus)
    except sqlite3.Error as exc:  # not an SQLite file, a folder, a file it may not open
        raise CommandLineError(f"--db {db}: {exc}") from None
    store = app.state.hub.store
    if isinstance(store, SqliteStore):
        # a store that lost accepted events must not go on: stop, and start again from it
        store.on_failure = lambda failure: os.kill(os.getpid(), signal.SIGTERM)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    # the server's own log lines (takeovers, lost leases, failed writes): HEARTS_LOG=INFO
    # shows every table a process takes over
    logging.basicConfig(level=log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    print(f"Card Commons Hearts: open http://{shown}:{args.port}/ in your browser", flush=True)
    print(f"Keep score of a real-deck game on a phone: http://{shown}:{args.port}/score",
          flush=True)
    shown_db = db if isinstance(db, Path) else f"PostgreSQL at {_redacted(db)}"
    node = f" as node {bus.node_id} of the cluster on {_redacted(args.bus)}" if bus else ""
    print(f"Tables are stored in {shown_db}{node}. Stop with Ctrl+C.", flush=True)
    SweepingCollector().start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **UVICORN_OPTIONS)
    return 0
