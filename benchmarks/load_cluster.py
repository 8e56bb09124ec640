"""Load across processes: 1 and then 2 ``hearts serve`` processes on one PostgreSQL database
and one Redis, the same scripted players as ``benchmarks/load.py``, in one run.

Each case starts its processes on a fresh database (``--db``, a server URL: a database is
created for the case and dropped after it) and a shared Redis (``--bus``). Tables are
created round-robin on the processes (the creating process owns a table). With ``--route
tag`` (the default) each process runs with ``--route-tag pN`` and each table's scripted
player connects to the process its table id names, as behind the proxy of
``docs/deploy.md`` that routes by the tag. With ``--route any`` the players connect
round-robin, shifted so that with two processes half of them reach their table through the
other process (relayed over Redis), as behind a proxy that knows nothing of tables.
Computer seats play with the server's pause (``--bot-delay``), the player thinks
``--think`` seconds before each action.

It prints, per case: processes, tables, tables held, actions a second, p50/p99 of the
players' action-to-ack latency, the processes' CPU (their sum, in % of one core) and CPU
per accepted action, this load client's own CPU and the machine's load average.

The target: with 2 processes, at least 1.5x the tables one process holds at the same p99.
What one process holds is searched for: 1 process at ``--tables``, then ``--step`` more
at a time, until its p99 passes ``--p99`` ms (or it drops tables); the most that stayed
within is its capacity. Then 2 processes run at that many tables and at 1.5x as many, and
the run says whether 2 processes hold 1.5x the tables within the same p99 bound.

    eval "$(tests/cluster/services.sh start /tmp/hearts-services)"
    .venv/bin/python benchmarks/load_cluster.py --db "$HEARTS_TEST_POSTGRES" \\
        --bus "$HEARTS_TEST_REDIS" --tables 200 --step 200 --p99 50 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
import psycopg
from load import Totals, cpu_seconds, free_port, player
from psycopg import sql

from hearts.cli.common import level_name, non_negative_number, positive_int, positive_number

__all__ = ["main", "run"]


async def _ready(url: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=5) as http:
        for _ in range(600):
            try:
                if (await http.get("/api/config")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit(f"{url} did not start within a minute")


def _database(admin_url: str, name: str, create: bool) -> str:
    with psycopg.connect(admin_url, autocommit=True) as admin:
        if create:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        else:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
    return f"{admin_url.rpartition('/')[0]}/{name}"


async def run(processes: int, tables: int, *, db: str, bus: str, seconds: float,
              warmup: float, level: str, bot_delay: float, think: float,
              route: str = "tag") -> dict[str, Any]:
    """One case: start the processes, fill them with tables and players, measure."""
    name = f"hearts_load_{secrets.token_hex(4)}"
    url_db = _database(db, name, create=True)
    ports = [free_port() for _ in range(processes)]
    servers = [subprocess.Popen(
        [sys.executable, "-m", "hearts.cli.main", "serve", "--port", str(port), "--db", url_db,
         "--bus", bus, "--bot-delay", str(bot_delay), "--entropy-timeout", "1",
         "--grace", "600", *(["--route-tag", f"p{index}"] if route == "tag" else [])],
        stdout=subprocess.DEVNULL) for index, port in enumerate(ports)]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        await asyncio.gather(*(_ready(url) for url in urls))
        made = []
        clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in urls]
        for index in range(tables):
            response = await clients[index % processes].post("/api/tables", json={
                "name": f"P{index}", "players": 4, "seats": ["human", level, level, level],
                "public": False})
            response.raise_for_status()
            made.append(response.json())
        for client in clients:
            await client.aclose()
        totals, stop = Totals(), asyncio.Event()
        tasks = [asyncio.create_task(player(
            "ws" + urls[_process_of(m["table"]["id"], index, processes, route)][4:],
            m["table"]["id"], m["token"], think, totals, stop)) for index, m in enumerate(made)]
        for _ in range(600):
            if len(totals.state_ids) >= len(made):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(warmup)
        start_ids = dict(totals.state_ids)
        cpu_start = [cpu_seconds(s.pid) or 0.0 for s in servers]
        load_start, own_start = os.getloadavg()[0], time.process_time()
        totals.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        totals.measuring = False
        elapsed = time.perf_counter() - started
        cpu_end = [cpu_seconds(s.pid) or 0.0 for s in servers]
        own_cpu, load_end = time.process_time() - own_start, os.getloadavg()[0]
        end_ids = dict(totals.state_ids)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
        _database(db, name, create=False)
    latencies = sorted(totals.latencies)
    accepted = sum(end - start_ids[t] for t, end in end_ids.items() if t in start_ids)
    server_cpu = sum(end - start for start, end in zip(cpu_start, cpu_end, strict=True))
    return {
        "processes": processes, "tables": tables, "tables_held": len(totals.held),
        "actions_per_s": round(accepted / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2)
        if latencies else None,
        "samples": len(latencies), "errors": totals.errors,
        "servers_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "each_server_cpu_percent": [round(100 * (e - s) / elapsed, 1)
                                    for s, e in zip(cpu_start, cpu_end, strict=True)],
        "server_cpu_us_per_action": round(1e6 * server_cpu / accepted) if accepted else None,
        "client_cpu_percent": round(100 * own_cpu / elapsed, 1),
        "machine_load": [round(load_start, 1), round(load_end, 1)],
    }


def _process_of(table_id: str, index: int, processes: int, route: str) -> int:
    """The process the ``index``-th table's player connects to: the one its id's route
    tag names, or (``any``) round-robin, shifted off the table's owner."""
    if route == "tag":
        return int(table_id.split(".", 1)[0].removeprefix("p"))
    return (index + index // processes) % processes


_HEADER = (f"{'procs':>5} {'tables':>6} {'held':>5} {'actions/s':>9} {'p50 ms':>8} "
           f"{'p99 ms':>8} {'srv %':>6} {'per proc %':>12} {'us/act':>7} {'cli %':>6}  load avg")


def _line(f: dict[str, Any]) -> str:
    each = "/".join(str(p) for p in f["each_server_cpu_percent"])
    return (f"{f['processes']:>5} {f['tables']:>6} {f['tables_held']:>5} "
            f"{f['actions_per_s']:>9} {f['p50_ms']!s:>8} {f['p99_ms']!s:>8} "
            f"{f['servers_cpu_percent']:>6} {each:>12} {f['server_cpu_us_per_action']!s:>7} "
            f"{f['client_cpu_percent']:>6}  {f['machine_load'][0]}->{f['machine_load'][1]}")


def _within(figures: dict[str, Any], bound_ms: float) -> bool:
    """Every table held and the players' p99 within the bound."""
    return (figures["tables_held"] == figures["tables"] and figures["p99_ms"] is not None
            and figures["p99_ms"] <= bound_ms)


def main() -> None:
    """Search one process's capacity within the p99 bound, then run 2 processes at it and
    at 1.5x it; say whether the target is met."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("HEARTS_TEST_POSTGRES"),
                        help="a PostgreSQL server URL whose user may create databases "
                        "(default $HEARTS_TEST_POSTGRES)")
    parser.add_argument("--bus", default=os.environ.get("HEARTS_TEST_REDIS"),
                        help="a Redis URL (default $HEARTS_TEST_REDIS)")
    parser.add_argument("--tables", type=positive_int, default=200,
                        help="tables of the first one-process case")
    parser.add_argument("--step", type=positive_int, default=200,
                        help="tables added per one-process case while it stays within --p99")
    parser.add_argument("--p99", type=positive_number, default=50.0,
                        help="the latency bound, ms (default: the issue's 50 ms)")
    parser.add_argument("--most", type=positive_int, default=3000,
                        help="stop the search here")
    parser.add_argument("--seconds", type=positive_number, default=10.0)
    parser.add_argument("--warmup", type=non_negative_number, default=4.0)
    parser.add_argument("--level", type=level_name, default="normal")
    parser.add_argument("--bot-delay", type=non_negative_number, default=0.7)
    parser.add_argument("--think", type=non_negative_number, default=0.5)
    parser.add_argument("--route", choices=("tag", "any"), default="tag",
                        help="players connect to their table's process by its id's route "
                        "tag (default), or to any process (half relayed with two)")
    args = parser.parse_args()
    if not args.db or not args.bus:
        parser.error("give --db and --bus (or set HEARTS_TEST_POSTGRES and HEARTS_TEST_REDIS)")
    if args.most < args.tables:
        parser.error(f"argument --most: the search starts at --tables {args.tables}, so "
                     f"--most must be at least that, not {args.most}")
    print(f"{os.cpu_count()} cores, nothing pinned (the processes and this client share "
          f"them); {args.level} computers, bot delay {args.bot_delay} s, think {args.think} s; "
          f"{args.warmup} s warm-up, {args.seconds} s measured per case; players routed "
          f"by {'route tag' if args.route == 'tag' else 'round-robin'}; bound p99 <= "
          f"{args.p99:g} ms", flush=True)
    print(_HEADER, flush=True)

    def case(processes: int, tables: int) -> dict[str, Any]:
        figures = asyncio.run(run(processes, tables, db=args.db, bus=args.bus,
                                  seconds=args.seconds, warmup=args.warmup, level=args.level,
                                  bot_delay=args.bot_delay, think=args.think,
                                  route=args.route))
        print(_line(figures), flush=True)
        return figures

    capacity = 0
    tables = args.tables
    while tables <= args.most and _within(case(1, tables), args.p99):
        capacity = tables
        tables += args.step
    if not capacity:
        print(f"1 process does not hold {args.tables} tables within p99 {args.p99:g} ms: "
              "start lower", flush=True)
        return
    print(f"1 process holds {capacity} tables within p99 {args.p99:g} ms", flush=True)
    case(2, capacity)
    wanted = -(-3 * capacity // 2)
    verdict = "meets" if _within(case(2, wanted), args.p99) else "misses"
    print(f"2 processes at {wanted} tables (1.5x): {verdict} the target (p99 <= "
          f"{args.p99:g} ms, every table held)", flush=True)


if __name__ == "__main__":
    main()
