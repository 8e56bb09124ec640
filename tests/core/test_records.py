"""Game and hand records: documented JSON, replay, and clear errors for bad records."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hearts_scenarios import json_paths, moon_hand, random_action, random_game
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    GAME_FORMAT,
    HAND_FORMAT,
    RECORD_VERSION,
    CardSet,
    InvalidRecordError,
    Phase,
    Rules,
    card_name,
    game_record,
    hand_record,
    new_game,
    new_hand,
    parse_record,
    record_people,
    replay_game,
    replay_hand,
    verify_record,
)

GAME = random_game(Rules.preset_rules("classic"), 11)
RECORD = game_record(GAME, ["Ann", "Bo", "Cy", "Di"])


def test_a_game_record_is_documented_versioned_json() -> None:
    text = json.dumps(RECORD)
    data = parse_record(text)
    assert data["format"] == GAME_FORMAT and data["version"] == RECORD_VERSION
    assert data["deal_algorithm"] == "sha256-ctr-fisher-yates/1"
    assert data["rules"] == "classic" and data["seed"] == "11" and data["complete"] is True
    assert [r["round"] for r in data["rounds"]] == list(range(1, len(GAME.results) + 1))
    first = data["rounds"][0]
    assert first["deal_seed"] == "11/1" and first["pass_offset"] == 1
    assert len(first["plays"]) == 52 and first["points"] == list(GAME.results[0].points)


def test_replay_gives_identical_results() -> None:
    again = replay_game(copy.deepcopy(RECORD))
    assert again.results == GAME.results and again.winners == GAME.winners
    assert game_record(again, RECORD["seats"]) == RECORD


def test_an_unseeded_game_records_its_deals_and_replays() -> None:
    rules = Rules.preset_rules("standard")
    hands = new_game(rules, "x").history[0].hands  # type: ignore[union-attr]
    state = new_hand(rules, hands, round_no=3, totals=(10, 20, 30, 40))
    record = game_record(state)
    assert record["seed"] is None and record["first_round"] == 3
    assert record["scores"] == [10, 20, 30, 40]
    assert game_record(replay_game(record)) == record
    hand = hand_record(state)
    assert hand["format"] == HAND_FORMAT and hand["scores"] == [10, 20, 30, 40]
    assert replay_hand(hand).totals == state.totals


def _illegal_play_record() -> tuple[dict[str, Any], int, str]:
    """The record with one play in round 1 swapped for a card the seat does not hold."""
    record = copy.deepcopy(RECORD)
    plays = record["rounds"][0]["plays"]
    index = 5  # trick 2, second card
    stranger = next(c for c in plays[6:] if c not in plays[:6])
    plays[index] = stranger
    return record, index, stranger


def test_an_illegal_action_reports_round_trick_seat_card_and_alternatives() -> None:
    record, _, stranger = _illegal_play_record()
    with pytest.raises(InvalidRecordError) as caught:
        replay_game(record)
    message = str(caught.value)
    assert "round 1" in message and "trick 2" in message
    assert f"{stranger} cannot be played" in message
    assert "seat " in message and "(allowed: " in message
    illegal = caught.value.illegal
    assert illegal is not None
    assert (illegal.round_no, illegal.trick_no, illegal.card) == (1, 2, stranger)
    assert illegal.seat in range(4) and illegal.legal and stranger not in illegal.legal


def test_stated_results_that_the_rules_do_not_give_are_refused() -> None:
    record = copy.deepcopy(RECORD)
    record["rounds"][0]["points"] = [0, 0, 0, 0]
    with pytest.raises(InvalidRecordError, match="round 1: the record says points"):
        replay_game(record)
    record = copy.deepcopy(RECORD)
    record["winners"] = [9]
    with pytest.raises(InvalidRecordError, match="record says winners"):
        replay_game(record)


def test_a_stated_result_is_the_rules_own_as_json_says_it() -> None:
    """Python holds ``True == 1`` and ``1.0 == 1``; a record that says ``true`` or
    ``1.0`` where the rules give 1 states something else, and is refused."""
    real = replay_game(RECORD)
    points = list(real.results[0].points)
    for key, value, says in (
            ("version", True, "record version True is not supported"),
            ("version", 1.0, "record version 1.0 is not supported"),
            ("winners", [float(w) for w in real.winners], "record says winners"),
            ("totals", [float(t) for t in real.totals], "record says totals"),
            ("complete", float(real.is_over), "record says complete")):
        with pytest.raises(InvalidRecordError, match=says):
            replay_game({**copy.deepcopy(RECORD), key: value})
    record = copy.deepcopy(RECORD)
    record["rounds"][0]["points"] = [p == 1 if p in (0, 1) else float(p) for p in points]
    with pytest.raises(InvalidRecordError, match="round 1: the record says points"):
        replay_game(record)


def test_hands_that_do_not_match_the_deal_seed_are_refused() -> None:
    record = copy.deepcopy(RECORD)
    record["rounds"][0]["deal_seed"] = "other/1"
    with pytest.raises(InvalidRecordError, match="do not match deal seed"):
        replay_game(record)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"version": 2}, "version 2 is not supported"),
        ({"format": "chess"}, "format must be"),
        ({"deal_algorithm": "mt19937"}, "unknown deal algorithm"),
        ({"rules": "classic:players=9"}, "rules: classic is played by 2 to 6"),
        ({"rounds": "all of them"}, "field 'rounds' has the wrong type"),
        ({"seed": 11}, "seed must be text or null"),
        ({"seed": "\ud800"}, "seed must be text or null"),  # a lone surrogate: no UTF-8
        ({"scores": [10**9, 0, 0, 0]}, "scores need 4 whole numbers from -999999999"),
    ],
)
def test_bad_headers_are_typed_errors(change: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidRecordError, match=says):
        replay_game({**copy.deepcopy(RECORD), **change})


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "\"record\""])
def test_text_that_is_not_a_record_object_is_refused(text: str) -> None:
    with pytest.raises(InvalidRecordError):
        parse_record(text)


# ------------------------------------------------------------------- fuzzing
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4)
    | st.sampled_from(["QS", "2C", "AH", "subtract", "add", "11/1", "classic"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=8,
)


SHORT = game_record(random_game(Rules.preset_rules("classic", 3), 5, actions=120))
MOON_HAND = parse_record(
    (Path(__file__).resolve().parent.parent / "golden" / "hand-classic-moon-choice.json")
    .read_text(encoding="utf-8"))
BASES = [(SHORT, replay_game, json_paths(SHORT)[1:]),
         (MOON_HAND, replay_hand, json_paths(MOON_HAND)[1:])]


@given(st.data(), st.sampled_from(BASES))
def test_a_corrupted_record_replays_or_is_a_typed_error(
    data: st.DataObject, base: tuple[dict[str, Any], Any, list[tuple[Any, ...]]]
) -> None:
    original, replay, paths = base
    edits = data.draw(st.lists(st.tuples(st.sampled_from(paths), JSON, st.booleans()),
                               min_size=1, max_size=3))
    record = copy.deepcopy(original)
    for path, value, delete in edits:
        parent: Any = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            if delete and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed this path
    try:
        state = replay(record)
    except InvalidRecordError:
        return
    assert state.history


@given(st.text(max_size=200))
def test_any_text_parses_to_a_record_object_or_a_typed_error(text: str) -> None:
    try:
        data = parse_record(text)
    except InvalidRecordError:
        return
    assert isinstance(data, dict)
    with contextlib.suppress(InvalidRecordError):
        replay_game(data)


def test_an_illegal_pass_in_a_hand_record_names_the_seat_and_the_hand() -> None:
    hand = hand_record(GAME, 1)
    held = hand["hands"][0]
    hand["passes"][0] = [c for c in map(card_name, range(52)) if c not in held][:3]
    with pytest.raises(InvalidRecordError, match=r"seat 0.*not in seat 0's hand"):
        replay_hand(hand)


def test_a_game_waiting_for_the_shooters_choice_exports_and_replays() -> None:
    rules = Rules.preset_rules("classic")
    mine = CardSet.parse("AC AS KS QS 6H 7H 8H 9H TH JH QH KH AH")
    rest = [c for c in range(52) if c not in mine]
    hands = [mine] + [CardSet(rest[k::3]) for k in range(3)]
    state = new_hand(rules, hands, round_no=4)
    while state.phase is Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.MOON
    record = game_record(state)
    assert record["complete"] is False and record["rounds"][0]["moon"] is None
    again = replay_game(record)
    assert again.phase is Phase.MOON and again.to_act == (0,)
    assert game_record(again) == record
    hand = replay_hand(hand_record(state))
    assert hand.phase is Phase.MOON


def test_a_record_written_before_chance_was_a_step_still_replays() -> None:
    # Before, a seeded game dealt the next round as soon as a round ended, so a record
    # saved between rounds ends with that round's deal and no plays.
    rules = Rules.preset_rules("standard")
    rng = random.Random(5)
    between = new_game(rules, 5)
    while between.phase is not Phase.DEAL:  # play the first round out
        between = between.apply(random_action(between, rng))
    record = game_record(between)
    assert len(record["rounds"]) == 1 and between.next_deal is not None
    deal = between.next_deal
    old = copy.deepcopy(record)
    old["rounds"].append({"round": 2, "deal_seed": deal.seed,
                          "hands": [hand.names() for hand in deal.hands],
                          "pass_offset": rules.pass_offset(2), "passes": None, "plays": [],
                          "moon": None})
    again = replay_game(old)
    assert again.phase is Phase.PASS and again.round_no == 2
    assert again.results == between.results
    assert [again.hand(s) for s in range(4)] == list(deal.hands)
    # and a record saved now, between rounds, replays to the same waiting state
    assert replay_game(record).next_deal == deal


# ------------------------------------------------- records that lie (issue 11)
MOON_GAME = game_record(moon_hand())


@pytest.mark.parametrize(
    ("moon", "says"),
    [
        ({"shooter": 2, "choice": "add"}, "says seat 2 shot the moon, the rules give seat 0"),
        (None, "says moon null .no shooter., but seat 0 took every point card"),
        ({"shooter": 0, "choice": "subtract"}, "says moon choice 'subtract', the rules give 'add'"),
        ({"shooter": True, "choice": "add"}, "says seat True shot the moon"),
    ],
)
def test_a_wrong_moon_is_refused(moon: Any, says: str) -> None:
    record = copy.deepcopy(MOON_GAME)
    assert record["rounds"][0]["moon"] == {"shooter": 0, "choice": "add"}
    replay_game(record)
    record["rounds"][0]["moon"] = moon
    with pytest.raises(InvalidRecordError, match=f"round 4: the record {says}"):
        replay_game(record)


def test_a_moon_invented_on_an_ordinary_round_is_refused() -> None:
    record = copy.deepcopy(RECORD)
    entry = next(r for r in record["rounds"] if r["moon"] is None)
    entry["moon"] = {"shooter": 1, "choice": "subtract"}
    with pytest.raises(InvalidRecordError,
                       match=f"round {entry['round']}: the record says seat 1 shot the moon, "
                             "but no seat took every point card; write moon: null"):
        replay_game(record)


def test_a_moon_on_an_unfinished_round_is_refused() -> None:
    record = copy.deepcopy(RECORD)
    entry = record["rounds"][0]
    del entry["points"], entry["totals"]
    entry["plays"] = entry["plays"][:20]
    record["rounds"] = [entry]
    del record["complete"], record["totals"], record["winners"]
    replay_game(record)
    entry["moon"] = {"shooter": 0, "choice": None}
    with pytest.raises(InvalidRecordError, match="the round has only 20 of 52 plays"):
        replay_game(record)


def test_the_moon_record_of_a_waiting_shooter_may_name_the_shooter() -> None:
    state = moon_hand("classic")
    record = game_record(state)
    record["rounds"][0]["moon"] = {"shooter": 0, "choice": None}
    assert replay_game(record).phase is Phase.MOON
    record["rounds"][0]["moon"] = {"shooter": 1, "choice": None}
    with pytest.raises(InvalidRecordError, match="seat 1 shot the moon, the rules give seat 0"):
        replay_game(record)


@pytest.mark.parametrize("offset", [0, 3, 2, True, 1.0, "left"])
def test_a_wrong_pass_offset_is_refused(offset: Any) -> None:
    record = copy.deepcopy(RECORD)
    record["rounds"][0]["pass_offset"] = offset
    with pytest.raises(InvalidRecordError,
                       match=r"round 1: the record says pass_offset .*, the rules give 1 "
                             r"\(pass_cycle left/right/across/hold\)"):
        replay_game(record)


@pytest.mark.parametrize("number", [2, 0, -7, 10**30, True, 1.0, "1", None])
def test_a_round_number_that_is_not_its_place_is_refused(number: Any) -> None:
    record = copy.deepcopy(RECORD)
    record["rounds"][0]["round"] = number
    with pytest.raises(InvalidRecordError, match="round 1: the record numbers this round"):
        replay_game(record)


@pytest.mark.parametrize("number", [0, -1, 10**30, 100_001, True, 1.5])
def test_absurd_first_round_and_hand_round_numbers_are_refused(number: Any) -> None:
    with pytest.raises(InvalidRecordError, match=r"from 1 to 100000|wrong type"):
        replay_game({**copy.deepcopy(RECORD), "first_round": number})
    with pytest.raises(InvalidRecordError, match=r"from 1 to 100000|wrong type"):
        replay_hand({**copy.deepcopy(MOON_HAND), "round": number})


def test_a_round_that_states_points_without_its_plays_says_so_plainly() -> None:
    record = copy.deepcopy(RECORD)
    record["rounds"][2]["plays"] = record["rounds"][2]["plays"][:20]
    with pytest.raises(InvalidRecordError,
                       match=r"^round 3 states points but has only 20 of 52 plays$"):
        replay_game(record)
    hand = hand_record(GAME, 1)
    hand["passes"][2], hand["plays"] = None, []
    with pytest.raises(InvalidRecordError,
                       match=r"^round 1 states points but has only 3 of 4 passes chosen$"):
        replay_hand(hand)
    waiting = hand_record(moon_hand("classic"))
    waiting["points"] = [-26, 0, 0, 0]
    with pytest.raises(InvalidRecordError, match="waits for the shooter, seat 0, to choose"):
        replay_hand(waiting)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' + "9" * 5000 + "}", "\udcff"])
def test_deep_nesting_and_huge_numbers_are_record_errors(text: str) -> None:
    with pytest.raises(InvalidRecordError):
        parse_record(text)


@pytest.mark.parametrize("seed", [["5/1"], 7, {"x": 1}, "5/\udcff"])
def test_a_hand_records_deal_seed_of_the_wrong_type_is_a_record_error(seed: Any) -> None:
    # found by the record fuzzer: the compiled engine raised TypeError
    with pytest.raises(InvalidRecordError, match="deal_seed must be text or null"):
        replay_hand({**copy.deepcopy(MOON_HAND), "deal_seed": seed})


def test_verify_record_with_hands_that_are_not_card_names_is_a_verdict() -> None:
    # found by the record fuzzer: a hand holding a float (inf) raised OverflowError
    record = copy.deepcopy(SHORT)
    record["rounds"][0]["hands"][0][0] = float("inf")
    checks = verify_record(record)
    assert not checks[0].ok and "hands differ" in checks[0].reason


# --------------------------------------------------------------------- people
def test_a_game_record_states_its_people_and_replays_with_them() -> None:
    record = game_record(GAME, ["expert", "Left", "Bot 2", "Di"], people=(3, 0))
    assert record["people"] == [0, 3]  # in increasing order, however given
    assert list(record)[:8] == ["format", "version", "deal_algorithm", "rules", "seed",
                                "seats", "people", "first_round"]
    again = replay_game(json.loads(json.dumps(record)))
    assert again.results == GAME.results
    assert game_record(again, record["seats"], people=[0, 3]) == record
    assert record_people(record, 4) == (0, 3)
    computers = game_record(GAME, people=())
    assert computers["people"] == [] and record_people(computers, 4) == ()
    replay_game(computers)


def test_a_record_without_people_reads_as_before() -> None:
    assert "people" not in RECORD  # nobody said who played: the field is left out
    assert record_people(RECORD, 4) is None
    assert replay_game(copy.deepcopy(RECORD)).results == GAME.results


@pytest.mark.parametrize("people", [None, "0", 0, [4], [-1], [0, 0], [2, 0], [True], [0.0],
                                    ["0"], {"0": 1}])
def test_a_bad_people_is_refused_in_words(people: Any) -> None:
    says = (r"record: people lists the seats persons played, each once and in increasing "
            r"order, seat numbers from 0 to 3 \(e\.g\. \[0\]; \[\] for computers alone\), not ")
    record = {**copy.deepcopy(RECORD), "people": people}
    with pytest.raises(InvalidRecordError, match=says):
        replay_game(record)
    with pytest.raises(InvalidRecordError, match=says):
        record_people(record, 4)


def test_a_game_record_refuses_people_that_are_not_its_seats() -> None:
    with pytest.raises(InvalidRecordError, match="seat numbers from 0 to 3"):
        game_record(GAME, people=[4])
    with pytest.raises(InvalidRecordError, match="each once"):
        game_record(GAME, people=[1, 1])


# --------------------------------------------------------------------- levels
def test_a_game_record_states_its_levels_and_replays_with_them() -> None:
    levels = [None, "expert:iterations=200", "normal", None]
    record = game_record(GAME, people=(0, 3), levels=levels)
    assert record["levels"] == levels
    assert game_record(replay_game(record), record["seats"], people=[0, 3],
                       levels=levels) == record
    assert "levels" not in RECORD  # a record without them reads as before


@pytest.mark.parametrize("levels", [None, "normal", [], ["normal"] * 3, ["normal"] * 5,
                                    [None, "", "normal", "normal"], [None, 3, "normal", "x"],
                                    [None, "x" * 201, "normal", "normal"],
                                    [None, "\ud800", "normal", "normal"],
                                    ["normal", "normal", "normal", "normal"],  # 0 is a person
                                    [None, None, "normal", "normal"]])  # 1 is no person
def test_bad_levels_are_refused_in_words(levels: Any) -> None:
    record = {**copy.deepcopy(RECORD), "people": [0], "levels": levels}
    with pytest.raises(InvalidRecordError, match=r"record: levels gives each of the 4 seats "
                                                 r"its computer's level as given"):
        replay_game(record)
    if levels is not None:  # None to game_record: the levels are not known
        with pytest.raises(InvalidRecordError, match="record: levels gives"):
            game_record(GAME, people=[0], levels=levels)


def test_levels_without_people_only_need_a_level_or_null_a_seat() -> None:
    record = {**copy.deepcopy(RECORD), "levels": [None, None, "normal", "hard"]}
    replay_game(record)  # no people: nothing says which seats must be null
