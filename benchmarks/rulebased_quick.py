"""Quick strength and speed figures of the rule-based levels (the arena does the official runs).

Strength: one level against three ``random`` players in 4-player games, over
duplicate deals: every deal is played once with the level in each seat, so every
seat's cards are played by it once; the pass direction cycles with the deal number.
Speed: wall time per decision of ``easy`` and ``normal`` over the same games.

    .venv/bin/python benchmarks/rulebased_quick.py --deals 125   # 500 hands a preset
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from hearts.core import Card, CardSet, MoonChoice, PlayerView, Rules, deal_hands, new_hand
from hearts.players import Player, make_player, run_game


class TimedPlayer:
    """Wraps a player and records the seconds each decision took."""

    def __init__(self, inner: Player, times: list[float]) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times

    def _timed(self, decide: Callable[[PlayerView], object], view: PlayerView) -> object:
        start = time.perf_counter()
        answer = decide(view)
        self.times.append(time.perf_counter() - start)
        return answer

    def choose_pass(self, view: PlayerView) -> CardSet:
        return self._timed(self.inner.choose_pass, view)  # type: ignore[return-value]

    def choose_play(self, view: PlayerView) -> Card:
        return self._timed(self.inner.choose_play, view)  # type: ignore[return-value]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self._timed(self.inner.choose_moon, view)  # type: ignore[return-value]


def run(preset: str, level: str, opponents: str, deals: int, times: list[float]) -> list[int]:
    """Points per hand of ``level`` against ``opponents`` over ``deals`` duplicate deals."""
    rules = Rules.parse(preset)
    scores: list[int] = []
    for deal in range(deals):
        hands = tuple(CardSet(h) for h in deal_hands(rules, f"rulebased-quick-{deal}"))
        for seat in range(rules.players):
            players = [make_player(opponents, f"{deal}-{seat}-{s}") for s in range(4)]
            players[seat] = TimedPlayer(make_player(level), times)
            state = new_hand(rules, hands, round_no=1 + deal % 4)
            state = run_game(state, players, stop=lambda s: bool(s.results))
            scores.append(state.results[-1].points[seat])
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=125, help="duplicate deals a preset")
    parser.add_argument("--levels", default="easy,normal")
    parser.add_argument("--presets", default="standard,card-commons")
    parser.add_argument("--opponents", default="random", help="level of the other three")
    args = parser.parse_args()
    for level in args.levels.split(","):
        times: list[float] = []
        for preset in args.presets.split(","):
            scores = run(preset, level, args.opponents, args.deals, times)
            mean = statistics.fmean(scores)
            half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
            print(f"{level:7} vs 3 {args.opponents}, {preset:13} {len(scores)} hands: "
                  f"{mean:.2f} ± {half:.2f} points/hand (an equal player: 6.5)")
        ordered = sorted(times)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"{level:7} per decision: mean {1000 * statistics.fmean(times):.3f} ms, "
              f"p95 {1000 * p95:.3f} ms, max {1000 * ordered[-1]:.1f} ms, {len(times)} decisions")


if __name__ == "__main__":
    main()
