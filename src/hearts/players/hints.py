"""Hints: the strongest level's move for a seat, with a one-line reason a person understands.

``hint(view)`` asks the ``expert`` level when it exists (else ``normal``) for the
decision the view waits on. A search level's hint comes from its own figures: the
same sampled deals that chose the move give, for every candidate, the expected points
and the chances that matter (taking the Q♠, a moon by me or against me, losing the game
when this hand can end it), and the reason says how the chosen action differs from the
next best ("Playing the 9♠ takes the Q♠ in 4% of the deals I tried; the K♠ in 31%.");
the hint's ``details`` line gives the figures of the best few candidates. Any other
player's action (and a search level's forced or moon decision) is explained by
analysing it against the view, so the reason fits whatever player chose it; a reason
that names a plan (a moon, keeping control) is given only when the action carries it
out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

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
    Phase,
    Play,
    PlayerView,
    Rules,
    card_points,
    cards_above,
    cards_below,
    game_over,
    game_winners,
    moon_points,
)
from hearts.players.base import Player, decide
from hearts.players.errors import PlayerError
from hearts.players.knowledge import Knowledge
from hearts.players.levels import LEVELS, make_player
from hearts.players.rulebased.moon import attempting_moon, moon_totals, strong_moon_hand
from hearts.players.rulebased.passing import queen_guards_needed

if TYPE_CHECKING:
    from hearts.players.search.player import CandidateFigures

__all__ = ["CHANCES", "Hint", "Searching", "chance_percent", "explain", "hint", "hint_level",
           "search_hint", "shown_chances"]

_HIGH_SPADES = (Card("AS"), Card("KS"))
# Ranks below this (the 2 to the 7) are the low cards a moon hand passes.
_LOW_RANKS: Final = 6
# Candidates the figures line shows: the chosen one and the next best.
_SHOWN: Final = 3


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, in one line; from a search level, also the search's
    figures for every candidate it weighed (the chosen action's first, then best first),
    the chances worth a column when they are shown (:func:`shown_chances`) and
    ``details``, those of the best few in one line (see :func:`figures_line`)."""

    action: Action
    reason: str
    figures: tuple[CandidateFigures, ...] = ()
    details: str = ""
    chances: tuple[str, ...] = ()


@runtime_checkable
class Searching(Protocol):
    """A player that can show the figures its choice comes from (the search levels)."""

    def card_figures(self, view: PlayerView, cards: list[Card]) -> list[CandidateFigures]:
        """Figures for playing each of ``cards`` now."""
        ...

    def pass_figures(self, view: PlayerView, extra: CardSet | None = None
                     ) -> list[CandidateFigures]:
        """Figures for each candidate pass (and ``extra``)."""
        ...


def hint_level() -> str:
    """The level whose moves hints suggest: the strongest one available."""
    return "expert" if "expert" in LEVELS else "normal"


def hint(view: PlayerView, player: Player | None = None) -> Hint:
    """What ``player`` (default: the strongest level) would do now, and why."""
    chosen = player if player is not None else make_player(hint_level(), seed=0)
    if isinstance(chosen, Searching):
        found = search_hint(view, chosen)
        if found is not None:
            return found
    action = decide(chosen, view)
    return Hint(action, explain(view, action))


def search_hint(view: PlayerView, player: Searching) -> Hint | None:
    """The search's own choice among the candidates it weighs, with the figures it chose
    by and a reason drawn from them; None when there is nothing to weigh (a forced card,
    a lone pass, the moon choice)."""
    seat = view.seat
    if seat is None or not view.my_turn:
        raise PlayerError("a hint needs the view of a seat that must act now")
    if view.phase is Phase.PASS:
        figures = player.pass_figures(view)
    elif view.phase is Phase.PLAY:
        from hearts.players.search.player import alike_runs  # loaded with the player

        runs = alike_runs(view)
        cards = list(runs)
        figures = [replace(f, alike=runs[card]) for card, f in
                   zip(cards, player.card_figures(view, cards), strict=True)
                   ] if len(cards) > 1 else []
    else:
        return None
    if len(figures) < 2:
        return None
    best = max(figures, key=lambda f: f.utility)  # the first best, as the search picks
    ranked = (best, *sorted((f for f in figures if f is not best),
                            key=lambda f: f.utility, reverse=True))
    action: Action = (Play(seat, next(iter(best.cards)))
                      if view.phase is Phase.PLAY else PassCards(seat, best.cards))
    return Hint(action, figures_reason(ranked[0], ranked[1], view.rules), ranked,
                figures_line(ranked[:_SHOWN]), shown_chances(ranked))


