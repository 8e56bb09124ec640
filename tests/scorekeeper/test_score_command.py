"""``hearts score``: plain prompts through a real subprocess, and the Textual screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hearts.core import Sheet
from hearts.persistence import load_sheet
from hearts.scoresheet import entry_help
from hearts.tui.dialogs import MoonScreen
from hearts.tui.score_app import ScoreApp


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home


def hearts(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hearts.cli.main", "score", *args],
                          input=stdin, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}, check=False)


def test_plain_prompts_keep_the_sheet_refuse_bad_rounds_and_announce_the_winner(
        hearts_home: Path) -> None:
    rounds = "\n".join([
        "Ann, Bo, Cy, Di",
        "13 5 6 0",        # adds to 24: refused
        "13 5 8 0",
        "0 26 0 0",        # Bo shoots the moon: -26 under card-commons
        "fix",
        "5h q 8h 0",       # the moon was a typing mistake: corrected
        "20 6 0 0",
    ]) + "\n"
    done = hearts("--rules", "card-commons:target=30", "--name", "friday", stdin=rounds)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "error: the points add up to 24; a round holds 26: 13 hearts and the Q♠ 13" in out
    assert "2. Ann +0 = 13, Bo -26 (moon) = -21" in out
    assert "2. Ann +5 = 18, Bo +13 = 18, Cy +8 = 16, Di +0 = 0" in out
    assert "Game over. Winner: Di" in out
    sheet = load_sheet("friday")
    assert sheet.totals == (38, 24, 16, 0) and sheet.winners == (3,)
    assert (hearts_home / "sheets" / "friday.json").exists()


def test_plain_prompts_ask_the_shooters_choice_under_classic() -> None:
    done = hearts("--rules", "classic", "--names", "A,B,C", "--name", "c3",
                  stdin="0 0 26\nadd\n")
    assert done.returncode == 0, done.stderr
    assert "C shot the moon: (s)ubtract from C, or (a)dd to everyone else?" in done.stdout
    assert "1. A +26 = 26, B +26 = 26, C +0 (moon) = 0" in done.stdout


def test_reopen_and_export_a_saved_sheet() -> None:
    hearts("--names", "Ann,Bo,Cy,Di", "--name", "club", stdin="13 13 0 0\n")
    more = hearts("--open", "club", stdin="0 0 13 13\n")
    assert "2. Ann +0 = 13" in more.stdout
    csv_text = hearts("--open", "club", "--export", "csv").stdout
    assert csv_text.splitlines()[2] == "2,0,13,0,13,13,13,13,13,"
    md = hearts("--open", "club", "--export", "md").stdout
    assert md.startswith("| Round | Ann | Ann total |")
    missing = hearts("--open", "nobody")
    assert missing.returncode == 2 and "no sheet named 'nobody'" in missing.stderr


def test_a_downloaded_sheet_file_opens_is_kept_and_goes_on(tmp_path: Path) -> None:
    hearts("--names", "Ann,Bo,Cy,Di", "--name", "phone", stdin="13 13 0 0\n")
    download = tmp_path / "hearts-score-2026-12-07.json"  # the phone page's file
    download.write_text(json.dumps(load_sheet("phone").to_json()), encoding="utf-8")
    csv_text = hearts("--open", str(download), "--export", "csv").stdout
    assert csv_text.splitlines()[1] == "1,13,13,13,13,0,0,0,0,"
    assert not (tmp_path / "home" / "sheets" / "hearts-score-2026-12-07.json").exists()
    both = hearts("--open", str(download), "--names", "A,B,C,D", stdin="0 0 13 13\n")
    assert both.returncode == 2 and "--names starts a new sheet" in both.stderr
    assert not (tmp_path / "home" / "sheets" / "hearts-score-2026-12-07.json").exists()
    more = hearts("--open", str(download), stdin="0 0 13 13\n")
    assert more.returncode == 0, more.stderr
    assert (f"{download} is kept as the sheet 'hearts-score-2026-12-07'" in more.stdout
            and "reopen it with --open 'hearts-score-2026-12-07'" in more.stdout)
    assert "2. Ann +0 = 13" in more.stdout
    assert load_sheet("hearts-score-2026-12-07").totals == (13, 13, 13, 13)
    odd = tmp_path / "sheet (1).json"
    odd.write_text(download.read_text(encoding="utf-8"), encoding="utf-8")
    assert "is kept as the sheet 'sheet -1'" in hearts("--open", str(odd), stdin="").stdout


@pytest.mark.parametrize(("content", "message"), [
    (None, "does not exist"),
    ("not json", "cannot be read"),
    ('{"format": "card-commons-hearts/game"}', "error: "),
])
def test_a_sheet_file_that_is_no_sheet_is_refused_and_nothing_is_kept(
        tmp_path: Path, hearts_home: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = hearts("--open", str(path), stdin="13 13 0 0\n")
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (hearts_home / "sheets").exists() or not any((hearts_home / "sheets").iterdir())


async def test_the_score_screen_refuses_a_bad_round_and_asks_the_moon_choice(
        hearts_home: Path) -> None:
    app = ScoreApp(name="screen", rules_text="classic")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"Ann, Bo, Cy, Di", "enter")
        await pilot.press(*"7 7 6 6", "enter")
        assert "nobody took the Q♠" in str(app.query_one("#message").render())
        await pilot.press("ctrl+u", *"0 0 26 0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MoonScreen)
        await pilot.press("s")
        await pilot.pause()
        assert app.sheet is not None and app.sheet.results[0].points == (0, 0, -26, 0)
        await pilot.press(*"13 13 0 0", "enter", "ctrl+f", *"0 13 13 0", "enter")
        await pilot.press("ctrl+e")
        await pilot.pause()
    saved = Sheet.from_json(json.loads((hearts_home / "sheets" / "screen.json").read_text()))
    assert saved.totals == (0, 13, -13, 0)
    assert (hearts_home / "sheets" / "screen.csv").read_text().startswith("Round,Ann,")


async def test_the_score_screen_saves_nothing_before_a_round_and_never_replaces_a_sheet(
        hearts_home: Path) -> None:
    kept = hearts("--names", "Ann,Bo,Cy,Di", "--name", "taken", stdin="13 13 0 0\n")
    assert kept.returncode == 0
    before = (hearts_home / "sheets" / "taken.json").read_text()
    app = ScoreApp(name="taken", rules_text="card-commons")  # as if started meanwhile
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"Ann,,Cy", "enter")
        assert "every player needs a name" in str(app.query_one("#message").render())
        await pilot.press("ctrl+u", *"Eve, Fay, Gus", "enter")
        await pilot.pause()
        assert app.sheet is not None and app.sheet.rules.players == 3
        assert not (hearts_home / "sheets" / "taken-2.json").exists()  # no round: no file
        await pilot.press(*"13 13 0", "enter")
        await pilot.pause()
        assert "was saved meanwhile" in str(app.query_one("#message").render())
    assert (hearts_home / "sheets" / "taken.json").read_text() == before
    again = Sheet.from_json(json.loads((hearts_home / "sheets" / "taken-2.json").read_text()))
    assert again.names == ("Eve", "Fay", "Gus") and len(again.results) == 1


@pytest.mark.parametrize(("text", "said"), [
    ("1" * 5000, "a number has more digits than a reader takes (over 4,300)"),
    ('{"format": NaN}', "NaN is not a JSON number"),
])
def test_a_sheet_file_json_cannot_hold_is_one_error_line(tmp_path: Path, text: str,
                                                         said: str) -> None:
    """Python's digit limit once reached the command line as a bare ValueError."""
    sheet = tmp_path / "sheet.json"
    sheet.write_text(text, encoding="utf-8")
    done = hearts("--open", str(sheet), "--export", "csv")
    assert done.returncode == 2
    assert done.stderr == f"hearts: error: {sheet} cannot be read: {said}\n"


