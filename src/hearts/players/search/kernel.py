"""The compiled search path: playouts over ``int64`` card masks, world sampling, scoring.

The search player simulates hundreds of thousands of card plays per decision, far
beyond what :class:`hearts.core.state.GameState` (immutable, validating) is built for.
This module repeats the play-phase rules over plain arrays so Numba can compile them.
Because that duplicates rule logic, ``tests/players/test_search_kernel.py`` ties it to
the core: legal sets and round points must match ``GameState.apply`` in every preset;
``tests/players/test_search_solve.py`` ties the endgame solver's values to lines the
core plays out and scores.

A *position* is an ``int64`` array laid out by the ``S_*`` offsets (hands, cards taken,
the trick in progress, leader, turn, flags); the rules are an ``int64`` array laid out
by the ``R_*`` offsets (see :func:`hearts.players.search.encode.rules_array`).
Randomness comes only from a 32-bit xorshift state the caller seeds (``rng[0]``).

Every compiled function of the search lives in this one module on purpose: Numba's
on-disk cache notices a change only in the file of the function it caches, not in the
functions it calls from other files (numba issue #1833), so splitting them could run
stale machine code after an edit.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from hearts.players.errors import PlayerError
from hearts.players.search.jit import jit

__all__ = [
    "B_MOON",
    "B_PASS",
    "B_PLAY",
    "EVENT_NONE",
    "EVENT_PASSED",
    "EVENT_ROUND_END",
    "F_GAME_ENDS",
    "F_GAME_LOST",
    "F_MOON_AGAINST",
    "F_MOON_MINE",
    "F_POINTS",
    "F_QUEEN",
    "F_SIZE",
    "G_CHOSEN",
    "G_EXCLUDED",
    "G_OFFSET",
    "G_PHASE",
    "G_PLAYED",
    "G_RECEIVED",
    "G_SELECTED",
    "G_SHOOTER",
    "G_SIZE",
    "G_TOTALS",
    "LEARNED_WEIGHTS",
    "L_ADD",
    "L_BARRED",
    "L_DECK",
    "L_HAND",
    "L_HEARTS_OPEN",
    "L_LEADER",
    "L_PASSED",
    "L_PASS_TARGET",
    "L_PHASE",
    "L_PLAYED",
    "L_POINTS",
    "L_RECEIVED",
    "L_SEATS",
    "L_SELECTED",
    "L_SIZE",
    "L_SUBTRACT",
    "L_TOTALS",
    "L_TRICK",
    "L_TRICK_NO",
    "L_VOIDS",
    "MAX_SEATS",
    "NO_QUEEN",
    "N_FEATURES",
    "POLICY_ALARM",
    "POLICY_HEURISTIC",
    "POLICY_LEAD",
    "POLICY_LEARNED",
    "POLICY_MOON",
    "POLICY_RANDOM",
    "R_DECK",
    "R_HEARTS_LEAD",
    "R_JACK",
    "R_LOWEST_CLUB",
    "R_LOWEST_CLUB_LEADS",
    "R_MOON",
    "R_NO_POINTS_FIRST",
    "R_PLAYERS",
    "R_ROUNDS_LEFT",
    "R_SIZE",
    "R_TARGET",
    "S_HANDS",
    "S_HEARTS_BROKEN",
    "S_LEADER",
    "S_QUEEN_PLAYED",
    "S_SIZE",
    "S_TAKEN",
    "S_TRICK",
    "S_TRICK_LEN",
    "S_TRICK_NO",
    "S_TURN",
    "batch_observe",
    "batch_random_actions",
    "batch_refused",
    "batch_step",
    "card_count",
    "card_features",
    "deal_position",
    "evaluate_cards",
    "evaluate_cards_solved",
    "evaluate_cards_tree",
    "evaluate_passes",
    "hearts_open",
    "heuristic_pass",
    "legal_mask",
    "mix_seed",
    "play_card",
    "play_class",
    "play_random_hands",
    "playout",
    "playout_looking_ahead",
    "playout_recorded",
    "playout_until",
    "random_below",
    "round_points",
    "round_points_for_choice",
    "sample_hands",
    "solve_round",
    "utility",
    "win_chance",
    "world_moves",
    "world_weight",
]

Array = npt.NDArray[np.int64]

MAX_SEATS: Final = 6

# Position layout: a mask a seat for hands and for cards taken, the trick's cards in
# play order, then single numbers.
S_HANDS: Final = 0
S_TAKEN: Final = S_HANDS + MAX_SEATS
S_TRICK: Final = S_TAKEN + MAX_SEATS
S_LEADER: Final = S_TRICK + MAX_SEATS
S_TURN: Final = S_LEADER + 1
S_TRICK_LEN: Final = S_TURN + 1
S_TRICK_NO: Final = S_TRICK_LEN + 1
S_HEARTS_BROKEN: Final = S_TRICK_NO + 1
S_QUEEN_PLAYED: Final = S_HEARTS_BROKEN + 1
S_SIZE: Final = S_QUEEN_PLAYED + 1

# Rules layout.
R_PLAYERS: Final = 0
R_LOWEST_CLUB_LEADS: Final = 1  # 1: lowest-club first lead; 0: dealer-left
R_LOWEST_CLUB: Final = 2
R_NO_POINTS_FIRST: Final = 3  # 1: first_trick=no-points
R_HEARTS_LEAD: Final = 4  # 0 any-time, 1 after-heart, 2 after-heart-or-queen
R_MOON: Final = 5  # 0 shooter-minus, 1 others-plus, 2 shooter-choice
R_JACK: Final = 6
R_DECK: Final = 7
R_TARGET: Final = 8
R_ROUNDS_LEFT: Final = 9  # rounds the game may play after this one (``rounds``); -1: no limit
R_GAME_WEIGHT: Final = 10  # points a whole game win is worth in ``utility`` (0: points alone)
R_SIZE: Final = 11

POLICY_RANDOM: Final = 0
POLICY_HEURISTIC: Final = 1
# The heuristic policy, except that a seat which has taken every point card so far and
# can still take the rest plays for them, and the others, seeing it, break the attempt.
POLICY_MOON: Final = 2
# The moon policy, except that a seat leading plays the card likeliest to lose the trick:
# the lowest of a suit in which the fewest cards still out rank under it (see _safe_lead).
POLICY_LEAD: Final = 3
# The lead policy, except that a card played to a trick in progress is the best by a
# linear score over :func:`decision_features` (``LEARNED_WEIGHTS``, fitted to the
# search's own choices by ``examples/train_playout.py``). Learned leads were tried too:
# the search played about 3 points a hand worse with them (docs/research.md).
POLICY_LEARNED: Final = 4
# Added to a moon policy (or one built on it): a lone taker of point cards runs for the
# rest while two of its cards may still lose a trick (the others breaking the attempt),
# not only once its moon is near certain. For the search of a seat facing that taker.
POLICY_ALARM: Final = 8
N_FEATURES: Final = 20
LEARNED_WEIGHTS = np.array([
    0.0401, 0.8921, -0.6006, 0.2246, -3.7227, 0.9996, 2.1710, 0.1477, -0.1482, -0.9982,
    1.2930, -0.0804, 0.2617, 0.0624, -1.3651, 0.1438, 1.1048, -0.0669, -0.2011, -0.0417,
], dtype=np.float64)

# What the search counts per candidate beside its utility (``figures[i, F_*]``), summed
# over worlds: my round points, and how often I take the Q♠, I shoot the moon, another
# seat shoots it, the hand ends the game, and it ends the game with me not winning.
F_POINTS: Final = 0
F_QUEEN: Final = 1
F_MOON_MINE: Final = 2
F_MOON_AGAINST: Final = 3
F_GAME_ENDS: Final = 4
F_GAME_LOST: Final = 5
F_SIZE: Final = 6

# Sampling classes: the four suits (spades without the Q♠) and the Q♠ alone; a seat's
# ``voids`` bit NO_QUEEN says it is taken not to hold the Q♠.
NO_QUEEN: Final = 4
_CLASSES: Final = 5

# Moon outcomes as returned by the point functions.
MOON_NONE: Final = 0
MOON_SUBTRACT: Final = 1
MOON_ADD: Final = 2

_SUIT: Final = 0x1FFF
_HEARTS: Final = _SUIT << 39
_SPADES: Final = _SUIT << 26
_QUEEN: Final = 1 << 36
_KING_ACE_SPADES: Final = (1 << 37) | (1 << 38)
_JACK: Final = 1 << 22
_POINTS: Final = _HEARTS | _QUEEN
_RANK_BITS: Final = 1 | (1 << 13) | (1 << 26) | (1 << 39)
_MASK32: Final = 0xFFFFFFFF
# The game-standing model of :mod:`hearts.players.standing`, restated here because
# constants read from another module would be frozen into Numba's cache;
# ``tests/players/test_standing.py`` ties the two.
_WIN_SCALE_BASE: Final = 0.0648
_WIN_SCALE_SLOPE: Final = 0.1560
_WIN_ROUND_SCALE: Final = 5.3643

_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)
_HIGH13 = np.array([i.bit_length() - 1 for i in range(1 << 13)], dtype=np.int64)
_LOW13 = np.array([(i & -i).bit_length() - 1 for i in range(1 << 13)], dtype=np.int64)


# --------------------------------------------------------------------- randomness
@jit
def mix_seed(seed: int, stream: int) -> int:
    """A well-mixed non-zero 32-bit xorshift state from a seed and a stream number."""
    x = (seed ^ (stream * 0x2545F491)) & _MASK32
    for _ in range(3):
        x ^= x >> 16
        x = (x * 0x45D9F3B) & _MASK32
    x ^= x >> 16
    return x if x != 0 else 0x9E3779B9


@jit
def _next(rng: Array) -> int:
    x = rng[0]
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    rng[0] = x
    return int(x)


@jit
def random_below(rng: Array, bound: int) -> int:
    """A random integer in ``[0, bound)``."""
    return (_next(rng) * bound) >> 32


# ---------------------------------------------------------------------- bit tools
@jit
def card_count(mask: int) -> int:
    """Number of cards in a mask."""
    return int(_POP13[mask & _SUIT] + _POP13[(mask >> 13) & _SUIT]
               + _POP13[(mask >> 26) & _SUIT] + _POP13[(mask >> 39) & _SUIT])


@jit
def _nth_card(mask: int, index: int) -> int:
    """The ``index``-th card (from 0, ascending) of a mask."""
    for suit in range(4):
        chunk = (mask >> (13 * suit)) & _SUIT
        size = _POP13[chunk]
        if index < size:
            for _ in range(index):
                chunk &= chunk - 1
            return int(13 * suit + _LOW13[chunk])
        index -= size
    return -1


@jit
def _random_card(mask: int, rng: Array) -> int:
    return _nth_card(mask, random_below(rng, card_count(mask)))


@jit
def _highest_in_suit(mask: int, suit: int) -> int:
    return int(13 * suit + _HIGH13[(mask >> (13 * suit)) & _SUIT])


@jit
def _lowest_in_suit(mask: int, suit: int) -> int:
    return int(13 * suit + _LOW13[(mask >> (13 * suit)) & _SUIT])


@jit
def _lowest_card(mask: int) -> int:
    for suit in range(4):
        chunk = (mask >> (13 * suit)) & _SUIT
        if chunk:
            return int(13 * suit + _LOW13[chunk])
    return -1


@jit
def _by_rank(mask: int, rng: Array, highest: bool) -> int:
    """The highest- (or lowest-) ranked card of a mask, ties between suits at random."""
    for step in range(13):
        rank = 12 - step if highest else step
        tied = mask & (_RANK_BITS << rank)
        if tied:
            return _random_card(tied, rng)
    return -1


# -------------------------------------------------------------------------- rules
@jit
def hearts_open(pos: Array, rules: Array) -> bool:
    """Whether a heart may be led now (ignoring a hand of only hearts)."""
    mode = rules[R_HEARTS_LEAD]
    if mode == 0:
        return bool(pos[S_TRICK_NO] > 0)
    if pos[S_HEARTS_BROKEN]:
        return True
    return bool(mode == 2 and pos[S_QUEEN_PLAYED])


@jit
def legal_mask(pos: Array, rules: Array) -> int:
    """Cards the seat to play may play (the same answer as ``GameState.legal_cards``)."""
    hand = pos[S_HANDS + pos[S_TURN]]
    first = pos[S_TRICK_NO] == 0
    no_points = first and rules[R_NO_POINTS_FIRST] != 0
    if pos[S_TRICK_LEN] == 0:
        if first and rules[R_LOWEST_CLUB_LEADS]:
            return int(1 << rules[R_LOWEST_CLUB])
        allowed = hand
        if no_points and hand & ~_POINTS:
            allowed = hand & ~_POINTS
        if not hearts_open(pos, rules) and allowed & ~_HEARTS:
            allowed = allowed & ~_HEARTS
        return int(allowed)
    follow = hand & (_SUIT << (13 * (pos[S_TRICK] // 13)))
    if follow:
        return int(follow)
    if no_points and hand & ~_POINTS:
        return int(hand & ~_POINTS)
    return int(hand)


@jit
def play_card(pos: Array, rules: Array, card: int) -> bool:
    """Play ``card`` for the seat to play (assumed legal); True once the round is over."""
    seat = pos[S_TURN]
    bit = 1 << card
    pos[S_HANDS + seat] &= ~bit
    if bit & _HEARTS and pos[S_TRICK_LEN] > 0 and pos[S_TRICK] // 13 != 3:
        pos[S_HEARTS_BROKEN] = 1  # only a heart discarded breaks hearts
    elif bit == _QUEEN:
        pos[S_QUEEN_PLAYED] = 1
    pos[S_TRICK + pos[S_TRICK_LEN]] = card
    pos[S_TRICK_LEN] += 1
    players = rules[R_PLAYERS]
    if pos[S_TRICK_LEN] < players:
        pos[S_TURN] = (seat + 1) % players
        return False
    led = pos[S_TRICK] // 13
    best = 0
    taken = 0
    for i in range(players):
        c = pos[S_TRICK + i]
        taken |= 1 << c
        if c // 13 == led and c > pos[S_TRICK + best]:
            best = i
    winner = (pos[S_LEADER] + best) % players
    pos[S_TAKEN + winner] |= taken
    pos[S_TRICK_LEN] = 0
    pos[S_TRICK_NO] += 1
    pos[S_LEADER] = winner
    pos[S_TURN] = winner
    return bool(pos[S_HANDS + winner] == 0)


@jit
def _card_points(mask: int, rules: Array) -> int:
    points = card_count(mask & _HEARTS)
    if mask & _QUEEN:
        points += 13
    if rules[R_JACK] and mask & _JACK:
        points -= 10
    return points


@jit
def round_points_for_choice(pos: Array, rules: Array, choice: int, out: Array) -> int:
    """Each seat's points of a finished round into ``out``; returns the shooter or -1.

    ``choice`` (``MOON_SUBTRACT`` or ``MOON_ADD``) applies if someone shot the moon.
    """
    players = rules[R_PLAYERS]
    point_cards = rules[R_DECK] & _POINTS
    shooter = -1
    for seat in range(players):
        taken = pos[S_TAKEN + seat]
        out[seat] = _card_points(taken, rules)
        if point_cards and taken & point_cards == point_cards:
            shooter = seat
    if shooter < 0:
        return -1
    value = card_count(point_cards & _HEARTS) + (13 if point_cards & _QUEEN else 0)
    for seat in range(players):
        jack = -10 if rules[R_JACK] and pos[S_TAKEN + seat] & _JACK else 0
        if choice == MOON_SUBTRACT:
            out[seat] = jack - (value if seat == shooter else 0)
        else:
            out[seat] = jack + (0 if seat == shooter else value)
    return shooter


@jit
def win_chance(seat: int, totals: Array, points: Array, players: int, target: int,
               rounds_left: int) -> float:
    """``seat``'s chance of winning the game from ``totals + points`` with at most
    ``rounds_left`` rounds still to play (-1: no limit; the model of
    :func:`hearts.players.standing.win_chances`)."""
    highest = -(1 << 30)
    lowest = 1 << 30
    for s in range(players):
        total = totals[s] + points[s]
        highest = max(highest, total)
        lowest = min(lowest, total)
    mine = totals[seat] + points[seat]
    if rounds_left == 0 or highest >= target:
        if mine != lowest:
            return 0.0
        tied = 0
        for s in range(players):
            if totals[s] + points[s] == lowest:
                tied += 1
        return 1.0 / tied
    scale = target * (_WIN_SCALE_BASE + _WIN_SCALE_SLOPE * (target - highest) / target)
    if rounds_left > 0:
        scale = min(scale, _WIN_ROUND_SCALE * np.sqrt(rounds_left))
    whole = 0.0
    for s in range(players):
        whole += np.exp((lowest - totals[s] - points[s]) / scale)
    return float(np.exp((lowest - mine) / scale) / whole)


@jit
def utility(seat: int, points: Array, totals: Array, rules: Array) -> float:
    """How good a round's points are for ``seat``, in points: the others' mean minus its
    own, plus the rules' ``R_GAME_WEIGHT`` times the change in its chance of winning the
    game (the same as :func:`hearts.players.standing.game_value`)."""
    players = rules[R_PLAYERS]
    others = 0
    for s in range(players):
        if s != seat:
            others += points[s]
    before = np.zeros(players, dtype=np.int64)
    left = rules[R_ROUNDS_LEFT]
    change = win_chance(seat, totals, points, players, rules[R_TARGET], left) \
        - win_chance(seat, totals, before, players, rules[R_TARGET], left + 1 if left >= 0 else -1)
    return float(others / (players - 1) - points[seat] + rules[R_GAME_WEIGHT] * change)


@jit
def round_points(pos: Array, rules: Array, totals: Array, out: Array) -> int:
    """Points of a finished round into ``out``; the moon choice (if the rules give one) is
    the one better for the shooter. Returns ``MOON_NONE``, ``MOON_SUBTRACT`` or ``MOON_ADD``."""
    moon = rules[R_MOON]
    first = MOON_ADD if moon == 1 else MOON_SUBTRACT
    shooter = round_points_for_choice(pos, rules, first, out)
    if shooter < 0:
        return MOON_NONE
    if moon != 2:
        return first
    subtract_value = utility(shooter, out, totals, rules)
    round_points_for_choice(pos, rules, MOON_ADD, out)
    if utility(shooter, out, totals, rules) > subtract_value:
        return MOON_ADD
    round_points_for_choice(pos, rules, MOON_SUBTRACT, out)
    return MOON_SUBTRACT


# ----------------------------------------------------------------- playout policy
@jit
def _others_cards(pos: Array, players: int, seat: int) -> int:
    """The cards in every hand but ``seat``'s (the cards still out, as that seat sees
    them, when no seat's in particular is asked)."""
    others = 0
    for other in range(players):
        if other != seat:
            others |= pos[S_HANDS + other]
    return others


