"""The arena on Ray: a small match on a local Ray gives the process pool's figures, with
progress as games arrive; without Ray, ``--ray`` says how to get it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from hearts.arena import ArenaError, MatchConfig, report, run_match
from hearts.arena.cluster import run_match_ray
from hearts.arena.match import GameOutcome
from hearts.cli.main import main
from hearts.core import Rules

RULES = Rules.parse("standard:target=30")
CONFIG = MatchConfig(RULES, ("normal", "random", "normal", "random"), 2, "ray-match")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _games(outcomes: tuple[GameOutcome, ...]) -> list[tuple[object, ...]]:
    """What each game gave, without its decision times."""
    return [(o.deal_set, o.rotation, o.seating, o.points, o.shooters, o.totals, o.winners)
            for o in outcomes]


def test_ray_gives_the_process_pool_figures_with_progress_as_games_arrive(
        local_ray: Any) -> None:
    seen: list[tuple[int, int]] = []
    on_ray = run_match_ray(CONFIG, progress=lambda done, total: seen.append((done, total)))
    pooled = run_match(CONFIG, workers=2)
    assert report(on_ray)["figures"] == report(pooled)["figures"]
    assert _games(on_ray.outcomes) == _games(pooled.outcomes)  # in deal-set order
    assert seen == [(done, 4) for done in range(1, 5)]  # 2 deal sets x 2 rotations
    assert local_ray.is_initialized()  # a session it found is left running


def test_the_arena_command_runs_on_ray(local_ray: Any,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--rules", "standard:target=30", "--bot", "easy", "--bot", "random",
            "--deal-sets", "2", "--seed", "cli-ray", "--json", "--quiet"]
    assert main([*argv, "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main([*argv, "--workers", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_ray["figures"] == local["figures"]
    assert on_ray["figures"]["games"] == 4


def test_without_ray_the_arena_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(ArenaError, match=r"\[cluster\]"):
        run_match_ray(CONFIG)
