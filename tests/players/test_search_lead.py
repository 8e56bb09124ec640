"""The ``lead`` playout policy's leads, set up card by card in the kernel's position: of
each suit's lowest card, the one under which the fewest cards still out rank, ties to the
shorter suit; a card nothing outranks last. The moon policy it builds on leads the
lowest rank instead, so each scenario is one where the two differ."""

from __future__ import annotations

import numpy as np
import pytest

from hearts.core import Card, CardSet, Rules
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    POLICY_LEAD,
    POLICY_MOON,
    S_HANDS,
    S_QUEEN_PLAYED,
    S_SIZE,
    S_TAKEN,
    S_TRICK_NO,
    S_TURN,
    _choose,
)

CODES = rules_array(Rules.parse("standard"))


def cards(text: str) -> int:
    return CardSet.parse(text).mask


def lead(policy: int, mine: str, out: list[str], gone: str) -> str:
    """The card seat 0 leads to trick 6 holding ``mine``, the other seats holding ``out``,
    with ``gone`` (and the Q♠, taken by seat 1, and a heart, by seat 2) played before."""
    pos = np.zeros(S_SIZE, dtype=np.int64)
    pos[S_HANDS] = cards(mine)
    for seat, hand in enumerate(out, start=1):
        pos[S_HANDS + seat] = cards(hand)
    pos[S_TAKEN + 1] = cards(f"QS {gone}")
    pos[S_TAKEN + 2] = cards("2H")
    pos[S_QUEEN_PLAYED] = 1
    pos[S_TRICK_NO] = 5
    pos[S_TURN] = 0
    return str(Card(int(_choose(pos, CODES, policy, np.array([1], dtype=np.int64)))))


@pytest.mark.parametrize(("mine", "out", "gone", "lead_policy", "moon_policy"), [
    # both lowest cards lose for sure (2-4 of clubs are gone): the shorter suit, a void sooner
    ("5C KC 2D 3D 4D 9D", ["6C 7C 5D", "8C 9C 6D", "TC AC 7D"], "2C 3C 4C", "5C", "2D"),
    # the 3 of clubs has the 2 still out under it; every diamond under the 6 is gone
    ("3C 6D", ["2C 7D", "4C 8D", "5C 9D"], "2D 3D 4D 5D", "6D", "3C"),
    # nothing still out outranks the 3 of clubs: it would win, so the 9 of diamonds goes
    ("3C 9D", ["2C 2D", "3D", "TD"], "4C 5C 6C 7C 8C 9C TC JC KC AC", "9D", "3C"),
])
def test_the_lead_policy_leads_the_surest_loser(mine: str, out: list[str], gone: str,
                                                lead_policy: str, moon_policy: str) -> None:
    assert lead(POLICY_LEAD, mine, out, gone) == lead_policy
    assert lead(POLICY_MOON, mine, out, gone) == moon_policy
