"""The round's facts are derived a trick at a time and kept between decisions (the core's
``round_so_far``): what the view and :class:`Knowledge` say from them must equal a walk of
the whole round, at any point of any round."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import ALL_TABLES, random_position

from hearts.core import PlayerView, Rules, forget_round_facts, play_reveals, play_rules, view
from hearts.players.knowledge import Knowledge

TABLES = [*ALL_TABLES,
          "standard:first_trick=any,hearts_lead=after-heart",
          "classic:hearts_lead=any-time,first_trick=no-points",
          "standard:hearts_lead=after-heart-or-queen",
          "card-commons:players=3,removed=QS,jack_of_diamonds=on"]


def _taken_by_seat(rules: Rules, tricks: tuple[tuple[int, tuple[int, ...], int], ...]) -> list[int]:
    masks = [0] * rules.players
    for _, cards, winner in tricks:
        for card in cards:
            masks[winner] |= 1 << card
    return masks


def _excluded_by_walking(seen: PlayerView) -> tuple[int, ...]:
    """What each seat's plays show it lacks, from every play of the round in turn."""
    facts = play_rules(seen.rules)
    masks = [0] * seen.players
    for play in seen.round_plays:
        masks[play.seat] |= play_reveals(facts, play.card, play.led, play.trick_no == 0,
                                         play.hearts_open)
    return tuple(mask & seen.rules.deck for mask in masks)


@settings(max_examples=300)
@given(text=st.sampled_from(TABLES), seed=st.integers(0, 10**6), plays=st.integers(0, 60))
def test_knowledge_agrees_with_the_view_on_every_round_fact(text: str, seed: int,
                                                            plays: int) -> None:
    rules = Rules.parse(text)
    state = random_position(rules, seed, plays)
    if seed % 2:
        forget_round_facts()  # derive this round from its first trick, not from kept facts
    for seat in range(rules.players):
        seen = view(state, seat)
        know = Knowledge.of(seen)
        assert seen.excluded == _excluded_by_walking(seen)
        assert know.voids == seen.voids()
        assert know.played == seen.played.mask
        assert know.unseen == seen.unseen().mask
        assert list(know.cards_taken) == _taken_by_seat(rules, seen.tricks)
        for suit in range(4):
            assert know.followers[suit] == tuple(
                other for other in range(rules.players)
                if other != seat and know.may_follow(other, suit))


def test_a_seat_that_fails_to_follow_is_known_void_at_once_and_later() -> None:
    rules = Rules.parse("standard")
    for seed in range(200):
        state = random_position(rules, seed, 52)
        seen = view(state, 0)
        if any(seen.voids()):
            break
    else:
        raise AssertionError("no void shown in 200 random rounds")
    know = Knowledge.of(seen)
    assert know.voids == seen.voids() and any(know.voids)
