"""``hearts serve``: the game server with its browser client and SQLite store."""

from __future__ import annotations

import argparse
import gc
import os
from pathlib import Path

import platformdirs

__all__ = ["configure", "default_db", "run"]


def default_db() -> Path:
    """``server.db`` in the user's data directory (``$HEARTS_HOME`` when set)."""
    home = os.environ.get("HEARTS_HOME") or platformdirs.user_data_dir("card-commons-hearts")
    return Path(home) / "server.db"


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every interface; default %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    parser.add_argument("--db", type=Path, default=None,
                        help=f"SQLite file of tables and game logs (default {default_db()})")
    parser.add_argument("--grace", type=float, default=60.0, metavar="SECONDS",
                        help="how long a player who dropped keeps the seat before a computer "
                        "stands in (default %(default)s)")
    parser.add_argument("--entropy-timeout", type=float, default=3.0, metavar="SECONDS",
                        help="how long a deal waits for players' entropy (default %(default)s)")
    parser.add_argument("--bot-delay", type=float, default=0.7, metavar="SECONDS",
                        help="pause before each computer play, so people see the trick "
                        "(default %(default)s)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from hearts.server import UVICORN_OPTIONS, ServerConfig, create_app

    db = args.db or default_db()
    config = ServerConfig(grace_s=args.grace, entropy_timeout_s=args.entropy_timeout,
                          bot_delay_s=args.bot_delay)
    app = create_app(db, config)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    print(f"Card Commons Hearts: open http://{shown}:{args.port}/ in your browser", flush=True)
    print(f"Keep score of a real-deck game on a phone: http://{shown}:{args.port}/score",
          flush=True)
    print(f"Tables are stored in {db}. Stop with Ctrl+C.", flush=True)
    # Fewer, cheaper collections: a game server makes many short-lived states, and a
    # full collection pauses every table at once (tens of ms with hundreds of tables).
    gc.set_threshold(20_000, 20, 20)
    gc.freeze()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **UVICORN_OPTIONS)
    return 0
