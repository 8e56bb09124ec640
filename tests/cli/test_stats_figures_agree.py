"""One meaning and one name for a figure in every command: ``hearts stats`` over the
records ``hearts simulate`` wrote gives each seat the wins, shared wins and moons that
``simulate`` itself summed up (a tie's win split among its winners in both)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

MainResult = tuple[int, str, str]
# One round a game: ties for the lowest total are common (two in these twelve games).
RULES = "standard:rounds=1"


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    return home


def test_stats_of_simulated_games_are_the_simulations_own_figures(
        hearts_main: Callable[..., MainResult], hearts_home: Path) -> None:
    status, out, err = hearts_main("simulate", "--games", "12", "--seed", "tie", "--rules",
                                   RULES, "--json", "--quiet",
                                   "--records", str(hearts_home / "games"))
    assert status == 0, err
    simulated = json.loads(out)
    assert sum(simulated["wins"]) == pytest.approx(simulated["games"])
    shown = []
    for name in simulated["seats"]:
        status, out, err = hearts_main("stats", "--json", "--player", name)
        assert status == 0, err
        [figures] = json.loads(out)["presets"]
        assert figures["games"] == simulated["games"]
        shown.append(figures)
    assert [figures["wins"] for figures in shown] == pytest.approx(simulated["wins"])
    for key in ("shared_wins", "moons_shot", "moons_allowed"):
        assert [figures[key] for figures in shown] == simulated[key], key
    assert simulated["tied_games"] > 0  # or the wins could not tell the meanings apart


def test_the_text_of_both_says_what_a_win_and_a_shared_win_are(
        hearts_main: Callable[..., MainResult], hearts_home: Path) -> None:
    status, simulated, err = hearts_main("simulate", "--games", "12", "--seed", "tie",
                                         "--rules", RULES, "--quiet",
                                         "--records", str(hearts_home / "games"))
    assert status == 0, err
    status, stats, err = hearts_main("stats", "--player", "random 1")
    assert status == 0, err
    meaning = ("games won, a tie's win split among its winners (a tie of two: a half each); "
               "shared wins: games won in a tie, each counted whole")
    for text in (simulated, stats):
        assert meaning in " ".join(text.split())
    rows = {line[:26].strip(): line[26:].strip() for line in stats.splitlines()[2:12]}
    assert "shared wins" in rows and "wins" in rows