def test_the_plain_entry_help_offers_the_jack_only_under_its_house_rule() -> None:
    """The help once offered "j = the J♦" and "8hj" under rules where the J♦ scores
    nothing (a points entry with j is refused there)."""
    plain = hearts("--names", "Ann,Bo,Cy,Di", "--name", "nojack", stdin="help\n")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.count("5h = five hearts, q = the Q♠, 0 = none (5h q 8h 0)") == 2
    assert "J♦" not in plain.stdout
    jack = hearts("--rules", "card-commons:jack_of_diamonds=on", "--names", "Ann,Bo,Cy,Di",
                  "--name", "jack", stdin="help\n13 5 -2j 0\n")
    assert jack.stdout.count("j on the J♦'s taker (5 13 -2j 0)") == 2
    assert jack.stdout.count("j = the J♦ (house rule), 0 = none (5h q 8hj 0)") == 2
    assert "1. Ann +13 = 13, Bo +5 = 5, Cy -2 = -2, Di +0 = 0" in jack.stdout


async def test_the_score_screen_helps_with_the_rounds_of_its_own_rules(
        hearts_home: Path) -> None:
    for rules, jack in (("card-commons", False), ("card-commons:jack_of_diamonds=on", True)):
        app = ScoreApp(name=f"help-{jack}", rules_text=rules)
        async with app.run_test(size=(80, 24)) as pilot:
            assert str(app.query_one("#help").render()) == ""  # names first: rules to come
            await pilot.press(*"Ann, Bo, Cy, Di", "enter")
            await pilot.pause()
            assert app.sheet is not None
            shown = str(app.query_one("#help").render())
            assert shown == entry_help(app.sheet.rules) and ("J♦" in shown) is jack
