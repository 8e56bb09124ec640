"""``hearts replay FILE --step``: step through a finished game with every hand open.

The table is the game's own (:class:`hearts.tui.widgets.TableView`, fed the bottom seat's
view of each position); below it every seat's hand, then where the replay stands. The
positions are :func:`hearts.replay.build_replay`'s, so the terminal and the browser's
``/replay`` page show the same frames. With an analysis (``hearts analyze --json``, or
worked out for ``--analyze``) the status line marks the cost of the decision that led to
each position, and the costliest decisions are listed (``m`` jumps to the next one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Footer, Input, Static

from hearts.core import Card, InvalidCardError, PlayerView, parse_card, read_whole_number
from hearts.replay import Frame, Replay, marked_decisions, most_costly
from hearts.tui.dialogs import TextScreen
from hearts.tui.text import TextStyle
from hearts.tui.widgets import TableView

__all__ = ["KEYS_HELP", "ReplayApp"]

KEYS_HELP = """\
Right, l          one card (a pass, a moon choice) forwards
Left, h           one card back
Down, j, PgDn     to the end of the next trick
Up, k, PgUp       to the end of the trick before
n                 to the deal of the next round
p                 to the deal of this round, then the one before
g                 go to a round by its number (Escape closes the box)
m                 the next of the costliest decisions (with an analysis)
Home, End         the first and the last position
?                 this list
q, Escape         quit"""


class ReplayApp(App[None]):
    """The replay viewer: one frame at a time, by card, trick or round."""

    CSS = """
    Screen { layout: vertical; }
    #hands { height: auto; padding: 0 1; }
    #status { height: 3; padding: 0 1; background: $panel; text-wrap: nowrap;
              text-overflow: ellipsis; }
    #round-input { dock: bottom; display: none; }
    #round-input.open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "card"),
        Binding("left,h", "step(-1)", "back"),
        Binding("down,j,pagedown", "trick(1)", "trick"),
        Binding("up,k,pageup", "trick(-1)", "trick back", show=False),
        Binding("n", "round(1)", "round"),
        Binding("p", "round(-1)", "round back", show=False),
        Binding("g", "go_to_round", "go to round"),
        Binding("m", "costly", "Costly", show=False),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("question_mark", "keys", "Keys"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "close_or_quit", "Quit", show=False),
    ]

    ENABLE_COMMAND_PALETTE = False  # as in the game: every key is listed by ?
    AUTO_FOCUS = None  # the keys move the replay; the round box takes focus when asked

    index: reactive[int] = reactive(0, init=False)

    def __init__(self, replay: Replay, analysis: Mapping[str, Any] | None = None, *,
                 plain: bool = False, bottom: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.style = TextStyle(plain)
        self.bottom = bottom
        self.marks: dict[int, dict[str, Any]] = {}
        self.costly: list[Mapping[str, Any]] = []
        if analysis is not None:
            decisions = marked_decisions(replay, analysis)
            self.marks = {d["frame"]: d for d in decisions}
            self.costly = most_costly(decisions)

    @property
    def frame(self) -> Frame:
        """The frame shown."""
        return self.replay.frames[self.index]

    def compose(self) -> ComposeResult:
        names = self.replay.names
        yield TableView(len(names), self.bottom, names, [""] * len(names), self.style)
        yield Static("", id="hands", markup=False)
        yield Static("", id="status", markup=False)
        yield Input(placeholder=f"round ({', '.join(map(str, self.replay.round_starts))})",
                    id="round-input", type="integer")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Replay"
        self.show()

    def watch_index(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the frame: the table from the bottom seat's view, every hand, the status."""
        frame = self.frame
        seen: PlayerView = frame.views[self.bottom]
        self.query_one(TableView).seen = seen
        names = self.replay.names
        width = max(len(name) for name in names)
        hands = [f"{name.ljust(width)}  {self.style.cards(view.hand)}"
                 for name, view in zip(names, frame.views, strict=True)]
        self.query_one("#hands", Static).update("\n".join(hands))
        lines = [f"{self._where(frame)} {self._action(frame)}", self._mark(frame),
                 self._costly_line()]
        # one line each, cut short rather than wrapped (the style's text-wrap: a Text's own
        # no_wrap is not kept by Static): the table keeps its rows
        self.query_one("#status", Static).update("\n".join(lines))

    def _where(self, frame: Frame) -> str:
        last = len(self.replay.frames) - 1
        return f"Round {frame.round_no} · move {frame.index}/{last} ·"

    def _action(self, frame: Frame) -> str:
        shown = frame.to_json()["action"]
        if shown is None:
            return "the deal"
        names = self.replay.names
        who = names[shown["seat"]]
        if shown["kind"] == "play":
            text = f"{who} {_verb(who, 'plays')} {self._card(shown['card'])}"
        elif shown["kind"] == "pass":
            cards = " ".join(self._card(c) for c in shown["cards"])
            text = f"{who} {_verb(who, 'passes')} {cards}"
        else:
            text = f"{who} {_verb(who, 'chooses')} {shown['choice']}"
        if frame.took is not None:
            taker = names[frame.took]
            text += f"; {taker} {_verb(taker, 'takes')} the trick"
        if frame.spectator.is_over:
            text += f"; game over, won by {' and '.join(names[s] for s in frame.spectator.winners)}"
        return self.style.text(text)

    def _mark(self, frame: Frame) -> str:
        """The analysis's word on the decision that led here ('' where there is none)."""
        mark = self.marks.get(frame.index)
        if mark is None:
            return ""
        if mark.get("choices", 0) < 2:
            return "Analysis: forced, nothing to choose"
        verdict = mark.get("verdict") or "fine"
        return self.style.text(f"Analysis: {verdict}, cost {mark['loss']:.1f} points; "
                               f"best {self._taken(mark['best'])}")

    def _costly_line(self) -> str:
        if not self.marks:
            return "No analysis: hearts replay FILE --step --analyze marks each decision"
        if not self.costly:
            return "Most costly: none, every decision was fine"
        items = [f"r{d['round']} {self.replay.names[d['seat']]} {self._taken(d['taken'])} "
                 f"{d['loss']:.1f}" for d in self.costly]
        return self.style.text("Costliest (m): " + " · ".join(items))

    def _taken(self, taken: str | Sequence[str]) -> str:
        if isinstance(taken, str):
            try:
                return self._card(taken)
            except InvalidCardError:
                return taken  # a moon choice
        return " ".join(self._card(c) for c in taken)

    def _card(self, name: str) -> str:
        return self.style.card(Card(parse_card(name)))

    # ------------------------------------------------------------------ moves
    def action_step(self, by: int) -> None:
        """One card (or pass, or moon choice) forwards or back."""
        self.index = min(max(self.index + by, 0), len(self.replay.frames) - 1)

    def action_trick(self, by: int) -> None:
        """To the end of the next trick, or of the one before."""
        self.index = self.replay.next_trick(self.index) if by > 0 \
            else self.replay.previous_trick(self.index)

    def action_round(self, by: int) -> None:
        """To the deal of the next round, or of this one (then the one before)."""
        starts = sorted(self.replay.round_starts.values())
        if by > 0:
            self.index = next((s for s in starts if s > self.index), self.index)
        else:
            self.index = next((s for s in reversed(starts) if s < self.index), 0)

    def action_jump(self, where: int) -> None:
        """To the first or (``-1``) the last frame."""
        self.index = where % len(self.replay.frames)

    def action_costly(self) -> None:
        """To the next of the costliest decisions (round and round)."""
        frames = sorted(int(d["frame"]) for d in self.costly)
        if frames:
            self.index = next((f for f in frames if f > self.index), frames[0])

    def action_keys(self) -> None:
        """List every key of the replay."""
        self.push_screen(TextScreen("Replay keys", KEYS_HELP))

    def action_close_or_quit(self) -> None:
        """Escape closes the round box while it is open, and quits otherwise."""
        box = self.query_one("#round-input", Input)
        if box.has_class("open"):
            box.remove_class("open")
            self.set_focus(None)
        else:
            self.exit()

    def action_go_to_round(self) -> None:
        """Ask for a round number."""
        box = self.query_one("#round-input", Input)
        box.add_class("open")
        box.value = ""
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = event.input
        box.remove_class("open")
        starts = self.replay.round_starts
        wanted = read_whole_number(event.value)
        if wanted in starts:
            self.index = starts[wanted]
        else:
            self.notify(f"Rounds are {', '.join(map(str, starts))}", severity="warning")
        self.set_focus(None)


def _verb(name: str, verb: str) -> str:
    """``verb`` as it agrees with a seat's name: the terminal game names its player "You"
    ("You play", where another seat "plays")."""
    if name != "You":
        return verb
    return verb[:-2] if verb.endswith("sses") else verb[:-1]
