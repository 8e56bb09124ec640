"""Rebuild a :class:`PlayerView` from its JSON form (``PlayerView.to_json()``).

A bot on the far side of the protocol gets the view as JSON; ``hearts bot LEVEL``
turns it back into the very ``PlayerView`` the built-in players expect. Every field
is checked, and anything malformed is a :class:`ProtocolError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from hearts.core import (
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
)
from hearts.protocol.errors import ProtocolError

__all__ = ["view_from_json"]

_T = TypeVar("_T")


def _get(data: Mapping[str, Any], key: str, kind: type[_T]) -> _T:
    if key not in data:
        raise ProtocolError(f"view: missing field {key!r}")
    value = data[key]
    # bool is an int subclass; never accept it where a number is meant
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"view: field {key!r} must be {kind.__name__}, not {value!r}")
    return value


def _optional(data: Mapping[str, Any], key: str, convert: Callable[[Any], _T]) -> _T | None:
    value = data.get(key)
    return None if value is None else convert(value)


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"view: {where} must be a whole number, not {value!r}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"view: {where} must be a list of numbers, not {value!r}")
    return tuple(_int(v, where) for v in value)


def _card(value: Any, where: str) -> Card:
    try:
        return decode_card(value, f"view: {where}")
    except CodecError as exc:
        raise ProtocolError(str(exc)) from None


def _cards(value: Any, where: str) -> CardSet:
    try:
        return decode_cards(value, f"view: {where}")
    except CodecError as exc:
        raise ProtocolError(str(exc)) from None


def _trick(value: Any) -> Trick:
    if not isinstance(value, Mapping):
        raise ProtocolError(f"view: each of 'tricks' must be an object, not {value!r}")
    cards = value.get("cards")
    if not isinstance(cards, list):
        raise ProtocolError("view: a trick needs its 'cards' list")
    return Trick(_int(value.get("leader"), "trick leader"),
                 tuple(_card(c, "trick cards") for c in cards),
                 _int(value.get("winner"), "trick winner"))


def _result(value: Any) -> RoundResult:
    if not isinstance(value, Mapping):
        raise ProtocolError(f"view: each of 'results' must be an object, not {value!r}")
    choice = value.get("moon_choice")
    try:
        moon = None if choice is None else decode_moon_choice(choice, "view: moon_choice")
    except CodecError as exc:
        raise ProtocolError(f"{exc} (or null)") from None
    shooter = value.get("shooter")
    return RoundResult(_int(value.get("round"), "result round"),
                       _ints(value.get("points"), "result points"),
                       _ints(value.get("totals"), "result totals"),
                       None if shooter is None else _int(shooter, "result shooter"),
                       moon)


def _play(value: Any) -> tuple[int, Card]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(f"view: each of 'trick' must be [seat, card], not {value!r}")
    return _int(value[0], "trick seat"), _card(value[1], "trick card")


def view_from_json(data: Any) -> PlayerView:
    """The ``PlayerView`` a JSON view stands for; :class:`ProtocolError` if malformed."""
    if not isinstance(data, Mapping):
        raise ProtocolError(f"view: must be a JSON object, not {type(data).__name__}")
    try:
        rules = Rules.parse(_get(data, "rules", str))
    except HeartsError as exc:
        raise ProtocolError(f"view: rules: {exc}") from None
    try:
        phase = Phase(_get(data, "phase", str))
    except ValueError:
        raise ProtocolError(
            f"view: phase must be one of {', '.join(p.value for p in Phase)}") from None
    has_chosen = _get(data, "has_chosen", list)
    if not all(isinstance(v, bool) for v in has_chosen):
        raise ProtocolError("view: has_chosen must be a list of true/false")
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
