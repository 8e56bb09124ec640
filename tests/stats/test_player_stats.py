"""Statistics against the records they come from: simulated games in every preset and
player count, each figure checked against the record's own results and totals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    PLAYER_COUNTS,
    PRESETS,
    QUEEN_MASK,
    InvalidRecordError,
    Rules,
    game_record,
    new_game,
    replay_game,
)
from hearts.players import RandomPlayer
from hearts.players.driver import run_game
from hearts.stats import game_line, player_seat, player_stats


def simulated(preset: str, players: int, seed: str, options: str = "",
              names: list[str] | None = None,
              people: tuple[int, ...] | None = None) -> dict[str, Any]:
    """A whole game between random players, as its record."""
    rules = Rules.parse(f"{preset}:players={players}{',' + options if options else ''}")
    final = run_game(new_game(rules, seed=seed), [RandomPlayer(s) for s in range(players)])
    return game_record(final, names, people=people)


games = st.sampled_from(sorted(PRESETS)).flatmap(
    lambda preset: st.tuples(st.just(preset), st.sampled_from(list(PLAYER_COUNTS[preset])),
                             st.text("abcdef0123456789", min_size=1, max_size=8)))


@settings(max_examples=12)
@given(games)
def test_every_figure_matches_the_records_results(game: tuple[str, int, str]) -> None:
    preset, players, seed = game
    record = simulated(preset, players, seed)
    final = replay_game(record)
    rules = final.rules
    lines = [game_line(record, f"Seat {seat + 1}") for seat in range(players)]
    assert all(line is not None for line in lines)
    moons = sum(r.shooter is not None for r in final.results)
    for seat, line in enumerate(lines):
        assert line is not None and line.seat == seat and line.preset == preset
        assert line.hands == len(final.results)
        # the points of every hand add up to what the game's totals say
        assert line.points == final.totals[seat] - record["scores"][seat]
        assert line.won == (seat in final.winners)
        assert line.win_share == (1 / len(final.winners) if line.won else 0)
        assert line.shared_win == (line.won and len(final.winners) > 1)
        assert line.moons_shot == sum(r.shooter == seat for r in final.results)
        assert line.moons_shot + line.moons_allowed == moons
        if not rules.jack_of_diamonds:  # then no point card taken is exactly 0 points, or
            # another seat's moon
            assert line.clean_hands == sum(
                (r.shooter is None and r.points[seat] == 0)
                or (r.shooter is not None and r.shooter != seat) for r in final.results)
    assert sum(line.won for line in lines if line) == len(final.winners)
    # a tie's win is split: one game, one win among the seats
    assert sum(line.win_share for line in lines if line) == pytest.approx(1)
    assert sum(line.shared_win for line in lines if line) == (
        len(final.winners) if len(final.winners) > 1 else 0)
    assert sum(line.points for line in lines if line) == sum(final.totals)
    if rules.deck & QUEEN_MASK:  # somebody takes the Q♠ in every hand
        assert sum(line.queens_taken for line in lines if line) == len(final.results)
    stats = player_stats([record], "Seat 1")[preset]
    assert stats.games == 1 and stats.hands == len(final.results)
    assert stats.average_points == pytest.approx(stats.points / stats.hands)
    assert stats.average_points * stats.hands == pytest.approx(
        final.totals[0] - record["scores"][0])


def test_figures_are_kept_by_preset_and_can_be_filtered() -> None:
    names = ["You", "Left", "Across", "Right"]
    records = [simulated("card-commons", 4, "a", names=names),
               simulated("standard", 4, "b", names=names),
               simulated("card-commons", 4, "c", names=names)]
    stats = player_stats(records)
    assert list(stats) == ["card-commons", "standard"]
    assert stats["card-commons"].games == 2 and stats["standard"].games == 1
    both = [game_line(r) for r in records[::2]]
    assert stats["card-commons"].points == sum(line.points for line in both if line)
    assert stats["card-commons"].wins == sum(line.win_share for line in both if line)
    assert stats["card-commons"].shared_wins == sum(line.shared_win for line in both if line)
    assert list(player_stats(records, preset="standard")) == ["standard"]
    assert player_stats(records, "Nobody") == {}


def test_the_terminal_seat_is_the_one_not_named_as_a_computer() -> None:
    names = ("Left", "Across", "Ann", "Right")
    assert player_seat(names, None) == 2
    assert player_seat(names, "Right") == 3
    assert player_seat(("Ann", "Bo", "Cy"), None) is None  # three people: say who
    record = simulated("card-commons", 4, "seat", names=list(names))
    line = game_line(record)
    assert line is not None and line.seat == 2


@pytest.mark.parametrize("name", ["expert", "Left", "Bot 2", "hard:budget=0.2"])
def test_the_person_a_record_states_is_found_whatever_their_name(name: str) -> None:
    names = [name, "Left", "Across", "Right"]
    record = simulated("card-commons", 4, "named", names=names, people=(0,))
    line = game_line(record)
    assert line is not None and line.seat == 0
    assert player_stats([record])["card-commons"].games == 1
    # the same game kept before records said who played: the names are all there is
    old = {key: value for key, value in record.items() if key != "people"}
    assert game_line(old) is None


def test_stated_people_come_before_the_names() -> None:
    names = ("Left", "Across", "Ann", "Right")
    assert player_seat(names, None, (1,)) == 1
    assert player_seat(names, None, ()) is None  # computers alone: nobody's statistics
    assert player_seat(names, None, (0, 2)) is None  # two people: say who
    # a person who took a computer's name is found by it before the computer
    assert player_seat(("expert", "expert", "Cy"), "expert", (1,)) == 1
    assert player_seat(("expert", "expert", "Cy"), "expert") == 0


def test_an_unfinished_game_is_not_counted() -> None:
    rules = Rules.parse("card-commons")
    players = [RandomPlayer(s) for s in range(4)]
    half = run_game(new_game(rules, seed="half"), players, stop=lambda s: s.round_no > 2)
    assert not half.is_over
    assert game_line(game_record(half)) is None
    assert player_stats([game_record(half)], "Seat 1") == {}


def test_a_bad_record_is_refused_with_its_number_and_reason() -> None:
    good = simulated("card-commons", 4, "good")
    bad = dict(good, totals=[0, 0, 0, 0])
    with pytest.raises(InvalidRecordError, match=r"record 2: record says totals"):
        player_stats([good, bad], "Seat 1")
    with pytest.raises(InvalidRecordError, match="format must be"):
        game_line({"format": "something else"})


def test_a_tied_win_is_split_among_its_winners_and_counted_whole_as_shared() -> None:
    """``wins`` means what ``hearts simulate`` and the arena mean: a tie of two gives each
    winner half a win; ``shared_wins`` counts the tied games whole."""
    records = [simulated("standard", 4, seed, "rounds=1") for seed in ("t0", "t3")]
    assert [replay_game(record).winners for record in records] == [(0, 2), (2, 3)]
    both = player_stats(records, "Seat 3")["standard"]  # seat 2: in both ties
    assert (both.wins, both.shared_wins) == (1.0, 2)
    first = player_stats(records, "Seat 1")["standard"]  # seat 0: in the first
    assert first.to_json()["wins"] == 0.5 and first.to_json()["shared_wins"] == 1
    loser = player_stats(records, "Seat 2")["standard"]  # seat 1: in neither
    assert (loser.wins, loser.shared_wins) == (0, 0)
