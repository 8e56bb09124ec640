"""One seeded game (or hand) stepped by action indices: what every environment here drives.

The core makes every rule decision; a :class:`Table` only turns action indices into the
core's actions (a pass picked one card at a time), deals between rounds with the seeded
dealer, and works out rewards from the score sheet. PettingZoo, Gymnasium and OpenSpiel
wrap the same table, so they play identical games for the same seed.

Seeds: ``start(seed)`` plays the game :func:`hearts.core.new_game` deals for that seed (round
``r`` from the deal seed ``f"{seed}/{r}"``); a single-hand episode of round ``r`` is that
same deal.

Rewards (``reward``):

- ``"hand"``: when a hand ends, each seat gets its points of that hand negated (the moon and
  the J♦ house rule included), so the return of a whole game is minus the final total.
- ``"game"``: when the episode ends, each seat gets its rank on the totals: (the seats with a
  higher total − the seats with a lower total) / (players − 1), from −1 (alone last) to +1
  (alone first); ties score alike, and the rewards add up to zero.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from hearts.core import (
    MAX_ROUND,
    Action,
    Card,
    Deal,
    GameState,
    Phase,
    PlayerView,
    Rules,
    as_whole_number,
    new_game,
    new_hand,
    round_deal_seed,
    view,
)
from hearts.players.driver import seeded_dealer
from hearts.players.observation import (
    ACTION_COUNT,
    EncodingError,
    action_index,
    action_mask,
    action_of,
    observe,
)

__all__ = ["EPISODES", "REWARDS", "Episode", "RewardKind", "Table", "UnknownOptionWarning",
           "parse_rules", "rank_rewards"]


class UnknownOptionWarning(UserWarning):
    """A ``reset`` option the environments do not read (they read ``round`` alone)."""

RewardKind: TypeAlias = Literal["hand", "game"]
Episode: TypeAlias = Literal["game", "hand"]
REWARDS: Final = ("hand", "game")
EPISODES: Final = ("game", "hand")
_DECIDING: Final = (Phase.PASS, Phase.PLAY, Phase.MOON)


def parse_rules(rules: Rules | str | None, players: int | None) -> Rules:
    """Rules from a :class:`Rules` or a rules text, with ``players`` (if given) set on them."""
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = Rules.parse(rules)
    elif not isinstance(rules, Rules):
        raise EncodingError(f"rules must be a Rules or a rules text like 'classic', not {rules!r}")
    if players is not None and players != rules.players:
        rules = rules.replace(players=players)
    return rules


def rank_rewards(totals: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's rank reward on game totals (lower is better), in [-1, 1], summing to 0."""
    others = len(totals) - 1
    return tuple(
        (sum(t > mine for t in totals) - sum(t < mine for t in totals)) / others
        for mine in totals)


