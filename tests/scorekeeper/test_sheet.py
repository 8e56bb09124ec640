"""The real-deck scorekeeper: rounds checked against the deck, the moon rules, game end."""

from __future__ import annotations

import csv
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    NAME_LENGTH,
    InvalidRoundError,
    InvalidSheetError,
    MoonChoice,
    MoonChoiceNeededError,
    Rules,
    Sheet,
    Taken,
    format_sheet,
    moon_points,
)
from hearts.scoresheet import (
    add_entry,
    enter_round,
    entry_help,
    parse_round_entry,
    sheet_csv,
    sheet_markdown,
    split_names,
    winner_text,
)

NAMES = ("Ann", "Bo", "Cy", "Di")


def sheet(rules: str = "card-commons", names: tuple[str, ...] = NAMES) -> Sheet:
    return Sheet(Rules.parse(rules), names)


def test_write_one_numbered_line_for_each_round_with_points_and_new_total() -> None:
    s = sheet().add_round(points=(13, 5, 8, 0)).add_round(points=(0, 20, 3, 3))
    assert [r.round_no for r in s.results] == [1, 2]
    assert s.results[1].points == (0, 20, 3, 3)
    assert s.totals == (13, 25, 11, 3)
    assert "2. " in format_sheet(s.results, s.names)


def test_points_that_do_not_add_up_say_what_a_round_holds() -> None:
    with pytest.raises(InvalidRoundError,
                       match="the points add up to 24; a round holds 26: 13 hearts and the Q♠ 13"):
        sheet().add_round(points=(13, 5, 6, 0))


def test_nobody_with_thirteen_points_means_nobody_took_the_queen() -> None:
    with pytest.raises(InvalidRoundError, match="nobody took the Q♠"):
        sheet().add_round(points=(7, 7, 6, 6))


def test_two_players_above_all_hearts_cannot_both_hold_the_queen() -> None:
    # Four cards out, three of them hearts: 10 hearts and the Q♠ hold 23 points.
    short = sheet("card-commons:removed=2H+3H+4H+2C")
    assert moon_points(short.rules) == 23
    with pytest.raises(InvalidRoundError, match="only one player can take the Q♠"):
        short.add_round(points=(12, 11, 0, 0))
    with pytest.raises(InvalidRoundError, match="more than the 10 hearts but less than the Q♠"):
        short.add_round(points=(12, 10, 1, 0))
    assert short.add_round(points=(13, 10, 0, 0)).totals == (13, 10, 0, 0)
    s = sheet()
    with pytest.raises(InvalidRoundError, match="only one player can take the Q♠"):
        s.add_round(taken=(Taken(3, True), Taken(10, True), Taken(), Taken()))


def test_hearts_must_add_to_thirteen() -> None:
    with pytest.raises(InvalidRoundError, match="hearts add to 12, there are 13"):
        sheet().add_round(taken=(Taken(3, True), Taken(9), Taken(), Taken()))


def test_negative_points_point_to_the_moon_entry() -> None:
    with pytest.raises(InvalidRoundError, match="for a moon enter the shooter's 26"):
        sheet().add_round(points=(-26, 0, 0, 0))


def test_wrong_number_of_players_is_refused() -> None:
    with pytest.raises(InvalidRoundError, match="each of the 4 players"):
        sheet().add_round(points=(13, 13, 0))


def test_card_commons_moon_takes_26_off_the_shooter() -> None:
    s = sheet().add_round(points=(0, 26, 0, 0))
    assert s.results[0].points == (0, -26, 0, 0)
    assert s.results[0].shooter == 1


def test_standard_moon_adds_26_to_everyone_else() -> None:
    s = sheet("standard").add_round(taken=(Taken(), Taken(), Taken(13, True), Taken()))
    assert s.results[0].points == (26, 26, 0, 26)


def test_classic_moon_needs_the_shooters_choice() -> None:
    s = sheet("classic")
    with pytest.raises(MoonChoiceNeededError) as info:
        s.add_round(points=(0, 0, 0, 26))
    assert info.value.shooter == 3
    added = s.add_round(points=(0, 0, 0, 26), moon_choice=MoonChoice.ADD)
    assert added.results[0].points == (26, 26, 26, 0)
    assert added.results[0].moon_choice is MoonChoice.ADD


def test_a_moon_choice_is_refused_where_the_rules_give_none() -> None:
    with pytest.raises(InvalidRoundError, match="no choice"):
        sheet().add_round(points=(26, 0, 0, 0), moon_choice=MoonChoice.ADD)
    with pytest.raises(InvalidRoundError, match="nobody shot the moon"):
        sheet("classic").add_round(points=(13, 13, 0, 0), moon_choice=MoonChoice.ADD)


