"""Deal the cards a seat cannot see to the other seats, consistently with its view.

A sampled *world* gives every other seat exactly as many cards as it holds, never a
card of a suit it has shown void in (by not following, or by a card the rules allow
only from a hand without that suit), the cards I passed (and it has not played) to the
seat that received them, and nothing I have seen elsewhere. On top of those facts it
guesses that a seat which passed up a safe chance to shed the Q♠ does not hold it,
dropping the guess when it contradicts the facts. :class:`HiddenInfo` gathers all this
from a :class:`~hearts.core.view.PlayerView`;
:func:`~hearts.players.search.kernel.sample_hands` (compiled) deals one world.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Final

import numpy as np

from hearts.core.cards import QUEEN_OF_SPADES, SPADES
from hearts.core.rules import FirstTrick
from hearts.core.state import Phase
from hearts.core.view import PlayerView
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    NO_QUEEN,
    S_HEARTS_BROKEN,
    S_QUEEN_PLAYED,
    S_SIZE,
    S_TRICK_NO,
    Array,
    hearts_open,
    mix_seed,
    sample_hands,
)

__all__ = ["HiddenInfo"]

_HEART: Final = 3
_POINTS: Final = (0x1FFF << 39) | (1 << 36)
_ALL_SUITS: Final = 0b1111


@dataclass(frozen=True, slots=True)
class HiddenInfo:
    """What a seat knows about the cards it cannot see, as kernel-ready arrays.

    ``facts`` are certain (suits shown or forced void); ``voids``, what sampling uses,
    may add guesses: bit ``NO_QUEEN`` for a seat that passed up a safe chance to shed
    the Q♠, as any sensible player would take.
    """

    players: int
    seat: int
    hand: int
    unseen: int
    need: Array
    voids: Array
    fixed: Array
    facts: Array

    @classmethod
    def of(cls, view: PlayerView) -> HiddenInfo:
        """Gather hand sizes, shown voids and my passed cards from a play-phase view."""
        if view.seat is None or view.phase is not Phase.PLAY:
            raise ValueError("hidden hands are sampled for a seat's view in the play phase")
        seat, players = view.seat, view.players
        fixed = np.zeros(players, dtype=np.int64)
        if view.passed is not None and view.received is not None and view.pass_offset:
            fixed[(seat + view.pass_offset) % players] = view.passed.mask & ~view.played.mask
        voids = np.zeros(players, dtype=np.int64)
        for other, suits in enumerate(view.voids()):
            for suit in suits:
                voids[other] |= 1 << suit
        for other, forced in enumerate(_forced_voids(view)):
            voids[other] |= forced
        voids[seat] = 0
        guessed = voids.copy()
        for other in _queen_free(view):
            if other != seat:
                guessed[other] |= 1 << NO_QUEEN
        return cls(players, seat, view.hand.mask, view.unseen().mask,
                   np.array(view.hand_sizes, dtype=np.int64), guessed, fixed, voids)

    def facts_only(self) -> HiddenInfo:
        """Without the guesses (when they contradict the facts)."""
        return dataclasses.replace(self, voids=self.facts)

    def relaxed(self) -> HiddenInfo:
        """Without any voids (a fallback that cannot fail)."""
        nothing = np.zeros(self.players, dtype=np.int64)
        return dataclasses.replace(self, voids=nothing, facts=nothing)

    def consistent(self) -> HiddenInfo:
        """This, or the closest version of it that admits a deal."""
        for info in (self, self.facts_only()):
            if info.feasible():
                return info
        return self.relaxed()

    def feasible(self) -> bool:
        """Whether some deal satisfies every fact."""
        return bool(sample_hands(self.players, self.seat, self.unseen, self.need, self.voids,
                                 self.fixed, np.array([1], dtype=np.int64),
                                 np.zeros(self.players, dtype=np.int64)))

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world: every seat's current cards (mine as they are)."""
        out = np.zeros(self.players, dtype=np.int64)
        state = np.array([mix_seed(rng.getrandbits(32), 0)], dtype=np.int64)
        if not sample_hands(self.players, self.seat, self.unseen, self.need, self.voids,
                            self.fixed, state, out):
            raise ValueError("no deal of the unseen cards fits the view")
        out[self.seat] = self.hand
        return tuple(int(h) for h in out)


def _queen_free(view: PlayerView) -> set[int]:
    """Seats that, with the Q♠ out, kept it when they could have shed it safely: void in
    the suit led (outside a no-points first trick) but discarding another card, or
    following under a K♠ or A♠ with a lower spade."""
    rules = view.rules
    free: set[int] = set()
    plays = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        plays.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    queen_gone = False
    for number, (leader, cards) in enumerate(plays):
        restricted = number == 0 and rules.first_trick is FirstTrick.NO_POINTS
        led = cards[0].suit
        best = cards[0]
        for i, card in enumerate(cards):
            if i and not queen_gone:
                discarded = card.suit != led and card != QUEEN_OF_SPADES and not restricted
                under_top = card.suit == led == SPADES and card < QUEEN_OF_SPADES < best
                if discarded or under_top:
                    free.add((leader + i) % view.players)
            if card.suit == led and card > best:
                best = card
            queen_gone = queen_gone or card == QUEEN_OF_SPADES
    return free


def _forced_voids(view: PlayerView) -> list[int]:
    """Voids a seat revealed by playing a card the rules allow only from a restricted hand:
    a heart led before hearts are open (only hearts held), or a point card discarded on a
    no-points first trick (only hearts and Q♠ held). Suits as bits."""
    rules = view.rules
    codes = rules_array(rules)
    flags = np.zeros(S_SIZE, dtype=np.int64)
    found = [0] * view.players
    plays = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        plays.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    broken = queen = False
    for number, (leader, cards) in enumerate(plays):
        first = number == 0
        lead = cards[0]
        flags[S_TRICK_NO], flags[S_HEARTS_BROKEN], flags[S_QUEEN_PLAYED] = number, broken, queen
        if lead.suit == _HEART and not hearts_open(flags, codes):
            found[leader] |= _ALL_SUITS & ~(1 << _HEART)
        if first and rules.first_trick is FirstTrick.NO_POINTS:
            for i, card in enumerate(cards):
                if (1 << card) & _POINTS and (i == 0 or card.suit != lead.suit):
                    found[(leader + i) % view.players] |= 0b0011  # clubs and diamonds
        for card in cards:
            broken = broken or (card.suit == _HEART and lead.suit != _HEART)
            queen = queen or card == 36
    return found
