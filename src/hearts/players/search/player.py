"""The search player: levels ``hard`` and ``expert``.

For each legal card it deals the unseen cards many times, consistently with its view
(:mod:`~hearts.players.search.sampler`), plays every world out with a cheap heuristic
policy in the compiled kernel, and plays the card with the best average outcome. The
outcome is the seat's game standing, not only its round points (see
:func:`~hearts.players.search.kernel.utility`). Passes are chosen the same way among
the rule-based pass and combinations of the hand's most dangerous cards, and the moon
choice by who it leaves winning the game. It never sees the game state.
"""

from __future__ import annotations

import functools
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from hearts.core import (
    HEARTS,
    QUEEN_OF_SPADES,
    Card,
    CardSet,
    MoonChoice,
    PlayerView,
    Rules,
    card_points,
    cards_above,
    cards_below,
    first_leader,
    iter_mask,
    play_rules,
)
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import (
    MOON_ADD,
    MOON_SUBTRACT,
    POLICY_HEURISTIC,
    S_SIZE,
    S_TAKEN,
    evaluate_cards,
    evaluate_passes,
    round_points_for_choice,
    sample_hands,
    utility,
)
from hearts.players.search.sampler import HiddenInfo

__all__ = ["LEVEL_BUDGETS", "SearchBudget", "SearchPlayer", "distinct_cards",
           "pass_candidates"]


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a decision may cost: wall time (None: no limit) and sampled worlds."""

    seconds: float | None
    max_worlds: int


LEVEL_BUDGETS: Final = {
    "hard": SearchBudget(seconds=0.2, max_worlds=5_000),
    # 0.7 s leaves room under the 1 s promise for a busy machine and the Python around it.
    "expert": SearchBudget(seconds=0.7, max_worlds=50_000),
}

# Cards beyond the pass count in the pool of candidate passes: C(6, 3) = 20 passes.
_POOL_EXTRA: Final = 3
_SPADE_DANGER: Final = {QUEEN_OF_SPADES: 100, Card("AS"): 95, Card("KS"): 94}
_HEART_BONUS: Final = 20

# Worlds per compiled call: the first batch is small so the clock is checked early.
_FIRST_BATCH: Final = 16
_BATCH_SECONDS: Final = 0.02


class SearchPlayer:
    """Chooses each card by simulation over sampled hidden hands.

    With ``iterations`` set, every decision samples exactly that many worlds and is
    reproducible from the RNG's seed; otherwise the level's time budget rules.
    """

    def __init__(self, rng: random.Random | int | None = None, *, level: str = "expert",
                 budget_s: float | None = None, iterations: int | None = None,
                 name: str | None = None) -> None:
        if level not in LEVEL_BUDGETS:
            raise ValueError(f"unknown search level {level!r}; levels are: "
                             f"{', '.join(LEVEL_BUDGETS)}")
        base = LEVEL_BUDGETS[level]
        if iterations is not None:
            if iterations < 1:
                raise ValueError(f"iterations must be at least 1, not {iterations}")
            self.budget = SearchBudget(budget_s, iterations)
        else:
            self.budget = SearchBudget(base.seconds if budget_s is None else budget_s,
                                       base.max_worlds)
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.name = name or level
        self._passing = RuleBasedPlayer()
        self.worlds_last = 0
        _load_compiled()

    def choose_pass(self, view: PlayerView) -> CardSet:
        """The pass with the best average outcome over sampled deals, among the rule-based
        pass and the combinations of the hand's most dangerous cards."""
        start = time.perf_counter()
        assert view.seat is not None
        base = self._passing.choose_pass(view)
        candidates = pass_candidates(view.hand.mask, base.mask, view.rules.pass_count)
        if len(candidates) == 1:
            return base
        rules = rules_array(view.rules)
        totals = np.array(view.totals, dtype=np.int64)
        masks = np.array(candidates, dtype=np.int64)
        sums = np.zeros(len(candidates), dtype=np.float64)
        seed = self.rng.getrandbits(32)
        # the first leader when no lowest club decides it (the kernel finds that one's
        # holder in each dealt world, after the passes)
        leader = first_leader(play_rules(view.rules), (0,) * view.players, view.dealer)
        seat, offset, hand = view.seat, view.pass_offset, view.hand.mask

        def step(first_world: int, worlds: int) -> None:
            evaluate_passes(rules, totals, seat, offset, leader, hand, masks, first_world,
                            worlds, seed, POLICY_HEURISTIC, sums)

        self._spend(start, step)
        return CardSet(candidates[int(np.argmax(sums))])

    def choose_play(self, view: PlayerView) -> Card:
        """The legal card with the best average outcome over sampled worlds."""
        legal = distinct_cards(view)
        if len(legal) == 1:
            self.worlds_last = 0
            return legal[0]
        return legal[int(np.argmax(self.card_values(view, legal)))]

    def card_values(self, view: PlayerView, cards: list[Card]) -> list[float]:
        """Average utility of playing each of ``cards`` now, over the budget's worlds."""
        start = time.perf_counter()
        assert view.seat is not None
        info = HiddenInfo.of(view).consistent()
        hands = [0] * view.players
        hands[view.seat] = view.hand.mask
        position = position_array(view, hands)
        rules = rules_array(view.rules)
        totals = np.array(view.totals, dtype=np.int64)
        candidates = np.array(cards, dtype=np.int64)
        sums = np.zeros(len(cards), dtype=np.float64)
        seed = self.rng.getrandbits(32)
        seat = view.seat

        def step(first_world: int, worlds: int) -> None:
            evaluate_cards(position, rules, totals, seat, candidates, info.unseen, info.need,
                           info.voids, info.fixed, first_world, worlds, seed,
                           POLICY_HEURISTIC, sums)

        done = self._spend(start, step)
        return [float(s) / done for s in sums]

    def _spend(self, start: float, step: Callable[[int, int], None]) -> int:
        """Run ``step(first_world, worlds)`` in batches until the budget (counted from
        ``start``) is spent; returns the number of worlds."""
        limit = self.budget.seconds
        done, batch = 0, _FIRST_BATCH
        while done < self.budget.max_worlds:
            batch = min(batch, self.budget.max_worlds - done)
            started = time.perf_counter()
            step(done, batch)
            done += batch
            if limit is not None:
                now = time.perf_counter()
                left = limit - (now - start)
                per_world = (now - started) / batch
                if left < per_world:
                    break
                batch = max(1, min(int(_BATCH_SECONDS / per_world), int(left / per_world)))
            else:
                batch *= 2
        self.worlds_last = done
        return done

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        """The choice better for my game standing; when both are equal, adding 26 to the
        others if that leaves me in the lead (it brings the end closer), else subtracting."""
        assert view.seat is not None
        me = view.seat
        rules = rules_array(view.rules)
        position = np.zeros(S_SIZE, dtype=np.int64)
        for seat, taken in enumerate(Knowledge.of(view).cards_taken):
            position[S_TAKEN + seat] = taken
        totals = np.array(view.totals, dtype=np.int64)
        scored: list[tuple[float, bool, MoonChoice]] = []
        for choice, code in ((MoonChoice.SUBTRACT, MOON_SUBTRACT), (MoonChoice.ADD, MOON_ADD)):
            points = np.zeros(view.players, dtype=np.int64)
            round_points_for_choice(position, rules, code, points)
            after = totals + points
            leading = bool(after[me] == after.min())
            scored.append((utility(me, points, totals, rules),
                           leading == (choice is MoonChoice.ADD), choice))
        return max(scored)[2]


