"""The OpenSpiel ISMCTS adapter: card numbering, rule check, and whole games in the arena."""

from __future__ import annotations

import pytest

from hearts.arena import BotSpecError, MatchConfig, report, run_match
from hearts.core import ALL_CARDS, Card, CardSet, Deal, Play, Rules, new_hand, view

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


def test_a_heart_led_from_a_hand_of_only_hearts_leaves_hearts_unbroken() -> None:
    """``standard`` breaks hearts only with a heart discarded (RULES.md); OpenSpiel with any
    heart played. Seat 1 wins two tricks, leads the 2♥ from a hand of only hearts, and
    seat 2's A♥ takes it: seat 2 may now lead only diamonds, though OpenSpiel would offer
    its K♥ too. The adapter plays one of our legal cards (before, it stopped the game:
    found as a rare failure of the arena test below)."""
    rules = Rules.parse("standard")
    hands = (CardSet.parse("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D"),
             CardSet.parse("AC AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
             CardSet.parse("KH AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
             CardSet.parse("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"))
    state = new_hand(rules, hands, round_no=4)  # the hold round: no passing
    plays = [(0, "2C"), (1, "AC"), (2, "3D"), (3, "2S"), (1, "AD"), (2, "4D"), (3, "3S"),
             (0, "2D"), (1, "2H"), (2, "AH"), (3, "4S"), (0, "3C")]
    for seat, card in plays:
        state = state.apply(Play(seat, Card(card)))
    seat_view = view(state, 2)
    assert Card("KH") not in seat_view.legal and len(seat_view.legal) == 9
    chosen = ISMCTSPlayer("ismcts", simulations=30, seed="h").choose_play(seat_view)
    assert chosen in seat_view.legal


def test_ismcts_plays_whole_games_through_the_arena() -> None:
    # every decision rebuilds an OpenSpiel state and checks it offers our legal cards
    config = MatchConfig(Rules.parse("standard:target=40"),
                         ("ismcts:sims=30", "random", "ismcts:sims=30", "random"), 1, "os")
    figures = report(run_match(config))["figures"]
    assert figures["games"] == 2 and figures["hands"] >= 2
    with pytest.raises(BotSpecError, match="sims, uct and rollouts"):
        run_match(MatchConfig(Rules.parse("standard"), ("ismcts:depth=2",) * 4, 1, "x"))


@pytest.mark.parametrize(("spec", "said"), [
    ("ismcts:sims=0", "sims is a whole number from 1 to 10,000,000, not 0"),
    ("ismcts:sims=abc", "sims is a whole number from 1 to 10,000,000, not 'abc'"),
    ("ismcts:sims=1.5", "sims is a whole number from 1 to 10,000,000, not 1.5"),
    ("ismcts:uct=nan", "uct is a number from 0 up, not nan"),
    ("ismcts:uct=-1", "uct is a number from 0 up, not -1"),
    ("ismcts:rollouts=0", "rollouts is a whole number from 1 to 1,000, not 0"),
    ("ismcts:rollouts=-3", "rollouts is a whole number from 1 to 1,000, not -3"),
])
def test_an_ismcts_option_out_of_range_is_refused_before_openspiel_sees_it(
        spec: str, said: str) -> None:
    """OpenSpiel takes these, then fails mid-game (no simulations) or ends the process
    with a segmentation fault (no rollouts)."""
    with pytest.raises(BotSpecError, match=said):
        run_match(MatchConfig(Rules.parse("standard"), (spec, "random", "random", "random"),
                              1, "x"))
