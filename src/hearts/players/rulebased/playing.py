"""Choosing the card to play: lead safely, duck, dump points, stop or run a moon shot.

Every choice is one of ``view.legal``: the core decides what the rules allow, and
these heuristics only pick well among it (for example they dump points on trick one
only where the preset lets a void player do so).
"""

from __future__ import annotations

from hearts.core import (
    HEARTS,
    JACK_OF_DIAMONDS,
    POINT_MASK,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    Card,
    cards_above,
    cards_below,
    highest_card,
    lowest_card,
)
from hearts.players.knowledge import Knowledge
from hearts.players.rulebased.moon import attempting_moon, moon_suspect

__all__ = ["choose_play", "discard_priority", "lead_risk"]

_HIGH_SPADES = cards_above(QUEEN_OF_SPADES)  # the A♠ and K♠, which catch the Q♠


def choose_play(k: Knowledge, aggressive: bool = False) -> Card:
    """The card to play now, from ``k.view.legal`` (``aggressive``: shoot the moon
    whenever it is plausible)."""
    legal = k.view.legal.mask
    if legal.bit_count() == 1:
        return lowest_card(legal)
    if attempting_moon(k, aggressive):
        return _shoot(k, legal)
    if k.led_suit is None:
        return _lead(k, legal)
    if legal & SUIT_MASKS[k.led_suit]:
        return _follow(k, legal)
    return max(k.cards(legal), key=lambda c: discard_priority(k, c))


# ------------------------------------------------------------------ leading
def lead_risk(k: Knowledge, card: Card) -> float:
    """Expected points of leading ``card``, plus small preferences (lower is better).

    The chance of winning is estimated from the cards of the suit still out, above
    and below, over the seats that may still follow; the cost counts my own card, the
    hearts followers must add, the Q♠ falling under a high spade, and what seats
    known void could dump.
    """
    suit = card.suit
    opponents = k.players - 1
    followers = k.followers[suit]
    higher = k.out_above(card).bit_count()
    lower = k.out_below(card).bit_count()
    p_win = 1.0 if not followers or not higher else (lower / (lower + higher)) ** len(followers)
    cost = float(k.points_of(1 << card))
    if suit == HEARTS:
        cost += min(len(followers), k.hearts_out.bit_count())
    if suit == SPADES and k.queen_danger and card > QUEEN_OF_SPADES:
        cost += k.queen_points
    voiders = opponents - len(followers)
    cost += voiders * (k.queen_points if k.queen_danger else min(3, k.hearts_out.bit_count()))
    risk = p_win * cost
    if suit == SPADES and card < QUEEN_OF_SPADES:
        # low spades flush the Q♠ out of another hand, but thin the guard of my own
        # Q♠, A♠ or K♠ (which must then win a spade trick the Q♠ may fall on)
        if k.queen_mine or (k.queen_danger and k.hand & _HIGH_SPADES):
            risk += 1.0
        elif k.queen_danger:
            risk -= 1.5
    if suit != HEARTS and (k.hand & SUIT_MASKS[suit]).bit_count() <= 2:
        # heading for a void, most urgent with a spade liability to discard
        risk -= 1.0 if k.hand & (QUEEN_MASK | _HIGH_SPADES) and k.queen_in_play else 0.3
    return risk + card.rank * 0.01


def _lead(k: Knowledge, legal: int) -> Card:
    threat = k.moon_threat
    if threat is not None:
        top_hearts = [c for c in k.cards(legal & SUIT_MASKS[HEARTS]) if k.is_top(c)]
        if top_hearts:
            return top_hearts[-1]
    return min(k.cards(legal), key=lambda c: lead_risk(k, c))


# ---------------------------------------------------------------- following
def _follow(k: Knowledge, legal: int) -> Card:
    assert k.winning is not None and k.led_suit is not None
    win_seat, win_card = k.winning
    led = k.led_suit
    points = k.trick_points
    below = legal & cards_below(win_card)
    above = legal & cards_above(win_card)
    threat = k.moon_threat
    if (threat is not None and above and (k.trick_mask & POINT_MASK or led == HEARTS)
            and (win_seat == threat or threat in k.still_to_play)):
        return _take(k, above)
    if k.view.points_barred and not k.trick_mask & POINT_MASK:
        # only a hand of nothing but points may discard them on this trick: a nearly
        # free chance to shed a high card
        return highest_card(legal & ~QUEEN_MASK or legal)
    keep_stoppers = _feeds_suspect(k, win_seat)
    if k.last_to_play and points <= 0:
        if keep_stoppers and above & ~POINT_MASK:
            # take the lead from the runner as cheaply as wins, keeping higher cards
            return lowest_card(above & ~POINT_MASK)
        return highest_card(legal & ~POINT_MASK or below or legal)
    if below:
        if keep_stoppers and below & ~QUEEN_MASK:
            # the runner takes this trick whatever I play: keep my high cards to beat it later
            return lowest_card(below & ~QUEEN_MASK)
        return _duck(k, below, win_seat)
    if k.last_to_play:
        return highest_card(legal & ~QUEEN_MASK or legal)
    risky = (points > 0 or led == HEARTS or (led == SPADES and not k.queen_played)
             or _dump_risk(k, led) or k.queen_danger)
    if risky:
        return lowest_card(above & ~QUEEN_MASK or above)
    return highest_card(above & ~QUEEN_MASK or above)


