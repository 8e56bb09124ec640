"""A stored table whose first round ends with a person about to choose how a moon shot
scores: built through the server's own store and event log, found by a small search over
deals and plays with the core (a random game almost never shoots the moon)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts.core import (
    Card,
    CardSet,
    Deal,
    GameState,
    PassCards,
    Phase,
    Play,
    Rules,
    card_points,
    derive_deal_seed,
    new_game,
    view,
)
from hearts.server.authority import hash_token
from hearts.server.settings import TableSettings
from hearts.server.store import SqliteStore

__all__ = ["SHOOTER", "MoonTable", "store_moon_table"]

SHOOTER = 0
NODE_LIMIT = 4000


@dataclass(frozen=True)
class MoonTable:
    """The stored table: its id, the shooter's seat token and name, and the game state
    awaiting the shooter's choice (the authority's, for the expected scores)."""

    table_id: str
    token: str
    name: str
    state: GameState


def _orders(state: GameState, seat: int) -> list[Card]:
    """Moves most likely to hand every point to the shooter, first."""
    legal = list(state.legal_cards(seat))

    def scores(card: Card) -> bool:
        return card_points(CardSet([card]).mask, state.rules) > 0

    if seat == SHOOTER:
        return sorted(legal, key=lambda c: (-c.rank, c.suit))
    led = state.trick[0][1].suit if state.trick else None
    following = led is not None and any(c.suit == led for c in legal)
    if following or led is None:
        return sorted(legal, key=lambda c: (c.rank, scores(c)))
    return sorted(legal, key=lambda c: (not scores(c), -c.rank))


def _search(state: GameState, budget: list[int]) -> list[Play] | None:
    """Plays that end the round with the shooter holding every point, if found in budget."""
    if state.phase is not Phase.PLAY:
        return [] if state.phase is Phase.MOON else None
    budget[0] -= 1
    if budget[0] < 0:
        return None
    seat = state.to_act[0]
    for card in _orders(state, seat):
        after = state.apply(Play(seat, card))
        done = after.tricks[-1] if len(after.tricks) > len(state.tricks) else None
        if done is not None and done.winner != SHOOTER \
                and card_points(CardSet(done.cards).mask, state.rules):
            continue
        rest = _search(after, budget)
        if rest is not None:
            return [Play(seat, card), *rest]
    return None


def _moon_deals(rules: Rules) -> Iterator[tuple[str, GameState, list[dict[str, Any]]]]:
    """Server seeds in a fixed order, each with the state after its deal and passes."""
    for number in range(10_000):
        server_seed = f"{number:064x}"
        deal = Deal.from_seed(rules, derive_deal_seed(server_seed, []))
        state = new_game(rules, None).apply(deal)
        passes = []
        for seat in range(rules.players):
            # Everyone passes their lowest cards, so the shooter keeps the high ones.
            hand = view(state, seat).hand
            cards = CardSet(sorted(hand, key=lambda c: c.rank)[: rules.pass_count])
            state = state.apply(PassCards(seat, cards))
            passes.append({"t": "pass", "seat": seat, "cards": cards.names()})
        yield server_seed, state, passes


@functools.cache
def _find_moon(rules: Rules) -> tuple[str, GameState, list[dict[str, Any]], list[Play]]:
    """The first deal (in seed order) with passes and plays giving the shooter every point."""
    for server_seed, state, passes in _moon_deals(rules):
        plays = _search(state, [NODE_LIMIT])
        if plays is not None:
            return server_seed, state, passes, plays
    raise AssertionError("no moon shot found in 10 000 deals")


def store_moon_table(db: Path, table_id: str, token: str, name: str) -> MoonTable:
    """Write a table to the store whose person in seat 1 has just shot the moon."""
    server_seed, state, passes, plays = _find_moon(Rules.parse("classic:players=4"))
    settings = TableSettings.build(preset="classic", players=4, options="", target=None,
                                   seats=["human", "random", "random", "random"],
                                   public=True, title=f"{name}'s moon", bot_seed="moon")
    events: list[dict[str, Any]] = [
        {"t": "join", "seat": SHOOTER, "name": name, "token": hash_token(token)},
        {"t": "commit", "round": 1, "server_seed": server_seed},
        {"t": "deal", "round": 1, "seed": derive_deal_seed(server_seed, [])},
        *passes,
        *({"t": "play", "seat": p.seat, "card": str(p.card)} for p in plays),
    ]
    store = SqliteStore(db)
    try:
        store.create_table(table_id, settings.to_json())
        for seq, event in enumerate(events, start=1):
            store.append(table_id, seq, event)
    finally:
        store.close()
    for play in plays:
        state = state.apply(play)
    return MoonTable(table_id, token, name, state)
