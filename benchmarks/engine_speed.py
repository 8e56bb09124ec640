"""Engine speed: random legal play of whole hands, ours against OpenSpiel's ``hearts``.

Both loops run in Python on one core for the same wall time, alternating in short
slices so that other load on the machine slows both alike. A hand is the whole of
one round: the deal, the pass (every seat picks its cards at random from what it may
pass), all tricks and the scoring, each choice drawn uniformly from the legal ones.
Ours plays whole seeded games (each round dealt from the seed) and counts their
hands; OpenSpiel's game is one hand.

    .venv/bin/python benchmarks/engine_speed.py --seconds 5 --preset standard
    .venv/bin/python benchmarks/engine_speed.py --profile   # where our time goes

OpenSpiel is optional: without ``pyspiel`` only our figure prints. The first line says
which engine ran: the compiled one, or the pure-Python one (``HEARTS_PURE_PYTHON=1``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

from hearts.cli.common import positive_number, rules_text
from hearts.core import CardSet, PassCards, Phase, Rules, new_game
from hearts.core._native import engine_in_use

__all__ = ["Meter", "against_openspiel", "hearts_hands", "main", "openspiel_hand", "race"]


def hearts_hands(rules: Rules, rng: random.Random, seed: int) -> int:
    """Play one seeded game of our engine at random through the public API; its hands."""
    choice, sample, count = rng.choice, rng.sample, rules.pass_count
    state = new_game(rules, seed)
    while not state.is_over:
        if state.phase is Phase.PASS:
            for seat in state.to_act:
                hand = list(state.legal_cards(seat))
                state = state.apply(PassCards(seat, CardSet(sample(hand, count))))
        else:  # a play, or the shooter's moon choice
            state = state.apply(choice(state.legal_actions()))
    return len(state.results)


def openspiel_hand(game: object, rng: random.Random) -> int:
    """Play one hand of OpenSpiel's ``hearts`` at random from Python (its games are hands)."""
    choice = rng.choice
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])
        else:
            state.apply_action(choice(state.legal_actions()))
    return 1


class Meter:
    """Hands and seconds of one engine, measured in short slices."""

    def __init__(self, play: Callable[[int], int]) -> None:
        self.play = play
        self.hands = self.runs = 0
        self.seconds = 0.0

    def run_for(self, seconds: float) -> None:
        """Play whole runs for about ``seconds`` more."""
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            self.hands += self.play(self.runs)
            self.runs += 1
        self.seconds += time.process_time() - start

    @property
    def rate(self) -> float:
        """Hands per second so far."""
        return self.hands / self.seconds if self.seconds else 0.0


def race(meters: list[Meter], seconds: float, slice_s: float = 0.25) -> None:
    """Alternate the meters in short slices, so a busy machine slows all of them alike."""
    spent = 0.0
    while spent < seconds:
        for meter in meters:
            meter.run_for(slice_s)
        spent += slice_s


def main() -> None:
    """Print hands per second for both engines and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_number, default=5.0,
                        help="run time per engine")
    parser.add_argument("--preset", type=rules_text, default="standard",
                        help="our rules text (OpenSpiel "
                        "plays its default, which matches standard)")
    parser.add_argument("--profile", action="store_true",
                        help="profile our loop with cProfile instead and print the top functions")
    args = parser.parse_args()
    rules: Rules = args.preset
    rng = random.Random(1)
    ours = Meter(lambda i: hearts_hands(rules, rng, i))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(race, [ours], args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    print(f"engine: {engine_in_use()}")
    against_openspiel(f"card-commons-hearts ({rules.text})", ours, args.seconds, rng)


def against_openspiel(name: str, meter: Meter, seconds: float, rng: random.Random) -> None:
    """Race ``meter`` against OpenSpiel's hearts (when installed) and print both and the ratio."""
    try:
        import pyspiel
    except ImportError:
        race([meter], seconds)
        print(f"{name}: {meter.rate:,.0f} hands/s")
        print("pyspiel not installed: no comparison")
        return
    game = pyspiel.load_game("hearts")
    theirs = Meter(lambda i: openspiel_hand(game, rng))
    race([meter, theirs], seconds)
    for label, each in ((name, meter), ("OpenSpiel hearts (Python loop)", theirs)):
        print(f"{label}: {each.rate:,.0f} hands/s ({each.hands} hands in {each.seconds:.1f} s)")
    print(f"ratio: {meter.rate / theirs.rate:.2f}x")


if __name__ == "__main__":
    main()
