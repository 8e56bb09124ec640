"""Hints for concrete positions: the strongest level's move, and a reason a person reads."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hearts_scenarios import moon_state, play, start, turn_view
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hearts.core import (
    Action,
    Card,
    CardSet,
    ChooseMoon,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    cards_above,
    new_game,
    read_position,
    trick_winner,
    view,
)
from hearts.players import RandomPlayer
from hearts.players.base import decide
from hearts.players.hints import Hint, chance_percent, explain, hint, hint_level
from hearts.players.levels import LEVELS
from hearts.players.rulebased import EasyPlayer, RuleBasedPlayer
from hearts.players.search.player import SearchPlayer

VOID_IN_CLUBS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    1: "QS 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
}


@pytest.fixture
def normal_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin hints to the rule-based level, whatever search levels exist."""
    monkeypatch.delitem(LEVELS, "expert", raising=False)


@pytest.mark.usefixtures("normal_hints")
def test_void_in_the_suit_led_the_hint_dumps_the_queen() -> None:
    suggestion = hint(turn_view(play(start("card-commons", VOID_IN_CLUBS), "2C")))
    assert suggestion.action == Play(1, Card("QS"))
    assert suggestion.reason == "You are void in clubs: dump the Q♠"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_plays_under_the_king() -> None:
    spade_lead = {0: "2C 5S 6S 7S 8S 9S TS JS 2D 3D 4D 5D 6D",
                  1: "3C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                  2: "AC KS KH AH 7D 8D 9D TD JD QD KD AD 4C",
                  3: "5C AS 3S 4S 2S 6C 7C 8C 9C TC JC QC KC"}
    suggestion = hint(turn_view(play(start("card-commons", spade_lead), "2C 3C AC 5C KS")))
    assert suggestion.action == Play(3, Card("4S"))
    assert suggestion.reason == "Play under the K♠ to avoid taking the trick"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_drops_the_queen_under_the_ace() -> None:
    state = start("card-commons", {0: "AC AS", 1: "3C QS 2S 3S", 2: "4C", 3: "2C"})
    suggestion = hint(turn_view(play(state, "2C AC 3C 4C  AS")))
    assert suggestion.action == Play(1, Card("QS"))
    assert suggestion.reason == "Drop the Q♠ under the A♠: seat 0 takes it"


@pytest.mark.usefixtures("normal_hints")
def test_the_hint_leads_a_low_spade_to_flush_out_the_queen() -> None:
    # seat 0 wins trick one with the A♣ and holds low spades; the Q♠ is elsewhere
    state = start("standard", {0: "AC 2S 3S 4S KD QD JD TD 9D 8D 7D 6D 5D", 1: "3C", 2: "4D",
                               3: "2C QS"}, voids={2: "C"})
    state = play(state, "2C AC 3C 4D")
    suggestion = hint(turn_view(state))
    assert suggestion.action == Play(0, Card("2S"))
    assert suggestion.reason == "Lead a low spade to flush out the Q♠"


@pytest.mark.usefixtures("normal_hints")
def test_the_pass_hint_names_the_danger_of_the_high_spades() -> None:
    state = start("card-commons", {0: "QS AS 2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 5H"}, round_no=1)
    suggestion = hint(view(state, 0))
    assert isinstance(suggestion.action, PassCards)
    assert {"QS", "AS"} <= set(suggestion.action.cards.names())
    assert suggestion.reason.startswith("Pass ")
    assert "the Q♠ has too few low spades to hide behind" in suggestion.reason
    assert "the A♠ would catch the Q♠" in suggestion.reason


@pytest.mark.usefixtures("normal_hints")
def test_the_moon_hint_explains_the_game_ending_choice() -> None:
    state = moon_state("classic:players=2", (0, 90))
    suggestion = hint(view(state, 0))
    assert suggestion.action == ChooseMoon(0, MoonChoice.ADD)
    assert suggestion.reason == "Add 26 to every other player: that ends the game with you winning"


def test_a_given_player_is_explained_too() -> None:
    # easy discards its highest-ranked card, here the Q♠
    position = turn_view(play(start("card-commons", VOID_IN_CLUBS), "2C"))
    suggestion = hint(position, EasyPlayer())
    assert suggestion.action == Play(1, Card("QS"))
    assert explain(position, Play(1, Card("7H"))) == "You are void in clubs: dump the 7♥"
    assert explain(position, Play(1, Card("7D"))) == "You are void in clubs: get rid of the high 7♦"


def test_hints_use_the_expert_level_when_it_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "expert", lambda rng: EasyPlayer(name="expert"))
    assert hint_level() == "expert"
    position = view(start("card-commons", {0: "QS 2S 3S 4S 5S AC KC 9C 2D 3D 4D 2H 3H"},
                          round_no=1), 0)
    expert_pass = hint(position).action
    normal_pass = PassCards(0, RuleBasedPlayer().choose_pass(position))
    assert expert_pass == PassCards(0, CardSet.parse("QS AC KC")) != normal_pass


