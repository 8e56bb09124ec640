"""The game screen's pieces, laid out as a card table: the other seats around the top and
sides, the trick in the centre with each card toward the seat that played it, your seat
below it and your hand (one row a suit, every card clickable) along the bottom.

Each piece holds the human's :class:`PlayerView` (and the screen's cursor, pass choice
and last-trick toggle) as reactive attributes bound to the game screen's, so it redraws
itself when they change. Every fact it shows (legal cards, whose turn, the pass target,
who took a trick) is read from the view, never worked out here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from hearts.core import (
    ALL_CARDS,
    DIAMONDS,
    HEARTS,
    SUIT_MASKS,
    Card,
    CardSet,
    Phase,
    PlayerView,
    iter_mask,
)
from hearts.tui.text import TextStyle
from hearts.wording import counted

__all__ = ["PLACES", "CardCell", "HandView", "SeatView", "TableView", "TrickView",
           "received_in_sight", "seat_places"]

_RED_SUITS = (DIAMONDS, HEARTS)
_CARD_FACE, _RED_INK, _BLACK_INK = "#f4f1e8", "#b3001b", "#111111"

PLACES: Final = ("top-left", "top", "top-right", "left", "right", "bottom")
"""Where a seat can sit on screen; ``bottom`` is the human's."""

# The opponents' places, clockwise from the human's left, by how many opponents there are:
# turns go left, so play runs up the left side, across the top and down the right.
_AROUND: Final[Mapping[int, tuple[str, ...]]] = {
    1: ("top",),
    2: ("top-left", "top-right"),
    3: ("left", "top", "right"),
    4: ("left", "top-left", "top-right", "right"),
    5: ("left", "top-left", "top", "top-right", "right"),
}


def seat_places(players: int, human: int) -> dict[int, str]:
    """Each seat's place on screen: the human at the bottom, the others clockwise around."""
    around = _AROUND[players - 1]
    return {(human + offset) % players: "bottom" if offset == 0 else around[offset - 1]
            for offset in range(players)}


def received_in_sight(seen: PlayerView) -> CardSet:
    """The cards passed to this seat this round, until it plays its first card: what
    arrived stays in sight (marked in the hand, said above it) until the player has
    acted on it, however fast the others play."""
    if seen.received is None or any(play.seat == seen.seat for play in seen.round_plays):
        return CardSet()
    return seen.received


def _shown_trick(seen: PlayerView, show_last: bool) -> tuple[dict[int, Card], int | None]:
    """The cards on the table by seat, and the seat that took them (None while the trick
    is open): the trick in progress, or the one just finished until the next lead, or
    the last trick when asked for."""
    if seen.tricks and (show_last or not seen.trick):
        number = len(seen.tricks) - 1
        return ({play.seat: play.card for play in seen.round_plays if play.trick_no == number},
                seen.tricks[-1].winner)
    return dict(seen.trick), None


class CardCell(Static):
    """One card of the hand; a click asks to play (or choose) it."""

    DEFAULT_CSS = """
    CardCell { width: auto; height: 1; padding: 0 0; }
    CardCell.red { color: $error; }
    CardCell.unplayable { text-style: dim; }
    CardCell.cursor { text-style: reverse bold; }
    CardCell.received { text-style: underline; }
    /* one text-style wins: a received card keeps its underline dimmed or under the cursor */
    CardCell.received.unplayable { text-style: dim underline; }
    CardCell.received.cursor { text-style: reverse bold underline; }
    """

    class Clicked(Message):
        """A card of the hand was clicked."""

        def __init__(self, card: Card) -> None:
            self.card = card
            super().__init__()

    def __init__(self, card: Card) -> None:
        super().__init__("", id=f"card-{card}", classes="red" if card.suit in _RED_SUITS else "",
                         markup=False)
        self.card = card
        self.looks: tuple[str, bool, bool, bool] = ("", False, False, False)
        self.display = False

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.card))


