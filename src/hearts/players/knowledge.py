"""Card tracking derived from one seat's view, shared by players and hints.

:class:`Knowledge` answers the questions a Hearts player asks while playing: which
cards are still out, who has shown a void, who must hold the cards I passed, where
the Q♠ is, how many points each seat has taken, who wins the trick so far and
whether someone threatens to shoot the moon. It is built from a
:class:`~hearts.core.view.PlayerView` only, so it never knows another seat's hand.
Masks are plain ``int`` card masks (see :mod:`hearts.core.cards`).

The server asks ``normal`` for every computer move, so the facts are cheap to get: each
is computed only when a decision reads it, and what the round's completed tricks tell
(voids, cards taken) comes from the core's :func:`~hearts.core.view.round_so_far`, which
derives it one trick at a time and keeps it between decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from hearts.core import (
    HEART_MASK,
    POINT_MASK,
    QUEEN_MASK,
    SUIT_MASKS,
    Card,
    PlayerView,
    card_points,
    cards_above,
    cards_below,
    game_over,
    game_winners,
    highest_card,
    iter_mask,
    round_so_far,
)

__all__ = ["Knowledge"]

_T = TypeVar("_T")


class _Cached(Generic[_T]):
    """A fact computed on first use and kept on the instance, as
    :func:`functools.cached_property` does but without the lock Python 3.11's version
    takes on every first use: a decision builds a fresh :class:`Knowledge` and reads about
    ten of its facts once each, and the lock cost some 0.4 µs a fact (measured on 3.11)."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> _Cached[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any]) -> _T: ...

    def __get__(self, instance: object, owner: type[Any]) -> _T | _Cached[_T]:
        if instance is None:
            return self
        value = self.compute(instance)
        # the instance's own attribute hides this descriptor from now on (frozen or not)
        instance.__dict__[self.name] = value
        return value




