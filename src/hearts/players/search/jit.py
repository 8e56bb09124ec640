"""The one place that applies Numba: a typed ``jit`` decorator with the on-disk cache on.

``cache=True`` stores the compiled machine code next to the source (``__pycache__``),
or in Numba's per-user cache where that is not writable, so only the first run of a
fresh install pays the compile time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["jit"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(func: F) -> F:
    """Compile ``func`` with Numba in nopython mode, cached on disk, releasing the GIL
    while it runs: a search (a hint on the web server) then leaves the event loop and
    the other tables' players free to run beside it."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))
