"""The search player: levels ``hard`` and ``expert``.

For each legal card it deals the unseen cards many times, consistently with its view
(:mod:`~hearts.players.search.sampler`), plays every world out with a cheap heuristic
policy in the compiled kernel, and plays the card with the best average outcome. The
outcome is the seat's game standing, not only its round points (see
:func:`~hearts.players.search.kernel.utility`). Two options go beyond more worlds of the
same, both off by default because neither made ``expert`` play better when measured:
weighing each world by how well the playout policy explains the other seats' plays so
far (``trust``), and searching a seat's next decision inside each playout
(``lookahead``); see :data:`LEVEL_TRUST` and :data:`LOOKAHEADS`. A third, also off,
searches each world with UCT instead of one playout a card (``tree``), and a fourth
solves the last tricks of each world exactly instead of playing them out (``solve``).
Passes are chosen the same way among the rule-based pass and combinations of the hand's
most dangerous cards, and the moon choice by who it leaves winning the game. It never
sees the game state.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

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
    is_finite_number,
    is_whole_number,
    iter_mask,
    play_rules,
)
from hearts.players.errors import PlayerError
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import (
    F_GAME_ENDS,
    F_GAME_LOST,
    F_MOON_AGAINST,
    F_MOON_MINE,
    F_POINTS,
    F_QUEEN,
    F_SIZE,
    MOON_ADD,
    MOON_SUBTRACT,
    POLICY_ALARM,
    POLICY_HEURISTIC,
    POLICY_LEAD,
    POLICY_LEARNED,
    POLICY_MOON,
    S_LEADER,
    S_SIZE,
    S_TAKEN,
    S_TURN,
    evaluate_cards,
    evaluate_cards_solved,
    evaluate_cards_tree,
    evaluate_passes,
    round_points_for_choice,
    sample_hands,
    utility,
)
from hearts.players.search.sampler import HiddenInfo
from hearts.players.standing import GAME_WEIGHT, MAX_GAME_WEIGHT

__all__ = ["LEVEL_ALARM", "LEVEL_BUDGETS", "LEVEL_LOOKAHEAD", "LEVEL_PLAYOUT", "LEVEL_TRUST",
           "LOOKAHEADS", "MAX_BUDGET_S", "PASSINGS", "PLAYOUTS", "TREE_EXPLORE", "TREE_FIRST",
           "TREE_OWN", "CandidateFigures", "SearchBudget", "SearchPlayer", "alike_runs",
           "distinct_cards", "pass_candidates", "round_history"]


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a decision may cost: wall time (None: no limit) and sampled worlds."""

    seconds: float | None
    max_worlds: int


@dataclass(frozen=True, slots=True)
class CandidateFigures:
    """What the search found for one candidate (a card to play, or cards to pass),
    averaged over the worlds it tried: the utility it chose by, my expected round points,
    and the chances that I take the Q♠, that I shoot the moon, that another seat does,
    that the hand ends the game, and that it ends it with me not winning. A card to play
    may stand for others that play alike (``alike``, :func:`alike_runs`), weighed as one.
    """

    cards: CardSet
    utility: float
    points: float
    queen: float
    moon_mine: float
    moon_against: float
    game_ends: float
    game_lost: float
    worlds: int
    alike: CardSet = field(default_factory=CardSet)

    @classmethod
    def of(cls, cards: CardSet, utility_sum: float, counts: npt.NDArray[np.float64],
           worlds: int, weight: float | None = None) -> CandidateFigures:
        """Averages from the kernel's sums over ``worlds`` (``counts``: the ``F_*`` row),
        whose weights sum to ``weight`` (None: every world weighs 1)."""
        whole = worlds if weight is None else weight
        mean = [float(x) / whole for x in counts]
        return cls(cards, utility_sum / whole, mean[F_POINTS], mean[F_QUEEN],
                   mean[F_MOON_MINE], mean[F_MOON_AGAINST], mean[F_GAME_ENDS],
                   mean[F_GAME_LOST], worlds)


