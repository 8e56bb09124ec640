"""One table at work: its authority driven in asyncio (the game, timers, computer seats).

The game runs through the one game driver, :func:`hearts.players.run_game_async`: every
seat is a :class:`TableSeat` (a person's actions arrive on its queue, a computer decides
for a computer seat or stands in for an absent person), the dealer commits to a server
seed, waits for the players' entropy and deals, and the authority is the observer that
stores each action, acknowledges it and tells everyone. The authority checks a person's
action in the fixed order before it is queued, and the person's connection waits until
the game applied it, so a second click is checked against the state the first made.
Grace periods before a stand-in are timers here. A duplicate challenge's table deals from
the challenge's seed, seats its computers, and puts its result on the challenge's
leaderboard once the game is over (:mod:`hearts.server.challenge_board`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Any

from hearts.challenge import fingerprint
from hearts.core import Action, Deal, GameState, HeartsError, IllegalActionError, Phase, PlayerView
from hearts.core import view as view_of
from hearts.players import Player, decide, make_player, run_game_async
from hearts.server.authority import Subscriber, TableAuthority
from hearts.server.challenge_board import enter_quietly
from hearts.server.protocol import RequestError

__all__ = ["Table", "TableSeat"]

log = logging.getLogger(__name__)

# Levels that decide in well under a millisecond run on the event loop: a thread would
# only add GIL contention. Searching levels run in a thread so the loop stays responsive.
QUICK_LEVELS = frozenset({"random", "easy", "normal", "shooter"})
# Levels that decide from the view alone, with no randomness and no memory (see
# hearts.players.levels): one player serves a seat's every decision, so the server does
# not build and seed a fresh one per card.
VIEW_ONLY_LEVELS = frozenset({"easy", "normal", "shooter"})


@dataclass(slots=True)
class _Submission:
    """A person's checked action, waiting for the game to apply it."""

    action: Action
    actor: Subscriber
    rid: object
    done: asyncio.Future[None]


