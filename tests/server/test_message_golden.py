"""Every message a table sends, and every view's JSON, byte for byte as recorded.

The server builds a state message for each seat after every action, so its encoding is
tuned for speed (issue 15); this test pins what it says. Seeded games in each preset for
3, 4 and 6 players (those the preset allows) run through a real :class:`TableAuthority`
with a connection on every seat and a spectator, and the SHA-256 of each connection's
texts in order is compared with ``message_golden.json``; so is the SHA-256 of
``view(state, seat).to_json()`` for every seat and a spectator at every state of seeded
core games and of moon hands (the shooter's choice, which random play hardly reaches).

A change that means to alter the messages re-records the file, and says so in review::

    .venv/bin/python -m tests.server.test_message_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.core.hearts_scenarios import MOON_HANDS, start
from tests.server.test_table_authority import Clock

from hearts.core import (
    PRESETS,
    Action,
    CardSet,
    GameState,
    InvalidRulesError,
    PassCards,
    Phase,
    Rules,
    new_game,
    view,
)
from hearts.server.authority import TableAuthority
from hearts.server.protocol import RequestError
from hearts.server.settings import ServerConfig, TableSettings
from hearts.server.store import SqliteStore

GOLDEN = Path(__file__).with_name("message_golden.json")
PLAYERS = (3, 4, 6)
TARGET = 50  # several rounds, a hold round among them, and the game's end


def _plays(preset: str, players: int) -> bool:
    try:
        Rules.parse(f"{preset}:players={players}")
    except InvalidRulesError:
        return False
    return True


CASES = [(preset, players) for preset in PRESETS for players in PLAYERS
         if _plays(preset, players)]
CONFIG = ServerConfig(entropy_timeout_s=3.0, takeover_level="random")


class Keeper:
    """A connection that keeps every text it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send_text(self, text: str) -> None:
        self.texts.append(text)


def _random_action(state: GameState, rng: random.Random) -> Action:
    """A seeded random decision of a seeded random seat among those to act."""
    seat = rng.choice(state.to_act)
    if state.phase is Phase.PASS:
        hand = list(state.legal_cards(seat))
        return PassCards(seat, CardSet(rng.sample(hand, state.rules.pass_count)))
    return rng.choice(state.legal_actions(seat))


def table_digests(preset: str, players: int) -> dict[str, str]:
    """Per connection (seat number, or ``spectator``), the SHA-256 of the texts it got
    through one seeded game at a table of people."""
    settings = TableSettings.build(preset=preset, players=players, options="", target=TARGET,
                                   seats=["human"] * players, public=True, title="Golden",
                                   bot_seed="golden")
    store = SqliteStore(":memory:")
    store.create_table("golden", settings.to_json())
    table = TableAuthority("golden", settings, store, CONFIG, clock=Clock())
    keepers = [Keeper(seat) for seat in range(players)] + [Keeper(None)]
    for seat in range(players):
        table.join(f"P{seat}", f"token-{seat}")
    for rid, keeper in enumerate(keepers):
        table.attach(keeper)
        table.welcome(keeper, rid)
    rng = random.Random(f"{preset}/{players}")
    count = 0
    while not table.state.is_over:
        if table.needs_commitment:
            table.commit_round(f"secret-{table.state.round_no}")
            for seat in range(players):
                table.add_entropy(seat, f"entropy-{seat}-{table.state.round_no}")
            action: Action = table.deal()
            actor = None
        else:
            action = _random_action(table.state, rng)
            actor = keepers[action.seat]
        before = table.state
        table.commit_action(before, action, before.apply(action), actor, count)
        count += 1
        if count % 7 == 0:  # a stale action now and then: its error and a state for one
            table.send_error(rng.choice(keepers),
                             RequestError("stale_state", "you acted on an old state"), count)
    return {("spectator" if k.seat is None else str(k.seat)):
            hashlib.sha256("\n".join(k.texts).encode()).hexdigest() for k in keepers}


def _views_text(state: GameState) -> Iterator[str]:
    for seat in (None, *range(state.players)):
        yield json.dumps(view(state, seat).to_json(), separators=(",", ":"))