@dataclass(frozen=True)
class Knowledge:
    """What a seat can know from its view: build it with :meth:`of`."""

    view: PlayerView
    seat: int

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Knowledge of the seat whose view this is (spectators know nothing private)."""
        if view.seat is None:
            raise ValueError("knowledge needs a seat's view, not a spectator's")
        return cls(view, view.seat)

    # ------------------------------------------------------------- the cards
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.view.players

    @_Cached
    def hand(self) -> int:
        """Mask of my cards."""
        return self.view.hand.mask

    @_Cached
    def played(self) -> int:
        """Mask of every card played this round, the trick in progress included."""
        taken = 0
        for mask in self.cards_taken:
            taken |= mask
        return taken | self.trick_mask

    @_Cached
    def passed_to(self) -> int | None:
        """The seat that received my pass this round (None before the pass or on a hold)."""
        view = self.view
        if view.passed is None or view.received is None:
            return None
        return view.pass_target

    @_Cached
    def known(self) -> tuple[int, ...]:
        """Per seat, the cards I know it holds: those I passed it and it has not played."""
        masks = [0] * self.players
        masks[self.seat] = self.hand
        receiver = self.passed_to
        if receiver is not None and self.view.passed is not None:
            masks[receiver] = self.view.passed.mask & ~self.played
        return tuple(masks)

    @_Cached
    def out(self) -> int:
        """Cards other seats hold: neither mine nor played (cards I passed included)."""
        return self.view.rules.deck & ~self.hand & ~self.played

    @_Cached
    def unseen(self) -> int:
        """Cards other seats hold that I cannot place (the cards I passed excluded)."""
        passed = self.view.passed
        if passed is None or self.view.received is None:
            return self.out
        return self.out & ~passed.mask

    @_Cached
    def voids(self) -> tuple[frozenset[int], ...]:
        """Suits each seat has shown it lacks this round (:meth:`PlayerView.voids`)."""
        return self.view.voids()

    @_Cached
    def holdable(self) -> tuple[int, ...]:
        """Per seat, the mask of the cards it may hold as far as I can tell."""
        masks = []
        for seat, (voids, known) in enumerate(zip(self.voids, self.known, strict=True)):
            if seat == self.seat:
                masks.append(self.hand)
                continue
            mask = self.unseen
            for suit in voids:
                mask &= ~SUIT_MASKS[suit]
            masks.append(mask | known)
        return tuple(masks)

    def may_hold(self, seat: int) -> int:
        """Mask of the cards ``seat`` may hold as far as I can tell."""
        return self.holdable[seat]

    def may_follow(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``."""
        return bool(self.holdable[seat] & SUIT_MASKS[suit])

    @_Cached
    def followers(self) -> tuple[tuple[int, ...], ...]:
        """Per suit, the other seats that may still hold a card of it, in seat order."""
        others = [(s, mask) for s, mask in enumerate(self.holdable) if s != self.seat]
        return tuple(tuple(s for s, mask in others if mask & suit_mask)
                     for suit_mask in SUIT_MASKS)

    def out_above(self, card: int) -> int:
        """Cards of ``card``'s suit other seats hold that outrank it."""
        return self.out & cards_above(card)

    def out_below(self, card: int) -> int:
        """Cards of ``card``'s suit other seats hold that it outranks."""
        return self.out & cards_below(card)

    def is_top(self, card: int) -> bool:
        """Whether no other seat holds a higher card of its suit."""
        return not self.out_above(card)

    # -------------------------------------------------------------- the Q♠
    @property
    def queen_in_play(self) -> bool:
        """Whether the Q♠ is in this round's deck at all."""
        return bool(self.view.rules.deck & QUEEN_MASK)

    @_Cached
    def queen_played(self) -> bool:
        """Whether the Q♠ has been played this round (or is not in the deck)."""
        return bool(self.played & QUEEN_MASK) or not self.queen_in_play

    @_Cached
    def queen_points(self) -> int:
        """What the Q♠ is worth to the seat that takes it."""
        return self.points_of(QUEEN_MASK)

    @property
    def queen_mine(self) -> bool:
        """Whether I hold the Q♠."""
        return bool(self.hand & QUEEN_MASK)

    @_Cached
    def queen_holder(self) -> int | None:
        """The seat known to hold the Q♠ (me, or whom I passed it to); None if unknown or gone."""
        for seat, mask in enumerate(self.known):
            if mask & QUEEN_MASK:
                return seat
        return None

    @_Cached
    def queen_danger(self) -> bool:
        """Whether the Q♠ is still with another seat, so a high spade may catch it."""
        return not self.queen_played and not self.queen_mine

    # ------------------------------------------------------------ the points
    @_Cached
    def hearts_out(self) -> int:
        """Hearts other seats hold."""
        return self.out & HEART_MASK

    @_Cached
    def cards_taken(self) -> tuple[int, ...]:
        """Per seat, the cards it has taken in completed tricks this round."""
        return round_so_far(self.view.rules, self.view.tricks).taken

    @_Cached
    def point_cards_taken(self) -> tuple[int, ...]:
        """Per seat, the hearts and Q♠ it has taken in completed tricks this round."""
        return tuple(mask & POINT_MASK for mask in self.cards_taken)

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Points each seat has taken this round (before any moon adjustment)."""
        return self.view.points_taken

    def points_of(self, mask: int) -> int:
        """Points a pile of cards is worth under these rules."""
        return card_points(mask, self.view.rules)

    @_Cached
    def sole_point_taker(self) -> int | None:
        """The one seat that has taken every point card so far (None if none or several)."""
        holders = [s for s, mask in enumerate(self.point_cards_taken) if mask]
        return holders[0] if len(holders) == 1 else None

    @_Cached
    def moon_open(self) -> bool:
        """Whether another seat can still take every point card: none taken yet, or all
        taken by one other seat."""
        taken = [s for s, mask in enumerate(self.point_cards_taken) if mask]
        return not taken or (len(taken) == 1 and taken[0] != self.seat)

    @_Cached
    def heart_stopper(self) -> Card | None:
        """My highest heart while at most one heart out beats it: the card that can win a
        heart trick from a seat running for the moon (None if I hold no such heart)."""
        hearts = self.hand & HEART_MASK
        if not hearts:
            return None
        top = highest_card(hearts)
        return top if self.out_above(top).bit_count() <= 1 else None

    @_Cached
    def moon_threat(self) -> int | None:
        """Another seat that has taken every point card so far and enough of them, for the
        round's stage, to be worth a trick to stop: 4 points from the start, any once a
        third of the tricks are done (measured against ``expert`` as the runner:
        ``benchmarks/moon.py``). The rule-based players act on it and hints explain by it."""
        seat = self.sole_point_taker
        if seat is None or seat == self.seat:
            return None
        points = self.points_of(self.point_cards_taken[seat])
        third_done = 3 * self.view.trick_no >= self.view.rules.hand_size
        return seat if points >= 4 or (third_done and points > 0) else None

    @_Cached
    def others_took_points(self) -> bool:
        """Whether any other seat has taken a heart or the Q♠ this round."""
        taken = 0
        for seat, mask in enumerate(self.cards_taken):
            if seat != self.seat:
                taken |= mask
        return bool(taken & POINT_MASK)

    # ------------------------------------------------------------- the trick
    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress (None when I lead)."""
        trick = self.view.trick
        return trick[0][1].suit if trick else None

    @_Cached
    def trick_mask(self) -> int:
        """Cards in the trick in progress."""
        mask = 0
        for _, card in self.view.trick:
            mask |= 1 << card
        return mask

    @_Cached
    def winning(self) -> tuple[int, Card] | None:
        """The seat winning the trick in progress and its card (None when I lead)."""
        return self.view.winning

    @property
    def trick_points(self) -> int:
        """Points in the trick in progress."""
        return self.points_of(self.trick_mask)

    @_Cached
    def still_to_play(self) -> tuple[int, ...]:
        """Seats that play to this trick after me."""
        return self.view.still_to_play

    @property
    def last_to_play(self) -> bool:
        """Whether I play the trick's last card."""
        return not self.still_to_play

    # ------------------------------------------------------------- the score
    @_Cached
    def projected_totals(self) -> tuple[int, ...]:
        """Game totals if the round ended now with the points taken so far."""
        return tuple(t + p for t, p in zip(self.view.totals, self.points_taken, strict=True))

    def ends_game(self, seat: int, points: int) -> bool | None:
        """If ``seat`` took ``points`` more: None if the game goes on, else whether I win."""
        totals = list(self.projected_totals)
        totals[seat] += points
        rules = self.view.rules
        if not game_over(totals, rules, self.view.round_no):
            return None
        return self.seat in game_winners(totals, rules, self.view.round_no)

    def queen_loses_game(self, seat: int) -> bool:
        """Whether ``seat`` taking the trick in progress with the Q♠ in it would end the
        game with me not winning."""
        return self.ends_game(seat, self.trick_points + self.queen_points) is False

    @_Cached
    def game_leader(self) -> int:
        """The other seat with the lowest projected total (nearest to winning)."""
        totals = self.projected_totals
        others = [s for s in range(self.players) if s != self.seat]
        return min(others, key=lambda s: (totals[s], s))

    @_Cached
    def behind_by(self) -> int:
        """How far my projected total trails the best other seat (negative when I lead)."""
        return self.projected_totals[self.seat] - self.projected_totals[self.game_leader]

    def cards(self, mask: int) -> list[Card]:
        """The cards of a mask, ascending."""
        return list(iter_mask(mask))
