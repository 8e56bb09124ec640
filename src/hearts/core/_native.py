"""Which engine runs: the mypyc-compiled core modules, or their pure-Python sources.

The install compiles :data:`COMPILED_MODULES` (see ``setup.py``) and records the
SHA-256 of each source beside them. The compiled modules are used only while every
source still matches its digest: an editable checkout keeps the old extensions after
an edit, and a stale one would silently run the old rules. When any source differs, or
``HEARTS_PURE_PYTHON=1`` is set, or nothing was compiled, all of them load from their
``.py`` files (all or none: compiled modules call each other directly, not through
imports). The two builds behave the same; a test plays the same games on both.

This runs once, from ``hearts/core/__init__.py``, before any of those modules is
imported. It reads only the package's own files.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED_MODULES", "PURE_ENV", "choose_engine", "engine_in_use"]

COMPILED_MODULES = (
    "hearts.core.deal", "hearts.core.scoring", "hearts.core.state", "hearts.core.tricks",
)
PURE_ENV = "HEARTS_PURE_PYTHON"
MANIFEST = "_native_sources.json"

_PACKAGE_DIR = Path(__file__).parent


def _source(name: str) -> Path:
    """The ``.py`` file of one of the compiled modules."""
    return _PACKAGE_DIR / f"{name.rpartition('.')[2]}.py"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules at their ``.py`` files, ahead of any compiled extension."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname))


def _route_reason() -> tuple[str, bool] | None:
    """Why the compiled modules must not be used, and whether that is a stale build (worth
    a warning); None when they may be used."""
    if os.environ.get(PURE_ENV) == "1":
        return f"{PURE_ENV}=1 is set", False
    manifest = _PACKAGE_DIR / MANIFEST
    if not manifest.is_file():
        return "this install compiled nothing", False
    try:
        digests = json.loads(manifest.read_text())
    except (OSError, ValueError) as error:
        return f"{MANIFEST} is unreadable ({error})", False
    if not isinstance(digests, dict) or sorted(digests) != sorted(COMPILED_MODULES):
        return f"{MANIFEST} lists other modules than {', '.join(COMPILED_MODULES)}", False
    for name in COMPILED_MODULES:
        source = _source(name)
        if hashlib.sha256(source.read_bytes()).hexdigest() != digests[name]:
            return (f"{source.name} changed since it was compiled "
                    "(reinstall, e.g. `pip install -e .`, to rebuild)"), True
    return None


def choose_engine() -> str | None:
    """Route the compiled modules to their sources unless the compiled build is fresh;
    the reason when they are routed, else None."""
    routed = _route_reason()
    if routed is None:
        return None
    reason, stale = routed
    already = [name for name in COMPILED_MODULES if name in sys.modules]
    if already:  # too late to choose: say what is really loaded
        raise ImportError(f"{', '.join(already)} imported before hearts.core chose its engine")
    sys.meta_path.insert(0, _SourceFinder(COMPILED_MODULES))
    if stale:
        warnings.warn(f"hearts: using the pure-Python engine: {reason}", RuntimeWarning,
                      stacklevel=2)
    return reason


def engine_in_use() -> str:
    """Which engine the core modules really loaded from, in a line (benchmarks print it)."""
    loaded = [importlib.import_module(name) for name in COMPILED_MODULES]
    compiled = [module.__name__ for module in loaded
                if str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))]
    if len(compiled) == len(loaded):
        return "compiled (mypyc)"
    if not compiled:
        return f"pure Python ({_ROUTED_BECAUSE or 'no compiled module is installed'})"
    return f"mixed: only {', '.join(compiled)} compiled"


_ROUTED_BECAUSE = choose_engine()
