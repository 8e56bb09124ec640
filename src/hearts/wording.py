"""Words shared by every face: a count with its noun in the number that agrees with it,
and a round's pass in a sentence.

A leaf below every layer (it imports nothing of the game), so the command line, the
arena's reports and the terminal say "1 deal set" and "2 deal sets" the same way.
"""

from __future__ import annotations

__all__ = ["counted", "passing"]


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and its noun: "1 game", "2 games", "-1 point", "0 blunders";
    ``plural`` for a noun that does not take an "s" ("inaccuracies")."""
    if abs(number) == 1:
        return f"{number} {noun}"
    return f"{number} {plural if plural is not None else noun + 's'}"


def passing(count: int, direction: str) -> str:
    """A round's pass as words, from the view's ``pass_direction`` (``left``, ``across``,
    ``2 to the left``): "pass 3 cards to the left", "pass 1 card across", "pass 3 cards 2
    to the left"."""
    where = f"to the {direction}" if direction in ("left", "right") else direction
    return f"pass {counted(count, 'card')} {where}"
