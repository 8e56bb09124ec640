"""``hearts play --level/--levels`` take levels with options as ``hearts simulate`` does
(``expert:iterations=200``), read by the same argparse types; the computers are built
with them, records name them as given, and a bad option is refused before any game."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import pytest
from tests.cli.conftest import MainResult

from hearts.challenge import Challenge
from hearts.cli import cmd_play
from hearts.cli.common import seat_player
from hearts.cli.main import build_parser
from hearts.core import MAX_LEVEL_TEXT, Rules, parse_record
from hearts.players import Player, make_player
from hearts.tui.session import HUMAN, GameSettings, computer_player, level_problem


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Player]]:
    """Every computer the text game builds, with the level it was built from."""
    made: list[tuple[str, Player]] = []
    real = cmd_play.computer_player

    def spy(level: str, seat: int, rules: Rules, seed: str) -> Player:
        player = real(level, seat, rules, seed)
        made.append((level, player))
        return player

    monkeypatch.setattr(cmd_play, "computer_player", spy)
    return made


def test_the_text_game_seats_levels_with_options_and_its_record_names_them(
        hearts_main: Callable[..., MainResult], built: list[tuple[str, Player]],
        tmp_path: Any) -> None:
    record = tmp_path / "game.json"
    status, _, err = hearts_main("play", "--text", "--seed", "5", "--record", str(record),
                                   "--levels", "Expert:iterations=7,game_weight=0,normal,easy",
                                   stdin="quit\n")
    assert status == 0, err
    assert [level for level, _ in built] == ["expert:iterations=7,game_weight=0", "normal",
                                             "easy"]
    expert = built[0][1]
    assert expert.budget.max_worlds == 7 and expert.game_weight == 0  # type: ignore[attr-defined]
    saved = parse_record(record.read_text(encoding="utf-8"))
    assert saved["levels"] == [None, "expert:iterations=7,game_weight=0", "normal", "easy"]
    assert saved["seats"] == ["You", "Left", "Across", "Right"]


def test_one_level_with_options_for_every_computer(
        hearts_main: Callable[..., MainResult], built: list[tuple[str, Player]]) -> None:
    status, _, err = hearts_main("play", "--text", "--seed", "5", "--players", "3",
                                 "--level", "hard:iterations=3", stdin="quit\n")
    assert status == 0, err
    assert [level for level, _ in built] == ["hard:iterations=3"] * 2


def test_plain_levels_are_the_players_they_were() -> None:
    """A level without options is the player ``make_player`` made for the seed before
    (so games replay as they did), in the text game and the full screen alike."""
    computer = computer_player
    rules = Rules()
    for level in ("random", "easy", "normal"):
        player = computer(level, 1, rules, "5/seat-1")
        assert type(player) is type(make_player(level, "5/seat-1"))
    ours, theirs = computer("random", 1, rules, "s"), make_player("random", "s")
    assert ours.rng.random() == theirs.rng.random()  # type: ignore[attr-defined]


def test_a_level_with_options_is_the_player_simulate_seats() -> None:
    computer = computer_player
    rules = Rules()
    spec = "expert:iterations=11,game_weight=0,trust=1"
    ours, simulated = computer(spec, 2, rules, "s"), seat_player(spec, 2, rules, "s")
    for player in (ours, simulated):
        assert type(player).__name__ == "SearchPlayer"
    assert vars(ours).keys() == vars(simulated).keys()
    assert ours.budget == simulated.budget  # type: ignore[attr-defined]
    assert ours.game_weight == simulated.game_weight == 0  # type: ignore[attr-defined]
    assert ours.rng.random() == simulated.rng.random()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("args", "says"), [
    (["--levels", "expert:wisdom=3,normal,normal"],
     "argument --levels: 'expert:wisdom=3': level expert takes no option 'wisdom' "
     "(its options: alarm, budget,"),
    (["--level", "normal:iterations=3"],
     "argument --level: 'normal:iterations=3': level normal takes no option 'iterations' "
     "(its options: none)"),
    (["--levels", "expert:iterations=0,normal,normal"],
     "iterations must be a whole number of at least 1, not 0"),
    (["--levels", "wizard,normal,normal"], "unknown level 'wizard'; levels are: random"),
    (["--levels", "ext:python3 bot.py,normal,normal"], "outside programs and ismcts play in"),
    (["--levels", "expert:iterations=5,normal"], "--levels names 2 levels; the game has 3"),
])
def test_a_bad_level_is_refused_saying_what_is_allowed(
        hearts_main: Callable[..., MainResult], args: list[str], says: str) -> None:
    status, out, err = hearts_main("play", "--text", *args)
    assert status == 2 and out == ""
    assert says in err


def test_the_full_screen_game_is_given_the_levels_as_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the start screen is filled with: the levels with their options."""
    given: list[GameSettings] = []

    class App:
        def __init__(self, settings: GameSettings, session: object) -> None:
            given.append(settings)
            self.game = None

        def run(self) -> None:
            pass

    monkeypatch.setattr("hearts.tui.app.HeartsApp", App)
    args = build_parser().parse_args(["play", "--levels", "expert:iterations=9,normal,hard"])
    assert isinstance(args, argparse.Namespace)
    assert cmd_play.run_screen(args) == 0
    assert given[0].levels == (HUMAN, "expert:iterations=9", "normal", "hard")


def test_a_challenge_leaves_no_level_to_choose(hearts_main: Callable[..., MainResult]) -> None:
    code = Challenge.create("card-commons", ["easy"] * 3, 1, "abc9").code
    status, _, err = hearts_main("play", "--text", "--level", "random", "--challenge", code)
    assert status == 2
    assert "--challenge sets the rules, the opponents and the deals; leave out --level" in err


def test_a_level_longer_than_a_record_keeps_is_refused_before_the_game(
        hearts_main: Callable[..., MainResult]) -> None:
    """The record states each level as given, at most MAX_LEVEL_TEXT characters: a longer
    one was taken, and the game failed at its end writing the record."""
    long = "expert:iterations=200," + ",".join(["game_weight=0"] * 16)
    assert len(long) > MAX_LEVEL_TEXT
    status, _, err = hearts_main("play", "--text", "--levels", f"{long},normal,normal")
    assert status == 2
    assert f"a level the game records is at most {MAX_LEVEL_TEXT} characters" in err
    assert level_problem(long) is not None and "at most" in str(level_problem(long))
