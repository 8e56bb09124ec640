"""The compiled ``normal`` decision (the ``hearts_players`` group) and its pure-Python
sources: the same decisions game after game, the group chosen alone, a stale build refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from golden_normal import GOLDEN_PATH, TABLES, play_digests
from native_install import copy_install, run_in, setup_groups

from hearts.core import _native as core_native
from hearts.players import _native

# The golden games of normal and shooter (every pass, play and moon choice of 260 games,
# a digest each), played by the same code in a child process.
GOLDEN_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from golden_normal import TABLES, play_digests
from hearts.players._native import engine_in_use
digests = {text: play_digests(text, games) for text, games in TABLES.items()}
print(json.dumps({"engine": engine_in_use(), "digests": digests}))
"""


def test_setup_compiles_exactly_the_modules_the_loader_guards() -> None:
    assert setup_groups()["hearts.players"] == _native.COMPILED_MODULES


def test_pure_and_compiled_players_make_the_same_decisions() -> None:
    if not _native.engine_in_use().startswith("compiled"):
        pytest.skip(f"no compiled players to compare: {_native.engine_in_use()}")
    env = {**os.environ, core_native.PURE_ENV: "1"}
    done = subprocess.run([sys.executable, "-c", GOLDEN_SCRIPT, str(Path(__file__).parent)],
                          capture_output=True, text=True, env=env, check=True, timeout=300)
    pure = json.loads(done.stdout)
    assert pure["engine"] == f"pure Python ({core_native.PURE_ENV}=1 is set)"
    compiled = {text: play_digests(text, games) for text, games in TABLES.items()}
    assert pure["digests"] == compiled == json.loads(GOLDEN_PATH.read_text())


ENGINES_SCRIPT = (
    "import hearts.players.rulebased.playing as p; "
    "from hearts.core._native import engine_in_use as core; "
    "from hearts.players._native import engine_in_use as players; "
    "print(core()); print(players()); print(p.__file__)")


def test_an_edited_player_source_loads_the_pure_players_with_a_warning(
        tmp_path: Path) -> None:
    players = copy_install(tmp_path) / "players"
    compiled_core = list((players.parent / "core").glob("state.*.so"))
    with (players / "rulebased" / "playing.py").open("a") as source:
        source.write("# an edit after the build\n")
    done = run_in(tmp_path, ENGINES_SCRIPT)
    core, engine, module_file = done.stdout.splitlines()
    assert engine.startswith("pure Python (playing.py changed since it was compiled")
    assert module_file == str(players / "rulebased" / "playing.py")
    assert "RuntimeWarning: hearts: using the pure-Python hearts.players" in done.stderr
    # the core is a group of its own: an edit of a player leaves it compiled
    assert core == ("compiled (mypyc)" if compiled_core else
                    "pure Python (no compiled module is installed)")


def test_an_unedited_install_loads_its_compiled_players(tmp_path: Path) -> None:
    players = copy_install(tmp_path) / "players"
    if not list(players.glob("knowledge.*.so")):
        pytest.skip("this install has no compiled players")
    done = run_in(tmp_path, ENGINES_SCRIPT)
    core, engine, module_file = done.stdout.splitlines()
    assert (core, engine) == ("compiled (mypyc)", "compiled (mypyc)")
    assert module_file.endswith(".so") and not done.stderr
