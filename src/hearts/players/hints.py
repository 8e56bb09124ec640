"""Hints: the strongest level's move for a seat, with a one-line reason a person understands.

``hint(view)`` asks the ``expert`` level when it exists (else ``normal``) for the
decision the view waits on, then explains that action by analysing it against the
view, so the reason fits whatever player chose it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.core import (
    HEARTS,
    POINT_MASK,
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    Action,
    Card,
    CardSet,
    ChooseMoon,
    MoonChoice,
    PassCards,
    Play,
    PlayerView,
    cards_below,
    game_over,
    game_winners,
    moon_points,
)
from hearts.players.base import Player, decide
from hearts.players.knowledge import Knowledge
from hearts.players.levels import LEVELS, make_player
from hearts.players.rulebased.moon import attempting_moon, moon_totals, strong_moon_hand
from hearts.players.rulebased.passing import queen_guards_needed

__all__ = ["Hint", "explain", "hint", "hint_level"]

_HIGH_SPADES = (Card("AS"), Card("KS"))


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, in one line."""

    action: Action
    reason: str


def hint_level() -> str:
    """The level whose moves hints suggest: the strongest one available."""
    return "expert" if "expert" in LEVELS else "normal"


def hint(view: PlayerView, player: Player | None = None) -> Hint:
    """What ``player`` (default: the strongest level) would do now, and why."""
    chosen = player if player is not None else make_player(hint_level(), seed=0)
    action = decide(chosen, view)
    return Hint(action, explain(view, action))


def explain(view: PlayerView, action: Action) -> str:
    """A one-line reason for ``action`` in the position ``view`` shows."""
    if isinstance(action, PassCards):
        return _explain_pass(Knowledge.of(view), action.cards)
    if isinstance(action, Play):
        return _explain_play(Knowledge.of(view), action.card)
    if isinstance(action, ChooseMoon):
        return _explain_moon(view, action.choice)
    raise ValueError(f"no hint for {action!r}")


def _seat(seat: int) -> str:
    return f"seat {seat}"


def _one(suit: int) -> str:
    """A suit's name in the singular: club, diamond, spade, heart."""
    return SUIT_NAMES[suit][:-1]


# ----------------------------------------------------------------- passing
def _explain_pass(k: Knowledge, cards: CardSet) -> str:
    names = " ".join(c.pretty for c in sorted(cards, key=lambda c: (-c.rank, c.suit)))
    reasons = [r for r in (_pass_reason(k, cards, c) for c in cards) if r]
    unique = list(dict.fromkeys(reasons))
    if not unique:
        unique = ["they are your highest cards and most likely to win tricks"]
    return f"Pass {names}: " + "; ".join(unique[:2])


def _pass_reason(k: Knowledge, cards: CardSet, card: Card) -> str | None:
    guards = (k.hand & cards_below(QUEEN_OF_SPADES)).bit_count()
    enough = guards >= queen_guards_needed(k.view.rules.hand_size)
    if strong_moon_hand(k) and card.rank < 6:
        return "keep your high cards and go for the moon"
    if card == QUEEN_OF_SPADES:
        return ("the Q♠ has too few low spades to hide behind" if not enough
                else "the Q♠ is safer in another hand")
    if card in _HIGH_SPADES and not enough:
        if k.queen_mine and QUEEN_OF_SPADES not in cards:
            return f"the {card.pretty} could be forced to win your own Q♠"
        return f"the {card.pretty} would catch the Q♠"
    suit_cards = k.hand & SUIT_MASKS[card.suit]
    if suit_cards & ~cards.mask == 0 and card.suit not in (SPADES, HEARTS):
        return f"that leaves you void in {SUIT_NAMES[card.suit]}, ready to discard points"
    if card.suit == HEARTS and card.rank >= 9:
        return f"the {card.pretty} would win tricks full of hearts"
    return None


# ----------------------------------------------------------------- playing
def _explain_play(k: Knowledge, card: Card) -> str:
    view = k.view
    legal = view.legal.mask
    if legal == 1 << card:
        return view.forced_reason(card)
    if attempting_moon(k):
        return f"You can take every point card: play the {card.pretty} and keep control"
    if k.led_suit is None:
        return _explain_lead(k, card)
    if card.suit == k.led_suit:
        return _explain_follow(k, card)
    return _explain_discard(k, card)


