"""``benchmarks/same_play.py``: two versions of the tree play the same games, or the first
game that differs is named."""

from __future__ import annotations

import json

import pytest
from tests.players.benchmark_scripts import load_benchmark

SAME_PLAY = load_benchmark("same_play")


@pytest.mark.parametrize(("old", "new", "first"), [
    (["a", "b"], ["a", "b"], None),
    (["a", "b", "c"], ["a", "x", "c"], 1),
    (["a", "b"], ["a", "b", "c"], 2),  # a game one side lacks differs
    (["a", "b"], ["a"], 1),
    ([], [], None),
])
def test_the_first_game_that_differs_is_found(old: list[str], new: list[str],
                                               first: int | None) -> None:
    assert SAME_PLAY.first_difference(old, new) == first


def test_one_revision_plays_as_itself_through_both_exported_trees(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The whole path, git export to records compared: the same commit on both sides plays
    the same games under one code, so there is no PLAYS_AS entry to add."""
    done = SAME_PLAY.main(["--old", "HEAD", "--new", "HEAD", "--bot", "normal", "--bot",
                           "easy", "--rules", "standard:target=30", "--deal-sets", "1"])
    said = capsys.readouterr().out
    assert done == 0, said
    assert "2 and 2 games" in said and "every game is the same, card for card" in said
    assert "PLAYS_AS entry" not in said


def test_a_version_that_cannot_play_the_match_is_named_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An old tree that refuses the lineup (an option it predates) ends the check with its
    own message and exit 2."""
    def refuse(src: object, args: object, into: object) -> list[str]:
        raise RuntimeError("-m hearts.cli.main arena failed with the tree at OLD:\n"
                           "hearts: error: level expert takes no option 'game_weight'")

    monkeypatch.setattr(SAME_PLAY, "_records", refuse)
    assert SAME_PLAY.main(["--old", "HEAD", "--new", "HEAD"]) == 2
    said = capsys.readouterr()
    assert "takes no option 'game_weight'" in said.err and said.out == ""


def test_games_are_compared_by_their_play_not_by_who_is_said_to_have_played() -> None:
    """A record that gains a member saying who played (``people``) plays as before; a
    changed card does not."""
    record = {"rules": "standard", "seed": "s/d0", "seats": ["easy"] * 4,
              "rounds": [{"round": 1, "plays": ["2C", "3C"]}], "totals": [1, 2, 3, 4]}
    line = json.dumps({"deal_set": 0, "rotation": 0, "record": record})
    told = json.dumps({"deal_set": 0, "rotation": 0, "record": {**record, "people": []}})
    played = json.dumps({"deal_set": 0, "rotation": 0, "record": {
        **record, "rounds": [{"round": 1, "plays": ["2C", "4C"]}]}})
    assert SAME_PLAY.play_of(line) == SAME_PLAY.play_of(told) != SAME_PLAY.play_of(played)
    rotated = json.dumps({"deal_set": 0, "rotation": 1, "record": record})
    assert SAME_PLAY.play_of(rotated) != SAME_PLAY.play_of(line)
