"""N games of Hearts stepped together over arrays, for fast reinforcement learning.

:class:`BatchedHearts` keeps one ``int64`` row a game and steps every game at once with the
search kernel's compiled play rules (:mod:`hearts.players.search.kernel`, the one allowed
restatement of the rules, tied to the core by its cross-check tests). Each step returns all
N observations and action masks in the encoding of :mod:`hearts.players.observation`
(``docs/research.md``), the rewards and which games ended; a finished game is replaced
by a fresh one at once (auto-reset).

What happens per card is compiled; what happens once a hand is asked of the core between
steps, for the few games that need it: the seeded deal (so game ``k`` is exactly the game
``new_game(rules, seed + k)``), the pass direction and hold rounds, the first leader, the
moon, the round's points, game end and winners. Passing is one card at a time, seat 0
first, as in the single environment.
"""

from __future__ import annotations

import hashlib
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from hearts.core import (
    ALL_CARDS,
    SUIT_MASKS,
    CardSet,
    HeartsError,
    MoonChoice,
    Phase,
    Rules,
    as_whole_number,
    deal_hands,
    first_leader,
    fixed_moon_choice,
    game_over,
    lowest_card,
    moon_shooter,
    new_hand,
    play_reveals,
    play_rules,
    round_deal_seed,
    round_points,
)
from hearts.env.table import rank_rewards
from hearts.players import observation as enc
from hearts.players.search import kernel
from hearts.players.search.encode import rules_array

__all__ = ["MAX_GAMES", "BatchedHearts", "BatchedOptionError", "IllegalBatchActionError"]

Episode = Literal["game", "hand"]
Reward = Literal["hand", "game"]
EPISODES: Final = ("game", "hand")
REWARDS: Final = ("hand", "game")
MAX_GAMES: Final = 2**24
"""The most games one environment steps at once (some 16 million: their observations
alone fill 60 GB); a larger ``n`` is a typo, refused before NumPy is asked for it."""
_RANDOM_STREAM: Final = 0x52414E44  # the environment's own random actions: its seed's stream

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
IntArray = npt.NDArray[np.int64]
StepResult = tuple[FloatArray, MaskArray, FloatArray, npt.NDArray[np.bool_], IntArray]

_MOON_OF_ACTION: Final = {enc.ADD_ACTION: MoonChoice.ADD,
                          enc.SUBTRACT_ACTION: MoonChoice.SUBTRACT}


class BatchedOptionError(HeartsError, ValueError):
    """A batched simulator option outside what it allows."""


class IllegalBatchActionError(HeartsError, ValueError):
    """An action that some game's mask does not allow (nothing was stepped)."""


def _layout() -> IntArray:
    """The observation's section offsets and moon actions in the kernel's ``L_*`` order."""
    layout = np.zeros(kernel.L_SIZE, dtype=np.int64)
    for index, offset in (
            (kernel.L_HAND, enc.HAND), (kernel.L_PLAYED, enc.PLAYED), (kernel.L_TRICK, enc.TRICK),
            (kernel.L_POINTS, enc.POINTS), (kernel.L_TOTALS, enc.TOTALS),
            (kernel.L_VOIDS, enc.VOIDS), (kernel.L_SEATS, enc.SEATS),
            (kernel.L_LEADER, enc.LEADER), (kernel.L_PASSED, enc.PASSED),
            (kernel.L_RECEIVED, enc.RECEIVED), (kernel.L_PASS_TARGET, enc.PASS_TARGET),
            (kernel.L_DECK, enc.DECK), (kernel.L_PHASE, enc.PHASE),
            (kernel.L_HEARTS_OPEN, enc.HEARTS_OPEN), (kernel.L_BARRED, enc.BARRED),
            (kernel.L_TRICK_NO, enc.TRICK_NO), (kernel.L_SELECTED, enc.SELECTED),
            (kernel.L_ADD, enc.ADD_ACTION), (kernel.L_SUBTRACT, enc.SUBTRACT_ACTION)):
        layout[index] = offset
    return layout


