"""Duplicate challenges on the server: a challenge's leaderboard, and how a result gets on it.

A result arrives two ways: the game of a challenge table is over (:mod:`hearts.server.table`),
or a record is submitted over HTTP (:mod:`hearts.server.challenge_routes`; ``hearts challenge
submit`` sends one a terminal game saved). Either way :func:`hearts.challenge.check_entry`
re-checks the record (every deal re-derived from the challenge's seed, every computer move
re-derived) in a worker thread, since it repeats every search of the game, and the result is
stored under its fingerprint, so the same play entered twice is one entry.

A challenge's code describes it whole, so any code that parses is a challenge: it is stored
(for its leaderboard) the first time somebody plays it or enters a result.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from hearts.challenge import (
    Challenge,
    ChallengeError,
    ChallengeResult,
    ForgedEntryError,
    LeaderboardRow,
    check_entry,
    leaderboard,
)
from hearts.core import InvalidRecordError, replay_record, shown_name
from hearts.server.protocol import RequestError
from hearts.server.store import Store

__all__ = ["Entered", "board", "challenge_of", "enter", "enter_quietly",
           "playable", "remember"]

log = logging.getLogger(__name__)

def challenge_of(code: str) -> Challenge:
    """The challenge a code names; ``no_challenge`` saying what is wrong with the code."""
    try:
        return Challenge.parse(code)
    except ChallengeError as exc:
        raise RequestError("no_challenge", str(exc)) from None


def playable(challenge: Challenge) -> Challenge:
    """The challenge, if this server's computers can play and check it; ``stale_challenge``
    (its reason) for one of an older revision."""
    if challenge.stale is not None:
        raise RequestError("stale_challenge", challenge.stale)
    return challenge


def remember(store: Store, challenge: Challenge) -> None:
    """Store a challenge for its leaderboard (nothing changes if it is there already)."""
    store.put_challenge(challenge.code, challenge.describe())


def _result_json(result: ChallengeResult) -> dict[str, Any]:
    return {"name": result.name, "points": list(result.points), "total": result.total,
            "complete": result.complete, "fingerprint": result.fingerprint}


def _result_from(entry: dict[str, Any]) -> ChallengeResult:
    return ChallengeResult(str(entry["name"]), tuple(int(p) for p in entry["points"]),
                           int(entry["total"]), bool(entry["complete"]),
                           str(entry["fingerprint"]))


def _row_json(row: LeaderboardRow) -> dict[str, Any]:
    return _result_json(row.result) | {"place": row.place, "deal_places": list(row.deal_places)}


def _board(store: Store, challenge: Challenge) -> list[LeaderboardRow]:
    entries = store.challenge_entries(challenge.code)
    return leaderboard([_result_from(e.entry) for e in entries])


def board(store: Store, challenge: Challenge) -> dict[str, Any]:
    """What the challenge page shows: the challenge, and its results ranked (fewest points
    first), each with its points and its place on every deal."""
    return {"challenge": challenge.describe(),
            "leaderboard": [_row_json(row) for row in _board(store, challenge)]}


@dataclass(frozen=True, slots=True)
class Entered:
    """A result that is on the leaderboard: its place, and whether it was new."""

    result: ChallengeResult
    place: int
    added: bool

    def to_json(self) -> dict[str, Any]:
        """The answer to a submitted entry."""
        return {"entry": _result_json(self.result), "place": self.place, "added": self.added}


def _check(challenge: Challenge, record: Mapping[str, Any]) -> ChallengeResult:
    """:func:`check_entry`, its refusals as request errors: a record the rules refuse is
    ``bad_record`` (as the replay API says it), a game that is not a play of this
    challenge ``forged_entry``, one that stops before the last deal ``incomplete_entry``, any
    record of a challenge of an older revision ``stale_challenge``."""
    try:
        replay_record(record)
    except InvalidRecordError as exc:
        raise RequestError("bad_record", f"the rules refuse this record: {exc}") from None
    try:
        result = check_entry(playable(challenge), record)
    except ForgedEntryError as exc:
        raise RequestError("forged_entry", f"this is not a play of challenge "
                           f"{challenge.code}: {exc}") from None
    if not result.complete:
        raise RequestError("incomplete_entry", f"the record plays {len(result.points)} of "
                           f"the challenge's {challenge.deals} deals: the leaderboard "
                           "compares whole challenges")
    # a record names its players freely: the board shows a name as a table seats one
    return replace(result, name=shown_name(result.name) or "Anonymous")


async def enter(store: Store, challenge: Challenge, record: Mapping[str, Any]) -> Entered:
    """Check a record off the event loop and put its result on the leaderboard (request
    errors say why a record is refused)."""
    result = await asyncio.to_thread(_check, challenge, record)
    remember(store, challenge)
    added = store.add_challenge_entry(challenge.code, result.fingerprint, _result_json(result))
    place = next(row.place for row in _board(store, challenge)
                 if row.result.fingerprint == result.fingerprint)
    return Entered(result, place, added)


async def enter_quietly(store: Store, challenge: Challenge, record: Mapping[str, Any],
                        table_id: str) -> None:
    """A challenge table's finished game onto the leaderboard. The table seats the
    challenge's own computers, so a refusal would be a bug: it is logged, never raised."""
    try:
        entered = await enter(store, challenge, record)
    except RequestError as exc:
        log.error("table %s: its challenge result was refused: %s", table_id, exc.message)
        return
    log.info("table %s: challenge %s result %d, place %d", table_id, challenge.code,
             entered.result.total, entered.place)