class Table:
    """A game (``episode="game"``) or one hand (``"hand"``) stepped by action indices."""

    def __init__(self, rules: Rules, reward: RewardKind = "hand", episode: Episode = "game"):
        if reward not in REWARDS:
            raise EncodingError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if episode not in EPISODES:
            raise EncodingError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
        self.rules = rules
        self.reward: RewardKind = reward
        self.episode: Episode = episode
        self.state: GameState
        self.selected: list[int]
        self.over: bool
        self._viewed: GameState | None = None
        self._views: dict[int, PlayerView] = {}
        self.start(0)  # a placeholder game until the first reset, which no step may play
        self.started = False

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    def reset_request(self, seed: object, options: object) -> tuple[int | None, int]:
        """The seed and round a ``reset(seed=..., options=...)`` asks for, checked here for
        every environment before it changes anything, so a refused reset leaves the episode
        as it was: the seed None or a whole number from 0 (a NumPy integer too, as an
        ``int``), the options None or a mapping whose ``round`` is a round number (a hand
        episode's; 1 when none)."""
        number = None if seed is None else as_whole_number(seed)
        if seed is not None and (number is None or number < 0):
            raise EncodingError(f"seed is a whole number from 0 or None, not {seed!r}")
        if options is None:
            return number, 1
        if not isinstance(options, Mapping):
            raise EncodingError(f"options is a dict such as {{'round': 2}}, not {options!r}")
        round_no = self._checked_round(options.get("round", 1))
        unknown = sorted(map(repr, set(options) - {"round"}))
        if unknown:  # said, as a misspelt "rounds" would start round 1 unsaid; not refused,
            # since PettingZoo's api_test passes an option of its own to see reset take one
            warnings.warn(f"reset options: only 'round' (a hand episode's round) is read; "
                          f"{', '.join(unknown)} ignored", UnknownOptionWarning, stacklevel=3)
        return number, round_no

    def _checked_round(self, round_no: object) -> int:
        number = as_whole_number(round_no)
        if number is None or not 1 <= number <= MAX_ROUND:
            raise EncodingError(f"round is a whole number from 1 to {MAX_ROUND}, "
                                f"not {round_no!r}")
        if self.episode != "hand" and number != 1:
            raise EncodingError("a game episode starts at round 1; round is for hands")
        return number

    def start(self, seed: int | str, round_no: object = 1) -> None:
        """Begin the seeded game, or (a hand episode) round ``round_no`` of it."""
        number = self._checked_round(round_no)
        if self.episode == "hand":
            deal = Deal.from_seed(self.rules, round_deal_seed(str(seed), number))
            self.state = new_hand(self.rules, deal.hands, round_no=number,
                                  deal_seed=deal.seed)
        else:
            self.state = new_game(self.rules, seed=str(seed))
        self.selected = [0] * self.players
        self.over = False
        self.started = True

    def check_started(self) -> None:
        """EncodingError before the first reset: the placeholder game is no episode (a
        step would play it, and its opponents are not made yet)."""
        if not self.started:
            raise EncodingError("no episode yet: call reset() before step()")

    @property
    def actor(self) -> int | None:
        """The seat to act now (passes go seat by seat from seat 0); None once over."""
        if self.over:
            return None
        return self.state.to_act[0]

    def view(self, seat: int) -> PlayerView:
        """The seat's view of the game (kept until the state changes: an environment asks
        for it several times a step)."""
        if self._viewed is not self.state:
            self._viewed = self.state
            self._views = {}
        seen = self._views.get(seat)
        if seen is None:
            seen = self._views[seat] = view(self.state, seat)
        return seen

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's observation (its pass picks so far included)."""
        return observe(self.view(seat), self.selected[seat])

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The seat's legal actions now: all zero unless it is the actor (in a pass every
        seat still to choose may act by the core, but here the seats pick in turn)."""
        if seat != self.actor:
            return np.zeros(ACTION_COUNT, dtype=np.int8)
        return action_mask(self.view(seat), self.selected[seat])

    def step(self, index: object) -> tuple[float, ...]:
        """The acting seat takes action ``index``; each seat's reward for this step.

        An index the mask does not allow, or one that is no whole number, raises
        :class:`EncodingError` and changes nothing.
        """
        self.check_started()
        seat = self.actor
        if seat is None:
            raise EncodingError("the episode is over: start a new one")
        index = action_index(index)
        action = action_of(self.view(seat), index, self.selected[seat])
        if action is None:  # one card picked of a pass
            self.selected[seat] |= Card(index).mask
            return (0.0,) * self.players
        return self.apply(action)

    def apply(self, action: Action) -> tuple[float, ...]:
        """Apply a whole decision of the acting seat (a computer player's, say; the core
        checks it); each seat's reward for it."""
        if self.over:
            raise EncodingError("the episode is over: start a new one")
        rounds = len(self.state.results)
        self.state = self.state.apply(action)
        self.selected = [0] * self.players
        rewards = [0.0] * self.players
        if len(self.state.results) > rounds and self.reward == "hand":
            rewards = [-float(p) for p in self.state.results[-1].points]
        if self.state.phase is Phase.DEAL and self.episode == "game":
            self.state = self.state.apply(seeded_dealer(self.state))
        if self.state.phase not in _DECIDING:
            self.over = True
            if self.reward == "game":
                rewards = list(rank_rewards(self.state.totals))
        return tuple(rewards)