class TableSeat:
    """A seat as the game driver sees it: a person's queue, or a computer deciding.

    Who decides can change while the game waits: a person who leaves is replaced by a
    computer after the grace period, and takes the seat back on returning (a decision the
    computer was still thinking over is then dropped).
    """

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        # a person's submissions, and None to say who decides may have changed
        self.inbox: asyncio.Queue[_Submission | None] = asyncio.Queue()
        self.pending: _Submission | None = None
        self._fallback = False
        self._players: dict[str, Player] = {}  # of VIEW_ONLY_LEVELS, by level

    async def act(self, view: PlayerView) -> Action:
        """The person's next action, or a computer's while a computer decides."""
        authority = self.table.authority
        inbox = self.inbox  # replaced when the game that asks stops
        asked = authority.state  # the state ``view`` shows
        while True:
            stand_in = authority.computer_plays(self.seat)
            if stand_in:
                action: Action | None = await self._computer_action(asked, view)
            else:
                item = await inbox.get()
                action = None if item is None else item.action
            if inbox is not self.inbox:
                # The game that asked has stopped (its driver failed and starts again):
                # this answer belongs to nobody.
                raise asyncio.CancelledError
            if action is not None and (not stand_in or authority.computer_plays(self.seat)):
                return action

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """The rules refused the action: the person hears why; a computer's bug is logged
        and the seat's first legal action is played instead."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.done.set_exception(RequestError("illegal", str(error),
                                                    legal=list(error.legal)))
            return
        log.error("table %s: seat %d's computer chose an illegal action (%s); it plays its "
                  "first legal one", self.table.authority.table_id, self.seat, error)
        self._fallback = True

    def submit(self, action: Action, actor: Subscriber, rid: object) -> asyncio.Future[None]:
        """Queue a person's checked action; the future is done once it is applied."""
        if self.pending is not None:
            raise RequestError("not_your_turn", "your last action is still being applied: "
                               "wait for its ack")
        done = asyncio.get_running_loop().create_future()
        self.pending = _Submission(action, actor, rid, done)
        self.inbox.put_nowait(self.pending)
        return done

    def applied(self, action: Action) -> _Submission | None:
        """The submission an applied action came from (None: a computer's)."""
        pending = self.pending
        if pending is None or pending.action is not action:
            return None
        self.pending = None
        return pending

    def nudge(self) -> None:
        """Who decides may have changed: look again."""
        self.inbox.put_nowait(None)

    def reset(self, reason: RequestError) -> None:
        """The game stopped: a fresh queue for the next, and a pending action fails."""
        stopped, self.inbox = self.inbox, asyncio.Queue()
        stopped.put_nowait(None)  # wakes an ask of the stopped game, which then ends
        pending, self.pending = self.pending, None
        if pending is not None and not pending.done.done():
            pending.done.set_exception(reason)

    def _view_only_player(self, level: str) -> Player:
        """This seat's player of a level that decides from the view alone."""
        player = self._players.get(level)
        if player is None:
            player = self._players[level] = make_player(level)
        return player

    async def _computer_action(self, asked: GameState, asked_view: PlayerView) -> Action:
        """The computer's action, decided from the driver's view ``asked_view`` while its
        state ``asked`` is still the table's (as it is after a pause in play), else from a
        fresh view."""
        table = self.table
        authority = table.authority
        if authority.state.phase is Phase.PLAY and table.config.bot_delay_s:
            await asyncio.sleep(table.config.bot_delay_s)
        state = authority.state
        if self._fallback:
            self._fallback = False
            return state.legal_actions(self.seat)[0]
        level = authority.computer_level(self.seat)
        seen = asked_view if state is asked else view_of(state, self.seat)
        try:
            if authority.challenge is not None and not authority.seats[self.seat].human:
                player = authority.challenge.computer(self.seat)  # the same for every challenger
            elif level in VIEW_ONLY_LEVELS:
                player = self._view_only_player(level)
            else:
                player = make_player(level, f"{authority.settings.bot_seed}/{self.seat}/"
                                            f"{authority.state_id}")
            if level in QUICK_LEVELS:
                return decide(player, seen)
            return await asyncio.to_thread(decide, player, seen)
        except (HeartsError, ValueError):
            log.exception("table %s: the computer player of seat %d failed", authority.table_id,
                          self.seat)
            return state.legal_actions(self.seat)[0]


