"""The game screen's pieces: the hand (one row a suit, every card clickable) and
the table (one line a seat: cards left, points, the trick laid out by seat)."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from hearts.core import ALL_CARDS, SUIT_MASKS, Card, CardSet, Phase, PlayerView, iter_mask
from hearts.tui.text import TextStyle

__all__ = ["CardCell", "HandView", "TableView"]

_RED_SUITS = (1, 3)


class CardCell(Static):
    """One card of the hand; a click asks to play (or choose) it."""

    DEFAULT_CSS = """
    CardCell { width: auto; height: 1; padding: 0 0; }
    CardCell.red { color: $error; }
    CardCell.unplayable { text-style: dim; }
    CardCell.cursor { text-style: reverse bold; }
    CardCell.received { text-style: underline; }
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
    """The hand sorted by suit, one row a suit: ``[Q♠]`` playable, ``<Q♠>`` chosen to pass."""

    DEFAULT_CSS = """
    HandView { height: 4; }
    HandView Horizontal { height: 1; }
    HandView .suit { width: 11; }
    """

    def __init__(self, style: TextStyle) -> None:
        super().__init__(id="hand")
        self.style = style

    def compose(self) -> ComposeResult:
        for suit in range(4):
            with Horizontal(id=f"suit-{suit}"):
                yield Static(self.style.suit(suit), classes="suit", markup=False)
                for card in iter_mask(SUIT_MASKS[suit]):
                    yield CardCell(ALL_CARDS[card])

    def show(self, hand: CardSet, marked: CardSet, chosen: CardSet, received: CardSet,
             cursor: Card | None) -> None:
        """Show ``hand``; ``marked`` cards are playable (or passable), ``chosen`` picked."""
        for cell in self.query(CardCell):
            card = cell.card
            if cell.display != (card in hand):
                cell.display = card in hand
            if card not in hand:
                continue
            name = self.style.card(card)
            if card in chosen:
                label = f"<{name}>"
            elif card in marked:
                label = f"[{name}]"
            else:
                label = f" {name} "
            looks = (label, card not in marked and card not in chosen, card == cursor,
                     card in received)
            if looks != cell.looks:  # restyling all 52 cells on every move is slow
                cell.looks = looks
                cell.update(label)
                cell.set_class(looks[1], "unplayable")
                cell.set_class(looks[2], "cursor")
                cell.set_class(looks[3], "received")


class TableView(Static):
    """One line a seat: who acts, cards left, points this round, total, the trick."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def show(self, seen: PlayerView, names: Sequence[str], levels: Sequence[str],
             show_last: bool) -> None:
        """Render the table as text (readable without colour and by screen readers)."""
        style = TextStyle(getattr(self.app, "plain", False))
        trick = dict(seen.trick)
        last = seen.tricks[-1] if seen.tricks else None
        last_cards = {play.seat: play.card for play in seen.round_plays
                      if play.trick_no == len(seen.tricks) - 1}
        # The finished trick stays on the table until the next card is led.
        showing_done = not trick and last is not None
        shown = last_cards if showing_done else trick
        header = f"  {'Seat':<22}{'Cards':>5}{'Round':>6}{'Total':>6}  {'Trick':<7}"
        if show_last:
            header += "Last trick"
        lines = [header]
        for seat in range(seen.players):
            mark = ">" if seat in seen.to_act else " "
            who = names[seat] if levels[seat] == "human" else f"{names[seat]} ({levels[seat]})"
            if seen.phase is not Phase.PASS and seat == (last.winner if showing_done and last
                                                     else seen.leader):
                who += " *" if showing_done else " lead"
            card = style.card(shown[seat]) if seat in shown else "-"
            line = (f"{mark} {who:<22}{seen.hand_sizes[seat]:>5}{seen.points_taken[seat]:>6}"
                    f"{seen.totals[seat]:>6}  {card:<7}")
            if show_last:
                line += style.card(last_cards[seat]) if seat in last_cards else "-"
                if last is not None and seat == last.winner:
                    line += " took it"
            lines.append(line)
        if showing_done and last is not None:
            lines.append(f"  (* took the trick just played: {names[last.winner]})")
        self.update("\n".join(lines))

