"""The search player: legal, reproducible, and sensible where the right card is clear."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_positions import ALL_TABLES, TWO_LOSERS

from hearts.arena import BotSpec, BotSpecError, build_player
from hearts.core import (
    QUEEN_MASK,
    QUEEN_OF_SPADES,
    Action,
    Card,
    CardSet,
    GameState,
    MoonChoice,
    Phase,
    Play,
    Rules,
    cards_below,
    iter_mask,
    new_game,
    new_hand,
    read_position,
    view,
)
from hearts.players import CallbackSeat, play_game, run_game
from hearts.players.levels import LEVELS, make_player
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.kernel import (
    evaluate_cards,
    evaluate_passes,
    heuristic_pass,
    mix_seed,
    round_points_for_choice,
    sample_hands,
    utility,
)
from hearts.players.search.player import (
    LEVEL_BUDGETS,
    SearchBudget,
    SearchPlayer,
    distinct_cards,
    pass_candidates,
)
from hearts.players.standing import GAME_WEIGHT

TABLES = [*ALL_TABLES, "standard:moon=shooter-choice,jack_of_diamonds=on",
          "card-commons:first_lead=dealer-left,target=40"]


@pytest.mark.parametrize("text", TABLES)
def test_whole_games_are_legal(text: str) -> None:
    """Search players at every seat finish a whole game (the core rejects any illegal
    pass, card or moon choice), in every preset and player count."""
    rules = Rules.parse(text).replace(target=50)
    players = [SearchPlayer(seat, level="hard", iterations=3) for seat in range(rules.players)]
    state = play_game(rules, players, seed=text)
    assert state.is_over


def test_same_seed_same_game() -> None:
    """With an iteration budget the search is reproducible from its seed."""
    rules = Rules.parse("card-commons:target=30")

    def game(seed: int) -> tuple[Action, ...]:
        players = [SearchPlayer(seed + seat, iterations=20) for seat in range(4)]
        return play_game(rules, players, seed="same").history

    assert game(1) == game(1)
    assert game(1) != game(2)


def _state_after(rules: Rules, hands: list[str], plays: list[str]) -> GameState:
    state = new_hand(rules, [CardSet.parse(h) for h in hands])
    for card in plays:
        state = state.apply(Play(state.to_act[0], Card(card)))
    return state


DEALER_LEFT = Rules.parse("card-commons:first_lead=dealer-left,pass_cycle=hold")
HANDS = [
    "QS KS 3S 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "2S 4S 6S 8S 2H 3H 4H 5H 6H 7H 8H 9H TH",
    "5S 7S TS JS AS JH QH KH AH QC KC AC 2D",
    "9S 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]


def test_does_not_take_its_own_queen() -> None:
    """Spades led low and followed low: with Q♠ K♠ 3♠ the last seat must not win the
    trick with the Q♠ (13 points to itself)."""
    state = _state_after(DEALER_LEFT, HANDS, ["2S", "5S", "9S"])
    assert state.to_act == (0,)
    card = SearchPlayer(1, iterations=200).choose_play(view(state, 0))
    assert card != Card("QS")


def test_dumps_the_queen_when_void() -> None:
    """Hearts led, seat 0 has none: the Q♠ goes onto someone else's trick (seat 1 took
    a heart already, so nobody can shoot the moon with it)."""
    hands = [
        "QS 3S 4S 2C 3C 4C 5C 6C 7C 8C 9C TC 2D",
        "4D 2S 6S 8S KS 2H 3H 4H 5H 6H 7H 8H 9H",
        "5S 7S TS JS AS TH JH QH KH AH QC KC AC",
        "9S 3D 5D 6D 7D 8D 9D TD JD QD KD AD JC",
    ]
    state = _state_after(DEALER_LEFT, hands, ["4D", "TH", "3D", "2D", "2H", "JH", "9S"])
    assert state.to_act == (0,)
    card = SearchPlayer(2, iterations=200).choose_play(view(state, 0))
    assert card == Card("QS")


ONE_SUIT_EACH = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                 "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                 "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                 "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"]


def _moon_pending(totals: list[int]) -> GameState:
    """Classic (shooter's choice): seat 3 holds every club, leads 2♣ and wins every trick."""
    state = new_hand(Rules.parse("classic"), [CardSet.parse(h) for h in ONE_SUIT_EACH],
                     round_no=4, totals=totals)
    lowest = CallbackSeat(lambda seen: Play(seen.seat, min(seen.legal)))
    state = run_game(state, [lowest] * 4, stop=lambda now: now.phase is not Phase.PLAY)
    assert state.phase is Phase.MOON and state.shooter == 3
    return state


@pytest.mark.parametrize(("totals", "best"), [
    ([80, 80, 80, 70], MoonChoice.ADD),  # +26 to the others ends the game: seat 3 wins
    ([40, 80, 80, 70], MoonChoice.SUBTRACT),  # +26 would end it with seat 0 winning
])
def test_moon_choice_plays_for_the_game(totals: list[int], best: MoonChoice) -> None:
    """The shooter picks the moon scoring by who wins the game, not by the round alone."""
    state = _moon_pending(totals)
    assert SearchPlayer(3, iterations=1).choose_moon(view(state, 3)) is best


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_levels_make_search_players(level: str) -> None:
    """The ladder's top levels are search players with their own time budget."""
    player = make_player(level, seed=3)
    assert isinstance(player, SearchPlayer)
    assert player.name == level
    assert player.budget == LEVEL_BUDGETS[level]
    assert LEVEL_BUDGETS["hard"].seconds < LEVEL_BUDGETS["expert"].seconds <= 1.0


@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4]))
def test_pass_candidates_are_passes(seed: int, count: int) -> None:
    """Candidate passes: the rule-based pass first, then distinct sets of ``count`` cards
    from the hand, among them every combination of the most dangerous cards."""
    hand = sum(1 << c for c in random.Random(seed).sample(range(52), 13))
    base = sum(1 << c for c in list(iter_mask(hand))[:count])
    candidates = pass_candidates(hand, base, count)
    assert candidates[0] == base
    assert len(set(candidates)) == len(candidates) > 1
    assert all(c & ~hand == 0 and c.bit_count() == count for c in candidates)


