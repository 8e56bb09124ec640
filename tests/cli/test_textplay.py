"""The text game loop in-process: its answers come from a script, its lines go to a list."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hearts.cli.textplay import Outcome, TextGame
from hearts.core.cards import SUIT_MASKS, Card, CardSet
from hearts.core.rules import Rules
from hearts.core.state import MoonChoice, new_hand
from hearts.core.view import PlayerView
from hearts.players import RandomPlayer

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♠♥]")


class Script:
    """Answers each prompt from the last printed choices, or from a fixed list first."""

    def __init__(self, answers: list[str] | None = None, moon: list[str] | None = None,
                 stop_after: int = 10_000) -> None:
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self.answers: Iterator[str] = iter(answers or [])
        self.moon: Iterator[str] = iter(moon or [])
        self.stop_after = stop_after

    def write(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def read(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if len(self.prompts) > self.stop_after:
            return None
        given = next(self.answers, None)
        if given is not None:
            return given
        if prompt == "Moon> ":
            return next(self.moon, "add")
        choices = next(line for line in reversed(self.lines)
                       if line.startswith(("Play a card. Allowed:", "Choose ")))
        cards = CARD.findall(choices.split(":", 1)[1])
        count = int(choices.split()[1]) if prompt == "Pass> " else 1
        return " ".join(str(Card(c)) for c in cards[:count])


class OwnViewOnly(RandomPlayer):
    """A random player that checks it is only ever shown its own seat's view."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat
        self.views = 0

    def _check(self, view: PlayerView) -> None:
        assert isinstance(view, PlayerView) and view.seat == self.seat and view.my_turn
        self.views += 1

    def choose_pass(self, view: PlayerView) -> CardSet:
        self._check(view)
        return super().choose_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        self._check(view)
        return super().choose_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        self._check(view)
        return super().choose_moon(view)


def test_a_whole_game_asks_computers_through_their_own_views_only():
    rules = Rules.parse("classic:players=5,target=60")
    computers = [OwnViewOnly(seat) for seat in range(1, 5)]
    script = Script()
    game = TextGame(rules, "views", computers, read=script.read, write=script.write)
    assert game.play() is Outcome.FINISHED
    assert game.state.is_over and all(c.views > 0 for c in computers)
    assert "=== Round 1: pass 3 cards to the left (Bot 1) ===" in script.lines
    assert "=== Round 3: pass 3 cards 2 to the left (Bot 2) ===" in script.lines
    assert "=== Round 4: pass 3 cards 2 to the right (Bot 3) ===" in script.lines
    assert any(line.startswith("Game over.") for line in script.lines)


def test_the_shooter_is_asked_for_the_moon_choice_where_the_preset_gives_one():
    # Classic for two, a hold round: you hold every club and diamond, so you lead
    # 2♣ and take every trick; the computer must discard all its hearts and Q♠ to you.
    rules = Rules.preset_rules("classic", 2)
    yours = CardSet(SUIT_MASKS[0] | SUIT_MASKS[1])
    theirs = CardSet(SUIT_MASKS[2] | SUIT_MASKS[3])
    start = new_hand(rules, [yours, theirs], round_no=2, totals=[10, 20])
    # An empty answer plays the only allowed card (2♣ here), then 25 cards, the moon question,
    # and the input ends.
    script = Script([""], stop_after=27)
    game = TextGame(rules, "moon", [RandomPlayer(1)], read=script.read, write=script.write,
                    start=start, name="Ada")
    assert game.play() is Outcome.END_OF_INPUT
    assert script.prompts.count("Moon> ") == 1
    assert "  trick 1: 2♣ led by Ada" in script.lines
    assert "You shot the moon! Totals before this round: Ada 10; Bot 1 20." in script.lines
    result = game.state.results[-1]
    assert (result.shooter, result.moon_choice, result.totals) == (0, MoonChoice.ADD, (10, 46))
    assert "Ada shot the moon: add 26 to every other player." in script.lines
    assert any(line.startswith("   2.") and "*" in line for line in script.lines)


def test_a_wrong_moon_answer_is_asked_again():
    rules = Rules.preset_rules("classic", 2)
    start = new_hand(rules, [CardSet(SUIT_MASKS[0] | SUIT_MASKS[1]),
                             CardSet(SUIT_MASKS[2] | SUIT_MASKS[3])], round_no=2)
    script = Script(moon=["maybe", "s"], stop_after=28)
    game = TextGame(rules, "moon", [RandomPlayer(2)], read=script.read, write=script.write,
                    start=start)
    game.play()
    assert "Not allowed: answer 'subtract' (or s) or 'add' (or a)" in script.lines
    assert game.state.results[-1].totals == (-26, 0)


def test_quit_stops_at_once():
    script = Script(["quit"])
    game = TextGame(Rules(), "q", [RandomPlayer(s) for s in range(3)], read=script.read,
                    write=script.write)
    assert game.play() is Outcome.QUIT
    assert script.lines[-1] == "You left the game." and len(game.state.results) == 0
