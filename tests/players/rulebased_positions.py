"""Concrete positions for the rule-based player and hint tests, built through the core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hearts.core import (
    CLUBS,
    HEART_MASK,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    Card,
    CardSet,
    GameState,
    Phase,
    Play,
    PlayerView,
    Rules,
    cards_above,
    iter_mask,
    new_hand,
    view,
)
from hearts.players import CallbackSeat, run_game

HOLD_ROUND = 4  # round 4 of the 4-player cycle passes nothing


def deal(rules: Rules, fixed: Mapping[int, str]) -> list[CardSet]:
    """Hands that hold the given cards; seats are filled up from the rest, lowest first."""
    hands = [CardSet.parse(fixed.get(seat, "")) for seat in range(rules.players)]
    taken = 0
    for hand in hands:
        taken |= hand.mask
    rest = list(iter_mask(rules.deck & ~taken))
    for seat, hand in enumerate(hands):
        need = rules.hand_size - len(hand)
        hands[seat], rest = hand | CardSet(rest[:need]), rest[need:]
    return hands


def start(preset: str, fixed: Mapping[int, str], *, round_no: int = HOLD_ROUND,
          totals: Sequence[int] | None = None) -> GameState:
    """A hand of ``preset`` dealt from ``fixed`` (a hold round unless told otherwise)."""
    rules = Rules.parse(preset)
    return new_hand(rules, deal(rules, fixed), round_no=round_no, totals=totals)


def play(state: GameState, cards: str) -> GameState:
    """Play the given cards in turn order, whoever is to act."""
    for name in cards.split():
        state = state.apply(Play(state.to_act[0], Card(name)))
    return state


def turn_view(state: GameState) -> PlayerView:
    """The view of the seat that must act now."""
    return view(state, state.to_act[0])


def moon_state(preset: str, totals: Sequence[int]) -> GameState:
    """A hand in which seat 0 holds every point card and the top spades and clubs, played
    out (seat 0 always plays its highest card, the others their lowest) until it waits
    for the shooter's choice or ends."""
    rules = Rules.parse(preset)
    top = HEART_MASK | QUEEN_MASK | cards_above(QUEEN_OF_SPADES)
    clubs = [c for c in reversed(list(iter_mask(rules.deck & SUIT_MASKS[CLUBS])))]
    for club in clubs[: rules.hand_size - top.bit_count()]:
        top |= 1 << club
    rest = list(iter_mask(rules.deck & ~top))
    hands = [CardSet(top)] + [CardSet(rest[i::rules.players - 1])
                              for i in range(rules.players - 1)]
    state = new_hand(rules, hands, round_no=len(rules.pass_cycle), totals=totals)
    return run_game(state, [CallbackSeat(_highest)] + [CallbackSeat(_lowest)] * (rules.players - 1),
                    stop=lambda now: now.phase is not Phase.PLAY)


def _highest(seen: PlayerView) -> Play:
    assert seen.seat is not None
    return Play(seen.seat, max(seen.legal))


def _lowest(seen: PlayerView) -> Play:
    assert seen.seat is not None
    return Play(seen.seat, min(seen.legal))
