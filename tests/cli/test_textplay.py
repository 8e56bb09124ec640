"""The text game loop in-process: its answers come from a script, its lines go to a list."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hearts.cli.textplay import Outcome, TextGame
from hearts.core import (
    SUIT_MASKS,
    Card,
    CardSet,
    Deal,
    MoonChoice,
    PlayerView,
    Rules,
    new_game,
    new_hand,
    replay_game,
    round_deal_seed,
)
from hearts.players import RandomPlayer
from hearts.tui.session import seat_names

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
    game = TextGame(new_game(rules, "views"), computers, read=script.read, write=script.write)
    assert game.play() is Outcome.FINISHED
    assert game.state.is_over and all(c.views > 0 for c in computers)
    assert "=== Round 1: pass 3 cards to the left ===" in script.lines
    assert "=== Round 3: pass 3 cards 2 to the left ===" in script.lines
    assert "=== Round 4: pass 3 cards 2 to the right ===" in script.lines
    assert any(line.startswith("Game over.") for line in script.lines)


def test_the_shooter_is_asked_for_the_moon_choice_where_the_preset_gives_one():
    # Classic for two, a hold round: you hold every club and diamond, so you lead
    # 2♣ and take every trick; the computer must discard all its hearts and Q♠ to you.
    rules = Rules.preset_rules("classic", 2)
    yours = CardSet(SUIT_MASKS[0] | SUIT_MASKS[1])
    theirs = CardSet(SUIT_MASKS[2] | SUIT_MASKS[3])
    start = new_hand(rules, [yours, theirs], round_no=2, totals=[10, 20])
    # An empty answer plays the only allowed card (2♣ here), then 25 cards and the moon
    # question; the position has no seed, so no dealer: its hand is the whole game.
    script = Script([""])
    game = TextGame(start, [RandomPlayer(1)], read=script.read, write=script.write, name="Ada")
    assert game.play() is Outcome.FINISHED
    assert script.prompts.count("Moon> ") == 1 and len(script.prompts) == 27
    assert "  trick 1: 2♣ led by Ada" in script.lines
    assert "You shot the moon! Totals before this round: Ada 10; Across 20." in script.lines
    result = game.state.results[-1]
    assert (result.shooter, result.moon_choice, result.totals) == (0, MoonChoice.ADD, (10, 46))
    assert "Ada shot the moon: add 26 to every other player." in script.lines
    assert any(line.startswith("   2.") and "*" in line for line in script.lines)


def test_a_wrong_moon_answer_is_asked_again_and_a_hint_names_an_answer():
    rules = Rules.preset_rules("classic", 2)
    start = new_hand(rules, [CardSet(SUIT_MASKS[0] | SUIT_MASKS[1]),
                             CardSet(SUIT_MASKS[2] | SUIT_MASKS[3])], round_no=2)
    script = Script(moon=["hint", "maybe", "s"])
    game = TextGame(start, [RandomPlayer(2)], read=script.read, write=script.write)
    assert game.play() is Outcome.FINISHED
    assert any(line.startswith(("Hint: answer add. ", "Hint: answer subtract. "))
               for line in script.lines)
    assert "Answer 'subtract' (or s) or 'add' (or a)." in script.lines
    assert game.state.results[-1].totals == (-26, 0)


def test_quit_stops_at_once():
    script = Script(["quit"])
    game = TextGame(new_game(Rules(), "q"), [RandomPlayer(s) for s in range(3)],
                    read=script.read, write=script.write)
    assert game.play() is Outcome.QUIT
    assert script.lines[-1] == "You left the game." and len(game.state.results) == 0


def test_a_rounds_last_trick_and_result_show_before_the_next_deal():
    rules = Rules.parse("card-commons:target=200")
    script = Script(stop_after=14)  # round 1's pass and 13 cards; round 2's pass ends it
    game = TextGame(new_game(rules, "last"), [RandomPlayer(s) for s in range(1, 4)],
                    read=script.read, write=script.write)
    assert game.play() is Outcome.END_OF_INPUT
    last_trick = next(i for i, line in enumerate(script.lines)
                      if line.startswith("  trick 13 goes to "))
    over = script.lines.index("Round 1 is over. Points: " + ", ".join(
        f"{name} {p}" for name, p in zip(game.names, game.state.results[0].points, strict=True)))
    dealt = script.lines.index("=== Round 2: pass 3 cards to the right ===")
    assert last_trick < over < dealt
    # the game is the seeded one: round 2 came from its own dealer
    deals = [a for a in game.state.history if isinstance(a, Deal)]
    assert game.state.seed == "last"
    assert deals[1:] == [Deal.from_seed(rules, round_deal_seed("last", 2))]


def test_hint_names_the_experts_move_its_reason_and_every_moves_figures():
    script = Script(["hint"], stop_after=1)
    game = TextGame(new_game(Rules(), "hint"), [RandomPlayer(s) for s in range(3)],
                    read=script.read, write=script.write)
    assert game.play() is Outcome.END_OF_INPUT
    start = next(i for i, line in enumerate(script.lines) if line.startswith("Hint: pass "))
    hinted = CARD.findall(script.lines[start].split(".")[0])
    assert len(hinted) == 3 and len(script.lines[start]) > len("Hint: pass 2♣ 3♣ 4♣. ")
    assert script.lines[start + 1].startswith("The search's figures over the same ")
    header, first = script.lines[start + 2], script.lines[start + 3]
    assert header.split()[:3] == ["move", "value", "points"]
    assert sorted(CARD.findall(first)) == sorted(hinted)  # the hinted pass's row first
    # then the question again, and nothing was passed meanwhile
    note = next(i for i in range(start, len(script.lines))
                if script.lines[i].startswith("value: "))
    assert script.lines[note + 1].startswith("Choose 3 cards to pass")
    assert game.state.chosen_pass(0) is None


def test_a_challenge_gives_no_hints():
    script = Script(["hint"], stop_after=2)
    game = TextGame(new_game(Rules(), "c"), [RandomPlayer(s) for s in range(3)],
                    read=script.read, write=script.write, hints=False)
    assert game.play() is Outcome.END_OF_INPUT
    assert "No hints in a challenge: everyone plays these cards alone." in script.lines


def test_seats_have_the_full_screen_games_names_by_place():
    """The text game once said "Bot 1" where the full-screen game says "Left"."""
    for text, name in (("classic:players=6", "Ada"), ("card-commons:players=3", "You")):
        rules = Rules.parse(text)
        script = Script(stop_after=0)
        computers = [RandomPlayer(s) for s in range(1, rules.players)]
        game = TextGame(new_game(rules, "names"), computers, name=name, read=script.read,
                        write=script.write)
        game.play()
        assert game.names == list(seat_names(rules.players, 0, name))
    assert game.names == ["You", "Left", "Right"]
    assert script.lines[0] == ("Hearts, card-commons:players=3: You (seat 0), Left (seat 1), "
                               "Right (seat 2). Type 'help' for commands.")


def test_the_record_says_which_seat_the_person_played_whatever_their_name():
    """A person named "Left" or "expert" was once taken for a computer by the names."""
    rules = Rules.parse("card-commons:target=30")
    for name in ("Left", "expert"):
        script = Script()
        game = TextGame(new_game(rules, "people"), [RandomPlayer(s) for s in range(1, 4)],
                        name=name, read=script.read, write=script.write)
        assert game.play() is Outcome.FINISHED
        record = game.record()
        assert record["seats"] == [name, "Left", "Across", "Right"]
        assert record["people"] == [0]
        assert replay_game(record).history == game.state.history


def test_the_pass_is_said_once_by_its_direction_which_names_the_partner():
    """Once "pass 3 cards to the left (Bot 1)", then, with seats named by place, the
    direction and the partner's name said the same thing twice."""
    script = Script(stop_after=1)
    game = TextGame(new_game(Rules(), "pass"), [RandomPlayer(s) for s in range(1, 4)],
                    read=script.read, write=script.write)
    game.play()
    assert "=== Round 1: pass 3 cards to the left ===" in script.lines
    choose = next(line for line in script.lines if line.startswith("Choose "))
    assert choose.startswith("Choose 3 cards to pass to the left: ")
    assert "You pass" in script.lines[script.lines.index(choose) + 1]
    assert script.lines[script.lines.index(choose) + 1].endswith(" to Left.")