@given(st.integers(0, 2**32 - 1), st.integers(1, 5))
def test_simulated_opponents_pass_from_their_hand(seed: int, count: int) -> None:
    """The playout model of an opponent's pass gives exactly ``count`` of its cards, the
    Q♠ among them when it has no low spades to guard it."""
    hand = sum(1 << c for c in random.Random(seed).sample(range(52), 13)) | QUEEN_MASK
    hand &= ~cards_below(QUEEN_OF_SPADES)  # no spade below the queen
    passed = heuristic_pass(hand, count, 13, np.array([mix_seed(seed, 0)], dtype=np.int64))
    assert passed & ~hand == 0 and passed.bit_count() == count
    assert passed & QUEEN_MASK


def test_passes_an_unguarded_queen() -> None:
    """Q♠ with no low spade to protect it is the first card to go."""
    rules = Rules.parse("card-commons")
    hand = CardSet.parse("QS 2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H")
    others = [c for c in range(52) if c not in hand]
    hands = [hand, *(CardSet(others[i::3]) for i in range(3))]
    state = new_hand(rules, hands)
    assert state.phase is Phase.PASS
    passed = SearchPlayer(4, iterations=200).choose_pass(view(state, 0))
    assert Card("QS") in passed and len(passed) == 3


def test_passing_rule_passes_as_the_rule_based_player() -> None:
    """``passing=rule`` passes what the rule-based player passes, without a world; the
    search's pass differs from it in some deal (the option changes play), and an unknown
    way of passing is refused with the ways there are."""
    rules = Rules.parse("standard")
    differs = False
    for seed in range(12):
        dealt = new_game(rules, seed=f"passing-{seed}")
        seen = view(dealt, 0)
        rule_based = RuleBasedPlayer().choose_pass(seen)
        ruled = LEVELS["expert"](random.Random(seed), passing="rule")  # type: ignore[call-arg]
        assert isinstance(ruled, SearchPlayer)
        assert ruled.choose_pass(seen) == rule_based and ruled.worlds_last == 0
        searched = SearchPlayer(seed, iterations=100).choose_pass(seen)
        differs |= searched != rule_based
    assert differs
    with pytest.raises(ValueError, match="unknown passing 'random'; it is one of: search, rule"):
        SearchPlayer(1, passing="random")


