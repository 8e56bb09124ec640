"""Typed errors: each says what was wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "HeartsError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
]


class HeartsError(Exception):
    """Base of every error this package raises on bad input."""


class InvalidCardError(HeartsError, ValueError):
    """A card or card set that cannot be parsed or does not exist."""


class InvalidRulesError(HeartsError, ValueError):
    """An unknown rule option, a bad value, or options that contradict each other."""


class InvalidPositionError(HeartsError, ValueError):
    """A position text that is malformed or does not describe a legal round in progress."""


class InvalidRecordError(HeartsError, ValueError):
    """A game or hand record that is malformed or does not replay to what it claims.

    ``illegal`` is the refused action's error when the record holds an illegal action:
    its round, trick, seat, card and legal alternatives.
    """

    def __init__(self, message: str, *, illegal: IllegalActionError | None = None) -> None:
        super().__init__(message)
        self.illegal = illegal


class IllegalActionError(HeartsError, ValueError):
    """An action the rules do not allow now, or an argument a game's entry cannot take (a
    seat not at the table, a round, totals or seed of the wrong kind); the state it was
    tried on is unchanged."""

    def __init__(
        self,
        reason: str,
        *,
        round_no: int | None = None,
        trick_no: int | None = None,
        seat: int | None = None,
        card: str | None = None,
        legal: Sequence[str] = (),
    ) -> None:
        self.reason = reason
        self.round_no = round_no
        self.trick_no = trick_no
        self.seat = seat
        self.card = card
        self.legal = tuple(legal)
        where = []
        if round_no is not None:
            where.append(f"round {round_no}")
        if trick_no is not None:
            where.append(f"trick {trick_no}")
        if seat is not None:
            where.append(f"seat {seat}")
        message = reason
        if where:
            message = f"{', '.join(where)}: {reason}"
        if self.legal:
            message += f" (allowed: {' '.join(self.legal)})"
        super().__init__(message)
