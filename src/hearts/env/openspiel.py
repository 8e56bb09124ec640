"""Our game as an OpenSpiel Python game, ``python_cc_hearts``, on every preset and count.

Importing this module (it needs ``open-spiel``) registers the game, so that::

    pyspiel.load_game("python_cc_hearts(rules=classic,players=5,target=30)")
    pyspiel.load_game("python_cc_hearts", {"rules": "standard:moon=shooter-minus"})

work. Parameters: ``rules`` (a rules text; OpenSpiel's game strings split on ``,`` and
``=``, so a text with options goes in the dict form), ``players`` and ``target`` (0: as the
rules say). OpenSpiel's algorithms (ISMCTS, CFR variants, evaluation) then run on our rules.

- Chance deals each round one card at a time (outcome: the card, uniform over the cards
  not yet dealt); card ``k`` of the round goes to seat ``k % players``, as in our seeded deal.
- Actions and the observation tensor are :mod:`hearts.players.observation` (``Discrete(54)``,
  944 floats; passes one card at a time, seat by seat from seat 0).
- The information state string is perfect recall: the seat's dealt hands, its own pass
  picks, the cards it received, every play and moon choice, and that another seat picked.
- The game runs to the target (a whole game); its returns are the rank rewards of
  :func:`hearts.env.table.rank_rewards` (zero-sum, -1 to 1). A game has no fixed length, so
  ``max_game_length`` is the longest hand times the core's round bound, ``MAX_ROUND``.
- ``resample_from_infostate`` (for ISMCTS) keeps the past rounds, deals the cards the seat
  has not seen at random among the other seats, avoiding the suits each has shown it lacks,
  makes up the hidden passes, and replays the round through the core, which checks it.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from hearts.core import (
    MAX_ROUND,
    PLAYER_COUNTS,
    CardSet,
    Deal,
    GameState,
    IllegalActionError,
    InvalidRulesError,
    Phase,
    Rules,
    card_name,
    is_whole_number,
    iter_mask,
    new_game,
    view,
)
from hearts.env.table import parse_rules, rank_rewards
from hearts.players.observation import (
    ACTION_COUNT,
    CARD_COUNT,
    MOON_ACTIONS,
    OBSERVATION_SIZE,
    EncodingError,
    action_mask,
    action_of,
    observe,
)

__all__ = ["GAME_NAME", "HeartsGame", "HeartsObserver", "HeartsState", "rules_of"]

GAME_NAME: Final = "python_cc_hearts"
_RESAMPLE_TRIES: Final = 200
_SEED_BITS: Final = 53

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Card Commons Hearts (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(max(counts) for counts in PLAYER_COUNTS.values()),
    min_num_players=min(min(counts) for counts in PLAYER_COUNTS.values()),
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "card-commons", "players": 0, "target": 0},
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules that OpenSpiel game parameters name (``players`` and ``target`` 0: the
    rules' own); InvalidRulesError for a parameter of the wrong kind (3.9 players is
    not 3)."""
    text = params.get("rules", "card-commons")
    players, target = params.get("players", 0), params.get("target", 0)
    if not (isinstance(text, str) and is_whole_number(players, 0)
            and is_whole_number(target, 0)):
        raise InvalidRulesError(
            f"the game's parameters are rules (a rules text), players and target (whole "
            f"numbers, 0 for the rules' own), not {text!r}, {players!r} and {target!r}")
    rules = parse_rules(text, players or None)
    return rules.replace(target=target) if target else rules


