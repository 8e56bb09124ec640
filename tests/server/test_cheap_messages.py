"""What the server keeps between messages to spend less on each action still says what is
true when it is sent: the table's public facts (seats, connections, stand-ins, the game's
progress) and each seat's dealt hand, through random sequences of seat, connection and
game changes; one encoding per seat (and one for all spectators) per broadcast; and
computer seats that reuse their player and the driver's view decide as a fresh player of
their level would from a fresh view."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.server.test_table_authority import TABLE, Watcher, act, new_table
from tests.server.test_table_driver import CONFIG as DRIVER_CONFIG
from tests.server.test_table_driver import until

from hearts.core import Action, Deal, GameState, view
from hearts.players import decide, make_player
from hearts.server.authority import TableAuthority
from hearts.server.settings import TableSettings
from hearts.server.store import SqliteStore
from hearts.server.table import Table


class Checker(Watcher):
    """A connection that checks each message against the authority at the moment it is
    sent: its table facts are ``public_info()``, its dealt hand the core's."""

    def __init__(self, authority: TableAuthority, seat: int | None) -> None:
        super().__init__(seat)
        self.authority = authority

    def send_text(self, text: str) -> None:
        super().send_text(text)
        message = self.sent[-1]
        if "table" in message:
            assert message["table"] == self.authority.public_info()
        if message["type"] in ("state", "welcome"):
            dealt = message["facts"]["dealt"]
            if dealt is not None:
                assert self.seat is not None
                assert dealt == self.authority.state.dealt(self.seat).names()


# what one step of a random table does: a person takes a seat, computers fill the free
# ones, a connection comes or goes, a seat's person is replaced by a stand-in, or the
# game moves on by a few actions
STEPS = st.lists(st.tuples(st.sampled_from(["join", "fill", "attach", "detach", "take_over",
                                            "play", "play", "play"]),
                           st.sampled_from([None, 0, 1, 2, 3]), st.integers(1, 40)),
                 min_size=5, max_size=40)


@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_every_message_carries_the_facts_true_when_it_is_sent(
        steps: list[tuple[str, int | None, int]]) -> None:
    table = new_table(SqliteStore(":memory:"), target=40)
    table.join("P0", "token-0")
    connected = [Checker(table, 0), Checker(table, None)]
    for checker in connected:
        table.attach(checker)
    for kind, seat, count in steps:
        if kind == "join" and table.free_seats():
            table.join(f"P{count}", f"token-{count}")
        elif kind == "fill":
            table.fill_with_computers()
        elif kind == "attach":
            checker = Checker(table, seat)
            table.attach(checker)
            table.welcome(checker, None)
            connected.append(checker)
        elif kind == "detach" and connected:
            table.detach(connected.pop(count % len(connected)))
        elif kind == "take_over" and seat is not None:
            table.take_over(seat)
        elif kind == "play" and table.started:
            for _ in range(count):
                if table.state.is_over:
                    break
                if table.needs_commitment:
                    table.commit_round(f"secret-{table.state.round_no}")
                if table.state.to_act:
                    act(table, table.state.legal_actions(table.state.to_act[0])[0])
                else:
                    act(table, table.deal())
    assert all(checker.sent for checker in connected)


class Texts:
    """A connection that keeps the very text objects it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send_text(self, text: str) -> None:
        self.texts.append(text)


def test_a_broadcast_encodes_each_seats_message_once() -> None:
    table = new_table(SqliteStore(":memory:"))
    for seat in range(4):
        table.join(f"P{seat}", f"token-{seat}")
    table.commit_round("secret")
    act(table, table.deal())
    seat_one = [Texts(1), Texts(1)]
    spectators = [Texts(None), Texts(None)]
    seat_two = Texts(2)
    for sub in (*seat_one, *spectators, seat_two):
        table.attach(sub)
    table.broadcast_state([{"kind": "deal", "round": 1}])
    assert seat_one[0].texts[-1] is seat_one[1].texts[-1]
    assert spectators[0].texts[-1] is spectators[1].texts[-1]
    sent = {sub.seat: json.loads(sub.texts[-1]) for sub in (seat_one[0], spectators[0], seat_two)}
    for seat, message in sent.items():
        assert message["view"] == view(table.state, seat).to_json()
        assert message["events"] == [{"kind": "deal", "round": 1}]
        assert message["table"] == table.public_info()


async def test_computers_decide_as_fresh_players_of_their_level_from_fresh_views() -> None:
    # a pause before each computer play, so that a decision is made after an await
    config = dataclasses.replace(DRIVER_CONFIG, bot_delay_s=0.001, takeover_level="random")
    table_settings = TableSettings.build(preset="standard", players=4, options="", target=30,
                                         seats=["human", "normal", "shooter", "easy"],
                                         public=True, title="Test", bot_seed="seed")
    store = SqliteStore(":memory:")
    store.create_table(TABLE, table_settings.to_json())
    authority = TableAuthority(TABLE, table_settings, store, config)
    made: list[tuple[GameState, int, Action]] = []
    commit = authority.commit_action

    def recording(before: GameState, action: Action, after: GameState,
                  *rest: Any) -> None:
        made.append((before, authority.state_id, action))
        commit(before, action, after, *rest)

    authority.commit_action = recording  # type: ignore[method-assign]
    table = Table(authority)
    table.join("Ann", "token", 0)  # and never connects: a random stand-in plays seat 0
    table.start()
    try:
        await until(lambda: authority.state.is_over, timeout=60)
    finally:
        await table.stop()
    plays = [(before, state_id, action) for before, state_id, action in made
             if not isinstance(action, Deal)]
    assert {action.seat for _, _, action in plays} == {0, 1, 2, 3}
    for before, state_id, action in plays:
        level = authority.computer_level(action.seat)
        fresh = make_player(level, f"seed/{action.seat}/{state_id}")
        assert decide(fresh, view(before, action.seat)) == action
