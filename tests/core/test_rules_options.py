"""Rule options, presets and their canonical text form."""

import dataclasses
import re
from collections.abc import Callable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from hearts.core import (
    OPTION_HELP,
    PRESETS,
    CardSet,
    FirstLead,
    FirstTrick,
    HeartsLead,
    InvalidRulesError,
    MoonRule,
    Rules,
)

COUNTS = {"card-commons": range(3, 5), "standard": range(4, 5), "classic": range(2, 7)}


@pytest.mark.parametrize(("preset", "players"),
                         [(p, n) for p, counts in COUNTS.items() for n in counts])
def test_every_preset_and_count_the_texts_allow_builds_and_round_trips(preset: str,
                                                                       players: int) -> None:
    rules = Rules.preset_rules(preset, players)
    assert rules.players == players
    assert Rules.parse(rules.text) == rules
    assert rules.deck.bit_count() % players == 0


def test_the_default_is_card_commons_with_four_players() -> None:
    assert Rules() == Rules.preset_rules("card-commons") == Rules.parse("")
    assert Rules().text == "card-commons"


def test_the_issue_example_text_parses_back_to_equal_rules() -> None:
    rules = Rules.parse("standard:moon=shooter-choice")
    assert rules.moon is MoonRule.SHOOTER_CHOICE and rules.text == "standard:moon=shooter-choice"
    assert Rules.parse("moon=others-plus") == Rules().replace(moon="others-plus")


def test_the_preset_table_of_rules_md() -> None:
    cc, std, cl = Rules(), Rules.preset_rules("standard"), Rules.preset_rules("classic")
    assert (cc.first_trick, cc.hearts_lead, cc.moon) == (
        FirstTrick.ANY, HeartsLead.ANY_TIME, MoonRule.SHOOTER_MINUS)
    assert (std.first_trick, std.hearts_lead, std.moon) == (
        FirstTrick.NO_POINTS, HeartsLead.AFTER_HEART_OR_QUEEN, MoonRule.OTHERS_PLUS)
    assert (cl.first_trick, cl.hearts_lead, cl.moon) == (
        FirstTrick.NO_POINTS, HeartsLead.AFTER_HEART, MoonRule.SHOOTER_CHOICE)
    assert {r.first_lead for r in (cc, std, cl)} == {FirstLead.LOWEST_CLUB}
    assert {r.target for r in (cc, std, cl)} == {100}
    assert not any(r.jack_of_diamonds for r in (cc, std, cl))
    assert Rules.preset_rules("classic", 5).pass_cycle == (1, 4, 2, 3, 0)
    assert Rules.preset_rules("classic", 6).pass_cycle == (1, 5, 2, 4, 3, 0)
    assert Rules.preset_rules("card-commons", 3).pass_cycle == (1, 2, 0)


@st.composite
def option_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(COUNTS)))
    players = draw(st.sampled_from(list(COUNTS[preset])))
    base = Rules.preset_rules(preset, players)
    options: dict[str, object] = {"players": players}
    if draw(st.booleans()):
        options["moon"] = draw(st.sampled_from(MoonRule))
    if draw(st.booleans()):
        options["hearts_lead"] = draw(st.sampled_from(HeartsLead))
    if draw(st.booleans()):
        options["first_trick"] = draw(st.sampled_from(FirstTrick))
    if draw(st.booleans()):
        options["first_lead"] = draw(st.sampled_from(FirstLead))
    if draw(st.booleans()):
        options["target"] = draw(st.integers(1, 500))
    if draw(st.booleans()):
        options["rounds"] = draw(st.integers(0, 1000))
    if draw(st.booleans()):
        options["jack_of_diamonds"] = draw(st.booleans())
    if draw(st.booleans()):
        options["pass_count"] = draw(st.integers(0, base.hand_size - 1))
    if draw(st.booleans()):
        options["pass_cycle"] = tuple(draw(st.lists(st.integers(0, players - 1), min_size=1,
                                                    max_size=6)))
    if draw(st.booleans()):
        options["removed"] = draw(st.integers(0, (1 << 52) - 1).filter(
            lambda m: (52 - m.bit_count()) % players == 0 and 52 - m.bit_count() >= players))
    try:
        return Rules.from_options(preset, options)
    except InvalidRulesError:
        assume(False)
        raise


@given(option_sets())
def test_the_text_form_parses_back_to_equal_rules(rules: Rules) -> None:
    assert Rules.parse(rules.text) == rules
    assert Rules.parse(str(rules)) == rules
    assert eval(repr(rules)) == rules