class HeartsGame(pyspiel.Game):  # type: ignore[misc]
    """Card Commons Hearts under the rules the parameters name."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.rules = rules_of(params)
        rules = self.rules
        picks = rules.players * rules.pass_count
        hand_length = rules.deck.bit_count() * 2 + picks + 1  # deal, plays, picks, moon
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=CARD_COUNT,
            num_players=rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=hand_length * MAX_ROUND)
        super().__init__(_GAME_TYPE, info, {
            "rules": str(params["rules"]), "players": int(params["players"]),
            "target": int(params["target"])})

    def new_initial_state(self) -> HeartsState:
        """A game before its first deal."""
        return HeartsState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> HeartsObserver:
        """The observer of the tensors and strings (perfect recall: the information state)."""
        return HeartsObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class HeartsState(pyspiel.State):  # type: ignore[misc]
    """A position: the core's state, the round's deal so far and the pass picks."""

    def __init__(self, game: HeartsGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.core: GameState = new_game(game.rules)  # unseeded: chance deals it
        self.dealing: list[int] = []
        self.selected = [0] * game.rules.players
        self.seen: list[list[str]] = [[] for _ in range(game.rules.players)]
        self.round_start = 0  # where in the history this round's deal began

    def current_player(self) -> int:
        """The seat to act, CHANCE while dealing, TERMINAL once over."""
        if self.core.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.core.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.core.to_act[0])

    def _legal_actions(self, player: int) -> list[int]:
        mask = action_mask(view(self.core, player), self.selected[player])
        return [int(a) for a in np.flatnonzero(mask)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt this round, each as likely."""
        left = list(iter_mask(self.rules.deck & ~CardSet(self.dealing).mask))
        return [(int(card), 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.core.phase is Phase.DEAL:
            self._deal_card(int(action))
            return
        seat = self.core.to_act[0]
        phase = self.core.phase
        decision = action_of(view(self.core, seat), int(action), self.selected[seat])
        if phase is Phase.PASS:
            for player, seen in enumerate(self.seen):
                seen.append(f"pick {card_name(action)}" if player == seat else f"p{seat} picks")
        else:
            for seen in self.seen:
                seen.append(f"p{seat} {self._action_to_string(seat, action)}")
        if decision is None:
            self.selected[seat] |= CardSet([int(action)]).mask
            return
        self.core = self.core.apply(decision)
        self.selected = [0] * self.rules.players
        if phase is Phase.PASS and self.core.phase is not Phase.PASS:
            for player, seen in enumerate(self.seen):
                seen.append(f"received {self.core.received(player)}")
        if self.core.phase is Phase.DEAL:
            self.round_start = len(self.history()) + 1

    def _deal_card(self, card: int) -> None:
        self.dealing.append(card)
        if len(self.dealing) < self.rules.deck.bit_count():
            return
        n = self.rules.players
        hands = tuple(CardSet(self.dealing[seat::n]) for seat in range(n))
        self.dealing = []
        self.core = self.core.apply(Deal(hands))
        for seat, seen in enumerate(self.seen):
            seen.append(f"round {self.core.round_no} dealt {hands[seat]}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        if action < CARD_COUNT:
            return card_name(action)
        return next(str(choice) for choice, index in MOON_ACTIONS.items() if index == action)

    def is_terminal(self) -> bool:
        """Whether the game reached its target."""
        return bool(self.core.is_over)

    def returns(self) -> list[float]:
        """Rank rewards once over, zeros before."""
        if not self.core.is_over:
            return [0.0] * self.rules.players
        return list(rank_rewards(self.core.totals))

    def information_state_string(self, player: int | None = None) -> str:
        """Everything the seat has seen, in order."""
        seat = self.current_player() if player is None else player
        return " | ".join(self.seen[seat])

    def resample_from_infostate(self, player: int, sampler: Any) -> HeartsState:
        """A state the seat cannot tell from this one, its hidden cards drawn at random."""
        rng = random.Random(int(sampler() * 2**_SEED_BITS))
        wanted = self.information_state_string(player)
        for _ in range(_RESAMPLE_TRIES):
            state = self._resampled(player, rng)
            if state is not None and state.information_state_string(player) == wanted:
                return state
        raise pyspiel.SpielError(
            f"no deal consistent with seat {player}'s information in {_RESAMPLE_TRIES} tries")

    def _resampled(self, player: int, rng: random.Random) -> HeartsState | None:
        state: HeartsState = self.get_game().new_initial_state()
        history = self.history()
        for action in history[:self.round_start]:
            state.apply_action(action)
        if self.core.phase is Phase.DEAL:
            return None  # only a seat to act is resampled
        dealt = _sample_round(self, player, rng)
        if dealt is None:
            return None
        hands, passes = dealt
        n = self.rules.players
        for k in range(self.rules.deck.bit_count()):
            seat = k % n
            state.apply_action(int(list(iter_mask(hands[seat]))[k // n]))
        picks = [list(iter_mask(mask)) for mask in passes]
        try:
            for action in history[self.round_start + self.rules.deck.bit_count():]:
                seat = state.current_player()
                if state.core.phase is Phase.PASS and seat != player:
                    action = int(picks[seat].pop(0))
                state.apply_action(action)
        except (IllegalActionError, EncodingError, pyspiel.SpielError, IndexError):
            return None
        return state

    def __str__(self) -> str:
        return repr(self.core)


def _sample_round(state: HeartsState, player: int,
                  rng: random.Random) -> tuple[list[int], list[int]] | None:
    """Dealt hands and hidden pass picks for the round in progress that agree with what
    ``player`` knows (None on a dead end: the caller tries again)."""
    rules = state.rules
    n = rules.players
    mine = view(state.core, player)
    played = [0] * n
    for play in mine.round_plays:
        played[play.seat] |= CardSet([play.card]).mask
    exchanged = mine.received is not None
    target = mine.pass_target
    pinned = [0] * n  # cards known to be in a seat's hand now
    if exchanged and mine.passed is not None and target is not None:
        pinned[target] = mine.passed.mask & ~mine.played.mask
    known = mine.hand.mask | mine.played.mask | sum(pinned)
    pool = list(iter_mask(rules.deck & ~known))
    rng.shuffle(pool)
    room = [mine.hand_sizes[s] - pinned[s].bit_count() for s in range(n)]
    room[player] = 0
    now = list(pinned)
    now[player] = mine.hand.mask
    for card in pool:
        bit = CardSet([card]).mask
        seats = [s for s in range(n) if room[s] and not mine.excluded[s] & bit]
        if not seats:
            return None
        seat = rng.choice(seats)
        now[seat] |= bit
        room[seat] -= 1
    held = [now[s] | played[s] for s in range(n)]  # each seat's cards after the exchange
    passes = [0] * n
    if mine.phase is Phase.PASS:  # no exchange yet: held is as dealt
        for seat in range(n):
            if seat == player:
                passes[seat] = (mine.passed.mask if mine.passed is not None
                                else state.selected[player])
                continue
            count = rules.pass_count if mine.has_chosen[seat] else state.selected[seat].bit_count()
            passes[seat] = CardSet(rng.sample(list(iter_mask(held[seat])), count)).mask
        return held, passes
    if not exchanged:  # a hold round
        return held, passes
    source = [rules.pass_source(s, mine.round_no) for s in range(n)]
    received = [0] * n
    for seat in range(n):
        if seat == player:
            received[seat] = mine.received.mask if mine.received is not None else 0
        elif source[seat] == player and mine.passed is not None:
            received[seat] = mine.passed.mask
        else:
            received[seat] = CardSet(rng.sample(list(iter_mask(held[seat])),
                                                rules.pass_count)).mask
    for seat in range(n):
        giver = source[seat]
        if giver is not None:
            passes[giver] = received[seat]
    dealt = [(held[s] & ~received[s]) | passes[s] for s in range(n)]
    return dealt, passes


class HeartsObserver:
    """OpenSpiel's Python observer: the encoding as the observation tensor and string;
    with perfect recall, the information state string (and no tensor)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        if not iig_obs_type.public_info or (iig_obs_type.private_info
                                            != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            # a public-only observer would otherwise be handed the seat's own cards
            raise EncodingError(
                "the observer gives one seat's view, the public facts and its own cards: "
                "IIGObservationType(public_info=True, private_info=SINGLE_PLAYER); a "
                "public-only, private-only or every-player observation is not offered, not "
                f"public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info.name}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0 if self.perfect_recall else OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HeartsState, player: int) -> None:
        """Fill the tensor with ``player``'s observation of ``state``; with perfect recall
        there is no tensor to fill (the game declares none), which is said, not an empty
        list handed over as though it were one."""
        if self.perfect_recall:
            raise EncodingError(
                "this game offers no information-state tensor: use observation_tensor (the "
                "seat's view: its cards and picks, each seat's cards played this round, the "
                "totals) or information_state_string (the seat's whole history)")
        self.tensor[:] = observe(view(state.core, player), state.selected[player])

    def string_from(self, state: HeartsState, player: int) -> str:
        """``player``'s information state (perfect recall) or view, as text."""
        if self.perfect_recall:
            return state.information_state_string(player)
        mine = view(state.core, player)
        picked = CardSet(state.selected[player])
        return (f"round {mine.round_no} {mine.phase.value} hand {mine.hand} picked {picked} "
                f"trick {' '.join(str(c) for _, c in mine.trick)} totals {list(mine.totals)} "
                f"taken {list(mine.points_taken)}")


pyspiel.register_game(_GAME_TYPE, HeartsGame)
