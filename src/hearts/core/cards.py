"""Cards and card sets.

Card numbering (documented, stable, used in records and masks)::

    card = suit * 13 + rank
    suit:  0 = clubs ♣, 1 = diamonds ♦, 2 = spades ♠, 3 = hearts ♥
    rank:  0 = 2, 1 = 3, ..., 8 = 10, 9 = J, 10 = Q, 11 = K, 12 = A

So 2♣ is 0, A♣ is 12, Q♠ is 36 and A♥ is 51. A set of cards is an ``int`` mask
with bit ``card`` set; :class:`CardSet` wraps such a mask for everyone outside the
hot paths. Text forms ``QS``, ``10H``, ``TH``, ``Q♠`` and ``q♠`` all parse.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from hearts.core.errors import InvalidCardError
from hearts.core.inputs import as_whole_number, echoed

__all__ = [
    "ALL_CARDS",
    "CLUBS",
    "DIAMONDS",
    "FULL_DECK",
    "HEARTS",
    "HEART_MASK",
    "JACK_MASK",
    "JACK_OF_DIAMONDS",
    "POINT_MASK",
    "QUEEN_MASK",
    "QUEEN_OF_SPADES",
    "RANK_CHARS",
    "SPADES",
    "SUIT_CHARS",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "CardSet",
    "card_name",
    "cards_above",
    "cards_below",
    "highest_card",
    "iter_mask",
    "lowest_card",
    "mask_cards",
    "parse_card",
    "repeated_card",
]

CLUBS: Final = 0
DIAMONDS: Final = 1
SPADES: Final = 2
HEARTS: Final = 3

SUIT_CHARS: Final = "CDSH"
SUIT_SYMBOLS: Final = "♣♦♠♥"
SUIT_NAMES: Final = ("clubs", "diamonds", "spades", "hearts")
RANK_CHARS: Final = "23456789TJQKA"
_RANK_WORDS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SUIT_MASKS: Final = tuple(0x1FFF << (13 * suit) for suit in range(4))
FULL_DECK: Final = (1 << 52) - 1

_SUIT_BY_CHAR: Final = {
    **{c: i for i, c in enumerate(SUIT_CHARS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    "♤": SPADES,
    "♡": HEARTS,
    "♢": DIAMONDS,
    "♧": CLUBS,
}
_RANK_BY_TEXT: Final = {
    **{c: i for i, c in enumerate(RANK_CHARS)},
    "10": 8,
}


def parse_card(text: str) -> int:
    """Parse ``QS``, ``10H``, ``TH``, ``Q♠`` or ``q♠`` into a card number."""
    if not isinstance(text, str):
        raise InvalidCardError(f"a card must be text like 'QS', not {echoed(text)}")
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise InvalidCardError(_card_help(text))
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    suit = _SUIT_BY_CHAR.get(cleaned[-1])
    if rank is None or suit is None:
        raise InvalidCardError(_card_help(text))
    return suit * 13 + rank


def _card_help(text: str) -> str:
    return (
        f"not a card: {echoed(text)}; write a rank (2-10, T, J, Q, K, A) then a suit "
        "(C D S H or ♣ ♦ ♠ ♥), e.g. 'QS', '10H', 'TH', 'Q♠'"
    )


def repeated_card(cards: Iterable[int]) -> int | None:
    """The first card named a second time in ``cards``, else None. A hand, a pass or a
    list of cards holds each card once, so a repeat is a slip to refuse, never two cards.

    >>> repeated_card([36, 0, 36])
    36
    """
    seen = 0
    for card in cards:
        if seen >> card & 1:
            return card
        seen |= 1 << card
    return None


def card_name(card: int) -> str:
    """Canonical two-character name of a card number, e.g. ``QS``."""
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


class Card(int):
    """One card: an ``int`` (see the module numbering) with a readable face."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        number = parse_card(value) if isinstance(value, str) else as_whole_number(value)
        if number is None:
            raise InvalidCardError(f"a card is a card name or a number from 0 to 51, "
                                   f"not {echoed(value)}")
        if not 0 <= number < 52:
            raise InvalidCardError(f"card numbers run from 0 to 51, not {echoed(number)}")
        return _CARDS[number] if _CARDS else super().__new__(cls, number)

    @property
    def suit(self) -> int:
        """Suit number: 0 clubs, 1 diamonds, 2 spades, 3 hearts."""
        return self // 13

    @property
    def rank(self) -> int:
        """Rank number: 0 is the 2, 12 is the ace."""
        return self % 13

    @property
    def mask(self) -> int:
        """This card as a one-bit mask."""
        return 1 << self

    @property
    def pretty(self) -> str:
        """Human face with a suit symbol, e.g. ``10♥``."""
        return _RANK_WORDS[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def spoken(self) -> str:
        """Screen-reader friendly name, e.g. ``queen of spades`` or ``five of clubs``
        (the web client's ``cards.js`` says the same)."""
        words = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "jack", "queen", "king", "ace")
        return f"{words[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return card_name(self)

    def __repr__(self) -> str:
        return f"Card({card_name(self)!r})"


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(52))
ALL_CARDS: Final = _CARDS
QUEEN_OF_SPADES: Final = Card("QS")
JACK_OF_DIAMONDS: Final = Card("JD")
# The scoring cards' masks, written as constant expressions so that the compiled engine
# inlines them (an imported name would otherwise be a dictionary lookup on every use).
HEART_MASK: Final = 0x1FFF << 13 * HEARTS
QUEEN_MASK: Final = 1 << 13 * SPADES + 10  # Q♠, card 36
JACK_MASK: Final = 1 << 13 * DIAMONDS + 9  # J♦, card 22
POINT_MASK: Final = HEART_MASK | QUEEN_MASK  # the cards that score in every rule set


