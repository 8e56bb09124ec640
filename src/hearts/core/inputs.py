"""What counts as a whole number, a finite number or text where a value comes from
outside (JSON, a bot spec, an option, a record, a typed line).

Python's ``bool`` is an ``int`` (``True == 1``) and ``3.0 == 3``, so ``isinstance(value,
int)`` alone would read JSON's ``true`` as seat 1 and let a float through as a count; and
``int()`` reads ``"٣"``, ``"1_000"`` and thousands of digits (until its 4,300-digit limit
raises). Every check of such a value or text asks here instead of restating the rule.
"""

from __future__ import annotations

import json
import math
import operator
import re
import unicodedata
from typing import Any, Final, TypeGuard

from hearts.core.errors import HeartsError

__all__ = ["MAX_DIGITS", "NAME_LENGTH", "JsonTextError", "as_whole_number", "echoed",
           "is_finite_number", "is_utf8_text", "is_whole_number", "read_json",
           "read_whole_number", "same_name", "shown_name"]

MAX_DIGITS: Final = 18
"""The most digits a whole number typed as text may have: more than any count, total or
seed number of the game needs, and within a 64-bit integer."""
_WHOLE_NUMBER_TEXT: Final = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")


def is_whole_number(value: object, low: int | None = None,
                    high: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is an int that is not a bool, from ``low`` to ``high`` (each
    bound left out when None)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


class JsonTextError(HeartsError, ValueError):
    """Text that :func:`read_json` does not take, saying why in words; each reader turns
    it into its own typed error (a record's, a message's, a saved game's)."""


def _no_constant(name: str) -> None:
    raise JsonTextError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: a JSON number, but past any float
        raise JsonTextError(f"{text} is past the largest number a reader takes")
    return value


# A JSON escape of a UTF-16 surrogate (``\ud800``): alone, it parses to text that names
# no character; only then is the parsed value walked for one.
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


_NOT_UNICODE: Final = ("text must be Unicode: a lone surrogate (JSON's \\ud800 escape, or a "
                       "byte of another encoding) names no character")


def _all_utf8(data: object) -> bool:
    """Whether every key and text in parsed JSON is text that UTF-8 can write."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not is_utf8_text(item):
            return False
    return True


def read_json(text: str | bytes) -> Any:
    """JSON text (or UTF-8 bytes) from outside as Python values: one reader for every
    file, message and line, refusing in words what ``json.loads`` raises a mix of errors
    for (bad JSON, bytes that are not UTF-8, nesting too deep for the stack, a number past
    Python's 4,300 digits) and what it takes though JSON has no such value: ``NaN``,
    ``Infinity``, a number such as ``1e400`` that is infinite as a float, bytes in
    UTF-16 or UTF-32, which it guesses, and a lone surrogate (``"\\ud800"``, or a byte
    of another encoding read with ``surrogateescape``), which no store, answer or hash
    can encode. :class:`JsonTextError` otherwise."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        else:
            text.encode("utf-8")
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except JsonTextError:
        raise
    except RecursionError:
        raise JsonTextError("JSON nested too deeply to read") from None
    except UnicodeDecodeError as exc:
        raise JsonTextError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"not JSON ({exc.msg} at line {exc.lineno}, column "
                            f"{exc.colno})") from None
    except UnicodeEncodeError:
        raise JsonTextError(_NOT_UNICODE) from None
    except ValueError:  # Python's limit on the digits of an int
        raise JsonTextError("a number has more digits than a reader takes (over "
                            "4,300)") from None
    if _SURROGATE_ESCAPE.search(text) and not _all_utf8(value):
        raise JsonTextError(_NOT_UNICODE)
    return value


def as_whole_number(value: object) -> int | None:
    """``value`` as an int when it is a whole number: an int that is not a bool, or a
    value that says it is one through ``__index__`` (a NumPy integer or a 0-d integer
    array, as a trained agent's ``predict`` or an observation's index gives); never
    ``True``, ``2.7`` or ``"3"``. None otherwise."""
    if type(value) is int:  # the common case, first
        return value
    if isinstance(value, bool):
        return None
    try:  # NumPy's bool and any array but a 0-d integer one refuse
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def is_finite_number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is an int or a float (not a bool) that a float holds: not NaN,
    not infinite, not an int of hundreds of digits (``math.isfinite`` raises on one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def read_whole_number(text: str) -> int | None:
    """``text`` (spaces around it aside) as a whole number in the ASCII digits 0-9, with
    an optional sign and at most :data:`MAX_DIGITS` digits; None when it is not one."""
    stripped = text.strip()
    return int(stripped) if _WHOLE_NUMBER_TEXT.fullmatch(stripped) else None


NAME_LENGTH: Final = 24
"""The most characters of a person's name a table, a leaderboard or a record shows."""


# Characters no face shows: controls, format characters, lone surrogates, private use.
# Unassigned code points are kept, and count as visible: this Python's Unicode may predate
# an emoji a browser (or a later Python) draws, and the rule must not move with versions.
_UNSHOWN: Final = frozenset({"Cc", "Cf", "Cs", "Co"})


def shown_name(text: str, length: int = NAME_LENGTH) -> str | None:
    """A person's name as every face shows it: without control, format, surrogate and
    private-use characters (a NUL, a zero-width space, a right-to-left override), its
    spaces collapsed, at most ``length`` characters; None when no letter, digit,
    punctuation, symbol or character newer than this Python's Unicode is left (a name of
    zero-width spaces or accents alone would take a seat that no one can see). The phone's
    score page applies the same rule (``static/scorer.js`` ``shownName``)."""
    kept = "".join(char for char in text if unicodedata.category(char) not in _UNSHOWN)
    name = " ".join(kept.split())[:length].rstrip()  # a cut may land after a space
    return name if any(_visible(char) for char in name) else None


def _visible(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LNPS" or category == "Cn"


def same_name(name: str) -> str:
    """A shown name as two names are compared ("Ann" and "ANN", "Straße" and "STRASSE"
    are one player), the phone's score page folding case the same way."""
    return name.upper().lower()


def is_utf8_text(value: object) -> bool:
    """Whether ``value`` is text that UTF-8 can write: JSON's ``"\\ud800"`` escape and a
    byte of another encoding read with Python's ``surrogateescape`` are lone surrogates,
    which no seed (a deal hashes its seed's UTF-8) or saved name may hold."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def echoed(value: object, length: int = 40) -> str:
    """``value``'s ``repr`` as an error message quotes what was given: cut to ``length``
    characters with ``…``, so a pasted page of text is not said back whole (and a message
    stays one line a person can read) while a slip is shown as typed."""
    try:
        shown = repr(value)
    except ValueError:  # an int past Python's 4,300 digits has no repr
        if not isinstance(value, int):
            raise
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    if len(shown) <= length:
        return shown
    if isinstance(value, str):  # '9999…': still quoted, so a reader sees where it ends
        return shown[:length - 2] + "…" + shown[-1]
    return shown[:length - 1] + "…"