LEVEL_BUDGETS: Final = {
    "hard": SearchBudget(seconds=0.2, max_worlds=5_000),
    # 0.7 s leaves room under the 1 s promise for a busy machine and the Python around it.
    "expert": SearchBudget(seconds=0.7, max_worlds=50_000),
}

LEVEL_TRUST: Final = {"hard": 1.0, "expert": 1.0}
"""How far each level trusts a model of the other seats' play when weighing sampled
worlds (see :func:`~hearts.players.search.kernel.world_weight`): a world in which a
seat's play so far is not what the playout policy would have chosen from its sampled
hand counts this much (1: every consistent world counts the same). Off for both levels:
at 0.5 the weights favour the true deal against rule-based players but not against the
search levels, and ``expert`` played no better with them (``benchmarks/strength_paired.py``)."""

LEVEL_ALARM: Final = {"hard": True, "expert": True}
"""Whether each level's playouts let a lone taker of point cards other than itself run
for the moon while two of its cards may still lose a trick (see
:data:`~hearts.players.search.kernel.POLICY_ALARM`), rather than only once its moon is
near certain. A defender's sampled worlds deal the taker an ordinary hand, in which the
near-certain test rarely fires, so without the alarm the search sees an attempt only
when it can no longer be stopped. On for both: three ``expert`` defenders let a
quarter fewer of ``expert``'s own moons through, and neither level lost points against
``normal`` (``benchmarks/moon.py``, docs/research.md)."""

LEVEL_LOOKAHEAD: Final = {"hard": "none", "expert": "none"}
"""Whose next decision each level searches inside every playout (see
:func:`~hearts.players.search.kernel.playout_looking_ahead`) rather than leaving it to
the playout policy, by name (:data:`LOOKAHEADS`); each costs a playout a legal card."""

LOOKAHEADS: Final = ("none", "mine", "others")
"""``mine``: my next decision, searched knowing the world's cards, which makes the
search think too well of itself (measured: clearly worse); ``others``: each other
seat's, which models them as playing their best for one move (measured: no better
against rule-based seats; ahead of ``hard`` at equal time among search players, by
less than the issue asks; a world costs about ten times as much). Off by default:
turning it on for ``expert`` changes challenge decisions, a new challenge revision."""

TREE_EXPLORE: Final = 8.0
"""UCB1's exploration constant in the tree search (option ``tree``), in points of
utility: about the spread of a round's outcome between sensible plays."""

TREE_OWN: Final = ("search", "policy")
"""How the tree search makes my own later plays in a world: ``search`` (UCB1, like every
seat's, knowing the world's cards) or ``policy`` (the playout policy's card, so my plan
cannot rest on cards I could not see)."""

TREE_FIRST: Final = ("lowest", "policy")
"""Which untried card a tree node tries first: its ``lowest``, or the ``policy``'s."""

PLAYOUTS: Final = {"moon": POLICY_MOON, "heuristic": POLICY_HEURISTIC, "lead": POLICY_LEAD,
                    "learned": POLICY_LEARNED}
"""Playout policies by name: ``moon`` (seats shoot and stop moons), ``lead`` (the moon
policy, leading the card likeliest to lose the trick rather than the lowest rank),
``learned`` (the lead policy, playing to a trick in progress by a linear model fitted to
the search's own values, ``examples/train_playout.py``; 1.7 times the cost of ``lead``)
and ``heuristic`` (nobody plays for the moon; kept to measure what the moon play is
worth)."""

LEVEL_PLAYOUT: Final = {"hard": "moon", "expert": "learned"}
"""Each level's playout policy (:data:`PLAYOUTS`). At equal worlds ``lead`` beat
``moon``, and ``learned`` beat ``lead`` (docs/research.md), at a cost that more worlds have
shown not to matter at ``expert``'s budget. ``hard`` keeps ``moon`` so that the levels stay
a step apart (see CHANGELOG)."""

PASSINGS: Final = ("search", "rule")
"""How a search player passes: ``search`` (the default: the candidate passes of
:func:`pass_candidates` played out over sampled deals) or ``rule`` (the rule-based
player's pass, instantly). At 1,000 worlds a decision the search's pass measured about
half a point a hand better than the rule-based one (CHANGELOG); ``rule`` is there to
measure what the pass search is worth. Hints and analysis judge passes by the search
either way."""

