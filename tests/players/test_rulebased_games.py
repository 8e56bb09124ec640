"""Whole games with the rule-based levels: always legal, reproducible, and stronger than random."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import CardSet, Rules, deal_hands, new_hand
from hearts.players import RandomPlayer, make_player, play_game, run_game
from hearts.players.levels import LEVELS, UnknownLevelError

PRESET_COUNTS = [("card-commons", 3), ("card-commons", 4), ("standard", 4)] + [
    ("classic", n) for n in range(2, 7)
]


@settings(max_examples=24)
@given(
    preset_count=st.sampled_from(PRESET_COUNTS),
    levels=st.lists(st.sampled_from(["easy", "normal", "random"]), min_size=6, max_size=6),
    seed=st.integers(0, 10**6),
)
def test_rule_based_levels_play_whole_games_legally(
    preset_count: tuple[str, int], levels: list[str], seed: int
) -> None:
    preset, players = preset_count
    rules = Rules.parse(f"{preset}:players={players},target=30")
    seats = [make_player(level, seed + i) for i, level in enumerate(levels[:players])]
    # apply() raises IllegalActionError on any illegal pass, play or moon choice
    state = play_game(rules, seats, seed)
    assert state.is_over and max(state.totals) >= 30


HOUSE_RULES = [
    "card-commons:jack_of_diamonds=on,target=30",
    "standard:moon=shooter-choice,target=30",
    "classic:players=3,first_lead=dealer-left,target=30",
    "classic:players=2,removed=QS+2C,target=30",
    "card-commons:players=3,pass_count=0,target=30",
    "standard:pass_count=5,first_trick=any,hearts_lead=after-heart,target=30",
]


@settings(max_examples=12)
@given(text=st.sampled_from(HOUSE_RULES), seed=st.integers(0, 10**6))
def test_rule_based_levels_play_house_rules_legally(text: str, seed: int) -> None:
    rules = Rules.parse(text)
    levels = ["normal", "easy"] * 3
    state = play_game(rules, [make_player(lv) for lv in levels[: rules.players]], seed)
    assert state.is_over


def test_the_same_seed_plays_the_same_game() -> None:
    rules = Rules.parse("classic:players=5,target=60")

    def game() -> list[object]:
        seats = [make_player(level, 3) for level in ("normal", "easy", "normal", "easy", "normal")]
        return list(play_game(rules, seats, "same").history)

    assert game() == game()


def test_an_unknown_level_is_a_typed_error_listing_the_levels() -> None:
    try:
        make_player("grandmaster")
    except UnknownLevelError as error:
        assert isinstance(error, ValueError)
        assert all(level in str(error) for level in LEVELS)
    else:
        raise AssertionError("no error for an unknown level")


def _hand_points(level: str, preset: str, deals: int) -> tuple[list[int], list[float]]:
    """Points of ``level`` and the mean of its three random opponents, hand by hand, over
    duplicate deals (each deal played with the level in every seat)."""
    rules = Rules.parse(preset)
    mine: list[int] = []
    theirs: list[float] = []
    for deal in range(deals):
        hands = tuple(CardSet(h) for h in deal_hands(rules, f"sanity-{deal}"))
        for seat in range(4):
            players = [RandomPlayer(f"{deal}-{seat}-{s}") for s in range(4)]
            players[seat] = make_player(level)  # type: ignore[call-overload]
            state = run_game(new_hand(rules, hands, round_no=1 + deal % 4), players,
                             stop=lambda s: bool(s.results))
            points = state.results[-1].points
            mine.append(points[seat])
            theirs.append(statistics.fmean(p for s, p in enumerate(points) if s != seat))
    return mine, theirs


def test_normal_takes_far_fewer_points_than_random_players() -> None:
    # over 500 hands normal takes about 2 points a hand and its random opponents about 7.8;
    # a hand's points vary by about 5, so over these 80 hands (standard error about 0.55)
    # both bounds sit more than 2.5 errors from the expected figures, while a random
    # player in the same seats (about 6.5, and no margin) fails both
    for preset in ("standard", "card-commons"):
        mine, theirs = _hand_points("normal", preset, deals=20)
        assert statistics.fmean(mine) < 3.5
        assert statistics.fmean(theirs) - statistics.fmean(mine) > 3.5
