"""The ``normal`` and ``shooter`` levels' decisions, tied down game by game.

Seeded whole games on several tables are played by ``normal`` and ``shooter``, and
each game's actions (every pass, play and moon choice, in order, with the final
totals) are reduced to a SHA-256 digest stored in ``golden_normal.json``.
``test_golden_normal.py`` replays the games and compares, so a speed-up of the
rule-based player that changes a single decision fails it.

Regenerate only when a change of decisions is meant (and say so in the change):

    .venv/bin/python tests/players/golden_normal.py --regen
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from hearts.core import Action, Deal, Rules, encode_action
from hearts.players import make_player, play_game

__all__ = ["GOLDEN_PATH", "TABLES", "game_digest", "lineup", "play_digests"]

GOLDEN_PATH: Final = Path(__file__).with_name("golden_normal.json")

# Rules text -> games played on it: the three presets, 3 and 6 seats, and house rules
# that reach the player's less common branches (no Q♠, no pass, shooter's moon choice).
TABLES: Final[dict[str, int]] = {
    "standard": 40,
    "card-commons": 40,
    "classic": 40,
    "card-commons:players=3": 40,
    "classic:players=6": 40,
    "standard:moon=shooter-choice": 12,
    "card-commons:jack_of_diamonds=on": 12,
    "classic:players=2,removed=QS+2C": 12,
    "card-commons:players=3,pass_count=0": 12,
    "standard:pass_count=5,first_trick=any,hearts_lead=after-heart": 12,
}


def lineup(game: int, players: int) -> list[str]:
    """Even games: ``normal`` in every seat; odd games: ``shooter`` in every other
    seat, the seats shifting from game to game, so its runs meet ``normal``'s defence."""
    if game % 2 == 0:
        return ["normal"] * players
    return ["shooter" if (seat + game // 2) % 2 == 0 else "normal" for seat in range(players)]


def game_digest(history: Sequence[Action], totals: Sequence[int]) -> str:
    """SHA-256 of a game's seat actions in order and its final totals."""
    lines = []
    for action in history:
        if isinstance(action, Deal):
            lines.append("deal")
            continue
        kind, fields = encode_action(action)
        lines.append(f"{action.seat} {kind} {json.dumps(fields, sort_keys=True)}")
    lines.append(f"totals {list(totals)}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def play_digests(text: str, games: int) -> list[str]:
    """The digests of ``games`` seeded games on the table ``text``."""
    rules = Rules.parse(text)
    digests = []
    for game in range(games):
        seats = [make_player(level) for level in lineup(game, rules.players)]
        state = play_game(rules, seats, f"golden-normal-{text}-{game}")
        digests.append(game_digest(state.history, state.totals))
    return digests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regen", action="store_true",
                        help=f"play the games and write {GOLDEN_PATH.name}")
    args = parser.parse_args()
    if not args.regen:
        parser.error("nothing to do: pass --regen to rewrite the golden digests")
    golden = {text: play_digests(text, games) for text, games in TABLES.items()}
    GOLDEN_PATH.write_text(json.dumps(golden, indent=1) + "\n")
    print(f"wrote {sum(map(len, golden.values()))} game digests to {GOLDEN_PATH}")


if __name__ == "__main__":
    main()
