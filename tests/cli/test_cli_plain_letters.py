"""``--plain`` means cards as letters wherever it is given to show cards: ``hearts play
--plain`` in the line mode too (it was taken and silently ignored there), as the README
promises screen readers; ``hearts score`` calls its line mode ``--text``, as ``play``
does, and still takes ``--plain``, its old name, for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearts.challenge import Challenge

SYMBOLS = set("♣♦♠♥")
CHALLENGE = Challenge.create("card-commons", ["easy", "easy", "easy"], 1, "pype7", 16)


@pytest.mark.parametrize("plain", [False, True])
def test_play_text_shows_letters_with_plain(hearts_cli, plain: bool) -> None:
    done = hearts_cli("play", "--text", "--seed", "2", *(["--plain"] if plain else []),
                      stdin="hand\nhelp\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Pass>" in done.stdout
    shown = SYMBOLS & set(done.stdout)
    if plain:
        assert shown == set() and "QS" in done.stdout
    else:
        assert shown == SYMBOLS and "Q♠" in done.stdout


def test_a_challenge_in_text_shows_letters_with_plain(hearts_cli, tmp_path: Path) -> None:
    done = hearts_cli("play", "--text", "--plain", "--challenge", CHALLENGE.code,
                      "--record", str(tmp_path / "play.json"), stdin="hand\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Pass>" in done.stdout and SYMBOLS & set(done.stdout) == set()


@pytest.mark.parametrize("option", ["--text", "--plain"])
def test_score_takes_text_for_its_line_mode_and_plain_still(
        hearts_main, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str) -> None:
    monkeypatch.setenv("HEARTS_HOME", str(tmp_path))
    status, out, err = hearts_main("score", option, "--names", "Ann,Bo,Cy,Di",
                                   stdin="13 13 0 0\nquit\n")
    assert (status, err) == (0, "")
    assert "1. Ann +13 = 13" in out and "Saved to" in out
