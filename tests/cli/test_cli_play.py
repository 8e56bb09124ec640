"""``hearts play``: whole plain-text games driven through a pipe by a player that reads
the prompts and answers from the cards the game says are allowed."""

from __future__ import annotations

import os
import random
import re
import subprocess
import threading
from pathlib import Path

import pytest

from hearts.cli.cmd_play import _keep_finished
from hearts.core import Card, parse_record, replay_game

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♠♥]")


class PipeDriver:
    """Plays ``hearts play`` through its standard input, reading each prompt it prints."""

    def __init__(self, proc: subprocess.Popen[str], seed: int) -> None:
        self.proc = proc
        self.rng = random.Random(seed)
        self.transcript: list[str] = []
        self.watchdog = threading.Timer(90, self.proc.kill)
        self.watchdog.start()

    def read_prompt(self) -> tuple[list[str], str] | None:
        """The lines printed before the next prompt, and the prompt; None when the game ends."""
        assert self.proc.stdout is not None
        text = ""
        while not text.endswith("> ") or "\n" in text[-3:]:
            char = self.proc.stdout.read(1)
            if not char:
                self.transcript.append(text)
                return None
            text += char
        self.transcript.append(text)
        *lines, prompt = text.split("\n")
        return lines, prompt

    def answer(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def choose(self, lines: list[str], prompt: str) -> str:
        """A right answer from the printed choices (the last line that lists them)."""
        if prompt == "Moon> ":
            return self.rng.choice(["subtract", "add"])
        choices = next(line for line in reversed(lines)
                       if line.startswith(("Play a card. Allowed:", "Choose ")))
        cards = CARD.findall(choices.split(":", 1)[1])
        if prompt == "Pass> ":
            count = int(choices.split()[1])
            return " ".join(str(Card(c)) for c in self.rng.sample(cards, count))
        return self.rng.choice(cards)

    def finish(self) -> tuple[int, str, str]:
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.transcript.append(self.proc.stdout.read())
        code = self.proc.wait(timeout=30)
        self.watchdog.cancel()
        return code, "".join(self.transcript), self.proc.stderr.read()


@pytest.mark.parametrize("text", ["card-commons:target=30", "classic:players=3,target=30",
                                  "standard:target=30", "classic:players=6,target=26"])
def test_a_whole_game_through_a_pipe_and_its_record_replays(hearts_cli, start_hearts, tmp_path,
                                                           text):
    record = tmp_path / "game.json"
    driver = PipeDriver(start_hearts("play", "--rules", text, "--seed", "pipe", "--name", "Ada",
                                     "--record", str(record)), seed=3)
    asked = {"Pass> ": 0, "Card> ": 0, "Moon> ": 0}
    while (question := driver.read_prompt()) is not None:
        lines, prompt = question
        asked[prompt] += 1
        driver.answer(driver.choose(lines, prompt))
    code, out, err = driver.finish()
    assert code == 0, err
    assert asked["Pass> "] > 0 and asked["Card> "] > 0
    assert "Game over." in out and "Winner" in out
    assert "=== Round 1: pass " in out
    saved = parse_record(record.read_text(encoding="utf-8"))
    assert saved["seed"] == "pipe" and saved["seats"][0] == "Ada" and saved["complete"] is True
    state = replay_game(saved)
    assert state.is_over
    # The sheet printed at the end is the record's.
    for result in state.results:
        assert f"Round {result.round_no} is over." in out
    names = saved["seats"]
    won = ", ".join(names[s] for s in state.winners)
    *_, last = out.rstrip().splitlines()
    assert out.rstrip().removesuffix(last).endswith(
        f"Winner{'s' if len(state.winners) > 1 else ''}: {won}\n"
        f"Saved the game to {record}; check it with: hearts replay {record}\n")
    # filed with the player's games, as the full-screen game files them, for hearts stats
    kept = Path(last.removeprefix("The game record is kept with your games in ")
                .removesuffix(" (hearts stats counts it)"))
    assert kept.parent == Path(os.environ["HEARTS_HOME"]) / "games"
    assert parse_record(kept.read_text(encoding="utf-8")) == saved
    replayed = hearts_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr


def _forbidden_cards(hand_line: str) -> list[str]:
    """Cards of a printed hand shown without brackets (not allowed now), as ``QS``-style text."""
    cards = []
    for group in hand_line.removeprefix("Your hand: ").split("   "):
        symbol, *faces = group.split()
        cards += [str(Card(face + symbol)) for face in faces if not face.startswith("[")]
    return cards


def test_bad_answers_are_refused_with_the_reason_and_the_allowed_cards(start_hearts):
    driver = PipeDriver(start_hearts("play", "--seed", "11", "--rules", "card-commons:target=20"),
                        seed=5)
    lines, prompt = driver.read_prompt() or ([], "")
    assert prompt == "Pass> "
    driver.answer("QS QS QS")
    refused, _ = driver.read_prompt() or ([], "")
    assert refused[-2:] == ["Q♠ is named twice in 'Q♠ Q♠ Q♠'.", lines[-1]]
    driver.answer(driver.choose(lines, prompt))

    lines, prompt = driver.read_prompt() or ([], "")
    while prompt != "Card> ":
        driver.answer(driver.choose(lines, prompt))
        lines, prompt = driver.read_prompt() or ([], "")
    allowed = lines[-1]
    assert allowed.startswith("Play a card. Allowed: ")
    driver.answer("purple")
    refused, _ = driver.read_prompt() or ([], "")
    assert refused[-2].startswith("Not a card: 'purple'")
    assert refused[-1] == allowed
    driver.answer("sheet")
    shown, _ = driver.read_prompt() or ([], "")
    assert shown[-1] == "No round has ended yet."
    driver.answer("help")
    shown, _ = driver.read_prompt() or ([], "")
    assert any(line.strip().startswith("quit") for line in shown)

    # Play on until a hand holds a card the rules forbid now, then try it.
    while not (forbidden := _forbidden_cards(lines[-2])):
        driver.answer(driver.choose(lines, prompt))
        lines, prompt = driver.read_prompt() or ([], "")
        while prompt != "Card> ":
            driver.answer(driver.choose(lines, prompt))
            lines, prompt = driver.read_prompt() or ([], "")
    driver.answer(forbidden[0])
    refused, _ = driver.read_prompt() or ([], "")
    assert refused[-2].startswith(f"{Card(forbidden[0]).pretty} cannot be played: ")
    assert refused[-2].endswith(".") and refused[-2].count(":") == 1  # one sentence
    assert refused[-1] == lines[-1]
    driver.answer("quit")
    code, out, err = driver.finish()
    assert code == 0, err
    assert "You left the game." in out


def test_the_end_of_input_stops_the_game_cleanly(hearts_cli):
    done = hearts_cli("play", "--seed", "4", stdin="")
    assert done.returncode == 0
    assert "Input ended: the game stops here." in done.stdout
    assert done.stderr == ""


def test_without_a_seed_one_is_chosen_and_printed(hearts_cli):
    done = hearts_cli("play", "--text", stdin="quit\n")
    assert done.returncode == 0
    assert re.search(r"^Seed \d+: play these deals again with hearts play --rules card-commons "
                     r"--seed \d+$", done.stdout, re.MULTILINE)


def test_quitting_keeps_the_game_so_far_in_the_record(hearts_cli, tmp_path):
    record = tmp_path / "partial.json"
    done = hearts_cli("play", "--seed", "9", "--record", str(record), stdin="2C 3C 4C\nquit\n")
    assert done.returncode == 0, done.stderr
    saved = parse_record(record.read_text(encoding="utf-8"))
    assert saved["complete"] is False
    assert hearts_cli("replay", str(record)).returncode == 0


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "classic", "--players", "9"], "a player count from 2 to 6 is expected"),
    (["--rules", "standard", "--players", "3"], "standard is played by 4 players, not 3"),
    (["--rules", "standard:moon=never"], "moon must be one of"),
    (["--level", "wizard"], "levels are: random"),
    (["--name", ""], "--name must be 1 to 20 characters"),
])
def test_bad_options_exit_2(hearts_main, args, message):
    status, out, err = hearts_main("play", *args)
    assert status == 2
    assert message in err and out == ""


def test_a_finished_game_the_data_folder_cannot_keep_still_ends_well(
        tmp_path, monkeypatch, capsys):
    """The game is played: a data folder that is a file is said, not an error exit."""
    a_file = tmp_path / "home"
    a_file.write_text("not a folder")
    monkeypatch.setenv("HEARTS_HOME", str(a_file))
    _keep_finished({"format": "card-commons-hearts/game"})
    assert capsys.readouterr().out.startswith(
        "The game record could not be kept with your games: cannot keep games and sheets")


def test_a_name_that_is_no_text_is_refused_before_the_game(hearts_main):
    status, out, err = hearts_main("play", "--text", "--name", "\udcff")
    assert status == 2 and out == "" and "--name must be 1 to 20 characters of text" in err