def distinct_cards(view: PlayerView) -> list[Card]:
    """The legal cards, one of each run that plays alike: cards of a suit with the same
    points and nothing between them that could tell them apart, so never the Q♠ or a
    scoring J♦ with a neighbour; simulating one card of a run is enough.

    What tells two cards apart: a card another hand holds (the cards I passed included)
    and the card winning the trick in progress (one beats it, the other does not). Cards
    of earlier tricks, and any other card of this trick, leave both cards the same.
    """
    rules = view.rules
    dividers = Knowledge.of(view).out
    winning = view.winning
    if winning is not None:
        dividers |= winning[1].mask
    kept: list[Card] = []
    for card in view.legal:
        if kept:
            last = kept[-1]
            between = cards_above(last) & cards_below(card)
            alike = (last.suit == card.suit
                     and card_points(last.mask, rules) == card_points(card.mask, rules))
            if alike and not between & dividers:
                continue
        kept.append(card)
    return kept


def pass_candidates(hand: int, base: int, count: int) -> list[int]:
    """Passes worth simulating, ``base`` first: every ``count``-card combination of a pool
    of ``base`` and the hand's most dangerous cards (Q♠, A♠, K♠, high hearts, high cards)."""
    pool = list(iter_mask(base))
    by_danger = sorted(iter_mask(hand & ~base), key=_danger, reverse=True)
    pool += by_danger[:max(0, count + _POOL_EXTRA - len(pool))]
    combos = [sum(1 << c for c in combo) for combo in itertools.combinations(pool, count)]
    return [base, *(mask for mask in combos if mask != base)]


def _danger(card: Card) -> int:
    if card in _SPADE_DANGER:
        return _SPADE_DANGER[card]
    return card.rank + (_HEART_BONUS if card.suit == HEARTS else 0)


@functools.cache
def _load_compiled() -> None:
    """Load the compiled kernel from Numba's disk cache (compiling it the first time ever)
    when the first player is made, so that no decision pays for it."""
    rules = rules_array(Rules())
    empty = np.zeros(4, dtype=np.int64)
    position = np.zeros(S_SIZE, dtype=np.int64)
    evaluate_cards(position, rules, empty, 0, empty, 0, empty, empty, empty, 0, 0, 0,
                   POLICY_HEURISTIC, np.zeros(4, dtype=np.float64))
    evaluate_passes(rules, empty, 0, 1, 1, 0, empty, 0, 0, 0, POLICY_HEURISTIC,
                    np.zeros(4, dtype=np.float64))
    sample_hands(4, 0, 0, empty, empty, empty, np.ones(1, dtype=np.int64), empty)
    round_points_for_choice(position, rules, MOON_ADD, empty)
    utility(0, empty, empty, rules)