def _dump_risk(k: Knowledge, suit: int) -> bool:
    """Whether a seat still to play may be void in ``suit`` with points to dump on me."""
    if not (k.out & POINT_MASK):
        return False
    later = k.still_to_play
    short = (k.out & SUIT_MASKS[suit]).bit_count() < len(later)
    return short or any(suit in k.voids[s] for s in later)


def _take(k: Knowledge, above: int) -> Card:
    """Win the trick: with the lowest winner when last, else the highest, keeping the Q♠."""
    safe = above & ~QUEEN_MASK or above
    return lowest_card(safe) if k.last_to_play else highest_card(safe)


def _duck(k: Knowledge, below: int, win_seat: int) -> Card:
    """The highest card under the winner, but not my heart stopper while a moon is open;
    the Q♠ only if that gift does not lose me the game."""
    card = highest_card(below)
    if card == k.heart_stopper and k.moon_open and below & ~(1 << card):
        card = highest_card(below & ~(1 << card))
    gift_loses = card == QUEEN_OF_SPADES and k.queen_loses_game(win_seat)
    if gift_loses and below & ~QUEEN_MASK:
        return highest_card(below & ~QUEEN_MASK)
    return card


# --------------------------------------------------------------- discarding
def discard_priority(k: Knowledge, card: Card) -> float:
    """How much I want to discard ``card`` when void in the suit led (higher: sooner)."""
    assert k.winning is not None
    win_seat = k.winning[0]
    is_points = bool((1 << card) & POINT_MASK)
    if card == QUEEN_OF_SPADES:
        value = 1000.0
    elif (1 << card) & _HIGH_SPADES and k.queen_danger:
        value = 500.0 + card.rank
    elif card.suit == HEARTS:
        value = 60.0 + 4 * card.rank
    elif card == JACK_OF_DIAMONDS and k.view.rules.jack_of_diamonds:
        value = -50.0
    else:
        short = (k.hand & SUIT_MASKS[card.suit]).bit_count() <= 2
        value = 8.0 * card.rank + (12 if short else 0)
        if _feeds_suspect(k, win_seat):
            # a high card may win a trick that stops the moon later: shed low ones now
            value = -8.0 * card.rank
    if not is_points:
        return value
    threat = moon_suspect(k)
    if threat is not None and win_seat != threat and threat not in k.still_to_play:
        return value + 3000  # points on another seat end the shot
    # on the runner's own trick a point card costs nothing more (a moon is all or nothing),
    # and the side cards kept instead may win the trick that stops it
    if card == k.heart_stopper and k.moon_open:
        # while anyone may still run, it is my chance to win a heart trick from them
        value = -200.0 + card.rank
    if win_seat == k.game_leader and k.behind_by > 0:
        value += 30  # points on the game leader help me most
    ending = k.ends_game(win_seat, k.trick_points + k.points_of(1 << card))
    if ending is not None:
        value += 2000 if ending else -2000
    return value


def _feeds_suspect(k: Knowledge, win_seat: int) -> bool:
    """Whether a seat that has taken every point card so far takes this trick (it wins
    it now, or plays to it after me)."""
    suspect = moon_suspect(k)
    return suspect is not None and (win_seat == suspect or suspect in k.still_to_play)


# ------------------------------------------------------------- moon attempt
def _shoot(k: Knowledge, legal: int) -> Card:
    """Play for every point card: cash sure winners, win every trick I can."""
    if k.led_suit is None:
        tops = [c for c in k.cards(legal) if k.is_top(c)]
        if tops:
            return max(tops, key=lambda c: (c.suit == HEARTS, c.rank))
        longest = max(range(4), key=lambda s: ((legal & SUIT_MASKS[s]).bit_count(), s))
        return highest_card(legal & SUIT_MASKS[longest])
    assert k.winning is not None
    if legal & SUIT_MASKS[k.led_suit]:
        above = legal & cards_above(k.winning[1])
        if above:
            return lowest_card(above) if k.last_to_play else highest_card(above)
        return lowest_card(legal)
    keep_points = legal & ~POINT_MASK or legal
    return min(k.cards(keep_points), key=lambda c: (c.rank, c.suit))
