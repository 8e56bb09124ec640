"""One table's authority, without I/O of its own: the game, its event log, the fixed check
order, and the messages each connection gets.

Every change is an *event* (a seat taken, computers filling seats, a commitment,
entropy, a deal, a pass, a play, a moon choice). An event is applied to a copy of the
state, stored, and only then made current and told, so replaying the stored log
rebuilds the table exactly after a crash. Client actions are checked in a fixed order:
message shape (by :mod:`hearts.server.protocol`), seat token, game over, the seat's
turn, legality, and last the state id the client acted on (a stale one is refused).

Nothing here awaits, sleeps or draws randomness: the async driver
(:mod:`hearts.server.table`) passes in the server seeds and the clock, keeps the timers
and runs the game. Messages go to :class:`Subscriber` objects whose ``send_text`` only
queues, so the authority is tested with plain objects and no socket.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from hearts.challenge import Challenge
from hearts.core import (
    FULL_DECK,
    Action,
    CardSet,
    CodecError,
    Deal,
    GameState,
    HeartsError,
    IllegalActionError,
    PassCards,
    Phase,
    PlayerView,
    check_entropy,
    commitment,
    decode_action,
    derive_deal_seed,
    encode_action,
    encode_card,
    encode_cards,
    fairness_entry,
    format_sheet,
    game_record,
    is_whole_number,
    moon_points,
    new_game,
    seat_name,
    shown_name,
    view,
    views,
)
from hearts.server.protocol import RequestError, TokenBucket, compact_json, error_message
from hearts.server.settings import HUMAN, ServerConfig, TableSettings
from hearts.server.store import Store

__all__ = ["RoundFairness", "SeatInfo", "Subscriber", "TableAuthority", "hash_token"]

# The phases in which a seat holds cards of the round in view.
_DEALT_PHASES = frozenset({Phase.PASS, Phase.PLAY, Phase.MOON})


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

    @property
    def deal_seed(self) -> str:
        """The seed the round is dealt from (secret until the round is over)."""
        return derive_deal_seed(self.server_seed, self.entropy.values())

    def public(self, revealed: bool) -> dict[str, Any]:
        """What clients may know: the seed only once the round is over."""
        data = fairness_entry(self.server_seed if revealed else None, self.commit,
                              [self.entropy[s] for s in sorted(self.entropy)])
        data["round"] = self.round_no
        if revealed:
            data["deal_seed"] = self.deal_seed
        return data


@dataclass(slots=True)
class SeatInfo:
    """Who sits in a seat and whether they are here."""

    kind: str
    name: str | None = None
    token_hash: str | None = None
    connections: int = 0
    away: bool = False

    @property
    def human(self) -> bool:
        """A person's seat (computer seats have a level as kind)."""
        return self.kind == HUMAN


# A state message is encoded once for all seats with a mark for each member that is a
# seat's own; the mark (a NUL, which no view or fact holds) encodes as "\u0000" + name.
_OWN = "\x00"
_OWN_MEMBER = re.compile(r'"\\u0000(\w+)"')
# The view's members that change only once a trick or a round (and grow all game): their
# encoding is kept, and marked "\u0001" + name in the message while it is encoded.
_KEPT = ("tricks", "results")
_KEPT_MARK = "\x01"
_KEPT_MARKS = {name: _KEPT_MARK + name for name in _KEPT}
_CARD_NAMES = frozenset(encode_cards(CardSet(FULL_DECK)))


