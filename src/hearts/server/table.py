"""One table's authority: it owns the game state, checks every action, stores, broadcasts.

Every change is an *event* (a seat taken, a commitment, entropy, a deal, a pass,
a play, a moon choice). An event is applied to a copy of the state, stored, and only
then made current and broadcast, so replaying the stored log rebuilds the table
exactly after a crash. Client actions are checked in a fixed order: message shape
(by :mod:`hearts.server.protocol`), seat token, game over, the seat's turn,
legality, and last the state id the client acted on (a stale one is refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from hearts.core.cards import Card, CardSet, card_name, parse_card
from hearts.core.errors import HeartsError, IllegalActionError
from hearts.core.fairness import check_entropy, commitment, derive_deal_seed, fairness_entry
from hearts.core.record import game_record
from hearts.core.sheet import format_sheet
from hearts.core.state import (
    Action,
    ChooseMoon,
    Deal,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    new_game,
)
from hearts.core.view import view
from hearts.players.base import decide
from hearts.players.levels import make_player
from hearts.server.protocol import RequestError, error_message, request_id
from hearts.server.settings import HUMAN, ServerConfig, TableSettings
from hearts.server.store import Store

__all__ = ["RoundFairness", "SeatInfo", "Subscriber", "Table", "hash_token"]


log = logging.getLogger(__name__)

# Levels that decide in well under a millisecond run on the event loop: a thread would
# only add GIL contention. Searching levels run in a thread so the loop stays responsive.
QUICK_LEVELS = frozenset({"random", "easy", "normal"})


def hash_token(token: str) -> str:
    """Seat tokens are stored only as hashes."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Subscriber(Protocol):
    """A connection watching a table: a seat's, or a spectator's (seat None)."""

    seat: int | None

    def send_text(self, text: str) -> None:
        """Queue a message without waiting (a slow client must never hold the table)."""
        ...


@dataclass(slots=True)
class RoundFairness:
    """One round's commitment, its secret seed and the entropy each seat sent."""

    round_no: int
    server_seed: str
    commit: str
    entropy: dict[int, str] = field(default_factory=dict)
    deadline: float = 0.0
    dealt: bool = False

    def public(self, revealed: bool) -> dict[str, Any]:
        """What clients may know: the seed only once the round is over."""
        data = fairness_entry(self.server_seed if revealed else None, self.commit,
                              [self.entropy[s] for s in sorted(self.entropy)])
        data["round"] = self.round_no
        if revealed:
            data["deal_seed"] = derive_deal_seed(self.server_seed, self.entropy.values())
        return data


@dataclass(slots=True)
class SeatInfo:
    """Who sits in a seat and whether they are here."""

    kind: str
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    away: bool = False
    grace: asyncio.TimerHandle | None = None

    @property
    def human(self) -> bool:
        """A person's seat (computer seats have a level as kind)."""
        return self.kind == HUMAN


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


