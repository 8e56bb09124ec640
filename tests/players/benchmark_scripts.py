"""The scripts of ``benchmarks/`` as modules, for the tests of what they compute (they are
scripts, not a package: each is loaded from its file once per test run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["BENCHMARKS", "load_benchmark"]

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(stem: str) -> ModuleType:
    """``benchmarks/{stem}.py``, loaded as the module ``benchmark_{stem}``."""
    name = f"benchmark_{stem}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{stem}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while building
    # a script imports its neighbours (``from load import choose``), as run from its folder
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module
