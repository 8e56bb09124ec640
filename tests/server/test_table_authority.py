"""The table authority without a socket or an event loop: the fixed check order (each
refusal changes nothing), events stored before they are told, each connection's
messages and facts, the finished round on show until the next deal, replay after a
restart, and the stored event format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hearts.core import Action, CardSet, GameState, Phase, PlayerView, derive_deal_seed, view
from hearts.server.authority import TableAuthority, hash_token
from hearts.server.protocol import RequestError
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import SqliteStore

TABLE = "t1"
CONFIG = ServerConfig(entropy_timeout_s=3.0, takeover_level="random")


class Watcher:
    """A connection as the authority sees one: a seat and a list of what it was sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.sent) if m["type"] == kind)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def new_table(store: SqliteStore, *, target: int | None = None,
              clock: Clock | None = None) -> TableAuthority:
    settings = TableSettings.build(preset="standard", players=4, options="", target=target,
                                   seats=["human"] * 4, public=True, title="Test",
                                   bot_seed="seed")
    store.create_table(TABLE, settings.to_json())
    return TableAuthority(TABLE, settings, store, CONFIG, clock=clock or Clock())


def act(table: TableAuthority, action: Action, actor: Watcher | None = None,
        rid: object = None) -> None:
    """What the async driver does with an action the game applied."""
    before = table.state
    table.commit_action(before, action, before.apply(action), actor, rid)


def seated(target: int | None = None) -> tuple[TableAuthority, SqliteStore, list[Watcher]]:
    """A table whose four people joined, connected and had round 1 dealt."""
    store = SqliteStore(":memory:")
    table = new_table(store, target=target)
    watchers = [Watcher(seat) for seat in range(4)]
    for seat, watcher in enumerate(watchers):
        table.join(f"P{seat}", f"token-{seat}")
        table.attach(watcher)
    assert table.started and table.needs_commitment
    table.commit_round("server-secret")
    for seat in range(4):
        table.add_entropy(seat, f"e{seat}")
    assert table.entropy_wait() == 0
    act(table, table.deal())
    return table, store, watchers


def play_out(table: TableAuthority, until: Any) -> None:
    """Every seat takes its first legal action until ``until(state)``."""
    while not until(table.state):
        act(table, table.state.legal_actions(table.state.to_act[0])[0])


def snapshot(table: TableAuthority, store: SqliteStore,
             watchers: list[Watcher]) -> tuple[object, ...]:
    stored = store.load(TABLE)
    assert stored is not None
    return (table.state, table.state_id, table.seq, len(stored.events),
            [len(w.sent) for w in watchers])


def message(kind: str, state_id: int, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "state_id": state_id, **fields}


def refused(table: TableAuthority, who: Watcher, data: dict[str, Any]) -> RequestError:
    with pytest.raises(RequestError) as caught:
        table.check_action(who, data)
    return caught.value


def test_each_check_refuses_in_the_fixed_order_and_changes_nothing() -> None:
    table, store, watchers = seated()
    play_out(table, lambda s: s.phase is Phase.PLAY)
    state, now = table.state, table.state_id
    turn = state.to_act[0]
    mover, idle, spectator = watchers[turn], watchers[(turn + 1) % 4], Watcher(None)
    hand = state.hand(turn)
    illegal = next((c for c in hand if c not in state.legal_cards(turn)), None)
    not_held = next(c for c in CardSet(table.rules.deck) if c not in hand)
    before = snapshot(table, store, watchers)
    # the first failing check answers, whatever else is wrong with the message
    cases = [
        (spectator, message("play", now - 1, card="ZZ"), "not_seated"),
        (idle, message("play", now - 1, card="ZZ"), "not_your_turn"),
        (mover, message("play", now - 1, card="ZZ"), "illegal"),
        (mover, message("play", now - 1, card=str(not_held)), "illegal"),
        (mover, message("pass", now, cards=hand.names()[:3]), "illegal"),
        (mover, message("play", now - 1, card=str(state.legal_cards(turn).names()[0])),
         "stale_state"),
    ]
    if illegal is not None:
        cases.append((mover, message("play", now, card=str(illegal)), "illegal"))
    for who, data, code in cases:
        error = refused(table, who, data)
        assert error.code == code, (data, error.message)
        assert snapshot(table, store, watchers) == before
    assert "not a card" in refused(table, mover, message("play", now, card="ZZ")).message
    error = refused(table, mover, message("play", now, card=str(not_held)))
    assert error.legal == state.legal_cards(turn).names()
    good = table.check_action(mover, message("play", now, card=error.legal[0]))
    assert snapshot(table, store, watchers) == before
    act(table, good, mover, rid=7)
    assert table.state_id == now + 1


