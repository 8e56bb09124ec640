"""The line-by-line game behind ``hearts play``: one person against computer players.

The loop is the authority: it holds the game state, deals each round from the game
seed, asks the computer seats through ``view()`` + ``decide()`` and the person
through their own view only. Every rule (legal cards, what is wrong with a card)
comes from the core. Input and output are callables, so scripts and tests can drive
a whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from hearts.core.cards import SUIT_SYMBOLS, Card, CardSet
from hearts.core.deal import round_deal_seed
from hearts.core.errors import IllegalActionError, InvalidCardError
from hearts.core.rules import Rules
from hearts.core.sheet import format_sheet
from hearts.core.state import (
    Action,
    ChooseMoon,
    Deal,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    card_points,
    new_game,
)
from hearts.core.view import PlayerView, view
from hearts.players.base import Player, decide

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

_MOON_WORDS = {
    "subtract": MoonChoice.SUBTRACT, "s": MoonChoice.SUBTRACT, "-": MoonChoice.SUBTRACT,
    "-26": MoonChoice.SUBTRACT, "add": MoonChoice.ADD, "a": MoonChoice.ADD,
    "+": MoonChoice.ADD, "+26": MoonChoice.ADD,
}
_HELP = """\
Commands at any prompt:
  a card       QS, 10H, TH, Q♠ or q♠ (rank 2-10, T, J, Q, K, A, then suit C D S H or ♣ ♦ ♠ ♥)
  cards        when passing, the cards separated by spaces or commas: QS AH KH
  hand         show your hand again
  sheet        show the score sheet so far
  help         this text
  quit         stop the game (a --record file keeps the game so far)