def _member_json(value: Any) -> str:
    """One of a seat's own members encoded as ``compact_json`` would (they are few and small, and
    a call of the encoder costs more than these cases)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is list and _CARD_NAMES.issuperset(value):  # nothing in a card name to escape
        return '["' + '","'.join(value) + '"]' if value else "[]"
    return compact_json(value)


def _event_from_action(before: GameState, action: Action) -> dict[str, Any]:
    """The stored event of a game action (the deal seed names a deal)."""
    if isinstance(action, Deal):
        return {"t": "deal", "round": before.round_no, "seed": action.seed}
    kind, fields = encode_action(action)
    return {"t": kind, "seat": action.seat, **fields}


class TableAuthority:
    """The authority of one table: what is true, what is allowed, who is told what."""

    def __init__(self, table_id: str, settings: TableSettings, store: Store,
                 config: ServerConfig, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.table_id = table_id
        self.settings = settings
        self.rules = settings.parsed_rules
        self.rules_text = self.rules.text  # computed on each access: keep one
        self.store = store
        self.config = config
        self.clock = clock
        # A challenge table deals from the challenge's seed (no commitment: anyone with the
        # code can re-derive its deals, which is what makes it a duplicate game).
        self.challenge = None if settings.challenge is None else Challenge.parse(
            settings.challenge)
        self.state: GameState = (new_game(self.rules, None) if self.challenge is None
                                 else self.challenge.new_game())
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
        self._hint_buckets = [TokenBucket(config.hint_burst, config.hint_per_s)
                              for _ in self.seats]
        # encodings kept between messages: the table's fixed and seating facts (encoded
        # again by broadcast_table, which every seat or connection change calls), and this
        # round's dealt hands by seat
        self._seating_json = ""
        self._dealt: tuple[int, dict[int, list[str]]] = (-1, {})
        # the encodings of the view's members that change seldom, with the tuple each is of
        self._kept: dict[str, tuple[tuple[Any, ...], str]] = {}
        # the last trick's facts, with the tricks they are of
        self._last_trick: tuple[tuple[Any, ...] | None, dict[str, Any] | None] = (None, None)
        # the public facts no event changes, reused by every message
        self._fixed_info: dict[str, Any] = {
            "id": table_id,
            "title": settings.title,
            "rules": self.rules_text,
            "preset": self.rules.preset,
            "players": self.rules.players,
            "public": settings.public,
            "removed": encode_cards(CardSet(self.rules.removed)),
            "moon_points": moon_points(self.rules),
            "challenge": settings.challenge,
        }

    # ------------------------------------------------------------ facts
    @property
    def started(self) -> bool:
        """Every seat has a player, so the game runs."""
        return all(s.name is not None for s in self.seats)

    @property
    def names(self) -> list[str]:
        """Seat names for sheets and records."""
        return [s.name or seat_name(i) for i, s in enumerate(self.seats)]

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
        return {**self._fixed_info, **self._seating(), **self._progress()}

    def _seating(self) -> dict[str, Any]:
        """The public facts that change only when seats or connections change."""
        return {
            "started": self.started,
            "free": self.free_seats(),
            "may_start": [] if self.started else
            [i for i in range(len(self.seats)) if self.seats[i].name and self.may_start(i)],
            "spectators": sum(1 for s in self.subscribers if s.seat is None),
            "seats": [
                {"seat": i, "kind": s.kind, "name": s.name, "taken": s.name is not None,
                 "connected": s.connections > 0, "away": s.away}
                for i, s in enumerate(self.seats)
            ],
        }

    def _progress(self) -> dict[str, Any]:
        """The public facts that change with the game."""
        return {"over": self.state.is_over, "round": self.state.round_no,
                "state_id": self.state_id}

    def _table_json(self) -> str:
        """:meth:`public_info` as JSON; its fixed and seating part as last encoded."""
        if not self._seating_json:  # nothing was sent since the table was built or replayed
            self._seating_json = compact_json({**self._fixed_info, **self._seating()})
        progress = ",".join(f'"{name}":{_member_json(value)}'
                            for name, value in self._progress().items())
        return f"{self._seating_json[:-1]},{progress}}}"

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [i for i, s in enumerate(self.seats) if s.human and s.name is None]

    def may_start(self, seat: int) -> bool:
        """Whether the person in ``seat`` may start the table with computers in the free
        seats: its creator (seat 1), or anyone seated while the creator is not connected,
        so that a friend who joined does not start the game before the others arrive, and
        a table its creator left is not stuck."""
        return seat == 0 or (self.seats[seat].human and self.seats[seat].name is not None
                             and self.seats[0].connections == 0)

    def fairness_public(self) -> list[dict[str, Any]]:
        """Every round's commitment; seeds of finished rounds revealed."""
        finished = {r.round_no for r in self.state.results}
        return [r.public(r.round_no in finished) for r in self.rounds]

    def record(self) -> dict[str, Any]:
        """The game record with each round's fairness section (seeds of finished rounds),
        the people's seats stated (a seat a computer took is not one, a person a computer
        stands in for while away still is) and each computer seat's level."""
        data = game_record(self.state, self.names,
                           people=[seat for seat, info in enumerate(self.seats) if info.human],
                           levels=[None if info.human else info.kind for info in self.seats])
        finished = {r.round_no for r in self.state.results}
        for entry, fair in zip(data["rounds"], self.rounds[: len(data["rounds"])], strict=False):
            public = fair.public(fair.round_no in finished)
            entry["fairness"] = {k: public[k] for k in
                                 ("scheme", "commitment", "server_seed", "entropy")}
        data["table"] = self.table_id
        if self.challenge is not None:  # as `hearts play --challenge` names it, for submitting
            data["challenge"] = self.challenge.code
        return data

    # ------------------------------------------------------------ events
    def _apply_event(self, event: dict[str, Any], after: GameState | None = None
                     ) -> tuple[GameState, Callable[[], None]]:
        """The state after ``event`` (``after`` when the caller already applied its action)
        and a function committing its side facts; changes nothing itself."""
        kind = event["t"]
        state = self.state
        if kind == "join":
            info = self.seats[event["seat"]]

            def take() -> None:
                info.name, info.token_hash = event["name"], event["token"]
            return state, take
        if kind == "leave":  # a join undone: its answer never reached the person
            left = self.seats[event["seat"]]

            def free() -> None:
                left.name, left.token_hash, left.away = None, None, False
            return state, free
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
        if kind == "deal" and self.challenge is not None:
            if after is None:  # a seeded game refuses any deal but its seed's
                after = state.apply(Deal.from_seed(self.rules, event["seed"]))
            return after, lambda: None
        if kind == "deal":
            current = self.rounds[-1]
            if current.deal_seed != event["seed"]:
                raise HeartsError(f"stored deal seed {event['seed']} is not the derived "
                                  f"{current.deal_seed}")

            def dealt() -> None:
                current.dealt = True
            if after is None:
                after = state.apply(Deal.from_seed(self.rules, event["seed"]))
            return after, dealt
        if after is None:
            after = state.apply(decode_action(kind, event["seat"], event))
        return after, lambda: None

    def _record(self, event: dict[str, Any], after: GameState | None = None) -> None:
        """Apply, store, then make current: an event nobody stored is never shown."""
        after, commit_facts = self._apply_event(event, after)
        self.store.append(self.table_id, self.seq + 1, event)
        self.seq += 1
        commit_facts()
        self._make_current(after)
        if after.is_over:
            self.store.mark_finished(self.table_id)

    def replay(self, events: list[dict[str, Any]]) -> None:
        """Rebuild from a stored log (no storing, no messages)."""
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
        if seat is not None and not is_whole_number(seat, 0, self.rules.players - 1):
            # True == 1 would pass the test below and be stored as seat 1
            raise RequestError("bad_message", f"seat is a seat number from 0 to "
                               f"{self.rules.players - 1}, not {seat!r}")
        free = self.free_seats()
        if not free:
            raise RequestError("no_seat", "every seat is taken; you can watch as a spectator")
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise RequestError("no_seat", f"seat {seat + 1} is not free; free seats: "
                               f"{', '.join(str(s + 1) for s in free)}")
        clean = shown_name(name)
        if clean is None:
            raise RequestError("bad_message", "a name needs a letter, digit or sign that "
                               "shows")
        self._record({"t": "join", "seat": seat, "name": clean, "token": hash_token(token)})
        self.broadcast_table()
        return seat

    def unjoin(self, seat: int, token: str) -> bool:
        """Undo a join whose answer was refused (its storing did not finish in time): the
        seat is free again (True), if ``token`` still holds it, nobody is connected with it
        and no round has begun; False, changing nothing, otherwise."""
        info = self.seats[seat]
        if info.token_hash != hash_token(token) or info.connections or self.rounds:
            return False
        self._record({"t": "leave", "seat": seat})
        self.broadcast_table()
        return True

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to, or None."""
        if not token:
            return None
        digest = hash_token(token)
        return next((i for i, s in enumerate(self.seats) if s.token_hash == digest), None)

    def fill_with_computers(self) -> bool:
        """Start now: computer players take the free seats (False: none was free)."""
        free = self.free_seats()
        if not free:
            return False
        self._record({"t": "fill", "seats": free, "level": self.config.takeover_level})
        self.broadcast_table()
        return True

    def attach(self, sub: Subscriber) -> bool:
        """A connection starts watching; True when it brings a person back from a stand-in."""
        self.subscribers.add(sub)
        back = False
        if sub.seat is not None:
            info = self.seats[sub.seat]
            info.connections += 1
            back, info.away = info.away, False
        self.broadcast_table()
        return back

    def detach(self, sub: Subscriber) -> int | None:
        """A connection left; the seat it leaves with nobody connected (while the game
        goes on), which gets a grace period before a stand-in."""
        if sub not in self.subscribers:
            return None
        self.subscribers.discard(sub)
        left = None
        if sub.seat is not None:
            info = self.seats[sub.seat]
            info.connections -= 1
            if info.connections == 0 and not self.state.is_over:
                left = sub.seat
        self.broadcast_table()
        return left

    def unattended(self) -> list[int]:
        """Seats a person took but nobody connects to, while the game goes on: they get a
        grace period too, so a seat taken but never connected does not stall the table."""
        if self.state.is_over or not self.started:
            return []
        return [seat for seat, info in enumerate(self.seats)
                if info.human and info.name is not None and info.connections == 0
                and not info.away]

    def take_over(self, seat: int) -> bool:
        """A grace period ended: a computer stands in if nobody came back (True)."""
        info = self.seats[seat]
        if info.connections or info.away:
            return False
        info.away = True
        self.broadcast_table()
        return True

    # ------------------------------------------------------------ game actions
    def check_action(self, sub: Subscriber, message: dict[str, Any]) -> Action:
        """The action a client message (shape already checked) stands for, after every
        check of the fixed order; :class:`RequestError` on the first that fails.
        Changes nothing."""
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
        try:
            action = decode_action(message["type"], seat, message)
            state.apply(action)
        except CodecError as exc:
            raise RequestError("illegal", str(exc)) from None
        except IllegalActionError as exc:
            raise RequestError("illegal", str(exc), legal=list(exc.legal)) from None
        acted_on = message["state_id"]
        passing_still = isinstance(action, PassCards) and acted_on >= self.pass_opened_id
        if acted_on != self.state_id and not (passing_still and acted_on < self.state_id):
            raise RequestError("stale_state", f"you acted on state {acted_on} but the "
                               f"table is at {self.state_id}; here is the current one")
        return action

    def commit_action(self, before: GameState, action: Action, after: GameState,
                      actor: Subscriber | None = None, rid: object = None) -> None:
        """Store an applied game action (a deal included) and make it current; then ack
        the actor (if a connection acted) and tell everyone."""
        if before is not self.state:
            raise HeartsError("an action was applied to a state that is not the table's")
        self._record(_event_from_action(before, action), after)
        if actor is not None:
            actor.send_text(compact_json({"type": "ack", "id": rid, "state_id": self.state_id}))
        self.broadcast_state(self._events(before, action))
        if len(after.results) > len(before.results) and self.challenge is None:
            self._send_all({"type": "reveal", **self.rounds[-1].public(True)})

    def _events(self, before: GameState, action: Action) -> list[dict[str, Any]]:
        after = self.state
        events: list[dict[str, Any]] = []
        if isinstance(action, Deal):
            events.append({"kind": "deal", "round": after.round_no})
        if len(after.tricks) > len(before.tricks):
            trick = after.tricks[-1]
            events.append({"kind": "trick", "leader": trick.leader, "winner": trick.winner,
                           "cards": [encode_card(c) for c in trick.cards]})
        if len(after.results) > len(before.results):
            result = after.results[-1]
            events.append({"kind": "round_end", "round": result.round_no,
                           "points": list(result.points), "totals": list(result.totals),
                           "shooter": result.shooter,
                           "sheet": format_sheet(after.results, self.names, after.winners)})
        if after.is_over:
            events.append({"kind": "game_over", "winners": list(after.winners)})
        return events

    # ------------------------------------------------------------ the deal
    @property
    def needs_commitment(self) -> bool:
        """The game waits for a deal that no commitment covers yet."""
        current = self.rounds[-1] if self.rounds else None
        return self.state.phase is Phase.DEAL and (
            current is None or current.round_no != self.state.round_no)

    def commit_round(self, server_seed: str) -> None:
        """Commit to the secret seed of the round about to be dealt, and say so."""
        round_no = self.state.round_no
        self._record({"t": "commit", "round": round_no, "server_seed": server_seed})
        self._send_all({"type": "commit", "round": round_no, "commitment": self.rounds[-1].commit,
                        "timeout_s": self.config.entropy_timeout_s})

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

    def entropy_wait(self) -> float:
        """Seconds the committed deal still waits for entropy (0: deal now). A person not
        connected yet (just joined, reloading) may still send some; the deadline keeps a
        leaver from stalling the deal."""
        current = self.rounds[-1]
        waiting = [s for s, info in enumerate(self.seats)
                   if info.human and not info.away and s not in current.entropy]
        return max(0.0, current.deadline - self.clock()) if waiting else 0.0

    def deal(self) -> Deal:
        """The committed round's deal, from its server seed and the entropy sent (at a
        challenge table: the seeded game's own next deal, from the challenge's seed)."""
        if self.challenge is not None:
            seeded = self.state.next_deal
            assert seeded is not None, "a challenge table deals only when its game waits for it"
            return seeded
        return Deal.from_seed(self.rules, self.rounds[-1].deal_seed)

    # ------------------------------------------------------------ messages
    def _dealt_names(self, seat: int) -> list[str]:
        """The hand a seat was dealt this round, by name (named once a round)."""
        round_no = self.state.round_no
        if self._dealt[0] != round_no:
            self._dealt = (round_no, {})
        names = self._dealt[1].get(seat)
        if names is None:
            names = self._dealt[1][seat] = encode_cards(self.state.dealt(seat))
        return names

    def _seat_facts(self, seen: PlayerView) -> dict[str, Any]:
        """What the page shows beyond the view that is the seat's own, decided here so
        that no client restates a rule: whether it decides now, the hand it was dealt,
        where its pass goes and comes from."""
        seat = seen.seat
        dealt = None
        if seat is not None and seen.phase in _DEALT_PHASES:
            dealt = self._dealt_names(seat)
        return {
            "my_turn": seen.my_turn,
            "dealt": dealt,
            "pass_target": seen.pass_target,
            "pass_source": seen.pass_source,
        }

    def _table_facts(self, seen: PlayerView) -> dict[str, Any]:
        """What the page shows beyond the view that every seat shares: who is winning the
        trick, the last trick taken (card by seat, kept while the tricks are the same
        tuple), whether the game is over."""
        winning = seen.winning
        tricks, last_trick = self._last_trick
        if tricks is not seen.tricks:
            last_trick = None
            if seen.tricks:
                last_trick = {"winner": seen.tricks[-1].winner,
                              "plays": [[seat, encode_card(card)]
                                        for seat, card in seen.last_trick_plays]}
            self._last_trick = (seen.tricks, last_trick)
        return {
            "winning": None if winning is None else [winning[0], encode_card(winning[1])],
            "last_trick": last_trick,
            "over": seen.is_over,
        }

    def _shared(self, events: list[dict[str, Any]] | None = None) -> str:
        """The members every seat's state message shares, encoded once for all of them:
        the table's public facts, and the events when there are some."""
        shared = f',"table":{self._table_json()}'
        return f'{shared},"events":{compact_json(events)}' if events else shared

    def _state_text(self, kind: str, seen: PlayerView, marked: bool = False) -> str:
        """A state message's text from ``seen`` up to its ``extra`` and ``shared`` members
        (which may hold what a client sent, so never a mark). ``marked``: each of the seat's
        own members is a mark in its place (see :meth:`_template`)."""
        shown = seen.to_json(_KEPT_MARKS)
        if marked:
            for name in seen.seat_json():
                shown[name] = _OWN + name
            facts = {**{name: _OWN + name for name in self._seat_facts(seen)},
                     **self._table_facts(seen)}
        else:
            facts = {**self._seat_facts(seen), **self._table_facts(seen)}
        text = compact_json({"type": kind, "state_id": self.state_id, "view": shown,
                             "facts": facts})
        for name in _KEPT:
            text = text.replace(f'"\\u0001{name}"', self._kept_json(name, seen), 1)
        return text[:-1]

    def _template(self, kind: str, spectator: PlayerView) -> list[str]:
        """A state message's text (as :meth:`_state_text`) encoded once for several seats:
        the text between a seat's own members (even places) and those members' names (odd
        places). It is encoded from a spectator's view, so a member a seat does not fill in
        shows what a spectator sees."""
        return _OWN_MEMBER.split(self._state_text(kind, spectator, marked=True))

    def _kept_json(self, name: str, seen: PlayerView) -> str:
        """The view's member ``name`` (a tuple) encoded: again only when the state holds
        another tuple there (it replaces one that changes)."""
        source = getattr(seen, name)
        kept = self._kept.get(name)
        if kept is None or kept[0] is not source:
            kept = self._kept[name] = (source, compact_json(seen.long_member_json(name)))
        return kept[1]

    def _own_text(self, template: list[str], seen: PlayerView) -> str:
        """``template`` with the seat's own members filled in."""
        own = {**seen.seat_json(), **self._seat_facts(seen)}
        parts = template.copy()
        for place in range(1, len(parts), 2):
            parts[place] = _member_json(own[parts[place]])
        return "".join(parts)

    def message_text(self, seat: int | None, kind: str = "state", shared: str | None = None,
                     extra: dict[str, Any] | None = None) -> str:
        """A full state message for one seat (or a spectator), encoded: its view and
        facts, the ``shared`` members (:meth:`_shared`) and any ``extra`` ones."""
        own = self._state_text(kind, view(self.state, seat))
        if extra:
            own = f"{own},{compact_json(extra)[1:-1]}"
        return f"{own}{self._shared() if shared is None else shared}}}"

    def welcome(self, sub: Subscriber, rid: object) -> None:
        """Answer a hello: the connection's view, the table and every commitment."""
        sub.send_text(self.message_text(sub.seat, "welcome", extra={
            "seat": sub.seat, "fairness": self.fairness_public(),
            "hints": self.challenge is None, "id": rid}))

    def broadcast_state(self, events: list[dict[str, Any]] | None = None) -> None:
        """Each subscriber gets its own seat's view, and nothing else (each seat's message
        is encoded once, however many connections it has; spectators share one)."""
        subscribers = list(self.subscribers)
        if not subscribers:
            return
        shared = self._shared(events)
        seats = {sub.seat for sub in subscribers}
        if len(seats) == 1:  # one seat's connections (or only spectators): nothing to share
            text = f"{self._state_text('state', view(self.state, seats.pop()))}{shared}}}"
            for sub in subscribers:
                sub.send_text(text)
            return
        spectator, *seen = views(self.state, [None, *seats])
        template = self._template("state", spectator)
        texts = {one.seat: f"{self._own_text(template, one)}{shared}}}" for one in seen}
        for sub in subscribers:
            sub.send_text(texts[sub.seat])

    def broadcast_table(self) -> None:
        """Seat and connection changes (their encoding is kept for every later message)."""
        self._seating_json = ""  # encoded again, once, by _table_json
        self._send_all(f'{{"type":"table","table":{self._table_json()}}}')

    def _send_all(self, data: dict[str, Any] | str) -> None:
        """One message, encoded once, to every connection."""
        text = data if isinstance(data, str) else compact_json(data)
        for sub in list(self.subscribers):
            sub.send_text(text)

    def send_error(self, sub: Subscriber, exc: RequestError, rid: object = None) -> None:
        """Tell one connection why its message was refused (a stale one gets the state)."""
        sub.send_text(compact_json(error_message(exc, rid, self.state_id)))
        if exc.code == "stale_state":
            sub.send_text(self.message_text(sub.seat))

    def hint_view(self, seat: int | None) -> PlayerView:
        """The view a hint is computed from: only the seat whose decision it is gets one,
        and a seat only a few a minute (one bucket a seat, whatever its connections)."""
        if self.challenge is not None:  # its players compare their own play on the same deals
            raise RequestError("no_hints", "a challenge table gives no hints: every challenger "
                               "plays the same deals on their own")
        if seat is None or seat not in self.state.to_act:
            raise RequestError("not_your_turn", "hints are for the seat whose decision it is")
        if not self._hint_buckets[seat].allow(self.clock()):
            config = self.config
            raise RequestError("rate_limited", f"hints: at most {config.hint_burst} at once "
                               f"and {config.hint_per_s:g} a second for a seat; wait a moment")
        return view(self.state, seat)

    def seat_is_full(self, seat: int) -> bool:
        """Whether a seat already has as many connections as one seat may have."""
        return self.seats[seat].connections >= self.config.max_seat_connections
