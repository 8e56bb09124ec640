"""The compiled engine and its pure-Python sources: the same games, and a stale build refused."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hearts
from hearts.core import _native

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(hearts.__file__).resolve().parent

# Seeded random games on every preset, played by the same code in a child process.
GAMES_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from hearts_scenarios import random_game
from hearts.core import Rules, game_record
from hearts.core._native import engine_in_use
games = [(name, players, seed) for name, counts in
         (("card-commons", (3, 4)), ("standard", (4,)), ("classic", (2, 3, 4, 5, 6)))
         for players in counts for seed in range(3)]
records = [game_record(random_game(Rules.preset_rules(name, players).replace(target=60), seed))
           for name, players, seed in games]
print(json.dumps({"engine": engine_in_use(), "records": records}))
"""


def run_games(env_extra: dict[str, str]) -> dict[str, object]:
    """The engine line and the game records that a child process with ``env_extra`` gives."""
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-c", GAMES_SCRIPT, str(Path(__file__).parent)],
                          capture_output=True, text=True, env=env, check=True, timeout=300)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_setup_compiles_exactly_the_modules_the_loader_guards() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "COMPILED_MODULES"
                          for t in node.targets))
    assert tuple(listed) == _native.COMPILED_MODULES


def test_pure_and_compiled_engines_play_the_same_games() -> None:
    if not _native.engine_in_use().startswith("compiled"):
        pytest.skip(f"no compiled engine to compare: {_native.engine_in_use()}")
    pure = run_games({_native.PURE_ENV: "1"})
    compiled = run_games({_native.PURE_ENV: "0"})
    assert pure["engine"] == f"pure Python ({_native.PURE_ENV}=1 is set)"
    assert compiled["engine"] == "compiled (mypyc)"
    assert pure["records"] == compiled["records"]


def copy_install(destination: Path) -> Path:
    """A copy of the installed package (and mypyc's shared library beside it, if any)."""
    shutil.copytree(PACKAGE, destination / "hearts",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    for shared in PACKAGE.parent.glob("*__mypyc*"):
        shutil.copy2(shared, destination)
    core = destination / "hearts" / "core"
    digests = {name: hashlib.sha256((core / f"{name.rpartition('.')[2]}.py").read_bytes())
               .hexdigest() for name in _native.COMPILED_MODULES}
    (core / _native.MANIFEST).write_text(json.dumps(digests))
    return core


ENGINE_SCRIPT = ("import hearts.core.state as s; from hearts.core._native import engine_in_use; "
                 "print(engine_in_use()); print(s.__file__)")


def engine_of(install: Path) -> subprocess.CompletedProcess[str]:
    """What a child process importing the copied install reports."""
    env = {**os.environ, "PYTHONPATH": str(install)}
    env.pop(_native.PURE_ENV, None)
    return subprocess.run([sys.executable, "-c", ENGINE_SCRIPT], capture_output=True,
                          text=True, env=env, check=True, timeout=60)


def test_an_edited_source_loads_the_pure_engine_with_a_warning(tmp_path: Path) -> None:
    core = copy_install(tmp_path)
    with (core / "state.py").open("a") as source:
        source.write("# an edit after the build\n")
    done = engine_of(tmp_path)
    engine, module_file = done.stdout.splitlines()
    assert engine.startswith("pure Python (state.py changed since it was compiled")
    assert module_file == str(core / "state.py")
    assert "RuntimeWarning: hearts: using the pure-Python engine" in done.stderr


def test_an_unedited_install_loads_its_compiled_modules(tmp_path: Path) -> None:
    core = copy_install(tmp_path)
    if not list(core.glob("state.*.so")):
        pytest.skip("this install has no compiled modules")
    done = engine_of(tmp_path)
    engine, module_file = done.stdout.splitlines()
    assert engine == "compiled (mypyc)"
    assert module_file.endswith(".so") and not done.stderr
