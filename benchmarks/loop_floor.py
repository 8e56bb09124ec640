"""The ceiling of a Python-driven loop: a bare trick-taking loop against OpenSpiel's ``hearts``.

``engine_speed.py`` compares our engine with OpenSpiel's C++ one, both driven from Python
(legal actions, a random choice, apply). This script asks how fast *any* engine written in
Python could go in that loop: a bare four-seat trick loop with nothing but follow-suit,
no hearts led before they break, and trick winners. It has no pass, no seeded deal (the
deck is shuffled by ``random``), no rule options, no checks of the action, no action log
and no scoring. It is not the game and nothing else uses it: it only measures what the
loop shape itself costs in CPython, so that engine figures can be read against it.

    .venv/bin/python benchmarks/loop_floor.py --seconds 5

OpenSpiel is optional (``pip install -e '.[bench]'``): without ``pyspiel`` only the bare
figure prints.
"""

from __future__ import annotations

import argparse
import random

from engine_speed import Meter, against_openspiel

from hearts.cli.common import positive_number

__all__ = ["BareTricks", "bare_hand", "main"]

_SUITS = tuple(0x1FFF << (13 * suit) for suit in range(4))
_SUIT_OF = tuple(_SUITS[card // 13] for card in range(52))
_HEARTS = _SUITS[3]
# the (seat, card) actions of every one-suit mask met, shared by all tables as the engine's are
_PLAYS: list[dict[int, tuple[tuple[int, int], ...]]] = [{} for _ in range(4)]


class BareTricks:
    """Thirteen tricks among four seats, with the least work a Python loop can do."""

    __slots__ = ("broken", "hands", "leader", "trick", "tricks", "turn")

    def __init__(self, hands: list[int]) -> None:
        self.hands = hands
        self.trick: tuple[int, ...] = ()
        self.turn = self.leader = self.tricks = 0
        self.broken = False

    def legal_actions(self) -> list[tuple[int, int]]:
        """Follow suit if able; lead no heart before hearts break unless only hearts remain."""
        hand = self.hands[self.turn]
        if self.trick:
            legal = hand & _SUIT_OF[self.trick[0]] or hand
        else:
            legal = hand if self.broken else hand & ~_HEARTS or hand
        cache = _PLAYS[self.turn]
        actions: list[tuple[int, int]] = []
        for suit in _SUITS:
            part = legal & suit
            if part:
                found = cache.get(part)
                if found is None:
                    found = cache[part] = tuple(
                        (self.turn, card) for card in range(52) if part >> card & 1)
                actions += found
        return actions

    def apply(self, action: tuple[int, int]) -> None:
        """Play a card (unchecked) and settle the trick when it is full."""
        seat, card = action
        self.hands[seat] ^= 1 << card
        trick = (*self.trick, card)
        if len(trick) < 4:
            self.trick = trick
            self.turn = (seat + 1) % 4
            return
        led, high, best = trick[0] // 13, trick[0], 0
        for i, played in enumerate(trick):
            if played // 13 == led and played > high:
                high, best = played, i
            if played // 13 == 3:
                self.broken = True
        self.trick = ()
        self.leader = self.turn = (self.leader + best) % 4
        self.tricks += 1


def bare_hand(rng: random.Random) -> int:
    """One bare hand at random: 52 legal-actions, choice and apply steps."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0] * 4
    for k, card in enumerate(deck):
        hands[k % 4] |= 1 << card
    table = BareTricks(hands)
    choice, legal, apply = rng.choice, table.legal_actions, table.apply
    while table.tricks < 13:
        apply(choice(legal()))
    return 1


def main() -> None:
    """Print hands per second of the bare loop and of OpenSpiel, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_number, default=5.0, help="CPU time per loop")
    args = parser.parse_args()
    rng = random.Random(1)
    against_openspiel("bare Python trick loop", Meter(lambda _: bare_hand(rng)), args.seconds,
                      rng)


if __name__ == "__main__":
    main()
