"""State messages built the cheap way say what the core says: through random games, every
seat's and a spectator's message after each action carries the core's view in card names,
and the last trick's plays as the core's round plays give them."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import PLAYER_COUNTS, PlayerView, view
from hearts.server.authority import TableAuthority
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import SqliteStore


class Watcher:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.last: dict[str, Any] = {}

    def send_text(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "state":
            self.last = message


def _check(message: dict[str, Any], seen: PlayerView) -> None:
    shown = message["view"]
    assert shown["hand"] == seen.hand.names()
    assert shown["legal"] == seen.legal.names()
    assert shown["passed"] == (None if seen.passed is None else seen.passed.names())
    assert shown["received"] == (None if seen.received is None else seen.received.names())
    assert shown["trick"] == [[seat, str(card)] for seat, card in seen.trick]
    assert [t["cards"] for t in shown["tricks"]] == [[str(c) for c in t.cards] for t in seen.tricks]
    last = message["facts"]["last_trick"]
    if not seen.tricks:
        assert last is None
        return
    number = len(seen.tricks) - 1
    assert last["winner"] == seen.tricks[-1].winner
    assert last["plays"] == [[p.seat, str(p.card)] for p in seen.round_plays
                             if p.trick_no == number]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32),
       table=st.sampled_from([(preset, players) for preset, counts in PLAYER_COUNTS.items()
                              for players in counts]))
def test_every_message_matches_the_core_view(seed: int, table: tuple[str, int]) -> None:
    preset, players = table
    table_settings = TableSettings.build(preset=preset, players=players, options="",
                                         target=None, seats=["human"] * players, public=True,
                                         title="T", bot_seed="b")
    store = SqliteStore(":memory:")
    store.create_table("t", table_settings.to_json())
    authority = TableAuthority("t", table_settings, store, ServerConfig(), clock=lambda: 0.0)
    watchers = [Watcher(seat) for seat in range(players)] + [Watcher(None)]
    for seat in range(players):
        authority.join(f"P{seat}", f"token-{seat}")
    for watcher in watchers:
        authority.attach(watcher)
    rng = random.Random(seed)
    authority.commit_round("secret")
    for seat in range(players):
        authority.add_entropy(seat, f"e{seat}")
    before = authority.state
    authority.commit_action(before, authority.deal(), before.apply(authority.deal()))
    for _ in range(rng.randrange(20, 80)):
        state = authority.state
        if not state.to_act:
            break
        seat = rng.choice(state.to_act)
        action = rng.choice(state.legal_actions(seat))
        authority.commit_action(state, action, state.apply(action))
        for watcher in watchers:
            _check(watcher.last, view(authority.state, watcher.seat))
