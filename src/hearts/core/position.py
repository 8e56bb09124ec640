"""Positions as text: one line that sets up a round in progress, as FEN does for chess.

A position holds what a game state needs to go on from the middle of a round: the rules,
the round number, the totals going in, every hand now, this round's passes and the tricks
so far, in seven fields separated by spaces (``docs/positions.md`` has the notation):
rules, round, totals, hands, passes, tricks and turn. Before the pass of round 2::

    card-commons 2 0,-26,0,0 <13 cards>/<13 cards>/<13 cards>/<13 cards> ?/?/?/? - 0,1,2,3

:func:`read_position` rebuilds the dealt hands from it and replays the round through
:meth:`GameState.apply` from a :class:`Deal`, so every rule is checked by the engine
itself, and :func:`write_position` writes a state back. Everyone's cards are in the text:
a position is a puzzle's set-up, not something to show a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hearts.core.actions import PassCards, Play
from hearts.core.cards import Card, CardSet, parse_card, repeated_card
from hearts.core.errors import HeartsError, InvalidPositionError
from hearts.core.inputs import MAX_DIGITS, echoed, read_whole_number
from hearts.core.record import MAX_ROUND, MAX_TOTAL
from hearts.core.rules import Rules
from hearts.core.scoring import game_over
from hearts.core.state import GameState, Phase, new_hand

__all__ = ["POSITION_FIELDS", "read_position", "write_position"]

POSITION_FIELDS: Final = ("rules", "round", "totals", "hands", "passes", "tricks", "turn")
"""The fields of a position text, in order."""

_NONE: Final = "-"
_HOLD: Final = "hold"
_NOT_CHOSEN: Final = "?"
_SEATS: Final = "/"
_LIST: Final = ","
_LEADER: Final = ":"
# The longest total a position takes (a record's largest, MAX_TOTAL): more digits than
# any real game reaches, and few enough that a typo cannot build a huge number.
_IN_PROGRESS: Final = (Phase.PASS, Phase.PLAY, Phase.MOON)


def write_position(state: GameState) -> str:
    """The canonical position text of a round in progress (passing, playing, or waiting
    for the shooter's moon choice); other states have no round to set up."""
    if state.phase not in _IN_PROGRESS:
        raise InvalidPositionError(
            f"a position is a round in progress, and this game is in {state.phase.value}: "
            f"write one while passing, playing or choosing the moon scoring")
    n = state.players
    passes = _HOLD
    if state.pass_offset and state.rules.pass_count:
        chosen = [state.chosen_pass(seat) for seat in range(n)]
        passes = _SEATS.join(_NOT_CHOSEN if c is None else _cards_text(c) for c in chosen)
    tricks = [(t.leader, t.cards) for t in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(card for _, card in state.trick)))
    return " ".join((
        state.rules.text,
        str(state.round_no),
        _LIST.join(str(total) for total in state.totals),
        _SEATS.join(_cards_text(state.hand(seat)) for seat in range(n)),
        passes,
        _SEATS.join(f"{leader}{_LEADER}{_cards_text(cards)}" for leader, cards in tricks)
        or _NONE,
        _LIST.join(str(seat) for seat in state.to_act),
    ))


