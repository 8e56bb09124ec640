"""The scorekeeper page of a real-deck game (``/score``) and its API.

The page keeps the sheet on the phone and checks rounds offline, so it cannot ask the
server about each round. Instead the server publishes, for a rules text, the rule facts
that a round's check needs (the point cards and their points, the moon and its effect,
the target), all asked of :mod:`hearts.core`; the page's scorer (``static/scorer.js``)
applies them generically, and ``tests/server/test_score_js.py`` ties it to
:class:`hearts.core.Sheet` on many random rounds.

The server also keeps shared sheets (``/score/s/{id}``, read-only, for the other players'
phones) and exports a sheet as CSV, Markdown or text through :mod:`hearts.scoresheet`,
so the files match ``hearts score --export``. Every sheet that arrives is read with
:meth:`Sheet.from_json`, which checks each round again.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hearts.core import (
    HEART_MASK,
    JACK_MASK,
    JACK_OF_DIAMONDS,
    NAME_LENGTH,
    PLAYER_COUNTS,
    PRESET_HELP,
    PRESETS,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    Card,
    HeartsError,
    Rules,
    Sheet,
    card_name,
    card_points,
    fixed_moon_choice,
    iter_mask,
    moon_points,
    read_whole_number,
)
from hearts.scoresheet import EXPORT_KINDS, export, sheet_rules
from hearts.server.protocol import RequestError, json_body
from hearts.server.routes import PAGES, STATIC, guarded
from hearts.server.store import Store

__all__ = ["MAX_SHEET_BYTES", "SCORE_ROUTES", "rule_facts"]

MAX_SHEET_BYTES: Final = 65536
"""A whole sheet travels in one request: a long classic game for six is about 30 KB."""

_EXPORT_NAMES: Final = {"csv": ("text/csv", "csv"), "md": ("text/markdown", "md"),
                        "text": ("text/plain", "txt")}


def rule_facts(rules: Rules) -> dict[str, Any]:
    """What the page's scorer needs to check and score a round under ``rules``."""
    hearts = [Card(c) for c in iter_mask(rules.deck & HEART_MASK)]
    queen = bool(rules.deck & QUEEN_MASK)
    jack = bool(rules.deck & JACK_MASK)
    choice = fixed_moon_choice(rules)
    counts = PLAYER_COUNTS[rules.preset]
    cards = [_card(c, "heart", rules) for c in hearts]
    if queen:
        cards.append(_card(QUEEN_OF_SPADES, "queen", rules))
    if rules.jack_scores:
        cards.append(_card(JACK_OF_DIAMONDS, "jack", rules))
    return {
        "rules": rules.text,
        "preset": rules.preset,
        "players": rules.players,
        "name_length": NAME_LENGTH,
        "player_counts": [counts[0], counts[-1]],
        "target": rules.target,
        "rounds": rules.rounds,
        "hearts": len(hearts),
        "heart_points": card_points(1 << hearts[0], rules) if hearts else 0,
        "queen": {"in_deck": queen, "points": card_points(QUEEN_MASK, rules)},
        "jack": {"in_deck": jack, "scores": rules.jack_of_diamonds,
                 "points": card_points(JACK_MASK, rules)},
        "moon": {"rule": rules.moon.value, "points": moon_points(rules),
                 "choice": None if choice is None else choice.value},
        "cards": cards,
    }


def _card(card: Card, kind: str, rules: Rules) -> dict[str, Any]:
    return {"card": card_name(card), "label": card.pretty, "spoken": card.spoken, "kind": kind,
            "points": card_points(1 << card, rules)}


def _store(request: Request) -> Store:
    store: Store = request.app.state.hub.store
    return store


async def _sheet_body(request: Request) -> dict[str, Any]:
    """The JSON object of a request that carries a whole sheet (a larger limit)."""
    return await json_body(request, MAX_SHEET_BYTES,
                           f"a sheet is at most {MAX_SHEET_BYTES} bytes",
                           'the request body is a JSON object {"sheet": ...}')


def _checked_sheet(data: dict[str, Any]) -> Sheet:
    """The ``sheet`` of a request, read and checked round by round."""
    sheet = data.get("sheet")
    if not isinstance(sheet, dict):
        raise RequestError("bad_sheet", "sheet is the sheet file's JSON object")
    try:
        return Sheet.from_json(sheet)
    except HeartsError as exc:
        raise RequestError("bad_sheet", str(exc)) from None


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


async def score_page(request: Request) -> Response:
    """The scorekeeper page; the same page shows a shared sheet read-only."""
    return FileResponse(PAGES / "score.html")