class HandView(Vertical):
    """The hand sorted by suit, one row a suit: ``[Q♠]`` playable, ``<Q♠>`` chosen to pass,
    underlined: received in the pass (until your first play of the round)."""

    DEFAULT_CSS = """
    HandView { height: 4; }
    HandView Horizontal { height: 1; }
    HandView .suit { width: 11; }
    """

    seen: reactive[PlayerView | None] = reactive(None, always_update=True)
    cursor: reactive[Card | None] = reactive(None)
    chosen: reactive[CardSet] = reactive(CardSet)

    def __init__(self, style: TextStyle) -> None:
        super().__init__(id="hand")
        self.style = style

    def compose(self) -> ComposeResult:
        for suit in range(len(SUIT_MASKS)):
            with Horizontal(id=f"suit-{suit}"):
                yield Static(self.style.suit(suit), classes="suit", markup=False)
                for card in iter_mask(SUIT_MASKS[suit]):
                    yield CardCell(ALL_CARDS[card])

    def watch_seen(self) -> None:
        self.restyle()

    def watch_cursor(self) -> None:
        self.restyle()

    def watch_chosen(self) -> None:
        self.restyle()

    def restyle(self) -> None:
        """Show the hand; playable (or passable) cards are marked, chosen ones picked."""
        seen = self.seen
        if seen is None or not self.is_mounted:
            return
        hand = seen.hand
        marked = seen.legal if seen.my_turn else CardSet()
        received = received_in_sight(seen)
        for cell in self.query(CardCell):
            card = cell.card
            if cell.display != (card in hand):
                cell.display = card in hand
            if card not in hand:
                continue
            name = self.style.card(card)
            if card in self.chosen:
                label = f"<{name}>"
            elif card in marked:
                label = f"[{name}]"
            else:
                label = f" {name} "
            looks = (label, card not in marked and card not in self.chosen,
                     card == self.cursor, card in received)
            if looks != cell.looks:  # restyling all 52 cells on every move is slow
                cell.looks = looks
                cell.update(label)
                cell.set_class(looks[1], "unplayable")
                cell.set_class(looks[2], "cursor")
                cell.set_class(looks[3], "received")


class SeatView(Static):
    """One seat at the table: its name in the frame, its points this round and total, its
    cards left; the frame's foot gives its level, or says whose turn it is and who gets
    your pass."""

    DEFAULT_CSS = """
    SeatView {
        width: 1fr; height: 4; border: round $foreground 40%; padding: 0 0;
        content-align: center middle; text-align: center;
    }
    SeatView.turn { border: heavy $accent; }
    SeatView.empty { visibility: hidden; }
    #seat-left, #seat-right { margin: 1 0 0 0; }
    """

    seen: reactive[PlayerView | None] = reactive(None, always_update=True)
    show_last: reactive[bool] = reactive(False)

    def __init__(self, place: str, seat: int | None, name: str, level: str,
                 style: TextStyle) -> None:
        super().__init__("", id=f"seat-{place}", markup=False,
                         classes="empty" if seat is None else "")
        self.seat = seat
        self.label = name
        self.level = level
        self.style = style

    def watch_seen(self) -> None:
        self.show()

    def watch_show_last(self) -> None:
        self.show()

    def show(self) -> None:
        """Write the seat's lines and frame from the view."""
        seen, seat = self.seen, self.seat
        if seen is None or seat is None:
            return
        arrow = ">" if self.style.plain else "▶"
        turn = seat in seen.to_act and seen.phase in (Phase.PASS, Phase.PLAY, Phase.MOON)
        self.set_class(turn, "turn")
        self.border_title = f"{arrow} {self.label}" if turn else self.label
        _, took = _shown_trick(seen, self.show_last)
        notes = []
        if seen.phase is Phase.PASS:
            if turn:
                notes.append("passing")
            if seat == seen.pass_target and seat != seen.seat:
                notes.append("gets your pass")
        elif turn:
            notes.append("choosing" if seen.phase is Phase.MOON else "to play")
        self.border_subtitle = ", ".join(notes) or self.level
        mark = ""
        if seen.phase is not Phase.PASS and seat == took:
            mark = " · took it"
        elif seen.phase is Phase.PLAY and seat == seen.leader and took is None:
            mark = " · leads"
        self.update(f"pts {seen.points_taken[seat]}  total {seen.totals[seat]}\n"
                    f"{seen.hand_sizes[seat]} cards{mark}")