class Table:
    """The async driver of one table's authority."""

    def __init__(self, authority: TableAuthority) -> None:
        self.authority = authority
        self.config = authority.config
        self.seats = [TableSeat(self, seat) for seat in range(authority.rules.players)]
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.authority.table_id

    # ------------------------------------------------------------ seats and connections
    def join(self, name: str, token: str, seat: int | None = None) -> int:
        """Take a free human seat (see :meth:`TableAuthority.join`)."""
        taken = self.authority.join(name, token, seat)
        self.arm_grace()
        self._wake()
        return taken

    def unjoin(self, seat: int, token: str) -> bool:
        """Undo a join whose answer was refused: the seat is free again (see
        :meth:`TableAuthority.unjoin`; False if it could not be)."""
        if not self.authority.unjoin(seat, token):
            return False
        timer = self._grace.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._wake()
        return True

    def fill_with_computers(self) -> None:
        """Start now: computer players take the free seats."""
        if self.authority.fill_with_computers():
            self.arm_grace()
            self._wake()

    def attach(self, sub: Subscriber) -> None:
        """A connection starts watching; a seat's cancels its grace period or its stand-in."""
        back = self.authority.attach(sub)
        if sub.seat is not None:
            timer = self._grace.pop(sub.seat, None)
            if timer is not None:
                timer.cancel()
            if back:
                self.seats[sub.seat].nudge()
                self._wake()

    def detach(self, sub: Subscriber) -> None:
        """A connection left; a seat left empty gets a grace period, then a stand-in."""
        if self.authority.detach(sub) is not None:
            self.arm_grace()

    def arm_grace(self) -> None:
        """A grace period for each seat whose person is not connected."""
        loop = asyncio.get_running_loop()
        for seat in self.authority.unattended():
            if seat not in self._grace:
                self._grace[seat] = loop.call_later(self.config.grace_s, self._take_over, seat)

    def _take_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        if self.authority.take_over(seat):
            self.seats[seat].nudge()
            self._wake()

    # ------------------------------------------------------------ client messages
    async def submit(self, sub: Subscriber, message: dict[str, Any], rid: object) -> None:
        """Check a client's action in the fixed order and wait until the game applied it
        (it is then stored and acknowledged); :class:`RequestError` if refused."""
        action = self.authority.check_action(sub, message)
        assert sub.seat is not None
        await self.seats[sub.seat].submit(action, sub, rid)

    def add_entropy(self, seat: int | None, value: str) -> None:
        """A seated player's entropy for the round about to be dealt."""
        self.authority.add_entropy(seat, value)
        self._wake()

    # ------------------------------------------------------------ the driver
    def _wake(self) -> None:
        self._changed.set()

    def start(self) -> None:
        """Run the game (deals and computer players) until it is over."""
        if self._task is not None:
            return
        if not self.authority.state.is_over:
            self._task = asyncio.create_task(self._drive(), name=f"table-{self.table_id}")
        elif self.authority.challenge is not None:  # its result may have missed the board
            self._task = asyncio.create_task(self._enter_result(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        """Stop the game and the grace timers."""
        for timer in self._grace.values():
            timer.cancel()
        self._grace.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._reset(RequestError("shutting_down", "the server is stopping; reconnect soon"))

    async def _drive(self) -> None:
        authority = self.authority
        while not authority.state.is_over:
            if not authority.started:
                self._changed.clear()
                await self._changed.wait()
                continue
            try:
                await run_game_async(authority.state, self.seats, dealer=self._deal,
                                     observers=[self._observe])
            except Exception:
                # A bug must not silently stop the table: log it, start again from the
                # authority's state (the last one stored) shortly.
                log.exception("table %s: the game driver failed; retrying", self.table_id)
                self._reset(RequestError("server_error", "the table could not take this "
                                         "action; try again"))
                await asyncio.sleep(1.0)
        if authority.challenge is not None:
            await self._enter_result()

    async def _enter_result(self) -> None:
        """Put a finished challenge game on its leaderboard, unless it is there already
        (the server may have stopped between the game's end and its entry)."""
        authority = self.authority
        challenge = authority.challenge
        assert challenge is not None
        entered = {e.entry_id for e in authority.store.challenge_entries(challenge.code)}
        if fingerprint(authority.state) not in entered:
            await enter_quietly(authority.store, challenge, authority.record(), self.table_id)

    def _reset(self, reason: RequestError) -> None:
        for seat in self.seats:
            seat.reset(reason)

    async def _deal(self, state: GameState) -> Deal:
        """The dealer's step: commit to a secret seed, wait for entropy, deal."""
        authority = self.authority
        if authority.challenge is not None:  # dealt from the challenge's seed: no waiting
            return authority.deal()
        if authority.needs_commitment:
            authority.commit_round(os.urandom(32).hex())
        while (left := authority.entropy_wait()) > 0:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return authority.deal()

    def _observe(self, before: GameState, action: Action, after: GameState) -> None:
        """Store, acknowledge and tell each applied action."""
        submission = None if isinstance(action, Deal) else self.seats[action.seat].applied(action)
        if submission is None:
            self.authority.commit_action(before, action, after)
            return
        try:
            self.authority.commit_action(before, action, after, submission.actor,
                                         submission.rid)
        except BaseException:
            submission.done.set_exception(RequestError(
                "server_error", "the table could not store this action; try again"))
            raise
        submission.done.set_result(None)