def test_jack_of_diamonds_house_rule_needs_its_taker_and_scores_minus_ten() -> None:
    s = sheet("card-commons:jack_of_diamonds=on")
    with pytest.raises(InvalidRoundError, match="say who took the J♦"):
        s.add_round(points=(13, 13, 0, 0))
    with pytest.raises(InvalidRoundError, match="a round holds 16"):
        s.add_round(points=(13, 13, 0, 0), jack=2)
    done = s.add_round(points=(13, 13, -10, 0), jack=2)
    assert done.results[0].points == (13, 13, -10, 0)
    moon = s.add_round(taken=(Taken(13, True, True), Taken(), Taken(), Taken()))
    assert moon.results[0].points == (-36, 0, 0, 0)


def test_game_ends_after_the_round_someone_reaches_the_target_and_ties_share() -> None:
    s = sheet("card-commons:target=20").add_round(points=(0, 0, 13, 13))
    assert not s.is_over and s.winners == ()
    s = s.add_round(points=(13, 13, 0, 0))
    assert not s.is_over
    s = s.add_round(points=(13, 0, 0, 13))
    assert s.is_over
    assert s.winners == (1, 2)
    assert winner_text(s) == "Winners (tied): Bo, Cy"
    with pytest.raises(InvalidRoundError, match="the game is over"):
        s.add_round(points=(13, 13, 0, 0))


def test_correcting_the_last_round_replaces_it() -> None:
    s = sheet("card-commons:target=20").add_round(points=(0, 0, 13, 13))
    s = s.add_round(points=(20, 6, 0, 0))
    fixed = s.correct_last_round(points=(0, 6, 20, 0))
    assert len(fixed.results) == 2
    assert fixed.totals == (0, 6, 33, 13)
    assert fixed.winners == (0,)
    with pytest.raises(InvalidRoundError, match="no round to correct"):
        sheet().correct_last_round(points=(13, 13, 0, 0))


def test_names_must_fit_the_player_count_and_differ() -> None:
    with pytest.raises(InvalidSheetError, match="needs 4 names"):
        sheet(names=("Ann", "Bo"))
    with pytest.raises(InvalidSheetError, match="must differ"):
        sheet(names=("Ann", "ann", "Cy", "Di"))


def test_a_name_is_kept_as_every_face_shows_it() -> None:
    """A sheet's names are shown in columns and shared on the web: invisible characters
    go, spaces collapse, the name is cut to NAME_LENGTH, and one that shows nothing is
    refused (two names alike once shown are two players no one could tell apart)."""
    kept = sheet(names=("Ann\u200b  Lee", "B" * 20_000, "Cy\x00", "Di"))
    assert kept.names == ("Ann Lee", "B" * NAME_LENGTH, "Cy", "Di")
    with pytest.raises(InvalidSheetError, match="shows a letter, digit or sign"):
        sheet(names=("Ann", "\u200b\u200b", "Cy", "Di"))
    with pytest.raises(InvalidSheetError, match="must differ"):
        sheet(names=("Ann", "Ann\u200b", "Cy", "Di"))


@pytest.mark.parametrize(("where", "key", "value", "said"), [
    (0, "totals", [13, 13, 0, 1], "round 1 says totals [13, 13, 0, 1], but its cards taken "
     "make 13, 13, 0, 0"),
    (1, "points", [0, 0, 26, 0], "round 2 says points [0, 0, 26, 0]"),
    (None, "complete", True, "it says complete True, but its rounds make False"),
    (None, "winners", [2], "it says winners [2], but its rounds make []"),
])
def test_a_saved_figure_the_cards_do_not_make_is_refused_not_dropped(
        where: int | None, key: str, value: object, said: str) -> None:
    """Points, totals, the end and the winners are written for people to read; a file
    whose figures its cards taken do not make was edited or damaged, and reading it would
    otherwise drop the edit unsaid."""
    data = json.loads(json.dumps(sheet().add_round(points=(13, 13, 0, 0))
                                 .add_round(points=(0, 0, 13, 13)).to_json()))
    (data if where is None else data["rounds"][where])[key] = value
    with pytest.raises(InvalidSheetError, match=re.escape(said)):
        Sheet.from_json(data)
    del (data if where is None else data["rounds"][where])[key]
    assert Sheet.from_json(data).totals == (13, 13, 13, 13)


def test_json_round_trip_and_a_tampered_sheet_is_refused() -> None:
    s = sheet("classic").add_round(points=(0, 26, 0, 0), moon_choice=MoonChoice.SUBTRACT)
    s = s.add_round(points=(1, 2, 3, 20))
    data = json.loads(json.dumps(s.to_json()))
    assert Sheet.from_json(data) == s
    data["rounds"][1]["taken"][0]["hearts"] = 5
    with pytest.raises(InvalidSheetError, match="does not add up"):
        Sheet.from_json(data)


