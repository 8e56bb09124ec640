"""The suite of hand-built positions: every entry reads through the core, names a seat
that acts and a right (or wrong) decision that is legal there, and ``normal`` answers
each with a legal decision. Scores are the benchmark's business
(``benchmarks/positions.py``), not asserted here."""

from __future__ import annotations

from typing import Any

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Card, CardSet, MoonChoice, Phase

BENCH = load_benchmark("positions")
ENTRIES = BENCH.load_suite()
THEMES = {"moon defence", "moon attempt", "game end", "queen of spades"}


def test_the_suite_covers_every_theme() -> None:
    assert len(ENTRIES) >= 12
    assert {entry.theme for entry in ENTRIES} == THEMES
    assert len({entry.name for entry in ENTRIES}) == len(ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_the_named_decisions_exist_there(entry: Any) -> None:
    """Every card named right or wrong is the deciding seat's to use (a moon choice names
    a choice), so no entry is judged against a decision nobody could make."""
    state = entry.state
    named = [*entry.good, *entry.bad]
    if state.phase is Phase.MOON:
        assert set(named) <= {choice.value for choice in MoonChoice}
        return
    usable = state.legal_cards(entry.seat)
    assert all(Card(word) in usable for word in named)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_normal_answers_every_position_legally(entry: Any) -> None:
    """``decide`` applies the answer to the position: an illegal one raises."""
    decision = BENCH.decide(BENCH.make_level("normal", 1), entry)
    kind = {Phase.PLAY: Card, Phase.PASS: CardSet, Phase.MOON: MoonChoice}[entry.state.phase]
    assert isinstance(decision, kind)


def test_the_judge_reads_good_and_bad() -> None:
    """Right is one of ``good`` or none of ``bad``; a pass must hold all of ``good``."""
    by_name = {entry.name: entry for entry in ENTRIES}
    moon = by_name["certain-moon-overtake"]
    assert BENCH.solved(moon, Card("TH")) and not BENCH.solved(moon, Card("3H"))
    queen = by_name["own-queen"]
    assert BENCH.solved(queen, Card("3S")) and not BENCH.solved(queen, Card("QS"))
    unguarded = by_name["pass-unguarded-queen"]
    assert BENCH.solved(unguarded, CardSet.parse("QS KS AS"))
    assert not BENCH.solved(unguarded, CardSet.parse("KS AS 2C"))
    choice = by_name["moon-choice-add"]
    assert BENCH.solved(choice, MoonChoice.ADD) and not BENCH.solved(choice, MoonChoice.SUBTRACT)


def test_random_answers_are_legal_too() -> None:
    """A random player, seeded, gives a legal decision everywhere (the loop, not luck)."""
    for entry in ENTRIES:
        BENCH.decide(BENCH.make_level("random", 5), entry)
