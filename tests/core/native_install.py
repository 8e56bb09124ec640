"""A copy of the installed package in a scratch folder, for the tests of which build of
each compiled group (``hearts.core._native``) a fresh process loads."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import hearts
from hearts.core import _native as core_native
from hearts.players import _native as players_native

__all__ = ["GROUPS", "PACKAGE", "copy_install", "run_in", "setup_groups"]

PACKAGE = Path(hearts.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[2]
# Each compiled group: its package's folder under hearts/, and its modules.
GROUPS = {"core": core_native.COMPILED_MODULES, "players": players_native.COMPILED_MODULES}


def copy_install(destination: Path) -> Path:
    """A copy of the installed package (and mypyc's shared libraries beside it, if any)
    whose manifests match its sources, as a fresh build's do; the copied ``hearts``."""
    copied = destination / "hearts"
    shutil.copytree(PACKAGE, copied,
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    for shared in PACKAGE.parent.glob("*__mypyc*"):
        shutil.copy2(shared, destination)
    for folder, modules in GROUPS.items():
        group = core_native.CompiledGroup(f"hearts.{folder}", copied / folder, modules)
        digests = {name: hashlib.sha256(group.source(name).read_bytes()).hexdigest()
                   for name in modules}
        (copied / folder / core_native.MANIFEST).write_text(json.dumps(digests))
    return copied


def run_in(install: Path, script: str) -> subprocess.CompletedProcess[str]:
    """What a child process running ``script`` on the copied install prints."""
    env = {**os.environ, "PYTHONPATH": str(install)}
    env.pop(core_native.PURE_ENV, None)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True, timeout=60)


def setup_groups() -> dict[str, tuple[str, ...]]:
    """``COMPILED_GROUPS`` as ``setup.py`` writes it (read, not run)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed: dict[str, tuple[str, ...]] = next(
        ast.literal_eval(node.value) for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED_GROUPS" for t in node.targets))
    return listed
