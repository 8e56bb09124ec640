"""The pure core: cards, rules, game state, scoring, views and records. No I/O, no
randomness of its own, no imports from the faces."""

# First: choose between the compiled and the pure-Python engine modules.
from hearts.core import _native  # noqa: F401, I001

from hearts.core.cards import ALL_CARDS, Card, CardSet, parse_card
from hearts.core.deal import DEAL_ALGORITHM, deal_hands, round_deal_seed
from hearts.core.errors import (
    HeartsError,
    IllegalActionError,
    InvalidCardError,
    InvalidRecordError,
    InvalidRulesError,
)
from hearts.core.record import game_record, hand_record, parse_record, replay_game, replay_hand
from hearts.core.rules import PRESETS, FirstLead, FirstTrick, HeartsLead, MoonRule, Rules
from hearts.core.sheet import SheetLine, format_sheet, sheet_lines
from hearts.core.state import (
    Action,
    ChooseMoon,
    Deal,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    RoundResult,
    Trick,
    card_points,
    new_game,
    new_hand,
)
from hearts.core.view import PlayerView, view

__all__ = [
    "ALL_CARDS",
    "DEAL_ALGORITHM",
    "PRESETS",
    "Action",
    "Card",
    "CardSet",
    "ChooseMoon",
    "Deal",
    "FirstLead",
    "FirstTrick",
    "GameState",
    "HeartsError",
    "HeartsLead",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidRecordError",
    "InvalidRulesError",
    "MoonChoice",
    "MoonRule",
    "PassCards",
    "Phase",
    "Play",
    "PlayerView",
    "RoundResult",
    "Rules",
    "SheetLine",
    "Trick",
    "card_points",
    "deal_hands",
    "format_sheet",
    "game_record",
    "hand_record",
    "new_game",
    "new_hand",
    "parse_card",
    "parse_record",
    "replay_game",
    "replay_hand",
    "round_deal_seed",
    "sheet_lines",
    "view",
]
