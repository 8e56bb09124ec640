"""How well the search's playout policies model a player: how often each one, shown the
true hands, plays the card that player played.

The search plays every sampled world out with one policy for every seat (``PLAYOUTS``
in :mod:`hearts.players.search.player`), so the policy is its model of the other
players. This seats ``--player`` in every seat (a bot spec, as the arena takes it),
plays ``--games`` seeded games and, at each of their plays with a choice, asks each
policy for its card in the true position. It prints, for leads, follows and discards,
the share of plays at which the policy's card is the player's (``same``) or plays
alike (``alike``: one run of :func:`~hearts.players.search.player.distinct_cards`, the
cards the search counts as one).

    .venv/bin/python benchmarks/playout_agreement.py --player normal --games 20
    .venv/bin/python benchmarks/playout_agreement.py --player expert:iterations=300 \\
        --games 2 --policies lead
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

import numpy as np

from hearts.arena.specs import BotSpec, build_player
from hearts.cli.common import bot_spec, name_list, positive_int, rules_text, seed_text
from hearts.core import Action, GameState, Play, PlayerView, Rules, new_game, view
from hearts.players.driver import run_game
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import mix_seed, playout_recorded
from hearts.players.search.player import PLAYOUTS, distinct_cards

__all__ = ["KINDS", "Agreement", "agreement", "main", "runs"]

KINDS = ("lead", "follow", "discard")

Agreement = dict[str, dict[str, tuple[int, int, int]]]
"""Per policy, per kind of play: (plays, same card, plays alike)."""


def runs(seen: PlayerView) -> dict[int, int]:
    """Each legal card of ``seen`` and the first card of its run of cards that play alike
    (:func:`~hearts.players.search.player.distinct_cards` keeps the first of each)."""
    kept = set(distinct_cards(seen))
    first: dict[int, int] = {}
    current = 0
    for card in seen.legal:  # in rank order, as distinct_cards walks them
        if card in kept:
            current = card
        first[card] = current
    return first


def agreement(player: str, policies: Sequence[str], games: int, rules: Rules,
              seed: str) -> Agreement:
    """Every policy's agreement with ``player`` over ``games`` games of it in every seat."""
    counts: Counter[tuple[str, str, str]] = Counter()
    rng = np.array([mix_seed(1, 0)], dtype=np.int64)
    played = np.zeros(64, dtype=np.int64)
    legal = np.zeros(64, dtype=np.int64)

    def observe(before: GameState, action: Action, _after: GameState) -> None:
        if not isinstance(action, Play):
            return
        seen = view(before, action.seat)
        if len(seen.legal) < 2:
            return
        hands = [before.hand(seat).mask for seat in range(before.players)]
        led = seen.trick[0][1].suit if seen.trick else None
        kind = ("lead" if led is None
                else "follow" if any(card.suit == led for card in seen.legal) else "discard")
        run_of = runs(seen)
        codes = rules_array(rules, seen.round_no)
        for name in policies:
            rng[0] = mix_seed(counts[name, kind, "plays"], len(kind))
            playout_recorded(position_array(seen, hands), codes, PLAYOUTS[name], rng,
                             played, legal)
            chosen, actual = int(played[0]), int(action.card)
            counts[name, kind, "plays"] += 1
            counts[name, kind, "same"] += chosen == actual
            counts[name, kind, "alike"] += run_of[chosen] == run_of[actual]

    spec = BotSpec.parse(player)
    for game in range(games):
        seats = [build_player(spec, seat=seat, rules=rules, seed=f"{seed}/g{game}/s{seat}")
                 for seat in range(rules.players)]
        run_game(new_game(rules, f"{seed}/g{game}"), seats, observers=[observe])
    return {name: {kind: (counts[name, kind, "plays"], counts[name, kind, "same"],
                          counts[name, kind, "alike"]) for kind in KINDS}
            for name in policies}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", type=bot_spec, default="normal",
                        help="bot spec of the players, one in every seat")
    parser.add_argument("--policies", type=name_list(PLAYOUTS, "policy", "policies"),
                        default=list(PLAYOUTS),
                        help="comma-separated playout policies (default: all)")
    parser.add_argument("--games", type=positive_int, default=20)
    parser.add_argument("--rules", type=rules_text, default="standard")
    parser.add_argument("--seed", type=seed_text, default="agreement-1")
    args = parser.parse_args(argv)
    rules = args.rules
    found = agreement(args.player, args.policies, args.games, rules, args.seed)
    print(f"{args.player}, {args.games} games, rules {rules.text}, seed {args.seed}: "
          "share of its plays with a choice that each policy matches (same card / plays alike)")
    print(f"{'policy':10s}" + "".join(f"{kind:>22s}" for kind in KINDS))
    for name, kinds in found.items():
        cells = []
        for kind in KINDS:
            plays, same, alike = kinds[kind]
            share = (f"{same / plays:.3f} / {alike / plays:.3f}" if plays else "-")
            cells.append(f"{share} ({plays})".rjust(22))
        print(f"{name:10s}" + "".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
