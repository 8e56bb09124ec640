"""``--workers`` past the CPUs this process may use is cut to them, saying so, by one
helper (``hearts.cli.common.worker_count``) that ``hearts arena`` and ``hearts analyze``
both ask: more workers would only share the CPUs, and a search on a clock would find
fewer worlds."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import hearts.cli.cmd_arena  # noqa: F401  binds the real usable_cpus before a test patches it
from hearts.core import Rules, game_record, new_game
from hearts.players import RandomPlayer
from hearts.players.driver import run_game

MainResult = tuple[int, str, str]


@pytest.fixture
def one_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process may use one CPU, whatever the machine running the test has."""
    monkeypatch.setattr("hearts.cli.common.usable_cpus", lambda: 1)


def test_arena_workers_beyond_the_cpus_are_cut_saying_so(
        hearts_main: Callable[..., MainResult], one_cpu: None) -> None:
    status, out, err = hearts_main("arena", "--rules", "standard:rounds=1", "--bot", "random",
                                   "--deal-sets", "1", "--seed", "w", "--workers", "1000",
                                   "--quiet", "--json")
    assert status == 0, err
    assert err == ("hearts arena: --workers 1000 is more than the 1 CPU this process may "
                   "use; playing on 1\n")
    assert json.loads(out)["run"]["workers"] == 1


def test_arena_workers_within_the_cpus_are_kept_without_a_word(
        hearts_main: Callable[..., MainResult]) -> None:
    status, out, err = hearts_main("arena", "--rules", "standard:rounds=1", "--bot", "random",
                                   "--deal-sets", "1", "--seed", "w", "--workers", "1",
                                   "--quiet", "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["run"]["workers"] == 1


def test_analyze_and_arena_cut_workers_with_the_one_helper(
        hearts_main: Callable[..., MainResult], one_cpu: None, tmp_path: Path) -> None:
    """Both ask ``worker_count``: patched to one CPU there, both cut to one, in the same
    words."""
    rules = Rules.parse("standard:rounds=1")
    record = game_record(run_game(new_game(rules, seed="w"),
                                  [RandomPlayer(s) for s in range(4)]))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, _, analyzed = hearts_main("analyze", str(path), "--seats", "0", "--seed", "1",
                                      "--iterations", "2", "--workers", "7", "--quiet",
                                      "--json")
    assert status == 0, analyzed
    status, _, played = hearts_main("arena", "--rules", "standard:rounds=1", "--bot",
                                    "random", "--deal-sets", "1", "--seed", "w", "--workers",
                                    "7", "--quiet", "--json")
    assert status == 0, played
    said = "--workers 7 is more than the 1 CPU this process may use"
    assert analyzed == f"hearts analyze: {said}; judging on 1\n"
    assert played == f"hearts arena: {said}; playing on 1\n"
