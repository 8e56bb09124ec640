"""The compiled engine and its pure-Python sources: the same games and views, and a stale
build refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from native_install import copy_install, run_in, setup_groups

from hearts.core import _native

# Seeded random games on every preset, played by the same code in a child process, with
# what every seat and a spectator saw of each state (a digest: the views are many).
GAMES_SCRIPT = """
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
from hearts_scenarios import random_action
from hearts.core import Rules, game_record, new_game, views
from hearts.core._native import engine_in_use
games = [(name, players, seed) for name, counts in
         (("card-commons", (3, 4)), ("standard", (4,)), ("classic", (2, 3, 4, 5, 6)))
         for players in counts for seed in range(3)]
records, seen = [], hashlib.sha256()
for name, players, seed in games:
    rng = random.Random(seed)
    state = new_game(Rules.preset_rules(name, players).replace(target=60), seed)
    while True:
        for v in views(state, [*range(players), None]):
            facts = [v.to_json(), v.excluded, v.round_plays, v.points_left, v.winning,
                     v.still_to_play, v.unseen().mask, [sorted(s) for s in v.voids()]]
            seen.update(json.dumps(facts).encode())
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    records.append(game_record(state))
print(json.dumps({"engine": engine_in_use(), "records": records, "views": seen.hexdigest()}))
"""


def run_games(env_extra: dict[str, str]) -> dict[str, object]:
    """The engine line and the game records that a child process with ``env_extra`` gives."""
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-c", GAMES_SCRIPT, str(Path(__file__).parent)],
                          capture_output=True, text=True, env=env, check=True, timeout=300)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_setup_compiles_exactly_the_modules_the_loader_guards() -> None:
    assert setup_groups()["hearts.core"] == _native.COMPILED_MODULES


def test_pure_and_compiled_engines_play_the_same_games() -> None:
    if not _native.engine_in_use().startswith("compiled"):
        pytest.skip(f"no compiled engine to compare: {_native.engine_in_use()}")
    pure = run_games({_native.PURE_ENV: "1"})
    compiled = run_games({_native.PURE_ENV: "0"})
    assert pure["engine"] == f"pure Python ({_native.PURE_ENV}=1 is set)"
    assert compiled["engine"] == "compiled (mypyc)"
    assert pure["records"] == compiled["records"]
    assert pure["views"] == compiled["views"]


ENGINE_SCRIPT = ("import hearts.core.state as s; from hearts.core._native import engine_in_use; "
                 "print(engine_in_use()); print(s.__file__)")


def test_an_edited_source_loads_the_pure_engine_with_a_warning(tmp_path: Path) -> None:
    core = copy_install(tmp_path) / "core"
    with (core / "state.py").open("a") as source:
        source.write("# an edit after the build\n")
    done = run_in(tmp_path, ENGINE_SCRIPT)
    engine, module_file = done.stdout.splitlines()
    assert engine.startswith("pure Python (state.py changed since it was compiled")
    assert module_file == str(core / "state.py")
    assert "RuntimeWarning: hearts: using the pure-Python hearts.core" in done.stderr


def test_an_unedited_install_loads_its_compiled_modules(tmp_path: Path) -> None:
    core = copy_install(tmp_path) / "core"
    if not list(core.glob("state.*.so")):
        pytest.skip("this install has no compiled modules")
    done = run_in(tmp_path, ENGINE_SCRIPT)
    engine, module_file = done.stdout.splitlines()
    assert engine == "compiled (mypyc)"
    assert module_file.endswith(".so") and not done.stderr