def test_the_only_legal_card_is_explained() -> None:
    position = turn_view(start("card-commons", VOID_IN_CLUBS))
    assert explain(position, Play(0, Card("2C"))) == "The 2♣ must lead the first trick"


@settings(max_examples=30)
@given(
    preset_count=st.sampled_from([("card-commons", 3), ("card-commons", 4), ("standard", 4),
                                  ("classic", 2), ("classic", 3), ("classic", 5),
                                  ("classic", 6)]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
)
def test_every_decision_of_a_game_gets_a_legal_hint_with_a_one_line_reason(
    preset_count: tuple[str, int], seed: int, steps: int
) -> None:
    preset, players = preset_count
    state = new_game(Rules.parse(f"{preset}:players={players}"), seed)
    randoms = [RandomPlayer(seed + s) for s in range(players)]
    for _ in range(steps):
        if state.phase is Phase.DEAL:
            state = state.apply(state.next_deal)
            continue
        seat = state.to_act[0]
        for player in (RuleBasedPlayer(), randoms[seat]):
            suggestion = hint(view(state, seat), player)
            assert suggestion.reason and "\n" not in suggestion.reason
            after = state.apply(suggestion.action)  # raises if the hint were illegal
        state = after


def test_following_on_the_first_trick_is_explained_by_the_card_chosen() -> None:
    position = turn_view(play(start("standard", {0: "2C", 1: "3C 9C KC"}), "2C"))
    assert explain(position, Play(1, Card("KC"))) == (
        "Points may fall on the first trick only from a hand holding nothing else: "
        "shed your high K♣")
    assert explain(position, Play(1, Card("3C"))) == (
        "You cannot play under the 2♣: play your lowest, the 3♣, so a later card may beat it")


ONLY_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_the_first_trick_explanation_keeps_the_exception_for_a_hand_of_only_points() -> None:
    # standard bars points from trick one unless a hand holds nothing else: seat 3 holds
    # only hearts, so a heart may fall on seat 1's K♣ and the reason must not deny it
    state = play(start("standard", {0: "2C", 1: "3C 9C KC", 2: "2S", 3: ONLY_HEARTS},
                       voids={2: "C"}), "2C")
    reason = explain(turn_view(state), Play(1, Card("KC")))
    assert reason == ("Points may fall on the first trick only from a hand holding "
                      "nothing else: shed your high K♣")
    last = turn_view(play(state, "KC 2S"))
    assert last.seat == 3 and last.legal == CardSet.parse(ONLY_HEARTS)


def test_once_points_fell_on_the_first_trick_shedding_is_not_called_safe() -> None:
    state = play(start("standard", {0: "2C", 1: ONLY_HEARTS, 2: "3C 9C KC"}), "2C 2H")
    reason = explain(turn_view(state), Play(2, Card("KC")))
    assert "first trick" not in reason


# ------------------------------------------------------------ search figures
# issue 12's first position: seat 1 has every point card so far and leads 8♥; the 3♥
# lets a certain moon through, the 10♥ stops it
MOON_THROUGH = ("standard 4 0,0,0,0 3HTH/AH/8S/JS hold 2:2C3C4CAC/1:KC5C6C7C/1:QC8C9CTC/"
                "1:AD2D3D4D/1:KD5D6D7D/1:QD8D9DTD/1:AS2S3SKS/1:QS4S5S6S/1:JH6H7H2H/"
                "1:QH9HJC4H/1:KHJD9S5H/1:8H7STS 0")


def searcher(seed: int = 0, iterations: int = 200) -> SearchPlayer:
    return SearchPlayer(seed, level="hard", iterations=iterations)


def test_a_search_hint_shows_the_figures_it_chose_by() -> None:
    suggestion = hint(turn_view(read_position(MOON_THROUGH)), searcher())
    assert suggestion.action == Play(0, Card("TH"))
    chosen, runner_up = suggestion.figures
    assert (chosen.cards, runner_up.cards) == (CardSet.parse("TH"), CardSet.parse("3H"))
    assert chosen.worlds == runner_up.worlds == 200
    assert chosen.moon_against < 0.05 < 0.95 < runner_up.moon_against
    assert chosen.utility > runner_up.utility and chosen.points < runner_up.points
    assert re.fullmatch(r"Playing the 10♥ lets another player shoot the moon in \d% of the "
                        r"deals I tried; the 3♥ in \d+%\.", suggestion.reason)
    assert re.fullmatch(r"200 deals: 10♥: 2\.\d points, moon against you \d%; "
                        r"3♥: 2\d\.\d points, moon against you \d+%", suggestion.details)


def test_a_search_pass_hint_weighs_the_candidate_passes() -> None:
    position = view(start("standard", {0: "QS AS KS 2C 3C 4C 2D 3D 4D 5D 2H 3H 4H"},
                          round_no=1), 0)
    suggestion = hint(position, searcher(iterations=100))
    assert isinstance(suggestion.action, PassCards)
    assert suggestion.figures[0].cards == suggestion.action.cards
    assert len(suggestion.figures) > 2
    assert suggestion.figures[0].utility == max(f.utility for f in suggestion.figures)
    assert suggestion.reason.startswith("Passing ")


def test_a_forced_card_is_explained_without_figures() -> None:
    suggestion = hint(turn_view(start("card-commons", VOID_IN_CLUBS)), searcher())
    assert suggestion == Hint(Play(0, Card("2C")), "The 2♣ must lead the first trick")


# What a figures reason says, by the figure it rests on: (pattern, figure, lower is better).
REASONS = [
    (r"loses the game this hand in (\d+)% of the deals I tried; .* in (\d+)%\.",
     lambda f: f.game_lost, True),
    (r"lets another player shoot the moon in (\d+)% of the deals I tried; .* in (\d+)%\.",
     lambda f: f.moon_against, True),
    (r"shoots the moon in (\d+)% of the deals I tried; .* in (\d+)%\.",
     lambda f: f.moon_mine, False),
    (r"takes the Q♠ in (\d+)% of the deals I tried; .* in (\d+)%\.", lambda f: f.queen, True),
    (r"takes (-?[\d.]+) points on average in the deals I tried; .* takes (-?[\d.]+)\.",
     lambda f: f.points, True),
]


@settings(max_examples=25, deadline=None)
@given(preset_count=st.sampled_from([("standard", 4), ("card-commons", 3), ("classic", 5)]),
       seed=st.integers(0, 10**6), steps=st.integers(0, 60), target=st.sampled_from([30, 100]))
@example(preset_count=("standard", 4), seed=0, steps=56, target=30)  # a walk that ends a round
def test_a_search_reason_names_the_chosen_action_and_a_figure_in_its_favour(
    preset_count: tuple[str, int], seed: int, steps: int, target: int
) -> None:
    """For random positions, the hint plays the candidate the figures rank first, and its
    reason names that action and a figure that is better for it than for the next best,
    with the numbers the figures give."""
    preset, players = preset_count
    state = new_game(Rules.parse(f"{preset}:players={players},target={target}"), seed)
    state = random_walk(state, seed, steps)
    if state.is_over:
        return
    seat = state.to_act[0]
    suggestion = hint(view(state, seat), searcher(seed, iterations=16))
    if not suggestion.figures:
        return
    best, runner_up = suggestion.figures[:2]
    assert best.utility == max(f.utility for f in suggestion.figures)
    names = " ".join(c.pretty for c in best.cards)  # in the hand's order, as faces name moves
    if isinstance(suggestion.action, Play):
        assert best.cards == CardSet.parse(str(suggestion.action.card))
        assert suggestion.reason.startswith(f"Playing the {names} ")
    else:
        assert isinstance(suggestion.action, PassCards)
        assert best.cards == suggestion.action.cards
        assert suggestion.reason.startswith(f"Passing {names} ")
    said = suggestion.reason
    assert "\n" not in said and said.endswith(".")
    assert suggestion.details.startswith("16 deals: ")
    for pattern, figure, lower_is_better in REASONS:
        found = re.search(pattern, said)
        if found:
            mine, theirs = (float(x) for x in found.groups())
            figures = (figure(best), figure(runner_up))
            shown = (tuple(round(x, 1) for x in figures) if "points" in pattern
                     else tuple(chance_percent(x) for x in figures))
            assert (mine, theirs) == pytest.approx(shown)
            assert (mine < theirs) if lower_is_better else (mine > theirs)
            break
    else:
        assert "does best for your game" in said


def random_walk(state: GameState, seed: int, steps: int) -> GameState:
    """``steps`` decisions of random players (deals included) from ``state``, ending
    where someone decides or the game is over."""
    randoms = [RandomPlayer(seed + s) for s in range(state.players)]
    for _ in range(steps):
        if state.is_over:
            break
        if state.phase is Phase.DEAL:
            state = state.apply(state.next_deal)
            continue
        seat = state.to_act[0]
        state = state.apply(decide(randoms[seat], view(state, seat)))
    if state.phase is Phase.DEAL:  # a walk that ends a round ends on a decision too
        state = state.apply(state.next_deal)
    return state


# ------------------------------------------------- reasons never contradict the move
def test_the_moon_pass_reason_only_when_the_high_cards_stay() -> None:
    position = view(start("standard", {0: "AH KH QH JH TH 9H 8H 7H AS AC 2D 3D 4C"},
                          round_no=1), 0)
    low = explain(position, PassCards(0, CardSet.parse("2D 3D 4C")))
    assert low == "Pass 4♣ 2♦ 3♦: keep your high cards and go for the moon"
    with_ace = explain(position, PassCards(0, CardSet.parse("2D 3D AS")))
    assert "moon" not in with_ace and "A♠" in with_ace


def test_keeping_control_for_a_moon_only_when_the_card_wins() -> None:
    # seat 0 has taken every point card; seats 1-3 played 9♥ Q♦ 10♠ and seat 0 holds
    # 3♥ A♥: the A♥ wins the trick, the 3♥ ducks under the 9♥
    position = turn_view(read_position(TAKE_EVERYTHING))
    assert explain(position, Play(0, Card("AH"))) == (
        "You can take every point card: play the A♥ and keep control")
    assert explain(position, Play(0, Card("3H"))) == (
        "Play under the 9♥ to avoid taking the trick")


TAKE_EVERYTHING = ("standard 4 30,45,20,60 3HAH/9S/JC/JS hold 1:2C3C4CAC/0:KC5C6C7C/"
                   "0:QC8C9CTC/0:AD3D4D5D/0:KD6D7D8D/0:AS2S3S4S/0:KS5STH6S/0:QS7SJH8S/"
                   "0:KH2H4H5H/0:QH6H7H8H/0:2DJD9DTD/1:9HQDTS 0")


def wins_as_it_stands(position: PlayerView, card: Card) -> bool:
    """Whether ``card`` would win the trick so far (a lead: no higher card of its suit is
    left in another hand)."""
    assert position.seat is not None
    if not position.trick:
        others = position.rules.deck & ~position.hand.mask & ~position.played.mask
        return not others & cards_above(card)
    cards = (*(c for _, c in position.trick), card)
    return trick_winner(position.trick[0][0], cards, position.players) == position.seat


@settings(max_examples=40, deadline=None)
@given(preset_count=st.sampled_from([("card-commons", 4), ("standard", 4), ("classic", 3),
                                     ("classic", 6)]),
       seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_a_reason_that_names_a_plan_agrees_with_the_action(
    preset_count: tuple[str, int], seed: int, steps: int
) -> None:
    """Every action of a random position (the rule-based one, a random one, every legal
    card): a reason that says to win the trick is given only to a card that wins it, one
    that says to duck only to a card that does not, a moon pass only with no high card."""
    preset, players = preset_count
    state = random_walk(new_game(Rules.parse(f"{preset}:players={players}"), seed), seed,
                        steps)
    if state.is_over or state.phase is Phase.DEAL:
        return
    seat = state.to_act[0]
    position = view(state, seat)
    actions = [decide(RuleBasedPlayer(), position), decide(RandomPlayer(seed), position)]
    if state.phase is Phase.PLAY:
        actions += [Play(seat, card) for card in position.legal]
    for action in actions:
        assert_reason_agrees(position, action)


def assert_reason_agrees(position: PlayerView, action: Action) -> None:
    """The reason for ``action`` names no plan the action does not carry out."""
    reason = explain(position, action)
    if isinstance(action, PassCards) and "go for the moon" in reason:
        assert all(card.rank < Card("JC").rank for card in action.cards), reason
    if not isinstance(action, Play):
        return
    card = Card(action.card)
    if any(words in reason for words in ("keep control", "take this trick",
                                         "Take the trick", "win it with")):
        assert wins_as_it_stands(position, card), reason
    if reason.startswith(("Play under the", "Drop the Q♠ under")):
        assert not wins_as_it_stands(position, card), reason
    if "to stop the moon shot" in reason:
        assert card.mask & position.rules.point_cards, reason


SUITE = tomllib.loads((Path(__file__).parent / "positions.toml").read_text("utf-8"))


@pytest.mark.parametrize("entry", SUITE["position"], ids=lambda entry: entry["name"])
def test_no_reason_contradicts_its_action_in_the_hand_built_positions(
        entry: dict[str, Any]) -> None:
    """The moon, game-end and Q♠ positions of the suite, where plans are at stake: every
    legal card, and every pass of the hand."""
    state = read_position(entry["position"])
    position = view(state, entry.get("seat", state.to_act[0]))
    assert position.seat is not None
    if position.phase is Phase.PASS:
        actions: list[Action] = [
            PassCards(position.seat, CardSet(sum(card.mask for card in combo)))
            for combo in itertools.combinations(position.hand, position.rules.pass_count)]
    elif position.phase is Phase.PLAY:
        actions = [Play(position.seat, card) for card in position.legal]
    else:
        actions = []
    for action in actions:
        assert_reason_agrees(position, action)
