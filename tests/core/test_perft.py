"""Perft: legal play sequences counted to a depth from fixed post-pass positions.

The engine's count and an independent brute-force count (``hearts_reference``) must
both equal the stored figure. On a mismatch the failure shows a divide: the count
below each first move, engine against reference.
"""

from __future__ import annotations

import pytest
from hearts_reference import Table, reference_legal

from hearts.core import CardSet, GameState, PassCards, Phase, Play, Rules, new_game

# (rules text, game seed, plays made by the lowest-legal policy first, depth, sequences)
POSITIONS = [
    ("card-commons", "perft-1", 0, 7, 12892),
    ("card-commons:players=3", "perft-2", 0, 6, 3888),
    ("standard", "perft-3", 0, 9, 23154),
    ("standard", "perft-4", 17, 6, 304),
    ("classic:players=2", "perft-5", 0, 5, 11730),
    ("classic:players=5", "perft-6", 0, 7, 3838),
    ("classic:players=6", "perft-7", 9, 7, 28744),
    ("classic", "perft-8", 21, 6, 3216),
    ("card-commons", "perft-9", 25, 5, 6468),
    ("standard:first_lead=dealer-left,hearts_lead=after-heart", "perft-10", 0, 5, 2147),
    ("card-commons:first_lead=dealer-left", "perft-11", 0, 4, 222),
]


def position(rules_text: str, seed: str, prefix: int) -> GameState:
    """Round 1 of a seeded game after every seat passed its highest cards, then ``prefix``
    plays of each seat's lowest legal card."""
    rules = Rules.parse(rules_text)
    state = new_game(rules, seed)
    for seat in range(rules.players):
        state = state.apply(PassCards(seat, CardSet(list(state.hand(seat))[-rules.pass_count:])))
    for _ in range(prefix):
        state = state.apply(Play(state.turn, next(iter(state.legal_cards()))))
    assert state.phase is Phase.PLAY
    return state


def engine_perft(state: GameState, depth: int) -> int:
    """Play sequences of length ``depth`` through the public API."""
    if depth == 0 or state.phase is not Phase.PLAY:
        return 1
    return sum(engine_perft(state.apply(a), depth - 1) for a in state.legal_actions())


def table_of(state: GameState) -> Table:
    """The reference's own record of the position, rebuilt from the plays so far."""
    rules = state.rules
    hands = [set(state.hand(s)) for s in range(rules.players)]
    played = [c for t in state.tricks for c in t.cards] + [c for _, c in state.trick]
    leader = state.tricks[0].leader if state.tricks else state.leader
    for trick in state.tricks:
        for offset, card in enumerate(trick.cards):
            hands[(trick.leader + offset) % rules.players].add(card)
    for seat, card in state.trick:
        hands[seat].add(card)
    table = Table(rules, hands, leader)
    for card in played:
        table.play(card)
    return table


def reference_perft(table: Table, depth: int) -> int:
    """The same count by brute force over the reference's legality."""
    if depth == 0 or not any(table.hands):
        return 1
    total = 0
    for card in sorted(reference_legal(table)):
        branch = table.branch()
        branch.play(card)
        total += reference_perft(branch, depth - 1)
    return total


def divide(state: GameState, depth: int) -> str:
    """Counts below each first move, engine against reference, for a failure message."""
    lines = []
    table = table_of(state)
    for action in state.legal_actions():
        assert isinstance(action, Play)
        branch = table.branch()
        branch.play(action.card)
        ours = engine_perft(state.apply(action), depth - 1)
        theirs = reference_perft(branch, depth - 1)
        lines.append(f"  {action.card}: engine {ours}, reference {theirs}")
    engine_cards = {int(a.card) for a in state.legal_actions() if isinstance(a, Play)}
    for card in sorted(reference_legal(table) - engine_cards):
        branch = table.branch()
        branch.play(card)
        theirs = reference_perft(branch, depth - 1)
        lines.append(f"  {card}: engine (not legal), reference {theirs}")
    return "\n".join(lines)


@pytest.mark.parametrize(("rules_text", "seed", "prefix", "depth", "expected"), POSITIONS,
                         ids=[f"{p[0]}-{p[1]}" for p in POSITIONS])
def test_perft(rules_text: str, seed: str, prefix: int, depth: int, expected: int) -> None:
    state = position(rules_text, seed, prefix)
    ours = engine_perft(state, depth)
    theirs = reference_perft(table_of(state), depth)
    if not ours == theirs == expected:
        pytest.fail(f"perft {depth}: engine {ours}, reference {theirs}, stored {expected}\n"
                    + divide(state, depth))
