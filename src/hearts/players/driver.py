"""One way to run a game: the loop that every face and tool drives its games with.

A :class:`GameRun` holds the state and says what the game waits for; it does no I/O.
:func:`run_game` and :func:`run_game_async` drive it: the dealer's step between rounds
(the seeded dealer's by default, as OpenSpiel's chance node), then each waiting seat's
decision from its own view, with observers told of every action. A seat is anything that
turns its view into an action:

- a computer :class:`~hearts.players.base.Player` (wrapped by :class:`PlayerSeat`), an
  external bot over the bot protocol included (:mod:`hearts.protocol.host`);
- a person answering through a callback (:class:`CallbackSeat`) or an asyncio queue
  (:class:`QueueSeat`), told through ``refused`` when the rules refuse an answer.

A face renders what observers report and collects input for its seats; it never applies
the rules itself. The players of a game never see the dealer's state, only their views.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeAlias, overload, runtime_checkable

from hearts.core import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    PlayerView,
    Rules,
    new_game,
    view,
)
from hearts.players.base import Player, decide
from hearts.players.errors import PlayerError

__all__ = [
    "AsyncSeat",
    "CallbackSeat",
    "Dealer",
    "GameRun",
    "Observer",
    "PlayerSeat",
    "QueueSeat",
    "Seat",
    "as_seat",
    "play_game",
    "run_game",
    "run_game_async",
    "seeded_dealer",
]


@runtime_checkable
class Seat(Protocol):
    """Decides for one seat from its view alone."""

    def act(self, view: PlayerView) -> Action:
        """The seat's action for the decision its view waits on."""
        ...

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """The rules refused this seat's last action; it will be asked again."""
        ...


class AsyncSeat(Protocol):
    """A seat whose decision arrives later (a person over a network, a queue)."""

    async def act(self, view: PlayerView) -> Action:
        """The seat's action for the decision its view waits on."""
        ...

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """The rules refused this seat's last action; it will be asked again."""
        ...


Dealer: TypeAlias = Callable[[GameState], "Deal | Awaitable[Deal]"]
"""Gives the next round's deal: the authority's step between rounds."""

Observer: TypeAlias = Callable[[GameState, Action, GameState], None]
"""Told of every action: the state before, the action, the state after."""


def seeded_dealer(state: GameState) -> Deal:
    """The seeded game's own deal (an unseeded game needs a dealer of its own)."""
    deal = state.next_deal
    if deal is None:
        raise PlayerError("this game is not seeded: pass a dealer that supplies its deals")
    return deal


