"""Write the golden game records of ``tests/golden/``: one random seeded game per preset
and player count, plus a classic hand where the shooter chooses.

    .venv/bin/python scripts/make_golden.py

Run it only when a deliberate change of behaviour makes the stored games differ;
``tests/core/test_golden.py`` replays every file and fails if a preset lacks one.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from hearts.core import (
    PRESETS,
    CardSet,
    ChooseMoon,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    game_record,
    hand_record,
    iter_mask,
    new_game,
    new_hand,
)

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
COUNTS = {"card-commons": (3, 4), "standard": (4,), "classic": (2, 3, 4, 5, 6)}
MOON_HAND = "AC AS KS QS 6H 7H 8H 9H TH JH QH KH AH"


def random_game(rules: Rules, seed: int) -> dict[str, object]:
    """A whole seeded game, every decision drawn from a Random seeded alike."""
    rng = random.Random(seed)
    state = new_game(rules, seed)
    while not state.is_over:
        seat = state.to_act[0]
        if state.phase is Phase.PASS:
            cards = rng.sample(list(state.hand(seat)), rules.pass_count)
            state = state.apply(PassCards(seat, CardSet(cards)))
        else:
            state = state.apply(rng.choice(state.legal_actions(seat)))
    return game_record(state, [f"Seat {s + 1}" for s in range(rules.players)])


def moon_hand() -> dict[str, object]:
    """A classic hold-round hand that seat 0 shoots, choosing +26 for the others."""
    rules = Rules.preset_rules("classic")
    mine = CardSet.parse(MOON_HAND).mask
    rest = list(iter_mask(rules.deck & ~mine))
    hands = [mine] + [sum(1 << c for c in rest[k::3]) for k in range(3)]
    state = new_hand(rules, [CardSet(h) for h in hands], round_no=4, totals=(40, 50, 60, 70))
    while state.phase is Phase.PLAY:
        state = state.apply(Play(state.turn, next(iter(state.legal_cards()))))
    state = state.apply(ChooseMoon(0, MoonChoice.ADD))
    return hand_record(state)


def dump(record: dict[str, object]) -> str:
    """Indented JSON with every list of plain values on one line, for readable diffs."""
    text = json.dumps(record, indent=1)
    flat = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text)
    return flat + "\n"


def main() -> None:
    """Write every golden file."""
    assert set(COUNTS) == set(PRESETS)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for preset, counts in COUNTS.items():
        for players in counts:
            record = random_game(Rules.preset_rules(preset, players), seed=2026 + players)
            path = GOLDEN / f"game-{preset}-{players}p.json"
            path.write_text(dump(record), encoding="utf-8")
    path = GOLDEN / "hand-classic-moon-choice.json"
    path.write_text(dump(moon_hand()), encoding="utf-8")


if __name__ == "__main__":
    main()