def test_a_pass_chosen_since_passing_began_is_current() -> None:
    table, _, watchers = seated()
    opened = table.pass_opened_id
    assert table.state.phase is Phase.PASS and opened == table.state_id
    act(table, table.state.legal_actions(0)[0])  # another seat's pass moves the id on
    late = message("pass", opened, cards=table.state.hand(1).names()[:3])
    assert table.check_action(watchers[1], late).seat == 1
    early = message("pass", opened - 1, cards=table.state.hand(1).names()[:3])
    assert refused(table, watchers[1], early).code == "stale_state"


def test_the_game_over_refuses_every_action() -> None:
    table, _, watchers = seated(target=1)
    play_out(table, lambda s: s.is_over)
    assert refused(table, watchers[0], message("play", table.state_id, card="2C")).code \
        == "game_over"


def test_the_actor_hears_the_ack_before_the_state_and_each_seat_only_its_view() -> None:
    table, _, watchers = seated()
    spectator = Watcher(None)
    table.attach(spectator)
    seat = 2
    action = table.check_action(watchers[seat], message(
        "pass", table.state_id, cards=table.state.hand(seat).names()[:3]))
    for watcher in (*watchers, spectator):
        watcher.sent.clear()
    act(table, action, watchers[seat], rid="mine")
    assert [m["type"] for m in watchers[seat].sent] == ["ack", "state"]
    assert watchers[seat].sent[0] == {"type": "ack", "id": "mine", "state_id": table.state_id}
    for watcher in (*watchers, spectator):
        sent = watcher.last("state")
        assert sent["view"] == view(table.state, watcher.seat).to_json()
        assert sent["view"]["seat"] == watcher.seat


def facts_of(watcher: Watcher) -> dict[str, Any]:
    return dict(watcher.last("state")["facts"])


def test_the_facts_are_the_cores_for_each_seat() -> None:
    table, _, watchers = seated()
    spectator = Watcher(None)
    table.attach(spectator)
    play_out(table, lambda s: s.phase is Phase.PLAY and len(s.trick) == 2)
    state = table.state
    table.broadcast_state()
    for seat, watcher in enumerate(watchers):
        seen: PlayerView = view(state, seat)
        facts = facts_of(watcher)
        assert facts["dealt"] == state.dealt(seat).names()
        assert facts["pass_target"] == table.rules.pass_target(seat, state.round_no)
        assert facts["pass_source"] == table.rules.pass_source(seat, state.round_no)
        assert facts["my_turn"] == (seat in state.to_act)
        assert seen.winning is not None
        assert facts["winning"] == [seen.winning[0], str(seen.winning[1])]
        assert facts["over"] is False
    facts = facts_of(spectator)
    assert facts["dealt"] is None and facts["pass_target"] is None and not facts["my_turn"]


def test_a_finished_round_stays_on_show_until_the_next_deal() -> None:
    table, _, watchers = seated()
    play_out(table, lambda s: s.phase is Phase.DEAL)
    state = table.state
    last = state.tricks[-1]
    facts = facts_of(watchers[0])
    assert facts["dealt"] is None  # between rounds no seat holds cards
    trick = facts["last_trick"]
    assert trick["winner"] == last.winner
    assert [card for _, card in trick["plays"]] == [str(c) for c in last.cards]
    assert trick["plays"][0][0] == last.leader
    assert sorted(seat for seat, _ in trick["plays"]) == list(range(4))
    shown = watchers[0].last("state")
    assert shown["view"]["results"] and shown["view"]["tricks"]
    assert [e["kind"] for e in shown["events"]] == ["trick", "round_end"]
    reveal = watchers[0].last("reveal")
    assert reveal["deal_seed"] == derive_deal_seed("server-secret", ["e0", "e1", "e2", "e3"])
    assert table.needs_commitment


def test_the_deal_waits_for_peoples_entropy_until_the_deadline() -> None:
    store = SqliteStore(":memory:")
    clock = Clock()
    table = new_table(store, clock=clock)
    for seat in range(4):
        table.join(f"P{seat}", f"token-{seat}")
    table.commit_round("s")
    table.add_entropy(0, "abc")
    assert table.entropy_wait() == CONFIG.entropy_timeout_s
    with pytest.raises(RequestError, match="already added"):
        table.add_entropy(0, "abd")
    with pytest.raises(RequestError) as caught:
        table.add_entropy(1, "not allowed!")
    assert caught.value.code == "bad_message"
    clock.now += 1.0
    assert table.entropy_wait() == CONFIG.entropy_timeout_s - 1.0
    for seat in (1, 2):  # a stand-in sends no entropy: nobody waits for it
        assert table.take_over(seat)
    assert table.entropy_wait() == CONFIG.entropy_timeout_s - 1.0
    clock.now += CONFIG.entropy_timeout_s
    assert table.entropy_wait() == 0
    assert table.deal().seed == derive_deal_seed("s", ["abc"])


