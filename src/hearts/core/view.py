"""What one seat (or a spectator) may know of a game, and nothing more.

``view(state, seat)`` is the only thing faces and computer players get. It holds
the seat's own hand, the cards it passed and received, every card played in the
open, and public facts (scores, hand sizes, who has chosen a pass). It never holds
another seat's cards or any deal seed of a round in progress.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from hearts.core.cards import QUEEN_OF_SPADES, SUIT_MASKS, Card, CardSet, card_name, mask_cards
from hearts.core.rules import Rules, pass_direction_name
from hearts.core.scoring import points_left
from hearts.core.state import GameState, Phase, RoundResult, Trick
from hearts.core.tricks import (
    NO_LEAD,
    breaks_hearts,
    forced_reason,
    hearts_open,
    play_reveals,
    play_rules,
    points_barred,
    trick_winner,
)

__all__ = ["PlayerView", "RoundPlay", "RoundSoFar", "forget_round_facts", "round_so_far", "view",
           "views"]


class RoundSoFar(NamedTuple):
    """What a round's completed tricks told every seat."""

    excluded: tuple[int, ...]  # per seat, the cards its plays show it lacks
    taken: tuple[int, ...]  # per seat, the cards it has taken
    broken: bool  # whether hearts are broken
    queen: bool  # whether the Q♠ has been played


def _reveal(rules: Rules, excluded: list[int], number: int,
            plays: Iterable[tuple[int, Card]], broken: bool, queen: bool) -> tuple[bool, bool]:
    """Add to ``excluded`` what the plays of trick ``number`` (seat, card, in play order)
    reveal; hearts broken and Q♠ played after them."""
    facts = play_rules(rules)
    first = number == 0
    led = NO_LEAD
    for i, (seat, card) in enumerate(plays):
        if not i:
            led = int(card)
        opened = hearts_open(facts, first, broken, queen)
        excluded[seat] |= play_reveals(facts, card, led if i else NO_LEAD, first, opened)
        broken = broken or (i > 0 and breaks_hearts(card, led))
        queen = queen or card == QUEEN_OF_SPADES
    return broken, queen


# Keyed by value (the rules and every completed trick), so it can only ever answer for
# exactly this round so far, whichever table or game asks: each decision of a round finds
# the round up to the last trick here and adds one trick, instead of reading the whole
# round again (the server asks it for every computer move); each table in play holds
# about a round's worth of entries.
@lru_cache(maxsize=16_384)
def round_so_far(rules: Rules, tricks: tuple[Trick, ...]) -> RoundSoFar:
    """The facts of a round whose completed tricks are ``tricks``, derived a trick at a
    time."""
    players = rules.players
    if not tricks:
        return RoundSoFar((0,) * players, (0,) * players, False, False)
    before = round_so_far(rules, tricks[:-1])
    leader, cards, winner = tricks[-1]
    excluded = list(before.excluded)
    broken, queen = _reveal(rules, excluded, len(tricks) - 1,
                            (((leader + i) % players, card) for i, card in enumerate(cards)),
                            before.broken, before.queen)
    taken = list(before.taken)
    for card in cards:
        taken[winner] |= 1 << card
    return RoundSoFar(tuple(excluded), tuple(taken), broken, queen)


def forget_round_facts() -> None:
    """Drop the round facts kept between calls (to time work that finds none kept)."""
    round_so_far.cache_clear()

# Every card's name by number, and the names of each one-suit run met so far by suit and
# run (at most 4 * 8192 short tuples): a view is encoded for each connection after every
# action.
_NAMES: tuple[str, ...] = tuple(card_name(card) for card in range(52))
_NAME_RUNS: tuple[tuple[int, dict[int, tuple[str, ...]]], ...] = tuple(
    (suit_mask, {}) for suit_mask in SUIT_MASKS)
_NO_CARDS = CardSet()
# A phase's JSON name (an enum's value is looked up through a descriptor on every access),
# and the phases read here as constants (reading a member off the enum class is slow too).
_PHASE_NAMES: dict[Phase, str] = {phase: phase.value for phase in Phase}
_DEAL, _MOON = Phase.DEAL, Phase.MOON