@pytest.mark.parametrize(("field", "value", "said"), [
    ("hearts", float("inf"), "hearts taken is a whole number, not inf"),
    ("hearts", 2.7, "hearts taken is a whole number, not 2.7"),
    ("hearts", True, "hearts taken is a whole number, not True"),
    ("hearts", "3", "hearts taken is a whole number, not '3'"),
    ("queen", "false", "queen and jack are true or false, not 'false'"),
    ("jack", 0, "queen and jack are true or false"),
])
def test_a_saved_round_of_the_wrong_kinds_is_refused(field: str, value: object,
                                                     said: str) -> None:
    data = json.loads(json.dumps(sheet().add_round(points=(13, 13, 0, 0)).to_json()))
    data["rounds"][0]["taken"][0][field] = value
    with pytest.raises(InvalidSheetError, match=re.escape(said)):
        Sheet.from_json(data)


@pytest.mark.parametrize(("field", "value", "said"), [
    ("names", "ABCD", "names a list of names, not 'card-commons' and 'ABCD'"),
    ("names", [1, None, True, {}], "names a list of names"),
    ("rules", 5, "rules is a rules text and names a list of names, not 5"),
    ("version", True, "sheet version True is not supported"),
    ("version", 1.0, "sheet version 1.0 is not supported"),
])
def test_a_sheet_of_the_wrong_kinds_is_refused_not_made_into_text(field: str, value: object,
                                                                  said: str) -> None:
    """``str()`` once made the names ``"ABCD"`` four players A, B, C and D, and
    ``[1, None]`` the names "1" and "None"; ``true`` read as version 1."""
    data = json.loads(json.dumps(sheet().to_json()))
    data[field] = value
    with pytest.raises(InvalidSheetError, match=re.escape(said)):
        Sheet.from_json(data)


def test_csv_and_markdown_exports() -> None:
    s = sheet("card-commons:target=20").add_round(points=(26, 0, 0, 0))
    s = s.add_round(points=(0, 20, 6, 0))
    csv_lines = sheet_csv(s).splitlines()
    assert csv_lines[0] == ("Round,Ann,Ann total,Bo,Bo total,Cy,Cy total,Di,Di total,"
                            "Shot the moon")
    assert csv_lines[1] == "1,-26,-26,0,0,0,0,0,0,Ann"
    md = sheet_markdown(s)
    assert "| 1 | -26 | -26 | 0 | 0 | 0 | 0 | 0 | 0 | Ann |" in md
    assert "| 2 | 0 | -26 | 20 | 20 | 6 | 6 | 0 | 0 |  |" in md
    assert md.rstrip().endswith("Winner: Ann")


@pytest.mark.parametrize("rules", ["card-commons", "classic:moon=others-plus"])
def test_every_points_and_total_cell_of_the_csv_is_a_number(rules: str) -> None:
    """A moon once went into a points cell as "-26 (moon)", text a spreadsheet cannot add
    up; the shooter has a column of their own (a name a spreadsheet would run as text)."""
    names = ("=Ann", "Bo", "Cy", "Di")
    played = sheet(rules, names).add_round(points=(26, 0, 0, 0)).add_round(
        points=(13, 13, 0, 0))
    header, *rounds = csv.reader(sheet_csv(played).splitlines())
    assert header[-1] == "Shot the moon" and len(header) == 2 + 2 * len(names)
    assert [row[-1] for row in rounds] == ["'=Ann", ""]
    numbers = [[r.round_no, *(n for pair in zip(r.points, r.totals, strict=True) for n in pair)]
               for r in played.results]
    assert [[int(cell) for cell in row[:-1]] for row in rounds] == numbers


@pytest.mark.parametrize(("rules", "jack"), [
    ("card-commons", False),
    ("standard", False),
    ("classic:players=3", False),
    ("classic:players=2", False),
    ("classic:players=5", False),
    ("classic:players=6,jack_of_diamonds=on", True),
    ("card-commons:players=3,jack_of_diamonds=on", True),
    ("card-commons:jack_of_diamonds=on", True),
    ("standard:jack_of_diamonds=on", True),
])
def test_the_entry_help_offers_the_jack_only_where_the_rules_take_it(rules: str,
                                                                    jack: bool) -> None:
    """The help once offered ``j`` (the J♦) under every rules, where only the house rule
    takes it, and gave four values whatever the table; each example it gives is a round
    the sheet accepts."""
    parsed = Rules.parse(rules)
    help_text = entry_help(parsed)
    examples = re.findall(r"\((-?[0-9][^()]*)\)", help_text)  # (13 5 8 0), (5h q 8h 0)
    assert len(examples) == 2
    assert ("J♦" in help_text) is jack and ("j" in " ".join(examples)) is jack
    names = tuple(f"P{seat}" for seat in range(parsed.players))
    for example in examples:
        assert len(enter_round(sheet(rules, names), example).results) == 1


