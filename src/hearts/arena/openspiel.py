"""OpenSpiel's ISMCTS bot as a player, to measure ours against an outside engine.

Needs the optional ``open-spiel`` package (``pip install card-commons-hearts[bench]``).
OpenSpiel's ``hearts`` plays one hand under rules that match our ``standard``
preset hand by hand (2♣ leads, no points on trick one, hearts broken by a heart or
Q♠, moon: shooter 0 and +26 to the others); its pass direction is a chance event,
which we set to the round's direction. It knows nothing of game totals.

For each decision the adapter builds an OpenSpiel state from this seat's view
alone: the seat's own cards and passes, every card played, and the hidden cards
dealt at random (respecting the suits a seat has shown it lacks). ISMCTS then
resamples hidden cards from its own information state. The acting seat is always
presented as OpenSpiel's player 0: OpenSpiel's resampler builds impossible deals
during the pass phase for a player that has already been passed to (and ISMCTS
crashes there); player 0 passes first, so it never has been.

OpenSpiel's ``ISMCTSBot`` does not repeat its choices from its seed (open-spiel 2.0.2:
fresh bots with one seed choose differently in one state), so a match with it gives
figures that vary from run to run; the adapter's own sampling is seeded.

Card numbers: OpenSpiel's card is ``rank * 4 + suit`` with suits C, D, H, S; ours
is ``suit * 13 + rank`` with suits C, D, S, H. Pass directions coincide (1 left,
2 across, 3 right, 0 none).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from hearts.arena.errors import BotSpecError
from hearts.arena.specs import option_value
from hearts.core import (
    ALL_CARDS,
    HEART_MASK,
    Card,
    CardSet,
    FirstLead,
    FirstTrick,
    HeartsLead,
    MoonChoice,
    MoonRule,
    PlayerView,
    Rules,
    is_finite_number,
    is_whole_number,
    iter_mask,
)

__all__ = ["ISMCTSPlayer", "from_openspiel_card", "ismcts_player", "to_openspiel_card"]

SEATS: Final = 4
_OUR_TO_THEIR_SUIT: Final = (0, 1, 3, 2)  # C D S H -> C D H S
_THEIRS: Final = tuple(card.rank * 4 + _OUR_TO_THEIR_SUIT[card.suit] for card in ALL_CARDS)
_OURS: Final = tuple(sorted(ALL_CARDS, key=lambda card: _THEIRS[card]))
_SAMPLING_TRIES: Final = 200
MAX_SIMULATIONS: Final = 10_000_000
"""The most simulations a decision an ``ismcts`` bot takes (a thousand times the target's)."""
MAX_ROLLOUTS: Final = 1000
"""The most random rollouts a leaf an ``ismcts`` bot takes."""


def to_openspiel_card(card: int) -> int:
    """OpenSpiel's number for one of our cards."""
    return _THEIRS[card]


def from_openspiel_card(action: int) -> Card:
    """Our card for OpenSpiel's card number."""
    return _OURS[action]


def check_rules(rules: Rules) -> None:
    """Raise unless the rules play each hand the way OpenSpiel's default hearts does."""
    same = (rules.players == SEATS and rules.removed == 0 and rules.pass_count in (0, 3)
            and rules.first_lead is FirstLead.LOWEST_CLUB
            and rules.first_trick is FirstTrick.NO_POINTS
            and rules.hearts_lead is HeartsLead.AFTER_HEART_OR_QUEEN
            and rules.moon is MoonRule.OTHERS_PLUS and not rules.jack_of_diamonds)
    if not same:
        raise BotSpecError(f"OpenSpiel's hearts plays the standard preset's hands; "
                           f"it cannot play {rules.text}")


def _deal_hidden(rng: random.Random, cards: list[int], capacity: list[int],
                 voids: Sequence[frozenset[int]]) -> list[list[int]]:
    """Share ``cards`` among seats with the given capacities, never giving a seat a suit
    it has shown it lacks (retried at random; the view guarantees a solution exists)."""
    for _ in range(_SAMPLING_TRIES):
        room = capacity[:]
        shares: list[list[int]] = [[] for _ in capacity]
        order = cards[:]
        rng.shuffle(order)
        # the suits with the fewest possible holders first, so greedy rarely gets stuck
        order.sort(key=lambda c: sum(ALL_CARDS[c].suit not in voids[s] and capacity[s] > 0
                                     for s in range(len(capacity))))
        for card in order:
            seats = [s for s in range(len(room))
                     if room[s] and ALL_CARDS[card].suit not in voids[s]]
            if not seats:
                break
            seat = rng.choice(seats)
            shares[seat].append(card)
            room[seat] -= 1
        else:
            return shares
    raise RuntimeError("no deal of the hidden cards fits the suits shown void")


class ISMCTSPlayer:
    """OpenSpiel's C++ ``ISMCTSBot`` seen through our view.

    Random-rollout evaluation, unlimited world samples, the most visited action
    played; ``uct_c`` 5 by default, the value OpenSpiel's own ISMCTS test uses.
    """

    def __init__(self, name: str, *, simulations: object = 1000, uct_c: object = 5.0,
                 rollouts: object = 1, seed: str = "0") -> None:
        # OpenSpiel takes any of these, then fails in the game (0 simulations) or crashes
        # the process (0 rollouts)
        if not is_whole_number(simulations, 1, MAX_SIMULATIONS):
            raise BotSpecError(f"{name!r}: sims is a whole number from 1 to "
                               f"{MAX_SIMULATIONS:,}, not {simulations!r}")
        if not is_finite_number(uct_c) or uct_c < 0:
            raise BotSpecError(f"{name!r}: uct is a number from 0 up, not {uct_c!r}")
        if not is_whole_number(rollouts, 1, MAX_ROLLOUTS):
            raise BotSpecError(f"{name!r}: rollouts is a whole number from 1 to "
                               f"{MAX_ROLLOUTS:,}, not {rollouts!r}")
        try:
            import pyspiel
        except ImportError:
            raise BotSpecError("the ismcts bot needs OpenSpiel: pip install open-spiel") from None
        self.name = name
        self.rng = random.Random(seed)
        self._pyspiel: Any = pyspiel
        self._game: Any = pyspiel.load_game("hearts")
        bot_seed = self.rng.getrandbits(31)
        self._evaluator: Any = pyspiel.RandomRolloutEvaluator(rollouts, bot_seed)
        self._bot: Any = pyspiel.ISMCTSBot(
            bot_seed, self._evaluator, uct_c, simulations, -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        # the same search, reporting every card's share of the visits (see choose_play)
        self._visits: Any = pyspiel.ISMCTSBot(
            bot_seed, self._evaluator, uct_c, simulations, -1,
            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)

    # ------------------------------------------------------------- Player API
    def choose_pass(self, view: PlayerView) -> CardSet:
        check_rules(view.rules)
        self._seat(view)
        others = [c for c in iter_mask(view.rules.deck & ~view.hand.mask)]
        self.rng.shuffle(others)
        dealt = [list(view.hand)] + [others[i::3] for i in range(3)]  # rotated: me first
        state = self._dealt_state(view.pass_offset, dealt)
        chosen = []
        for _ in range(view.rules.pass_count):
            self._expect(state, 0, [to_openspiel_card(c) for c in view.hand
                                    if c not in chosen])
            action = self._bot.step(state)
            chosen.append(from_openspiel_card(action))
            state.apply_action(action)
        return CardSet(chosen)

    def choose_play(self, view: PlayerView) -> Card:
        check_rules(view.rules)
        state = self._play_state(view)
        legal = [to_openspiel_card(c) for c in view.legal]
        ours, theirs = set(legal), set(state.legal_actions())
        if (state.current_player() == 0 and ours < theirs
                and all(from_openspiel_card(a).mask & HEART_MASK for a in theirs - ours)):
            # OpenSpiel breaks hearts with any heart played, `standard` only with one
            # discarded (RULES.md): after a heart led from a hand of only hearts it may
            # offer hearts we do not allow; play the most visited card among ours
            policy, _ = self._visits.step_with_policy(state)
            return from_openspiel_card(max((p, a) for a, p in policy if a in legal)[1])
        self._expect(state, 0, legal)
        return from_openspiel_card(self._bot.step(state))

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        raise BotSpecError("OpenSpiel's hearts has no moon choice (standard: others +26)")

    # ------------------------------------------------------- state building
    @staticmethod
    def _seat(view: PlayerView) -> int:
        if view.seat is None:
            raise BotSpecError("the ismcts bot plays a seat, not a spectator's view")
        return view.seat

    def _dealt_state(self, pass_offset: int, dealt: Sequence[Sequence[int]]) -> Any:
        """A new OpenSpiel hand with the pass direction and the dealt hands (rotated)."""
        state = self._game.new_initial_state()
        state.apply_action(pass_offset)
        for k in range(len(dealt[0])):
            for hand in dealt:
                state.apply_action(to_openspiel_card(hand[k]))
        return state

    def _play_state(self, view: PlayerView) -> Any:
        me = self._seat(view)
        k = view.pass_offset if view.rules.pass_count else 0

        def rel(seat: int) -> int:  # our seat -> OpenSpiel player (me first)
            return (seat - me) % SEATS

        plays: list[tuple[int, int]] = [(play.seat, play.card) for play in view.round_plays]
        played: list[list[int]] = [[] for _ in range(SEATS)]
        for seat, card in plays:
            played[rel(seat)].append(card)
        passed_mine = [int(c) for c in view.passed or ()] if k else []
        received_mine = [int(c) for c in view.received or ()] if k else []
        # what each player holds now, and cards known to be there (what I passed)
        now: list[list[int]] = [[int(c) for c in view.hand]] + [[] for _ in range(SEATS - 1)]
        played_mask = view.played.mask
        if k:
            now[k] = [c for c in passed_mine if not played_mask >> c & 1]
        known = view.hand.mask | played_mask | sum(1 << c for c in passed_mine)
        hidden = [int(c) for c in iter_mask(view.rules.deck & ~known)]
        capacity = [0] + [view.hand_sizes[(me + p) % SEATS] - len(now[p])
                          for p in range(1, SEATS)]
        voids = view.voids()
        shares = _deal_hidden(self.rng, hidden, capacity,
                              [frozenset()] + [voids[(me + p) % SEATS] for p in range(1, SEATS)])
        post = [now[p] + shares[p] + played[p] for p in range(SEATS)]
        dealt = post
        if k:
            passes: list[list[int]] = [[] for _ in range(SEATS)]
            passes[0] = passed_mine
            passes[(SEATS - k) % SEATS] = received_mine
            for p in range(1, SEATS):
                if p != (SEATS - k) % SEATS:
                    passes[p] = self.rng.sample(post[(p + k) % SEATS], len(passed_mine))
            dealt = [[c for c in post[p] if c not in passes[(p - k) % SEATS]] + passes[p]
                     for p in range(SEATS)]
        state = self._dealt_state(k, dealt)
        if k:
            for p in range(SEATS):
                for card in passes[p]:
                    state.apply_action(to_openspiel_card(card))
        for _, card in plays:
            state.apply_action(to_openspiel_card(card))
        return state

    @staticmethod
    def _expect(state: Any, player: int, legal: list[int]) -> None:
        """Check the rebuilt state asks our seat for the same choices our rules give."""
        if state.current_player() != player or sorted(state.legal_actions()) != sorted(legal):
            raise RuntimeError(
                f"the rebuilt OpenSpiel state disagrees with our view: player "
                f"{state.current_player()}, legal {state.legal_actions()} vs {sorted(legal)}")


def ismcts_player(name: str, options: dict[str, str], seed: str) -> ISMCTSPlayer:
    """The ``ismcts[:sims=N,uct=C,rollouts=R]`` bot spec as a player."""
    allowed = {"sims", "uct", "rollouts"}
    unknown = set(options) - allowed
    if unknown:
        raise BotSpecError(f"ismcts takes the options sims, uct and rollouts, "
                           f"not {sorted(unknown)[0]!r}")
    return ISMCTSPlayer(name, simulations=option_value(options.get("sims", "1000")),
                        uct_c=option_value(options.get("uct", "5")),
                        rollouts=option_value(options.get("rollouts", "1")), seed=seed)
