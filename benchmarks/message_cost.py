"""What a table spends building its state messages: µs per action (issue 15).

After every action the server sends each seat its own state message
(``TableAuthority.broadcast_state``: a view per seat, its JSON, the page's facts, one
encoding). This replays seeded games (random legal play, deals from a commitment and
entropy as at a real table) through a :class:`TableAuthority` with a connection on each
of the first ``--connected`` seats (every seat by default; 1 is the load benchmark's table
of one person and three computers) that only keeps the text, records every state with the
events its message carried, then times, per action:

- ``broadcast_state``: the whole message building, as the server runs it;
- ``view``: ``view(state, seat)`` alone, for every seat (the public part is built once
  per state and shared, as the server's views are);
- ``to_json``: ``PlayerView.to_json()`` alone (on views built beforehand), every seat.

Each figure is CPU time (the issue's measure, and what other load on a shared machine
disturbs least), the best of ``--repeats`` passes over the recorded states. Pin it to
one core::

    taskset -c 1 .venv/bin/python benchmarks/message_cost.py
    taskset -c 1 .venv/bin/python benchmarks/message_cost.py --connected 1
    taskset -c 1 .venv/bin/python benchmarks/message_cost.py --rules classic:players=6
    taskset -c 1 .venv/bin/python benchmarks/message_cost.py --profile   # where it goes

The first line says which engine ran (``HEARTS_PURE_PYTHON=1`` times the pure one).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hearts.cli.common import positive_int, rules_text
from hearts.core import Action, GameState, PlayerView, Rules, view
from hearts.core._native import engine_in_use
from hearts.players import decide, make_player
from hearts.server.authority import TableAuthority
from hearts.server.settings import HUMAN, ServerConfig, TableSettings
from hearts.server.store import SqliteStore

__all__ = ["Keeper", "Step", "main", "record_games", "time_steps"]


class Keeper:
    """A connection that keeps only the last text it was sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.text = ""

    def send_text(self, text: str) -> None:
        self.text = text


@dataclass(frozen=True)
class Step:
    """A state a table reached, its state id and the events its message carried."""

    state: GameState
    state_id: int
    events: list[dict[str, Any]] | None


def record_games(rules: Rules, games: int, connected: int | None = None
                 ) -> list[tuple[TableAuthority, list[Step]]]:
    """Seeded games played to their end at tables of the rules' seats, the first
    ``connected`` of them (every one by default) with a connection."""
    seats = range(rules.players)
    played = []
    for game in range(games):
        settings = TableSettings(rules=rules.text, seats=(HUMAN,) * rules.players,
                                 public=True, title="Bench", bot_seed="bench")
        store = SqliteStore(":memory:")
        store.create_table("bench", settings.to_json())
        table = TableAuthority("bench", settings, store, ServerConfig(),
                               clock=lambda: 0.0)
        keepers = [Keeper(seat) for seat in seats[:connected]]
        for seat in seats:
            table.join(f"P{seat}", f"token-{seat}")
        for keeper in keepers:
            table.attach(keeper)
        players = [make_player("random", f"{game}/{seat}") for seat in seats]
        steps = []
        while not table.state.is_over:
            if table.needs_commitment:
                table.commit_round(f"secret-{game}-{table.state.round_no}")
                for seat in seats:
                    table.add_entropy(seat, f"entropy-{seat}")
                action: Action = table.deal()
            else:
                seat = table.state.to_act[0]
                action = decide(players[seat], view(table.state, seat))
            before = table.state
            table.commit_action(before, action, before.apply(action))
            events = json.loads(keepers[0].text).get("events")
            steps.append(Step(table.state, table.state_id, events))
        played.append((table, steps))
    return played


def _broadcasts(played: list[tuple[TableAuthority, list[Step]]]) -> None:
    for table, steps in played:
        for step in steps:
            table.state, table.state_id = step.state, step.state_id
            table.broadcast_state(step.events)


def _views(played: list[tuple[TableAuthority, list[Step]]]) -> None:
    for _, steps in played:
        for step in steps:
            for seat in range(step.state.players):
                view(step.state, seat)


def time_steps(played: list[tuple[TableAuthority, list[Step]]], repeats: int
               ) -> dict[str, float]:
    """µs per action of each measured part, the best of ``repeats`` passes."""
    actions = sum(len(steps) for _, steps in played)
    seen: list[PlayerView] = [view(step.state, seat) for _, steps in played
                              for step in steps for seat in range(step.state.players)]

    def to_json() -> None:
        for one in seen:
            one.to_json()

    parts: dict[str, Callable[[], None]] = {
        "broadcast_state": lambda: _broadcasts(played),
        "view": lambda: _views(played),
        "to_json": to_json,
    }
    figures = {}
    for name, run in parts.items():
        best = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
        figures[name] = best / actions * 1e6
    return figures


def main() -> None:
    """Record, time and print (or profile)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=rules_text, default="standard",
                        help="preset[:options] (default: standard)")
    parser.add_argument("--games", type=positive_int, default=5)
    parser.add_argument("--repeats", type=positive_int, default=5)
    parser.add_argument("--connected", type=positive_int,
                        help="seats with a connection (default: every seat; the load "
                             "benchmark's tables: 1)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the broadcasts and print the top functions")
    args = parser.parse_args()
    rules: Rules = args.rules
    connected: int = rules.players if args.connected is None else args.connected
    if connected > rules.players:
        parser.error(f"argument --connected: at most the {rules.players} seats of "
                     f"{rules.text}, not {connected}")
    print(f"engine: {engine_in_use()}")
    played = record_games(rules, args.games, connected)
    actions = sum(len(steps) for _, steps in played)
    print(f"{args.games} games of {rules.text}, {actions} actions, {rules.players} seats, "
          f"{connected} connected")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(_broadcasts, played)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    for name, micros in time_steps(played, args.repeats).items():
        print(f"{name:>16}: {micros:7.1f} µs per action")


if __name__ == "__main__":
    main()