class PlayerSeat:
    """A computer player in a seat; a refused action is a bug in the player, so raise."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def act(self, view: PlayerView) -> Action:
        """Ask the player for the decision its view is waiting on."""
        return decide(self.player, view)

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """Raise: a computer player must only choose legal actions."""
        raise error


class CallbackSeat:
    """A person answering through a function (a prompt, a test's script)."""

    def __init__(self, answer: Callable[[PlayerView], Action],
                 on_refused: Callable[[PlayerView, IllegalActionError], None] | None = None
                 ) -> None:
        self._answer = answer
        self._on_refused = on_refused

    def act(self, view: PlayerView) -> Action:
        """The answer the function gives."""
        return self._answer(view)

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """Tell the person why (or raise when nobody listens)."""
        if self._on_refused is None:
            raise error
        self._on_refused(view, error)


class QueueSeat:
    """A person whose actions arrive on an asyncio queue (a web socket, a terminal UI)."""

    def __init__(self, on_refused: Callable[[PlayerView, IllegalActionError], None] | None = None
                 ) -> None:
        self.actions: asyncio.Queue[Action] = asyncio.Queue()
        self._on_refused = on_refused

    async def act(self, view: PlayerView) -> Action:
        """The next action put on the queue."""
        return await self.actions.get()

    def refused(self, view: PlayerView, error: IllegalActionError) -> None:
        """Tell the person why; the next action on the queue is taken instead."""
        if self._on_refused is not None:
            self._on_refused(view, error)


@overload
def as_seat(seat: Seat | Player) -> Seat: ...


@overload
def as_seat(seat: Seat | AsyncSeat | Player) -> Seat | AsyncSeat: ...


def as_seat(seat: Seat | AsyncSeat | Player) -> Seat | AsyncSeat:
    """A seat for a computer player, or the seat itself."""
    if isinstance(seat, Player) and not hasattr(seat, "act"):
        return PlayerSeat(seat)
    return seat  # type: ignore[return-value]


class GameRun:
    """A game being run: its state, what it waits for, and who hears of each action."""

    def __init__(self, state: GameState, *, stop: Callable[[GameState], bool] | None = None,
                 observers: Sequence[Observer] = ()) -> None:
        self.state = state
        self._stop = stop
        self._observers = tuple(observers)

    @property
    def finished(self) -> bool:
        """The game is over, or the caller's stop condition holds."""
        return self.state.is_over or (self._stop is not None and self._stop(self.state))

    @property
    def dealing(self) -> bool:
        """The game waits for the next round's deal."""
        return self.state.phase is Phase.DEAL

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats whose decisions the game waits for."""
        return self.state.to_act

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now."""
        return view(self.state, seat)

    def apply(self, action: Action) -> GameState:
        """Apply an action (IllegalActionError changes nothing) and tell the observers."""
        before = self.state
        self.state = after = before.apply(action)
        for observer in self._observers:
            observer(before, action, after)
        return after


def _check_seats(state: GameState, seats: Sequence[object]) -> None:
    if len(seats) != state.players:
        raise PlayerError(f"need {state.players} seats, got {len(seats)}")


def run_game(state: GameState, seats: Sequence[Seat | Player], *,
             dealer: Callable[[GameState], Deal] = seeded_dealer,
             stop: Callable[[GameState], bool] | None = None,
             observers: Sequence[Observer] = ()) -> GameState:
    """Run a game to its end (or ``stop``), asking each seat in turn; the final state."""
    _check_seats(state, seats)
    players = [as_seat(s) for s in seats]
    run = GameRun(state, stop=stop, observers=observers)
    while not run.finished:
        if run.dealing:
            run.apply(dealer(run.state))
            continue
        seat = run.waiting[0]
        player = players[seat]
        seen = run.view(seat)
        try:
            run.apply(player.act(seen))
        except IllegalActionError as error:
            player.refused(seen, error)
    return run.state


async def run_game_async(state: GameState, seats: Sequence[Seat | AsyncSeat | Player], *,
                         dealer: Dealer = seeded_dealer,
                         stop: Callable[[GameState], bool] | None = None,
                         observers: Sequence[Observer] = ()) -> GameState:
    """Run a game in asyncio: seats that pass choose at once, a computer decides in a
    worker thread so the loop stays free; the final state."""
    _check_seats(state, seats)
    players = [as_seat(s) for s in seats]
    awaited = [inspect.iscoroutinefunction(p.act) for p in players]  # asked once, not per turn
    run = GameRun(state, stop=stop, observers=observers)

    async def ask(seat: int) -> None:
        player = players[seat]
        while not run.finished and seat in run.waiting:
            seen = run.view(seat)
            if awaited[seat]:
                action = await player.act(seen)  # type: ignore[misc]
            else:
                action = await asyncio.to_thread(player.act, seen)
            try:
                run.apply(action)
            except IllegalActionError as error:
                player.refused(seen, error)

    while not run.finished:
        if run.dealing:
            deal = dealer(run.state)
            run.apply(await deal if inspect.isawaitable(deal) else deal)
            continue
        waiting = run.waiting
        if len(waiting) == 1:  # a play: one seat decides, no task to make for it
            await ask(waiting[0])
            continue
        async with asyncio.TaskGroup() as asks:  # one failing ask cancels the others
            for seat in waiting:
                asks.create_task(ask(seat))
    return run.state


def play_game(rules: Rules, players: Sequence[Player], seed: int | str) -> GameState:
    """A whole seeded game between computer ``players`` (seat order)."""
    return run_game(new_game(rules, seed), players)
