"""The game screen: the table, the hand, and the keys (or clicks) that play.

The game runs through the one driver (:meth:`GameSession.play`), in an asyncio worker
of the screen: computer seats decide in threads, so the screen stays responsive, and
wait while a dialog covers the table. The screen keeps the human's view, cursor, pass
choice and messages as reactive attributes; the table and the hand are bound to them
and redraw when they change. The driver's observers give the screen a fresh view, and
the human's choices go on the human seat's queue; an undo stops the run, takes the
state back and starts the run again from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import textwrap
from typing import Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker

from hearts.core import (
    MAX_TARGET,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    IllegalActionError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    view,
)
from hearts.players import seeded_dealer
from hearts.tui.dialogs import GameOverScreen, MoonScreen, TextScreen, sheet_screen
from hearts.tui.session import SPEEDS, GameSession, GameSettings, HumanSeat
from hearts.tui.text import NO_HINTS_IN_CHALLENGE, TextStyle, written_hint
from hearts.tui.widgets import CardCell, HandView, TableView, received_in_sight
from hearts.wording import counted, partner_note, passing, sentence

__all__ = ["KEYS_HELP", "MIN_SIZE", "GameScreen"]

KEYS_HELP = """\
Left/Right     move along your hand; Up/Down: to the next suit
Enter, Space   play the card (or choose it to pass); a click does
               the same
p              pass the chosen cards
h              hint: the expert's move and its reason (then Enter
               or p makes it); h again shows the whole hint, with
               the search's figures for every move it weighed
u              undo your last decision (against computer players)
l              show or hide the last trick (until the next trick)
s              the score sheet (numbered lines, points and totals)
a              auto-play forced moves on/off (when one card is legal)
v              computer speed: instant, fast, normal, slow
q              quit; the game is saved, and `hearts play --resume`
               continues it
Esc            in the shoot-the-moon choice: decide later (look at
               the table or the sheet first); Enter asks again