@jit
def _spade_care(pos: Array, legal: int) -> tuple[int, int]:
    """What a lead makes of the Q♠ while it is out: a spade below it to flush it from
    another hand (its holder must follow), as a card, else -1; and the leads other than
    the Q♠, K♠ and A♠ (all the legal ones when nothing else is)."""
    if pos[S_QUEEN_PLAYED] != 0:
        return -1, legal
    if not pos[S_HANDS + pos[S_TURN]] & _QUEEN:
        flush = legal & _SPADES & (_QUEEN - 1)
        if flush:
            return _highest_in_suit(flush, 2), legal
    if legal & ~(_QUEEN | _KING_ACE_SPADES):
        return -1, legal & ~(_QUEEN | _KING_ACE_SPADES)
    return -1, legal


@jit
def _heuristic_card(pos: Array, rules: Array, legal: int, rng: Array) -> int:
    """A cheap, sensible play (close to the rule-based player's habits): lead low, fish
    for the Q♠ with low spades, duck under the winning card, dump Q♠ and high cards
    when void."""
    if pos[S_TRICK_LEN] == 0:
        flush, safe = _spade_care(pos, legal)
        if flush >= 0:
            return flush
        return _by_rank(safe, rng, False)
    return _trick_card(pos, rules, legal)


@jit
def _trick_card(pos: Array, rules: Array, legal: int) -> int:
    """The heuristic's card to a trick in progress."""
    led = pos[S_TRICK] // 13
    if legal & (_SUIT << (13 * led)) == legal:
        return _follow_card(pos, rules, legal, led)
    return _discard_card(pos, rules, legal)


