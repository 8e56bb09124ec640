"""A PettingZoo AEC environment of Hearts under any preset and player count.

Agents ``player_0`` … ``player_{n-1}`` are the seats. Each observation is PettingZoo's
classic-suite pair ``{"observation": float32[944], "action_mask": int8[54]}`` from
:mod:`hearts.players.observation`, built from the seat's own view alone.

Passing is one card at a time: the passing seats act in turn from seat 0, each picking its
``rules.pass_count`` cards one after another (its picks so far are in its observation; the
mask allows its other cards), and its pass is made with the last pick. An AEC game has one
agent acting at a time and a fixed action space: a choice of 3 cards out of 13 as one action
would need 286 actions (4 of 17 in a 3-player classic game: 2,380) for one phase; a card at a
time keeps ``Discrete(54)`` for every phase and player count. The choice stays hidden as the
simultaneous pass is: no seat sees another's picks, and the cards move only once every seat
has chosen.

Options: ``rules`` (a :class:`~hearts.core.Rules` or a rules text), ``players`` (2-6 where the
preset plays that many), ``reward`` (``"hand"`` or ``"game"``, see :mod:`hearts.env.table`),
``episode`` (``"game"``: whole games to the target; ``"hand"``: one hand, round
``options={"round": r}`` of ``reset``, default 1), ``render_mode`` (``"ansi"``:
``render()`` returns the table as text; ``"human"``: the table is printed after every
``reset`` and ``step``; or None).
``reset(seed=s)`` plays the game :func:`hearts.core.new_game` deals for ``s``; a reset without
a seed draws the next game's seed from the generator of the last seeded reset.

An action the mask does not allow raises :class:`hearts.players.observation.EncodingError`
(a :class:`~hearts.core.HeartsError`) and leaves the game as it was.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from hearts.core import Phase, Rules, card_name, view
from hearts.env.table import Episode, RewardKind, Table, parse_rules
from hearts.players.observation import (
    ACTION_COUNT,
    MAX_SEATS,
    OBSERVATION_SIZE,
    POINTS,
    TOTALS,
    EncodingError,
)

__all__ = ["RENDER_MODES", "HeartsAECEnv", "env", "observation_space", "rendered"]

RENDER_MODES: Final = ("ansi", "human")


def rendered(render_mode: str | None, text: str) -> str | None:
    """What ``render()`` gives in a render mode: the text for ``"ansi"``; for ``"human"``
    the text printed (to standard output) and None, as Gymnasium and PettingZoo ask."""
    if render_mode == "human":
        print(text, flush=True)
        return None
    return text if render_mode == "ansi" else None
_SEED_BOUND: Final = 2**63


def observation_space() -> spaces.Dict:
    """The space of one agent's observation: the encoding (round points -1 to 1, as the
    J♦ house rule scores below zero; game totals unbounded, as moons may take a total far
    below zero; every other entry 0 to 1) and the action mask."""
    low = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    low[POINTS:POINTS + MAX_SEATS] = -1.0
    low[TOTALS:TOTALS + MAX_SEATS] = -np.inf
    high[TOTALS:TOTALS + MAX_SEATS] = np.inf
    return spaces.Dict({
        "observation": spaces.Box(low, high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
    })


def agent_name(seat: int) -> str:
    """The agent of a seat."""
    return f"player_{seat}"


class HeartsAECEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int | None]):  # type: ignore[misc]
    """Hearts as a PettingZoo AEC environment (see the module docstring for the options)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it off the class
        "render_modes": list(RENDER_MODES),
        "name": "cc_hearts_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | str | None = None, players: int | None = None,
                 reward: RewardKind = "hand", episode: Episode = "game",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EncodingError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None,"
                                f" not {render_mode!r}")
        self.rules = parse_rules(rules, players)
        self.table = Table(self.rules, reward, episode)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space()
        self._action_space = spaces.Discrete(ACTION_COUNT)
        self._rng = np.random.default_rng()
        self._begin()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seats.get(agent)
        if seat is None:
            raise EncodingError(f"no agent {agent!r}; the agents are "
                                f"{', '.join(self.possible_agents)}")
        return {"observation": self.table.observation(seat), "action_mask": self.table.mask(seat)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed, round_no = self.table.reset_request(seed, options)  # refused: nothing changed
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(_SEED_BOUND))
        self.table.start(game_seed, round_no)
        self._begin()
        if self.render_mode == "human":
            self.render()

    def _begin(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        actor = self.table.actor
        if actor is not None:
            self.agent_selection = agent_name(actor)

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise EncodingError("every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise EncodingError(f"{agent} is done: its only action is None")
            self._was_dead_step(action)
            return
        if action is None:
            raise EncodingError(f"{agent} must act: None is only for a finished agent")
        rewards = self.table.step(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: rewards[self._seats[a]] for a in self.agents}
        self._accumulate_rewards()
        if self.table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (public facts, and the hand of the seat to act), returned or
        printed as the render mode asks."""
        if self.render_mode is None:
            return None
        state = self.table.state
        public = view(state, None)
        lines = [f"{self.rules.text}  round {public.round_no}  {public.phase.value}",
                 "totals " + " ".join(f"{agent}={t}" for agent, t in
                                      zip(self.possible_agents, public.totals, strict=True)),
                 "taken  " + " ".join(f"{agent}={p}" for agent, p in
                                      zip(self.possible_agents, public.points_taken, strict=True))]
        if public.trick:
            lines.append("trick  " + " ".join(f"{agent_name(s)}:{card_name(c)}"
                                              for s, c in public.trick))
        actor = self.table.actor
        if actor is not None:
            mine = view(state, actor)
            picked = self.table.selected[actor]
            note = f" (picked {' '.join(card_name(c) for c in mine.hand if picked >> c & 1)})" \
                if mine.phase is Phase.PASS and picked else ""
            lines.append(f"to act {agent_name(actor)}: {' '.join(str(c) for c in mine.hand)}{note}")
        elif public.winners:
            lines.append("won by " + " ".join(agent_name(s) for s in public.winners))
        return rendered(self.render_mode, "\n".join(lines))

    def close(self) -> None:
        """Nothing to release."""


def env(**options: Any) -> HeartsAECEnv:
    """A new environment (PettingZoo's conventional constructor)."""
    return HeartsAECEnv(**options)