def test_parse_round_entry_reads_points_and_cards() -> None:
    assert parse_round_entry("13 5 8 0", 4).points == (13, 5, 8, 0)
    parsed = parse_round_entry("5h q 8h -", 4)
    assert parsed.taken == (Taken(5), Taken(0, True), Taken(8), Taken())
    assert parse_round_entry("13 13 -10j 0", 4).jack == 2
    with pytest.raises(InvalidRoundError, match="cannot read 'x'"):
        parse_round_entry("5h q 8h x", 4)
    with pytest.raises(InvalidRoundError, match="one value for each of the 4"):
        parse_round_entry("13 13", 4)
    # a number longer than any total is refused in words, never by Python's limit of
    # 4,300 digits (which once ended `hearts score`)
    for long in ("1" * 4301, "1" * 4301 + "h", "1234567890", "-1234567890j",
                 "\u0662\u0666", "\uff12\uff16", "\u0665h"):  # other scripts' digits
        with pytest.raises(InvalidRoundError, match=f"cannot read '{long[:5]}"):
            parse_round_entry(f"{long} 0 0 0", 4)
    assert parse_round_entry("999999999 0 0 0", 4).points == (999_999_999, 0, 0, 0)
    assert split_names("Ann, Bo Jo,Cy") == ["Ann", "Bo Jo", "Cy"]
    assert split_names("Ann Bo  Cy") == ["Ann", "Bo", "Cy"]


def test_a_typed_round_asks_the_shooters_choice_only_where_the_rules_give_one() -> None:
    asked: list[str] = []

    def ask(name: str) -> MoonChoice:
        asked.append(name)
        return MoonChoice.ADD

    classic = add_entry(sheet("classic"), "0 0 13hq 0", ask)
    assert asked == ["Cy"] and classic.results[0].points == (26, 26, 0, 26)
    fixed = add_entry(classic, "13 13 0 0", ask, correct=True)
    assert asked == ["Cy"] and fixed.totals == (13, 13, 0, 0)
    assert add_entry(sheet(), "0 26 0 0", ask).totals == (0, -26, 0, 0) and asked == ["Cy"]


@st.composite
def _taken_rounds(draw: st.DrawFn) -> tuple[Taken, ...]:
    players = 4
    owners = draw(st.lists(st.integers(0, players - 1), min_size=14, max_size=14))
    hearts = [owners[:13].count(s) for s in range(players)]
    return tuple(Taken(hearts[s], owners[13] == s) for s in range(players))


@given(_taken_rounds(), st.sampled_from(["card-commons", "standard", "classic"]))
def test_any_real_round_is_accepted_both_as_cards_and_as_points(
        taken: tuple[Taken, ...], preset: str) -> None:
    s = sheet(preset)
    choice = MoonChoice.SUBTRACT if preset == "classic" else None
    moon = any(t.hearts == 13 and t.queen for t in taken)
    by_cards = s.add_round(taken=taken, moon_choice=choice if moon else None)
    points = tuple(t.hearts + 13 * t.queen for t in taken)
    by_points = s.add_round(points=points, moon_choice=choice if moon else None)
    assert by_cards.results == by_points.results
    assert sum(by_cards.results[0].points) in (26, -26, 78)


def test_a_saved_rounds_bad_field_is_said_once_as_the_sheets() -> None:
    """Once "sheet: sheet: hearts taken is ..." (the field's error wrapped again)."""
    data = {"format": "card-commons-hearts/sheet", "version": 1, "rules": "card-commons",
            "names": ["A", "B", "C", "D"],
            "rounds": [{"taken": [{"hearts": "x", "queen": False, "jack": False}] * 4,
                        "moon_choice": None}]}
    with pytest.raises(InvalidSheetError) as refused:
        Sheet.from_json(data)
    assert str(refused.value) == "sheet: hearts taken is a whole number, not 'x'"


def test_a_name_a_spreadsheet_would_run_is_written_to_csv_as_text() -> None:
    """A shared sheet's names are anyone's: ``=HYPERLINK(...)`` opened in a spreadsheet
    would run; after a ``'`` it shows as the text it is. Points stay numbers."""
    names = ("=HYPERLINK(\"http://x\")", "+1", "-Bo", "@Cy")
    played = sheet("standard", names).add_round(points=(13, 13, 0, 0))
    header, first = sheet_csv(played).splitlines()[:2]
    assert header.startswith('Round,"\'=HYPERLINK(""http://x"")",')
    assert "'+1,'+1 total,'-Bo,'-Bo total,'@Cy,'@Cy total" in header
    assert first == "1,13,13,13,13,0,0,0,0,"
