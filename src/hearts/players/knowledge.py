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
derives it one trick at a time and keeps it between decisions. The install compiles this
module with mypyc (:mod:`hearts.players._native`), and a compiled class takes no descriptor
but properties: so each fact that costs something is a property over an attribute filled
on first use (-1 or None for "not yet", or a flag beside a fact that may be None), and
the cheap ones are computed on each read.
"""

from __future__ import annotations

from typing import Final

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
from hearts.players.errors import PlayerError

__all__ = ["Knowledge"]

_NOT_YET: Final = -1  # a mask or count fact not computed yet (they are never negative)


class Knowledge:
    """What a seat can know from its view: build it with :meth:`of`."""

    view: Final[PlayerView]
    seat: Final[int]
    hand: Final[int]

    def __init__(self, view: PlayerView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.hand = view.hand.mask  # read by nearly every fact and decision
        self._played = self._out = self._trick_mask = self._queen_points = _NOT_YET
        self._game_leader = _NOT_YET
        self._known: tuple[int, ...] | None = None
        self._voids: tuple[frozenset[int], ...] | None = None
        self._holdable: tuple[int, ...] | None = None
        self._followers: tuple[tuple[int, ...], ...] | None = None
        self._cards_taken: tuple[int, ...] | None = None
        self._point_cards_taken: tuple[int, ...] | None = None
        self._still_to_play: tuple[int, ...] | None = None
        self._projected_totals: tuple[int, ...] | None = None
        self._queen_played: bool | None = None
        self._moon_open: bool | None = None
        self._others_took_points: bool | None = None
        # facts that may be None: a flag says whether each is known yet
        self._sole_point_taker: int | None = None
        self._sole_point_taker_known = False
        self._heart_stopper: Card | None = None
        self._heart_stopper_known = False
        self._moon_threat: int | None = None
        self._moon_threat_known = False
        self._winning: tuple[int, Card] | None = None
        self._winning_known = False

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Knowledge of the seat whose view this is (spectators know nothing private)."""
        if view.seat is None:
            raise PlayerError("knowledge needs a seat's view, not a spectator's")
        return cls(view, view.seat)

    def __repr__(self) -> str:
        return f"Knowledge(view={self.view!r}, seat={self.seat!r})"

    # ------------------------------------------------------------- the cards
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.view.players

    @property
    def played(self) -> int:
        """Mask of every card played this round, the trick in progress included."""
        if self._played == _NOT_YET:
            taken = 0
            for mask in self.cards_taken:
                taken |= mask
            self._played = taken | self.trick_mask
        return self._played

    @property
    def passed_to(self) -> int | None:
        """The seat that received my pass this round (None before the pass or on a hold)."""
        view = self.view
        if view.passed is None or view.received is None:
            return None
        return view.pass_target

    @property
    def known(self) -> tuple[int, ...]:
        """Per seat, the cards I know it holds: those I passed it and it has not played."""
        if self._known is None:
            masks = [0] * self.players
            masks[self.seat] = self.hand
            receiver = self.passed_to
            passed = self.view.passed
            if receiver is not None and passed is not None:
                masks[receiver] = passed.mask & ~self.played
            self._known = tuple(masks)
        return self._known

    @property
    def out(self) -> int:
        """Cards other seats hold: neither mine nor played (cards I passed included)."""
        if self._out == _NOT_YET:
            self._out = self.view.rules.deck & ~self.hand & ~self.played
        return self._out

    @property
    def unseen(self) -> int:
        """Cards other seats hold that I cannot place (the cards I passed excluded)."""
        passed = self.view.passed
        if passed is None or self.view.received is None:
            return self.out
        return self.out & ~passed.mask

    @property
    def voids(self) -> tuple[frozenset[int], ...]:
        """Suits each seat has shown it lacks this round (:meth:`PlayerView.voids`)."""
        if self._voids is None:
            self._voids = self.view.voids()
        return self._voids

    @property
    def holdable(self) -> tuple[int, ...]:
        """Per seat, the mask of the cards it may hold as far as I can tell."""
        if self._holdable is None:
            masks = []
            unseen = self.unseen
            for seat, (voids, known) in enumerate(zip(self.voids, self.known, strict=True)):
                if seat == self.seat:
                    masks.append(self.hand)
                    continue
                mask = unseen
                for suit in voids:
                    mask &= ~SUIT_MASKS[suit]
                masks.append(mask | known)
            self._holdable = tuple(masks)
        return self._holdable

    def may_hold(self, seat: int) -> int:
        """Mask of the cards ``seat`` may hold as far as I can tell."""
        return self.holdable[seat]

    def may_follow(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may still hold a card of ``suit``."""
        return bool(self.holdable[seat] & SUIT_MASKS[suit])

    @property
    def followers(self) -> tuple[tuple[int, ...], ...]:
        """Per suit, the other seats that may still hold a card of it, in seat order."""
        if self._followers is None:
            others = [(s, mask) for s, mask in enumerate(self.holdable) if s != self.seat]
            self._followers = tuple(tuple([s for s, mask in others if mask & suit_mask])
                                    for suit_mask in SUIT_MASKS)
        return self._followers

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

    @property
    def queen_played(self) -> bool:
        """Whether the Q♠ has been played this round (or is not in the deck)."""
        if self._queen_played is None:
            self._queen_played = bool(self.played & QUEEN_MASK) or not self.queen_in_play
        return self._queen_played

    @property
    def queen_points(self) -> int:
        """What the Q♠ is worth to the seat that takes it."""
        if self._queen_points == _NOT_YET:
            self._queen_points = self.points_of(QUEEN_MASK)
        return self._queen_points

    @property
    def queen_mine(self) -> bool:
        """Whether I hold the Q♠."""
        return bool(self.hand & QUEEN_MASK)

    @property
    def queen_holder(self) -> int | None:
        """The seat known to hold the Q♠ (me, or whom I passed it to); None if unknown or gone."""
        for seat, mask in enumerate(self.known):
            if mask & QUEEN_MASK:
                return seat
        return None

    @property
    def queen_danger(self) -> bool:
        """Whether the Q♠ is still with another seat, so a high spade may catch it."""
        return not self.queen_played and not self.queen_mine

    # ------------------------------------------------------------ the points
    @property
    def hearts_out(self) -> int:
        """Hearts other seats hold."""
        return self.out & HEART_MASK

    @property
    def cards_taken(self) -> tuple[int, ...]:
        """Per seat, the cards it has taken in completed tricks this round."""
        if self._cards_taken is None:
            self._cards_taken = round_so_far(self.view.rules, self.view.tricks).taken
        return self._cards_taken

    @property
    def point_cards_taken(self) -> tuple[int, ...]:
        """Per seat, the hearts and Q♠ it has taken in completed tricks this round."""
        if self._point_cards_taken is None:
            self._point_cards_taken = tuple([mask & POINT_MASK for mask in self.cards_taken])
        return self._point_cards_taken

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Points each seat has taken this round (before any moon adjustment)."""
        return self.view.points_taken

    def points_of(self, mask: int) -> int:
        """Points a pile of cards is worth under these rules."""
        return card_points(mask, self.view.rules)

    @property
    def sole_point_taker(self) -> int | None:
        """The one seat that has taken every point card so far (None if none or several)."""
        if not self._sole_point_taker_known:
            holders = [s for s, mask in enumerate(self.point_cards_taken) if mask]
            self._sole_point_taker = holders[0] if len(holders) == 1 else None
            self._sole_point_taker_known = True
        return self._sole_point_taker

    @property
    def moon_open(self) -> bool:
        """Whether another seat can still take every point card: none taken yet, or all
        taken by one other seat."""
        if self._moon_open is None:
            taken = [s for s, mask in enumerate(self.point_cards_taken) if mask]
            self._moon_open = not taken or (len(taken) == 1 and taken[0] != self.seat)
        return self._moon_open

    @property
    def heart_stopper(self) -> Card | None:
        """My highest heart while at most one heart out beats it: the card that can win a
        heart trick from a seat running for the moon (None if I hold no such heart)."""
        if not self._heart_stopper_known:
            hearts = self.hand & HEART_MASK
            top = highest_card(hearts) if hearts else None
            self._heart_stopper = (
                top if top is not None and self.out_above(top).bit_count() <= 1 else None)
            self._heart_stopper_known = True
        return self._heart_stopper

    @property
    def moon_threat(self) -> int | None:
        """Another seat that has taken every point card so far and enough of them, for the
        round's stage, to be worth a trick to stop: 4 points from the start, any once a
        third of the tricks are done (measured against ``expert`` as the runner:
        ``benchmarks/moon.py``). The rule-based players act on it and hints explain by it."""
        if not self._moon_threat_known:
            self._moon_threat = self._find_moon_threat()
            self._moon_threat_known = True
        return self._moon_threat

    def _find_moon_threat(self) -> int | None:
        seat = self.sole_point_taker
        if seat is None or seat == self.seat:
            return None
        points = self.points_of(self.point_cards_taken[seat])
        third_done = 3 * self.view.trick_no >= self.view.rules.hand_size
        return seat if points >= 4 or (third_done and points > 0) else None

    @property
    def others_took_points(self) -> bool:
        """Whether any other seat has taken a heart or the Q♠ this round."""
        if self._others_took_points is None:
            taken = 0
            for seat, mask in enumerate(self.cards_taken):
                if seat != self.seat:
                    taken |= mask
            self._others_took_points = bool(taken & POINT_MASK)
        return self._others_took_points

    # ------------------------------------------------------------- the trick
    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress (None when I lead)."""
        trick = self.view.trick
        return trick[0][1].suit if trick else None

    @property
    def trick_mask(self) -> int:
        """Cards in the trick in progress."""
        if self._trick_mask == _NOT_YET:
            mask = 0
            for _, card in self.view.trick:
                mask |= 1 << card
            self._trick_mask = mask
        return self._trick_mask

    @property
    def winning(self) -> tuple[int, Card] | None:
        """The seat winning the trick in progress and its card (None when I lead)."""
        if not self._winning_known:
            self._winning = self.view.winning
            self._winning_known = True
        return self._winning

    @property
    def trick_points(self) -> int:
        """Points in the trick in progress."""
        return self.points_of(self.trick_mask)

    @property
    def still_to_play(self) -> tuple[int, ...]:
        """Seats that play to this trick after me."""
        if self._still_to_play is None:
            self._still_to_play = self.view.still_to_play
        return self._still_to_play

    @property
    def last_to_play(self) -> bool:
        """Whether I play the trick's last card."""
        return not self.still_to_play

    # ------------------------------------------------------------- the score
    @property
    def projected_totals(self) -> tuple[int, ...]:
        """Game totals if the round ended now with the points taken so far."""
        if self._projected_totals is None:
            self._projected_totals = tuple([
                t + p for t, p in zip(self.view.totals, self.points_taken, strict=True)])
        return self._projected_totals

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

    @property
    def game_leader(self) -> int:
        """The other seat with the lowest projected total (nearest to winning)."""
        if self._game_leader == _NOT_YET:
            totals = self.projected_totals
            self._game_leader = min([(totals[s], s) for s in range(self.players)
                                     if s != self.seat])[1]
        return self._game_leader

    @property
    def behind_by(self) -> int:
        """How far my projected total trails the best other seat (negative when I lead)."""
        totals = self.projected_totals
        return totals[self.seat] - totals[self.game_leader]

    def cards(self, mask: int) -> list[Card]:
        """The cards of a mask, ascending."""
        return list(iter_mask(mask))