def _game_states(rules: Rules, seed: str) -> Iterator[GameState]:
    rng = random.Random(seed)
    state = new_game(rules, seed)
    yield state
    while not state.is_over:
        if state.phase is Phase.DEAL:
            deal = state.next_deal
            assert deal is not None
            state = state.apply(deal)
        else:
            state = state.apply(_random_action(state, rng))
        yield state


def _moon_states(rules: Rules) -> Iterator[GameState]:
    """A moon hand played to the shooter's choice, and each choice after it."""
    waiting = start(rules, {0: MOON_HANDS[rules.players]})
    while waiting.phase is Phase.PLAY:
        yield waiting
        waiting = waiting.apply(waiting.legal_actions()[0])
    yield waiting
    for action in waiting.legal_actions():
        yield waiting.apply(action)


def view_digests(preset: str, players: int) -> dict[str, str]:
    """The SHA-256 of every seat's and a spectator's view JSON at every state of a seeded
    game, and of a moon hand played out with and without the shooter's choice."""
    result = {}
    for moon in ("shooter-minus", "shooter-choice"):
        rules = Rules.parse(f"{preset}:players={players},target={TARGET},moon={moon}")
        digest = hashlib.sha256()
        states = (_moon_states(rules) if moon == "shooter-choice"
                  else _game_states(rules, f"{preset}/{players}"))
        for state in states:
            for text in _views_text(state):
                digest.update(text.encode())
                digest.update(b"\n")
        result["moon" if moon == "shooter-choice" else "game"] = digest.hexdigest()
    return result


def _recorded() -> dict[str, dict[str, dict[str, str]]]:
    recorded: dict[str, dict[str, dict[str, str]]] = json.loads(GOLDEN.read_text())
    return recorded


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_table_messages_match_the_recorded_bytes(preset: str, players: int) -> None:
    assert table_digests(preset, players) == _recorded()[f"{preset}/{players}"]["messages"]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_view_json_matches_the_recorded_bytes(preset: str, players: int) -> None:
    assert view_digests(preset, players) == _recorded()[f"{preset}/{players}"]["views"]


def test_what_a_client_sends_is_never_taken_for_a_seats_own_member() -> None:
    """Members are marked by a NUL while a message is encoded; a client's request id
    holding one comes back as sent, and the view is still the seat's."""
    settings = TableSettings.build(preset="standard", players=4, options="", target=None,
                                   seats=["human"] * 4, public=True, title="Marks",
                                   bot_seed="marks")
    store = SqliteStore(":memory:")
    store.create_table("marks", settings.to_json())
    table = TableAuthority("marks", settings, store, CONFIG, clock=Clock())
    table.join("P0", "token-0")
    keeper = Keeper(0)
    table.attach(keeper)
    for rid in ("\x00hand", "\x00nothing", "\x01results", ["\x00seat"]):
        table.welcome(keeper, rid)
        message = json.loads(keeper.texts[-1])
        assert message["id"] == rid
        assert message["view"] == view(table.state, 0).to_json()


def test_the_recorded_games_reach_the_phases_they_pin() -> None:
    """The seeded games end, pass and hold; the moon hands wait for a choice."""
    for preset, players in CASES:
        rules = Rules.parse(f"{preset}:players={players},target={TARGET}")
        states = list(_game_states(rules, f"{preset}/{players}"))
        assert states[-1].is_over and states[-1].winners
        phases = {s.phase for s in states}
        assert {Phase.PASS, Phase.PLAY, Phase.DEAL} <= phases
        assert any(s.phase is Phase.PLAY and s.pass_offset == 0 and not s.tricks
                   for s in states), "no hold round"
        moon = list(_moon_states(Rules.parse(f"{preset}:players={players},"
                                             "moon=shooter-choice")))
        assert [s.phase for s in moon].count(Phase.MOON) == 1


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(
        {f"{preset}/{players}": {"messages": table_digests(preset, players),
                                 "views": view_digests(preset, players)}
         for preset, players in CASES}, indent=1) + "\n")
    print(f"recorded {GOLDEN}")
