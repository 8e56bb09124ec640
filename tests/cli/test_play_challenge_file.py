"""``hearts play --challenge`` without ``--record`` keeps the play in a new file here, and
never over another play's: two plays of one challenge in one folder at once each keep
their own file, whichever ends first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.cli.conftest import MainResult

from hearts.challenge import Challenge, check_entry
from hearts.cli import cmd_play
from hearts.cli.textplay import Outcome, TextGame
from hearts.core import parse_record

CHALLENGE = Challenge.create("card-commons", ["easy", "normal", "random"], 1, "tw0p4ys")


def test_a_play_that_ends_after_another_began_keeps_both_files(
        hearts_main: Callable[..., MainResult], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    first = tmp_path / f"challenge-{CHALLENGE.code}.json"

    class OtherPlayEndsMeanwhile(TextGame):
        """While this play goes on, another play of the challenge here saves its file
        under the name that was free when this one began."""

        def play(self) -> Outcome:
            outcome = super().play()
            first.write_text("the other play's record\n", encoding="utf-8")
            return outcome

    monkeypatch.setattr(cmd_play, "TextGame", OtherPlayEndsMeanwhile)
    status, out, err = hearts_main("play", "--text", "--challenge", CHALLENGE.code,
                                   stdin="quit\n")
    assert status == 0, err
    assert first.read_text(encoding="utf-8") == "the other play's record\n"
    mine = tmp_path / f"challenge-{CHALLENGE.code}-2.json"
    assert f"Saved the game so far to {mine.name}\n" in out
    record = parse_record(mine.read_text(encoding="utf-8"))
    assert record["challenge"] == CHALLENGE.code
    assert not check_entry(CHALLENGE, record).complete
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, mine.name])


def test_a_record_file_named_is_written_as_asked(
        hearts_main: Callable[..., MainResult], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """``--record FILE`` is the person's own choice of file: it is written there."""
    monkeypatch.chdir(tmp_path)
    named = tmp_path / "mine.json"
    named.write_text("an older play\n", encoding="utf-8")
    status, _, err = hearts_main("play", "--text", "--challenge", CHALLENGE.code,
                                   "--record", str(named), stdin="quit\n")
    assert status == 0, err
    assert parse_record(named.read_text(encoding="utf-8"))["challenge"] == CHALLENGE.code
    assert [p.name for p in tmp_path.iterdir()] == ["mine.json"]