def _explain_lead(k: Knowledge, card: Card) -> str:
    threat = k.moon_threat
    if threat is not None and card.suit == HEARTS and k.is_top(card):
        return (f"{_seat(threat).capitalize()} is shooting the moon: lead the {card.pretty}, "
                "the top heart, to take a heart")
    if card.suit == SPADES and card < QUEEN_OF_SPADES and k.queen_danger:
        return "Lead a low spade to flush out the Q♠"
    higher = k.out_above(card).bit_count()
    mine = (k.hand & SUIT_MASKS[card.suit]).bit_count()
    if not higher and k.out & SUIT_MASKS[card.suit]:
        return (f"Lead the {card.pretty}, the top {_one(card.suit)}: a safe trick "
                "while everyone still follows")
    if mine == 1 and card.suit != HEARTS:
        return f"Lead your last {_one(card.suit)} to make a void for discarding"
    low = "low " if card.rank < 7 else ""
    return f"Lead the {low}{card.pretty}: {higher} higher {SUIT_NAMES[card.suit]} are still out"


def _explain_follow(k: Knowledge, card: Card) -> str:
    assert k.winning is not None
    win_seat, win_card = k.winning
    threat = k.moon_threat
    if card < win_card:
        if card == QUEEN_OF_SPADES:
            return f"Drop the Q♠ under the {win_card.pretty}: {_seat(win_seat)} takes it"
        return f"Play under the {win_card.pretty} to avoid taking the trick"
    if threat is not None:
        return f"{_seat(threat).capitalize()} is shooting the moon: take this trick to stop it"
    legal = k.view.legal.mask
    top = card == max(k.cards(legal & ~QUEEN_MASK) or [card])
    if k.view.points_barred and not k.trick_mask & POINT_MASK and top:
        return (f"Points may fall on the first trick only from a hand holding nothing else: "
                f"shed your high {card.pretty}")
    if k.last_to_play:
        if k.trick_points <= 0:
            return f"The trick has no points: win it with the {card.pretty} to shed a high card"
        return f"Take the trick with the {card.pretty}"
    cannot = f"You cannot play under the {win_card.pretty}"
    if not legal & cards_below(win_card):
        if not legal & cards_below(card):
            return f"{cannot}: play your lowest, the {card.pretty}, so a later card may beat it"
        return f"{cannot}: shed a high card, the {card.pretty}"
    if top:
        return f"Shed your high {card.pretty} while nobody can dump points on it"
    return f"Play the {card.pretty}: a later player is likely to beat it"


def _explain_discard(k: Knowledge, card: Card) -> str:
    assert k.led_suit is not None and k.winning is not None
    void = f"You are void in {SUIT_NAMES[k.led_suit]}"
    win_seat = k.winning[0]
    threat = k.moon_threat
    is_points = bool((1 << card) & POINT_MASK)
    if threat is not None:
        if is_points and win_seat != threat:
            return f"{void}: give {_seat(win_seat)} the {card.pretty} to stop the moon shot"
        if not is_points:
            return f"{void}: keep your points away from {_seat(threat)}'s moon shot"
    if card == QUEEN_OF_SPADES:
        return f"{void}: dump the Q♠"
    if is_points:
        return f"{void}: dump the {card.pretty}"
    if k.view.legal.mask & QUEEN_MASK and k.queen_loses_game(win_seat):
        return (f"{void}: keep the Q♠, because on {_seat(win_seat)} it would end the game "
                "with you behind")
    if card in _HIGH_SPADES and k.queen_danger:
        return f"{void}: shed the {card.pretty} before it catches the Q♠"
    if (k.hand & SUIT_MASKS[card.suit]).bit_count() == 1:
        return f"{void}: the {card.pretty} makes you void in {SUIT_NAMES[card.suit]} too"
    return f"{void}: get rid of the high {card.pretty}"


# -------------------------------------------------------------------- moon
def _explain_moon(view: PlayerView, choice: MoonChoice) -> str:
    seat = view.seat
    assert seat is not None
    value = moon_points(view.rules)
    totals = moon_totals(view, choice)
    what = (f"Subtract {value} from your score" if choice is MoonChoice.SUBTRACT
            else f"Add {value} to every other player")
    if game_over(totals, view.rules):
        return f"{what}: that ends the game " + (
            "with you winning" if seat in game_winners(totals, view.rules)
            else "although you are not ahead")
    if choice is MoonChoice.ADD:
        return f"{what}: you stay ahead and the game moves toward its end"
    return f"{what}: the game goes on and you catch up"
