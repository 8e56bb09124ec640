"""An independent, deliberately plain statement of which card may be played.

Written from ``RULES.md`` with Python sets, sharing no code with the engine's
``_legal_mask``: the property and perft tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hearts.core import Rules

__all__ = ["Table", "reference_legal"]

QUEEN = 36  # Q♠ under the documented numbering: spades are suit 2, the queen rank 10


def _suit(card: int) -> int:
    return card // 13


def _is_heart(card: int) -> bool:
    return _suit(card) == 3


def _is_point(card: int) -> bool:
    return _is_heart(card) or card == QUEEN


@dataclass
class Table:
    """The facts legality depends on, kept by replaying plays one at a time."""

    rules: Rules
    hands: list[set[int]]
    leader: int
    trick: list[int] = field(default_factory=list)
    tricks_done: int = 0
    heart_discarded: bool = False
    queen_played: bool = False

    @property
    def turn(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % self.rules.players

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play; settle the trick when it is full."""
        self.hands[self.turn].remove(card)
        if self.trick and _suit(self.trick[0]) != _suit(card):
            self.heart_discarded |= _is_heart(card)
        self.trick.append(card)
        self.queen_played |= card == QUEEN
        if len(self.trick) == self.rules.players:
            led = _suit(self.trick[0])
            best = max((c, i) for i, c in enumerate(self.trick) if _suit(c) == led)[1]
            self.leader = (self.leader + best) % self.rules.players
            self.trick = []
            self.tricks_done += 1

    def branch(self) -> Table:
        """A copy to branch from."""
        return Table(self.rules, [set(h) for h in self.hands], self.leader, list(self.trick),
                     self.tricks_done, self.heart_discarded, self.queen_played)


def reference_legal(table: Table) -> set[int]:
    """Cards the seat to play may play, straight from the rule table of RULES.md."""
    rules = table.rules
    hand = table.hands[table.turn]
    first_trick = table.tricks_done == 0
    no_points_first = first_trick and rules.first_trick.value == "no-points"
    if table.trick:
        led = _suit(table.trick[0])
        following = {c for c in hand if _suit(c) == led}
        if following:
            return following
        if no_points_first:
            return {c for c in hand if not _is_point(c)} or set(hand)
        return set(hand)
    if first_trick and rules.first_lead.value == "lowest-club":
        clubs = [c for c in range(13) if not rules.removed >> c & 1]
        return {min(clubs)} & hand
    allowed = set(hand)
    if no_points_first:
        allowed = {c for c in allowed if not _is_point(c)} or allowed
    policy = rules.hearts_lead.value
    if policy == "any-time":
        hearts_may_lead = not first_trick
    elif policy == "after-heart":
        hearts_may_lead = table.heart_discarded
    else:
        hearts_may_lead = table.heart_discarded or table.queen_played
    if not hearts_may_lead:
        allowed = {c for c in allowed if not _is_heart(c)} or allowed
    return allowed
