"""The line-by-line game behind ``hearts play``: one person against computer players.

The game runs through the one driver (:func:`hearts.players.run_game`): the person
answers through a :class:`~hearts.players.CallbackSeat` from their own view, the
computers decide from theirs, and an observer writes what the person may see of each
action. A seeded game shows a round's last trick and result, then the driver's dealer
deals the next round. Every rule (legal cards, what is wrong with a card) comes from
the core. Input and output are callables, so scripts and tests can drive a whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hearts.cli.common import HELP_WORDS, QUIT_WORDS
from hearts.core import (
    SUIT_CHARS,
    SUIT_SYMBOLS,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    IllegalActionError,
    InvalidCardError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    card_points,
    format_sheet,
    game_record,
    moon_points,
    view,
)
from hearts.players import CallbackSeat, Player, Seat, run_game
from hearts.tui.text import NO_HINTS_IN_CHALLENGE, TextStyle, written_hint
from hearts.wording import counted, partner_note, pass_where, passing, seat_names, sentence

__all__ = [
    "HUMAN_SEAT",
    "Outcome",
    "ReadLine",
    "TextGame",
    "WriteLine",
]

HUMAN_SEAT = 0
ReadLine = Callable[[str], str | None]
"""Shows a prompt and returns the line typed (without its newline), or None at end of input."""
WriteLine = Callable[[str], None]
"""Writes one line of output."""

_CARD_HELP = {
    True: "QS, 10H, TH, Q♠ or q♠ (rank 2-10, T, J, Q, K, A, then suit C D S H or ♣ ♦ ♠ ♥)",
    False: "QS, 10H or TH (rank 2-10, T, J, Q, K, A, then suit C D S H)",
}
_HELP = """\
Commands at any prompt:
  a card       {card_help}
  cards        when passing, the cards separated by spaces or commas: QS AH KH
  hand         show your hand again
  sheet        show the score sheet so far
  hint         the expert's move, why, and the search's figures for every move it weighed
  help or ?    this text
  quit or q    stop the game (a --record file keeps the game so far)
An empty line plays your card when only one is allowed."""


class Outcome(StrEnum):
    """How a text game ended."""

    FINISHED = "finished"
    QUIT = "quit"
    END_OF_INPUT = "end-of-input"
    INTERRUPTED = "interrupted"  # Ctrl-C: the game so far is kept as on quit


class _BadAnswerError(Exception):
    """An answer that is neither a command nor a well-formed choice."""


class _StoppedError(Exception):
    """The person quit or the input ended."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.value)
        self.outcome = outcome


@dataclass(frozen=True)
class _Prompt:
    """A question to the person: the lines before the prompt, and the prompt itself."""

    lines: tuple[str, ...]
    prompt: str


