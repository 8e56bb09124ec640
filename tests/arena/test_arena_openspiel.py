"""The OpenSpiel ISMCTS adapter: card numbering, rule check, and whole games in the arena."""

from __future__ import annotations

import pytest

from hearts.arena import BotSpecError, MatchConfig, report, run_match
from hearts.core import ALL_CARDS, Deal, Rules, new_hand, view

pyspiel = pytest.importorskip("pyspiel")

from hearts.arena.openspiel import (  # noqa: E402  (needs pyspiel)
    ISMCTSPlayer,
    check_rules,
    from_openspiel_card,
    to_openspiel_card,
)


def test_every_card_has_the_same_name_in_openspiel() -> None:
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(0)  # a pass direction; then card actions name cards
    for card in ALL_CARDS:
        action = to_openspiel_card(card)
        assert state.action_to_string(action) == str(card)
        assert from_openspiel_card(action) == card


def test_only_the_standard_hand_rules_are_accepted() -> None:
    check_rules(Rules.parse("standard:target=50,pass_cycle=left/hold"))
    for text in ("card-commons", "classic", "standard:moon=shooter-minus",
                 "standard:jack_of_diamonds=on"):
        with pytest.raises(BotSpecError, match="standard preset's hands"):
            check_rules(Rules.parse(text))


def test_pass_choices_are_cards_of_the_hand_in_every_direction() -> None:
    # rounds 1-3 pass left, right, across; every seat asks (OpenSpiel's resampler fails
    # for a player already passed to, so the adapter must present each as player 0)
    player = ISMCTSPlayer("ismcts", simulations=30, seed="p")
    rules = Rules.parse("standard")
    for round_no in (1, 2, 3):
        state = new_hand(rules, Deal.from_seed(rules, f"deal {round_no}").hands,
                         round_no=round_no)
        assert state.pass_offset == (1, 3, 2)[round_no - 1]
        for seat in range(4):
            seat_view = view(state, seat)
            chosen = player.choose_pass(seat_view)
            assert len(chosen) == 3 and not chosen - seat_view.hand


def test_ismcts_plays_whole_games_through_the_arena() -> None:
    # every decision rebuilds an OpenSpiel state and checks it offers our legal cards
    config = MatchConfig(Rules.parse("standard:target=40"),
                         ("ismcts:sims=30", "random", "ismcts:sims=30", "random"), 1, "os")
    figures = report(run_match(config))["figures"]
    assert figures["games"] == 2 and figures["hands"] >= 2
    with pytest.raises(BotSpecError, match="sims, uct and rollouts"):
        run_match(MatchConfig(Rules.parse("standard"), ("ismcts:depth=2",) * 4, 1, "x"))
