"""Deal the cards a seat cannot see to the other seats, consistently with its view.

A sampled *world* gives every other seat exactly as many cards as it holds, never a
card of a suit it has shown void in, nor the Q♠ once it has shown it lacks it (what its
plays ruled out: ``PlayerView.excluded``), the cards I passed (and it has not played)
to the seat that received them, and nothing I have seen elsewhere. On top of those facts it
guesses that a seat which passed up a safe chance to shed the Q♠ does not hold it,
dropping the guess when it contradicts the facts. :class:`HiddenInfo` gathers all this
from a :class:`~hearts.core.view.PlayerView`;
:func:`~hearts.players.search.kernel.sample_hands` (compiled) deals one world.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

import numpy as np

from hearts.core import (
    NO_LEAD,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    SPADES,
    Card,
    Phase,
    PlayerView,
    play_rules,
    points_barred,
)
from hearts.players.errors import PlayerError
from hearts.players.search.kernel import NO_QUEEN, Array, mix_seed, sample_hands

__all__ = ["HiddenInfo"]


@dataclass(frozen=True, slots=True)
class HiddenInfo:
    """What a seat knows about the cards it cannot see, as kernel-ready arrays.

    ``facts`` are certain (what the view rules out); ``voids``, what sampling uses,
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
            raise PlayerError("hidden hands are sampled for a seat's view in the play phase")
        seat, players = view.seat, view.players
        fixed = np.zeros(players, dtype=np.int64)
        target = view.pass_target
        if view.passed is not None and view.received is not None and target is not None:
            fixed[target] = view.passed.mask & ~view.played.mask
        voids = np.zeros(players, dtype=np.int64)
        for other, (suits, excluded) in enumerate(zip(view.voids(), view.excluded, strict=True)):
            for suit in suits:
                voids[other] |= 1 << suit
            if excluded & QUEEN_MASK:
                voids[other] |= 1 << NO_QUEEN
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
            raise PlayerError("no deal of the unseen cards fits the view")
        out[self.seat] = self.hand
        return tuple(int(h) for h in out)


def _queen_free(view: PlayerView) -> set[int]:
    """Seats that, with the Q♠ out, kept it when they could have shed it safely: void in
    the suit led (outside a trick that bars points) but discarding another card, or
    following under a K♠ or A♠ with a lower spade."""
    facts = play_rules(view.rules)
    free: set[int] = set()
    queen_gone = False
    best = QUEEN_OF_SPADES  # the highest card of the suit led so far (set by each lead)
    for play in view.round_plays:
        card = play.card
        if play.led == NO_LEAD:
            best = card
        else:
            led = Card(play.led).suit
            if not queen_gone:
                barred = points_barred(facts, play.trick_no == 0)
                discarded = card.suit != led and card != QUEEN_OF_SPADES and not barred
                under_top = card.suit == led == SPADES and card < QUEEN_OF_SPADES < best
                if discarded or under_top:
                    free.add(play.seat)
            if card.suit == led and card > best:
                best = card
        queen_gone = queen_gone or card == QUEEN_OF_SPADES
    return free