MAX_BUDGET_S: Final = 3600
"""The longest time a decision may be given (an hour): past it a budget is a mistake."""
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
    ``playout`` names the policy the simulated seats follow (:data:`PLAYOUTS`; default:
    the level's, :data:`LEVEL_PLAYOUT`).
    ``trust`` (default: the level's, :data:`LEVEL_TRUST`) weighs each sampled world by
    how well the playout policy explains the other seats' plays so far; ``lookahead``
    (default: the level's, :data:`LEVEL_LOOKAHEAD`) names whose next decision each
    playout searches.
    ``tree`` above 0 searches each world with UCT instead of one playout a candidate
    (:func:`~hearts.players.search.kernel.evaluate_cards_tree`): ``tree`` iterations for
    each candidate card, every seat choosing by UCB1 on its own utility (``explore``,
    default :data:`TREE_EXPLORE`), over the rest of the round or ``horizon`` tricks
    (0: all), my own later plays made as ``own`` says (:data:`TREE_OWN`), untried
    cards tried in the order ``first`` names (:data:`TREE_FIRST`); ``iterations`` still
    counts worlds. Off (0) by default; it does not combine with ``trust`` or
    ``lookahead``.
    ``solve`` above 0 ends every playout with an exact solve of the round once every
    hand holds at most that many cards (max^n, every seat knowing the world's cards and
    playing for its own utility; :func:`~hearts.players.search.kernel.evaluate_cards_solved`),
    so early decisions see solved endgames too; ``root`` above 0 solves each world from
    the decision itself when my hand holds at most that many cards (a solve a candidate
    and world, so a larger size is affordable there than in every playout). Both off (0)
    by default; they do not combine with ``tree``, ``trust`` or ``lookahead``.
    :attr:`solve_nodes` and :attr:`solves` count the cards the solves played and the
    solves made, over the player's life.
    ``passing`` (:data:`PASSINGS`) says whether it searches its pass or passes as the
    rule-based player does.
    ``alarm`` (default: the level's, :data:`LEVEL_ALARM`) lets a lone taker of point
    cards other than this seat run for the moon in the playouts before its moon is near
    certain, so the search sees an attempt while it can still be broken.
    ``game_weight`` (a whole number of points from 0 to
    :data:`~hearts.players.standing.MAX_GAME_WEIGHT`; default
    :data:`~hearts.players.standing.GAME_WEIGHT`) is what a game win is worth against a
    hand's points: 0 plays every hand for its own points, as a one-hand game scores.
    ``workers`` above 1 runs that many searches of the budget at once on as many
    threads (the kernel releases the GIL) and pools their worlds: more cores, more
    worlds in the same time. Off (1) by default, and in the arena, where the workers
    are processes already.
    """

    def __init__(self, rng: random.Random | int | None = None, *, level: str = "expert",
                 budget_s: float | None = None, iterations: int | None = None,
                 name: str | None = None, playout: str | None = None, workers: int = 1,
                 trust: float | None = None, lookahead: str | None = None,
                 tree: int = 0, explore: float = TREE_EXPLORE, horizon: int = 0,
                 own: str = "search", first: str = "lowest", solve: int = 0,
                 root: int = 0, passing: str = "search", alarm: bool | None = None,
                 game_weight: int = GAME_WEIGHT) -> None:
        if level not in LEVEL_BUDGETS:
            raise PlayerError(f"unknown search level {level!r}; levels are: "
                             f"{', '.join(LEVEL_BUDGETS)}")
        playout = LEVEL_PLAYOUT[level] if playout is None else playout
        if playout not in PLAYOUTS:
            raise PlayerError(f"unknown playout {playout!r}; playouts are: "
                             f"{', '.join(PLAYOUTS)}")
        _whole("workers", workers, 1)
        if passing not in PASSINGS:
            raise PlayerError(f"unknown passing {passing!r}; it is one of: "
                             f"{', '.join(PASSINGS)}")
        if not is_whole_number(game_weight, 0, MAX_GAME_WEIGHT):
            raise PlayerError(f"game_weight must be a whole number from 0 to "
                             f"{MAX_GAME_WEIGHT}, not {game_weight!r}")
        self.game_weight = game_weight
        self.search_passes = passing == "search"
        if alarm is not None and not isinstance(alarm, bool) and not is_whole_number(alarm, 0, 1):
            # 1 and 0 too (a bot spec's alarm=1), but not 1.0, which Python holds == True
            raise PlayerError(f"alarm is on (1) or off (0), not {alarm!r}")
        self.alarm = LEVEL_ALARM[level] if alarm is None else bool(alarm)
        self.trust = LEVEL_TRUST[level] if trust is None else trust
        self.lookahead = LEVEL_LOOKAHEAD[level] if lookahead is None else lookahead
        if self.lookahead not in LOOKAHEADS:
            raise PlayerError(f"unknown lookahead {self.lookahead!r}; lookaheads are: "
                             f"{', '.join(LOOKAHEADS)}")
        if not 0.0 < _real("trust", self.trust) <= 1.0:
            raise PlayerError(f"trust must be above 0 and at most 1, not {self.trust}")
        _whole("tree", tree, 0)
        _whole("horizon", horizon, 0)
        if _real("explore", explore) < 0:
            raise PlayerError(f"explore must be at least 0, not {explore}")
        if own not in TREE_OWN:
            raise PlayerError(f"unknown own {own!r}; it is one of: {', '.join(TREE_OWN)}")
        if first not in TREE_FIRST:
            raise PlayerError(f"unknown first {first!r}; it is one of: "
                             f"{', '.join(TREE_FIRST)}")
        if tree and (self.trust < 1.0 or self.lookahead != "none"):
            raise PlayerError("tree does not combine with trust below 1 or a lookahead; "
                             "leave those at 1 and none")
        _whole("solve", solve, 0)
        _whole("root", root, 0)
        if (solve or root) and (tree or self.trust < 1.0 or self.lookahead != "none"):
            raise PlayerError("solve and root do not combine with tree, trust below 1 or a "
                             "lookahead; leave those at 0, 1 and none")
        self.solve, self.root = int(solve), int(root)
        self.solve_nodes = 0
        self.solves = 0
        # typed once: the kernel compiles one version for these types
        self.tree, self.explore, self.horizon = int(tree), float(explore), int(horizon)
        self.search_mine = own == "search"
        self.policy_first = first == "policy"
        self.policy = PLAYOUTS[playout]
        self.workers = workers
        base = LEVEL_BUDGETS[level]
        if budget_s is not None and not 0 < _real("budget", budget_s) <= MAX_BUDGET_S:
            raise PlayerError(f"budget must be a number of seconds above 0 and at most "
                             f"{MAX_BUDGET_S}, not {budget_s}")
        if iterations is not None:
            self.budget = SearchBudget(budget_s, _whole("iterations", iterations, 1))
        else:
            seconds = base.seconds if budget_s is None else budget_s
            worlds = base.max_worlds
            if base.seconds is not None and seconds is not None and seconds > base.seconds:
                # the cap keeps its worlds a second: more time buys more worlds
                worlds = round(base.max_worlds * seconds / base.seconds)
            self.budget = SearchBudget(seconds, worlds)
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.name = name or level
        self._passing = RuleBasedPlayer()
        self.worlds_last = 0
        self.effective_worlds = 0.0
        _load_compiled()
        if self.tree:
            _load_tree_kernel()
        if self.solve or self.root:
            _load_solver()

    def choose_pass(self, view: PlayerView) -> CardSet:
        """The pass with the best average outcome over sampled deals, among the rule-based
        pass and the combinations of the hand's most dangerous cards (the rule-based pass
        itself with ``passing=rule``)."""
        if not self.search_passes:
            self.worlds_last = 0
            return self._passing.choose_pass(view)
        figures = self._pooled(lambda: self.pass_figures(view))
        if len(figures) == 1:
            return figures[0].cards
        return max(figures, key=lambda f: f.utility).cards

    def pass_figures(self, view: PlayerView, extra: CardSet | None = None
                     ) -> list[CandidateFigures]:
        """The search's figures for each candidate pass (see :func:`pass_candidates`),
        the rule-based pass first, and for ``extra`` too when it is not among them; a lone
        candidate is not simulated (its figures count no worlds)."""
        start = time.perf_counter()
        assert view.seat is not None
        base = self._passing.choose_pass(view)
        candidates = pass_candidates(view.hand.mask, base.mask, view.rules.pass_count)
        if extra is not None and extra.mask not in candidates:
            candidates.append(extra.mask)
        if len(candidates) == 1:
            self.worlds_last = 0
            return [CandidateFigures(base, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, worlds=0)]
        rules = rules_array(view.rules, view.round_no, self.game_weight)
        totals = np.array(view.totals, dtype=np.int64)
        masks = np.array(candidates, dtype=np.int64)
        sums = np.zeros(len(candidates), dtype=np.float64)
        counts = np.zeros((len(candidates), F_SIZE), dtype=np.float64)
        seed = self.rng.getrandbits(32)
        # the first leader when no lowest club decides it (the kernel finds that one's
        # holder in each dealt world, after the passes)
        leader = first_leader(play_rules(view.rules), (0,) * view.players, view.dealer)
        seat, offset, hand = view.seat, view.pass_offset, view.hand.mask

        def step(first_world: int, worlds: int) -> None:
            evaluate_passes(rules, totals, seat, offset, leader, hand, masks, first_world,
                            worlds, seed, self.policy, sums, counts)

        done = self._spend(start, step)
        return [CandidateFigures.of(CardSet(mask), float(sums[i]), counts[i], done)
                for i, mask in enumerate(candidates)]

    def choose_play(self, view: PlayerView) -> Card:
        """The legal card with the best average outcome over sampled worlds."""
        legal = distinct_cards(view)
        if len(legal) == 1:
            self.worlds_last = 0
            return legal[0]
        figures = self._pooled(lambda: self.card_figures(view, legal))
        return legal[int(np.argmax([f.utility for f in figures]))]

    def _pooled(self, search: Callable[[], list[CandidateFigures]]
                ) -> list[CandidateFigures]:
        """``search()``, or with several workers that many runs of it at once, each on its
        own worlds, averaged by the worlds each sampled."""
        if self.workers == 1:
            return search()
        with ThreadPoolExecutor(self.workers) as pool:
            runs = list(pool.map(lambda _: search(), range(self.workers)))
        worlds = [run[0].worlds for run in runs]
        whole = sum(worlds)
        self.worlds_last = whole
        if whole == 0:
            return runs[0]
        means = [f.name for f in dataclasses.fields(CandidateFigures) if f.type == "float"]
        return [dataclasses.replace(first, worlds=whole, **{
            name: sum(getattr(run[i], name) * n for run, n in zip(runs, worlds, strict=True))
            / whole for name in means}) for i, first in enumerate(runs[0])]

    def card_values(self, view: PlayerView, cards: list[Card]) -> list[float]:
        """Average utility of playing each of ``cards`` now, over the budget's worlds."""
        return [figures.utility for figures in self.card_figures(view, cards)]

    def card_figures(self, view: PlayerView, cards: list[Card]) -> list[CandidateFigures]:
        """The search's figures for playing each of ``cards`` now, all from the same
        worlds (the budget's)."""
        start = time.perf_counter()
        assert view.seat is not None
        info = HiddenInfo.of(view).consistent()
        hands = [0] * view.players
        hands[view.seat] = view.hand.mask
        position = position_array(view, hands)
        rules = rules_array(view.rules, view.round_no, self.game_weight)
        totals = np.array(view.totals, dtype=np.int64)
        candidates = np.array(cards, dtype=np.int64)
        sums = np.zeros(len(cards), dtype=np.float64)
        counts = np.zeros((len(cards), F_SIZE), dtype=np.float64)
        weights = np.zeros(2, dtype=np.float64)
        seed = self.rng.getrandbits(32)
        seat = view.seat
        first, played, history = round_history(view)
        everyone = (1 << view.players) - 1
        taker = Knowledge.of(view).sole_point_taker
        policy = self.policy
        if self.alarm and taker is not None and taker != seat:
            policy |= POLICY_ALARM
        searchers = {"none": 0, "mine": 1 << seat, "others": everyone & ~(1 << seat)}[
            self.lookahead]
        # a root solve needs every hand at most that size, so it covers any tail solve
        solve = max(self.root, self.solve) if len(view.hand) <= self.root else self.solve
        nodes = np.zeros(2, dtype=np.int64)

        def step(first_world: int, worlds: int) -> None:
            if self.tree:
                evaluate_cards_tree(position, rules, totals, seat, candidates, info.unseen,
                                    info.need, info.voids, info.fixed, first_world, worlds,
                                    seed, policy, self.tree, self.explore,
                                    self.horizon, self.search_mine, self.policy_first,
                                    sums, counts)
                # its worlds all weigh 1
                weights[0] += worlds
                weights[1] += worlds
                return
            if solve:
                evaluate_cards_solved(position, rules, totals, seat, candidates, info.unseen,
                                      info.need, info.voids, info.fixed, first_world, worlds,
                                      seed, policy, solve, sums, counts, nodes)
                weights[0] += worlds
                weights[1] += worlds
                return
            evaluate_cards(position, rules, totals, seat, candidates, info.unseen, info.need,
                           info.voids, info.fixed, first_world, worlds, seed,
                           policy, first, played, history, self.trust, searchers,
                           sums, counts, weights)

        done = self._spend(start, step)
        self.solve_nodes += int(nodes[0])
        self.solves += int(nodes[1])
        self.effective_worlds = weights[0] ** 2 / weights[1] if weights[1] else 0.0
        return [CandidateFigures.of(CardSet(card.mask), float(sums[i]), counts[i], done,
                                    float(weights[0]))
                for i, card in enumerate(cards)]

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
        rules = rules_array(view.rules, view.round_no, self.game_weight)
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


    def moon_values(self, view: PlayerView) -> dict[MoonChoice, tuple[float, int]]:
        """Each moon choice's utility for me and my points this round (no sampling: the
        round is over)."""
        assert view.seat is not None
        rules = rules_array(view.rules, view.round_no, self.game_weight)
        position = np.zeros(S_SIZE, dtype=np.int64)
        for seat, taken in enumerate(Knowledge.of(view).cards_taken):
            position[S_TAKEN + seat] = taken
        totals = np.array(view.totals, dtype=np.int64)
        values = {}
        for choice, code in ((MoonChoice.SUBTRACT, MOON_SUBTRACT), (MoonChoice.ADD, MOON_ADD)):
            points = np.zeros(view.players, dtype=np.int64)
            round_points_for_choice(position, rules, code, points)
            values[choice] = (utility(view.seat, points, totals, rules), int(points[view.seat]))
        return values


def _whole(name: str, value: object, least: int) -> int:
    """An option that is a whole number of at least ``least`` (a bot spec's ``1e3`` is a
    float and is refused here, before it reaches the compiled kernel)."""
    if not is_whole_number(value, least):
        raise PlayerError(f"{name} must be a whole number of at least {least}, not {value!r}")
    return value


def _real(name: str, value: object) -> float:
    """An option that is a finite number."""
    if not is_finite_number(value):
        raise PlayerError(f"{name} must be a finite number, not {value!r}")
    return float(value)


def round_history(view: PlayerView) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                              npt.NDArray[np.int64]]:
    """The round's plays for :func:`~hearts.players.search.kernel.world_weight`: the
    position it began from (its first leader to play), each seat's cards played, and
    the cards in play order."""
    plays = view.round_plays
    start = np.zeros(S_SIZE, dtype=np.int64)
    played = np.zeros(view.players, dtype=np.int64)
    if plays:
        start[S_LEADER] = start[S_TURN] = plays[0].seat
    for play in plays:
        played[play.seat] |= play.card.mask
    return start, played, np.array([int(play.card) for play in plays], dtype=np.int64)


def distinct_cards(view: PlayerView) -> list[Card]:
    """The legal cards, one of each run that plays alike (:func:`alike_runs`): simulating
    one card of a run is enough."""
    return list(alike_runs(view))


def alike_runs(view: PlayerView) -> dict[Card, CardSet]:
    """The legal cards by runs that play alike, each run's lowest card with the others of
    its run: cards of a suit with the same points and nothing between them that could
    tell them apart, so never the Q♠ or a scoring J♦ with a neighbour.

    What tells two cards apart: a card another hand holds (the cards I passed included)
    and the card winning the trick in progress (one beats it, the other does not). Cards
    of earlier tricks, and any other card of this trick, leave both cards the same.
    """
    rules = view.rules
    dividers = Knowledge.of(view).out
    winning = view.winning
    if winning is not None:
        dividers |= winning[1].mask
    runs: dict[Card, CardSet] = {}
    lowest: Card | None = None
    for card in view.legal:
        if lowest is not None and lowest.suit == card.suit \
                and card_points(lowest.mask, rules) == card_points(card.mask, rules) \
                and not cards_above(lowest) & cards_below(card) & dividers:
            runs[lowest] |= CardSet(card.mask)
            continue
        lowest = card
        runs[card] = CardSet()
    return runs


def pass_candidates(hand: int, base: int, count: int) -> list[int]:
    """Passes worth simulating, ``base`` first: every ``count``-card combination of a pool
    of ``base`` and the hand's most dangerous cards (Q♠, A♠, K♠, high hearts, high cards),
    and the hand's ``count`` lowest cards, the pass that keeps a moon hand's control (the
    moon playouts judge whether that pays)."""
    pool = list(iter_mask(base))
    by_danger = sorted(iter_mask(hand & ~base), key=_danger, reverse=True)
    pool += by_danger[:max(0, count + _POOL_EXTRA - len(pool))]
    combos = [sum(1 << c for c in combo) for combo in itertools.combinations(pool, count)]
    lowest = sorted(iter_mask(hand), key=lambda c: (c.rank, c.suit == HEARTS))[:count]
    combos.append(sum(1 << c for c in lowest))
    return [base, *dict.fromkeys(mask for mask in combos if mask != base)]


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
    figures = np.zeros((4, F_SIZE), dtype=np.float64)
    evaluate_cards(position, rules, empty, 0, empty, 0, empty, empty, empty, 0, 0, 0,
                   POLICY_HEURISTIC, position, empty, empty, 1.0, 0,
                   np.zeros(4, dtype=np.float64), figures, np.zeros(2, dtype=np.float64))
    evaluate_passes(rules, empty, 0, 1, 1, 0, empty, 0, 0, 0, POLICY_HEURISTIC,
                    np.zeros(4, dtype=np.float64), figures)
    sample_hands(4, 0, 0, empty, empty, empty, np.ones(1, dtype=np.int64), empty)
    round_points_for_choice(position, rules, MOON_ADD, empty)
    utility(0, empty, empty, rules)


@functools.cache
def _load_tree_kernel() -> None:
    """As :func:`_load_compiled`, for the tree search, when the first player that uses it
    is made (no level does: the others do not load it)."""
    position = np.zeros(S_SIZE, dtype=np.int64)
    empty = np.zeros(4, dtype=np.int64)
    evaluate_cards_tree(position, rules_array(Rules()), empty, 0, empty, 0, empty, empty,
                        empty, 0, 0, 0, POLICY_HEURISTIC, 1, TREE_EXPLORE, 0, True, True,
                        np.zeros(4, dtype=np.float64), np.zeros((4, F_SIZE), dtype=np.float64))


@functools.cache
def _load_solver() -> None:
    """As :func:`_load_compiled`, for the endgame solver, when the first player that uses
    it is made (no level does)."""
    position = np.zeros(S_SIZE, dtype=np.int64)
    empty = np.zeros(4, dtype=np.int64)
    evaluate_cards_solved(position, rules_array(Rules()), empty, 0, empty, 0, empty, empty,
                          empty, 0, 0, 0, POLICY_HEURISTIC, 1, np.zeros(4, dtype=np.float64),
                          np.zeros((4, F_SIZE), dtype=np.float64), np.zeros(2, dtype=np.int64))
