"""Duplicate challenges in the browser (``docs/web-protocol.md``, *Duplicate challenges*).

A challenge (:mod:`hearts.challenge`) is a set of deals with fixed computer opponents; its
code says all of it, so its link ``/c/CODE`` is all a second player needs. Playing it opens a
private table whose seat 1 is the player and whose other seats are the challenge's computers,
dealt from the challenge's seed (:mod:`hearts.server.authority`); the table's result goes on
the leaderboard when its game is over, and a record played elsewhere (the terminal) can be
submitted; both are re-checked first (:mod:`hearts.server.challenge_board`).

A check repeats every computer decision of the game, so submitted records are checked a
few at a time per server: more are answered ``503 busy``.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hearts.challenge import (
    CODE_ALPHABET,
    DEFAULT_ITERATIONS,
    MAX_DEALS,
    OPPONENT_LEVELS,
    Challenge,
    ChallengeError,
)
from hearts.core import PLAYER_COUNTS, PRESETS, shown_name
from hearts.server.challenge_board import board, challenge_of, enter, playable, remember
from hearts.server.hub import Hub
from hearts.server.player_routes import key_digest, player_key
from hearts.server.protocol import RequestError, whole_number
from hearts.server.replay_routes import record_body
from hearts.server.routes import PAGES, guarded, small_body
from hearts.server.settings import HUMAN, TableSettings, table_title
from hearts.server.slots import WorkSlots

__all__ = ["CHALLENGE_ROUTES", "MAX_CHECKS", "SEED_LENGTH"]

MAX_CHECKS: Final = 2
"""Submitted records checked at once by one server."""

_CHECK_SLOTS: Final = WorkSlots(MAX_CHECKS, "other results are being checked; send it again "
                                "in a minute")

SEED_LENGTH: Final = 10
"""A drawn seed's characters (about 50 bits): a challenge made without a seed is new."""


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise RequestError("bad_message", f"{key} is text, not {type(value).__name__}")
    return value.strip()


def _challenge(request: Request) -> Challenge:
    return challenge_of(str(request.path_params["code"]))


async def challenge_options(request: Request) -> Response:
    """What a challenge may be made of, for the lobby's form."""
    return JSONResponse({
        "presets": [{"name": name, "players": [PLAYER_COUNTS[name][0], PLAYER_COUNTS[name][-1]]}
                    for name in PRESETS],
        "levels": list(OPPONENT_LEVELS), "max_deals": MAX_DEALS,
        "iterations": DEFAULT_ITERATIONS})


async def create_challenge(request: Request) -> Response:
    """A new challenge from a preset, the opponents' levels, a number of deals and a seed
    (drawn here when none is given); the same four make the same challenge."""
    data = await small_body(request)
    opponents = data.get("opponents")
    if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
        raise RequestError("bad_message", "opponents is a list: a computer level for each "
                           "seat after yours")
    deals = data.get("deals", 1)
    if not whole_number(deals):
        raise RequestError("bad_message", "deals is a whole number")
    seed = _text(data, "seed") or "".join(secrets.choice(CODE_ALPHABET)
                                          for _ in range(SEED_LENGTH))
    try:
        challenge = Challenge.create(_text(data, "preset") or "card-commons", opponents,
                                     deals, seed)
    except ChallengeError as exc:
        raise RequestError("bad_challenge", str(exc)) from None
    created = _hub(request).store.put_challenge(challenge.code, challenge.describe())
    return JSONResponse({"code": challenge.code, "url": f"/c/{challenge.code}",
                         "challenge": challenge.describe()},
                        status_code=201 if created else 200)


async def challenge_page(request: Request) -> Response:
    """The challenge page: what it is, a way to play it, and its leaderboard; a code that
    names no challenge gets the page too, which says so (with 404)."""
    try:
        _challenge(request)
    except RequestError:
        return HTMLResponse((PAGES / "challenge.html").read_text(encoding="utf-8"),
                            status_code=404)
    return FileResponse(PAGES / "challenge.html")


async def challenge_info(request: Request) -> Response:
    """The challenge and its leaderboard."""
    challenge = _challenge(request)
    return JSONResponse(board(_hub(request).store, challenge))


async def play_challenge(request: Request) -> Response:
    """A private table of the challenge's deals and computers with the player in seat 1;
    answered as a created table is (the table page plays it)."""
    challenge = playable(_challenge(request))
    data = await small_body(request)
    name = shown_name(_text(data, "name"))
    if name is None:  # checked before the table is made: a refused join would orphan it
        raise RequestError("bad_message", "say your name (a letter, digit or sign that "
                           "shows): it goes on the leaderboard")
    key = player_key(data)
    hub = _hub(request)
    remember(hub.store, challenge)
    settings = TableSettings(
        rules=challenge.rules.text, seats=(HUMAN, *challenge.opponents), public=False,
        title=table_title(f"Challenge {challenge.code}", name), bot_seed=secrets.token_hex(8),
        challenge=challenge.code)
    table, token = hub.create(settings, name)
    if key is not None:
        hub.store.link_player(key_digest(key), table.table_id, 0)
    return JSONResponse({"table": table.authority.public_info(), "seat": 0, "token": token,
                         "url": f"/t/{table.table_id}", "challenge": challenge.code},
                        status_code=201)


async def submit_entry(request: Request) -> Response:
    """A record of the challenge played elsewhere, re-checked, onto the leaderboard."""
    challenge = _challenge(request)
    record = await record_body(request)
    with _CHECK_SLOTS.held():
        entered = await enter(_hub(request).store, challenge, record)
    return JSONResponse(entered.to_json() | {"code": challenge.code},
                        status_code=201 if entered.added else 200)


CHALLENGE_ROUTES: list[BaseRoute] = [
    Route("/c/{code}", guarded(challenge_page)),
    Route("/api/challenges", guarded(challenge_options), methods=["GET"]),
    Route("/api/challenges", guarded(create_challenge), methods=["POST"]),
    Route("/api/challenges/{code}", guarded(challenge_info), methods=["GET"]),
    Route("/api/challenges/{code}/play", guarded(play_challenge), methods=["POST"]),
    Route("/api/challenges/{code}/entries", guarded(submit_entry), methods=["POST"]),
]