def read_position(text: str) -> GameState:
    """The state a position text describes, replayed and checked by the engine; raises
    :class:`InvalidPositionError` saying what is wrong and what is allowed."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != len(POSITION_FIELDS):
        raise InvalidPositionError(
            f"a position has {len(POSITION_FIELDS)} fields separated by spaces "
            f"({' '.join(POSITION_FIELDS)}), not {len(fields)}")
    rules_text, round_text, totals_text, hands_text, passes_text, tricks_text, turn = fields
    try:
        rules = Rules.parse(rules_text)
    except HeartsError as exc:
        raise InvalidPositionError(f"rules: {exc}") from exc
    round_no = _whole_number("round", round_text, 1, MAX_ROUND)
    totals = _totals(rules, round_no, totals_text)
    hands = _hands(rules, hands_text)
    passes = _passes(rules, round_no, passes_text)
    tricks = _tricks(rules, tricks_text)
    _check_deck(rules, hands, tricks)
    if passes is not None and None in passes and tricks:
        raise InvalidPositionError(
            "tricks are played only after every seat has passed: write the tricks as "
            f"{_NONE!r} while a pass ({_NOT_CHOSEN!r}) is still to choose")
    state = _replay(rules, round_no, totals, hands, passes, tricks)
    acting = _LIST.join(str(seat) for seat in state.to_act)
    if turn != acting:
        raise InvalidPositionError(
            f"turn: the position says {echoed(turn)} acts next, but the round as written "
            f"waits for {echoed(acting)}")
    return state


def _cards_text(cards: CardSet | Sequence[Card]) -> str:
    return "".join(str(card) for card in cards) or _NONE


def _parse_cards(what: str, text: str) -> list[Card]:
    """Cards written one after another (``QS10H2c`` or ``QS,TH,2C``), in the order given."""
    if text == _NONE:
        return []
    cards: list[Card] = []
    rest = text.replace(_LIST, "")
    while rest:
        size = 3 if rest.startswith("10") else 2
        word, rest = rest[:size], rest[size:]
        try:
            cards.append(Card(parse_card(word)))
        except HeartsError as exc:
            raise InvalidPositionError(
                f"{what}: {exc}; write cards one after another, like 'QSTH2C', or "
                f"{_NONE!r} for none") from exc
    return cards


def _card_set(what: str, text: str) -> CardSet:
    cards = _parse_cards(what, text)
    twice = repeated_card(cards)
    if twice is not None:
        raise InvalidPositionError(f"{what}: {Card(twice)} is written twice")
    return CardSet(cards)


def _whole_number(what: str, text: str, low: int, high: int) -> int:
    value = read_whole_number(text)
    if value is None:
        raise InvalidPositionError(
            f"{what}: {echoed(text)} is not a whole number (digits 0-9, at most {MAX_DIGITS})")
    if not low <= value <= high:
        raise InvalidPositionError(f"{what}: {value} is out of range; allowed {low} to {high}")
    return value


def _per_seat(rules: Rules, what: str, text: str, separator: str) -> list[str]:
    parts = text.split(separator)
    if len(parts) != rules.players:
        raise InvalidPositionError(
            f"{what}: {len(parts)} given, but {rules.players} seats play these rules "
            f"(one a seat, separated by {separator!r})")
    return parts


def _totals(rules: Rules, round_no: int, text: str) -> list[int]:
    totals = [_whole_number("totals", part, -MAX_TOTAL, MAX_TOTAL)
              for part in _per_seat(rules, "totals", text, _LIST)]
    if rules.final_round(round_no - 1):
        raise InvalidPositionError(
            f"round: {round_no} comes after the game's last round ({rules.rounds}: the "
            "rounds option); a position is a round of a game still going")
    if game_over(totals, rules, round_no - 1):
        raise InvalidPositionError(
            f"totals: {text} already ends the game (target {rules.target}); a position "
            "is a round of a game still going")
    return totals


def _hands(rules: Rules, text: str) -> list[CardSet]:
    return [_card_set(f"hand of seat {seat}", part)
            for seat, part in enumerate(_per_seat(rules, "hands", text, _SEATS))]


def _passes(rules: Rules, round_no: int, text: str) -> list[CardSet | None] | None:
    """Each seat's chosen pass (None: not chosen yet); None for a round without passing."""
    passing = bool(rules.pass_offset(round_no) and rules.pass_count)
    if not passing:
        if text != _HOLD:
            raise InvalidPositionError(
                f"passes: round {round_no} passes no cards under these rules; write {_HOLD!r}")
        return None
    if text == _HOLD:
        raise InvalidPositionError(
            f"passes: round {round_no} passes {rules.pass_count} cards a seat; write each "
            f"seat's pass separated by {_SEATS!r}, or {_NOT_CHOSEN!r} for one not chosen yet")
    return [None if part == _NOT_CHOSEN else _card_set(f"pass of seat {seat}", part)
            for seat, part in enumerate(_per_seat(rules, "passes", text, _SEATS))]


