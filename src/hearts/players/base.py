"""The computer-player interface: a player sees only its seat's view."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hearts.core import (
    Action,
    Card,
    CardSet,
    ChooseMoon,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
)
from hearts.players.errors import PlayerError

__all__ = ["Player", "decide"]


@runtime_checkable
class Player(Protocol):
    """Answers every decision the rules can ask of a seat, from that seat's view alone."""

    name: str

    def choose_pass(self, view: PlayerView) -> CardSet:
        """The ``view.rules.pass_count`` cards to pass, from ``view.hand``."""
        ...

    def choose_play(self, view: PlayerView) -> Card:
        """One card of ``view.legal``."""
        ...

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        """Subtract 26 from itself or add 26 to every other player."""
        ...


def decide(player: Player, view: PlayerView) -> Action:
    """Ask ``player`` for the decision its view is waiting on, as an action."""
    seat = view.seat
    if seat is None or not view.my_turn:
        raise PlayerError("decide() needs the view of a seat that must act now")
    if view.phase is Phase.PASS:
        return PassCards(seat, player.choose_pass(view))
    if view.phase is Phase.PLAY:
        return Play(seat, player.choose_play(view))
    if view.phase is Phase.MOON:
        return ChooseMoon(seat, player.choose_moon(view))
    raise PlayerError(f"no decision in phase {view.phase.value}")
