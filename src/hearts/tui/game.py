"""The game screen: the table, the hand, and the keys (or clicks) that play.

The screen is driven by :class:`GameSession` (the authority). Computer moves are
decided in a worker thread, so the screen stays responsive; a generation number
drops a decision that an undo has made stale.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import time
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from hearts.core.cards import Card, CardSet
from hearts.core.errors import HeartsError, IllegalActionError
from hearts.core.rules import HeartsLead
from hearts.core.state import Action, ChooseMoon, MoonChoice, PassCards, Phase, Play
from hearts.core.view import PlayerView
from hearts.tui.dialogs import GameOverScreen, MoonScreen, TextScreen, sheet_screen
from hearts.tui.session import SPEEDS, GameSession, GameSettings
from hearts.tui.text import TextStyle
from hearts.tui.widgets import CardCell, HandView, TableView

__all__ = ["KEYS_HELP", "GameScreen", "describe_action"]

KEYS_HELP = """\
Left/Right     move along your hand; Up/Down: to the next suit
Enter, Space   play the card (or choose it to pass); a click does the same
p              pass the chosen cards
h              hint: the expert's move and its reason (then Enter or p makes it)
u              undo your last decision (against computer players)
l              show or hide the last trick
s              the score sheet (numbered lines, points and totals)
a              auto-play forced moves on/off (when one card is legal)
v              computer speed: instant, fast, normal, slow
q              quit; the game is saved, `hearts play --resume` continues it
Marks: [Q♠] playable, <Q♠> chosen to pass, > whose turn, lead: who led"""


def describe_action(action: Action, style: TextStyle) -> str:
    """An action in words: ``play Q♠``, ``pass Q♠ A♥ K♥``, ``subtract``."""
    if isinstance(action, Play):
        return f"play {style.card(action.card)}"
    if isinstance(action, PassCards):
        return f"pass {style.cards(action.cards)}"
    if isinstance(action, ChooseMoon):
        return action.choice.value
    return "deal"


def _hearts_note(seen: PlayerView) -> str:
    """Whether hearts may be led, where the preset makes it matter."""
    if seen.rules.hearts_lead is HeartsLead.ANY_TIME:
        return ""
    if seen.hearts_broken:
        return "hearts broken"
    return "hearts open (Q♠ played)" if seen.hearts_open else "hearts not broken"


class GameScreen(Screen[None]):
    """Plays one game: the human against computer players."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #status { height: 1; background: $boost; text-style: bold; }
    #table { margin: 1 0 0 0; }
    #events { height: 3; margin: 1 0 0 0; }
    #prompt { height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "activate", "Play/choose"),
        Binding("p", "pass_cards", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("l", "last_trick", "Last trick"),
        Binding("s", "sheet", "Sheet"),
        Binding("a", "auto_play", "Auto-play", show=False),
        Binding("v", "speed", "Speed", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("question_mark", "help", "Keys", show=False),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("up", "suit(-1)", show=False),
        Binding("down", "suit(1)", show=False),
    ]

    class Started(Message):
        """A game screen took over a session (the app remembers it after the screen goes)."""

        def __init__(self, session: GameSession) -> None:
            self.session = session
            super().__init__()

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.style = TextStyle(session.settings.plain)
        self.cursor: Card | None = None
        self.turn_seen: tuple[object, ...] = ()
        self.chosen = CardSet()
        self.show_last = False
        self.generation = 0
        self.bot_busy = False
        self.shown_results = len(session.state.results)
        self.event_lines: list[str] = []
        self.hint_line = ""

    @property
    def settings(self) -> GameSettings:
        """The session's settings (speed and auto-play change during play)."""
        return self.session.settings

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield TableView(id="table", markup=False)
        yield Static(id="events", markup=False)
        yield HandView(self.style)
        yield Static(id="prompt", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.post_message(self.Started(self.session))
        self.say(f"Round {self.session.state.round_no}. Arrows move, Enter plays, "
                 "or click a card; ? lists every key.")
        self.advance()

    # ----------------------------------------------------------------- showing
    def say(self, line: str) -> None:
        """Add a line to the event log (the last two lines show, then any hint)."""
        self.event_lines = [*self.event_lines, self.style.text(line)][-2:]

    def refresh_view(self) -> None:
        session = self.session
        seen = session.human_view()
        legal = seen.legal if seen.my_turn else CardSet()
        turn = (seen.round_no, seen.trick_no, len(seen.trick), seen.phase)
        if self.cursor not in seen.hand or (turn != self.turn_seen and self.cursor not in legal):
            self.cursor = next(iter(legal), next(iter(seen.hand), None))
        self.turn_seen = turn
        received = seen.received if seen.received is not None and seen.trick_no == 0 \
            else CardSet()
        self.query_one(HandView).show(seen.hand, legal, self.chosen, received, self.cursor)
        self.query_one(TableView).show(seen, session.names, session.settings.levels,
                                       self.show_last)
        self.query_one("#status", Static).update(self.status_text(seen))
        events = [*self.event_lines, self.hint_line]
        self.query_one("#events", Static).update("\n".join(line for line in events if line))
        self.query_one("#prompt", Static).update(self.prompt_text(seen, legal))
        self.refresh_bindings()

    def status_text(self, seen: PlayerView) -> str:
        if seen.phase is Phase.DEAL:
            parts = [f"Round {seen.round_no - 1} is over", f"to {seen.rules.target}"]
        else:
            parts = [f"Round {seen.round_no}", f"to {seen.rules.target}"]
        if seen.phase is Phase.PASS:
            parts.append(f"pass {seen.rules.pass_count} {seen.pass_direction}")
        note = _hearts_note(seen)
        if note:
            parts.append(note)
        parts.append(f"speed {self.settings.speed}")
        parts.append("auto on" if self.settings.auto_play else "auto off")
        return " · ".join(parts)

    def prompt_text(self, seen: PlayerView, legal: CardSet) -> str:
        names = self.session.names
        cursor = "" if self.cursor is None else f"At {self.style.card(self.cursor)}. "
        if seen.phase is Phase.PASS:
            if seen.has_chosen[self.session.human]:
                return "Waiting for the others to pass."
            target = names[(self.session.human + seen.pass_offset) % seen.players]
            return (f"{cursor}Choose {seen.rules.pass_count} cards to pass {seen.pass_direction}"
                    f" to {target} ({len(self.chosen)} chosen), then p.")
        if seen.phase is Phase.PLAY:
            if seen.my_turn:
                lead = "Lead" if not seen.trick else "Play"
                return f"{cursor}{lead} a [marked] card: {self.style.cards(legal)}"
            return f"{names[seen.to_act[0]]} to play."
        if seen.phase is Phase.MOON:
            return "The shooter is choosing."
        return ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show Pass only while passing, Undo only when there is something to take back."""
        if action == "pass_cards":
            seen = self.session.human_view()
            return seen.phase is Phase.PASS and seen.my_turn
        if action == "undo":
            return self.session.can_undo or None
        return True

    # ------------------------------------------------------------------ flow
    def advance(self) -> None:
        """Move the game on: a round's sheet, the end, the human's turn, or a computer move."""
        if self.app.screen is not self:
            return  # a dialog is open; its callback comes back here
        self.refresh_view()
        session = self.session
        state = session.state
        if len(state.results) > self.shown_results:
            self.shown_results = len(state.results)
            result = state.results[-1]
            self.say(f"Round {result.round_no} is over.")
            self.app.push_screen(
                sheet_screen(f"Round {result.round_no} is over", state.results, session.names,
                            self.style),
                lambda _: self.advance())
            return
        if session.deal_next():
            self.say(f"Round {session.state.round_no} is dealt.")
            self.advance()
            return
        if state.is_over:
            self.app.push_screen(
                GameOverScreen(state.results, session.names, state.winners, session.saved_to,
                               self.style),
                self.game_over_choice)
            return
        seat = session.bot_to_act()
        if seat is not None and not self.bot_busy:
            self.bot_busy = True
            passing = state.phase is Phase.PASS
            delay = 0.0 if passing else SPEEDS[self.settings.speed]
            self.run_bot(self.generation, state, seat, delay)
        if not session.human_to_act:
            return
        seen = session.human_view()
        if seen.phase is Phase.MOON:
            self.app.push_screen(MoonScreen(seen.rules), self.choose_moon)
        elif seen.phase is Phase.PLAY and self.settings.auto_play and len(seen.legal) == 1:
            card = next(iter(seen.legal))
            self.set_timer(max(SPEEDS[self.settings.speed], 0.01),
                           lambda: self.play_forced(self.generation, card))

    @work(thread=True, exclusive=True, group="computer")
    def run_bot(self, generation: int, state: Any, seat: int, delay: float) -> None:
        """Decide a computer seat's move off the UI thread, then hand it back."""
        if delay:
            time.sleep(delay)
        action = self.session.decide_bot(state, seat)
        self.hand_back(self.bot_done, generation, action)

    def bot_done(self, generation: int, action: Action) -> None:
        self.bot_busy = False
        if generation == self.generation:
            before = self.session.state
            try:
                self.session.apply_bot(action)
            except HeartsError:
                pass  # the table moved on (an undo or the human's pass); decide again
            else:
                self.report(before.trick_no, before.round_no)
        self.advance()

    def report(self, trick_no: int, round_no: int) -> None:
        """Say who took a trick that has just ended, and what a pass brought."""
        state = self.session.state
        seen = self.session.human_view()
        if seen.trick_no > trick_no:  # tricks stay on the table until the next deal
            trick = seen.tricks[-1]
            points = seen.points_taken[trick.winner]
            self.say(f"{self.session.names[trick.winner]} took trick {trick_no + 1} "
                     f"({self.style.cards(trick.cards)}); {points} points this round.")
        if seen.received is not None and seen.trick_no == 0 and not seen.trick \
                and state.round_no == round_no and seen.phase is Phase.PLAY \
                and self.event_lines[-1:] != [self._received_line(seen)]:
            self.say(self._received_line(seen))

    def _received_line(self, seen: PlayerView) -> str:
        giver = self.session.names[(self.session.human - seen.pass_offset) % seen.players]
        return (f"You passed {self.style.cards(seen.passed or ())}; "
                f"received {self.style.cards(seen.received or ())} from {giver}.")

    def human_act(self, action: Action) -> None:
        before = self.session.state
        try:
            self.session.act(action)
        except IllegalActionError as exc:
            self.say(f"Not allowed: {exc.reason}.")
            self.refresh_view()
            return
        self.hint_line = ""
        self.chosen = CardSet()
        self.report(before.trick_no, before.round_no)
        self.advance()

    def play_forced(self, generation: int, card: Card) -> None:
        seen = self.session.human_view()
        if generation == self.generation and seen.my_turn and seen.phase is Phase.PLAY \
                and seen.legal == CardSet([card]):
            self.say(f"Auto-played your only card, {self.style.card(card)}.")
            self.human_act(Play(self.session.human, card))

    def choose_moon(self, choice: MoonChoice | None) -> None:
        if choice is not None:
            self.human_act(ChooseMoon(self.session.human, choice))

    def game_over_choice(self, what: str | None) -> None:
        if what == "new":
            from hearts.tui.start import StartScreen

            # A fresh seed for the next game, unless the player types one.
            self.app.switch_screen(StartScreen(dataclasses.replace(self.settings, seed="")))
        else:
            self.app.exit()

    # --------------------------------------------------------------- actions
    def choose_card(self, card: Card) -> None:
        """Play a card, or toggle it in the pass, as Enter or a click asks."""
        seen = self.session.human_view()
        self.cursor = card
        if seen.phase is Phase.PASS and seen.my_turn:
            if card in self.chosen:
                self.chosen = CardSet(self.chosen.mask & ~(1 << card))
            elif len(self.chosen) < seen.rules.pass_count:
                self.chosen = CardSet(self.chosen.mask | 1 << card)
            else:
                self.say(f"You pass {seen.rules.pass_count} cards; unchoose one first.")
            self.refresh_view()
        elif seen.phase is Phase.PLAY and seen.my_turn:
            self.human_act(Play(self.session.human, card))
        else:
            self.say("It is not your turn.")
            self.refresh_view()

    def on_card_cell_clicked(self, message: CardCell.Clicked) -> None:
        self.choose_card(message.card)

    def action_activate(self) -> None:
        if self.cursor is not None:
            self.choose_card(self.cursor)

    def action_pass_cards(self) -> None:
        seen = self.session.human_view()
        count = seen.rules.pass_count
        if seen.phase is not Phase.PASS or not seen.my_turn:
            self.say("There is nothing to pass now.")
        elif len(self.chosen) != count:
            self.say(f"Choose {count} cards first ({len(self.chosen)} chosen).")
        else:
            self.human_act(PassCards(self.session.human, self.chosen))
            return
        self.refresh_view()

    def action_cursor(self, step: int) -> None:
        hand = list(self.session.human_view().hand)
        if not hand:
            return
        index = hand.index(self.cursor) if self.cursor in hand else 0
        self.cursor = hand[(index + step) % len(hand)]
        self.refresh_view()

    def action_suit(self, step: int) -> None:
        hand = list(self.session.human_view().hand)
        if not hand or self.cursor is None:
            return
        suits = sorted({c.suit for c in hand})
        here = suits.index(self.cursor.suit) if self.cursor.suit in suits else 0
        suit = suits[(here + step) % len(suits)]
        row = [c for c in hand if c.suit == suit]
        rank = self.cursor.rank
        self.cursor = min(row, key=lambda c: abs(c.rank - rank))
        self.refresh_view()

    def action_hint(self) -> None:
        seen = self.session.human_view()
        if not seen.my_turn:
            self.hint_line = "A hint is for when it is your turn."
            self.refresh_view()
            return
        try:
            hints = importlib.import_module("hearts.players.hints")
        except ImportError:
            self.hint_line = "Hints unavailable (no expert hint module is installed)."
            self.refresh_view()
            return
        self.hint_line = "Thinking..."
        self.refresh_view()
        self.find_hint(hints, seen, self.generation)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, hints: Any, seen: PlayerView, generation: int) -> None:
        """Ask the expert off the UI thread (it may search for a while)."""
        action = None
        try:
            found = hints.hint(seen)
            action = found.action
            text = f"Hint: {describe_action(action, self.style)}. {found.reason}"
        except Exception as exc:  # a failing hint must not end the game
            text = f"Hints unavailable: {exc}"
        self.hand_back(self.show_hint, generation, text, action)

    def hand_back(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the UI thread, unless the app has closed meanwhile."""
        # The app may have quit while the computer was thinking; the game is saved anyway.
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(callback, *args)

    def show_hint(self, generation: int, text: str, action: Action | None) -> None:
        if generation == self.generation:
            self.hint_line = self.style.text(text)
            if isinstance(action, Play):
                self.cursor = action.card  # Enter then plays the hinted card
            elif isinstance(action, PassCards):
                self.chosen = action.cards  # p then passes the hinted cards
            self.refresh_view()

    def action_undo(self) -> None:
        if not self.session.undo():
            self.say("Nothing to undo.")
        else:
            self.generation += 1
            self.shown_results = len(self.session.state.results)
            self.chosen = CardSet()
            self.hint_line = ""
            self.say("Took back your last decision.")
        self.advance()

    def action_last_trick(self) -> None:
        self.show_last = not self.show_last
        tricks = self.session.human_view().tricks
        if self.show_last and not tricks:
            self.say("No trick has been played yet this round.")
        self.refresh_view()

    def action_sheet(self) -> None:
        state = self.session.state
        points = ", ".join(f"{name} {p}" for name, p in
                           zip(self.session.names, self.session.human_view().points_taken,
                               strict=True))
        self.app.push_screen(sheet_screen(
            "Score sheet", state.results, self.session.names, self.style,
            note=f"This round so far: {points}."))

    def action_auto_play(self) -> None:
        self.session.set_preferences(auto_play=not self.settings.auto_play)
        self.say(f"Auto-play of forced moves {'on' if self.settings.auto_play else 'off'}.")
        self.advance()

    def action_speed(self) -> None:
        speeds = list(SPEEDS)
        now = speeds.index(self.settings.speed)
        self.session.set_preferences(speed=speeds[(now + 1) % len(speeds)])
        self.say(f"Computer speed: {self.settings.speed}.")
        self.refresh_view()

    def action_help(self) -> None:
        self.app.push_screen(TextScreen("Keys", KEYS_HELP))

    def action_quit_game(self) -> None:
        self.app.exit()