Marks: [Q♠] playable, <Q♠> chosen to pass, underlined: received in
the pass (until your first play, and said above your hand). The
seat whose turn it is has a heavy frame and an arrow before its
name."""


MIN_SIZE = (80, 24)
"""The smallest terminal (columns, rows) the table fits; below it the status line says so."""
_EVENT_ROWS = 3
_MORE = " … h: all of it"


def _hearts_note(seen: PlayerView) -> str:
    """Whether a heart may be led now, as the rules say for this table."""
    if seen.hearts_broken:
        return "hearts broken"
    return "hearts open" if seen.hearts_open else "hearts not broken"


class GameScreen(Screen[None]):
    """Plays one game: the human against computer players."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #status { height: 1; background: $boost; text-style: bold; }
    #felt { height: 1fr; align: center middle; }
    #events { height: 3; }  /* _EVENT_ROWS */
    #prompt { height: 1; text-style: bold; }
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

    seen: reactive[PlayerView | None] = reactive(None, always_update=True)
    """The human's view of the game as it stands."""
    cursor: reactive[Card | None] = reactive(None)
    chosen: reactive[CardSet] = reactive(CardSet)
    """The cards chosen to pass."""
    show_last: reactive[bool] = reactive(False)
    event_lines: reactive[tuple[str, ...]] = reactive(tuple)
    hint_line: reactive[str] = reactive("")

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.style = TextStyle(session.settings.plain)
        self.turn_seen: tuple[object, ...] = ()
        self.generation = 0
        self.hint_found = ""  # the latest hint's line in full
        self.hint_window = ""  # it with the search's figures (h shows it again in a dialog)
        self.human: HumanSeat | None = None
        self.game_run: Worker[None] | None = None
        self.dealing = False
        self.finished = False
        self.in_view = asyncio.Event()  # set while no dialog covers the table

    @property
    def settings(self) -> GameSettings:
        """The session's settings (speed and auto-play change during play)."""
        return self.session.settings

    @property
    def settled(self) -> bool:
        """The game waits on the human: their move, the round's sheet, or the end."""
        human = self.human
        return self.finished or self.dealing or (
            human is not None and human.waiting and human.actions.empty())

    def compose(self) -> ComposeResult:
        session = self.session
        yield Static(id="status", markup=False)
        with Vertical(id="felt"):  # a tall screen centres the table, the hand stays low
            yield TableView(session.rules.players, session.human, session.names,
                            session.settings.levels, self.style).data_bind(
                GameScreen.seen, GameScreen.show_last)
        yield Static(id="events", markup=False)
        yield HandView(self.style).data_bind(GameScreen.seen, GameScreen.cursor,
                                             GameScreen.chosen)
        yield Static(id="prompt", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.post_message(self.Started(self.session))
        self.say(f"Round {self.session.state.round_no}. Arrows move, Enter plays, "
                 "or click a card; ? lists every key.")
        self.look()
        self.start_run()

    def on_screen_resume(self, _: events.ScreenResume) -> None:
        self.in_view.set()

    def on_screen_suspend(self, _: events.ScreenSuspend) -> None:
        self.in_view.clear()

    # ----------------------------------------------------------------- showing
    def say(self, line: str) -> None:
        """Add a line to the event log (the last two lines show, or the last and a hint)."""
        self.event_lines = (*self.event_lines, self.style.text(line))[-2:]

    def look(self) -> None:
        """Take a fresh view of the game (the state or the settings changed)."""
        self.seen = self.session.human_view()

    def watch_seen(self, seen: PlayerView | None) -> None:
        if seen is None:
            return
        legal = seen.legal if seen.my_turn else CardSet()
        turn = (seen.round_no, seen.trick_no, len(seen.trick), seen.phase)
        if self.cursor not in seen.hand or (turn != self.turn_seen and self.cursor not in legal):
            self.cursor = next(iter(legal), next(iter(seen.hand), None))
        self.turn_seen = turn
        self.query_one("#status", Static).update(self.status_text(seen))
        self.show_prompt()
        self.show_events()  # what the pass brought stays in sight until the first play
        self.refresh_bindings()

    def watch_cursor(self) -> None:
        self.show_prompt()

    def watch_chosen(self) -> None:
        self.show_prompt()

    def watch_event_lines(self) -> None:
        self.show_events()

    def watch_hint_line(self) -> None:
        self.show_events()

    def show_events(self) -> None:
        """The latest events, then what the pass brought until your first play (a line
        that no event or hint pushes out), then the hint; a hint too long for the lines
        left is cut short and h shows it whole."""
        width = max(self.app.size.width, len(_MORE) * 2)
        kept = textwrap.wrap(self.pass_line(), width)[:_EVENT_ROWS - 1]  # a row for a hint
        hint = textwrap.wrap(self.hint_line, width)
        room = _EVENT_ROWS - len(kept)
        if len(hint) > room:
            hint = hint[:room]
            hint[-1] = hint[-1][:width - len(_MORE)] + _MORE
        rows = [*kept, *hint]
        for line in reversed(self.event_lines):  # the latest events that fit, whole
            wrapped = textwrap.wrap(line, width)
            if len(rows) + len(wrapped) > _EVENT_ROWS:
                break
            rows = [*wrapped, *rows]
        self.query_one("#events", Static).update("\n".join(rows))

    def pass_line(self) -> str:
        """What you passed and what you received, while the received cards are in sight
        (:func:`received_in_sight`); read from the view, so it is there after an undo or
        a resume too."""
        seen = self.seen
        received = CardSet() if seen is None else received_in_sight(seen)
        if seen is None or not received or seen.pass_source is None:
            return ""
        return self.style.text(
            f"You passed {self.style.cards(seen.passed or ())}; received "
            f"{self.style.cards(received)} from {self.session.names[seen.pass_source]}.")

    def show_prompt(self) -> None:
        seen = self.seen
        if seen is not None:
            legal = seen.legal if seen.my_turn else CardSet()
            self.query_one("#prompt", Static).update(self.prompt_text(seen, legal))

    def on_resize(self, _: events.Resize) -> None:
        if self.seen is not None:  # the status line says when the table cannot fit
            self.query_one("#status", Static).update(self.status_text(self.seen))

    def status_text(self, seen: PlayerView) -> str:
        width, height = self.app.size
        if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
            return (f"The terminal is {width}×{height}; the table needs {MIN_SIZE[0]}×"
                    f"{MIN_SIZE[1]} and hides cards below it")
        over = seen.phase is Phase.DEAL and bool(seen.results)
        number = seen.results[-1].round_no if over else seen.round_no
        # a game of fixed rounds says how many; the target may end it sooner, unless it is
        # the highest (a challenge's: the rounds alone end it)
        rounds, target = seen.rules.rounds, seen.rules.target
        parts = [f"Round {number} of {rounds}" if rounds else f"Round {number}"]
        parts[0] += " is over" if over else ""
        if not rounds or target < MAX_TARGET:
            parts.append(f"to {target}")
        if seen.phase is Phase.PASS:
            parts.append(passing(seen.rules.pass_count, seen.pass_direction))
        if seen.phase is Phase.PLAY:
            parts.append(_hearts_note(seen))
        parts.append(f"speed {self.settings.speed}")
        parts.append("auto on" if self.settings.auto_play else "auto off")
        return " · ".join(parts)

    def prompt_text(self, seen: PlayerView, legal: CardSet) -> str:
        names = self.session.names
        cursor = "" if self.cursor is None else f"At {self.style.card(self.cursor)}. "
        if seen.phase is Phase.PASS and seen.pass_target is not None:
            if seen.has_chosen[self.session.human]:
                return "Waiting for the others to pass."
            return (f"{cursor}Choose cards: {passing(seen.rules.pass_count, seen.pass_direction)}"
                    f"{partner_note(seen.pass_direction, names[seen.pass_target])}"
                    f" ({len(self.chosen)} chosen), then p.")
        if seen.phase is Phase.PLAY:
            if seen.my_turn:
                lead = "Lead" if not seen.trick else "Play"
                return f"{cursor}{lead} a [marked] card: {self.style.cards(legal)}"
            return f"{names[seen.to_act[0]]} to play."
        if seen.phase is Phase.MOON:
            return ("You shot the moon: Enter chooses how it scores." if seen.my_turn
                    else "The shooter is choosing.")
        return ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show Pass only while passing, Undo only when there is something to take back."""
        if action == "pass_cards":
            seen = self.session.human_view()
            return seen.phase is Phase.PASS and seen.my_turn
        if action == "undo":
            return self.session.can_undo or None
        return True

    # ------------------------------------------------------------------ the run
    def start_run(self) -> None:
        """Run the game from the session's state through the driver."""
        self.finished = False
        self.human = HumanSeat(self.asked, self.refused)
        self.game_run = self.run_worker(self.run_to_end(self.human), group="game",
                                        exclusive=True)

    async def run_to_end(self, human: HumanSeat) -> None:
        """The game to its end, then its last sheet and the game-over screen."""
        state = await self.session.play(human, dealer=self.deal, ready=self.computer_ready,
                                        observers=(self.shown,))
        if state.results:
            await self.round_over(state)
        self.finished = True
        self.app.push_screen(
            GameOverScreen(state.results, self.session.names, state.winners,
                           self.session.saved_to, self.style),
            self.game_over_choice)

    async def deal(self, state: GameState) -> Deal:
        """The seeded dealer's deal, once the human has seen how the round ended."""
        await self.round_over(state)
        return seeded_dealer(state)

    async def round_over(self, state: GameState) -> None:
        """Show the round's sheet (its last trick stays on the table behind it) until the
        human closes it."""
        result = state.results[-1]
        self.say(f"Round {result.round_no} is over.")
        self.look()
        closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def close(_: None) -> None:
            if not closed.done():
                closed.set_result(None)

        self.dealing = True
        try:
            self.app.push_screen(sheet_screen(f"Round {result.round_no} is over", state.results,
                                              self.session.names, self.style), close)
            await closed
        finally:
            self.dealing = False

    async def computer_ready(self, seen: PlayerView) -> None:
        """Let a computer move once the table is in view and the speed's pause has passed."""
        await self.in_view.wait()
        pause = self.session.pause(seen)
        if pause:
            await asyncio.sleep(pause)
            await self.in_view.wait()

    def shown(self, before: GameState, action: Action, after: GameState) -> None:
        """Show what the human may see of an action."""
        if isinstance(action, Deal):
            hold = after.phase is not Phase.PASS  # a hold round goes straight to the play
            self.say(f"Round {after.round_no} is dealt{': no passing this round' if hold else ''}.")
        if getattr(action, "seat", None) == self.session.human:
            self.generation += 1  # a hint still being found was for this decision: drop it
            self.hint_line = ""
            self.chosen = CardSet()
        if isinstance(action, Play) and len(after.trick) == 1:
            self.show_last = False  # a new trick: the live one shows again
        self.report(view(before, self.session.human), view(after, self.session.human))
        self.look()

    def report(self, before: PlayerView, after: PlayerView) -> None:
        """Say who took a trick that has just ended (what a pass brought has its own
        line: :meth:`pass_line`)."""
        if len(after.tricks) > len(before.tricks):  # tricks stay on the table until the deal
            trick = after.tricks[-1]
            points = after.points_taken[trick.winner]
            self.say(f"{self.session.names[trick.winner]} took trick {len(after.tricks)} "
                     f"({self.style.cards(trick.cards)}); {counted(points, 'point')} this "
                     "round.")

    def asked(self, seen: PlayerView) -> None:
        """The game waits on the human: ask for the moon choice, or play a forced card
        when auto-play is on."""
        self.seen = seen
        if seen.phase is Phase.MOON:
            self.ask_moon()
        elif seen.phase is Phase.PLAY and self.settings.auto_play and len(seen.legal) == 1:
            card = next(iter(seen.legal))
            generation = self.generation
            self.set_timer(max(SPEEDS[self.settings.speed], 0.01),
                           lambda: self.play_forced(generation, card))

    def refused(self, seen: PlayerView, error: IllegalActionError) -> None:
        """The rules refused the human's choice: say why; the game asks again."""
        self.say(sentence(error.reason))

    def human_act(self, action: Action) -> None:
        """Hand the human's action to the game (once; a second key press is ignored)."""
        if self.human is not None:
            self.human.submit(action)

    def play_forced(self, generation: int, card: Card) -> None:
        seen = self.session.human_view()
        if generation == self.generation and seen.my_turn and seen.phase is Phase.PLAY \
                and seen.legal == CardSet([card]):
            self.say(f"Auto-played your only card, {self.style.card(card)}.")
            self.human_act(Play(self.session.human, card))

    def ask_moon(self) -> None:
        """Ask the shooter's choice (again, when Escape closed it unanswered)."""
        self.app.push_screen(MoonScreen(self.session.rules), self.choose_moon)

    def choose_moon(self, choice: MoonChoice | None) -> None:
        """Hand the shooter's choice to the game; after Escape (None) the game waits on
        it and the prompt says that Enter asks again."""
        if choice is not None:
            self.human_act(ChooseMoon(self.session.human, choice))

    def game_over_choice(self, what: str | None) -> None:
        if what == "new":
            from hearts.tui.start import StartScreen

            # A fresh seed for the next game, unless the player types one.
            settings = dataclasses.replace(self.settings, seed="")
            if self.session.challenge is not None:  # a plain game of the challenge's preset
                challenge = self.session.challenge
                rules = Rules.preset_rules(challenge.preset, challenge.players)
                settings = dataclasses.replace(settings, challenge="", rules=rules.text)
            self.app.switch_screen(StartScreen(settings))
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
        elif seen.phase is Phase.PLAY and seen.my_turn:
            self.human_act(Play(self.session.human, card))
        else:
            self.say("It is not your turn.")

    def on_card_cell_clicked(self, message: CardCell.Clicked) -> None:
        self.choose_card(message.card)

    def action_activate(self) -> None:
        seen = self.session.human_view()
        if seen.phase is Phase.MOON and seen.my_turn:
            if self.settled:  # not while the choice is being handed to the game
                self.ask_moon()
        elif self.cursor is not None:
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

    def action_cursor(self, step: int) -> None:
        hand = list(self.session.human_view().hand)
        if not hand:
            return
        index = hand.index(self.cursor) if self.cursor in hand else 0
        self.cursor = hand[(index + step) % len(hand)]

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

    def action_hint(self) -> None:
        if self.hint_line and self.hint_line == self.hint_found:
            self.app.push_screen(TextScreen("Hint", self.hint_window))
            return
        seen = self.session.human_view()
        if self.session.challenge is not None:
            self.hint_line = NO_HINTS_IN_CHALLENGE
            return
        if not seen.my_turn:
            self.hint_line = "A hint is for when it is your turn."
            return
        self.hint_line = "Thinking..."
        self.find_hint(seen, self.generation)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, seen: PlayerView, generation: int) -> None:
        """Ask the expert off the UI thread (it may search for a while)."""
        found = written_hint(seen, self.style)
        window = "\n\n".join([found.line, *found.figures]) if found.figures else ""
        self.hand_back(self.show_hint, generation, found.line, found.action, window)

    def hand_back(self, callback: Any, *args: Any) -> None:
        """Run ``callback`` on the UI thread, unless the app has closed meanwhile."""
        # The app may have quit while the expert was thinking.
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(callback, *args)

    def show_hint(self, generation: int, text: str, action: Action | None,
                  window: str = "") -> None:
        """Show a hint's line, written in the screen's style (:func:`written_hint`;
        ``window``: what h shows again, when more than the line)."""
        if generation == self.generation:
            self.hint_found = self.hint_line = text
            self.hint_window = window or self.hint_found
            if isinstance(action, Play):
                self.cursor = action.card  # Enter then plays the hinted card
            elif isinstance(action, PassCards):
                self.chosen = action.cards  # p then passes the hinted cards

    def action_undo(self) -> None:
        if not self.session.can_undo:
            self.say("Nothing to undo.")
            return
        if self.game_run is not None:
            self.game_run.cancel()  # the run holds the state it would go on from
        self.session.undo()
        self.generation += 1
        self.chosen = CardSet()
        self.hint_line = ""
        self.say("Took back your last decision.")
        self.look()
        self.start_run()

    def action_last_trick(self) -> None:
        self.show_last = not self.show_last
        tricks = self.session.human_view().tricks
        if self.show_last and not tricks:
            self.say("No trick has been played yet this round.")

    def action_sheet(self) -> None:
        seen = self.session.human_view()
        points = ", ".join(f"{name} {p}" for name, p in
                           zip(self.session.names, seen.points_taken, strict=True))
        self.app.push_screen(sheet_screen(
            "Score sheet", seen.results, self.session.names, self.style,
            note=f"This round so far: {points}."))

    def action_auto_play(self) -> None:
        self.session.set_preferences(auto_play=not self.settings.auto_play)
        self.say(f"Auto-play of forced moves {'on' if self.settings.auto_play else 'off'}.")
        seen = self.session.human_view()
        if self.human is not None and self.human.waiting:
            self.asked(seen)  # a forced card waiting now is played at once
        else:
            self.look()

    def action_speed(self) -> None:
        speeds = list(SPEEDS)
        now = speeds.index(self.settings.speed)
        self.session.set_preferences(speed=speeds[(now + 1) % len(speeds)])
        self.say(f"Computer speed: {self.settings.speed}.")
        self.look()

    def action_help(self) -> None:
        self.app.push_screen(TextScreen("Keys", KEYS_HELP))

    def action_quit_game(self) -> None:
        self.app.exit()