def test_changing_players_brings_that_counts_preset_defaults() -> None:
    three = Rules().replace(players=3)
    assert three == Rules.preset_rules("card-commons", 3)
    five = Rules.parse("classic:moon=shooter-minus").replace(players=5)
    assert five.removed == CardSet.parse("2C 3C").mask and five.moon is MoonRule.SHOOTER_MINUS


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("classic:players=7", "classic is played by 2 to 6 players, not 7"),
        ("standard:players=2", "standard is played by 4 players, not 2"),
        ("card-commons:players=5", "card-commons is played by 3 to 4 players"),
        ("classic:players=5,removed=2C", "cannot share equally; remove 1 more or 4 fewer"),
        ("card-commons:removed=2C", "51, which 4 players cannot share"),
        ("fancy", "unknown preset 'fancy'; presets are: card-commons, standard, classic"),
        ("standard:trumps=hearts", "unknown rule option 'trumps'; options are: players"),
        ("standard:moon=sometimes", "moon must be one of shooter-minus, others-plus, "
                                    "shooter-choice"),
        ("standard:hearts_lead=never", "any-time, after-heart, after-heart-or-queen"),
        ("standard:first_lead=me", "lowest-club, dealer-left"),
        ("standard:first_trick=x", "any, no-points"),
        ("standard:target=0", "target must be a positive score"),
        ("standard:target=many", "target must be a whole number"),
        ("standard:pass_count=13", "pass_count must be 0 to 12"),
        ("standard:pass_cycle=left/sideways", "use left, right, across, hold"),
        ("card-commons:players=3,pass_cycle=across", "there is no across with 3 players"),
        ("standard:jack_of_diamonds=maybe", "jack_of_diamonds must be on or off"),
        ("standard:moon", "needs a value: write moon=VALUE"),
        ("standard:removed=ZZ", "removed: not a card"),
        # a card named twice is a slip, not one card (it once made players=3 take 2C+2C)
        ("card-commons:players=3,removed=2C+2C", "removed: 2C is named twice"),
        ("standard:removed=2C+3C+4C+5C+6C+7C+8C+9C+TC+JC+QC+KC+AC+2D+3D+4D",
         "lowest-club needs a club"),
    ],
)
def test_bad_options_are_clear_errors_naming_what_is_allowed(text: str, says: str) -> None:
    with pytest.raises(InvalidRulesError, match=says.replace("(", r"\(").replace("+", r"\+")):
        Rules.parse(text)


def test_every_option_has_a_one_line_meaning() -> None:
    fields = {f.name for f in dataclasses.fields(Rules) if f.init} - {"preset"}
    assert set(OPTION_HELP) == fields
    assert set(PRESETS) == set(COUNTS)


# ------------------------------------------------ ambiguous texts (issue 11)
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("card-commons:players=3,players=5",
         r"option players is given twice \(players=3 and players=5\); give each option once"),
        ("standard:pass-count=2,pass_count=1", "option pass_count is given twice"),
        ("standard:target=\u0663\u0660", r"target must be a whole number in ASCII digits \(0-9\)"),
        ("standard:target=\uff15\uff10", "target must be a whole number in ASCII digits"),
        ("classic:players=\u0663", "players must be a whole number in ASCII digits"),
        ("standard:pass_count=1_0", "pass_count must be a whole number in ASCII digits"),
        ("standard:pass_cycle=+\u0662", "pass direction"),
        ("standard:pass_cycle=+7", r"from -3 to \+3 with 4 players"),
        ("standard:target=1000000000000",
         "target must be a positive score from 1 to 10000, not 1000000000000"),
        ("standard:target=10001", "from 1 to 10000"),
        ("standard:target=" + "9" * 5000,
         r"target must be a whole number in ASCII digits \(0-9\), at most 18 of them, "
         "not '9+…'"),
        ("standard:pass_cycle=" + "/".join(["left"] * 17), "pass_cycle lists at most 16 rounds"),
    ],
)
def test_ambiguous_or_unbounded_texts_are_refused(text: str, says: str) -> None:
    with pytest.raises(InvalidRulesError, match=says):
        Rules.parse(text)


def test_every_numeric_option_is_bounded_also_when_built_from_objects() -> None:
    assert Rules.parse("standard:target=10000").target == 10_000
    with pytest.raises(InvalidRulesError, match="from 1 to 10000"):
        Rules().replace(target=10**12)
    with pytest.raises(InvalidRulesError, match="at most 16 rounds"):
        Rules().replace(pass_cycle=(1,) * 17)


@pytest.mark.parametrize(("build", "says"), [
    (lambda: Rules.preset_rules("card-commons", 3.0), "players must be a whole number, not 3.0"),
    (lambda: Rules(target=50.5), "target must be a whole number, not 50.5"),  # type: ignore
    (lambda: Rules(pass_count="3"), "pass_count must be a whole number, not '3'"),  # type: ignore
    (lambda: Rules(removed=1.0), "removed must be a whole number"),  # type: ignore
    (lambda: Rules(pass_cycle=(1, 2.0, 0)), "pass_cycle must be whole numbers"),  # type: ignore
    (lambda: Rules(jack_of_diamonds=1), "jack_of_diamonds is on or off"),  # type: ignore
])
def test_options_built_as_objects_are_checked_for_their_kind(
        build: Callable[[], Rules], says: str) -> None:
    with pytest.raises(InvalidRulesError, match=re.escape(says)):
        build()


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_an_empty_text_is_the_documented_default(text: str) -> None:
    # documented in Rules.parse: no text is the default, as with no --rules at all
    assert Rules.parse(text) == Rules.preset_rules("card-commons", 4)


@pytest.mark.parametrize("text", ["standard:" + "x" * 5000 + "=1", "x" * 5000 + ":players=4",
                                  "standard:" + "x" * 5000, "standard:moon=" + "x" * 5000,
                                  "standard:pass_cycle=" + "x" * 5000,
                                  "standard:removed=" + "Z" * 5000])
def test_a_refusal_quotes_a_long_text_cut_not_whole(text: str) -> None:
    """An error says back what was given so the slip can be seen, but a pasted page (or a
    web request's 8 KiB) said back whole buries the reason."""
    with pytest.raises(InvalidRulesError) as refused:
        Rules.parse(text)
    assert "…" in str(refused.value) and len(str(refused.value)) < 300, str(refused.value)