def _tricks(rules: Rules, text: str) -> list[tuple[int, list[Card]]]:
    """The tricks in play order, as (leader, cards); the last one may be in progress."""
    if text == _NONE:
        return []
    tricks: list[tuple[int, list[Card]]] = []
    parts = text.split(_SEATS)
    for number, part in enumerate(parts, 1):
        what = f"trick {number}"
        leader_text, colon, cards_text = part.partition(_LEADER)
        if not colon:
            raise InvalidPositionError(
                f"{what}: {echoed(part)} needs its leader first, like '2{_LEADER}2C3CKCAC'")
        leader = _whole_number(f"{what} leader", leader_text, 0, rules.players - 1)
        cards = _parse_cards(what, cards_text)
        complete = number < len(parts)
        if not 0 < len(cards) <= rules.players or (complete and len(cards) != rules.players):
            raise InvalidPositionError(
                f"{what}: {len(cards)} cards; a trick has one card a seat ({rules.players})"
                + ("" if complete else ", or fewer (at least one) while in progress"))
        tricks.append((leader, cards))
    return tricks


def _check_deck(rules: Rules, hands: list[CardSet],
                tricks: list[tuple[int, list[Card]]]) -> None:
    """The hands and the played cards must be the rules' deck, each card once."""
    written = [card for hand in hands for card in hand] + [
        card for _, cards in tricks for card in cards]
    twice = repeated_card(written)
    if twice is not None:
        raise InvalidPositionError(f"{Card(twice)} is written twice (in the hands or the tricks)")
    seen = CardSet(written).mask
    if seen != rules.deck:
        missing, extra = rules.deck & ~seen, seen & ~rules.deck
        problems = []
        if missing:
            problems.append(f"missing {CardSet(missing)}")
        if extra:
            problems.append(f"not in these rules' deck: {CardSet(extra)}")
        raise InvalidPositionError(
            "the hands and the tricks must hold the whole deck once: " + "; ".join(problems))


def _replay(rules: Rules, round_no: int, totals: list[int], hands: list[CardSet],
            passes: list[CardSet | None] | None,
            tricks: list[tuple[int, list[Card]]]) -> GameState:
    """Deal the hands the position implies and replay its passes and tricks."""
    n = rules.players
    played = [0] * n
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            played[(leader + i) % n] |= card.mask
    dealt = [hand.mask | played[seat] for seat, hand in enumerate(hands)]
    exchanged = passes is not None and None not in passes
    if passes is not None and exchanged:
        # every pass was made: each seat's dealt hand had what it passed, not what it got
        offset = rules.pass_offset(round_no)
        for seat, chosen in enumerate(passes):
            assert chosen is not None
            receiver = (seat + offset) % n
            if chosen.mask & ~dealt[receiver]:
                raise InvalidPositionError(
                    f"seat {seat} passed {CardSet(chosen.mask & ~dealt[receiver])}, which "
                    f"seat {receiver} (who received it) neither holds nor played")
            dealt[receiver] &= ~chosen.mask
        for seat, chosen in enumerate(passes):
            assert chosen is not None
            dealt[seat] |= chosen.mask
    try:
        state = new_hand(rules, [CardSet(mask) for mask in dealt], round_no=round_no,
                         totals=totals)
    except HeartsError as exc:
        raise InvalidPositionError(f"the hands this position was dealt: {exc}") from exc
    for seat, chosen in enumerate(passes or ()):
        if chosen is not None:
            state = _apply(state, PassCards(seat, chosen), f"pass of seat {seat}")
    for number, (leader, cards) in enumerate(tricks, 1):
        if state.phase is not Phase.PLAY:
            raise InvalidPositionError(
                f"trick {number}: the round is over after trick {number - 1}")
        if leader != state.leader:
            raise InvalidPositionError(
                f"trick {number}: led by seat {leader}, but seat {state.leader} leads it")
        for i, card in enumerate(cards):
            state = _apply(state, Play((leader + i) % n, card), f"trick {number}")
    if state.phase not in _IN_PROGRESS:
        raise InvalidPositionError(
            "the round is over once these tricks are played; a position is a round in "
            "progress (a trick still to play, or a pending moon choice)")
    for seat, hand in enumerate(hands):
        assert state.hand(seat) == hand, "the dealt hands are rebuilt from the hands now"
    return state


def _apply(state: GameState, action: PassCards | Play, what: str) -> GameState:
    try:
        return state.apply(action)
    except HeartsError as exc:
        raise InvalidPositionError(f"{what}: {exc}") from exc
