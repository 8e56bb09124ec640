"""What a table's machinery costs per action without sockets: CPU µs per action (issue 15).

``benchmarks/load.py`` measures a whole server through real websockets, where other
processes' load moves the figures by ten per cent and more from run to run. This runs the
same work without the transport, in one event loop, flat out: ``--tables`` tables of one
scripted person and three ``--level`` computers (the load benchmark's tables, bot delay 0),
each a real :class:`~hearts.server.table.Table` with its
:class:`~hearts.server.authority.TableAuthority` and the game driver, an SQLite file
committed an event at a time and checkpointed every two seconds as the server's is,
and a connection per table that only keeps its messages. The person acts on the
authority's state directly (no client parsing in the figure): the lowest legal cards, entropy at
each commitment, through :meth:`Table.submit` as a websocket message would. It prints the
process's CPU time per accepted action (every state change, deals included) over every
table's whole game, then what a full garbage collection costs with those whole games held
(a busy server's tables are at every stage of their games, and each full collection stops
every table); ``--profile N`` prints cProfile's N costliest functions instead::

    taskset -c 1 .venv/bin/python benchmarks/table_cost.py
    taskset -c 1 .venv/bin/python benchmarks/table_cost.py --profile 40
    taskset -c 1 .venv/bin/python benchmarks/table_cost.py --tables 1000 --collector

``--collector`` runs the server's :class:`~hearts.server.collector.SweepingCollector` beside
the tables as ``hearts serve`` does (the interpreter's collections off, a sweep every
``--sweep`` seconds); without it, the interpreter collects as it would by itself (at its default
thresholds, everything made before the tables frozen). Either way the run prints the
collections made while the tables played (not the full collections timed after): how many,
the unreachable objects they found, and the longest of each generation.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from hearts.cli.common import level_name, non_negative_int, positive_int, positive_number
from hearts.core import Phase, encode_cards
from hearts.core._native import engine_in_use as core_engine
from hearts.players._native import engine_in_use as players_engine
from hearts.server.app import maintain_store
from hearts.server.authority import TableAuthority
from hearts.server.collector import SweepingCollector
from hearts.server.settings import HUMAN, ServerConfig, TableSettings
from hearts.server.store import SqliteStore
from hearts.server.table import Table

__all__ = ["Pauses", "Person", "full_collection", "main", "play_tables"]

CONFIG = ServerConfig(bot_delay_s=0.0, entropy_timeout_s=1.0, grace_s=600.0)


class Person:
    """Seat 0's connection: it keeps nothing, and acts whenever a state is its turn."""

    seat = 0

    def __init__(self, table: Table) -> None:
        self.table = table
        self.requests = 0
        self.acting = False
        self.tasks: set[asyncio.Task[None]] = set()

    def send_text(self, text: str) -> None:
        """A message from the table: entropy for a commitment, an action for its turn."""
        loop = asyncio.get_running_loop()
        if text.startswith('{"type":"commit"'):
            loop.call_soon(self.table.add_entropy, 0, "ab" * 16)
        elif (not self.acting and text.startswith('{"type":"state"')
              and 0 in self.table.authority.state.to_act):
            self.acting = True
            task = loop.create_task(self._act())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _act(self) -> None:
        authority = self.table.authority
        state = authority.state
        legal = encode_cards(state.legal_cards(0))
        message: dict[str, Any] = {"state_id": authority.state_id}
        if state.phase is Phase.PASS:
            message.update(type="pass", cards=legal[:state.rules.pass_count])
        elif state.phase is Phase.PLAY:
            message.update(type="play", card=legal[0])
        else:
            message.update(type="moon", choice="subtract")
        self.requests += 1
        self.acting = False
        await self.table.submit(self, message, self.requests)


async def play_tables(tables: int, level: str, home: Path) -> tuple[int, float, Pauses, str]:
    """Play every table's game to its end; the actions accepted, the CPU seconds, the
    collections made while they played and :func:`full_collection`'s figures after."""
    store = SqliteStore(home / "tables.db")
    made = []
    for number in range(tables):
        settings = TableSettings.build(preset="card-commons", players=4, options="",
                                       target=None, seats=[HUMAN, level, level, level],
                                       public=False, title="cost", bot_seed=f"cost-{number}")
        store.create_table(f"t{number}", settings.to_json())
        table = Table(TableAuthority(f"t{number}", settings, store, CONFIG))
        table.join("Person", f"token-{number}", 0)
        table.attach(Person(table))
        made.append(table)
    upkeep = asyncio.create_task(maintain_store(store))  # checkpoints, as the server's
    with Pauses() as pauses:
        started = time.process_time()
        for table in made:
            table.start()
        while any(not table.authority.state.is_over for table in made):
            await asyncio.sleep(0.01)
        spent = time.process_time() - started
    upkeep.cancel()
    collected = full_collection(len(made))
    for table in made:
        await table.stop()
    store.close()
    return sum(table.authority.state_id for table in made), spent, pauses, collected


def full_collection(tables: int) -> str:
    """What a full garbage collection costs with these tables' whole games held (the
    work of every full collection of a server whose tables are that far into their games):
    the objects it tracks per table and the longest of three collections."""
    gc.collect()
    tracked = len(gc.get_objects())
    longest = 0.0
    for _ in range(3):
        started = time.perf_counter()
        gc.collect()
        longest = max(longest, time.perf_counter() - started)
    return (f"with every game over and held: {tracked / tables:.0f} tracked objects a table "
            f"(all of the process's), a full garbage collection {1e3 * longest:.1f} ms")


class Pauses:
    """The garbage collections made while it is open: how many, the unreachable objects
    they found, the longest of each generation."""

    def __init__(self) -> None:
        self.count = 0
        self.found = 0
        self.longest = [0.0, 0.0, 0.0]  # by generation: 2 is a full collection
        self._started = 0.0

    def __enter__(self) -> Pauses:
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.count += 1
            self.found += info["collected"]
            generation = info["generation"]
            self.longest[generation] = max(self.longest[generation],
                                           time.perf_counter() - self._started)


def main() -> None:
    """Parse the options, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=positive_int, default=20)
    parser.add_argument("--level", type=level_name, default="normal")
    parser.add_argument("--collector", action="store_true",
                        help="collect as the server does (see above)")
    parser.add_argument("--sweep", type=positive_number, default=30.0, metavar="S",
                        help="with --collector, sweep every S seconds (default 30)")
    parser.add_argument("--profile", type=non_negative_int, default=0, metavar="N",
                        help="print cProfile's N costliest functions (by own time)")
    args = parser.parse_args()
    print(f"engines: core {core_engine()}; players {players_engine()}")
    with tempfile.TemporaryDirectory() as home:
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:
            profile.enable()
        collector = SweepingCollector(args.sweep) if args.collector else None
        if collector is not None:
            collector.start()
        else:
            gc.freeze()
        actions, spent, pauses, collected = asyncio.run(play_tables(args.tables, args.level,
                                                                    Path(home)))
        if collector is not None:
            collector.stop()
        if profile is not None:
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    print(f"{args.tables} tables, one person and three {args.level} computers each: "
          f"{actions} actions, {1e6 * spent / actions:.1f} µs CPU per action")
    kind = (f"the server's: {collector.sweeps} sweeps"
            if collector is not None else "the interpreter's own")
    print(f"garbage collections while the tables played ({kind}): {pauses.count}, finding "
          f"{pauses.found} unreachable objects; the longest of generations 0, 1 and 2 (full): "
          f"{', '.join(f'{1e3 * longest:.1f}' for longest in pauses.longest)} ms")
    print(collected)


if __name__ == "__main__":
    main()
