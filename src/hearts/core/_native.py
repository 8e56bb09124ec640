"""Which engine runs: mypyc-compiled modules, or their pure-Python sources.

The install compiles groups of hot modules (see ``setup.py``): the core's
(:data:`COMPILED_MODULES`, chosen here) and the rule-based players' (chosen by
``hearts.players._native`` through the same :class:`CompiledGroup`). Beside each group's
package it records the SHA-256 of every source it compiled. A group's compiled modules
are used only while every source of the group still matches its digest: an editable
checkout keeps the old extensions after an edit, and a stale one would silently run the
old code. When any source differs, or ``HEARTS_PURE_PYTHON=1`` is set, or nothing was
compiled, all of the group's modules load from their ``.py`` files (all or none:
compiled modules of one group call each other directly, not through imports; groups
call each other only through imports, so each chooses alone). The two builds behave the
same; tests play the same games on both.

The core's choice runs once, from ``hearts/core/__init__.py``, before any of its
modules is imported. It reads only the package's own files.
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

__all__ = ["COMPILED_MODULES", "MANIFEST", "PURE_ENV", "CompiledGroup", "choose_engine",
           "engine_in_use"]

COMPILED_MODULES = (
    "hearts.core.deal", "hearts.core.scoring", "hearts.core.state", "hearts.core.tricks",
    "hearts.core.view",
)
PURE_ENV = "HEARTS_PURE_PYTHON"
MANIFEST = "_native_sources.json"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds a group's modules at their ``.py`` files, ahead of any compiled extension."""

    def __init__(self, group: CompiledGroup) -> None:
        self.group = group

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.group.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, self.group.source(fullname))


class CompiledGroup:
    """One group of modules compiled together, under one package, with its manifest."""

    def __init__(self, package: str, directory: Path, modules: Sequence[str]) -> None:
        self.package = package
        self.directory = directory
        self.modules = tuple(modules)
        self.routed_because: str | None = None

    def source(self, name: str) -> Path:
        """The ``.py`` file of one of the group's modules."""
        relative = name.removeprefix(f"{self.package}.").split(".")
        return self.directory.joinpath(*relative[:-1], f"{relative[-1]}.py")

    def _route_reason(self) -> tuple[str, bool] | None:
        """Why the compiled modules must not be used, and whether that is a stale build
        (worth a warning); None when they may be used."""
        if os.environ.get(PURE_ENV) == "1":
            return f"{PURE_ENV}=1 is set", False
        manifest = self.directory / MANIFEST
        if not manifest.is_file():
            return "this install compiled nothing", False
        try:
            digests = json.loads(manifest.read_text())
        except (OSError, ValueError) as error:
            return f"{MANIFEST} is unreadable ({error})", False
        if not isinstance(digests, dict) or sorted(digests) != sorted(self.modules):
            return f"{MANIFEST} lists other modules than {', '.join(self.modules)}", False
        for name in self.modules:
            source = self.source(name)
            if hashlib.sha256(source.read_bytes()).hexdigest() != digests[name]:
                return (f"{source.name} changed since it was compiled "
                        "(reinstall, e.g. `pip install -e .`, to rebuild)"), True
        return None

    def choose(self) -> str | None:
        """Route the group's modules to their sources unless the compiled build is fresh;
        the reason when they are routed, else None."""
        routed = self._route_reason()
        if routed is None:
            return None
        reason, stale = routed
        already = [name for name in self.modules if name in sys.modules]
        if already:  # too late to choose: say what is really loaded
            raise ImportError(f"{', '.join(already)} imported before {self.package} chose "
                              "its engine")
        sys.meta_path.insert(0, _SourceFinder(self))
        if stale:
            warnings.warn(f"hearts: using the pure-Python {self.package}: {reason}",
                          RuntimeWarning, stacklevel=2)
        self.routed_because = reason
        return reason

    def in_use(self) -> str:
        """Which build the group's modules really loaded from, in a line."""
        loaded = [importlib.import_module(name) for name in self.modules]
        compiled = [module.__name__ for module in loaded if str(module.__file__).endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES))]
        if len(compiled) == len(loaded):
            return "compiled (mypyc)"
        if not compiled:
            return f"pure Python ({self.routed_because or 'no compiled module is installed'})"
        return f"mixed: only {', '.join(compiled)} compiled"


_CORE = CompiledGroup("hearts.core", Path(__file__).parent, COMPILED_MODULES)


def choose_engine() -> str | None:
    """Choose the core's build (see :meth:`CompiledGroup.choose`)."""
    return _CORE.choose()


def engine_in_use() -> str:
    """Which engine the core modules really loaded from, in a line (benchmarks print it)."""
    return _CORE.in_use()


choose_engine()
