"""Card tracking from a seat's view: what it may know, and nothing it may not."""

from __future__ import annotations

from hearts_scenarios import play, start, turn_view

from hearts.core import Card, CardSet, PassCards, view
from hearts.players.knowledge import Knowledge

QUEEN_PASSER = {
    0: "QS AS 2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 5H",
    1: "KS 6C 7C 8C 9C 6D 7D 8D 9D 6H 7H 8H 9H",
}


def passed_left(totals: tuple[int, ...] | None = None):  # type: ignore[no-untyped-def]
    """Round 1 (pass left): seat 0 passes Q♠ A♠ 5♥, the others their three lowest cards."""
    state = start("card-commons", QUEEN_PASSER, round_no=1, totals=totals)
    state = state.apply(PassCards(0, CardSet.parse("QS AS 5H")))
    for seat in (1, 2, 3):
        state = state.apply(PassCards(seat, CardSet(list(state.hand(seat))[:3])))
    return state


def test_it_knows_who_holds_the_cards_it_passed_until_they_are_played() -> None:
    know = Knowledge.of(view(passed_left(), 0))
    assert know.passed_to == 1
    assert know.known[1] == CardSet.parse("QS AS 5H").mask
    assert know.queen_holder == 1 and know.queen_danger and not know.queen_mine
    assert not know.unseen & know.known[1]  # placed, so not "unseen"
    assert know.out & know.known[1] == know.known[1]  # but still out of my hand


def test_seats_it_does_not_know_about_hold_only_unseen_cards() -> None:
    state = passed_left()
    know = Knowledge.of(view(state, 2))
    assert know.queen_holder is None
    for seat in (0, 1, 3):
        assert not know.may_hold(seat) & state.hand(2).mask
    assert know.may_hold(1) & Card("QS").mask  # seat 2 cannot tell where the Q♠ went


def test_voids_points_and_the_trick_in_progress() -> None:
    # seat 0 holds every club, so trick one shows everyone else void in clubs
    state = start("card-commons", {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                                   1: "QS 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H", 2: "2S", 3: "8S"})
    state = play(state, "2C QS 2S 8S  3C 7H")
    know = Knowledge.of(turn_view(state))
    assert know.seat == 2
    assert all(0 in know.voids[s] for s in (1, 2, 3))
    assert not know.may_follow(1, 0) and know.may_follow(0, 0)
    assert know.points_taken[0] == 13 and know.queen_played
    assert know.winning == (0, Card("3C")) and know.trick_points == 1
    assert know.still_to_play == (3,) and not know.last_to_play


def test_the_game_score_as_it_stands() -> None:
    state = play(start("card-commons", {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                                        1: "QS 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H",
                                        2: "2S", 3: "8S"},
                       totals=(80, 20, 60, 50)),
                 "2C QS 2S 8S  3C")
    know = Knowledge.of(turn_view(state))  # seat 1
    assert know.projected_totals == (93, 20, 60, 50)
    assert know.game_leader == 3 and know.behind_by == 20 - 50
    assert know.ends_game(0, 7) is True  # 100 ends it, and seat 1 has the lowest total
    assert know.ends_game(0, 6) is None
    assert Knowledge.of(view(state, 2)).ends_game(0, 7) is False

