"""The replay API behind the ``/replay`` page (``docs/web-protocol.md``, *Replays*).

``POST /api/replay`` takes a game or hand record (the body, as a table's record download
or ``hearts`` writes it) and answers every position of the game with every hand open
(:func:`hearts.replay.build_replay`: the core re-checks the record and re-applies each
action), so the page steps through positions the server worked out and restates no rule.
A record the rules refuse is a ``bad_record`` error that says what is wrong.

With ``?analyze=1`` the answer also carries the expert search's judgement of the people's
decisions (:func:`hearts.players.analysis.analyze`), each marked on the frame it leads to,
and the most costly listed. The analysis runs in a worker thread, seeded, with a fixed
number of sampled deals a decision (so its time is bounded and the same record gets the
same marks), and one at a time per server: a second asks again later (503 ``busy``).

The endpoints are registered in :data:`hearts.server.routes.ROUTES`; this module imports
nothing from ``routes`` (which imports it), so the error boundary is ``routes.guarded``.
"""

from __future__ import annotations

from typing import Any, Final

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hearts.core import InvalidRecordError
from hearts.replay import analyze_for_replay, build_replay, marked_decisions, most_costly
from hearts.server.protocol import RequestError, json_body
from hearts.server.slots import WorkSlots

__all__ = ["MAX_RECORD_BYTES", "record_body", "replay_frames"]

MAX_RECORD_BYTES: Final = 262_144
"""A record travels whole: a long classic game for six, indented, is under 100 KB."""

# One analysis at a time for the whole server: the search uses a core to the full.
_ANALYSIS_SLOT: Final = WorkSlots(1, "another game is being analysed; ask again in a minute")


async def record_body(request: Request) -> dict[str, Any]:
    """The record in the request body, read no further than its limit."""
    return await json_body(
        request, MAX_RECORD_BYTES, f"a record is at most {MAX_RECORD_BYTES} bytes",
        "a record is a JSON object",
        empty=RequestError("bad_record", "send a game or hand record (JSON) as the body"))


async def replay_frames(request: Request) -> Response:
    """Every position of a recorded game, every hand open; with ``?analyze=1`` the
    decisions' costs too."""
    record = await record_body(request)
    try:
        replay = build_replay(record)
    except InvalidRecordError as exc:
        raise RequestError("bad_record", f"the rules refuse this record: {exc}") from None
    answer = replay.to_json()
    analyze = request.query_params.get("analyze", "0")
    if analyze not in ("0", "1"):  # any other word would start the costly analysis
        raise RequestError("bad_message", f"analyze is 1 or 0, not {analyze!r}"[:200])
    if analyze == "1":
        with _ANALYSIS_SLOT.held():
            analysis = await anyio.to_thread.run_sync(analyze_for_replay, record)
        decisions = marked_decisions(replay, analysis)
        answer["analysis"] = {"thresholds": analysis["thresholds"],
                              "iterations": analysis["iterations"],
                              "summaries": analysis["summaries"], "decisions": decisions,
                              "costly": [d["index"] for d in most_costly(decisions)]}
    return JSONResponse(answer)
