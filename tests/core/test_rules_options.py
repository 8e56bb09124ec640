"""Rule options, presets and their canonical text form."""

import dataclasses

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
