"""The fixed-size observation and action encoding of a seat's view, for learning agents.

One home for the encoding that :mod:`hearts.env` (PettingZoo, Gymnasium, OpenSpiel) and the
batched simulator share (``docs/research.md`` has the table). It lives in the players layer so
that a trained-policy player can use it too; the core stays free of it.

Everything is read from a :class:`~hearts.core.PlayerView`, so an observation can hold
nothing that seat may not know. Seats are *relative* to the observing seat: ``r = (seat - me)
% players``, ``r = 0`` is the observer, ``r = 1`` the next seat in play order. Sections for
``r >= players`` stay zero (``MAX_SEATS`` is 6).

==========  ======  ===========================================================
offset      size    content
==========  ======  ===========================================================
HAND        52      my hand
PLAYED      6×52    per seat: the cards it played this round (current trick too)
TRICK       6×52    per seat: its card in the current trick (one-hot or zeros)
POINTS      6       per seat: points taken this round / POINTS_SCALE (26)
TOTALS      6       per seat: game total / rules.target
VOIDS       6×4     per seat and suit: the seat has shown it is void (view.voids)
SEATS       6       per seat: 1 if the seat is at this table
LEADER      6       per seat: 1 if it led the current trick (zeros before a lead)
PASSED      52      the cards I passed this round (zeros before I chose, in a hold hand)
RECEIVED    52      the cards I received this round
PASS_TARGET 6       the seat I pass to this round, one-hot (zeros in a hold hand)
DECK        52      the cards of this deal's deck (rules.deck)
PHASE       3       phase one-hot: pass, play, moon choice
HEARTS_OPEN 1       hearts may be led (view.hearts_open)
BARRED      1       no points may fall on this trick (view.points_barred)
TRICK_NO    1       trick number / hand size
SELECTED    52      during the pass: the cards picked so far (one card at a time)
==========  ======  ===========================================================

``OBSERVATION_SIZE`` is 944. Actions are ``Discrete(54)``: 0 to 51 a card by number (a card to
play, or during the pass the next card to pick: a seat picks ``rules.pass_count`` cards one
after another and its :class:`~hearts.core.PassCards` is made with the last), 52 the moon
choice ``add`` and 53 ``subtract``.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from hearts.core import (
    ALL_CARDS,
    POINT_MASK,
    SUIT_MASKS,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    HeartsError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    as_whole_number,
    card_points,
)

__all__ = [
    "ACTION_COUNT",
    "ADD_ACTION",
    "BARRED",
    "CARD_COUNT",
    "DECK",
    "HAND",
    "HEARTS_OPEN",
    "LEADER",
    "MAX_SEATS",
    "MOON_ACTIONS",
    "OBSERVATION_SIZE",
    "PASSED",
    "PASS_TARGET",
    "PHASE",
    "PHASES",
    "PLAYED",
    "POINTS",
    "POINTS_SCALE",
    "RECEIVED",
    "SEATS",
    "SELECTED",
    "SUBTRACT_ACTION",
    "SUIT_COUNT",
    "TOTALS",
    "TRICK",
    "TRICK_NO",
    "VOIDS",
    "EncodingError",
    "action_index",
    "action_mask",
    "action_of",
    "index_of",
    "observe",
    "pass_indices",
    "relative_seat",
]


class EncodingError(HeartsError, ValueError):
    """An action index or a view that the encoding cannot turn into a decision."""


MAX_SEATS: Final = 6
CARD_COUNT: Final = len(ALL_CARDS)
SUIT_COUNT: Final = len(SUIT_MASKS)
PHASES: Final = (Phase.PASS, Phase.PLAY, Phase.MOON)
"""The phases of the phase one-hot, in order."""
POINTS_SCALE: Final = float(card_points(POINT_MASK, Rules()))
"""Round points are divided by the worth of every heart and the Q♠ of a full deck (26)."""

HAND: Final = 0
PLAYED: Final = HAND + CARD_COUNT
TRICK: Final = PLAYED + MAX_SEATS * CARD_COUNT
POINTS: Final = TRICK + MAX_SEATS * CARD_COUNT
TOTALS: Final = POINTS + MAX_SEATS
VOIDS: Final = TOTALS + MAX_SEATS
SEATS: Final = VOIDS + MAX_SEATS * SUIT_COUNT
LEADER: Final = SEATS + MAX_SEATS
PASSED: Final = LEADER + MAX_SEATS
RECEIVED: Final = PASSED + CARD_COUNT
PASS_TARGET: Final = RECEIVED + CARD_COUNT
DECK: Final = PASS_TARGET + MAX_SEATS
PHASE: Final = DECK + CARD_COUNT
HEARTS_OPEN: Final = PHASE + len(PHASES)
BARRED: Final = HEARTS_OPEN + 1
TRICK_NO: Final = BARRED + 1
SELECTED: Final = TRICK_NO + 1
OBSERVATION_SIZE: Final = SELECTED + CARD_COUNT

ADD_ACTION: Final = CARD_COUNT
SUBTRACT_ACTION: Final = CARD_COUNT + 1
MOON_ACTIONS: Final = {MoonChoice.ADD: ADD_ACTION, MoonChoice.SUBTRACT: SUBTRACT_ACTION}
ACTION_COUNT: Final = SUBTRACT_ACTION + 1

_CHOICE_OF_ACTION: Final = {index: choice for choice, index in MOON_ACTIONS.items()}
_MASK_BYTES: Final = 8  # a card mask fits in 64 bits


def _bits(*masks: int) -> npt.NDArray[np.uint8]:
    """Card masks as rows of CARD_COUNT zeros and ones, by card number (one row a mask)."""
    raw = np.array(masks, dtype="<u8").view(np.uint8)  # little-endian: bit k is card k
    return np.unpackbits(raw, bitorder="little").reshape(len(masks), -1)[:, :CARD_COUNT]


def relative_seat(seat: int, me: int, players: int) -> int:
    """``seat`` as counted from ``me`` in play order (0 is ``me``)."""
    return (seat - me) % players


def _me(view: PlayerView) -> int:
    if view.seat is None:
        raise EncodingError("a spectator's view has no observation: observe a seat's view")
    return view.seat


def observe(view: PlayerView, selected: int = 0) -> npt.NDArray[np.float32]:
    """The seat's view as ``OBSERVATION_SIZE`` float32s (``selected``: the mask of the cards
    picked so far in a one-card-at-a-time pass)."""
    me = _me(view)
    rules = view.rules
    n = rules.players
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    played = [0] * n
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            played[(trick.leader + i) % n] |= card.mask
    for seat, card in view.trick:
        played[seat] |= card.mask
        obs[TRICK + relative_seat(seat, me, n) * CARD_COUNT + card] = 1.0
    if view.trick:
        obs[LEADER + relative_seat(view.trick[0][0], me, n)] = 1.0
    # the observer's row first, then the next seats in play order: relative seats 0, 1, ...
    in_order = [played[(me + r) % n] for r in range(n)]
    passed = view.passed.mask if view.passed is not None else 0
    received = view.received.mask if view.received is not None else 0
    rows = _bits(view.hand.mask, passed, received, rules.deck, selected, *in_order)
    obs[HAND:HAND + CARD_COUNT] = rows[0]
    obs[PASSED:PASSED + CARD_COUNT] = rows[1]
    obs[RECEIVED:RECEIVED + CARD_COUNT] = rows[2]
    obs[DECK:DECK + CARD_COUNT] = rows[3]
    obs[SELECTED:SELECTED + CARD_COUNT] = rows[4]
    obs[PLAYED:PLAYED + n * CARD_COUNT] = rows[5:].ravel()
    voids = view.voids()
    for seat in range(n):
        r = relative_seat(seat, me, n)
        obs[POINTS + r] = view.points_taken[seat] / POINTS_SCALE
        obs[TOTALS + r] = view.totals[seat] / rules.target
        for suit in voids[seat]:
            obs[VOIDS + r * SUIT_COUNT + suit] = 1.0
    obs[SEATS:SEATS + n] = 1.0
    target = view.pass_target
    if target is not None and rules.pass_count:
        obs[PASS_TARGET + relative_seat(target, me, n)] = 1.0
    if view.phase in PHASES:
        obs[PHASE + PHASES.index(view.phase)] = 1.0
    obs[HEARTS_OPEN] = float(view.hearts_open)
    obs[BARRED] = float(view.points_barred)
    obs[TRICK_NO] = view.trick_no / rules.hand_size
    return obs


def action_mask(view: PlayerView, selected: int = 0) -> npt.NDArray[np.int8]:
    """``ACTION_COUNT`` int8s, 1 for each action the seat may take now (all zero when the
    view is not waiting on it; in a pass that is every seat still to choose, as the core
    has it: an environment that takes the passes seat by seat masks the others itself)."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if view.seat is None or not view.my_turn:
        return mask
    if view.phase is Phase.PASS:
        mask[:CARD_COUNT] = _bits(view.hand.mask & ~selected)[0]
    elif view.phase is Phase.PLAY:
        mask[:CARD_COUNT] = _bits(view.legal.mask)[0]
    elif view.phase is Phase.MOON:
        # the core asks the shooter only where the rules leave it the choice: both are open
        mask[list(MOON_ACTIONS.values())] = 1
    return mask


