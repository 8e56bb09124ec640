"""Whole random games complete under every preset and player count."""

import pytest

from hearts.core import PRESETS, InvalidRulesError, Rules
from hearts.players import RandomPlayer, play_game

PRESET_COUNTS = [
    (name, players)
    for name in PRESETS
    for players in range(2, 7)
    if name == "classic" or (name == "card-commons" and players in (3, 4)) or players == 4
]


@pytest.mark.parametrize(("preset", "players"), PRESET_COUNTS)
def test_random_game_reaches_the_target(preset: str, players: int) -> None:
    rules = Rules.preset_rules(preset, players)
    state = play_game(rules, [RandomPlayer(s) for s in range(players)], seed=7)
    assert state.is_over
    assert max(state.totals) >= rules.target
    assert state.winners and all(state.totals[w] == min(state.totals) for w in state.winners)


@pytest.mark.parametrize(
    ("preset", "players"), [("standard", 2), ("card-commons", 5), ("classic", 7)]
)
def test_player_counts_a_preset_forbids_are_refused(preset: str, players: int) -> None:
    with pytest.raises(InvalidRulesError, match="played by"):
        Rules.preset_rules(preset, players)
