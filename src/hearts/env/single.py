"""A Gymnasium environment: one seat learns, the other seats are our computer players.

The learning seat (``seat``, default 0) sees the encoding of :mod:`hearts.players.observation`
(``{"observation": float32[944], "action_mask": int8[54]}``) and acts with ``Discrete(54)``,
passing one card at a time as in :mod:`hearts.env.aec`. Every other seat is played between
its steps by ``opponents``: one bot spec for them all or one a seat (the learning seat's
entry is ignored), each a level of :data:`hearts.players.LEVELS` (``random``, ``easy``,
``normal``, ``hard``, ``expert``, ``shooter``), ``policy:PATH`` (a trained policy),
``ext:COMMAND`` (an outside program speaking the bot protocol) or ``ismcts`` (OpenSpiel's,
with ``open-spiel`` installed), or a ready
:class:`~hearts.players.Player`. Bots built from specs are made afresh each episode, seeded
from the game's seed, so a seeded reset replays the same episode where the bots' play does
not depend on the clock: ``hard`` and ``expert`` search for a time budget a decision, and
replay exactly only with a fixed number of worlds (``expert:iterations=300``).

The reward is the learning seat's (``reward``: ``"hand"`` or ``"game"``, see
:mod:`hearts.env.table`), summed over the opponents' moves since its last step. An action the
mask does not allow ends the episode (``terminated``) with ``illegal_reward`` (default: the
worst a hand can score, minus the moon's worth, under ``"hand"``; -1 under ``"game"``) and
``info["illegal"]``, so that an unmasked agent learns the rules instead of crashing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from hearts.arena.specs import BotSpec, build_player
from hearts.core import Rules, as_whole_number, is_finite_number, moon_points
from hearts.env.aec import RENDER_MODES, observation_space, rendered
from hearts.env.table import Episode, RewardKind, Table, parse_rules
from hearts.players.base import Player, decide
from hearts.players.observation import ACTION_COUNT, EncodingError, action_index

__all__ = ["HeartsEnv"]

_SEED_BOUND: Final = 2**63
Observation = dict[str, Any]


class HeartsEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Hearts against computer players (see the module docstring)."""

    # render_fps: Gymnasium warns without one; a text view has no frame rate to keep
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES),  # noqa: RUF012
                                "render_fps": 1}

    def __init__(self, rules: Rules | str | None = None, players: int | None = None,
                 seat: int = 0, opponents: str | Player | Sequence[str | Player] = "random",
                 reward: RewardKind = "hand", episode: Episode = "game",
                 illegal_reward: float | None = None, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EncodingError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None,"
                                f" not {render_mode!r}")
        self.rules = parse_rules(rules, players)
        n = self.rules.players
        number = as_whole_number(seat)  # a NumPy integer too
        if number is None or not 0 <= number < n:
            raise EncodingError(f"seat must be 0 to {n - 1}, not {seat!r}")
        self.seat = number
        self.table = Table(self.rules, reward, episode)
        self.render_mode = render_mode
        if isinstance(opponents, str | Player):
            choices = [opponents] * n
        elif isinstance(opponents, list | tuple) and all(
                isinstance(c, str | Player) for c in opponents):
            choices = list(opponents)
        else:
            raise EncodingError(f"opponents is a bot spec or a player, or a list of them, "
                                f"not {opponents!r}")
        if len(choices) not in (n - 1, n):
            raise EncodingError(
                f"opponents: give one bot, or one a seat ({n}) or one an other seat ({n - 1})")
        if len(choices) == n - 1:
            choices.insert(seat, choices[0])
        self._choices = [BotSpec.parse(c) if isinstance(c, str) else c for c in choices]
        self._bots: dict[int, Player] = {}
        if illegal_reward is None:
            illegal_reward = -1.0 if reward == "game" else -float(moon_points(self.rules))
        if isinstance(illegal_reward, np.floating | np.integer):
            illegal_reward = illegal_reward.item()  # np.float32(-3) is -3.0
        if not is_finite_number(illegal_reward):
            raise EncodingError(f"illegal_reward is a finite number, not {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._game_seed = 0

    def _observation(self) -> Observation:
        return {"observation": self.table.observation(self.seat),
                "action_mask": self.table.mask(self.seat)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        seed, round_no = self.table.reset_request(seed, options)  # refused: nothing changed
        super().reset(seed=seed)
        self._game_seed = seed if seed is not None else int(self.np_random.integers(_SEED_BOUND))
        self._close_bots()
        self._bots = {
            s: build_player(c, seat=s, rules=self.rules, seed=f"{self._game_seed}/seat{s}")
            if isinstance(c, BotSpec) else c
            for s, c in enumerate(self._choices) if s != self.seat}
        self.table.start(self._game_seed, round_no)
        self._opponents_play()
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def _opponents_play(self) -> float:
        """Let the other seats act until it is this seat's turn or the episode ends; the
        reward this seat got meanwhile."""
        total = 0.0
        while (actor := self.table.actor) is not None and actor != self.seat:
            total += self.table.apply(decide(self._bots[actor], self.table.view(actor)))[self.seat]
        if self.table.over:
            self._close_bots()
        return total

    def step(self, action: int | np.int64
             ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        self.table.check_started()
        if self.table.over:
            raise EncodingError("the episode is over: call reset()")
        index = action_index(action)
        mask = self.table.mask(self.seat)
        info: dict[str, Any] = {}
        if mask[index]:
            reward = self.table.step(index)[self.seat] + self._opponents_play()
        else:
            self.table.over = True
            self._close_bots()
            reward = self.illegal_reward
            info = {"illegal": index, "allowed": np.flatnonzero(mask).tolist()}
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self.table.over, False, info

    def render(self) -> str | None:
        """This seat's view as text, returned or printed as the render mode asks."""
        if self.render_mode is None:
            return None
        mine = self.table.view(self.seat)
        return rendered(self.render_mode,
                        f"{self.rules.text}  round {mine.round_no}  {mine.phase.value}\n"
                        f"totals {list(mine.totals)}  taken {list(mine.points_taken)}\n"
                        f"trick {[str(c) for _, c in mine.trick]}\n"
                        f"seat {self.seat} hand {' '.join(str(c) for c in mine.hand)}")

    def _close_bots(self) -> None:
        state = self.table.state
        for seat, bot in self._bots.items():
            close = getattr(bot, "close", None)
            if close is not None and isinstance(self._choices[seat], BotSpec):
                close(state.totals, state.winners)
        self._bots = {s: b for s, b in self._bots.items()
                      if not isinstance(self._choices[s], BotSpec)}

    def close(self) -> None:
        """Stop any outside bot programs."""
        self._close_bots()
