"""Exact positions for the tests of the core and the players: explicit deals, scripted
and policy play.

One notation for a position: the rules (a :class:`Rules` or its text form), then the
cards some seats must hold as ``{seat: "AC QS 5H"}``; :func:`deal` hands out the rest.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from hearts.core import (
    CLUBS,
    HEART_MASK,
    SUIT_MASKS,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    iter_mask,
    new_game,
    new_hand,
    view,
)

__all__ = [
    "MOON_HANDS",
    "deal",
    "hold_round",
    "legal",
    "moon_state",
    "pass_all",
    "play",
    "play_out",
    "random_action",
    "random_game",
    "start",
    "step",
    "turn_view",
]

# Hands that take every trick wherever the other cards lie: the top club wins the
# first trick, then this seat leads and holds the top of every suit it can lead.
MOON_HANDS: Final = {
    2: "AC AS KS QS AD KD QD JD TD 9D 8D 7D 6D " + " ".join(f"{r}H" for r in "23456789TJQKA"),
    3: "AC AS KS QS " + " ".join(f"{r}H" for r in "23456789TJQKA"),
    4: "AC AS KS QS 6H 7H 8H 9H TH JH QH KH AH",
    5: "AC AS KS QS 9H TH JH QH KH AH",
    6: "AC AS KS QS JH QH KH AH",
}


def deal(rules: Rules, fixed: Mapping[int, str],
         voids: Mapping[int, str] | None = None) -> tuple[CardSet, ...]:
    """Hands holding the ``fixed`` cards; the rest of the deck goes out in ascending
    card order, round the seats with room, skipping a seat for the suits (letters
    ``CDSH``) that ``voids`` keeps out of its hand."""
    hands = [CardSet.parse(fixed.get(seat, "")).mask for seat in range(rules.players)]
    free = rules.deck
    for hand in hands:
        assert not hand & ~free, "a fixed card is dealt twice or is not in the deck"
        free &= ~hand
    barred = {seat: {"CDSH".index(s) for s in suits} for seat, suits in (voids or {}).items()}
    seat = rules.players - 1  # the first free card goes to seat 0
    for card in iter_mask(free):
        for _ in range(rules.players):
            seat = (seat + 1) % rules.players
            if hands[seat].bit_count() < rules.hand_size and card.suit not in barred.get(seat, ()):
                hands[seat] |= 1 << card
                break
        else:
            raise AssertionError(f"no seat can take {card}")
    return tuple(CardSet(h) for h in hands)


def hold_round(rules: Rules) -> int:
    """The first round number whose pass offset is 0 (no pass: play starts at once)."""
    return rules.pass_cycle.index(0) + 1


def start(rules: Rules | str, fixed: Mapping[int, str] | None = None, *,
          round_no: int | None = None, totals: Sequence[int] | None = None,
          voids: Mapping[int, str] | None = None) -> GameState:
    """A hand dealt as :func:`deal` says, on a hold round unless ``round_no`` is given;
    ``rules`` may be written as text (``"classic:players=3"``)."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    hands = deal(rules, fixed or {}, voids)
    return new_hand(rules, hands, round_no=round_no or hold_round(rules), totals=totals)


def turn_view(state: GameState) -> PlayerView:
    """The view of the seat that must act now."""
    return view(state, state.to_act[0])


def moon_state(rules: Rules | str, totals: Sequence[int]) -> GameState:
    """A hold-round hand in which seat 0 holds every heart, the top three spades and then
    the top clubs, played out (seat 0 always plays its highest card, the others their
    lowest) until it waits for the shooter's choice or ends."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    top = HEART_MASK | CardSet.parse("QS KS AS").mask
    clubs = list(iter_mask(rules.deck & SUIT_MASKS[CLUBS]))[::-1]
    top |= CardSet(clubs[: max(0, rules.hand_size - top.bit_count())]).mask
    state = start(rules, {0: " ".join(CardSet(top).names())}, totals=totals)
    while state.phase is Phase.PLAY:
        seat = state.to_act[0]
        allowed = list(state.legal_cards(seat))
        state = state.apply(Play(seat, allowed[-1] if seat == 0 else allowed[0]))
    return state


def legal(state: GameState, seat: int | None = None) -> set[str]:
    """Names of the cards ``seat`` (default: the seat to act) may play or pass now."""
    return set(state.legal_cards(seat).names())


def play(state: GameState, cards: str) -> GameState:
    """Play the named cards in turn order."""
    for name in cards.split():
        state = state.apply(Play(state.turn, Card(name)))
    return state


def step(state: GameState) -> GameState:
    """The seat to act plays its lowest legal card."""
    return state.apply(state.legal_actions()[0])


def pass_all(state: GameState, passes: Mapping[int, str]) -> GameState:
    """Every seat passes the named cards (in the mapping's order)."""
    for seat, cards in passes.items():
        state = state.apply(PassCards(seat, CardSet.parse(cards)))
    return state


def play_out(state: GameState, prefer: Mapping[int, str] | None = None,
             moon: MoonChoice = MoonChoice.SUBTRACT) -> GameState:
    """Finish the round: each seat plays the first legal card of its ``prefer`` list,
    else its lowest legal card; a pending moon choice is ``moon``."""
    wishes = {seat: [Card(c) for c in text.split()] for seat, text in (prefer or {}).items()}
    round_no = state.round_no
    while state.phase is Phase.PLAY and state.round_no == round_no:
        seat = state.turn
        allowed = state.legal_cards(seat)
        card = next((c for c in wishes.get(seat, ()) if c in allowed), None)
        state = state.apply(Play(seat, card if card is not None else next(iter(allowed))))
    if state.phase is Phase.MOON:
        state = state.apply(ChooseMoon(state.to_act[0], moon))
    return state


def random_action(state: GameState, rng: random.Random) -> Action:
    """A uniformly random legal decision of the first seat to act (the deal between rounds)."""
    if state.phase is Phase.DEAL:
        deal = state.next_deal
        assert deal is not None, "an unseeded game waits for a deal"
        return deal
    seat = state.to_act[0]
    if state.phase is Phase.PASS:
        hand = list(state.legal_cards(seat))
        return PassCards(seat, CardSet(rng.sample(hand, state.rules.pass_count)))
    return rng.choice(state.legal_actions(seat))


def random_game(rules: Rules, seed: int, actions: int | None = None) -> GameState:
    """A seeded game played at random, to its end or for ``actions`` actions."""
    rng = random.Random(seed)
    state = new_game(rules, seed)
    count = 0
    while not state.is_over and (actions is None or count < actions):
        state = state.apply(random_action(state, rng))
        count += 1
    return state


def moon_hand(rules: Rules | str = "standard", moon_choice: bool = False) -> GameState:
    """A one-round game (round 4: a hold round) in which seat 0 takes every point card,
    played to the shooter's choice, or past it with ``moon_choice``."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    mine = CardSet.parse("AC AS KS QS 6H 7H 8H 9H TH JH QH KH AH")
    rest = [c for c in range(52) if c not in mine]
    state = new_hand(rules, [mine] + [CardSet(rest[k::3]) for k in range(3)], round_no=4)
    while state.phase is Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    if moon_choice:
        state = state.apply(state.legal_actions()[0])
    return state


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indexes), the value itself first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*prefix, index))
    return found