class Table:
    """The authority of one table."""

    def __init__(self, table_id: str, settings: TableSettings, store: Store,
                 config: ServerConfig, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.table_id = table_id
        self.settings = settings
        self.rules = settings.parsed_rules
        self.rules_text = self.rules.text  # computed on each access: keep one
        self.store = store
        self.config = config
        self.clock = clock
        self.state: GameState = new_game(self.rules, None)
        self.state_id = 0
        # the state id at which this round's passing began: passes are simultaneous, so
        # another seat's pass does not make a pass chosen on an earlier id of it stale
        self.pass_opened_id = 0
        self.seq = 0
        self.rounds: list[RoundFairness] = []
        self.seats = [SeatInfo(kind) for kind in settings.seats]
        for seat, info in enumerate(self.seats):
            if not info.human:
                info.name = f"Computer {seat + 1} ({info.kind})"
        self.subscribers: set[Subscriber] = set()
        self.lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ facts
    @property
    def started(self) -> bool:
        """Every seat has a player, so the game runs."""
        return all(s.name is not None for s in self.seats)

    @property
    def names(self) -> list[str]:
        """Seat names for sheets and records."""
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def computer_plays(self, seat: int) -> bool:
        """Whether a computer decides for this seat now (its own, or standing in)."""
        info = self.seats[seat]
        return not info.human or info.away

    def computer_level(self, seat: int) -> str:
        """The level that plays a computer seat, or stands in for an absent person."""
        info = self.seats[seat]
        return self.config.takeover_level if info.human else info.kind

    def public_info(self) -> dict[str, Any]:
        """The table as everyone may see it (lobby list and table header)."""
        return {
            "id": self.table_id,
            "title": self.settings.title,
            "rules": self.rules_text,
            "preset": self.rules.preset,
            "players": self.rules.players,
            "public": self.settings.public,
            "started": self.started,
            "over": self.state.is_over,
            "round": self.state.round_no,
            "state_id": self.state_id,
            "removed": CardSet(self.rules.removed).names(),
            "spectators": sum(1 for s in self.subscribers if s.seat is None),
            "seats": [
                {"seat": i, "kind": s.kind, "name": s.name, "taken": s.name is not None,
                 "connected": s.connections > 0, "away": s.away}
                for i, s in enumerate(self.seats)
            ],
        }

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [i for i, s in enumerate(self.seats) if s.human and s.name is None]

    def fairness_public(self) -> list[dict[str, Any]]:
        """Every round's commitment; seeds of finished rounds revealed."""
        finished = {r.round_no for r in self.state.results}
        return [r.public(r.round_no in finished) for r in self.rounds]

    def record(self) -> dict[str, Any]:
        """The game record with each round's fairness section (seeds of finished rounds)."""
        data = game_record(self.state, self.names)
        finished = {r.round_no for r in self.state.results}
        for entry, fair in zip(data["rounds"], self.rounds[: len(data["rounds"])], strict=False):
            public = fair.public(fair.round_no in finished)
            entry["fairness"] = {k: public[k] for k in
                                 ("scheme", "commitment", "server_seed", "entropy")}
        data["table"] = self.table_id
        return data

    # ------------------------------------------------------------ events
    def _apply_event(self, event: dict[str, Any]) -> tuple[GameState, Callable[[], None]]:
        """The state after ``event`` and a function committing its side facts (no I/O)."""
        kind = event["t"]
        state = self.state
        if kind == "join":
            info = self.seats[event["seat"]]

            def take() -> None:
                info.name, info.token_hash = event["name"], event["token"]
            return state, take
        if kind == "fill":
            def fill() -> None:
                for seat in event["seats"]:
                    self.seats[seat].kind = event["level"]
                    self.seats[seat].name = f"Computer {seat + 1} ({event['level']})"
            return state, fill
        if kind == "commit":
            fair = RoundFairness(event["round"], event["server_seed"],
                                 commitment(event["server_seed"]),
                                 deadline=self.clock() + self.config.entropy_timeout_s)
            return state, lambda: self.rounds.append(fair)
        if kind == "entropy":
            current = self.rounds[-1]
            return state, lambda: current.entropy.__setitem__(event["seat"], event["value"])
        if kind == "deal":
            current = self.rounds[-1]
            seed = derive_deal_seed(current.server_seed, current.entropy.values())
            if seed != event["seed"]:
                raise HeartsError(f"stored deal seed {event['seed']} is not the derived {seed}")

            def dealt() -> None:
                current.dealt = True
            return state.apply(Deal.from_seed(self.rules, seed)), dealt
        return state.apply(_action_from_event(event)), lambda: None

    def _record(self, event: dict[str, Any]) -> None:
        """Apply, store, then make current: an event nobody stored is never shown."""
        after, commit_facts = self._apply_event(event)
        self.store.append(self.table_id, self.seq + 1, event)
        self.seq += 1
        commit_facts()
        self._make_current(after)
        if after.is_over:
            self.store.mark_finished(self.table_id)

    def replay(self, events: list[dict[str, Any]]) -> None:
        """Rebuild from a stored log (no storing, no broadcasting)."""
        for event in events:
            after, commit_facts = self._apply_event(event)
            self.seq += 1
            commit_facts()
            self._make_current(after)

    def _make_current(self, after: GameState) -> None:
        """Show ``after`` under the next state id (nothing changes if it is the same state)."""
        if after is self.state:
            return
        opens_pass = after.phase is Phase.PASS and self.state.phase is not Phase.PASS
        self.state = after
        self.state_id += 1
        if opens_pass:
            self.pass_opened_id = self.state_id

    # ------------------------------------------------------------ seats
    def join(self, name: str, token: str, seat: int | None = None) -> int:
        """Take a free human seat (the lowest if none named); returns the seat."""
        free = self.free_seats()
        if not free:
            raise RequestError("no_seat", "every seat is taken; you can watch as a spectator")
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise RequestError("no_seat", f"seat {seat + 1} is not free; free seats: "
                           f"{', '.join(str(s + 1) for s in free)}")
        clean = " ".join(name.split())[:24]
        if not clean:
            raise RequestError("bad_message", "a name needs at least one letter")
        self._record({"t": "join", "seat": seat, "name": clean, "token": hash_token(token)})
        if self.started:
            self.arm_grace()
        self.broadcast_table()
        self.wake()
        return seat

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to, or None."""
        if not token:
            return None
        digest = hash_token(token)
        return next((i for i, s in enumerate(self.seats) if s.token_hash == digest), None)

    def fill_with_computers(self) -> None:
        """Start now: computer players take the free seats."""
        free = self.free_seats()
        if free:
            self._record({"t": "fill", "seats": free, "level": self.config.takeover_level})
            self.arm_grace()
            self.broadcast_table()
            self.wake()

    def attach(self, sub: Subscriber) -> None:
        """A connection starts watching (a seat's returns the seat from any stand-in)."""
        self.subscribers.add(sub)
        if sub.seat is not None:
            info = self.seats[sub.seat]
            info.connections += 1
            if info.grace is not None:
                info.grace.cancel()
                info.grace = None
            if info.away:
                info.away = False
                self.wake()
        self.broadcast_table()

    def detach(self, sub: Subscriber) -> None:
        """A connection left; a seat left empty gets a grace period, then a stand-in."""
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        if sub.seat is not None:
            info = self.seats[sub.seat]
            info.connections -= 1
            if info.connections == 0 and not self.state.is_over:
                loop = asyncio.get_running_loop()
                info.grace = loop.call_later(self.config.grace_s, self._take_over, sub.seat)
        self.broadcast_table()

    def arm_grace(self) -> None:
        """Grace periods for people not connected when the game starts or restarts: a seat
        taken but never connected must not stall the table either."""
        loop = asyncio.get_running_loop()
        for seat, info in enumerate(self.seats):
            if info.human and info.name is not None and info.connections == 0 \
                    and info.grace is None and not self.state.is_over:
                info.grace = loop.call_later(self.config.grace_s, self._take_over, seat)

    def _take_over(self, seat: int) -> None:
        info = self.seats[seat]
        info.grace = None
        if info.connections == 0:
            info.away = True
            self.broadcast_table()
            self.wake()

    # ------------------------------------------------------------ client messages
    def submit(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """Check and apply a client action (shape already checked), ack it, broadcast it."""
        seat = sub.seat
        if seat is None:
            raise RequestError("not_seated", "only a seated player may act: say hello with "
                           "your seat token (spectators watch)")
        state = self.state
        if state.is_over:
            raise RequestError("game_over", "the game is over; no more actions")
        if seat not in state.to_act:
            waiting = ", ".join(self.names[s] for s in state.to_act) or "the deal"
            raise RequestError("not_your_turn", f"it is not your turn: waiting for {waiting}")
        action = self._action(seat, message)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise RequestError("illegal", str(exc), legal=list(exc.legal)) from None
        acted_on = message["state_id"]
        passing_still = isinstance(action, PassCards) and acted_on >= self.pass_opened_id
        if acted_on != self.state_id and not (passing_still and acted_on < self.state_id):
            raise RequestError("stale_state", f"you acted on state {message['state_id']} but the "
                           f"table is at {self.state_id}; here is the current one")
        self._act(action, sub, request_id(message))

    def _action(self, seat: int, message: dict[str, Any]) -> Action:
        kind = message["type"]
        try:
            if kind == "play":
                return Play(seat, Card(message["card"]))
            if kind == "pass":
                cards = [parse_card(c) for c in message["cards"]]
                return PassCards(seat, CardSet(cards))
            return ChooseMoon(seat, MoonChoice(message["choice"]))
        except ValueError as exc:
            text = str(exc) if isinstance(exc, HeartsError) else \
                "the moon choice is subtract or add"
            raise RequestError("illegal", text) from None

    def add_entropy(self, seat: int | None, value: str) -> None:
        """A seated player's entropy for the round about to be dealt."""
        if seat is None:
            raise RequestError("not_seated", "only seated players add entropy")
        current = self.rounds[-1] if self.rounds else None
        if current is None or current.dealt:
            raise RequestError("no_commitment",
                               "entropy is taken between a commitment and its deal")
        if seat in current.entropy:
            raise RequestError("entropy_taken", "this seat already added entropy to this round")
        try:
            check_entropy(value)
        except HeartsError as exc:
            raise RequestError("bad_message", str(exc)) from None
        self._record({"t": "entropy", "seat": seat, "value": value})
        self.wake()

    def _act(self, action: Action, actor: Subscriber | None = None,
             rid: object = None) -> None:
        before = self.state
        self._record(_event_from_action(action))
        if actor is not None:
            actor.send_text(_dumps({"type": "ack", "id": rid, "state_id": self.state_id}))
        self.broadcast_state(self._events(before, action))
        if len(self.state.results) > len(before.results):
            finished = self.rounds[-1]
            self._send_all({"type": "reveal", **finished.public(True)})
        self.wake()

    def _events(self, before: GameState, action: Action) -> list[dict[str, Any]]:
        after = self.state
        events: list[dict[str, Any]] = []
        if isinstance(action, Play) and not after.trick and after.tricks:
            trick = after.tricks[-1]
            events.append({"kind": "trick", "leader": trick.leader, "winner": trick.winner,
                           "cards": [str(c) for c in trick.cards]})
        if len(after.results) > len(before.results):
            result = after.results[-1]
            events.append({"kind": "round_end", "round": result.round_no,
                           "points": list(result.points), "totals": list(result.totals),
                           "shooter": result.shooter,
                           "sheet": format_sheet(after.results, self.names, after.winners)})
        if after.is_over:
            events.append({"kind": "game_over", "winners": list(after.winners)})
        return events

    # ------------------------------------------------------------ broadcasting
    def message_for(self, seat: int | None, kind: str = "state",
                    events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """A full state message for one seat (or a spectator)."""
        data: dict[str, Any] = {
            "type": kind, "state_id": self.state_id,
            "view": view(self.state, seat).to_json(), "table": self.public_info(),
        }
        if events:
            data["events"] = events
        return data

    def broadcast_state(self, events: list[dict[str, Any]] | None = None) -> None:
        """Each subscriber gets its own seat's view, and nothing else."""
        texts: dict[int | None, str] = {}
        for sub in list(self.subscribers):
            if sub.seat not in texts:
                texts[sub.seat] = _dumps(self.message_for(sub.seat, "state", events))
            sub.send_text(texts[sub.seat])

    def broadcast_table(self) -> None:
        """Seat and connection changes."""
        self._send_all({"type": "table", "table": self.public_info()})

    def _send_all(self, data: dict[str, Any]) -> None:
        text = _dumps(data)
        for sub in list(self.subscribers):
            sub.send_text(text)

    def send_error(self, sub: Subscriber, exc: RequestError, rid: object = None) -> None:
        """Tell one connection why its message was refused (a stale one gets the state)."""
        sub.send_text(_dumps(error_message(exc, rid, self.state_id)))
        if exc.code == "stale_state":
            sub.send_text(_dumps(self.message_for(sub.seat)))

    # ------------------------------------------------------------ the driver
    def wake(self) -> None:
        """Something changed: let the driver look again."""
        self._wake.set()

    def start(self) -> None:
        """Run the driver (deals and computer players) until the game is over."""
        if self._task is None and not self.state.is_over:
            self._task = asyncio.create_task(self._drive(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        """Stop the driver and the grace timers."""
        for info in self.seats:
            if info.grace is not None:
                info.grace.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _drive(self) -> None:
        while not self.state.is_over:
            self._wake.clear()
            try:
                wait = await self._step()
            except Exception:
                # A bug must not silently stop the table: log it and try again shortly.
                log.exception("table %s: the driver failed; retrying", self.table_id)
                wait = 1.0
            if wait == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _step(self) -> float | None:
        """Do the next thing nobody else will do; how long to wait (None: until woken)."""
        if not self.started:
            return None
        state = self.state
        if state.phase is Phase.DEAL:
            return self._deal_step()
        seat = next((s for s in state.to_act if self.computer_plays(s)), None)
        if seat is None:
            return None
        if state.phase is Phase.PLAY and self.config.bot_delay_s:
            await asyncio.sleep(self.config.bot_delay_s)
        state_id = self.state_id
        if state is not self.state or not self.computer_plays(seat):
            return 0
        level = self.computer_level(seat)
        try:
            player = make_player(level, f"{self.settings.bot_seed}/{seat}/{state_id}")
            if level in QUICK_LEVELS:
                action = decide(player, view(state, seat))
            else:
                action = await asyncio.to_thread(decide, player, view(state, seat))
        except (HeartsError, ValueError):
            log.exception("table %s: the computer player of seat %d failed", self.table_id, seat)
            action = state.legal_actions(seat)[0]
        async with self.lock:
            if self.state_id == state_id and self.computer_plays(seat):
                try:
                    self._act(action)
                except IllegalActionError:
                    log.exception("table %s: seat %d's computer chose an illegal action; it "
                                  "plays its first legal one", self.table_id, seat)
                    self._act(state.legal_actions(seat)[0])
        return 0

    def _deal_step(self) -> float | None:
        round_no = self.state.round_no
        current = self.rounds[-1] if self.rounds else None
        if current is None or current.round_no != round_no:
            self._record({"t": "commit", "round": round_no, "server_seed": os.urandom(32).hex()})
            fair = self.rounds[-1]
            self._send_all({"type": "commit", "round": round_no, "commitment": fair.commit,
                            "timeout_s": self.config.entropy_timeout_s})
            return 0
        # A person not connected yet (just joined, reloading) may still send entropy;
        # the deadline keeps a leaver from stalling the deal.
        waiting = [s for s, info in enumerate(self.seats)
                   if info.human and not info.away and s not in current.entropy]
        left = current.deadline - self.clock()
        if waiting and left > 0:
            return left
        seed = derive_deal_seed(current.server_seed, current.entropy.values())
        self._record({"t": "deal", "round": round_no, "seed": seed})
        self.broadcast_state([{"kind": "deal", "round": round_no}])
        return 0


def _action_from_event(event: dict[str, Any]) -> Action:
    kind, seat = event["t"], event["seat"]
    if kind == "play":
        return Play(seat, Card(event["card"]))
    if kind == "pass":
        return PassCards(seat, CardSet.parse(" ".join(event["cards"])))
    if kind == "moon":
        return ChooseMoon(seat, MoonChoice(event["choice"]))
    raise HeartsError(f"unknown stored event {kind!r}")


def _event_from_action(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"t": "play", "seat": action.seat, "card": card_name(action.card)}
    if isinstance(action, PassCards):
        return {"t": "pass", "seat": action.seat, "cards": action.cards.names()}
    if isinstance(action, ChooseMoon):
        return {"t": "moon", "seat": action.seat, "choice": action.choice.value}
    raise HeartsError("deals are made by the table itself")

