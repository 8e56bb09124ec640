"""A whole game of Hearts as a pure state machine.

``new_game(rules, seed)`` gives the first state; ``state.apply(action)`` checks the
action and returns the next state, leaving the old one untouched. The phases run::

    DEAL -> PASS (simultaneous; skipped on hold rounds) -> PLAY -> [MOON] -> DEAL ...
                                                              \\-> OVER

Chance is an explicit step, as in OpenSpiel. After a round's last trick the game
waits in ``DEAL``, still showing that round's tricks and result, until the next round
is dealt. A seeded game's deal is :attr:`GameState.next_deal`, the one legal action
there (see :mod:`hearts.core.deal`); an unseeded game waits for a :class:`Deal` from an
authority (a web server, a puzzle, a real deck). The first round of a seeded game is
dealt when the game is made.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any, Final

from hearts.core.actions import Action, ChooseMoon, Deal, PassCards, Play, RoundResult, Trick
from hearts.core.cards import ALL_CARDS, HEART_MASK, POINT_MASK, Card, CardSet, card_name, iter_mask
from hearts.core.deal import round_deal_seed
from hearts.core.errors import IllegalActionError
from hearts.core.inputs import is_whole_number
from hearts.core.rules import Rules
from hearts.core.scoring import (
    MoonChoice,
    card_points,
    fixed_moon_choice,
    game_over,
    game_winners,
    moon_shooter,
    round_points,
)
from hearts.core.tricks import (
    NO_LEAD,
    PlayRules,
    breaks_hearts,
    first_leader,
    hearts_open,
    illegal_reason,
    play_rules,
    playable,
    trick_winner,
)

__all__ = [
    "Action",
    "ChooseMoon",
    "Deal",
    "GameState",
    "MoonChoice",
    "PassCards",
    "Phase",
    "Play",
    "RoundResult",
    "Trick",
    "card_points",
    "new_game",
    "new_hand",
]

_MAX_SEATS: Final = 6


class Phase(StrEnum):
    """What the game is waiting for."""

    DEAL = "deal"
    PASS = "pass"
    PLAY = "play"
    MOON = "moon"
    OVER = "over"


# The phases as module constants: reading an enum member off its class goes through the
# enum metaclass (slow in CPython 3.11), and compiled code reads a constant directly.
_DEAL: Final = Phase.DEAL
_PASS: Final = Phase.PASS
_PLAY: Final = Phase.PLAY
_MOON: Final = Phase.MOON
_OVER: Final = Phase.OVER
_EXPECTED: Final = {_DEAL: "a Deal", _PASS: "PassCards", _PLAY: "Play",
                    _MOON: "ChooseMoon"}


# One shared, immutable Play per seat and card: legal_actions builds no new actions in play.
_PLAYS: Final = tuple(tuple(Play(seat, card) for card in ALL_CARDS) for seat in range(_MAX_SEATS))

# The action log is bytes, a record an action, appended to a copy (a transition copies at
# most a few kilobytes). The garbage collector never scans bytes: a linked list of action
# objects made every action of every game in progress part of each full collection's work
# (1,000 games of 444 actions on average: 545 tracked objects a game more, a full collection
# 273-292 ms instead of 10-21). Records: a play is [1 + seat, card]; a pass [_PASS_RECORD, seat,
# mask (7 bytes)]; a moon choice [_MOON_RECORD, seat, 1 for add or 0]; a deal [_DEAL_RECORD,
# seats, a mask (7 bytes) a seat, the seed's length (4 bytes; _NO_SEED for none), the seed].
_PASS_RECORD: Final = 16
_MOON_RECORD: Final = 17
_DEAL_RECORD: Final = 18
_MASK_BYTES: Final = 7
_NO_SEED: Final = 0xFFFFFFFF
_PLAY_RECORDS: Final = tuple(tuple(bytes((seat + 1, card)) for card in range(52))
                             for seat in range(_MAX_SEATS))


def _mask_bytes(mask: int) -> bytes:
    return mask.to_bytes(_MASK_BYTES, "little")


def _pass_record(seat: int, mask: int) -> bytes:
    return bytes((_PASS_RECORD, seat)) + _mask_bytes(mask)


def _deal_record(hands: tuple[int, ...], seed: str | None) -> bytes:
    text = b"" if seed is None else seed.encode()
    size = _NO_SEED if seed is None else len(text)
    return b"".join([bytes((_DEAL_RECORD, len(hands))), *[_mask_bytes(hand) for hand in hands],
                     size.to_bytes(4, "little"), text])


def _record(action: Action) -> bytes:
    """An action's log record (the action is already checked, so its fields are typed)."""
    if isinstance(action, Play):
        return _PLAY_RECORDS[action.seat][action.card]
    if isinstance(action, PassCards):
        return _pass_record(action.seat, action.cards.mask)
    if isinstance(action, ChooseMoon):
        return bytes((_MOON_RECORD, action.seat, int(action.choice == MoonChoice.ADD)))
    return _deal_record(tuple([hand.mask for hand in action.hands]), action.seed)