def _reveal_table(rules: Rules) -> IntArray:
    """The core's ``play_reveals`` for every card, suit led (0: leading), first trick or not
    and hearts open or not: what the kernel adds to a seat's excluded cards per play."""
    facts = play_rules(rules)
    leads = [-1, *(lowest_card(suit) for suit in SUIT_MASKS)]  # a card stands for its suit
    table = np.zeros((len(ALL_CARDS), len(leads), 2, 2), dtype=np.int64)
    for card in ALL_CARDS:
        for led_index, led in enumerate(leads):
            for first in (0, 1):
                for opened in (0, 1):
                    table[card, led_index, first, opened] = play_reveals(
                        facts, card, led, bool(first), bool(opened))
    return table


class BatchedHearts:
    """``n`` games under ``rules`` stepped together; game ``k`` (counted from 0 in the order
    games start, auto-resets included) is the seeded game ``new_game(rules, seed + k)``.

    ``episode``: ``"game"`` (to the target score) or ``"hand"`` (round 1 of each game).
    ``reward``: ``"hand"`` (each seat's round points, negated, when a hand ends) or
    ``"game"`` (each seat's rank on the totals when the episode ends, from -1 to 1: see
    :func:`hearts.env.table.rank_rewards`), as in the single environment.
    Seats in ``rewards`` are absolute (``to_act`` says which seat each observation is for).
    By default each step's arrays are the caller's to keep (the observations are written
    straight into a fresh array); ``copy=False`` returns the simulator's own arrays, which
    the next step overwrites.
    """

    def __init__(self, n: int, rules: Rules | str | None = None, seed: int = 0,
                 episode: Episode = "game", reward: Reward = "hand", copy: bool = True) -> None:
        games, first_seed = as_whole_number(n), as_whole_number(seed)  # NumPy's too
        if games is None or not 1 <= games <= MAX_GAMES:
            raise BatchedOptionError(f"n is the number of games, a whole number from 1 to "
                                     f"{MAX_GAMES:,}, not {n!r}")
        if not isinstance(copy, bool):
            raise BatchedOptionError(f"copy is True or False, not {copy!r}")
        if episode not in EPISODES:
            raise BatchedOptionError(f"episode is one of {EPISODES}, not {episode!r}")
        if reward not in REWARDS:
            raise BatchedOptionError(f"reward is one of {REWARDS}, not {reward!r}")
        if first_seed is None or first_seed < 0:  # as the other environments' reset takes
            raise BatchedOptionError(f"seed is a whole number from 0, not {seed!r}")
        if rules is None:
            rules = Rules()
        elif isinstance(rules, str):
            rules = Rules.parse(rules)
        elif not isinstance(rules, Rules):
            raise BatchedOptionError(f"rules are a Rules or a rules text, not {rules!r}")
        self.n = games
        self.rules = rules
        self.seed = first_seed
        self.episode = episode
        self.reward = reward
        self.copy = copy
        # the kernel's stream state is 32 bits: a larger seed is hashed into them, every
        # bit of it (a seed below 2**32 is itself), so seeds 2**32 apart draw differently
        folded = first_seed if first_seed < 2**32 else int.from_bytes(
            hashlib.blake2b(str(first_seed).encode(), digest_size=4).digest(), "big")
        self._random = np.array([kernel.mix_seed(folded, _RANDOM_STREAM)], dtype=np.int64)
        self._facts = play_rules(rules)
        self._fixed_moon = fixed_moon_choice(rules)
        self._codes = rules_array(rules)
        self._reveals = _reveal_table(rules)
        self._layout = _layout()
        self._games = np.zeros((games, kernel.G_SIZE), dtype=np.int64)
        self._events = np.zeros(games, dtype=np.int64)
        self._dealer = [0] * games
        self._round = [1] * games
        self._numbers = [0] * games
        self._rounds: dict[int, tuple[bool, int, int]] = {}
        self.game_numbers = np.zeros(games, dtype=np.int64)
        """Per slot: the number ``k`` of the game it plays (seeded ``seed + k``)."""
        self._next_game = 0
        self._obs = np.zeros((games, enc.OBSERVATION_SIZE), dtype=np.float32)
        self._mask = np.zeros((games, enc.ACTION_COUNT), dtype=np.int8)
        self._to_act = np.zeros(games, dtype=np.int64)

    # ----------------------------------------------------------------- the API
    def reset(self) -> tuple[FloatArray, MaskArray, IntArray]:
        """Start ``n`` fresh games (numbered on from the last); their first observations,
        masks and the seat each is for."""
        self._deal(list(range(self.n)), [1] * self.n, [True] * self.n)
        self._observe()
        return self._obs, self._mask.copy(), self._to_act.copy()

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Apply one action a game (``actions[i]`` for the seat ``to_act[i]``). Returns the
        next observations, masks, rewards ``[n, MAX_SEATS]``, which games ended (already
        replaced by fresh ones) and the seats to act."""
        if self._next_game == 0:
            raise IllegalBatchActionError("no games yet: call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalBatchActionError(
                f"actions are {self.n} whole numbers (one a game), not shape {chosen.shape} "
                f"of {chosen.dtype}")
        chosen = chosen.astype(np.int64, copy=False)
        bad = kernel.batch_refused(self._mask, chosen)
        if bad >= 0:
            raise IllegalBatchActionError(
                f"game {bad}: action {int(chosen[bad])} is not allowed; allowed: "
                f"{np.flatnonzero(self._mask[bad]).tolist()}")
        rewards = np.zeros((self.n, enc.MAX_SEATS), dtype=np.float32)
        done = np.zeros(self.n, dtype=np.bool_)
        kernel.batch_step(self._games, self._codes, self.rules.pass_count, self._reveals,
                          chosen, self._events)
        # the games that end a pass or a round this step: the core decides for them,
        # over the few columns it needs
        passed = np.flatnonzero(self._events == kernel.EVENT_PASSED)
        if passed.size:
            self._seat_leaders(passed)
        ended = np.flatnonzero(self._events == kernel.EVENT_ROUND_END)
        if ended.size:
            self._end_rounds(ended, chosen, rewards, done)
        self._observe()
        if not self.copy:
            return self._obs, self._mask, rewards, done, self._to_act
        return self._obs, self._mask.copy(), rewards, done, self._to_act.copy()

    def random_actions(self, rng: np.random.Generator | npt.NDArray[np.int64] | None = None
                       ) -> IntArray:
        """A uniformly random allowed action for every game, drawn in compiled code from
        ``rng``: None (the environment's own stream, from its ``seed``), a NumPy
        ``Generator``, or the kernel's xorshift state (a one-element int64 array holding a
        non-zero 32-bit number, e.g. from :func:`kernel.mix_seed`), which it advances."""
        if self._next_game == 0:
            raise IllegalBatchActionError("no games yet: call reset() before random_actions()")
        if rng is None:
            state = self._random
        elif isinstance(rng, np.random.Generator):
            state = np.array([rng.integers(1, 2**32)], dtype=np.int64)
        elif (isinstance(rng, np.ndarray) and rng.dtype == np.int64 and rng.shape == (1,)
              and rng.flags.writeable and 0 < rng[0] < 2**32):
            state = rng
        else:
            raise BatchedOptionError(
                "rng is None (the environment's own stream), a numpy.random.Generator, or "
                "a writable one-element int64 array holding a non-zero 32-bit xorshift state, "
                f"not {rng!r}")
        actions = np.zeros(self.n, dtype=np.int64)
        kernel.batch_random_actions(self._mask, state, actions)
        return actions

    @property
    def masks(self) -> MaskArray:
        """The current action masks (read-only view)."""
        view = self._mask.view()
        view.flags.writeable = False
        return view

    # -------------------------------------------------- per-hand rule decisions
    def _observe(self) -> None:
        if self.copy:
            # a fresh array each step, written once, instead of one rewritten and copied out:
            # the caller owns what it was given, and the simulator never reads it back
            self._obs = np.empty_like(self._obs)
        kernel.batch_observe(self._games, self._codes, self.rules.pass_count, self._layout,
                             enc.POINTS_SCALE, self._obs, self._mask, self._to_act)

    def _deal(self, slots: list[int], rounds: list[int], new_games: list[bool]) -> None:
        """Deal each slot its round (the next game number's round 1 where ``new_games``):
        hands, pass or first leader, totals kept unless the game is new."""
        if not slots:
            return
        players = self.rules.players
        hands_rows: list[tuple[int, ...]] = []
        phases: list[int] = []
        offsets: list[int] = []
        leaders: list[int] = []
        for slot, round_no, new_game in zip(slots, rounds, new_games, strict=True):
            if new_game:
                self._numbers[slot] = self._next_game
                self._next_game += 1
            hands = deal_hands(self.rules, round_deal_seed(str(self.seed + self._numbers[slot]),
                                                           round_no))
            passing, offset, dealer = self._round_facts(round_no, hands)
            self._round[slot] = round_no
            self._dealer[slot] = dealer
            hands_rows.append(hands)
            phases.append(kernel.B_PASS if passing else kernel.B_PLAY)
            offsets.append(offset if passing else 0)
            leaders.append(0 if passing else first_leader(self._facts, hands, dealer))
        games = self._games
        index = np.asarray(slots)
        fresh = index[np.asarray(new_games, dtype=np.bool_)]
        games[fresh, kernel.G_TOTALS:] = 0
        self.game_numbers[fresh] = [self._numbers[slot] for slot in fresh.tolist()]
        games[index, :kernel.G_TOTALS] = 0
        games[index, kernel.S_HANDS:kernel.S_HANDS + players] = hands_rows
        games[index, kernel.G_PHASE] = phases
        games[index, kernel.G_OFFSET] = offsets
        games[index, kernel.S_LEADER] = leaders
        games[index, kernel.S_TURN] = leaders

    def _round_facts(self, round_no: int, hands: tuple[int, ...]) -> tuple[bool, int, int]:
        """Whether round ``round_no`` starts with a pass, its pass offset and its dealer, as
        the core's game sets them (asked once per round number: they depend on nothing else)."""
        facts = self._rounds.get(round_no)
        if facts is None:
            state = new_hand(self.rules, [CardSet(hand) for hand in hands], round_no=round_no)
            facts = self._rounds[round_no] = (
                state.phase is Phase.PASS, state.pass_offset, state.dealer)
        return facts

    def _seat_leaders(self, slots: npt.NDArray[np.intp]) -> None:
        """Every seat has passed in these games: the core's first leader leads."""
        held = self._games[slots, kernel.S_HANDS:kernel.S_HANDS + self.rules.players].tolist()
        leaders = [first_leader(self._facts, hands, self._dealer[slot])
                   for slot, hands in zip(slots.tolist(), held, strict=True)]
        self._games[slots, kernel.G_PHASE] = kernel.B_PLAY
        self._games[slots, kernel.S_LEADER] = leaders
        self._games[slots, kernel.S_TURN] = leaders

    def _end_rounds(self, slots: npt.NDArray[np.intp], actions: IntArray,
                    rewards: FloatArray, done: npt.NDArray[np.bool_]) -> None:
        """The last trick is taken (or the moon choice made) in these games: the core
        scores the round, asks the shooter where the rules leave the moon to it, and
        says whether the game is over; then the next round or game is dealt."""
        games, rules, players = self._games, self.rules, self.rules.players
        totals_at = slice(kernel.G_TOTALS, kernel.G_TOTALS + players)
        columns = zip(slots.tolist(), games[slots, kernel.S_TAKEN:kernel.S_TAKEN + players]
                      .tolist(), games[slots, kernel.G_PHASE].tolist(),
                      games[slots, kernel.G_SHOOTER].tolist(), games[slots, totals_at].tolist(),
                      actions[slots].tolist(), strict=True)
        asked: list[int] = []
        shooters: list[int] = []
        scored: list[int] = []
        scores: list[tuple[int, ...]] = []
        new_totals: list[list[int]] = []
        rounds: list[int] = []
        new_games: list[bool] = []
        for slot, taken, phase, chose, totals, action in columns:
            if phase == kernel.B_MOON:
                shooter: int | None = chose
                choice: MoonChoice | None = _MOON_OF_ACTION[action]
            else:
                shooter = moon_shooter(taken, rules)
                choice = self._fixed_moon
                if shooter is not None and choice is None:
                    asked.append(slot)
                    shooters.append(shooter)
                    continue
            points = round_points(taken, rules, shooter, choice)
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            scored.append(slot)
            scores.append(points)
            new_totals.append(totals)
            goes_on = self.episode == "game" and not game_over(totals, rules,
                                                               self._round[slot])
            rounds.append(self._round[slot] + 1 if goes_on else 1)
            new_games.append(not goes_on)
            if not goes_on and self.reward == "game":
                rewards[slot, :players] = rank_rewards(tuple(totals))
        if asked:
            games[asked, kernel.G_PHASE] = kernel.B_MOON
            games[asked, kernel.G_SHOOTER] = shooters
            games[asked, kernel.S_TURN] = shooters
        if scored:
            games[scored, totals_at] = new_totals
            if self.reward == "hand":
                rewards[scored, :players] = np.negative(scores)
            done[scored] = new_games
        self._deal(scored, rounds, new_games)