@jit
def _follow_card(pos: Array, rules: Array, legal: int, led: int) -> int:
    """Following suit: shed high cards when the trick is safe, else duck under the
    winner, else win as cheaply as the risk of points asks."""
    trick_len = pos[S_TRICK_LEN]
    winning = pos[S_TRICK]
    trick = 0
    for i in range(trick_len):
        c = pos[S_TRICK + i]
        trick |= 1 << c
        if c // 13 == led and c > winning:
            winning = c
    keep_queen = legal & ~_QUEEN
    last = trick_len == rules[R_PLAYERS] - 1
    if not trick & _POINTS:
        if pos[S_TRICK_NO] == 0 and rules[R_NO_POINTS_FIRST] and keep_queen:
            # Nobody may add points on a no-points first trick: shed a high card.
            return _highest_in_suit(keep_queen, led)
        if last and legal & ~_POINTS:
            return _highest_in_suit(legal & ~_POINTS, led)
    under = legal & ((1 << winning) - 1)
    if under:
        return _highest_in_suit(under, led)
    if keep_queen == 0:
        return 36
    if last:
        return _highest_in_suit(keep_queen, led)
    risky = trick & _POINTS or led == 3 or (led == 2 and pos[S_QUEEN_PLAYED] == 0)
    if risky:
        return _lowest_in_suit(keep_queen, led)
    return _highest_in_suit(keep_queen, led)


@jit
def _discard_card(pos: Array, rules: Array, legal: int) -> int:
    """Void in the suit led: the Q♠, then A♠/K♠ while the Q♠ is out, then the most
    urgent of hearts (by rank) and high cards (sooner from a short suit)."""
    if legal & _QUEEN:
        return 36
    if pos[S_QUEEN_PLAYED] == 0 and legal & _KING_ACE_SPADES:
        return _highest_in_suit(legal & _KING_ACE_SPADES, 2)
    hand = pos[S_HANDS + pos[S_TURN]]
    best, best_value = -1, -1
    for suit in range(4):
        chunk = (legal >> (13 * suit)) & _SUIT
        if not chunk:
            continue
        rank = _HIGH13[chunk]
        if suit == 3:
            value = 60 + 4 * rank
        else:
            short = _POP13[(hand >> (13 * suit)) & _SUIT] <= 2
            value = 8 * rank + (12 if short else 0)
        if value > best_value:
            best, best_value = 13 * suit + rank, value
    return int(best)


@jit
def _losers(mine: int, others: int) -> int:
    """Cards of ``mine`` (one suit) that may lose a trick to ``others`` (the same suit):
    none once my top cards outnumber the others' cards, else each card below their best,
    up to their count beyond my top cards."""
    if mine == 0 or others == 0:
        return 0
    best = _HIGH13[others]
    tops = _POP13[mine >> (best + 1)]
    count = _POP13[others]
    if tops >= count:
        return 0
    return int(min(_POP13[mine] - tops, count - tops))


@jit
def _moon_shooter(pos: Array, rules: Array, alarm: bool) -> int:
    """The seat playing for every point card, or -1: the one seat that has taken point
    cards (or, before anyone has, the first seat whose hand qualifies), if no heart it
    holds may lose a trick and at most one other card may; with ``alarm``, a seat that
    has taken point cards also while two cards may lose a trick, hearts or not."""
    players = rules[R_PLAYERS]
    if not rules[R_DECK] & _POINTS:
        return -1
    taker = -1
    for seat in range(players):
        if pos[S_TAKEN + seat] & _POINTS:
            if taker >= 0:
                return -1
            taker = seat
    first = taker if taker >= 0 else 0
    last = taker + 1 if taker >= 0 else players
    for seat in range(first, last):
        hand = pos[S_HANDS + seat]
        others = _others_cards(pos, players, seat)
        side = 0
        hearts_lost = 0
        for suit in range(4):
            lost = _losers((hand >> (13 * suit)) & _SUIT, (others >> (13 * suit)) & _SUIT)
            if suit == 3:
                hearts_lost = lost
            else:
                side += lost
        near_certain = hearts_lost == 0 and side <= 1
        if near_certain or (alarm and taker >= 0 and hearts_lost + side <= 2):
            return seat
    return -1


@jit
def _top_cards(mine: int, others: int) -> int:
    """Cards of ``mine`` that no card of ``others`` in their suit beats."""
    tops = 0
    for suit in range(4):
        chunk = (mine >> (13 * suit)) & _SUIT
        theirs = (others >> (13 * suit)) & _SUIT
        if chunk:
            floor = _HIGH13[theirs] + 1 if theirs else 0
            tops |= ((chunk >> floor) << floor) << (13 * suit)
    return tops


@jit
def _trick_winner(pos: Array) -> int:
    """Index in the trick of the card winning it so far."""
    led = pos[S_TRICK] // 13
    best = 0
    for i in range(1, pos[S_TRICK_LEN]):
        c = pos[S_TRICK + i]
        if c // 13 == led and c > pos[S_TRICK + best]:
            best = i
    return best


@jit
def _shoot_card(pos: Array, rules: Array, legal: int, others: int, rng: Array) -> int:
    """Playing for every point card: cash sure winners (hearts last), win every trick
    I can as cheaply as holds, and never throw a point card away."""
    if pos[S_TRICK_LEN] == 0:
        tops = _top_cards(legal, others)
        if tops & ~_HEARTS:
            return _highest_in_suit(tops & ~_HEARTS, _highest_suit(tops & ~_HEARTS))
        if tops:
            return _highest_in_suit(tops, 3)
        return _by_rank(legal, rng, True)
    led = pos[S_TRICK] // 13
    winning = pos[S_TRICK + _trick_winner(pos)]
    if legal & (_SUIT << (13 * led)):
        above = legal & ~((2 << winning) - 1)
        if not above:
            return _lowest_in_suit(legal, led)
        tops = _top_cards(above, others)
        last = pos[S_TRICK_LEN] == rules[R_PLAYERS] - 1
        if last or not tops:
            return _lowest_in_suit(above, led) if last else _highest_in_suit(above, led)
        return _lowest_in_suit(tops, led)
    keep = legal & ~_POINTS if legal & ~_POINTS else legal
    return _by_rank(keep, rng, False)


@jit
def _highest_suit(mask: int) -> int:
    """The suit of the highest-ranked card of ``mask``."""
    best, best_rank = 0, -1
    for suit in range(4):
        chunk = (mask >> (13 * suit)) & _SUIT
        if chunk and _HIGH13[chunk] > best_rank:
            best, best_rank = suit, _HIGH13[chunk]
    return best


@jit
def _stop_card(pos: Array, rules: Array, legal: int, shooter: int, rng: Array) -> int:
    """Facing a moon attempt: take a trick with a point card in it from the shooter at
    the lowest price, or see a point card go to anyone else; otherwise play as usual."""
    trick_len = pos[S_TRICK_LEN]
    players = rules[R_PLAYERS]
    shooter_hand = pos[S_HANDS + shooter]
    if trick_len == 0:
        # a heart above every heart the shooter holds wins a heart from the shooter
        hearts = legal & _HEARTS
        if hearts and shooter_hand & _HEARTS:
            hearts &= ~((2 << _highest_in_suit(shooter_hand, 3)) - 1)
        if hearts:
            return _lowest_in_suit(hearts, 3)
        return _heuristic_card(pos, rules, legal, rng)
    led = pos[S_TRICK] // 13
    win_index = _trick_winner(pos)
    winner = (pos[S_LEADER] + win_index) % players
    winning = pos[S_TRICK + win_index]
    shooter_played = (shooter - pos[S_LEADER]) % players < trick_len
    follows = legal & (_SUIT << (13 * led))
    if follows:
        above = follows & ~((2 << winning) - 1)
        trick = 0
        for i in range(trick_len):
            trick |= 1 << pos[S_TRICK + i]
        if above and (trick & _POINTS or led == 3):
            # a trick with a point card the shooter would take: take it, as cheaply
            # as holds against the shooter's cards still to come
            if shooter_played:
                if winner == shooter:
                    return _lowest_in_suit(above, led)
            else:
                theirs = shooter_hand & (_SUIT << (13 * led))
                if theirs and _highest_in_suit(theirs, led) > winning:
                    holds = above & ~((2 << _highest_in_suit(theirs, led)) - 1)
                    if holds:
                        return _lowest_in_suit(holds, led)
        return _heuristic_card(pos, rules, legal, rng)
    points = legal & _POINTS
    if points and winner != shooter and shooter_played:
        # a point card on another seat's trick ends the attempt: the Q♠ if I hold it
        if points & _QUEEN:
            return 36
        return _highest_in_suit(points, 3)
    if winner == shooter or not shooter_played:
        safe = legal & ~_POINTS
        if safe:
            return _discard_card(pos, rules, safe)
    return _heuristic_card(pos, rules, legal, rng)


