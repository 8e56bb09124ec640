"""Rebuild a :class:`PlayerView` from its JSON form (``PlayerView.to_json()``).

A bot on the far side of the protocol gets the view as JSON; ``hearts bot LEVEL``
turns it back into the very ``PlayerView`` the built-in players expect. Every field
is checked, and anything malformed is a :class:`ProtocolError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from hearts.core import (
    MAX_TOTAL,
    NO_LEAD,
    Card,
    CardSet,
    CodecError,
    HeartsError,
    Phase,
    PlayerView,
    RoundResult,
    Rules,
    Trick,
    decode_card,
    decode_cards,
    decode_moon_choice,
    is_whole_number,
    play_rules,
    playable,
    repeated_card,
    trick_winner,
)
from hearts.protocol.errors import ProtocolError

__all__ = ["view_from_json"]

_T = TypeVar("_T")


def _error(text: str) -> ProtocolError:
    return ProtocolError(text, "bad_view")


def _get(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T:
    if key not in data:
        raise _error(f"view: missing field {key!r}")
    value = data[key]
    # bool is an int subclass; never accept it where a number is meant
    if not isinstance(value, kind) or (kind is int and not is_whole_number(value)):
        raise _error(f"view: field {key!r} must be {kind.__name__}, not {value!r}")
    return value


def _optional(data: Mapping[str, Any], key: str, convert: Callable[[Any], _T]) -> _T | None:
    value = data.get(key)
    return None if value is None else convert(value)


def _int(value: Any, where: str) -> int:
    if not is_whole_number(value, -MAX_TOTAL, MAX_TOTAL):
        raise _error(f"view: {where} must be a whole number from -{MAX_TOTAL} to "
                     f"{MAX_TOTAL}, not {value!r}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _error(f"view: {where} must be a list of numbers, not {value!r}")
    return tuple(_int(v, where) for v in value)


def _card(value: Any, where: str) -> Card:
    try:
        return decode_card(value, f"view: {where}")
    except CodecError as exc:
        raise _error(str(exc)) from None


def _cards(value: Any, where: str) -> CardSet:
    try:
        return decode_cards(value, f"view: {where}")
    except CodecError as exc:
        raise _error(str(exc)) from None


def _trick(value: Any) -> Trick:
    if not isinstance(value, Mapping):
        raise _error(f"view: each of 'tricks' must be an object, not {value!r}")
    cards = value.get("cards")
    if not isinstance(cards, list):
        raise _error("view: a trick needs its 'cards' list")
    return Trick(_int(value.get("leader"), "trick leader"),
                 tuple(_card(c, "trick cards") for c in cards),
                 _int(value.get("winner"), "trick winner"))


def _result(value: Any) -> RoundResult:
    if not isinstance(value, Mapping):
        raise _error(f"view: each of 'results' must be an object, not {value!r}")
    choice = value.get("moon_choice")
    try:
        moon = None if choice is None else decode_moon_choice(choice, "view: moon_choice")
    except CodecError as exc:
        raise _error(f"{exc} (or null)") from None
    shooter = value.get("shooter")
    return RoundResult(_int(value.get("round"), "result round"),
                       _ints(value.get("points"), "result points"),
                       _ints(value.get("totals"), "result totals"),
                       None if shooter is None else _int(shooter, "result shooter"),
                       moon)


def _play(value: Any) -> tuple[int, Card]:
    if not isinstance(value, list) or len(value) != 2:
        raise _error(f"view: each of 'trick' must be [seat, card], not {value!r}")
    return _int(value[0], "trick seat"), _card(value[1], "trick card")


def view_from_json(data: Any) -> PlayerView:
    """The ``PlayerView`` a JSON view stands for; :class:`ProtocolError` (code
    ``bad_view``) if malformed or if no game under its rules could show it."""
    seen = _parse(data)
    _check(seen)
    return seen


def _parse(data: Any) -> PlayerView:
    if not isinstance(data, Mapping):
        raise _error(f"view: must be a JSON object, not {type(data).__name__}")
    try:
        rules = Rules.parse(_get(data, "rules", str))
    except HeartsError as exc:
        raise _error(f"view: rules: {exc}") from None
    try:
        phase = Phase(_get(data, "phase", str))
    except ValueError:
        raise _error(
            f"view: phase must be one of {', '.join(p.value for p in Phase)}") from None
    has_chosen = _get(data, "has_chosen", list)
    if not all(isinstance(v, bool) for v in has_chosen):
        raise _error("view: has_chosen must be a list of true/false")
    return PlayerView(
        rules=rules,
        seat=_optional(data, "seat", lambda v: _int(v, "seat")),
        phase=phase,
        round_no=_get(data, "round", int),
        dealer=_get(data, "dealer", int),
        pass_offset=_get(data, "pass_offset", int),
        hand=_cards(_get(data, "hand", list), "hand"),
        legal=_cards(_get(data, "legal", list), "legal"),
        to_act=_ints(_get(data, "to_act", list), "to_act"),
        has_chosen=tuple(has_chosen),
        passed=_optional(data, "passed", lambda v: _cards(v, "passed")),
        received=_optional(data, "received", lambda v: _cards(v, "received")),
        hand_sizes=_ints(_get(data, "hand_sizes", list), "hand_sizes"),
        leader=_get(data, "leader", int),
        trick=tuple(_play(p) for p in _get(data, "trick", list)),
        tricks=tuple(_trick(t) for t in _get(data, "tricks", list)),
        points_taken=_ints(_get(data, "points_taken", list), "points_taken"),
        hearts_broken=_get(data, "hearts_broken", bool),
        queen_played=_get(data, "queen_played", bool),
        hearts_open=_get(data, "hearts_open", bool),
        totals=_ints(_get(data, "totals", list), "totals"),
        results=tuple(_result(r) for r in _get(data, "results", list)),
        shooter=_optional(data, "shooter", lambda v: _int(v, "shooter")),
        winners=_ints(_get(data, "winners", list), "winners"),
    )


def _check(seen: PlayerView) -> None:
    """Refuse a view that contradicts its own rules: the seat counts, the hand size, the
    cards in play, and, for the seat whose decision it is, exactly the cards the rules
    allow (so a bot that answers from ``legal`` answers legally)."""
    rules = seen.rules
    n, size = rules.players, rules.hand_size
    for name, values in (("has_chosen", seen.has_chosen), ("hand_sizes", seen.hand_sizes),
                         ("points_taken", seen.points_taken), ("totals", seen.totals)):
        if len(values) != n:
            raise _error(f"view: {name} has {len(values)} entries; the rules "
                         f"{rules.text!r} seat {n} players")
    seats = [("seat", seen.seat), ("dealer", seen.dealer), ("leader", seen.leader),
             ("shooter", seen.shooter)]
    seats += [("to_act", s) for s in seen.to_act] + [("winners", s) for s in seen.winners]
    seats += [("trick seat", s) for s, _ in seen.trick]
    seats += [(f"tricks[{i}] {k}", s) for i, t in enumerate(seen.tricks)
              for k, s in (("leader", t.leader), ("winner", t.winner))]
    seats += [(f"results[{i}] shooter", r.shooter) for i, r in enumerate(seen.results)]
    for name, seat in seats:
        if seat is not None and not 0 <= seat < n:
            raise _error(f"view: {name} {seat} is no seat: seats are 0 to {n - 1}")
    if len(set(seen.to_act)) != len(seen.to_act) or len(set(seen.winners)) != len(seen.winners):
        raise _error("view: to_act and winners name each seat at most once")
    if seen.round_no < 1 or seen.pass_offset != rules.pass_offset(seen.round_no):
        raise _error(f"view: round {seen.round_no} with pass_offset {seen.pass_offset}: "
                     "rounds count from 1 and the rules decide each round's pass")
    for i, result in enumerate(seen.results):
        if result.round_no != i + 1 or len(result.points) != n or len(result.totals) != n:
            raise _error(f"view: results[{i}] is round {i + 1} with {n} points and totals")
    _check_cards(seen, n, size)
    if seen.my_turn:
        _check_decision(seen, size)


def _check_cards(seen: PlayerView, n: int, size: int) -> None:
    """Every card in the deck, none twice, hands no larger than the rules deal."""
    deck = seen.rules.deck
    played = [c for t in seen.tricks for c in t.cards] + [c for _, c in seen.trick]
    if len(seen.hand) > size or any(not 0 <= k <= size for k in seen.hand_sizes):
        raise _error(f"view: the rules deal {size} cards a hand; hand {len(seen.hand)}, "
                     f"hand_sizes {list(seen.hand_sizes)}")
    if len(seen.tricks) > size or any(len(t.cards) != n for t in seen.tricks):
        raise _error(f"view: at most {size} tricks of {n} cards a round")
    if len(seen.trick) >= n or any(s != (seen.leader + i) % n
                                   for i, (s, _) in enumerate(seen.trick)):
        raise _error(f"view: the trick in progress holds fewer than {n} cards, played in "
                     "turn from its leader")
    for t in seen.tricks:
        if t.winner != trick_winner(t.leader, t.cards, n):
            raise _error(f"view: a trick led by seat {t.leader} with {CardSet(t.cards)} is "
                         f"won by seat {trick_winner(t.leader, t.cards, n)}, not {t.winner}")
    twice = repeated_card([*played, *seen.hand])
    if twice is not None:
        raise _error(f"view: {Card(twice)} is played twice, or played and still in the hand")
    named = [("hand", seen.hand), ("passed", seen.passed), ("received", seen.received)]
    for name, cards in [*named, ("played cards", CardSet(played))]:
        if cards is not None and cards.mask & ~deck:
            raise _error(f"view: {name} {cards} are not all in the deck of {seen.rules.text!r}")
    count = seen.rules.pass_count
    for name, cards in named[1:]:
        if cards is not None and len(cards) != count:
            raise _error(f"view: {name} holds {count} cards or is null, not {cards}")
    if seen.seat is not None and seen.hand_sizes[seen.seat] != len(seen.hand):
        raise _error(f"view: hand_sizes says seat {seen.seat} holds "
                     f"{seen.hand_sizes[seen.seat]} cards, the hand has {len(seen.hand)}")
    if seen.legal - seen.hand:
        raise _error(f"view: legal cards {seen.legal - seen.hand} are not in the hand")


def _check_decision(seen: PlayerView, size: int) -> None:
    """The view of the seat to decide: its legal cards are the ones the rules allow."""
    if seen.phase is Phase.PASS and (len(seen.hand) != size or seen.legal != seen.hand):
        raise _error(f"view: a seat choosing its pass holds {size} cards, all legal")
    if seen.phase is Phase.PLAY:
        n = seen.rules.players
        if not seen.legal:
            raise _error("view: the seat must play but 'legal' is empty")
        if seen.to_act != ((seen.leader + len(seen.trick)) % n,):
            raise _error(f"view: in a trick led by seat {seen.leader} with "
                         f"{len(seen.trick)} cards played, to_act is {list(seen.to_act)}")
        led = seen.trick[0][1] if seen.trick else NO_LEAD
        allowed = CardSet(playable(play_rules(seen.rules), seen.hand.mask, led,
                                   not seen.tricks, seen.hearts_open))
        if seen.legal != allowed:
            raise _error(f"view: legal lists {seen.legal}, but the rules allow {allowed}")
    if seen.phase is Phase.MOON and seen.shooter != seen.seat:
        raise _error("view: only the shooter chooses the moon's effect")
