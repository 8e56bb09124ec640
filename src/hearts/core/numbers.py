"""What counts as a whole number where a value comes from outside (JSON, a bot spec, an
option, a record).

Python's ``bool`` is an ``int`` (``True == 1``) and ``3.0 == 3``, so ``isinstance(value,
int)`` alone would read JSON's ``true`` as seat 1 and let a float through as a count.
Every check of such a value asks here instead of restating the rule.
"""

from __future__ import annotations

from typing import TypeGuard

__all__ = ["is_whole_number"]


def is_whole_number(value: object, low: int | None = None,
                    high: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is an int that is not a bool, from ``low`` to ``high`` (each
    bound left out when None)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)