class TextGame:
    """One game in plain text: the person sits at seat 0, computer players at the others.

    ``start`` is the game: ``new_game(rules, seed)``, or a position from elsewhere (a
    puzzle, a test). A position without a seed has no dealer, so it plays to the end
    of its hand. Cards show their suit symbols (``Q♠``), or with ``symbols=False`` the
    letters (``QS``), for output that cannot show the symbols. ``hints=False`` (a
    challenge, where everyone plays the same cards alone) refuses the ``hint`` command.
    ``levels``, the computers' levels as given (``expert:iterations=200``), from seat 1,
    are named by the record.
    """

    def __init__(self, start: GameState, computers: Sequence[Player], *,
                 name: str = "You", read: ReadLine, write: WriteLine,
                 symbols: bool = True, hints: bool = True,
                 levels: Sequence[str] | None = None) -> None:
        rules = start.rules
        if len(computers) != rules.players - 1:
            raise ValueError(f"{rules.players} players need {rules.players - 1} computers")
        if levels is not None and len(levels) != len(computers):
            raise ValueError(f"{len(computers)} computers need {len(computers)} levels")
        self.levels = None if levels is None else list(levels)
        self.rules = rules
        self.computers = list(computers)
        self.names = list(seat_names(rules.players, HUMAN_SEAT, name))  # as the full screen's
        self.read = read
        self.write = write
        self.state = start
        self._refused = False
        self._suits = SUIT_SYMBOLS if symbols else SUIT_CHARS
        self._style = TextStyle(plain=not symbols)
        self._hints = hints
        self._help = _HELP.format(card_help=_CARD_HELP[symbols])
        moon = moon_points(rules)
        self._moon_words = {
            "subtract": MoonChoice.SUBTRACT, "s": MoonChoice.SUBTRACT, "-": MoonChoice.SUBTRACT,
            f"-{moon}": MoonChoice.SUBTRACT, "add": MoonChoice.ADD, "a": MoonChoice.ADD,
            "+": MoonChoice.ADD, f"+{moon}": MoonChoice.ADD,
        }

    # ------------------------------------------------------------------ the game
    def play(self) -> Outcome:
        """Play until the game (or a position's hand) ends, the person quits, the input
        ends or Ctrl-C stops it (the state so far stays in ``self.state`` each way, for the
        caller to keep)."""
        self.write(f"Hearts, {self.rules.text}: {self._seat_list()}. Type 'help' for commands.")
        if self.state.phase is not Phase.DEAL:
            self._announce_round(view(self.state, HUMAN_SEAT))
        seats: list[Seat | Player] = [CallbackSeat(self._ask_person, self._refuse),
                                      *self.computers]
        try:
            run_game(self.state, seats, stop=_without_dealer, observers=(self._observe,))
        except _StoppedError as stop:
            self.write("Input ended: the game stops here." if stop.outcome is Outcome.END_OF_INPUT
                       else "You left the game.")
            return stop.outcome
        except KeyboardInterrupt:
            self.write("\nInterrupted: the game stops here.")
            return Outcome.INTERRUPTED
        return Outcome.FINISHED

    def record(self) -> dict[str, Any]:
        """The game record so far: the seats' names, and the person's seat as its
        ``people`` (whatever name they chose, ``expert`` or ``Left`` too); with the
        computers' ``levels``, each seat's level as given (null for the person's)."""
        levels = None if self.levels is None else [None, *self.levels]
        return game_record(self.state, self.names, people=(HUMAN_SEAT,), levels=levels)

    def _observe(self, before: GameState, action: Action, after: GameState) -> None:
        """Keep the state and tell the person what they may now see of the action."""
        self.state = after
        mine = view(after, HUMAN_SEAT)
        if isinstance(action, Deal):
            self._announce_round(mine)
            return
        if isinstance(action, PassCards):
            if action.seat == HUMAN_SEAT:
                target = self._name(view(before, HUMAN_SEAT).pass_target)
                self.write(f"You pass {self._style.cards(action.cards)} to {target}.")
            if mine.phase is not Phase.PASS:
                self._announce_exchange(mine)
        elif isinstance(action, Play):
            self._announce_play(view(before, HUMAN_SEAT), mine, action)
        if len(after.results) > len(before.results):
            self._announce_round_end(mine)

    # ------------------------------------------------------------ announcements
    def _name(self, seat: int | None) -> str:
        """The name at a pass partner's seat (None only on a hold round, which has none)."""
        assert seat is not None, "a hold round has no pass partner"
        return self.names[seat]

    def _seat_list(self) -> str:
        return ", ".join(f"{name} (seat {seat})" for seat, name in enumerate(self.names))

    def _partner(self, mine: PlayerView) -> str:
        """The seat passed to, where the pass's direction does not name it already."""
        target = mine.pass_target
        return "" if target is None else partner_note(mine.pass_direction, self.names[target])

    def _announce_round(self, mine: PlayerView) -> None:
        self.write("")
        this_pass = (passing(self.rules.pass_count, mine.pass_direction) + self._partner(mine)
                     if mine.phase is Phase.PASS else "hold round: no passing")
        self.write(f"=== Round {mine.round_no}: {this_pass} ===")
        if mine.phase is not Phase.PASS:  # the pass question shows the hand
            self.write(self._hand_line(mine))

    def _announce_exchange(self, mine: PlayerView) -> None:
        if mine.received is not None:
            self.write(f"You receive {self._style.cards(mine.received)} "
                       f"from {self._name(mine.pass_source)}.")
        self.write(self._hand_line(mine))

    def _announce_play(self, before: PlayerView, after: PlayerView, action: Play) -> None:
        trick_no = before.trick_no + 1
        how = "led by" if not before.trick else "from"
        card = self._style.card(action.card)
        self.write(f"  trick {trick_no}: {card} {how} {self.names[action.seat]}")
        # a finished round's tricks stay in view until the next deal, so the last shows too
        if len(after.tricks) == len(before.tricks):
            return
        done = after.tricks[-1]
        points = card_points(CardSet(done.cards).mask, self.rules)
        self.write(f"  trick {trick_no} goes to {self.names[done.winner]} "
                   f"({counted(points, 'point')})")
        if points:
            self.write("  points this round: " + self._per_seat(after.points_taken))

    def _announce_round_end(self, mine: PlayerView) -> None:
        result = mine.results[-1]
        self.write(f"Round {result.round_no} is over. Points: " + self._per_seat(result.points))
        if result.shooter is not None and result.moon_choice is not None:
            self.write(f"{self.names[result.shooter]} shot the moon: "
                       f"{self._moon_text(result.moon_choice)}.")
        if mine.is_over:
            self.write("Game over.")
        self.write(self._sheet(mine))

    def _sheet(self, mine: PlayerView) -> str:
        return format_sheet(mine.results, self.names, mine.winners)

    def _per_seat(self, values: Sequence[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(values))

    def _moon_text(self, choice: MoonChoice) -> str:
        moon = moon_points(self.rules)
        return (f"take {moon} off their own score" if choice is MoonChoice.SUBTRACT
                else f"add {moon} to every other player")

    def _hand_line(self, mine: PlayerView) -> str:
        """The hand by suit; on the person's turn to play, allowed cards in brackets."""
        mark_legal = mine.phase is Phase.PLAY and mine.my_turn
        groups = []
        for suit, symbol in enumerate(self._suits):
            cards = mine.suit_cards(suit)
            if not cards:
                continue
            faces = [c.pretty[:-1] for c in cards]
            if mark_legal:
                faces = [f"[{f}]" if c in mine.legal else f for c, f in zip(cards, faces,
                                                                            strict=True)]
            groups.append(f"{symbol} {' '.join(faces)}")
        return "Your hand: " + ("   ".join(groups) if groups else "(empty)")

    # -------------------------------------------------------------- the person
    def _ask_person(self, mine: PlayerView) -> Action:
        """The person's answer to the decision their view waits on."""
        if mine.phase is Phase.PASS:
            question = _Prompt((
                self._hand_line(mine),
                f"Choose {counted(self.rules.pass_count, 'card')} to pass "
                f"{pass_where(mine.pass_direction)}{self._partner(mine)}: "
                f"{self._style.cards(mine.hand)}",
            ), "Pass> ")
            return self._ask(mine, question, _parse_pass)
        if mine.phase is Phase.PLAY:
            situation = (f"Your turn in trick {mine.trick_no + 1}." if mine.trick
                         else f"You lead trick {mine.trick_no + 1}.")
            question = _Prompt((
                situation,
                self._hand_line(mine),
                f"Play a card. Allowed: {self._style.cards(mine.legal)}",
            ), "Card> ")
            return self._ask(mine, question, _parse_play)
        taken = "; ".join(f"{self.names[s]} {t}" for s, t in enumerate(mine.totals))
        moon = moon_points(self.rules)
        question = _Prompt((
            f"You shot the moon! Totals before this round: {taken}.",
            f"Choose 'subtract' ({moon} off your own score) or 'add' ({moon} onto every "
            "other player).",
        ), "Moon> ")
        return self._ask(mine, question, self._parse_moon)

    def _refuse(self, mine: PlayerView, error: IllegalActionError) -> None:
        """The rules refused the person's answer: say why; the question comes again."""
        self.write(self._style.text(sentence(error.reason)))
        self._refused = True

    def _ask(self, mine: PlayerView, question: _Prompt,
             parse: Callable[[PlayerView, str], Action]) -> Action:
        # after a refusal only the line with the choices is repeated
        for line in question.lines[-1:] if self._refused else question.lines:
            self.write(line)
        self._refused = False
        while True:
            answer = self.read(question.prompt)
            if answer is None:
                raise _StoppedError(Outcome.END_OF_INPUT)
            word = answer.strip().lower()
            if word in QUIT_WORDS:
                raise _StoppedError(Outcome.QUIT)
            if word in HELP_WORDS:
                self.write(self._help)
                continue
            if word == "sheet":
                self.write(self._sheet(mine) if mine.results else "No round has ended yet.")
                continue
            if word == "hand":
                self.write(self._hand_line(mine))
                continue
            if word == "hint":
                self.write(self._hint(mine))
                self.write(question.lines[-1])
                continue
            try:
                return parse(mine, answer)
            except (_BadAnswerError, InvalidCardError) as exc:
                self.write(self._style.text(sentence(str(exc))))
                self.write(question.lines[-1])

    def _hint(self, mine: PlayerView) -> str:
        """The expert's move for the decision ``mine`` waits on, its reason and, from the
        search, every move's figures."""
        if not self._hints:
            return NO_HINTS_IN_CHALLENGE
        found = written_hint(mine, self._style, moon_prefix="answer ")  # the Moon> word
        return "\n".join([found.line, *found.figures])

    def _parse_moon(self, mine: PlayerView, answer: str) -> Action:
        choice = self._moon_words.get(answer.strip().lower())
        if choice is None:
            raise _BadAnswerError("answer 'subtract' (or s) or 'add' (or a)")
        return ChooseMoon(HUMAN_SEAT, choice)


def _without_dealer(state: GameState) -> bool:
    """The game waits for a deal that only an authority could give (an unseeded position)."""
    return state.phase is Phase.DEAL and state.next_deal is None


def _parse_pass(mine: PlayerView, answer: str) -> Action:
    cards = CardSet.parse(answer)
    missing = [card for card in cards if card not in mine.hand]
    if missing:  # said here, to the person: the rules' refusal names the seat
        raise _BadAnswerError(f"{' '.join(map(str, missing))} "
                              f"{'is' if len(missing) == 1 else 'are'} not in your hand")
    return PassCards(HUMAN_SEAT, cards)


def _parse_play(mine: PlayerView, answer: str) -> Action:
    if not answer.strip() and len(mine.legal) == 1:
        return Play(HUMAN_SEAT, next(iter(mine.legal)))
    if len(answer.split()) != 1:
        raise _BadAnswerError(f"play one card, e.g. {next(iter(mine.legal))}")
    card = Card(answer.strip())
    if card not in mine.hand:
        raise _BadAnswerError(f"{card} is not in your hand")
    return Play(HUMAN_SEAT, card)