def action_index(action: object) -> int:
    """An action as the index it must be: an int, a NumPy integer or a 0-d integer array
    (what a trained agent's ``predict`` gives; never ``True``, ``0.9`` or ``"0"``, which
    ``int()`` would turn into a card) in the action space, 0 to 53; EncodingError
    otherwise (an index outside the space is a caller's bug, not a move the rules refuse)."""
    number = as_whole_number(action)
    if number is not None and 0 <= number < ACTION_COUNT:
        return number
    raise EncodingError(f"an action is a whole number from 0 to {ACTION_COUNT - 1} (the "
                        f"action space), not {action!r}")


def action_of(view: PlayerView, index: object, selected: int = 0) -> Action | None:
    """The action that index ``index`` makes for this seat now.

    In the pass a card index is one pick: None until the pick completes the seat's
    ``rules.pass_count`` cards (the caller adds the card to ``selected``), then the
    :class:`~hearts.core.PassCards` of them all. Raises :class:`EncodingError` for an index
    the mask does not allow.
    """
    me = _me(view)
    legal = action_mask(view, selected)
    number = action_index(index)
    if not legal[number]:
        allowed = np.flatnonzero(legal).tolist()
        raise EncodingError(
            f"action {number} is not allowed now ({view.phase.value}); allowed: {allowed}")
    index = number
    if view.phase is Phase.PASS:
        picked = selected | Card(index).mask
        if picked.bit_count() < view.rules.pass_count:
            return None
        return PassCards(me, CardSet(picked))
    if view.phase is Phase.PLAY:
        return Play(me, Card(index))
    return ChooseMoon(me, _CHOICE_OF_ACTION[index])


def index_of(action: Play | ChooseMoon) -> int:
    """The action index of a play or a moon choice (a pass is several: :func:`pass_indices`)."""
    if isinstance(action, Play):
        return int(action.card)
    if isinstance(action, ChooseMoon):
        return MOON_ACTIONS[action.choice]
    raise EncodingError(
        f"{type(action).__name__} has no single action index: only Play and ChooseMoon do"
        " (PassCards: pass_indices)")


def pass_indices(action: PassCards) -> tuple[int, ...]:
    """The card indices a pass is picked as, in card order."""
    return tuple(int(card) for card in action.cards)
