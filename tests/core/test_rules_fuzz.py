"""Fuzzing rule texts: any text is a valid Rules that round-trips, or an InvalidRulesError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import OPTION_HELP, PRESETS, InvalidRulesError, Rules

KEYS = [*OPTION_HELP, *(k.replace("_", "-") for k in OPTION_HELP), "trumps", "", " players "]
VALUES = st.one_of(
    st.sampled_from(["3", "4", "5", "0", "-1", "+2", "100", "10000", "10001", "1" * 30,
                     "\u0663", "\uff14", "1_0", "1e3", "0x10", "on", "off", "maybe",
                     "left", "right", "across", "hold", "left/hold", "+1/-1/+2/0", "-",
                     "2C", "2C+3C", "QS", "shooter-choice", "others-plus", "no-points",
                     "after-heart", "dealer-left", "", " ", "=", ","]),
    st.integers(-10**20, 10**20).map(str),
    st.text(max_size=8),
)


@st.composite
def rule_texts(draw: st.DrawFn) -> str:
    """Texts near the grammar: a preset (or none), then options, some repeated or odd."""
    preset = draw(st.sampled_from([*PRESETS, "", "fancy", "Standard"]))
    parts = draw(st.lists(st.tuples(st.sampled_from(KEYS), st.sampled_from(["=", "", "=="]),
                                    VALUES), max_size=5))
    options = ",".join(f"{k}{eq}{v}" for k, eq, v in parts)
    if not preset:
        return options
    return f"{preset}:{options}" if draw(st.booleans()) or options else preset


def _check(text: str) -> None:
    try:
        rules = Rules.parse(text)
    except InvalidRulesError:
        return
    assert Rules.parse(rules.text) == rules
    assert 1 <= rules.target <= 10_000 and 2 <= rules.players <= 6
    assert 1 <= len(rules.pass_cycle) <= 16


@settings(max_examples=300)
@given(st.one_of(rule_texts(), st.text(max_size=60)))
def test_any_rules_text_is_rules_or_a_typed_error(text: str) -> None:
    _check(text)


@pytest.mark.slow
@settings(max_examples=5000)
@given(st.one_of(rule_texts(), st.text(max_size=200)))
def test_any_rules_text_is_rules_or_a_typed_error_deeply(text: str) -> None:
    _check(text)
