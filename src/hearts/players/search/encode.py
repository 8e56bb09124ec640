"""Rules and positions as the flat ``int64`` arrays the kernel works on.

Only public information goes in from the view; the hidden hands are an argument
(sampled worlds in search, the true deal in the cross-check tests).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hearts.core import MoonChoice, Phase, PlayerView, Rules, fixed_moon_choice, play_rules
from hearts.players.errors import PlayerError
from hearts.players.knowledge import Knowledge
from hearts.players.search.kernel import (
    R_DECK,
    R_GAME_WEIGHT,
    R_HEARTS_LEAD,
    R_JACK,
    R_LOWEST_CLUB,
    R_LOWEST_CLUB_LEADS,
    R_MOON,
    R_NO_POINTS_FIRST,
    R_PLAYERS,
    R_ROUNDS_LEFT,
    R_SIZE,
    R_TARGET,
    S_HANDS,
    S_HEARTS_BROKEN,
    S_LEADER,
    S_QUEEN_PLAYED,
    S_SIZE,
    S_TAKEN,
    S_TRICK,
    S_TRICK_LEN,
    S_TRICK_NO,
    S_TURN,
    Array,
)
from hearts.players.standing import GAME_WEIGHT

__all__ = ["position_array", "rules_array"]

# R_MOON: 0 the shooter subtracts, 1 the others add, 2 the shooter chooses.
_MOON_CODES = {MoonChoice.SUBTRACT: 0, MoonChoice.ADD: 1, None: 2}


def rules_array(rules: Rules, round_no: int | None = None,
                game_weight: int = GAME_WEIGHT) -> Array:
    """The rules as the kernel's ``R_*`` array, from the core's play facts, for a round
    of the game (``round_no``; None: as if the target alone ended the game), with the
    points a game win is worth to the searching player (``game_weight``; see
    :data:`hearts.players.standing.GAME_WEIGHT`)."""
    facts = play_rules(rules)
    codes = np.zeros(R_SIZE, dtype=np.int64)
    codes[R_PLAYERS] = facts.players
    codes[R_LOWEST_CLUB_LEADS] = facts.lowest_lead
    codes[R_LOWEST_CLUB] = max(facts.lowest_bit.bit_length() - 1, 0)
    codes[R_NO_POINTS_FIRST] = facts.no_points_first
    codes[R_HEARTS_LEAD] = 0 if facts.any_time else 2 if facts.queen_opens else 1
    codes[R_MOON] = _MOON_CODES[fixed_moon_choice(rules)]
    codes[R_JACK] = rules.jack_of_diamonds
    codes[R_DECK] = rules.deck
    codes[R_TARGET] = rules.target
    left = None if round_no is None else rules.rounds_left(round_no)
    codes[R_ROUNDS_LEFT] = -1 if left is None else left
    codes[R_GAME_WEIGHT] = game_weight
    return codes


def position_array(view: PlayerView, hands: Sequence[int]) -> Array:
    """The play-phase position of ``view`` with every seat's current cards ``hands``."""
    if view.phase is not Phase.PLAY:
        raise PlayerError(f"a kernel position needs the play phase, not {view.phase.value}")
    pos = np.zeros(S_SIZE, dtype=np.int64)
    for seat, (hand, taken) in enumerate(zip(hands, Knowledge.of(view).cards_taken, strict=True)):
        pos[S_HANDS + seat] = hand
        pos[S_TAKEN + seat] = taken
    for i, (_, card) in enumerate(view.trick):
        pos[S_TRICK + i] = card
    pos[S_TRICK_LEN] = len(view.trick)
    pos[S_LEADER] = view.leader
    pos[S_TURN] = view.to_act[0]
    pos[S_TRICK_NO] = len(view.tricks)
    pos[S_HEARTS_BROKEN] = view.hearts_broken
    pos[S_QUEEN_PLAYED] = view.queen_played
    return pos
