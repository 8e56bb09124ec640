"""Which build of the ``normal`` player's decision runs: compiled by mypyc, or pure Python.

The install compiles :data:`COMPILED_MODULES` as a group of their own (``setup.py``):
three of every four actions at a server's table are a ``normal`` decision. The choice
is the core's (:class:`hearts.core._native.CompiledGroup`): the compiled modules are
used only while every source matches the digest recorded when they were compiled, and
not at all under ``HEARTS_PURE_PYTHON=1``. It runs once, from
``hearts/players/__init__.py``, before any of these modules is imported.
"""

from __future__ import annotations

from pathlib import Path

from hearts.core._native import CompiledGroup

__all__ = ["COMPILED_MODULES", "engine_in_use"]

COMPILED_MODULES = (
    "hearts.players.knowledge", "hearts.players.rulebased.moon",
    "hearts.players.rulebased.passing", "hearts.players.rulebased.player",
    "hearts.players.rulebased.playing",
)

_GROUP = CompiledGroup("hearts.players", Path(__file__).parent, COMPILED_MODULES)


def engine_in_use() -> str:
    """Which build the players' compiled modules really loaded from, in a line."""
    return _GROUP.in_use()


_GROUP.choose()