class TrickView(Grid):
    """The trick in the centre, each card toward the seat that played it; the middle
    says what the table waits for (the pass and its direction, who took the trick)."""

    DEFAULT_CSS = """
    TrickView {
        grid-size: 3 3; grid-columns: 1fr 2fr 1fr; grid-rows: 1fr 2 1fr;
        height: 1fr; border: round $success 50%; background: $success 12%;
    }
    TrickView Static { width: 1fr; height: 1fr; content-align: center middle; }
    TrickView .card { text-style: bold; }
    TrickView #trick-note { text-align: center; }
    """

    seen: reactive[PlayerView | None] = reactive(None, always_update=True)
    show_last: reactive[bool] = reactive(False)

    _CELLS: Final = ("top-left", "top", "top-right", "left", "note", "right", "", "bottom", "")

    def __init__(self, places: Mapping[int, str], names: Sequence[str],
                 style: TextStyle) -> None:
        super().__init__(id="trick")
        self.places = places
        self.names = names
        self.style = style

    def compose(self) -> ComposeResult:
        for cell in self._CELLS:
            yield Static("", id=f"trick-{cell}" if cell else None, markup=False,
                         classes="card" if cell and cell != "note" else "")

    def watch_seen(self) -> None:
        self.show()

    def watch_show_last(self) -> None:
        self.show()

    def show(self) -> None:
        """Lay out the cards on the table and the note in the middle."""
        seen = self.seen
        if seen is None or not self.is_mounted:
            return
        cards, took = _shown_trick(seen, self.show_last)
        if seen.phase is Phase.PASS:
            cards, took = {}, None  # the last round's trick is gone once the pass begins
        by_place = {self.places[seat]: (seat, card) for seat, card in cards.items()}
        for place in PLACES:
            cell = self.query_one(f"#trick-{place}", Static)
            seat_card = by_place.get(place)
            if seat_card is None:
                cell.update("")
                continue
            seat, card = seat_card
            # A light face, as a card on the cloth; the trick's winner underlined.
            colour = _RED_INK if card.suit in _RED_SUITS else _BLACK_INK
            won = " underline" if seat == took else ""
            cell.update(Text(f" {self.style.card(card)} ", style=f"{colour} on {_CARD_FACE}{won}"))
        self.query_one("#trick-note", Static).update(self.note(seen, took))

    def note(self, seen: PlayerView, took: int | None) -> str:
        """What the middle of the table says."""
        if seen.phase is Phase.PASS:
            target = seen.pass_target
            if target is None or target == seen.seat:
                return "No pass this round"
            # the middle is narrow: "2 to the left" is left to the status line's words
            direction = seen.pass_direction
            count = (f"{seen.rules.pass_count} {direction}" if " " not in direction
                     else counted(seen.rules.pass_count, "card"))
            return f"Pass {count}\nto {self.names[target]}"
        if took is not None:
            shown = "Last trick" if self.show_last and seen.trick else f"Trick {seen.trick_no}"
            return f"{shown}\n{self.names[took]} took it"
        if seen.phase is Phase.PLAY:
            return f"Trick {seen.trick_no + 1}"
        return ""


class TableView(Widget):
    """The table: seats at the top and sides, the trick in the middle, yours below it."""

    DEFAULT_CSS = """
    TableView {
        layout: grid; grid-size: 3 3; grid-columns: 1fr 2fr 1fr; grid-rows: 4 1fr 4;
        height: 1fr; max-height: 24;
    }
    TableView .spacer { height: 4; }
    """

    seen: reactive[PlayerView | None] = reactive(None, always_update=True)
    show_last: reactive[bool] = reactive(False)

    def __init__(self, players: int, human: int, names: Sequence[str], levels: Sequence[str],
                 style: TextStyle) -> None:
        super().__init__(id="table")
        self.places = seat_places(players, human)
        self.names = names
        self.levels = levels
        self.style = style

    def compose(self) -> ComposeResult:
        seat_at = {place: seat for seat, place in self.places.items()}
        for place in ("top-left", "top", "top-right", "left"):
            yield self.seat_view(place, seat_at.get(place))
        yield TrickView(self.places, self.names, self.style).data_bind(TableView.seen,
                                                                       TableView.show_last)
        yield self.seat_view("right", seat_at.get("right"))
        yield Static(classes="spacer")
        yield self.seat_view("bottom", seat_at.get("bottom"))
        yield Static(classes="spacer")

    def seat_view(self, place: str, seat: int | None) -> SeatView:
        """The seat at ``place`` (an empty, hidden one where nobody sits)."""
        name = "" if seat is None else self.names[seat]
        level = "" if seat is None or self.levels[seat] == "human" else self.levels[seat]
        return SeatView(place, seat, name, level, self.style).data_bind(TableView.seen,
                                                                        TableView.show_last)