# ------------------------------------------------------------ search figures
def _names(cards: CardSet) -> str:
    """The cards in the hand's order, as every face names a move."""
    return " ".join(c.pretty for c in cards)


def chance_percent(chance: float) -> int:
    """A chance as the whole percent every face shows, halves rounded up: the one rounding
    behind the hint's words, the terminal's and the web table's columns, the figures a
    face is sent, and which chances are shown (:func:`shown_chances`)."""
    # to nine places first: 0.285 is 28.499999999999996 percent in floating point
    return math.floor(round(100 * chance, 9) + 0.5)


def _percent(chance: float) -> str:
    return f"{chance_percent(chance)}%"


def _mean_points(points: float) -> str:
    return f"{points:.1f}"


@dataclass(frozen=True, slots=True)
class _Factor:
    """One figure a reason may rest on: how to read it, which way is better, its worth in
    points when comparing factors, and the words for it."""

    value: Callable[[CandidateFigures], float]
    shown: Callable[[float], str]
    higher_is_better: bool
    worth: Callable[[Rules], float]
    verb: str
    other: str = "in {}"


def _moon_worth(rules: Rules) -> float:
    return float(moon_points(rules))


def _game_worth(rules: Rules) -> float:
    """A lost game weighs more than any one hand's points: twice a moon."""
    return 2.0 * moon_points(rules)


_FACTORS: Final = (
    _Factor(lambda f: f.game_lost, _percent, False, _game_worth,
            "loses the game this hand in {} of the deals I tried"),
    _Factor(lambda f: f.moon_against, _percent, False, _moon_worth,
            "lets another player shoot the moon in {} of the deals I tried"),
    _Factor(lambda f: f.moon_mine, _percent, True, _moon_worth,
            "shoots the moon in {} of the deals I tried"),
    _Factor(lambda f: f.queen, _percent, False, lambda rules: card_points(QUEEN_MASK, rules),
            "takes the Q♠ in {} of the deals I tried"),
    _Factor(lambda f: f.points, _mean_points, False, lambda rules: 1.0,
            "takes {} points on average in the deals I tried", "takes {}"),
)


def _subject(figures: CandidateFigures, first: bool) -> str:
    """``Playing the 9♠`` / ``the K♠``, or ``Passing Q♠ A♠ K♠`` / ``passing …``."""
    cards = figures.cards
    if len(cards) == 1:
        card = next(iter(cards))
        return f"Playing the {card.pretty}" if first else f"the {card.pretty}"
    return f"{'Passing' if first else 'passing'} {_names(cards)}"


def figures_reason(chosen: CandidateFigures, other: CandidateFigures, rules: Rules) -> str:
    """How ``chosen`` beats ``other`` in the figure that differs most in its favour, in
    words; every number in it is shown as rounded, and the shown numbers differ."""
    best: tuple[float, _Factor] | None = None
    for factor in _FACTORS:
        mine, theirs = factor.value(chosen), factor.value(other)
        if factor.shown(mine) == factor.shown(theirs):
            continue
        gain = (mine - theirs) if factor.higher_is_better else (theirs - mine)
        worth = gain * factor.worth(rules)
        if gain > 0 and (best is None or worth > best[0]):
            best = (worth, factor)
    if best is None:
        return (f"{_subject(chosen, True)} does best for your game in the "
                f"{chosen.worlds} deals I tried; {_subject(other, False)} is close behind.")
    factor = best[1]
    shown_mine, shown_theirs = factor.shown(factor.value(chosen)), factor.shown(factor.value(other))
    return (f"{_subject(chosen, True)} {factor.verb.format(shown_mine)}; "
            f"{_subject(other, False)} {factor.other.format(shown_theirs)}.")


CHANCES: Final = ("game_lost", "moon_against", "moon_mine", "queen")
"""The chances among a candidate's figures (:class:`CandidateFigures` fields): losing the
game this hand, another seat's moon, my moon, taking the Q♠."""


def shown_chances(figures: Sequence[CandidateFigures]) -> tuple[str, ...]:
    """The chances (:data:`CHANCES`) worth showing for these candidates, the rule every
    face's figures follow: each that shows as 1% or more for one of them, and losing
    the game whenever the game ends in 1% or more of the deals (a "0%" then says the
    hand is safe). Decided on the shown percents, so a face that is sent them
    (:func:`chance_percent`) can tell the same."""
    ends = any(chance_percent(f.game_ends) > 0 for f in figures)
    return tuple(name for name in CHANCES
                 if any(chance_percent(getattr(f, name)) > 0 for f in figures)
                 or (ends and name == "game_lost"))


