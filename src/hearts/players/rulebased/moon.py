"""Shooting the moon: judging a hand's control, spotting another seat's attempt, and the
shooter's choice by the game standing (:mod:`hearts.players.standing`).

The ``aggressive`` variants (the ``shooter`` level) go for the moon whenever it is
plausible, so that the other levels' defence can be measured against frequent attempts.
"""

from __future__ import annotations

from typing import Final

from hearts.core import (
    HEART_MASK,
    HEARTS,
    POINT_MASK,
    SUIT_MASKS,
    MoonChoice,
    PlayerView,
    cards_above,
    fixed_moon_choice,
    game_over,
    game_winners,
    highest_card,
    round_points,
)
from hearts.players.errors import PlayerError
from hearts.players.knowledge import Knowledge
from hearts.players.standing import win_chances

__all__ = ["attempting_moon", "choose_moon", "moon_losers", "moon_suspect", "moon_totals",
           "strong_moon_hand", "win_chance"]

# My chance of winning the game below which a long shot is worth it: one more loser allowed.
_DESPERATE: Final = 0.1


def moon_losers(k: Knowledge, hand: int | None = None) -> tuple[int, int]:
    """(heart losers, other losers): cards of ``hand`` that may lose a trick, suit by suit.

    My top cards (no higher card out) win. The rest win only once the other seats
    have run out of the suit, which cashing my top cards forces when they hold no
    more cards of it than I have top cards; otherwise each of them may lose, up to
    the number of cards out beyond my top cards.
    """
    mask = k.hand if hand is None else hand
    heart_losers = other_losers = 0
    for suit, suit_mask in enumerate(SUIT_MASKS):
        mine = mask & suit_mask
        held = mine.bit_count()
        out_mask = k.out & suit_mask
        out = out_mask.bit_count()
        # my top cards: those above the highest card out
        tops = (mine & cards_above(highest_card(out_mask))).bit_count() if out_mask else held
        losers = 0 if tops >= out else min(held - tops, out - tops)
        if suit == HEARTS:
            heart_losers = losers
        else:
            other_losers += losers
    return heart_losers, other_losers


# a moon hand holds at least six hearts in every thirteen cards (a suit's length)
_MOON_HEART_SHARE: Final = 6 / HEART_MASK.bit_count()


def win_chance(k: Knowledge, totals: list[int] | tuple[int, ...] | None = None) -> float:
    """My chance of winning the game from ``totals`` (default: the totals if the round
    ended now), by the shared game-standing model."""
    after = k.projected_totals if totals is None else totals
    view = k.view
    return win_chances(after, view.rules.target, view.rules.rounds_left(view.round_no))[k.seat]


def _moon_pays(k: Knowledge) -> bool:
    """Whether a moon under a fixed rule would not end the game with me losing."""
    rules = k.view.rules
    if fixed_moon_choice(rules) is not MoonChoice.ADD:
        return True
    totals = moon_totals(k.view, MoonChoice.ADD)
    played = k.view.round_no
    return not game_over(totals, rules, played) or k.seat in game_winners(totals, rules, played)


def strong_moon_hand(k: Knowledge, aggressive: bool = False) -> bool:
    """Before passing: a hand that can shoot once its ``pass_count`` worst losers are
    passed (aggressive: with fewer hearts and two more losers)."""
    hearts = k.hand & HEART_MASK
    heart_losers, other_losers = moon_losers(k)
    size = k.view.rules.hand_size
    share = _MOON_HEART_SHARE * (2 / 3 if aggressive else 1)
    extra = 2 if aggressive else 0
    return (
        _moon_pays(k)
        and hearts.bit_count() >= share * size
        and heart_losers <= 1 + extra // 2
        and heart_losers + other_losers <= k.view.rules.pass_count + 1 + extra
    )


def attempting_moon(k: Knowledge, aggressive: bool = False) -> bool:
    """During play: whether to go for every point card from here on.

    Only while nobody else has taken a point card, with no heart another seat can
    beat, and few side-suit losers (none late in the round, one more when my chance
    of winning the game is so small that it needs the swing). Aggressive: one heart
    loser and two more side losers are allowed.
    """
    view = k.view
    if k.others_took_points or not _moon_pays(k):
        return False
    winning = k.winning
    if (k.trick_mask & POINT_MASK and winning is not None and winning[0] != k.seat
            and not view.legal.mask & cards_above(winning[1])):
        return False
    heart_losers, other_losers = moon_losers(k)
    if heart_losers > (1 if aggressive else 0):
        return False
    allowed = 1 if view.trick_no * 2 < view.rules.hand_size else 0
    if k.behind_by > 0 and win_chance(k) < _DESPERATE:
        allowed += 1
    if aggressive:
        allowed += 2
    mine = k.point_cards_taken[k.seat] | (k.hand & POINT_MASK)
    hearts_held = (k.hand & HEART_MASK).bit_count()
    return other_losers <= allowed and (bool(mine & ~k.hand)
                                        or hearts_held >= (3 if aggressive else 5))


def moon_suspect(k: Knowledge) -> int | None:
    """Another seat that has taken every point card so far (any at all): points I can
    give another seat at no cost to me should go elsewhere than to it."""
    seat = k.sole_point_taker
    return None if seat is None or seat == k.seat else seat


def moon_totals(view: PlayerView, choice: MoonChoice) -> list[int]:
    """Game totals after the shooter (this view's seat) makes ``choice``."""
    taken = Knowledge.of(view).cards_taken
    points = round_points(taken, view.rules, view.seat, choice)
    return [total + gained for total, gained in zip(view.totals, points, strict=True)]


def choose_moon(view: PlayerView) -> MoonChoice:
    """The better moon choice for the shooter by the game standing.

    The choice that leaves me the better chance of winning the game; when both are
    as good, add to the others when I lead (it hastens the end) and subtract from
    myself when I trail (it keeps the game going).
    """
    seat = view.seat
    if seat is None:
        raise PlayerError("the moon choice needs the shooter's view")

    def outcome(choice: MoonChoice) -> tuple[float, int]:
        totals = moon_totals(view, choice)
        chance = win_chances(totals, view.rules.target,
                             view.rules.rounds_left(view.round_no))[seat]
        leading = totals[seat] <= min(t for s, t in enumerate(totals) if s != seat)
        prefer_add = leading == (choice is MoonChoice.ADD)
        return round(chance, 9), int(prefer_add)

    return max((MoonChoice.SUBTRACT, MoonChoice.ADD), key=outcome)