@jit
def _safe_lead(pos: Array, legal: int, out: int) -> int:
    """A lead for :data:`POLICY_LEAD`: the heuristic's Q♠ flush and spade care, then, of
    each suit's lowest card, the one under which the fewest cards of ``out`` (the cards
    still out) rank (the likeliest to lose the trick; a card nothing outranks comes
    last), ties to the shorter suit (a void sooner), then the lower rank."""
    flush, safe = _spade_care(pos, legal)
    if flush >= 0:
        return flush
    hand = pos[S_HANDS + pos[S_TURN]]
    best, best_key = -1, 1 << 30
    for suit in range(4):
        chunk = (safe >> (13 * suit)) & _SUIT
        if not chunk:
            continue
        rank = _LOW13[chunk]
        outstanding = (out >> (13 * suit)) & _SUIT
        under = _POP13[outstanding & ((1 << rank) - 1)]
        if outstanding >> (rank + 1) == 0:
            under += 64
        key = (under * 16 + _POP13[(hand >> (13 * suit)) & _SUIT]) * 16 + rank
        if key < best_key:
            best, best_key = 13 * suit + rank, key
    return int(best)


@jit
def _sole_taker(pos: Array, players: int) -> int:
    """The one seat that has taken point cards this round, or -1 (none, or several)."""
    taker = -1
    for seat in range(players):
        if pos[S_TAKEN + seat] & _POINTS:
            if taker >= 0:
                return -1
            taker = seat
    return taker


@jit
def decision_features(pos: Array, rules: Array, out: int, base: int, cards: Array,
                      features: npt.NDArray[np.float64]) -> None:
    """What :data:`POLICY_LEARNED` knows of playing each of ``cards`` to a trick in
    progress, into the rows of ``features`` (:data:`N_FEATURES` numbers a card, zeroed
    first): only the seat's view (its hand, ``out``: the cards in the other hands, the
    tricks) and ``base``, the heuristic's card (:func:`_trick_card`). Following suit and
    discarding each have their own features, zero in the other case."""
    features[:] = 0.0
    seat = pos[S_TURN]
    hand = pos[S_HANDS + seat]
    players = rules[R_PLAYERS]
    queen_live = pos[S_QUEEN_PLAYED] == 0
    queen_out = queen_live and out & _QUEEN != 0
    late = pos[S_TRICK_NO] / 12.0
    trick_len = pos[S_TRICK_LEN]
    led = pos[S_TRICK] // 13
    winning = pos[S_TRICK + _trick_winner(pos)]
    trick = 0
    for i in range(trick_len):
        trick |= 1 << pos[S_TRICK + i]
    last = trick_len == players - 1
    taker = _sole_taker(pos, players)
    for row in range(cards.shape[0]):
        f = features[row]
        card = cards[row]
        suit, rank, bit = card // 13, card % 13, 1 << card
        high = rank / 12.0
        outstanding = (out >> (13 * suit)) & _SUIT
        above = _POP13[outstanding >> (rank + 1)]
        below = _POP13[outstanding & ((1 << rank) - 1)]
        big_spade = queen_live and bit & _KING_ACE_SPADES != 0
        f[0] = card == base
        wins = suit == led and card > winning
        if suit == led:
            f[1] = high
            f[2] = wins
            f[3] = wins and last
            f[4] = wins * _card_points(trick | bit, rules) / 13.0
            f[5] = (wins and not last) * above / 13.0
            f[6] = bit == _QUEEN
            f[7] = big_spade
            f[8] = wins and not last and queen_out and led == 2 and card > 36
            f[9] = late * high
        else:
            f[10] = bit == _QUEEN
            f[11] = suit == 3
            f[12] = (suit == 3) * high
            f[13] = (suit != 3) * high
            f[14] = _POP13[(hand >> (13 * suit)) & _SUIT] / 13.0
            f[15] = big_spade
            f[16] = below / 13.0
        if taker == seat:
            f[17] = wins * high
        elif taker >= 0:
            f[18] = wins * high
            f[19] = bit & _POINTS != 0


@jit
def card_features(pos: Array, rules: Array, out: int, cards: Array,
                  features: npt.NDArray[np.float64]) -> None:
    """:func:`decision_features` of ``cards`` for the seat to play to the trick in
    progress in ``pos``, whose view says ``out`` is in the other hands."""
    if pos[S_TRICK_LEN] == 0:
        raise PlayerError("card features are for a trick in progress, not a lead")
    base = _trick_card(pos, rules, legal_mask(pos, rules))
    decision_features(pos, rules, out, base, cards, features)


@jit
def _learned_card(pos: Array, rules: Array, legal: int) -> int:
    """:data:`POLICY_LEARNED`'s card to a trick in progress when no moon is on: the legal
    card of the highest ``LEARNED_WEIGHTS`` score, ties to the lower card."""
    out = _others_cards(pos, rules[R_PLAYERS], pos[S_TURN])
    base = _trick_card(pos, rules, legal)
    cards = np.empty(card_count(legal), dtype=np.int64)
    rest = legal
    for i in range(cards.shape[0]):
        cards[i] = _lowest_card(rest)
        rest &= rest - 1
    features = np.empty((cards.shape[0], N_FEATURES), dtype=np.float64)
    decision_features(pos, rules, out, base, cards, features)
    best, best_score = 0, -np.inf
    for i in range(cards.shape[0]):
        score = 0.0
        for j in range(N_FEATURES):
            score += LEARNED_WEIGHTS[j] * features[i, j]
        if score > best_score:
            best, best_score = i, score
    return int(cards[best])


@jit
def _choose(pos: Array, rules: Array, policy: int, rng: Array) -> int:
    legal = legal_mask(pos, rules)
    if policy == POLICY_RANDOM or legal & (legal - 1) == 0:
        return _random_card(legal, rng)
    alarm = policy & POLICY_ALARM != 0
    policy &= POLICY_ALARM - 1
    if policy >= POLICY_MOON:  # the moon policy, or those built on it
        shooter = _moon_shooter(pos, rules, alarm)
        if shooter >= 0:
            seat = pos[S_TURN]
            if seat == shooter:
                others = _others_cards(pos, rules[R_PLAYERS], seat)
                return _shoot_card(pos, rules, legal, others, rng)
            return _stop_card(pos, rules, legal, shooter, rng)
        if pos[S_TRICK_LEN] > 0 and policy == POLICY_LEARNED:
            return _learned_card(pos, rules, legal)
        if pos[S_TRICK_LEN] == 0 and policy >= POLICY_LEAD:
            return _safe_lead(pos, legal, _others_cards(pos, rules[R_PLAYERS], pos[S_TURN]))
    return _heuristic_card(pos, rules, legal, rng)


@jit
def playout(pos: Array, rules: Array, policy: int, rng: Array) -> None:
    """Play the round in ``pos`` to its end with every seat following ``policy``."""
    while True:
        if pos[S_HANDS + pos[S_TURN]] == 0:
            return
        if play_card(pos, rules, _choose(pos, rules, policy, rng)):
            return


@jit
def playout_recorded(pos: Array, rules: Array, policy: int, rng: Array,
                     cards: Array, legal: Array) -> int:
    """:func:`playout`, writing each card played and each legal mask; returns the count."""
    count = 0
    while pos[S_HANDS + pos[S_TURN]] != 0:
        legal[count] = legal_mask(pos, rules)
        card = _choose(pos, rules, policy, rng)
        cards[count] = card
        count += 1
        if play_card(pos, rules, card):
            break
    return count


# ----------------------------------------------------------------- whole hands
@jit
def deal_position(rules: Array, rng: Array, pos: Array, deck: Array) -> None:
    """Shuffle ``deck`` (the cards in play) and deal a fresh round into ``pos``."""
    players = rules[R_PLAYERS]
    size = deck.shape[0]
    for i in range(size - 1, 0, -1):
        j = random_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    pos[:] = 0
    for k in range(size):
        pos[S_HANDS + k % players] |= 1 << deck[k]
    leader = 0
    if rules[R_LOWEST_CLUB_LEADS]:
        bit = 1 << rules[R_LOWEST_CLUB]
        for seat in range(players):
            if pos[S_HANDS + seat] & bit:
                leader = seat
    pos[S_LEADER] = leader
    pos[S_TURN] = leader