# The cards of every one-suit mask met so far, by suit: at most 4 * 8192 short tuples.
_SUIT_RUNS: Final[tuple[dict[int, tuple[Card, ...]], ...]] = ({}, {}, {}, {})


def mask_cards(mask: int) -> tuple[Card, ...]:
    """Cards of a mask in ascending card number, as a tuple."""
    if not mask & (mask - 1):  # no card or one card
        return (_CARDS[mask.bit_length() - 1],) if mask else ()
    cards: tuple[Card, ...] = ()
    for suit, runs in enumerate(_SUIT_RUNS):
        part = mask >> (13 * suit) & 0x1FFF
        if part:
            run = runs.get(part)
            if run is None:
                run = runs[part] = tuple(
                    _CARDS[13 * suit + rank] for rank in range(13) if part >> rank & 1)
            cards += run
    return cards


def iter_mask(mask: int) -> Iterator[Card]:
    """Cards of a mask in ascending card number."""
    return iter(mask_cards(mask))


def lowest_card(mask: int) -> Card:
    """The lowest-numbered card of a non-empty mask."""
    return _CARDS[(mask & -mask).bit_length() - 1]


def highest_card(mask: int) -> Card:
    """The highest-numbered card of a non-empty mask."""
    return _CARDS[mask.bit_length() - 1]


def cards_above(card: int) -> int:
    """Mask of the cards of ``card``'s suit that outrank it.

    >>> CardSet(cards_above(Card("QS")))
    CardSet.parse('KS AS')
    """
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def cards_below(card: int) -> int:
    """Mask of the cards of ``card``'s suit that it outranks."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


class CardSet:
    """An immutable set of cards over an ``int`` mask.

    >>> CardSet.parse("QS 2C 10H")
    CardSet.parse('2C QS TH')
    """

    __slots__ = ("_mask",)

    def __init__(self, cards: Iterable[int | str] | int = 0) -> None:
        if isinstance(cards, bool):
            raise InvalidCardError(f"a card mask is a whole number, not {echoed(cards)}")
        # a mask, most often a plain int (every state and view makes them)
        whole = cards if type(cards) is int else as_whole_number(cards)
        if whole is not None:
            if not 0 <= whole <= FULL_DECK:
                raise InvalidCardError(f"a card mask has 52 bits, got {echoed(whole)}")
            self._mask = whole
            return
        if not isinstance(cards, Iterable):
            raise InvalidCardError(f"cards are a mask or an iterable of cards, not {echoed(cards)}")
        mask = 0
        for card in cards:
            # Card members are valid by construction; anything else is checked by Card()
            mask |= 1 << (card if type(card) is Card else Card(card))
        self._mask = mask

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas; an empty text is the empty set. A
        card named twice is refused: it is a slip (``QS QS 2C`` for three cards to pass),
        never two cards.

        >>> CardSet.parse("QS 2C q♠")
        Traceback (most recent call last):
        ...
        hearts.core.errors.InvalidCardError: QS is named twice in 'QS 2C q♠'
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"cards are text like 'QS 2C', not {echoed(text)}")
        cards = [Card(part) for part in text.replace(",", " ").split()]
        twice = repeated_card(cards)
        if twice is not None:
            raise InvalidCardError(f"{card_name(twice)} is named twice in {echoed(text, 80)}")
        return cls(cards)

    @property
    def mask(self) -> int:
        """The raw 52-bit mask."""
        return self._mask

    def __iter__(self) -> Iterator[Card]:
        return iter_mask(self._mask)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __contains__(self, card: object) -> bool:
        number = parse_card(card) if isinstance(card, str) else as_whole_number(card)
        return number is not None and 0 <= number < 52 and bool(self._mask >> number & 1)

    def __bool__(self) -> bool:
        return self._mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask | other._mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & other._mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & ~other._mask)

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self._mask & SUIT_MASKS[suit])

    def names(self) -> list[str]:
        """Canonical names in card-number order (clubs, diamonds, spades, hearts)."""
        return [card_name(c) for c in self]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