def _read_log(log: bytes) -> list[Action]:
    """The actions of a log, in order."""
    actions: list[Action] = []
    at = 0
    while at < len(log):
        kind = log[at]
        if kind <= _MAX_SEATS:
            actions.append(_PLAYS[kind - 1][log[at + 1]])
            at += 2
        elif kind == _PASS_RECORD:
            mask = int.from_bytes(log[at + 2:at + 2 + _MASK_BYTES], "little")
            actions.append(PassCards(log[at + 1], CardSet(mask)))
            at += 2 + _MASK_BYTES
        elif kind == _MOON_RECORD:
            choice = MoonChoice.ADD if log[at + 2] else MoonChoice.SUBTRACT
            actions.append(ChooseMoon(log[at + 1], choice))
            at += 3
        else:
            seats = log[at + 1]
            at += 2
            hands: list[CardSet] = []
            for _ in range(seats):
                hands.append(CardSet(int.from_bytes(log[at:at + _MASK_BYTES], "little")))
                at += _MASK_BYTES
            size = int.from_bytes(log[at:at + 4], "little")
            at += 4
            seed = None
            if size != _NO_SEED:
                seed = log[at:at + size].decode()
                at += size
            actions.append(Deal(tuple(hands), seed))
    return actions


def _plays_of(seat: int, mask: int) -> list[Action]:
    """The Play actions of ``seat`` for the cards of ``mask``, in card order."""
    row = _PLAYS[seat]
    plays: list[Action] = []
    while mask:
        low = mask & -mask
        plays.append(row[low.bit_length() - 1])
        mask ^= low
    return plays


# Interpreted classes the hot paths compare types with, bound once (compiled code would
# otherwise look each global name up on every use).
_PLAY_TYPE: Final = Play
_PASS_TYPE: Final = PassCards
_DEAL_TYPE: Final = Deal
_CARD_TYPE: Final = Card
_CARD_SET_TYPE: Final = CardSet

# A Trick built as the tuple it is: its generated ``__new__`` is interpreted code, and
# one is made every trick.
_new_trick: Final = functools.partial(tuple.__new__, Trick)


def new_game(rules: Rules | None = None, seed: object = None) -> GameState:
    """A new game; with a seed (a whole number or text) every round is dealt from it,
    else it waits for a Deal."""
    if seed is not None and not (is_whole_number(seed) or isinstance(seed, str)):
        raise IllegalActionError(f"a game seed is a whole number or text, not {seed!r}")
    return GameState._start(rules or Rules(), None if seed is None else str(seed))


def new_hand(
    rules: Rules,
    hands: Sequence[CardSet],
    *,
    round_no: object = 1,
    totals: object = None,
    deal_seed: object = None,
) -> GameState:
    """A game positioned at the start of one given deal (puzzles, duplicate deals, analysis).

    ``round_no`` (a whole number from 1) sets the pass direction; ``totals`` (a whole
    number a seat) the scores going in; ``deal_seed`` (text) names the deal. After the
    hand the state waits in ``DEAL`` (or is over if someone reached the target). They
    are typed ``object`` and checked here, so a compiled engine refuses a wrong one with
    the same IllegalActionError as pure Python, not a bare TypeError.
    """
    seed: Any = deal_seed  # checked by apply, as every Deal's seed is
    return GameState._start(rules, None, round_no, totals).apply(Deal(tuple(hands), seed))