@jit
def play_random_hands(rules: Array, hands: int, policy: int, seed: int) -> int:
    """Deal and play ``hands`` whole rounds (no passing); returns the points scored in
    all (a checksum that also keeps the work from being optimised away)."""
    players = rules[R_PLAYERS]
    deck = np.empty(card_count(rules[R_DECK]), dtype=np.int64)
    k = 0
    for card in range(52):
        if rules[R_DECK] >> card & 1:
            deck[k] = card
            k += 1
    pos = np.zeros(S_SIZE, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    rng = np.array([mix_seed(seed, 0)], dtype=np.int64)
    checksum = 0
    for _ in range(hands):
        deal_position(rules, rng, pos, deck)
        playout(pos, rules, policy, rng)
        round_points(pos, rules, totals, points)
        for seat in range(players):
            checksum += points[seat]
    return checksum


# ----------------------------------------------------------------- hidden hands
@jit
def _class_cards(cls: int) -> int:
    """The cards of a sampling class: a suit (spades without the Q♠), or the Q♠ (4)."""
    if cls == NO_QUEEN:
        return _QUEEN
    return (_SUIT << (13 * cls)) & ~_QUEEN


@jit
def sample_hands(players: int, me: int, unseen: int, need: Array, voids: Array,
                 fixed: Array, rng: Array, out: Array) -> bool:
    """Deal ``unseen`` into ``out`` (one mask a seat, ``fixed`` cards included) so seat
    ``s`` holds ``need[s]`` cards, none of a suit in ``voids[s]`` (bits 0-3) and not the
    Q♠ if bit ``NO_QUEEN`` is set (or it is void in spades); ``out[me]`` is left alone.
    Returns False when no such deal exists.

    Class by class (the Q♠ is a class of its own), most constrained first, each card
    goes to a seat chosen in proportion to the room left in its hand (exactly a uniform
    deal when nobody is void), and Hall's condition is checked after each card, so a
    valid deal is found whenever one exists."""
    room = np.zeros(players, dtype=np.int64)
    blocked = np.zeros(players, dtype=np.int64)
    supply = np.zeros(_CLASSES, dtype=np.int64)
    for seat in range(players):
        if seat != me:
            room[seat] = need[seat] - card_count(fixed[seat])
            blocked[seat] = voids[seat]
            if voids[seat] >> 2 & 1:
                blocked[seat] |= 1 << NO_QUEEN
    for cls in range(_CLASSES):
        supply[cls] = card_count(unseen & _class_cards(cls))
    # Hall's condition per set of classes: the cards in it must fit the room of the
    # seats that may take any of them; kept up to date card by card.
    cards_in = np.zeros(1 << _CLASSES, dtype=np.int64)
    room_for = np.zeros(1 << _CLASSES, dtype=np.int64)
    for subset in range(1, 1 << _CLASSES):
        for cls in range(_CLASSES):
            if subset >> cls & 1:
                cards_in[subset] += supply[cls]
        for seat in range(players):
            if seat != me and (~blocked[seat]) & subset:
                room_for[subset] += room[seat]
        if cards_in[subset] > room_for[subset]:
            return False
    for seat in range(players):
        if seat != me:
            out[seat] = fixed[seat]
    # Most constrained classes first: fewest seats that may hold them.
    order = np.arange(_CLASSES)
    takers = np.zeros(_CLASSES, dtype=np.int64)
    for cls in range(_CLASSES):
        for seat in range(players):
            if seat != me and room[seat] > 0 and not blocked[seat] >> cls & 1:
                takers[cls] += 1
    for i in range(1, _CLASSES):
        j = i
        while j > 0 and takers[order[j]] < takers[order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    cards = np.empty(13, dtype=np.int64)
    for step in range(_CLASSES):
        dealt = int(order[step])
        # Once every class left may go to every seat with room, any deal completes.
        check = False
        for later in range(step, _CLASSES):
            for seat in range(players):
                if seat != me and room[seat] > 0 and blocked[seat] >> order[later] & 1:
                    check = True
        size = 0
        chunk = unseen & _class_cards(dealt)
        while chunk:
            cards[size] = _lowest_card(chunk)
            chunk &= chunk - 1
            size += 1
        for i in range(size - 1, 0, -1):
            j = random_below(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        for i in range(size):
            excluded = 0
            while True:
                weight = 0
                for seat in range(players):
                    if seat != me and not (blocked[seat] >> dealt & 1) \
                            and not (excluded >> seat & 1):
                        weight += room[seat]
                if weight == 0:
                    return False
                pick = random_below(rng, weight)
                chosen = 0
                for seat in range(players):
                    if seat != me and not (blocked[seat] >> dealt & 1) \
                            and not (excluded >> seat & 1):
                        if pick < room[seat]:
                            chosen = seat
                            break
                        pick -= room[seat]
                room[chosen] -= 1
                if not check:
                    break
                takes = ~blocked[chosen]
                fits = True
                for subset in range(1, 1 << _CLASSES):
                    if subset >> dealt & 1:
                        cards_in[subset] -= 1
                    if takes & subset:
                        room_for[subset] -= 1
                    fits = fits and cards_in[subset] <= room_for[subset]
                if fits:
                    break
                for subset in range(1, 1 << _CLASSES):
                    if subset >> dealt & 1:
                        cards_in[subset] += 1
                    if takes & subset:
                        room_for[subset] += 1
                room[chosen] += 1
                excluded |= 1 << chosen
            out[chosen] |= 1 << cards[i]
    return True


# ----------------------------------------------------------------------- search
@jit
def _add_figures(pos: Array, rules: Array, totals: Array, me: int, points: Array,
                 weight: float, row: npt.NDArray[np.float64]) -> None:
    """Count a finished round (``points`` as :func:`round_points` gave them) into ``row``
    (the ``F_*`` layout), ``weight`` times (its world's weight)."""
    players = rules[R_PLAYERS]
    row[F_POINTS] += weight * points[me]
    if pos[S_TAKEN + me] & _QUEEN:
        row[F_QUEEN] += weight
    point_cards = rules[R_DECK] & _POINTS
    for seat in range(players):
        if point_cards and pos[S_TAKEN + seat] & point_cards == point_cards:
            row[F_MOON_MINE if seat == me else F_MOON_AGAINST] += weight
    ends = rules[R_ROUNDS_LEFT] == 0
    best = 1 << 30
    for seat in range(players):
        total = totals[seat] + points[seat]
        ends = ends or total >= rules[R_TARGET]
        best = min(best, total)
    if ends:
        row[F_GAME_ENDS] += weight
        if totals[me] + points[me] != best:
            row[F_GAME_LOST] += weight


@jit
def play_class(pos: Array, card: int) -> int:
    """What a play says about the hand it came from, coarsely: whether it is the Q♠,
    and otherwise, following or discarding, its suit and whether it goes over the card
    winning the trick; leading, only whether it is a jack or higher (which suit a seat
    leads from is too much a matter of style to read). Plays of one class count as the
    same choice, so a model that picks the 7♣ where the seat ducked with the 5♣ is not
    taken as wrong."""
    if card == 36:
        return 8
    if pos[S_TRICK_LEN] == 0:
        return 10 if card % 13 >= 9 else 9
    winning = pos[S_TRICK + _trick_winner(pos)]
    high = card // 13 == winning // 13 and card > winning
    return 2 * (card // 13) + (1 if high else 0)


@jit
def world_weight(start: Array, rules: Array, me: int, hands: Array, played: Array,
                 history: Array, trust: float, policy: int, rng: Array,
                 pos: Array) -> float:
    """How likely the other seats' plays so far are in a sampled world (``hands``: every
    seat's current cards), up to a constant: the round is replayed from ``start`` (its
    first leader, nothing taken) with each seat holding its cards plus ``played`` (what
    it has played this round), through ``history`` (the round's cards in order); each
    play by another seat with a choice counts 1 when ``policy`` would have played a card
    of the same class (:func:`play_class`) and ``trust`` when not. ``pos`` is scratch."""
    pos[:] = start
    for seat in range(rules[R_PLAYERS]):
        pos[S_HANDS + seat] = hands[seat] | played[seat]
    weight = 1.0
    for k in range(history.shape[0]):
        card = history[k]
        if pos[S_TURN] != me:
            legal = legal_mask(pos, rules)
            if legal & (legal - 1) and legal >> card & 1:
                expected = _choose(pos, rules, policy, rng)
                if play_class(pos, expected) != play_class(pos, card):
                    weight *= trust
        play_card(pos, rules, card)
    return weight


@jit
def playout_looking_ahead(pos: Array, rules: Array, totals: Array, searchers: int,
                          policy: int, rng: Array, saved: Array, trial: Array,
                          points: Array) -> None:
    """:func:`playout`, except that the next decision with a choice of each seat in the
    mask ``searchers`` is made by trying each legal card (the rest of the round by
    ``policy``) and keeping the best for that seat in this world. The tries go on with
    the randomness the policy's own card would have, so for a lone searcher the result
    is never worse for it than :func:`playout` from the same ``rng``.
    ``saved``, ``trial`` and ``points`` are scratch."""
    pending = searchers
    while True:
        turn = pos[S_TURN]
        if pos[S_HANDS + turn] == 0:
            return
        legal = legal_mask(pos, rules)
        if pending >> turn & 1 and legal & (legal - 1):
            pending &= ~(1 << turn)
            saved[:] = pos
            _choose(pos, rules, policy, rng)
            state = rng[0]
            best_value = -1e300
            best = -1
            while legal:
                card = _lowest_card(legal)
                legal &= legal - 1
                trial[:] = saved
                rng[0] = state
                if not play_card(trial, rules, card):
                    playout(trial, rules, policy, rng)
                round_points(trial, rules, totals, points)
                value = utility(turn, points, totals, rules)
                if value > best_value:
                    best_value = value
                    best = card
            pos[:] = saved
            rng[0] = state
            if play_card(pos, rules, best):
                return
        elif play_card(pos, rules, _choose(pos, rules, policy, rng)):
            return


@jit
def _world_position(position: Array, hands: Array, me: int, players: int, pos: Array) -> None:
    """``position`` in a sampled world, into ``pos``: the other seats hold ``hands``."""
    pos[:] = position
    for seat in range(players):
        if seat != me:
            pos[S_HANDS + seat] = hands[seat]


@jit
def evaluate_cards(position: Array, rules: Array, totals: Array, me: int, candidates: Array,
                   unseen: int, need: Array, voids: Array, fixed: Array,
                   first_world: int, worlds: int, seed: int, policy: int,
                   start: Array, played: Array, history: Array, trust: float,
                   searchers: int, sums: npt.NDArray[np.float64],
                   figures: npt.NDArray[np.float64],
                   weights: npt.NDArray[np.float64]) -> bool:
    """Add to ``sums[i]`` the utility for ``me`` of playing ``candidates[i]`` now, then
    ``policy`` for everyone, in worlds ``first_world .. first_world + worlds - 1``, and
    to ``figures[i]`` what those rounds did (the ``F_*`` counts, see :func:`_add_figures`),
    each world counted with its weight; ``weights`` gets the sum of the weights and of
    their squares (for the effective number of worlds).

    ``position`` holds my hand and an empty mask for every other seat; each world fills
    those from ``unseen`` (see :func:`sample_hands`).
    The next decision of each seat in the mask ``searchers`` (0: none) is searched in
    its world (:func:`playout_looking_ahead`) instead of left to ``policy``.
    With ``trust`` below 1, a world weighs what :func:`world_weight` makes of the round
    so far (``start``, ``played``, ``history``); at 1 every world weighs 1.
    Every world serves every candidate with the same playout randomness (common random
    numbers), so the deal's luck cancels out of their differences. Returns False if the
    facts admit no deal.
    """
    players = rules[R_PLAYERS]
    hands = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    pos = np.empty_like(position)
    rng = np.zeros(1, dtype=np.int64)
    replay_rng = np.zeros(1, dtype=np.int64)
    saved = np.empty_like(position)
    trial = np.empty_like(position)
    infer = trust < 1.0 and history.shape[0] > 0
    for world in range(first_world, first_world + worlds):
        rng[0] = mix_seed(seed, world)
        if not sample_hands(players, me, unseen, need, voids, fixed, rng, hands):
            return False
        weight = 1.0
        if infer:
            # its own stream, so the playouts are those of the unweighted search
            replay_rng[0] = mix_seed(seed ^ 0x5BD1E995, world)
            hands[me] = position[S_HANDS + me]
            weight = world_weight(start, rules, me, hands, played, history, trust, policy,
                                  replay_rng, pos)
        weights[0] += weight
        weights[1] += weight * weight
        playout_state = rng[0]
        for i in range(candidates.shape[0]):
            _world_position(position, hands, me, players, pos)
            rng[0] = playout_state
            if not play_card(pos, rules, candidates[i]):
                if searchers:
                    playout_looking_ahead(pos, rules, totals, searchers, policy, rng, saved,
                                          trial, points)
                else:
                    playout(pos, rules, policy, rng)
            round_points(pos, rules, totals, points)
            sums[i] += weight * utility(me, points, totals, rules)
            _add_figures(pos, rules, totals, me, points, weight, figures[i])
    return True


# ------------------------------------------------------------------ tree search
@jit
def world_moves(pos: Array, rules: Array, out: Array) -> int:
    """The legal cards of the seat to play where every hand is known, one of each run
    that plays alike, into ``out``; returns their count. Two cards of a suit with the same
    points play alike when no card between them is in another hand or in the trick (the
    cards of earlier tricks can no longer tell them apart)."""
    dividers = _others_cards(pos, rules[R_PLAYERS], pos[S_TURN])
    for i in range(pos[S_TRICK_LEN]):
        dividers |= 1 << pos[S_TRICK + i]
    legal = legal_mask(pos, rules)
    count = 0
    last = -1
    while legal:
        card = _lowest_card(legal)
        legal &= legal - 1
        between = ((1 << card) - 1) & ~((2 << last) - 1) if last >= 0 else 0
        if not (last >= 0 and last // 13 == card // 13 and not between & dividers
                and _card_points(1 << last, rules) == _card_points(1 << card, rules)):
            out[count] = card
            count += 1
        last = card
    return count


@jit
def _ucb_child(first: int, last: int, visits: Array, value: npt.NDArray[np.float64],
               seat: int, spread: float) -> int:
    """The first untried node of ``first .. last - 1``, else the one of best UCB1 score
    for ``seat``: its mean utility plus ``spread`` over the root of its visits."""
    chosen = -1
    best = -np.inf
    for child in range(first, last):
        if visits[child] == 0:
            return child
        score = value[child, seat] / visits[child] + spread / np.sqrt(visits[child])
        if score > best:
            best = score
            chosen = child
    return chosen


@jit
def _run_child(first: int, last: int, move: Array, card: int) -> int:
    """The node of ``first .. last - 1`` (moves in card order, one a run) whose run holds
    ``card``: the last one of its suit not above it."""
    chosen = first
    for child in range(first + 1, last):
        if move[child] <= card and move[child] // 13 == card // 13:
            chosen = child
    return chosen


@jit
def evaluate_cards_tree(position: Array, rules: Array, totals: Array, me: int,
                        candidates: Array, unseen: int, need: Array, voids: Array,
                        fixed: Array, first_world: int, worlds: int, seed: int, policy: int,
                        per_candidate: int, explore: float, horizon: int,
                        search_mine: bool, policy_first: bool,
                        sums: npt.NDArray[np.float64],
                        figures: npt.NDArray[np.float64]) -> bool:
    """:func:`evaluate_cards` with a search tree in each world instead of one playout a
    candidate: ``per_candidate`` iterations of UCT for each of ``candidates`` in turn,
    over the rest of the round (or, with ``horizon`` above 0, that many tricks counting
    the current one; ``policy`` plays out the rest). Each node's seat picks among its
    :func:`world_moves` by UCB1 on its own utility (max^n), ``explore`` (in points)
    weighing the visits; my own nodes below the root too if ``search_mine``, else they
    follow ``policy``. A node's untried moves are tried in card order, or the policy's
    first if ``policy_first``. A candidate's utility and ``F_*`` figures in a world are the
    means over its iterations; ``sums`` and ``figures`` get them, one world counting 1.

    Iteration ``j`` of a candidate plays out with the randomness of the world's stream
    when ``j`` is 0 and a stream of its own after, so one iteration a candidate gives
    exactly :func:`evaluate_cards`'s sums (untrusting, no lookahead), and every candidate
    still meets the same randomness. Returns False if the facts admit no deal."""
    players = rules[R_PLAYERS]
    choices = candidates.shape[0]
    iterations = per_candidate * choices
    most = card_count(rules[R_DECK]) // players + 1
    capacity = 1 + choices + iterations * most
    first_child = np.empty(capacity, dtype=np.int64)
    child_count = np.empty(capacity, dtype=np.int64)
    move = np.empty(capacity, dtype=np.int64)
    mover = np.empty(capacity, dtype=np.int64)
    visits = np.empty(capacity, dtype=np.int64)
    value = np.empty((capacity, players), dtype=np.float64)
    path = np.empty(card_count(rules[R_DECK]) + 1, dtype=np.int64)
    moves = np.empty(most, dtype=np.int64)
    values = np.empty(players, dtype=np.float64)
    hands = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    pos = np.empty_like(position)
    rng = np.zeros(1, dtype=np.int64)
    last_trick = position[S_TRICK_NO] + horizon if horizon > 0 else 1 << 30
    share = 1.0 / per_candidate
    for world in range(first_world, first_world + worlds):
        rng[0] = mix_seed(seed, world)
        if not sample_hands(players, me, unseen, need, voids, fixed, rng, hands):
            return False
        playout_state = rng[0]
        # node 0 is the root, never visited: the candidates, its children, take turns
        for i in range(choices):
            node = 1 + i
            move[node] = candidates[i]
            first_child[node] = -1
            visits[node] = 0
            value[node, :] = 0.0
        size = 1 + choices
        for iteration in range(iterations):
            i = iteration % choices
            node = 1 + i
            _world_position(position, hands, me, players, pos)
            rng[0] = playout_state if visits[node] == 0 else mix_seed(playout_state,
                                                                      visits[node])
            path[0] = node
            depth = 1
            over = play_card(pos, rules, move[node])
            # down the tree while its nodes have been tried; a new one is played out
            while not over and visits[node] > 0:
                if first_child[node] < 0:
                    if pos[S_TRICK_NO] >= last_trick:
                        break
                    count = world_moves(pos, rules, moves)
                    first_child[node] = size
                    child_count[node] = count
                    mover[node] = pos[S_TURN]
                    for k in range(count):
                        move[size + k] = moves[k]
                        first_child[size + k] = -1
                        visits[size + k] = 0
                        value[size + k, :] = 0.0
                    size += count
                first, last = first_child[node], first_child[node] + child_count[node]
                if mover[node] == me and not search_mine:
                    # my own later play is the policy's: searched, it would know the
                    # world (strategy fusion)
                    node = _run_child(first, last, move, _choose(pos, rules, policy, rng))
                else:
                    node = _ucb_child(first, last, visits, value, mover[node],
                                      explore * np.sqrt(np.log(visits[node])))
                    if policy_first and visits[node] == 0:
                        # the policy's card is the likeliest good one: tried first
                        known = _run_child(first, last, move,
                                           _choose(pos, rules, policy, rng))
                        if visits[known] == 0:
                            node = known
                path[depth] = node
                depth += 1
                over = play_card(pos, rules, move[node])
            if not over:
                playout(pos, rules, policy, rng)
            round_points(pos, rules, totals, points)
            for seat in range(players):
                values[seat] = utility(seat, points, totals, rules)
            for d in range(depth):
                visits[path[d]] += 1
                value[path[d], :] += values
            sums[i] += share * values[me]
            _add_figures(pos, rules, totals, me, points, share, figures[i])
    return True


# --------------------------------------------------------------- endgame solving
@jit
def _utilities(points: Array, totals: Array, rules: Array,
               out: npt.NDArray[np.float64]) -> None:
    """Every seat's :func:`utility` of ``points`` into ``out``."""
    for s in range(rules[R_PLAYERS]):
        out[s] = utility(s, points, totals, rules)


_CACHE_SLOTS: Final = 1024


@jit
def _cached_utilities(points: Array, totals: Array, rules: Array, keys: Array,
                      cached: npt.NDArray[np.float64], out: npt.NDArray[np.float64]) -> None:
    """:func:`_utilities`, remembered by ``points`` in the direct-mapped table ``keys``
    (-1: empty) and ``cached`` (a row a slot): a solve meets few distinct point splits,
    and the utilities of one do not change within a decision (same totals, same rules)."""
    players = rules[R_PLAYERS]
    key = 0
    for s in range(players):
        key = (key << 8) | (points[s] + 128)
    slot = key % _CACHE_SLOTS
    if keys[slot] != key:
        _utilities(points, totals, rules, cached[slot])
        keys[slot] = key
    for s in range(players):
        out[s] = cached[slot, s]


@jit
def _keep_if_better(states: Array, depth: int, found: Array, best: npt.NDArray[np.float64],
                    best_taken: Array, values: npt.NDArray[np.float64], taken: Array,
                    players: int) -> None:
    """Keep ``values`` (a line's utilities, ``taken`` its cards taken) as the node at
    ``depth``'s best line if its seat to play likes it strictly better than the best so
    far: on a tie the earlier move, the lower card, stays (the fixed tie-break)."""
    seat = states[depth, S_TURN]
    if found[depth] and values[seat] <= best[depth, seat]:
        return
    found[depth] = 1
    for s in range(players):
        best[depth, s] = values[s]
        best_taken[depth, s] = taken[s]


@jit
def _solve(pos: Array, rules: Array, totals: Array, states: Array, moves: Array,
           counts: Array, nexts: Array, found: Array, best: npt.NDArray[np.float64],
           best_taken: Array, points: Array, keys: Array, cached: npt.NDArray[np.float64],
           leaf: npt.NDArray[np.float64], values: npt.NDArray[np.float64],
           taken: Array) -> int:
    """Solve the rest of the round in ``pos`` (every hand known) by max^n: at each turn
    the seat to play takes the card whose solved line ends best for itself by
    :func:`utility` (its points, the moon, its game standing), one card of each run
    that plays alike (:func:`world_moves`), the lowest card on a tie. Writes the solved
    line's utility for every seat into ``values`` and the cards each seat has taken at
    its end into ``taken``; returns the number of cards played in the search. The other
    arrays are preallocated scratch: a row per ply (``states``, ``moves``, ``best`` ...),
    and the utilities' table (:func:`_cached_utilities`), which may be kept from one
    solve to the next with the same totals and rules."""
    players = rules[R_PLAYERS]
    states[0, :] = pos
    if pos[S_HANDS + pos[S_TURN]] == 0:
        round_points(pos, rules, totals, points)
        _utilities(points, totals, rules, values)
        for s in range(players):
            taken[s] = pos[S_TAKEN + s]
        return 0
    depth = 0
    counts[0] = world_moves(states[0], rules, moves[0])
    nexts[0] = 0
    found[0] = 0
    nodes = 0
    while True:
        if nexts[depth] < counts[depth]:
            card = moves[depth, nexts[depth]]
            nexts[depth] += 1
            child = states[depth + 1]
            child[:] = states[depth]
            nodes += 1
            over = play_card(child, rules, card)
            # one card a hand left: the last trick plays itself
            while not over and child[S_HANDS + child[S_TURN]] & (child[S_HANDS + child[S_TURN]]
                                                                 - 1) == 0:
                over = play_card(child, rules, _lowest_card(child[S_HANDS + child[S_TURN]]))
                nodes += 1
            if over:
                round_points(child, rules, totals, points)
                _cached_utilities(points, totals, rules, keys, cached, leaf)
                for s in range(players):
                    taken[s] = child[S_TAKEN + s]
                _keep_if_better(states, depth, found, best, best_taken, leaf, taken,
                                players)
            else:
                depth += 1
                counts[depth] = world_moves(child, rules, moves[depth])
                nexts[depth] = 0
                found[depth] = 0
        elif depth == 0:
            break
        else:
            # this ply is solved: its best line is a candidate of the ply above
            for s in range(players):
                leaf[s] = best[depth, s]
                taken[s] = best_taken[depth, s]
            depth -= 1
            _keep_if_better(states, depth, found, best, best_taken, leaf, taken, players)
    for s in range(players):
        values[s] = best[0, s]
        taken[s] = best_taken[0, s]
    return nodes


@jit
def solve_round(pos: Array, rules: Array, totals: Array, values: npt.NDArray[np.float64],
                taken: Array) -> int:
    """:func:`_solve` with its scratch allocated here (for tests and one-off solves):
    the solved line's utilities into ``values``, its cards taken into ``taken``; returns
    the cards played in the search."""
    players = rules[R_PLAYERS]
    plies = 2
    for s in range(players):
        plies += card_count(pos[S_HANDS + s])
    most = card_count(rules[R_DECK]) // players + 1
    return _solve(pos, rules, totals, np.empty((plies, pos.shape[0]), dtype=np.int64),
                  np.empty((plies, most), dtype=np.int64), np.empty(plies, dtype=np.int64),
                  np.empty(plies, dtype=np.int64), np.empty(plies, dtype=np.int64),
                  np.empty((plies, players), dtype=np.float64),
                  np.empty((plies, players), dtype=np.int64),
                  np.empty(players, dtype=np.int64), np.full(_CACHE_SLOTS, -1, dtype=np.int64),
                  np.empty((_CACHE_SLOTS, players), dtype=np.float64),
                  np.empty(players, dtype=np.float64), values, taken)


@jit
def playout_until(pos: Array, rules: Array, policy: int, rng: Array, cards: int) -> bool:
    """:func:`playout` until the seat to play holds at most ``cards`` cards, so every hand
    does (it has not played to this trick: no hand is bigger); True if the round ended."""
    while True:
        hand = pos[S_HANDS + pos[S_TURN]]
        if hand == 0:
            return True
        if card_count(hand) <= cards:
            return False
        if play_card(pos, rules, _choose(pos, rules, policy, rng)):
            return True


@jit
def evaluate_cards_solved(position: Array, rules: Array, totals: Array, me: int,
                          candidates: Array, unseen: int, need: Array, voids: Array,
                          fixed: Array, first_world: int, worlds: int, seed: int,
                          policy: int, solve: int, sums: npt.NDArray[np.float64],
                          figures: npt.NDArray[np.float64], nodes: Array) -> bool:
    """:func:`evaluate_cards` (every world weighing 1, no lookahead), except that each
    playout stops once every hand holds at most ``solve`` cards and the rest of the round
    is solved exactly in its world (:func:`_solve`); the ``F_*`` figures are those of the
    solved line's end. ``nodes[0]`` gets the cards the solves played, ``nodes[1]``
    the solves. Each candidate meets the world's playout randomness, as in
    :func:`evaluate_cards`. Returns False if the facts admit no deal."""
    players = rules[R_PLAYERS]
    hands = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    pos = np.empty_like(position)
    rng = np.zeros(1, dtype=np.int64)
    plies = card_count(rules[R_DECK]) + 2
    most = card_count(rules[R_DECK]) // players + 1
    states = np.empty((plies, position.shape[0]), dtype=np.int64)
    moves = np.empty((plies, most), dtype=np.int64)
    counts = np.empty(plies, dtype=np.int64)
    nexts = np.empty(plies, dtype=np.int64)
    found = np.empty(plies, dtype=np.int64)
    best = np.empty((plies, players), dtype=np.float64)
    best_taken = np.empty((plies, players), dtype=np.int64)
    keys = np.full(_CACHE_SLOTS, -1, dtype=np.int64)
    cached = np.empty((_CACHE_SLOTS, players), dtype=np.float64)
    leaf = np.empty(players, dtype=np.float64)
    values = np.empty(players, dtype=np.float64)
    taken = np.empty(players, dtype=np.int64)
    for world in range(first_world, first_world + worlds):
        rng[0] = mix_seed(seed, world)
        if not sample_hands(players, me, unseen, need, voids, fixed, rng, hands):
            return False
        playout_state = rng[0]
        for i in range(candidates.shape[0]):
            _world_position(position, hands, me, players, pos)
            rng[0] = playout_state
            if not play_card(pos, rules, candidates[i]) \
                    and not playout_until(pos, rules, policy, rng, solve):
                nodes[0] += _solve(pos, rules, totals, states, moves, counts, nexts, found,
                                   best, best_taken, points, keys, cached, leaf, values, taken)
                nodes[1] += 1
                for seat in range(players):
                    pos[S_TAKEN + seat] = taken[seat]
            round_points(pos, rules, totals, points)
            sums[i] += utility(me, points, totals, rules)
            _add_figures(pos, rules, totals, me, points, 1.0, figures[i])
    return True


# ---------------------------------------------------------------------- passing
@jit
def heuristic_pass(hand: int, count: int, hand_size: int, rng: Array) -> int:
    """The cards a simulated opponent passes: an unguarded Q♠, A♠ and K♠ first, then the
    highest cards, hearts first at equal rank, keeping the low spades that guard."""
    low_spades = hand & _SPADES & (_QUEEN - 1)
    chosen = 0
    if card_count(low_spades) < max(2, (hand_size + 2) // 4):
        for card in (36, 38, 37):
            if hand >> card & 1 and card_count(chosen) < count:
                chosen |= 1 << card
    while card_count(chosen) < count and hand & ~chosen:
        left = hand & ~chosen
        if left & ~low_spades:
            left &= ~low_spades
        for step in range(13):
            tied = left & (_RANK_BITS << (12 - step))
            if tied:
                if tied & _HEARTS:
                    tied &= _HEARTS
                chosen |= 1 << _random_card(tied, rng)
                break
    return chosen


@jit
def evaluate_passes(rules: Array, totals: Array, me: int, offset: int, leader: int,
                    hand: int, candidates: Array, first_world: int, worlds: int, seed: int,
                    policy: int, sums: npt.NDArray[np.float64],
                    figures: npt.NDArray[np.float64]) -> None:
    """Add to ``sums[i]`` the utility for ``me`` of passing ``candidates[i]`` (a mask) to
    the seat ``offset`` to the left, over sampled deals of the other hands in which every
    other seat passes by :func:`heuristic_pass`, then the whole round by ``policy``; and
    to ``figures[i]`` what those rounds did (the ``F_*`` counts).

    ``leader`` leads the first trick unless the rules give the lead to the lowest club.
    """
    players = rules[R_PLAYERS]
    size = card_count(rules[R_DECK]) // players
    count = card_count(candidates[0])
    need = np.full(players, size, dtype=np.int64)
    nothing = np.zeros(players, dtype=np.int64)
    hands = np.zeros(players, dtype=np.int64)
    passes = np.zeros(players, dtype=np.int64)
    points = np.zeros(players, dtype=np.int64)
    pos = np.zeros(S_SIZE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.int64)
    unseen = rules[R_DECK] & ~hand
    for world in range(first_world, first_world + worlds):
        rng[0] = mix_seed(seed, world)
        sample_hands(players, me, unseen, need, nothing, nothing, rng, hands)
        hands[me] = hand
        for seat in range(players):
            if seat != me:
                passes[seat] = heuristic_pass(hands[seat], count, size, rng)
        playout_state = rng[0]
        for i in range(candidates.shape[0]):
            passes[me] = candidates[i]
            pos[:] = 0
            for seat in range(players):
                pos[S_HANDS + seat] |= hands[seat] & ~passes[seat]
                pos[S_HANDS + (seat + offset) % players] |= passes[seat]
            first = leader
            if rules[R_LOWEST_CLUB_LEADS]:
                for seat in range(players):
                    if pos[S_HANDS + seat] >> rules[R_LOWEST_CLUB] & 1:
                        first = seat
            pos[S_LEADER] = first
            pos[S_TURN] = first
            rng[0] = playout_state
            playout(pos, rules, policy, rng)
            round_points(pos, rules, totals, points)
            sums[i] += utility(me, points, totals, rules)
            _add_figures(pos, rules, totals, me, points, 1.0, figures[i])


# ------------------------------------------------------------------ batched games
# The batched simulator (:mod:`hearts.env.batched`) steps many whole games over one
# ``int64`` row a game: a position (the ``S_*`` layout) followed by the ``G_*`` fields.
# Its compiled steps live here, beside the play rules they call, for the reason the
# module docstring gives: a separate file could run stale machine code after an edit
# of this one. Per-card work is here; per-hand decisions (the deal, the first leader,
# scoring, the moon, game end) stay with the core, asked by the caller between steps.
# The observation layout and the reveal table come in as arguments for the same
# reason: constants read from another module would be frozen into the cache.
G_PHASE: Final = S_SIZE  # B_PASS, B_PLAY or B_MOON (the observation's phase order)
G_SELECTED: Final = G_PHASE + 1  # the passing seat's cards picked so far
G_OFFSET: Final = G_SELECTED + 1  # this round's pass offset (0: hold)
G_SHOOTER: Final = G_OFFSET + 1
G_CHOSEN: Final = G_SHOOTER + 1  # per seat: the pass it made this round
G_RECEIVED: Final = G_CHOSEN + MAX_SEATS  # per seat: the pass it received
G_PLAYED: Final = G_RECEIVED + MAX_SEATS  # per seat: the cards it played this round
G_EXCLUDED: Final = G_PLAYED + MAX_SEATS  # per seat: the cards it has shown it lacks
G_TOTALS: Final = G_EXCLUDED + MAX_SEATS
G_SIZE: Final = G_TOTALS + MAX_SEATS

B_PASS: Final = 0
B_PLAY: Final = 1
B_MOON: Final = 2

EVENT_NONE: Final = 0
EVENT_PASSED: Final = 1  # every seat has passed: the caller seats the first leader
EVENT_ROUND_END: Final = 2  # the last trick is taken, or the moon choice made

# Observation layout (``L_*`` index the ``layout`` argument): the section offsets of
# :mod:`hearts.players.observation`, then the two moon-choice actions.
L_HAND: Final = 0
L_PLAYED: Final = 1
L_TRICK: Final = 2
L_POINTS: Final = 3
L_TOTALS: Final = 4
L_VOIDS: Final = 5
L_SEATS: Final = 6
L_LEADER: Final = 7
L_PASSED: Final = 8
L_RECEIVED: Final = 9
L_PASS_TARGET: Final = 10
L_DECK: Final = 11
L_PHASE: Final = 12
L_HEARTS_OPEN: Final = 13
L_BARRED: Final = 14
L_TRICK_NO: Final = 15
L_SELECTED: Final = 16
L_ADD: Final = 17
L_SUBTRACT: Final = 18
L_SIZE: Final = 19


@jit
def batch_step(games: Array, rules: Array, pass_count: int, reveals: Array,
               actions: Array, events: Array) -> None:
    """Apply ``actions[i]`` (assumed legal) for the seat to act in game ``i``; ``events[i]``
    says what the caller must decide next (``EVENT_*``).

    ``reveals[card, led suit + 1, first trick, hearts open]`` is the mask of cards a seat
    shows it lacks by that play (the core's ``play_reveals``, tabled by the caller)."""
    players = rules[R_PLAYERS]
    for i in range(games.shape[0]):
        game = games[i]
        action = actions[i]
        events[i] = EVENT_NONE
        phase = game[G_PHASE]
        seat = game[S_TURN]
        if phase == B_PASS:
            game[G_SELECTED] |= 1 << action
            if card_count(game[G_SELECTED]) < pass_count:
                continue
            game[G_CHOSEN + seat] = game[G_SELECTED]
            game[G_SELECTED] = 0
            if seat + 1 < players:
                game[S_TURN] = seat + 1
                continue
            for giver in range(players):
                game[G_RECEIVED + (giver + game[G_OFFSET]) % players] = game[G_CHOSEN + giver]
            for s in range(players):
                game[S_HANDS + s] = (game[S_HANDS + s] & ~game[G_CHOSEN + s]) \
                    | game[G_RECEIVED + s]
            events[i] = EVENT_PASSED
        elif phase == B_PLAY:
            led = game[S_TRICK] // 13 + 1 if game[S_TRICK_LEN] > 0 else 0
            first = 1 if game[S_TRICK_NO] == 0 else 0
            opened = 1 if hearts_open(game, rules) else 0
            game[G_EXCLUDED + seat] |= reveals[action, led, first, opened]
            game[G_PLAYED + seat] |= 1 << action
            if play_card(game, rules, action):
                events[i] = EVENT_ROUND_END
        else:
            events[i] = EVENT_ROUND_END


@jit
def _put_cards(row: npt.NDArray[np.float32], start: int, mask: int) -> None:
    """Set ``row[start + card]`` to 1 for each card of ``mask``."""
    for suit in range(4):
        chunk = (mask >> (13 * suit)) & _SUIT
        while chunk:
            row[start + 13 * suit + _LOW13[chunk]] = 1.0
            chunk &= chunk - 1


@jit
def batch_observe(games: Array, rules: Array, pass_count: int, layout: Array,
                  points_scale: float, obs: npt.NDArray[np.float32],
                  mask: npt.NDArray[np.int8], to_act: Array) -> None:
    """Each game's observation and action mask for its seat to act (the encoding of
    :func:`hearts.players.observation.observe`, section offsets from ``layout``)."""
    players = rules[R_PLAYERS]
    deck = rules[R_DECK]
    hand_size = card_count(deck) // players
    for i in range(games.shape[0]):
        game = games[i]
        row = obs[i]
        row[:] = 0.0
        mask[i, :] = 0
        me = game[S_TURN]
        to_act[i] = me
        phase = game[G_PHASE]
        _put_cards(row, layout[L_HAND], game[S_HANDS + me])
        for seat in range(players):
            r = (seat - me) % players
            _put_cards(row, layout[L_PLAYED] + 52 * r, game[G_PLAYED + seat])
            row[layout[L_POINTS] + r] = _card_points(game[S_TAKEN + seat], rules) / points_scale
            row[layout[L_TOTALS] + r] = game[G_TOTALS + seat] / rules[R_TARGET]
            for suit in range(4):
                cards = deck & (_SUIT << (13 * suit))
                if cards and not cards & ~game[G_EXCLUDED + seat]:
                    row[layout[L_VOIDS] + 4 * r + suit] = 1.0
            row[layout[L_SEATS] + r] = 1.0
        leader = game[S_LEADER]
        for k in range(game[S_TRICK_LEN]):
            r = (leader + k - me) % players
            row[layout[L_TRICK] + 52 * r + game[S_TRICK + k]] = 1.0
        if game[S_TRICK_LEN] > 0:
            row[layout[L_LEADER] + (leader - me) % players] = 1.0
        _put_cards(row, layout[L_PASSED], game[G_CHOSEN + me])
        _put_cards(row, layout[L_RECEIVED], game[G_RECEIVED + me])
        if game[G_OFFSET] and pass_count:
            row[layout[L_PASS_TARGET] + game[G_OFFSET] % players] = 1.0
        _put_cards(row, layout[L_DECK], deck)
        row[layout[L_PHASE] + phase] = 1.0
        if hearts_open(game, rules):
            row[layout[L_HEARTS_OPEN]] = 1.0
        if game[S_TRICK_NO] == 0 and rules[R_NO_POINTS_FIRST]:
            row[layout[L_BARRED]] = 1.0
        row[layout[L_TRICK_NO]] = game[S_TRICK_NO] / hand_size
        _put_cards(row, layout[L_SELECTED], game[G_SELECTED])
        if phase == B_PASS:
            allowed = game[S_HANDS + me] & ~game[G_SELECTED]
        elif phase == B_PLAY:
            allowed = legal_mask(game, rules)
        else:
            allowed = 0
            mask[i, layout[L_ADD]] = 1
            mask[i, layout[L_SUBTRACT]] = 1
        for suit in range(4):
            chunk = (allowed >> (13 * suit)) & _SUIT
            while chunk:
                mask[i, 13 * suit + _LOW13[chunk]] = 1
                chunk &= chunk - 1


@jit
def batch_random_actions(mask: npt.NDArray[np.int8], rng: Array, actions: Array) -> None:
    """A uniformly random allowed action of each row of ``mask`` into ``actions``."""
    width = mask.shape[1]
    for i in range(mask.shape[0]):
        allowed = 0
        for a in range(width):
            allowed += mask[i, a]
        pick = random_below(rng, allowed)
        for a in range(width):
            if mask[i, a]:
                if pick == 0:
                    actions[i] = a
                    break
                pick -= 1


@jit
def batch_refused(mask: npt.NDArray[np.int8], actions: Array) -> int:
    """The first game whose action its mask does not allow (out of range included), or -1."""
    width = mask.shape[1]
    for i in range(mask.shape[0]):
        action = actions[i]
        if action < 0 or action >= width or not mask[i, action]:
            return i
    return -1
