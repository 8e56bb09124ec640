"""The one JSON form of cards and actions, shared by every format that carries them.

Game records, the bot protocol, the web protocol and the server's stored events all
write a card as its canonical name (``"QS"``), a set of cards as a list of names in
card order, a moon choice as ``"subtract"`` or ``"add"``, and an action as its kind
(``pass``, ``play``, ``moon``) with one field: ``cards``, ``card`` or ``choice``. Each
format places the kind and the seat where it always has (a record's plays are bare
card names; a stored event is ``{"t": kind, "seat": seat, ...}``); this module owns
what is inside. Pure: no I/O. Every malformed input is a :class:`CodecError` that
names the field and says what is allowed.

>>> kind, fields = encode_action(Play(2, Card("QS")))
>>> kind, fields
('play', {'card': 'QS'})
>>> decode_action(kind, 2, fields)
Play(seat=2, card=Card('QS'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hearts.core.actions import Action, ChooseMoon, PassCards, Play
from hearts.core.cards import Card, CardSet, card_name, repeated_card
from hearts.core.errors import HeartsError, InvalidCardError
from hearts.core.inputs import echoed, is_whole_number
from hearts.core.scoring import MoonChoice

__all__ = [
    "ACTION_KINDS",
    "CodecError",
    "decode_action",
    "decode_card",
    "decode_cards",
    "decode_moon_choice",
    "encode_action",
    "encode_card",
    "encode_cards",
    "encode_moon_choice",
]

ACTION_KINDS: Final = ("pass", "play", "moon")
"""The kinds of action a seat takes, as every format names them."""

_CHOICES: Final = " or ".join(c.value for c in MoonChoice)


class CodecError(HeartsError, ValueError):
    """JSON that is not the card, cards, moon choice or action it should be.

    ``field`` names what was wrong (as the caller called it); the message also says
    what is allowed.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# ------------------------------------------------------------------ cards
def encode_card(card: int) -> str:
    """A card's canonical name, e.g. ``"QS"``."""
    return card_name(card)


def decode_card(value: object, field: str = "card") -> Card:
    """The card a name stands for (``"QS"``, ``"10H"``, ``"TH"``, ``"Q♠"``)."""
    if not isinstance(value, str):
        raise CodecError(field, f"{field} must be a card name like \"QS\", not {echoed(value)}")
    try:
        return Card(value)
    except InvalidCardError as exc:
        raise CodecError(field, f"{field}: {exc}") from None


def encode_cards(cards: CardSet) -> list[str]:
    """Card names in card order (clubs, diamonds, spades, hearts; 2 to ace)."""
    return cards.names()


def decode_cards(value: object, field: str = "cards", *, count: int | None = None) -> CardSet:
    """The cards a list of names stands for, each at most once (exactly ``count``
    different cards when given)."""
    many = "" if count is None else f"{count} "
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CodecError(field, f"{field} must be a list of {many}card names like \"QS\", "
                                f"not {echoed(value)}")
    cards = [decode_card(v, field) for v in value]
    picked = CardSet(cards)
    if count is not None and (len(cards) != count or len(picked) != count):
        raise CodecError(field, f"{field}: exactly {count} different cards, not {echoed(value)}")
    twice = repeated_card(cards)
    if twice is not None:
        raise CodecError(field, f"{field}: {Card(twice)} is listed twice; each card at most once")
    return picked


# ------------------------------------------------------------------ moon choice
def encode_moon_choice(choice: MoonChoice) -> str:
    """``"subtract"`` or ``"add"``."""
    return choice.value


def decode_moon_choice(value: object, field: str = "choice") -> MoonChoice:
    """The moon choice a word stands for."""
    if isinstance(value, str):
        for choice in MoonChoice:
            if value == choice.value:
                return choice
    raise CodecError(field, f"{field} must be {_CHOICES}, not {echoed(value)}")


# ------------------------------------------------------------------ actions
def encode_action(action: Action) -> tuple[str, dict[str, Any]]:
    """An action's kind and its field: ``("play", {"card": "QS"})``,
    ``("pass", {"cards": [...]})`` or ``("moon", {"choice": "add"})``. A deal is no
    seat's action: each format records its deals in its own way."""
    if isinstance(action, Play):
        return "play", {"card": encode_card(action.card)}
    if isinstance(action, PassCards):
        return "pass", {"cards": encode_cards(action.cards)}
    if isinstance(action, ChooseMoon):
        return "moon", {"choice": encode_moon_choice(action.choice)}
    raise CodecError("action", f"only a seat's action has a JSON form ({', '.join(ACTION_KINDS)}"
                               f"), not {type(action).__name__}")


def decode_action(kind: object, seat: object, fields: Mapping[str, Any]) -> Action:
    """The action of ``seat`` that ``kind`` and its field in ``fields`` stand for (other
    keys of ``fields`` are ignored). Only the form is checked: the rules check the rest."""
    if not is_whole_number(seat):
        raise CodecError("seat", f"seat must be a seat number from 0, not {echoed(seat)}")
    if kind == "play":
        return Play(seat, decode_card(fields.get("card"), "card"))
    if kind == "pass":
        return PassCards(seat, decode_cards(fields.get("cards"), "cards"))
    if kind == "moon":
        return ChooseMoon(seat, decode_moon_choice(fields.get("choice"), "choice"))
    raise CodecError("kind", f"unknown action kind {echoed(kind)}; kinds are "
                             f"{', '.join(ACTION_KINDS)}")