_LINE_WORDS: Final = {"game_lost": "lose the game", "moon_against": "moon against you",
                      "moon_mine": "your moon", "queen": "Q♠"}


def figures_line(figures: Sequence[CandidateFigures]) -> str:
    """The figures of a few candidates in one line: expected points, and the chances
    :func:`shown_chances` picks."""
    shown = shown_chances(figures)
    parts = []
    for f in figures:
        chances = "".join(f", {_LINE_WORDS[name]} {_percent(getattr(f, name))}"
                          for name in shown)
        parts.append(f"{_names(f.cards)}: {_mean_points(f.points)} points{chances}")
    return f"{figures[0].worlds} deals: " + "; ".join(parts)


def explain(view: PlayerView, action: Action) -> str:
    """A one-line reason for ``action`` in the position ``view`` shows."""
    if isinstance(action, PassCards):
        return _explain_pass(Knowledge.of(view), action.cards)
    if isinstance(action, Play):
        return _explain_play(Knowledge.of(view), action.card)
    if isinstance(action, ChooseMoon):
        return _explain_moon(view, action.choice)
    raise PlayerError(f"no hint for {action!r}")


def _seat(seat: int) -> str:
    return f"seat {seat}"


def _one(suit: int) -> str:
    """A suit's name in the singular: club, diamond, spade, heart."""
    return SUIT_NAMES[suit][:-1]


# ----------------------------------------------------------------- passing
def _explain_pass(k: Knowledge, cards: CardSet) -> str:
    names = _names(cards)
    if strong_moon_hand(k) and all(card.rank < _LOW_RANKS for card in cards):
        return f"Pass {names}: keep your high cards and go for the moon"
    reasons = [r for r in (_pass_reason(k, cards, c) for c in cards) if r]
    unique = list(dict.fromkeys(reasons))
    if not unique:
        kept = k.hand & ~cards.mask
        highest = all(not kept & SUIT_MASKS[c.suit] & cards_above(c) for c in cards)
        unique = ["they are your highest cards and most likely to win tricks" if highest
                  else "they are the cards you least want to keep"]
    return f"Pass {names}: " + "; ".join(unique[:2])


def _pass_reason(k: Knowledge, cards: CardSet, card: Card) -> str | None:
    guards = (k.hand & cards_below(QUEEN_OF_SPADES)).bit_count()
    enough = guards >= queen_guards_needed(k.view.rules.hand_size)
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
    if attempting_moon(k) and _keeps_control(k, card):
        return f"You can take every point card: play the {card.pretty} and keep control"
    if k.led_suit is None:
        return _explain_lead(k, card)
    if card.suit == k.led_suit:
        return _explain_follow(k, card)
    return _explain_discard(k, card)


def _keeps_control(k: Knowledge, card: Card) -> bool:
    """Whether ``card`` wins the trick as it stands: a lead nobody can beat in its suit,
    or a card of the suit led above the winning one."""
    if k.led_suit is None:
        return k.is_top(card)
    assert k.winning is not None
    return card.suit == k.led_suit and card > k.winning[1]


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
        stopper = k.heart_stopper
        if stopper is not None and stopper != card and k.moon_open and card.suit == HEARTS:
            return (f"Play under the {win_card.pretty} and keep the {stopper.pretty}: "
                    "it can still win a heart trick from anyone running for the moon")
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
    stopper = k.heart_stopper
    if threat is not None:
        if is_points and win_seat != threat and threat not in k.still_to_play:
            return f"{void}: give {_seat(win_seat)} the {card.pretty} to stop the moon shot"
        if is_points and card != stopper:
            return (f"{void}: {_seat(threat)} may take every point anyway, so give up the "
                    f"{card.pretty} and keep the cards that can still win a trick")
    if stopper is not None and card != stopper and k.moon_open and not is_points:
        return (f"{void}: keep the {stopper.pretty}, which can still win a heart trick from "
                "anyone running for the moon")
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
    if game_over(totals, view.rules, view.round_no):
        return f"{what}: that ends the game " + (
            "with you winning" if seat in game_winners(totals, view.rules, view.round_no)
            else "although you are not ahead")
    if choice is MoonChoice.ADD:
        return f"{what}: you stay ahead and the game moves toward its end"
    return f"{what}: the game goes on and you catch up"
