"""Game analysis: every decision of the chosen seats judged by the search, marked, summed up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hearts_scenarios import play_out

from hearts.core import (
    Card,
    CardSet,
    InvalidRecordError,
    PassCards,
    Play,
    Rules,
    game_record,
    hand_record,
    read_position,
    replay_record,
)
from hearts.players import PlayerError, RandomPlayer, play_game
from hearts.players.analysis import (
    BLUNDER,
    DEFAULT_ITERATIONS,
    INACCURACY,
    MISTAKE,
    analyze,
    human_seats,
    judging_settings,
    plan_analysis,
    verdict,
)
from hearts.players.search.player import LEVEL_BUDGETS, SearchPlayer

GOLDEN = Path(__file__).parents[1] / "golden"

# issue 12's first position (round 4, a hold): seat 1 has every point card so far and
# leads the 8♥; seat 0 holds 3♥ and 10♥: the 3♥ lets a certain moon through, the 10♥
# stops it
MOON_THROUGH = ("standard 4 0,0,0,0 3HTH/AH/8S/JS hold 2:2C3C4CAC/1:KC5C6C7C/1:QC8C9CTC/"
                "1:AD2D3D4D/1:KD5D6D7D/1:QD8D9DTD/1:AS2S3SKS/1:QS4S5S6S/1:JH6H7H2H/"
                "1:QH9HJC4H/1:KHJD9S5H/1:8H7STS 0")


def moon_let_through() -> dict[str, Any]:
    """The hand of MOON_THROUGH with seat 0 ducking with the 3♥, played out."""
    state = play_out(read_position(MOON_THROUGH).apply(Play(0, Card("3H"))))
    assert state.results[-1].shooter == 1
    return hand_record(state, 4)


def test_letting_a_certain_moon_through_is_a_blunder() -> None:
    analysis = analyze(moon_let_through(), [0], seed="moon", iterations=200)
    duck = next(d for d in analysis.decisions if d.taken == Play(0, Card("3H")))
    assert duck.best == Play(0, Card("TH"))
    assert (duck.round_no, duck.trick_no, duck.seat) == (4, 12, 0)
    assert duck.loss >= BLUNDER and duck.verdict == "blunder"
    assert duck.taken_points > duck.best_points + 20  # the moon's 26 against the 10♥'s 2
    summary = analysis.summaries[0]
    assert summary.worst[0] is duck
    assert summary.count("blunder") >= 1
    accuracy = summary.accuracy
    assert accuracy is not None and accuracy < 1


def test_every_decision_of_the_chosen_seats_is_judged_in_order() -> None:
    record = json.loads((GOLDEN / "game-card-commons-4p.json").read_text("utf-8"))
    analysis = analyze(record, [1, 3], seed="order", iterations=20)
    assert analysis.seats == (1, 3)
    assert {d.seat for d in analysis.decisions} == {1, 3}
    assert [d.index for d in analysis.decisions] == list(range(len(analysis.decisions)))
    # a pass a round (none on hold rounds), then 13 cards a round, for each seat
    rounds = len(record["rounds"])
    passes = sum(1 for r in record["rounds"] if r["pass_offset"]) * 2
    assert len(analysis.decisions) == passes + rounds * 13 * 2
    for decision in analysis.decisions:
        assert decision.loss >= 0
        assert decision.verdict == (None if decision.forced else verdict(decision.loss))
        if isinstance(decision.taken, PassCards):
            assert decision.trick_no is None
    # the 2♣ leads the first trick in card-commons: no choice, so no mark
    leads = [d for d in analysis.decisions if d.taken in (Play(1, Card("2C")),
                                                           Play(3, Card("2C")))]
    assert leads and all(d.forced and d.verdict is None for d in leads)
    for summary in analysis.summaries:
        chosen = [d for d in summary.decisions if not d.forced]
        fine = [d for d in chosen if d.loss < INACCURACY]
        assert summary.accuracy == pytest.approx(len(fine) / len(chosen))
        assert list(summary.worst) == sorted(chosen, key=lambda d: -d.loss)[:3]


def test_the_same_seed_gives_the_same_report() -> None:
    record = json.loads((GOLDEN / "game-classic-3p.json").read_text("utf-8"))
    first = analyze(record, [0], seed="again", iterations=30).to_json()
    assert analyze(record, [0], seed="again", iterations=30).to_json() == first
    assert analyze(record, [0], seed="other", iterations=30).to_json() != first


def _without_index(decisions: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.to_json().items() if k != "index"} for d in decisions]


def test_a_verdict_depends_on_the_record_the_decision_and_the_seed_alone() -> None:
    """Each decision is seeded by its place in the game (round, place in the round), not
    by how many decisions of the chosen seats came before it."""
    record = json.loads((GOLDEN / "game-classic-3p.json").read_text("utf-8"))
    alone = analyze(record, [1], seed="place", iterations=10)
    together = analyze(record, [0, 1, 2], seed="place", iterations=10)
    assert _without_index(alone.decisions) == _without_index(
        d for d in together.decisions if d.seat == 1)
    # the same round judged from the game's record and from its own hand record
    second = hand_record(replay_record(record), 2)
    by_hand = analyze(second, [1], seed="place", iterations=10)
    assert _without_index(by_hand.decisions) == _without_index(
        d for d in alone.decisions if d.round_no == 2)


def test_settings_say_what_rules_a_decision_and_refuse_an_ignored_budget() -> None:
    expert = LEVEL_BUDGETS["expert"].seconds
    assert judging_settings() == (None, expert)
    assert judging_settings(budget_s=0.3) == (None, 0.3)
    assert judging_settings(iterations=5) == (5, None)
    assert judging_settings(seed="s") == (DEFAULT_ITERATIONS, None)
    assert judging_settings(seed="s", iterations=7) == (7, None)
    for fixed in ({"seed": "s"}, {"iterations": 5}, {"seed": "s", "iterations": 5}):
        with pytest.raises(PlayerError, match=r"a time budget \(100 s\) is used only when "
                                              "neither a seed nor iterations fix"):
            plan_analysis(moon_let_through(), [0], budget_s=100, **fixed)
    for budget in (0, -1, 3601, float("nan"), True, "1"):
        with pytest.raises(PlayerError, match="a number of seconds above 0 and at most 3600"):
            judging_settings(budget_s=budget)  # type: ignore[arg-type]
    plan = plan_analysis(moon_let_through(), [0], budget_s=0.25)
    assert (plan.iterations, plan.budget_s) == (None, 0.25)
    assert plan_analysis(moon_let_through(), [0]).budget_s == expert


def test_the_moon_choice_is_judged_without_sampling() -> None:
    record = json.loads((GOLDEN / "hand-classic-moon-choice.json").read_text("utf-8"))
    analysis = analyze(record, [0], seed="moon", iterations=20)
    moon = analysis.decisions[-1]
    assert moon.to_json()["kind"] == "moon" and moon.worlds == 0 and moon.choices == 2
    assert moon.to_json()["taken"] == record["moon"]["choice"]


def test_a_game_record_and_its_hand_record_agree() -> None:
    state = play_out(read_position(MOON_THROUGH).apply(Play(0, Card("3H"))))
    by_game = analyze(game_record(state), [0], seed="same", iterations=40).to_json()
    by_hand = analyze(hand_record(state, 4), [0], seed="same", iterations=40).to_json()
    assert by_game["decisions"] == by_hand["decisions"]


@pytest.mark.parametrize(("names", "people"), [
    (["You", "Left", "Across", "Right"], (0,)),
    (["Ann", "Computer 2 (normal)", "Bob", "Bot 3"], (0, 2)),
    (["expert", "hard:budget=0.2", "normal"], (0, 1, 2)),  # no person: every seat
    (["Seat 1", "Seat 2", "Seat 3", "Seat 4"], (0, 1, 2, 3)),
])
def test_the_people_are_found_by_the_record_names(names: list[str],
                                                  people: tuple[int, ...]) -> None:
    assert human_seats(names) == people


def test_the_default_seats_are_the_people() -> None:
    state = play_out(read_position(MOON_THROUGH).apply(Play(0, Card("3H"))))
    record = game_record(state, ["Ann", "Bot 1", "Bot 2", "Bot 3"])
    analysis = analyze(record, seed="people", iterations=10)
    assert analysis.seats == (0,) and {d.seat for d in analysis.decisions} == {0}


def test_marks_follow_the_documented_thresholds() -> None:
    assert [verdict(x) for x in (0.0, INACCURACY - 0.01, INACCURACY, MISTAKE - 0.01,
                                 MISTAKE, BLUNDER - 0.01, BLUNDER, 26.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_bad_input_is_refused_with_what_is_allowed() -> None:
    record = moon_let_through()
    for seats in ([4], [-1], [True], ["0"], [1, True]):
        with pytest.raises(PlayerError, match="seats run from 0 to 3"):
            analyze(record, seats, seed="x", iterations=5)
    for workers in (0, 1.5, "2"):
        with pytest.raises(PlayerError, match="workers must be a whole number of at least 1"):
            analyze(record, [0], workers=workers)
    with pytest.raises(PlayerError, match="iterations must be a whole number of at least 1"):
        analyze(record, [0], seed="x", iterations=2.5)
    broken = record | {"plays": [*record["plays"][:-1], "2C"]}
    with pytest.raises(InvalidRecordError):
        analyze(broken, [0], seed="x", iterations=5)
    with pytest.raises(InvalidRecordError, match="format must be"):
        analyze({"format": "chess"}, [0])


def test_a_pass_decision_weighs_the_pass_taken() -> None:
    record = json.loads((GOLDEN / "game-standard-4p.json").read_text("utf-8"))
    record["rounds"] = record["rounds"][:1]
    for key in ("complete", "totals", "winners"):
        record.pop(key, None)
    analysis = analyze(record, [0], seed="pass", iterations=50)
    first = analysis.decisions[0]
    taken = CardSet.parse(" ".join(record["rounds"][0]["passes"][0]))
    assert first.taken == PassCards(0, taken)
    assert first.choices > 2 and first.worlds == 50


def test_the_report_tells_a_strong_player_from_a_random_one() -> None:
    """A whole game of the search against random players: the search's own moves are
    nearly all fine, the random seats' are not."""
    rules = Rules.parse("standard:target=40")
    players = [SearchPlayer(1, level="expert", iterations=300),
               *(RandomPlayer(seat) for seat in range(1, 4))]
    state = play_game(rules, players, seed="strong")
    record = game_record(state, ["expert", "random", "random", "random"])
    analysis = analyze(record, seed="judge", iterations=300)
    assert analysis.seats == (0, 1, 2, 3)  # the names show no person: every seat
    strong, *weak = analysis.summaries
    assert strong.accuracy is not None and strong.accuracy >= 0.8
    assert strong.count("blunder") == 0
    for summary in weak:
        assert summary.accuracy is not None and summary.accuracy < strong.accuracy - 0.2
        assert summary.points_lost > 3 * strong.points_lost
