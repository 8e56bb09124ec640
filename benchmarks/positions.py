"""Every level on the suite of hand-built positions (``tests/players/positions.toml``).

Each position comes with the decision a strong player makes (issue 12); this asks every
level for its decision there, checks it is legal through the core, and prints each
level's score (solved / total) and its answer on every position. The search levels are
seeded, with their own time budget unless ``--iterations`` fixes the worlds sampled
(then the table is the same on any machine).

    .venv/bin/python benchmarks/positions.py
    .venv/bin/python benchmarks/positions.py --levels normal,hard --iterations 500
"""

from __future__ import annotations

import argparse
import random
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hearts.cli.common import level_list, non_negative_int, positive_int
from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    read_position,
    view,
)
from hearts.players import Player, make_player
from hearts.players.levels import LEVELS

__all__ = ["SUITE", "Decision", "Entry", "decide", "load_suite", "main", "make_level",
           "solved"]

SUITE: Final = Path(__file__).parents[1] / "tests" / "players" / "positions.toml"

Decision = Card | CardSet | MoonChoice


@dataclass(frozen=True)
class Entry:
    """One position of the suite: where, who decides, and what is right."""

    name: str
    theme: str
    state: GameState
    seat: int
    good: tuple[str, ...]
    bad: tuple[str, ...]
    why: str


def load_suite(path: Path = SUITE) -> list[Entry]:
    """The suite's positions, each read (and so checked) by the core."""
    entries = []
    for item in tomllib.loads(path.read_text(encoding="utf-8"))["position"]:
        state = read_position(item["position"])
        seat = item.get("seat", state.to_act[0] if len(state.to_act) == 1 else None)
        if seat is None or seat not in state.to_act:
            raise ValueError(f"{item['name']}: seat {seat} does not act in this position "
                             f"(acting: {state.to_act})")
        good, bad = tuple(item.get("good", ())), tuple(item.get("bad", ()))
        if bool(good) == bool(bad):
            raise ValueError(f"{item['name']}: give the right decisions (good) or the "
                             "wrong ones (bad), one of the two")
        entries.append(Entry(item["name"], item["theme"], state, seat, good, bad, item["why"]))
    return entries


def make_level(level: str, seed: int, iterations: int | None = None) -> Player:
    """A seeded player of ``level``; a search level samples ``iterations`` worlds a
    decision when given."""
    if iterations is not None and level in ("hard", "expert"):
        return LEVELS[level](random.Random(seed), iterations=iterations)  # type: ignore[call-arg]
    return make_player(level, seed)


def decide(player: Player, entry: Entry) -> Decision:
    """The player's decision at the entry, checked legal by applying it to the state."""
    seen = view(entry.state, entry.seat)
    decision: Decision
    if entry.state.phase is Phase.PLAY:
        decision = player.choose_play(seen)
        entry.state.apply(Play(entry.seat, Card(decision)))
    elif entry.state.phase is Phase.PASS:
        decision = player.choose_pass(seen)
        entry.state.apply(PassCards(entry.seat, decision))
    else:
        decision = player.choose_moon(seen)
        entry.state.apply(ChooseMoon(entry.seat, decision))
    return decision


def _words(decision: Decision) -> set[str]:
    if isinstance(decision, MoonChoice):
        return {decision.value}
    if isinstance(decision, CardSet):
        return set(decision.names())
    return {str(decision)}


def solved(entry: Entry, decision: Decision) -> bool:
    """Whether the decision is right by the entry: one of ``good`` (a pass holding all of
    them), or none of ``bad``."""
    words = _words(decision)
    if entry.bad:
        return not words & {_canonical(w) for w in entry.bad}
    good = {_canonical(w) for w in entry.good}
    return good <= words if isinstance(decision, CardSet) else bool(words & good)


def _canonical(word: str) -> str:
    return word if word in {c.value for c in MoonChoice} else str(Card(word))


def _shown(decision: Decision) -> str:
    return " ".join(sorted(_words(decision))) if isinstance(decision, CardSet) else (
        next(iter(_words(decision))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=level_list, default=",".join(LEVELS),
                        help="comma-separated levels (default: all)")
    parser.add_argument("--seed", type=non_negative_int, default=1, help="seed of every player")
    parser.add_argument("--iterations", type=positive_int, default=None,
                        help="worlds a search decision samples (default: the level's time)")
    args = parser.parse_args()
    levels: list[str] = args.levels
    entries = load_suite()
    answers = {level: [decide(make_level(level, args.seed, args.iterations), entry)
                       for entry in entries] for level in levels}
    width = max(len(entry.name) for entry in entries)
    print(f"{'position':{width}}  " + "  ".join(f"{level:>14}" for level in levels))
    for i, entry in enumerate(entries):
        cells = [("ok " if solved(entry, answer) else "NO ") + _shown(answer)
                 for answer in (answers[level][i] for level in levels)]
        print(f"{entry.name:{width}}  " + "  ".join(f"{cell:>14}" for cell in cells))
    scores = [sum(solved(e, a) for e, a in zip(entries, answers[level], strict=True))
              for level in levels]
    print(f"{'solved':{width}}  " + "  ".join(f"{f'{s}/{len(entries)}':>14}" for s in scores))
    budget = "the level's time budget" if args.iterations is None else (
        f"{args.iterations} worlds a decision")
    print(f"(seed {args.seed}; search levels: {budget})")


if __name__ == "__main__":
    main()