def _names(cards: CardSet) -> list[str]:
    mask = cards.mask
    names: list[str] = []
    if not mask:  # a spectator's hand, or a seat's legal cards out of its turn
        return names
    for suit_mask, runs in _NAME_RUNS:
        run = mask & suit_mask
        if run:
            run_names = runs.get(run)
            if run_names is None:
                run_names = runs[run] = tuple(_NAMES[card] for card in mask_cards(run))
            names += run_names
    return names


class RoundPlay(NamedTuple):
    """One card played this round, with what the rules made of it when it was played."""

    seat: int
    card: Card
    trick_no: int
    led: int  # the card that led its trick, or NO_LEAD when this card led
    hearts_open: bool  # whether a heart could be led at that moment


# A plain Python class even where this module is compiled (mypyc's native classes have
# neither the instance dict that _seat_view fills nor cached_property); its methods and
# this module's functions are compiled all the same.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PlayerView:
    """A seat's knowledge of the game (``seat`` None: a spectator's)."""

    rules: Rules
    seat: int | None
    phase: Phase
    round_no: int
    dealer: int
    pass_offset: int
    hand: CardSet
    legal: CardSet
    to_act: tuple[int, ...]
    has_chosen: tuple[bool, ...]
    passed: CardSet | None
    received: CardSet | None
    hand_sizes: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    points_taken: tuple[int, ...]
    hearts_broken: bool
    queen_played: bool
    hearts_open: bool
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    shooter: int | None
    winners: tuple[int, ...]

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def trick_no(self) -> int:
        """Index of the trick in progress, from 0."""
        return len(self.tricks)

    @property
    def pass_direction(self) -> str:
        """``left``, ``right``, ``across``, ``hold`` ..."""
        return pass_direction_name(self.pass_offset, self.rules.players)

    @property
    def my_turn(self) -> bool:
        """Whether this seat must decide now."""
        return self.seat is not None and self.seat in self.to_act

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (``winners`` then names who won)."""
        return self.phase is Phase.OVER

    @property
    def pass_target(self) -> int | None:
        """The seat this seat passes to this round (None on a hold round or for a spectator)."""
        return None if self.seat is None else self.rules.pass_target(self.seat, self.round_no)

    @property
    def pass_source(self) -> int | None:
        """The seat this seat receives from this round (None on a hold round or spectator)."""
        return None if self.seat is None else self.rules.pass_source(self.seat, self.round_no)

    @property
    def winning(self) -> tuple[int, Card] | None:
        """The seat winning the trick in progress and its card (None before its lead)."""
        if not self.trick:
            return None
        leader = self.trick[0][0]
        seat = trick_winner(leader, tuple(card for _, card in self.trick), self.players)
        return seat, self.trick[(seat - leader) % self.players][1]

    @property
    def still_to_play(self) -> tuple[int, ...]:
        """The seats that play to the trick in progress after this one (turns go left)."""
        if self.seat is None:
            return ()
        n = self.players
        return tuple((self.seat + i) % n for i in range(1, n - len(self.trick)))

    @property
    def points_barred(self) -> bool:
        """Whether hearts and the Q♠ are barred from the trick in progress (the first,
        under ``first_trick=no-points``) unless a hand holds nothing else."""
        return points_barred(play_rules(self.rules), not self.tricks)

    @property
    def points_left(self) -> int:
        """Points of the hearts and Q♠ not yet played this round."""
        return points_left(self.rules, self.played.mask)

    def forced_reason(self, card: int) -> str:
        """Why ``card``, this seat's only legal card, is forced (for hints)."""
        led = self.trick[0][1] if self.trick else NO_LEAD
        return forced_reason(play_rules(self.rules), self.hand.mask, card, led, not self.tricks)

    @property
    def last_trick_plays(self) -> tuple[tuple[int, Card], ...]:
        """The round's last trick taken as (seat, card) in play order; empty before one."""
        if not self.tricks:
            return ()
        last = self.tricks[-1]
        return tuple(((last.leader + i) % self.players, card)
                     for i, card in enumerate(last.cards))

    @cached_property
    def round_plays(self) -> tuple[RoundPlay, ...]:
        """Every card played this round in order, with its trick, led card and whether
        hearts were open when it was played."""
        facts = play_rules(self.rules)
        tricks = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            tricks.append((self.trick[0][0], tuple(c for _, c in self.trick)))
        plays: list[RoundPlay] = []
        broken = queen = False
        for number, (leader, cards) in enumerate(tricks):
            led = int(cards[0])
            for i, card in enumerate(cards):
                opened = hearts_open(facts, number == 0, broken, queen)
                plays.append(RoundPlay((leader + i) % self.players, card, number,
                                       led if i else NO_LEAD, opened))
                broken = broken or (i > 0 and breaks_hearts(card, led))
                queen = queen or card == QUEEN_OF_SPADES
        return tuple(plays)

    @cached_property
    def excluded(self) -> tuple[int, ...]:
        """Per seat, the cards it has shown it does not hold: any one of them would have
        made one of its plays this round illegal (a mask each)."""
        so_far = round_so_far(self.rules, self.tricks)
        masks = list(so_far.excluded)
        _reveal(self.rules, masks, self.trick_no, self.trick, so_far.broken, so_far.queen)
        return tuple(mask & self.rules.deck for mask in masks)

    @property
    def played(self) -> CardSet:
        """Every card played this round, the trick in progress included."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for _, card in self.trick:
            mask |= 1 << card
        return CardSet(mask)

    def voids(self) -> tuple[frozenset[int], ...]:
        """Suits each seat has shown it lacks this round (of those still in the deck)."""
        deck = self.rules.deck
        return tuple(
            frozenset(suit for suit, cards in enumerate(SUIT_MASKS)
                      if deck & cards and not deck & cards & ~shown)
            for shown in self.excluded)

    def unseen(self) -> CardSet:
        """Cards in play this round that this seat has not seen (held by others)."""
        mask = self.rules.deck & ~self.hand.mask & ~self.played.mask
        if self.passed is not None and self.received is not None:
            mask &= ~self.passed.mask
        return CardSet(mask)

    def suit_cards(self, suit: int) -> CardSet:
        """This seat's cards of one suit."""
        return CardSet(self.hand.mask & SUIT_MASKS[suit])

    def seat_json(self) -> dict[str, Any]:
        """The members of :meth:`to_json` that are this seat's own; every other member is
        the same for each seat of one state, a spectator's included."""
        return {
            "seat": self.seat,
            "hand": _names(self.hand),
            "legal": _names(self.legal),
            "passed": None if self.passed is None else _names(self.passed),
            "received": None if self.received is None else _names(self.received),
        }

    def long_member_json(self, name: str) -> list[dict[str, Any]]:
        """The JSON form of one of the members that grow all round and game: ``tricks`` or
        ``results`` (as in :meth:`to_json`)."""
        if name == "tricks":
            return [{"leader": t.leader, "cards": [_NAMES[c] for c in t.cards],
                     "winner": t.winner} for t in self.tricks]
        if name == "results":
            return [_result_json(r) for r in self.results]
        raise ValueError(f"{name!r} is not a long member: tricks or results")

    def to_json(self, long_members: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A JSON-ready dict (cards as canonical names). ``long_members`` stands in for
        the members that grow all round and game (``tricks``, ``results``): an encoder
        that keeps their encoding between messages does not have them built again."""
        own = self.seat_json()
        if long_members is not None:
            tricks, results = long_members["tricks"], long_members["results"]
        else:
            tricks, results = self.long_member_json("tricks"), self.long_member_json("results")
        return {
            "rules": self.rules.text,
            "seat": own["seat"],
            "phase": _PHASE_NAMES[self.phase],
            "round": self.round_no,
            "dealer": self.dealer,
            "pass_offset": self.pass_offset,
            "pass_direction": self.pass_direction,
            "pass_count": self.rules.pass_count,
            "hand": own["hand"],
            "legal": own["legal"],
            "to_act": list(self.to_act),
            "has_chosen": list(self.has_chosen),
            "passed": own["passed"],
            "received": own["received"],
            "hand_sizes": list(self.hand_sizes),
            "leader": self.leader,
            "trick": [[seat, _NAMES[card]] for seat, card in self.trick],
            "tricks": tricks,
            "points_taken": list(self.points_taken),
            "hearts_broken": self.hearts_broken,
            "queen_played": self.queen_played,
            "hearts_open": self.hearts_open,
            "totals": list(self.totals),
            "results": results,
            "shooter": self.shooter,
            "winners": list(self.winners),
        }


def _result_json(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.round_no,
        "points": list(result.points),
        "totals": list(result.totals),
        "shooter": result.shooter,
        "moon_choice": None if result.moon_choice is None else result.moon_choice.value,
    }


# The state asked of last, the public part of its views and its views built so far by seat.
# A table asks for a state's views several times in a row (the seat it sends the state to,
# then the seat that decides next), so they are built once. The entry is replaced whole,
# never changed in place but for adding a view, so a thread that asks meanwhile gets its
# own state's views either way; views are immutable (their cached facts are the same
# whoever computes them first).
_recent: list[tuple[GameState, dict[str, Any], dict[int | None, PlayerView]]] = []


def _known(state: GameState) -> tuple[dict[str, Any], dict[int | None, PlayerView]]:
    """The public part of ``state``'s views and those views built so far."""
    entry = _recent[0] if _recent else None
    if entry is None or entry[0] is not state:
        entry = (state, _public(state), {})
        _recent[:] = (entry,)
    return entry[1], entry[2]


def view(state: GameState, seat: object) -> PlayerView:
    """The view of ``seat`` (None for a spectator, who sees no hand); IllegalActionError
    for anything but None or a seat of the table (``True`` is not seat 1)."""
    if seat is not None:
        seat = state._check_seat(seat)  # before the cache, where True would find seat 1
    public, built = _known(state)
    seen = built.get(seat)
    if seen is None:
        seen = built[seat] = _seat_view(state, seat, public)
    return seen


def views(state: GameState, seats: Iterable[object]) -> list[PlayerView]:
    """The views of several seats of one state, as :func:`view` gives each (what they
    share is gathered once: a table sends every seat its view after each action)."""
    return [view(state, seat) for seat in seats]


def _public(state: GameState) -> dict[str, Any]:
    """The fields of a view that are the same for every seat."""
    seats = range(state.players)
    phase = state.phase
    return {
        "rules": state.rules,
        "phase": phase,
        "round_no": state.round_no,
        "dealer": state.dealer,
        "pass_offset": state.pass_offset,
        "to_act": state.to_act,
        "has_chosen": tuple([state.has_chosen(s) for s in seats]),
        # counted from the hands' masks: a CardSet per seat costs more than the count
        "hand_sizes": tuple([0 if phase is _DEAL else state._hand(s).bit_count()
                             for s in seats]),
        "leader": state.leader,
        "trick": state.trick,
        "tricks": state.tricks,
        "points_taken": tuple([state.round_points(s) for s in seats]),
        "hearts_broken": state.hearts_broken,
        "queen_played": state.queen_played,
        "hearts_open": state.hearts_open,
        "totals": state.totals,
        "results": state.results,
        "shooter": state.shooter if phase is _MOON else None,
        "winners": state.winners,
    }


def _seat_view(state: GameState, seat: int | None, public: dict[str, Any]) -> PlayerView:
    # Built without the generated __init__, which sets each of the two dozen frozen fields
    # through object.__setattr__ and would cost more than all the rest of a view; the
    # fields are every field, as the tests check.
    seen = object.__new__(PlayerView)
    fields = seen.__dict__
    fields.update(public)
    if seat is None or state.phase is _DEAL:
        fields.update(seat=seat, hand=_NO_CARDS, legal=_NO_CARDS, passed=None, received=None)
    else:
        fields.update(seat=seat, hand=state.hand(seat), legal=state.legal_cards(seat),
                      passed=state.chosen_pass(seat), received=state.received(seat))
    return seen