An empty line plays your card when only one is allowed."""


class Outcome(StrEnum):
    """How a text game ended."""

    FINISHED = "finished"
    QUIT = "quit"
    END_OF_INPUT = "end-of-input"


class _BadAnswerError(ValueError):
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

    Each round is dealt from ``seed`` (``round_deal_seed``); ``start`` begins from a
    given position instead (a puzzle, a test), which :func:`seeded_record` cannot record.
    """

    def __init__(self, rules: Rules, seed: str, computers: Sequence[Player], *,
                 name: str = "You", read: ReadLine, write: WriteLine,
                 start: GameState | None = None) -> None:
        if len(computers) != rules.players - 1:
            raise ValueError(f"{rules.players} players need {rules.players - 1} computers")
        self.rules = rules
        self.seed = seed
        self.computers: dict[int, Player] = {s + 1: p for s, p in enumerate(computers)}
        self.names = [name, *(f"Bot {seat}" for seat in range(1, rules.players))]
        self.read = read
        self.write = write
        self.state = start if start is not None else new_game(rules, None)

    # ------------------------------------------------------------------ the loop
    def play(self) -> Outcome:
        """Play until the game ends, the person quits, or the input ends."""
        self.write(f"Hearts, {self.rules.text}: {self._seat_list()}. Type 'help' for commands.")
        if self.state.phase is not Phase.DEAL:
            self._announce_round()
        try:
            while not self.state.is_over:
                self._step()
        except _StoppedError as stop:
            self.write("Input ended: the game stops here." if stop.outcome is Outcome.END_OF_INPUT
                       else "You left the game.")
            return stop.outcome
        return Outcome.FINISHED

    def _step(self) -> None:
        state = self.state
        if state.phase is Phase.DEAL:
            seed = round_deal_seed(self.seed, state.round_no)
            self.state = state.apply(Deal.from_seed(self.rules, seed))
            self._announce_round()
            return
        seat = state.to_act[0]
        if seat == HUMAN_SEAT:
            action = self._ask_person()
        else:
            action = decide(self.computers[seat], view(state, seat))
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """Apply an action and tell the person what they may now see of it."""
        before = view(self.state, HUMAN_SEAT)
        self.state = self.state.apply(action)
        after = view(self.state, HUMAN_SEAT)
        if isinstance(action, PassCards):
            if action.seat == HUMAN_SEAT:
                target = self._pass_partner(before, +1)
                self.write(f"You pass {_cards_text(action.cards)} to {target}.")
            if after.phase is not Phase.PASS:
                self._announce_exchange(after)
        elif isinstance(action, Play):
            self._announce_play(before, after, action)
        if len(after.results) > len(before.results):
            self._announce_round_end(after)

    # ------------------------------------------------------------ announcements
    def _pass_partner(self, mine: PlayerView, way: int) -> str:
        """Who the person passes to (``way`` +1) or receives from (-1) this round."""
        return self.names[(HUMAN_SEAT + way * mine.pass_offset) % mine.players]

    def _seat_list(self) -> str:
        return ", ".join(f"{name} (seat {seat})" for seat, name in enumerate(self.names))

    def _announce_round(self) -> None:
        mine = view(self.state, HUMAN_SEAT)
        self.write("")
        direction = mine.pass_direction
        if mine.phase is Phase.PASS:
            passing = (f"pass {self.rules.pass_count} cards {_direction_words(direction)} "
                       f"({self._pass_partner(mine, +1)})")
        else:
            passing = "hold round: no passing"
        self.write(f"=== Round {mine.round_no}: {passing} ===")
        if mine.phase is not Phase.PASS:  # the pass question shows the hand
            self.write(self._hand_line(mine))

    def _announce_exchange(self, mine: PlayerView) -> None:
        if mine.received is not None:
            self.write(f"You receive {_cards_text(mine.received)} "
                       f"from {self._pass_partner(mine, -1)}.")
        self.write(self._hand_line(mine))

    def _announce_play(self, before: PlayerView, after: PlayerView, action: Play) -> None:
        trick_no = before.trick_no + 1
        how = "led by" if not before.trick else "from"
        self.write(f"  trick {trick_no}: {action.card.pretty} {how} {self.names[action.seat]}")
        # an unseeded game keeps a round's tricks until the next Deal, so the last shows too
        if len(after.tricks) == len(before.tricks):
            return
        done = after.tricks[-1]
        mask = CardSet(done.cards).mask
        points = card_points(mask, self.rules)
        self.write(f"  trick {trick_no} goes to {self.names[done.winner]} "
                   f"({points} point{'s' if abs(points) != 1 else ''})")
        if points:
            self.write("  points this round: " + self._per_seat(after.points_taken))

    def _announce_round_end(self, mine: PlayerView) -> None:
        result = mine.results[-1]
        self.write(f"Round {result.round_no} is over. Points: " + self._per_seat(result.points))
        if result.shooter is not None and result.moon_choice is not None:
            self.write(f"{self.names[result.shooter]} shot the moon: "
                       f"{_moon_text(result.moon_choice)}.")
        if mine.phase is Phase.OVER:
            self.write("Game over.")
        self.write(self._sheet())

    def _sheet(self) -> str:
        mine = view(self.state, HUMAN_SEAT)
        return format_sheet(mine.results, self.names, mine.winners)

    def _per_seat(self, values: Sequence[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(values))

    def _hand_line(self, mine: PlayerView) -> str:
        """The hand by suit; on the person's turn to play, allowed cards in brackets."""
        mark_legal = mine.phase is Phase.PLAY and mine.my_turn
        groups = []
        for suit, symbol in enumerate(SUIT_SYMBOLS):
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
    def _ask_person(self) -> Action:
        mine = view(self.state, HUMAN_SEAT)
        if mine.phase is Phase.PASS:
            question = _Prompt((
                self._hand_line(mine),
                f"Choose {self.rules.pass_count} cards to pass to {self._pass_partner(mine, +1)} "
                f"from: {_cards_text(mine.hand)}",
            ), "Pass> ")
            return self._ask(question, self._parse_pass)
        if mine.phase is Phase.PLAY:
            situation = (f"Your turn in trick {mine.trick_no + 1}." if mine.trick
                         else f"You lead trick {mine.trick_no + 1}.")
            question = _Prompt((
                situation,
                self._hand_line(mine),
                f"Play a card. Allowed: {_cards_text(mine.legal)}",
            ), "Card> ")
            return self._ask(question, self._parse_play)
        taken = "; ".join(f"{self.names[s]} {t}" for s, t in enumerate(mine.totals))
        question = _Prompt((
            f"You shot the moon! Totals before this round: {taken}.",
            "Choose 'subtract' (26 off your own score) or 'add' (26 onto every other player).",
        ), "Moon> ")
        return self._ask(question, self._parse_moon)

    def _ask(self, question: _Prompt, parse: Callable[[str], Action]) -> Action:
        for line in question.lines:
            self.write(line)
        while True:
            answer = self.read(question.prompt)
            if answer is None:
                raise _StoppedError(Outcome.END_OF_INPUT)
            word = answer.strip().lower()
            if word in ("quit", "exit"):
                raise _StoppedError(Outcome.QUIT)
            if word == "help":
                self.write(_HELP)
                continue
            if word == "sheet":
                self.write(self._sheet() if self.state.results else "No round has ended yet.")
                continue
            if word == "hand":
                self.write(self._hand_line(view(self.state, HUMAN_SEAT)))
                continue
            try:
                action = parse(answer)
                self.state.apply(action)  # checks only: _apply announces and keeps the result
            except (_BadAnswerError, InvalidCardError, IllegalActionError) as exc:
                self.write(f"Not allowed: {_reason(exc)}")
                self.write(question.lines[-1])
                continue
            return action

    def _parse_pass(self, answer: str) -> Action:
        words = answer.replace(",", " ").split()
        cards = CardSet.parse(answer)
        if len(cards) != len(words):
            raise _BadAnswerError("a card is named twice")
        return PassCards(HUMAN_SEAT, cards)

    def _parse_play(self, answer: str) -> Action:
        legal = view(self.state, HUMAN_SEAT).legal
        if not answer.strip() and len(legal) == 1:
            return Play(HUMAN_SEAT, next(iter(legal)))
        if len(answer.split()) != 1:
            raise _BadAnswerError(f"play one card, e.g. {next(iter(legal))}")
        return Play(HUMAN_SEAT, Card(answer.strip()))

    def _parse_moon(self, answer: str) -> Action:
        choice = _MOON_WORDS.get(answer.strip().lower())
        if choice is None:
            raise _BadAnswerError("answer 'subtract' (or s) or 'add' (or a)")
        return ChooseMoon(HUMAN_SEAT, choice)


def _reason(error: Exception) -> str:
    return error.reason if isinstance(error, IllegalActionError) else str(error)


def _cards_text(cards: CardSet) -> str:
    return " ".join(card.pretty for card in cards)


def _direction_words(direction: str) -> str:
    return f"to the {direction}" if direction in ("left", "right") else direction


def _moon_text(choice: MoonChoice) -> str:
    return ("take 26 off their own score" if choice is MoonChoice.SUBTRACT
            else "add 26 to every other player")