# A state's fields: its slots, and (all but the unpickled) what a pickle carries.
_FIELDS: Final = (
    "_chosen",
    "_dealt",
    "_fast",
    "_held",
    "_legal",
    "_next_deal",
    "_log",
    "_played",
    "_received",
    "_taken",
    "_totals",
    "_trick",
    "_tricks",
    "deal_seed",
    "first_round",
    "hearts_broken",
    "leader",
    "phase",
    "queen_played",
    "results",
    "round_no",
    "rules",
    "seed",
    "shooter",
    "start_totals",
    "turn",
)
_UNPICKLED: Final = ("_fast", "_next_deal")


class GameState:
    """An immutable game position. Read its properties; change it only via :meth:`apply`."""

    __slots__ = _FIELDS

    rules: Rules
    seed: str | None
    phase: Phase
    round_no: int
    first_round: int
    deal_seed: str | None
    leader: int
    turn: int
    hearts_broken: bool
    queen_played: bool
    shooter: int | None
    start_totals: tuple[int, ...]
    results: tuple[RoundResult, ...]
    # Lists and tuples below are shared between a state and the states made from it;
    # a transition replaces (never edits in place) any it changes.
    _log: bytes
    _legal: int
    _next_deal: Deal | None  # the seeded dealer's deal, made on first use in DEAL
    _fast: PlayRules
    _dealt: tuple[int, ...]
    _held: tuple[int, ...]  # each seat's cards at the start of play (before it, as dealt)
    _played: int  # the cards played this round: a hand is its held cards less these
    _chosen: list[int | None]
    _received: tuple[int, ...] | None
    _trick: tuple[Card, ...]
    _tricks: tuple[Trick, ...]
    _taken: list[int]
    _totals: list[int]

    @classmethod
    def _blank(cls, rules: Rules, seed: str | None) -> GameState:
        state = cls()
        n = rules.players
        state.rules = rules
        state.seed = seed
        state.phase = _DEAL
        state.round_no = state.first_round = 1
        state.deal_seed = None
        state.leader = state.turn = 0
        state.hearts_broken = state.queen_played = False
        state.shooter = None
        state.start_totals = (0,) * n
        state.results = ()
        state._log = b""
        state._legal = -1
        state._next_deal = None
        state._fast = play_rules(rules)
        state._dealt = (0,) * n
        state._held = (0,) * n
        state._played = 0
        state._chosen = [None] * n
        state._received = None
        state._trick = ()
        state._tricks = ()
        state._taken = [0] * n
        state._totals = [0] * n
        return state

    @classmethod
    def _start(cls, rules: object, seed: str | None, round_no: object = 1,
               totals: object = None) -> GameState:
        """A game starting at ``round_no`` with ``totals`` going in (dealt if seeded)."""
        if not isinstance(rules, Rules):
            raise IllegalActionError(f"rules must be a Rules object, not {rules!r}")
        state = cls._blank(rules, seed)
        if not is_whole_number(round_no, 1):
            raise IllegalActionError(f"rounds are numbered from 1, not {round_no!r}")
        state.round_no = state.first_round = round_no
        if totals is not None:
            if not isinstance(totals, Sequence) or len(totals) != rules.players or not all(
                    is_whole_number(t) for t in totals):
                raise IllegalActionError(
                    f"totals need one whole-number score a seat ({rules.players})")
            state._totals = [int(t) for t in totals]
            state.start_totals = tuple(state._totals)
        deal = state.next_deal
        if deal is not None:
            state._deal(deal)
        return state

    def _copy(self) -> GameState:
        other = GameState()
        other.rules = self.rules
        other.seed = self.seed
        other.phase = self.phase
        other.round_no = self.round_no
        other.first_round = self.first_round
        other.deal_seed = self.deal_seed
        other.leader = self.leader
        other.turn = self.turn
        other.hearts_broken = self.hearts_broken
        other.queen_played = self.queen_played
        other.shooter = self.shooter
        other.start_totals = self.start_totals
        other.results = self.results
        other._log = self._log
        other._legal = -1
        other._next_deal = None
        other._fast = self._fast
        other._dealt = self._dealt
        other._held = self._held
        other._played = self._played
        other._chosen = self._chosen
        other._received = self._received
        other._trick = self._trick
        other._tricks = self._tricks
        other._taken = self._taken
        other._totals = self._totals
        return other

    # ------------------------------------------------------------- observation
    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, deals included, in the order applied."""
        return tuple(_read_log(self._log))

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is _OVER

    @property
    def trick_no(self) -> int:
        """Index of the trick in progress this round, from 0."""
        return len(self._tricks)

    @property
    def pass_offset(self) -> int:
        """Seats to the left that this round's passes go (0: hold round)."""
        return self.rules.pass_offset(self.round_no)

    @property
    def next_deal(self) -> Deal | None:
        """The deal a seeded game waits for in ``DEAL`` (the seeded dealer's step); None
        elsewhere, and in an unseeded game, whose deals come from an authority."""
        if self.phase is not _DEAL or self.seed is None:
            return None
        deal = self._next_deal
        if deal is None:
            deal = self._next_deal = Deal.from_seed(
                self.rules, round_deal_seed(self.seed, self.round_no))
        return deal

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats whose decision the game is waiting for (empty in DEAL and OVER)."""
        if self.phase is _PLAY:
            return (self.turn,)
        if self.phase is _PASS:
            return tuple(s for s, c in enumerate(self._chosen) if c is None)
        if self.phase is _MOON and self.shooter is not None:
            return (self.shooter,)
        return ()

    # A seat given to the accessors below is checked (IllegalActionError for "1", True,
    # -1 or a seat past the table), so no caller reads another seat by Python's indexing.
    def hand(self, seat: object) -> CardSet:
        """A seat's current cards (the true state: bots and faces use a view instead)."""
        return CardSet(self._hand(self._check_seat(seat)))

    def dealt(self, seat: object) -> CardSet:
        """A seat's cards as dealt this round."""
        return CardSet(self._dealt[self._check_seat(seat)])

    def chosen_pass(self, seat: object) -> CardSet | None:
        """The cards a seat chose to pass this round, None before it chose."""
        chosen = self._chosen[self._check_seat(seat)]
        return None if chosen is None else CardSet(chosen)

    def received(self, seat: object) -> CardSet | None:
        """Cards a seat received this round, None before the exchange or on a hold round."""
        number = self._check_seat(seat)
        return None if self._received is None else CardSet(self._received[number])

    def has_chosen(self, seat: object) -> bool:
        """Whether a seat has chosen its pass this round."""
        return self._chosen[self._check_seat(seat)] is not None

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card) pairs in play order."""
        n = self.rules.players
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self._trick))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks of this round."""
        return self._tricks

    def taken(self, seat: object) -> CardSet:
        """Cards a seat has taken in tricks this round."""
        return CardSet(self._taken[self._check_seat(seat)])

    def round_points(self, seat: object) -> int:
        """Points a seat has taken so far this round (before any moon adjustment)."""
        return card_points(self._taken[self._check_seat(seat)], self.rules)

    @property
    def totals(self) -> tuple[int, ...]:
        """Running game totals."""
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats tied for the lowest total once the game is over, else empty."""
        if self.phase is not _OVER:
            return ()
        return game_winners(self._totals, self.rules, self.round_no)

    @property
    def hearts_open(self) -> bool:
        """Whether a heart may be led now under these rules (ignoring a hearts-only hand)."""
        return hearts_open(self._fast, not self._tricks, self.hearts_broken, self.queen_played)

    @property
    def dealer(self) -> int:
        """The dealer of this round (rotates to the left each round)."""
        return (self.round_no - 1) % self.rules.players

    # ---------------------------------------------------------------- legality
    def _legal_mask(self, seat: int) -> int:
        """Cards ``seat`` may play now (0 if it is not that seat's turn)."""
        if self.phase is not _PLAY or seat != self.turn:
            return 0
        if self._legal < 0:
            self._legal = self._compute_legal(seat)
        return self._legal

    def _hand(self, seat: int) -> int:
        """A seat's cards now, as a mask."""
        return self._held[seat] & ~self._played

    def _led(self) -> int:
        """The card that led the trick in progress (NO_LEAD when none has been played)."""
        trick = self._trick
        if trick:
            led: int = trick[0]
            return led
        return NO_LEAD

    def _compute_legal(self, seat: int) -> int:
        first = not self._tricks
        fast = self._fast
        led = self._led()
        # whether hearts are open matters only to a lead
        open_ = led < 0 and hearts_open(fast, first, self.hearts_broken, self.queen_played)
        return playable(fast, self._hand(seat), led, first, open_)

    def legal_cards(self, seat: object = None) -> CardSet:
        """Cards a seat may use now: its playable cards, or its hand while passing."""
        seat = self._default_seat(seat)
        if seat is None:
            return CardSet()
        if self.phase is _PASS:
            return CardSet(self._hand(seat) if self._chosen[seat] is None else 0)
        return CardSet(self._legal_mask(seat))

    def legal_actions(self, seat: object = None) -> list[Action]:
        """Every legal action of a seat (default: the first seat to act); in a seeded
        game's ``DEAL``, with no seat given, the seeded dealer's deal."""
        if seat is not None:
            self._check_seat(seat)
        if self.phase is _DEAL:
            deal = self.next_deal
            return [deal] if deal is not None and seat is None else []
        if self.phase is _PLAY:
            turn = self.turn
            if seat is not None and seat != turn:
                return []
            legal = self._legal
            if legal < 0:
                legal = self._legal = self._compute_legal(turn)
            return _plays_of(turn, legal)
        seat = self._default_seat(seat)
        if seat is None:
            return []
        if self.phase is _MOON:
            return [ChooseMoon(seat, c) for c in MoonChoice] if seat == self.shooter else []
        if self.phase is _PASS and self._chosen[seat] is None:
            cards = list(iter_mask(self._hand(seat)))
            return [
                PassCards(seat, CardSet(combo))
                for combo in itertools.combinations(cards, self.rules.pass_count)
            ]
        return []

    def _default_seat(self, seat: object) -> int | None:
        if seat is not None:
            return self._check_seat(seat)
        acting = self.to_act
        return acting[0] if acting else None

    # -------------------------------------------------------------- transitions
    def apply(self, action: object) -> GameState:
        """The state after ``action``; raises IllegalActionError and changes nothing if illegal.

        Anything may be passed: a caller builds its actions, so their fields are read
        untyped (``Any``) until checked, which a compiled engine needs as well.
        """
        given: Any = action
        kind = type(action)
        if kind is _PLAY_TYPE and self.phase is _PLAY:
            # the hot path of search and simulation: a legal play in turn
            seat, card = given.seat, given.card
            if type(card) is not _CARD_TYPE:
                card = ALL_CARDS[card] if type(card) is int and 0 <= card < 52 else None
            if type(seat) is int and card is not None:
                seat_no: int = seat
                number: int = card
                if seat_no == self.turn:
                    legal = self._legal
                    if legal < 0:
                        legal = self._legal = self._compute_legal(seat_no)
                    if legal >> number & 1:
                        after = self._copy()
                        after._log = self._log + _PLAY_RECORDS[seat_no][number]
                        after._play(seat_no, card)
                        return after
        elif kind is _DEAL_TYPE and action is self._next_deal and action is not None:
            # the seeded dealer's own deal, as next_deal made it: nothing to check
            after = self._copy()
            after._deal(given)
            return after
        elif kind is _PASS_TYPE and self.phase is _PASS:
            seat, cards = given.seat, given.cards
            if (type(seat) is int and 0 <= seat < self._fast.players
                    and self._chosen[seat] is None and type(cards) is _CARD_SET_TYPE):
                mask = cards.mask
                if mask.bit_count() == self.rules.pass_count and not mask & ~self._hand(seat):
                    after = self._copy()
                    after._log = self._log + _pass_record(seat, mask)
                    after._choose_pass(seat, mask)
                    return after
        self._check(action)
        after = self._copy()
        after._mutate(given)
        return after

    def apply_all(self, actions: Iterable[Action]) -> GameState:
        """Apply actions in order."""
        state = self
        for action in actions:
            state = state.apply(action)
        return state

    def _illegal(self, reason: str, seat: int | None = None, card: str | None = None,
                 legal: Sequence[str] = ()) -> IllegalActionError:
        return IllegalActionError(reason, round_no=self.round_no,
                                  trick_no=self.trick_no + 1 if self.phase is _PLAY else None,
                                  seat=seat, card=card, legal=legal)

    def _check_seat(self, seat: object) -> int:
        if not is_whole_number(seat, 0, self.players - 1):
            raise self._illegal(f"no seat {seat!r}: seats are 0 to {self.players - 1}")
        return seat

    def _check(self, action: object) -> None:
        phase = self.phase
        given: Any = action  # fields unchecked until read below
        if phase is _OVER:
            raise self._illegal("the game is over; no more actions")
        if isinstance(action, Deal):
            self._check_deal(given.hands, given.seed)
            return
        if not isinstance(action, PassCards | Play | ChooseMoon):
            raise self._illegal(
                f"not an action: {action!r}; actions are Deal, PassCards, Play, ChooseMoon"
            )
        seat = self._check_seat(given.seat)
        expected = _EXPECTED[phase]
        if isinstance(action, Play):
            if phase is not _PLAY:
                raise self._illegal(f"cannot play a card now: waiting for {expected}", seat)
            card = given.card
            if not is_whole_number(card, 0, 51):
                raise self._illegal(f"not a card: {card!r}", seat)
            name = card_name(card)
            if seat != self.turn:
                raise self._illegal(f"not seat {seat}'s turn: seat {self.turn} plays next",
                                    seat, name)
            legal = self._legal_mask(seat)
            if not legal >> card & 1:
                legal_names = [card_name(c) for c in iter_mask(legal)]
                why = self._why_illegal(seat, card)
                raise self._illegal(f"{name} cannot be played: {why}", seat, name, legal_names)
        elif isinstance(action, PassCards):
            if phase is not _PASS:
                raise self._illegal(f"cannot pass now: waiting for {expected}", seat)
            if self._chosen[seat] is not None:
                raise self._illegal(f"seat {seat} has already chosen its pass", seat)
            if not isinstance(given.cards, CardSet):
                raise self._illegal("a pass is a CardSet of cards", seat)
            count = self.rules.pass_count
            mask = given.cards.mask
            hand = self._hand(seat)
            if mask.bit_count() != count:
                raise self._illegal(
                    f"pass exactly {count} cards, not {mask.bit_count()}", seat,
                    str(given.cards), [card_name(c) for c in iter_mask(hand)])
            if mask & ~hand:
                missing = " ".join(card_name(c) for c in iter_mask(mask & ~hand))
                raise self._illegal(f"{missing} not in seat {seat}'s hand", seat,
                                    str(given.cards), [card_name(c) for c in iter_mask(hand)])
        else:
            if phase is not _MOON:
                raise self._illegal(f"no moon choice is pending: waiting for {expected}", seat)
            if seat != self.shooter:
                raise self._illegal(f"only the shooter, seat {self.shooter}, chooses", seat)
            if not isinstance(given.choice, MoonChoice):
                raise self._illegal("the moon choice is subtract or add", seat,
                                    legal=[c.value for c in MoonChoice])

    def _why_illegal(self, seat: int, card: int) -> str:
        return illegal_reason(self._fast, self._hand(seat), card, self._led(), not self._tricks)

    def _check_deal(self, hands: Any, seed: Any) -> None:
        if self.phase is not _DEAL:
            raise self._illegal("a deal is only allowed between rounds")
        rules = self.rules
        if not isinstance(hands, tuple) or len(hands) != rules.players or not all(
                isinstance(h, CardSet) for h in hands):
            raise self._illegal(f"a deal gives a tuple of {rules.players} CardSets, one a seat")
        if seed is not None and not isinstance(seed, str):
            raise self._illegal(f"a deal seed is text or None, not {seed!r}")
        if self.seed is not None:
            expected = self.next_deal
            assert expected is not None
            if seed != expected.seed or (hands is not expected.hands
                                         and hands != expected.hands):
                raise self._illegal(
                    f"this game is seeded: round {self.round_no} is dealt from deal seed "
                    f"{expected.seed!r} (take the game's next_deal)")
            return
        seen = 0
        for seat, hand in enumerate(hands):
            if len(hand) != rules.hand_size:
                raise self._illegal(
                    f"seat {seat} was dealt {len(hand)} cards; each hand has {rules.hand_size}")
            if hand.mask & seen:
                raise self._illegal(f"a card is dealt twice: {CardSet(hand.mask & seen)}")
            seen |= hand.mask
        if seen != rules.deck:
            off = CardSet(seen ^ rules.deck)
            raise self._illegal(f"the deal must hold exactly the deck; off by {off}")

    # mutation of a fresh copy (never of a state someone else holds)
    def _mutate(self, action: Action) -> None:
        if isinstance(action, Deal):
            self._deal(action)
            return
        self._log = self._log + _record(action)
        if isinstance(action, Play):
            self._play(action.seat, ALL_CARDS[action.card])
        elif isinstance(action, PassCards):
            self._choose_pass(action.seat, action.cards.mask)
        else:
            self._finish_round(action.choice)

    def _deal(self, deal: Deal) -> None:
        rules = self.rules
        hands = tuple([hand.mask for hand in deal.hands])
        self._log = self._log + _deal_record(hands, deal.seed)
        n = rules.players
        self.deal_seed = deal.seed
        self._dealt = hands
        self._held = hands
        self._played = 0
        self._chosen = [None] * n
        self._received = None
        self._trick = ()
        self._tricks = ()
        self._taken = [0] * n
        self.hearts_broken = self.queen_played = False
        self.shooter = None
        if self.pass_offset and rules.pass_count:
            self.phase = _PASS
        else:
            self._begin_play()

    def _choose_pass(self, seat: int, mask: int) -> None:
        self._chosen = self._chosen[:]
        self._chosen[seat] = mask
        if any(c is None for c in self._chosen):
            return
        n = self.rules.players
        offset = self.pass_offset
        received = [0] * n
        for giver, chosen in enumerate(self._chosen):
            assert chosen is not None
            received[(giver + offset) % n] = chosen
        self._received = tuple(received)
        self._held = tuple((h & ~c) | r for h, c, r in  # type: ignore[operator]
                           zip(self._held, self._chosen, received, strict=True))
        self._begin_play()

    def _begin_play(self) -> None:
        self.phase = _PLAY
        self.leader = self.turn = first_leader(self._fast, self._held, self.dealer)

    def _play(self, seat: int, card: Card) -> None:
        # card numbers go through int locals: compiled, their arithmetic is native
        number: int = card
        bit = 1 << number
        self._played |= bit
        trick = self._trick
        if bit & POINT_MASK:
            if bit & HEART_MASK:
                if trick and breaks_hearts(number, trick[0]):
                    self.hearts_broken = True
            else:
                self.queen_played = True
        trick += (card,)
        n = self._fast.players
        if len(trick) < n:
            self._trick = trick
            self.turn = seat + 1 if seat + 1 < n else 0
            return
        mask = 0
        for i in range(n):
            c: int = trick[i]
            mask |= 1 << c
        leader = self.leader
        winner = trick_winner(leader, trick, n)
        taken = self._taken[:]
        taken[winner] |= mask
        self._taken = taken
        self._tricks += (_new_trick((leader, trick, winner)),)
        self._trick = ()
        self.leader = self.turn = winner
        if not self._hand(winner):
            self._end_round()

    def _end_round(self) -> None:
        self.shooter = moon_shooter(self._taken, self.rules)
        if self.shooter is None:
            self._finish_round(None)
            return
        choice = fixed_moon_choice(self.rules)
        if choice is None:
            self.phase = _MOON
        else:
            self._finish_round(choice)

    def _finish_round(self, choice: MoonChoice | None) -> None:
        rules = self.rules
        shooter = self.shooter
        points = round_points(self._taken, rules, shooter, choice)
        self._totals = [t + p for t, p in zip(self._totals, points, strict=True)]
        self.results = (*self.results, RoundResult(
            self.round_no, tuple(points), tuple(self._totals), shooter, choice))
        if game_over(self._totals, rules, self.round_no):
            self.phase = _OVER
            return
        self.round_no += 1
        self.phase = _DEAL  # the finished round stays in view until the next deal

    # An immutable state is its own copy; pickles flatten the action log (a deep chain
    # of pairs that would otherwise recurse once an action) and rebuild the rule facts.
    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        fields = {name: getattr(self, name) for name in _FIELDS if name not in _UNPICKLED}
        return (_restore, (fields,))

    def __repr__(self) -> str:
        return (f"<GameState {self.rules.text} round {self.round_no} {self.phase.value} "
                f"to_act={self.to_act} totals={self.totals}>")


def _restore(fields: dict[str, object]) -> GameState:
    """Unpickle a state from its fields (the action log among them)."""
    state = GameState()
    for name, value in fields.items():
        setattr(state, name, value)
    state._fast = play_rules(state.rules)
    state._next_deal = None
    return state
