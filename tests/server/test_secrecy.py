"""No client ever receives a card it may not see: every message of whole games is checked.

Two people and two computer players play whole games while spectators watch; every
message to every connection is recorded. Afterwards the finished game record is
replayed to the true state at each state id, and each card named in a message must be
one its recipient may know at that moment: its own dealt and received cards, cards
already played, and cards removed from the deck. A spectator may know only the last two.
A refusal may also name the cards of the request it refuses (:func:`may_know`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Any

import pytest
from tests.server.conftest import (
    FAST,
    Client,
    Server,
    autoplay,
    create_table,
    join_table,
    play_together,
)

from hearts.core import (
    Card,
    CardSet,
    Deal,
    GameState,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    new_game,
    replay_game,
    view,
)
from hearts.players.hints import CHANCES, Hint, shown_chances
from hearts.players.search.player import CandidateFigures
from hearts.server.settings import ServerConfig
from hearts.server.websocket import _hint_json

CARD = re.compile(r"\b[2-9TJQKA][CDSH]\b")


# Hints rationed as a server gives them (a few, then one in two seconds): most of Ann's
# hints are refused while her plays go through, as on the cluster's servers.
HINTS_RATIONED = dataclasses.replace(FAST, hint_burst=ServerConfig().hint_burst,
                                     hint_per_s=ServerConfig().hint_per_s)


def states_by_id(record: dict[str, Any]) -> list[GameState]:
    """The state after each of the record's game actions, indexed by the server's state id."""
    rules = Rules.parse(record["rules"])
    state = new_game(rules, None)
    states = [state]
    for entry in record["rounds"]:
        actions: list[Any] = [Deal(tuple(CardSet(h) for h in entry["hands"]),
                                   entry["deal_seed"])]
        actions += [PassCards(s, CardSet(p)) for s, p in enumerate(entry["passes"] or [])
                    if p is not None]
        for name in entry["plays"]:
            actions.append(name)
        for action in actions:
            if isinstance(action, str):
                action = Play(state.turn, next(iter(CardSet([action]))))
            state = state.apply(action)
            states.append(state)
        if state.phase is Phase.MOON:
            raise AssertionError("these games use no moon choice")
    return states


def may_see(state: GameState, seat: int | None) -> int:
    """Cards a seat may know in this state (seat None: a spectator)."""
    visible = state.rules.removed
    for trick in state.tricks:
        visible |= CardSet(trick.cards).mask
    visible |= CardSet(card for _, card in state.trick).mask
    if seat is not None and state.phase is not Phase.DEAL:
        visible |= state.dealt(seat).mask
        received = state.received(seat)
        if received is not None:
            visible |= received.mask
    if state.phase is Phase.DEAL and state.results:
        visible = state.rules.deck  # between rounds: every card of the last round was played
    return visible


def cards_in(message: Any) -> set[str]:
    """Every card name anywhere in a message, free text included."""
    if isinstance(message, str):
        return set(CARD.findall(message))
    if isinstance(message, dict):
        return set().union(*(cards_in(v) for v in message.values())) if message else set()
    if isinstance(message, list):
        return set().union(*(cards_in(v) for v in message)) if message else set()
    return set()


def may_know(message: dict[str, Any], state: GameState, client: Client) -> set[str]:
    """The cards ``client`` may find in ``message`` at ``state``: those its seat may see
    then, and in a refusal the cards of the request it refuses, found by its id. A client
    may name any card, and a play is checked against the rules before its state id, so a
    card it does not hold is named back ("9D cannot be played: it is not in your hand"):
    its own word, not a secret (the refused-play test below). Only that request's cards:
    every card a client ever sent would be most of the deck after a few rounds."""
    allowed = set(CardSet(may_see(state, client.seat)).names())
    rid = message.get("id")
    if message["type"] == "error" and rid is not None:
        allowed |= cards_in([sent for sent in client.sent if sent.get("id") == rid])
    return allowed


def message_state_id(message: dict[str, Any], last: int) -> int:
    if isinstance(message.get("state_id"), int):
        return int(message["state_id"])
    table = message.get("table")
    if isinstance(table, dict):
        return int(table["state_id"])
    return last


@pytest.mark.parametrize("server_config", [FAST, HINTS_RATIONED],
                         ids=["every-hint-answered", "hints-rationed"])
async def test_no_client_ever_receives_a_card_it_may_not_see(server: Server) -> None:
    checked = 0
    for game in range(2):
        made = await create_table(server, ["human", "random", "human", "random"], target=30)
        table_id = made["table"]["id"]
        joined = await join_table(server, table_id, "Bob")
        watchers = [await Client.open(server, table_id, None) for _ in range(2)]
        ann = await Client.open(server, table_id, made["token"])
        ann_again = await Client.open(server, table_id, made["token"])  # a second tab
        bob = await Client.open(server, table_id, joined["token"])
        # Ann asks for hints: they name cards too, which must be her own.
        await play_together(server, table_id, [autoplay(ann, hints=game == 0), bob])
        await asyncio.sleep(0.2)
        for client in (*watchers, ann_again):
            while True:
                try:
                    await client.recv(timeout=0.2)
                except TimeoutError:
                    break
        async with server.http() as http:
            record = (await http.get(f"/api/tables/{table_id}/record")).json()
        assert replay_game(record).is_over
        states = states_by_id(record)
        for client in (*watchers, ann, ann_again, bob):
            last = 0
            assert client.received, "every connection heard the game"
            for message in client.received:
                last = message_state_id(message, last)
                leaked = cards_in(message) - may_know(message, states[last], client)
                assert not leaked, (game, client.seat, last, message["type"], leaked)
                checked += len(cards_in(message))
        # a hint's refusal is not the play's answer: no action was sent again on a view
        # already acted on (and refused, naming its card, once the round moved on)
        refused = [m for m in (*ann.received, *bob.received)
                   if m["type"] == "error" and isinstance(m.get("id"), int)]
        assert not refused, refused[:3]
        hints = [m for m in ann.received if m["type"] == "hint"]
        assert hints or game > 0
        for message in hints:  # a hint names its move's kind: the phase it was asked in
            assert message["hint"]["kind"] == states[message["state_id"]].phase.value
            assert_chances_follow_the_rule(message["hint"])
            assert_every_legal_card_is_in_one_row(message["hint"],
                                                  view(states[message["state_id"]], ann.seat))
    assert checked > 5000  # the check looked at real traffic, hands included


async def test_a_refused_play_names_the_card_it_asked_for_and_no_other_secret(
        server: Server) -> None:
    """Why :func:`may_know` lets a refusal name a card the seat may not see: any client
    may name any card (a buggy or hostile one, or one that retries a play across a deal),
    and a play of a card another seat holds is refused naming it: the client's own word."""
    made = await create_table(server, ["human", "random", "random", "random"], target=30)
    table_id = made["table"]["id"]
    ann = await Client.open(server, table_id, made["token"])
    await asyncio.wait_for(autoplay(ann, until=lambda v: v["phase"] == "play"
                                    and v["to_act"] == [ann.seat]), 30)
    state = server.app.state.hub.tables[table_id].authority.state
    seen = may_see(state, ann.seat)
    unseen = CardSet(state.rules.deck & ~seen).names()
    await ann.send({"type": "play", "card": unseen[0], "state_id": ann.state_id, "id": "odd"})
    refusal = await ann.expect(lambda m: m.get("id") == "odd")
    assert (refusal["type"], refusal["code"]) == ("error", "illegal"), refusal
    assert cards_in(refusal) - set(CardSet(seen).names()) == {unseen[0]}, refusal
    assert not cards_in(refusal) - may_know(refusal, state, ann)
    # the allowance is that request's alone: another refusal may not name the card
    assert unseen[0] not in may_know(dict(refusal, id="another"), state, ann)