def test_level_options_override_the_budget() -> None:
    """``expert:budget=0.3`` and ``hard:iterations=50`` style options reach the player."""
    timed = LEVELS["expert"](random.Random(1), budget=0.3)  # type: ignore[call-arg]
    counted = LEVELS["hard"](random.Random(1), iterations=50)  # type: ignore[call-arg]
    assert isinstance(timed, SearchPlayer) and isinstance(counted, SearchPlayer)
    assert timed.budget == SearchBudget(0.3, LEVEL_BUDGETS["expert"].max_worlds)
    assert counted.budget == SearchBudget(None, 50)
    # a longer budget than the level's raises its cap on worlds with it
    longer = LEVELS["expert"](random.Random(1), budget=1.4)  # type: ignore[call-arg]
    assert isinstance(longer, SearchPlayer)
    assert longer.budget == SearchBudget(1.4, 2 * LEVEL_BUDGETS["expert"].max_worlds)


def test_cards_that_play_alike_are_simulated_once() -> None:
    """Seat 0 holds 2-5♣, 7♣, 9♣; 8♣ and Q♣ are on the table and 6♣ is out: 2♣ stands for
    2-5♣ and 7♣ for 7♣ and 9♣. The Q♠ never shares a run with the K♠ (13 points)."""
    hands = [
        "2C 3C 4C 5C 7C 9C QS KS 2D 3D 4D 5D 6D",
        "6C 8C TC JC 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "QC KC AC JS AS 2H 3H 4H 5H 6H 7H 8H 9H",
        "7D 8D 9D TD JD QD KD AD TH JH QH KH AH",
    ]
    clubs = _state_after(DEALER_LEFT, hands, ["8C", "QC", "TH"])
    assert distinct_cards(view(clubs, 0)) == [Card("2C"), Card("7C")]
    spades = _state_after(DEALER_LEFT, HANDS, ["2S", "5S", "9S"])
    assert distinct_cards(view(spades, 0)) == [Card("3S"), Card("QS"), Card("KS")]


def test_no_decision_waits_for_numba() -> None:
    """Making a player loads every compiled function a decision calls, with the argument
    types decisions use, so no decision pays for loading or compiling (the 1 s promise)."""
    players = [SearchPlayer(seat, level="hard", iterations=5) for seat in range(4)]
    called = [evaluate_cards, evaluate_passes, round_points_for_choice, sample_hands, utility]
    before = [set(fn.signatures) for fn in called]  # type: ignore[attr-defined]
    play_game(Rules.parse("classic:target=60"), players, seed="warm")
    assert [set(fn.signatures) for fn in called] == before  # type: ignore[attr-defined]


def test_playout_and_workers_options_reach_the_player() -> None:
    """``expert:playout=heuristic,workers=2`` style options reach the player, and bad
    values are refused with what is allowed."""
    player = LEVELS["expert"](random.Random(1), playout="heuristic",  # type: ignore[call-arg]
                              workers=2)
    assert isinstance(player, SearchPlayer)
    assert player.workers == 2 and player.policy != SearchPlayer(1).policy
    with pytest.raises(ValueError, match="playouts are: moon, heuristic"):
        SearchPlayer(1, playout="fast")
    with pytest.raises(ValueError, match="at least 1"):
        SearchPlayer(1, workers=0)


def test_workers_pool_their_worlds_and_play_legally() -> None:
    """Two workers of 20 worlds each sample 40 worlds a decision, and a whole game with
    them is legal (the core rejects any illegal card or pass)."""
    rules = Rules.parse("standard:target=30")
    players: list[SearchPlayer] = [SearchPlayer(seat, level="hard", iterations=20, workers=2)
                                   for seat in range(4)]
    seen: list[int] = []

    class Counting(SearchPlayer):
        def choose_play(self, view_: Any) -> Card:
            card = super().choose_play(view_)
            seen.append(self.worlds_last)
            return card

    players[0] = Counting(0, level="hard", iterations=20, workers=2)
    state = play_game(rules, players, seed="workers")
    assert state.is_over
    assert 40 in seen and set(seen) <= {0, 40}


def _figures(player: SearchPlayer, state: GameState) -> list[tuple[float, float]]:
    seat = state.to_act[0]
    seen = view(state, seat)
    return [(f.utility, f.moon_against)
            for f in player.card_figures(seen, distinct_cards(seen))]