async def service_worker(request: Request) -> Response:
    """The page's service worker, served under ``/score`` so that its scope may be ``/score``."""
    return FileResponse(STATIC / "score-sw.js", media_type="text/javascript",
                        headers={"Service-Worker-Allowed": "/score",
                                 "Cache-Control": "no-cache"})


async def api_rules(request: Request) -> Response:
    """The rule facts for ``?rules=TEXT`` (and ``players=N``: the names' count, which the
    rules text's own ``players`` must match), or ``bad_rules`` saying what is wrong."""
    text = request.query_params.get("rules", "card-commons")
    players = request.query_params.get("players")
    count = None if players is None else read_whole_number(players)
    if players is not None and count is None:
        raise RequestError("bad_rules", f"players is a whole number, not {players!r}")
    try:
        rules = Rules.parse(text) if count is None else sheet_rules(text, count)
    except HeartsError as exc:
        raise RequestError("bad_rules", str(exc)) from None
    return JSONResponse(rule_facts(rules))


async def api_presets(request: Request) -> Response:
    """The presets with their player counts, so the page can fetch each one's facts."""
    return JSONResponse({"presets": [
        {"name": name, "help": PRESET_HELP[name],
         "players": [PLAYER_COUNTS[name][0], PLAYER_COUNTS[name][-1]]}
        for name in PRESETS]})


async def api_export(request: Request) -> Response:
    """A sheet (the request's ``sheet``) as ``?kind=csv|md|text``, as a download."""
    kind = request.query_params.get("kind", "csv")
    if kind not in EXPORT_KINDS:
        raise RequestError("bad_message", f"kind is one of {', '.join(EXPORT_KINDS)}")
    sheet = _checked_sheet(await _sheet_body(request))
    media, suffix = _EXPORT_NAMES[kind]
    return Response(export(sheet, kind), media_type=f"{media}; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="hearts-score.{suffix}"'})


async def share_sheet(request: Request) -> Response:
    """Publish a sheet: the answer's ``key`` lets its keeper change it, ``url`` shows it."""
    sheet = _checked_sheet(await _sheet_body(request))
    sheet_id, key = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
    version = _store(request).put_score_sheet(sheet_id, _digest(key), sheet.to_json())
    return JSONResponse({"id": sheet_id, "key": key, "version": version,
                         "url": f"/score/s/{sheet_id}"}, status_code=201)


async def update_sheet(request: Request) -> Response:
    """The keeper's new sheet for a shared one (its ``key`` as given at publishing)."""
    sheet_id = str(request.path_params["sheet_id"])
    data = await _sheet_body(request)
    stored = _store(request).load_score_sheet(sheet_id)
    if stored is None:
        raise RequestError("no_sheet", "no shared sheet with this id")
    key = data.get("key")
    if not isinstance(key, str) or not secrets.compare_digest(_digest(key), stored.key_digest):
        raise RequestError("not_keeper", "only the sheet's keeper (with its key) changes it")
    sheet = _checked_sheet(data)
    version = _store(request).put_score_sheet(sheet_id, stored.key_digest, sheet.to_json())
    return JSONResponse({"id": sheet_id, "version": version})


async def read_sheet(request: Request) -> Response:
    """A shared sheet, read-only, with its version (``?since=V`` answers 204 if unchanged)."""
    stored = _store(request).load_score_sheet(str(request.path_params["sheet_id"]))
    if stored is None:
        raise RequestError("no_sheet", "no shared sheet with this id")
    since = request.query_params.get("since")
    version = None if since is None else read_whole_number(since)
    if since is not None and (version is None or version < 0):
        raise RequestError("bad_message", f"since is a version number from 0, not {since!r}"[:200])
    if version == stored.version:
        return Response(status_code=204)
    facts = rule_facts(Rules.parse(str(stored.sheet["rules"])))
    body = {"id": stored.sheet_id, "version": stored.version, "updated": stored.updated,
            "sheet": stored.sheet, "facts": facts}
    return Response(json.dumps(body), media_type="application/json",
                    headers={"Cache-Control": "no-store"})


SCORE_ROUTES: list[BaseRoute] = [
    Route("/score", guarded(score_page)),
    Route("/score/sw.js", guarded(service_worker)),
    Route("/score/s/{sheet_id}", guarded(score_page)),
    Route("/api/score/rules", guarded(api_rules)),
    Route("/api/score/presets", guarded(api_presets)),
    Route("/api/score/export", guarded(api_export), methods=["POST"]),
    Route("/api/score/sheets", guarded(share_sheet), methods=["POST"]),
    Route("/api/score/sheets/{sheet_id}", guarded(update_sheet), methods=["PUT"]),
    Route("/api/score/sheets/{sheet_id}", guarded(read_sheet), methods=["GET"]),
]
"""The scorekeeper's routes, registered beside :data:`hearts.server.routes.ROUTES`."""