def assert_chances_follow_the_rule(hint: dict[str, Any]) -> None:
    """The chances a hint names for its figures' columns are exactly those that show as
    1% or more for some candidate, and losing the game whenever the game ends in 1% or
    more of the deals: the figures come as the whole percents a face shows, so the rule
    can be told from them."""
    figures = hint["figures"]
    assert set(hint["chances"]) <= set(CHANCES)
    for figure in figures:
        for name in (*CHANCES, "game_ends"):
            assert round(100 * figure[name]) == pytest.approx(100 * figure[name]), figure
    ends = any(round(100 * f["game_ends"]) > 0 for f in figures)
    expected = [name for name in CHANCES
                if any(round(100 * f[name]) > 0 for f in figures)
                or (ends and name == "game_lost")]
    assert hint["chances"] == expected, figures


def assert_every_legal_card_is_in_one_row(hint: dict[str, Any], seen: PlayerView) -> None:
    """A play's figures name every legal card once: the card weighed, or among the cards
    that play alike with it (the search weighs one of each run)."""
    if hint["kind"] != "play" or not hint["figures"]:
        assert all(not f["alike"] for f in hint["figures"])
        return
    named = [card for f in hint["figures"] for card in (*f["cards"], *f["alike"])]
    assert sorted(named) == sorted(seen.legal.names()), hint["figures"]


@pytest.mark.parametrize("game_ends", [0.0, 1 / 71_429, 0.0049, 0.005, 0.5])
@pytest.mark.parametrize("queen", [0.0, 0.0049, 0.005, 0.0051, 0.125])
def test_a_hints_figures_reach_a_face_as_the_percents_its_chances_were_chosen_by(
        game_ends: float, queen: float) -> None:
    candidates = tuple(CandidateFigures(CardSet.parse(cards), 1.0, 2.0, chance, 0.0, 0.0,
                                        game_ends, 0.0, worlds=71_429)
                       for cards, chance in (("TH", queen), ("3H", 0.0)))
    sent = _hint_json(Hint(Play(0, Card("TH")), "why", candidates,
                           chances=shown_chances(candidates)))
    assert_chances_follow_the_rule(sent)