def test_the_moon_alarm_counts_only_against_another_lone_taker() -> None:
    """The alarm changes the worlds' playouts only where a seat alone has taken point
    cards: at the start of play, with no taker, the same worlds give the same figures;
    against seat 3, the lone taker of ``TWO_LOSERS``, the defender sees more moons."""
    def pair(state: GameState) -> tuple[list[tuple[float, float]], ...]:
        return tuple(_figures(SearchPlayer(5, iterations=300, alarm=alarm), state)
                     for alarm in (False, True))

    quiet, alarmed = pair(_state_after(DEALER_LEFT, HANDS, []))
    assert quiet == alarmed
    calm, wary = pair(TWO_LOSERS)
    assert TWO_LOSERS.to_act[0] != 3
    assert max(moon for _, moon in wary) > max(moon for _, moon in calm)


NOT_WHILE_BEHIND = ("standard 4 50,90,30,70 2D3D4D5D3SQSKS2H3H4H5H6H/6D7D8D2SAS7H8H9HTHJHQH/"
                    "7C9CJC9DTDJDQD4S5S6S7S/8CTCQCKDAD8S9STSJSKHAH hold 2:2C3C4CKC/1:AC5C6C 0")


@pytest.mark.parametrize("seed", [1, 2])
def test_game_weight_zero_plays_the_hand_for_its_points(seed: int) -> None:
    """Seat 0 can drop the Q♠ on seat 1's A♣, but seat 1 at 90 then ends the game with
    seat 2 (at 30) winning and seat 0 second. Playing for the game it keeps the Q♠;
    with ``game_weight=0`` it plays for the hand's points alone and drops it."""
    position = view(read_position(NOT_WHILE_BEHIND), 0)
    for_game = SearchPlayer(seed, iterations=300)
    for_points = SearchPlayer(seed, iterations=300, game_weight=0)
    assert for_game.choose_play(position) != QUEEN_OF_SPADES
    assert for_points.choose_play(position) == QUEEN_OF_SPADES


@pytest.mark.parametrize(("option", "said"), [
    ("iterations=1e3", "iterations must be a whole number of at least 1, not 1000.0"),
    ("iterations=0", "iterations must be a whole number of at least 1, not 0"),
    ("workers=1.5", "workers must be a whole number of at least 1"),
    ("budget=inf", "budget must be a finite number, not inf"),
    ("budget=nan", "budget must be a finite number, not nan"),
    ("budget=0", "budget must be a number of seconds above 0 and at most 3600"),
    ("budget=1e308", "at most 3600"),
    ("trust=abc", "trust must be a finite number, not 'abc'"),
    ("trust=2", "trust must be above 0 and at most 1"),
    ("alarm=false", "alarm is on \\(1\\) or off \\(0\\), not 'false'"),
    ("tree=-1", "tree must be a whole number of at least 0"),
    ("explore=x", "explore must be a finite number"),
    ("solve=2.5", "solve must be a whole number of at least 0"),
    ("iterations=\u0663", "iterations must be a whole number of at least 1, not '\u0663'"),
    ("trust=" + "1" * 400, "trust must be a finite number"),  # no float holds it
    ("alarm=1.0", "alarm is on \\(1\\) or off \\(0\\), not 1.0"),  # 1.0 == True
    ("workers=1_0", "workers must be a whole number of at least 1, not '1_0'"),  # int() took it
])
def test_a_search_option_of_the_wrong_kind_is_refused_before_any_search(
        option: str, said: str) -> None:
    """Each option is checked for its kind and range where the player is made, with
    what is allowed, so no value reaches the compiled kernel untyped (a float count of
    worlds once failed there with a Numba typing error, at the first decision)."""
    with pytest.raises(BotSpecError, match=said):
        build_player(BotSpec.parse(f"expert:{option}"), seat=0, rules=Rules(), seed="o")


def test_game_weight_reaches_the_player_from_a_bot_spec() -> None:
    """``expert:game_weight=0`` names a points-only expert; a weight that is not a whole
    number from 0 to 1000 is refused with what is allowed."""
    built = build_player(BotSpec.parse("expert:game_weight=0,iterations=5"), seat=0,
                         rules=Rules(), seed="w")
    assert isinstance(built, SearchPlayer) and built.game_weight == 0
    assert SearchPlayer(1).game_weight == GAME_WEIGHT == 100
    for bad in ("2.5", "-1", "1001", "many"):
        with pytest.raises(BotSpecError, match="game_weight must be a whole number from 0 "
                                               f"to 1000, not .*{bad}"):
            build_player(BotSpec.parse(f"hard:game_weight={bad}"), seat=0, rules=Rules(),
                         seed="w")