def test_a_stored_log_replays_to_the_same_table() -> None:
    table, store, _ = seated()
    play_out(table, lambda s: s.round_no == 2)
    stored = store.load(TABLE)
    assert stored is not None
    again = TableAuthority(TABLE, TableSettings.from_json(stored.settings), store, CONFIG)
    again.replay(stored.events)
    assert again.state.history == table.state.history
    assert (again.state_id, again.seq, again.pass_opened_id) == \
        (table.state_id, table.seq, table.pass_opened_id)
    assert again.names == table.names and again.fairness_public() == table.fairness_public()


def test_events_are_stored_in_the_documented_format() -> None:
    """The bytes a table stores: logs written before today must still replay."""
    table, store, _ = seated()
    play_out(table, lambda s: s.phase is Phase.PLAY and len(s.trick) == 1)
    stored = store.load(TABLE)
    assert stored is not None
    state: GameState = table.state
    deal_seed = derive_deal_seed("server-secret", ["e0", "e1", "e2", "e3"])
    expected: list[dict[str, Any]] = [
        {"t": "join", "seat": s, "name": f"P{s}", "token": hash_token(f"token-{s}")}
        for s in range(4)]
    expected += [{"t": "commit", "round": 1, "server_seed": "server-secret"}]
    expected += [{"t": "entropy", "seat": s, "value": f"e{s}"} for s in range(4)]
    expected += [{"t": "deal", "round": 1, "seed": deal_seed}]
    for s in range(4):
        chosen = state.chosen_pass(s)
        assert chosen is not None
        expected.append({"t": "pass", "seat": s, "cards": chosen.names()})
    seat, card = state.trick[0]
    expected.append({"t": "play", "seat": seat, "card": str(card)})
    assert stored.events == expected


def test_hints_are_rationed_per_seat_whatever_its_connections() -> None:
    table, _, _ = seated()
    clock = table.clock
    assert isinstance(clock, Clock)
    for _ in range(CONFIG.hint_burst):  # a burst, from any of the seat's connections
        assert table.hint_view(0).seat == 0
    assert refused_hint(table, 0).code == "rate_limited"
    assert table.hint_view(1).seat == 1  # another seat has its own ration
    clock.now += 1 / CONFIG.hint_per_s  # time gives one hint back
    assert table.hint_view(0).seat == 0
    assert refused_hint(table, 0).code == "rate_limited"


def refused_hint(table: TableAuthority, seat: int) -> RequestError:
    with pytest.raises(RequestError) as caught:
        table.hint_view(seat)
    return caught.value


def test_a_seat_has_a_bounded_number_of_connections() -> None:
    table, _, _ = seated()
    assert not table.seat_is_full(0)  # one connection so far
    extra = [Watcher(0) for _ in range(CONFIG.max_seat_connections - 1)]
    for watcher in extra:
        table.attach(watcher)
    assert table.seat_is_full(0) and not table.seat_is_full(1)
    table.detach(extra[0])
    assert not table.seat_is_full(0)


def test_the_record_states_the_people_whatever_names_they_chose() -> None:
    store = SqliteStore(":memory:")
    settings = TableSettings.build(preset="standard", players=4, options="", target=None,
                                   seats=["human", "human", "human", "normal"], public=True,
                                   title="Test", bot_seed="seed")
    store.create_table(TABLE, settings.to_json())
    table = TableAuthority(TABLE, settings, store, CONFIG, clock=Clock())
    table.join("Bot 2", "token-0")
    table.join("expert", "token-2", seat=2)
    assert table.fill_with_computers()  # seat 1 was a person's, a computer took it
    record = table.record()
    assert record["seats"][:3] == ["Bot 2", "Computer 2 (random)", "expert"]
    assert record["people"] == [0, 2]
    stored = store.load(TABLE)
    assert stored is not None
    again = TableAuthority(TABLE, TableSettings.from_json(stored.settings), store, CONFIG)
    again.replay(stored.events)  # after a restart
    assert again.record()["people"] == [0, 2]
