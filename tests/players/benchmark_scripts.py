"""The scripts of ``benchmarks/`` and ``examples/`` as modules, for the tests of what they
compute and of their options (they are scripts, not a package: each is loaded from its file
once per test run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["BENCHMARKS", "EXAMPLES", "load_benchmark", "load_script"]

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
EXAMPLES = BENCHMARKS.parent / "examples"


def load_benchmark(stem: str) -> ModuleType:
    """``benchmarks/{stem}.py``, loaded as the module ``benchmark_{stem}``."""
    return load_script(BENCHMARKS / f"{stem}.py")


def load_script(path: Path) -> ModuleType:
    """The script at ``path`` in ``benchmarks/`` or ``examples/``, loaded once as the
    module ``benchmark_{stem}`` or ``example_{stem}``."""
    name = f"{path.parent.name.removesuffix('s')}_{path.stem}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while building
    # a script imports its neighbours (``from load import choose``), as run from its folder
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module
