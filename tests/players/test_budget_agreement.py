"""``benchmarks/budget_agreement.py``: how often another budget changes the search's
decision, judged by the reference search's own figures."""

from __future__ import annotations

import random

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Rules
from hearts.players import play_game
from hearts.players.base import Player
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.player import SearchPlayer

budget_agreement = load_benchmark("budget_agreement")


def test_a_player_on_the_same_numbers_always_agrees_and_a_one_world_one_loses() -> None:
    def search(seed: str, worlds: int) -> SearchPlayer:
        return SearchPlayer(random.Random(seed), level="hard", iterations=worlds)

    judged = budget_agreement.JudgedSearch(
        search("reference", 60), {"same": search("reference", 60), "one": search("one", 1)})
    players: list[Player] = [RuleBasedPlayer() for _ in range(4)]
    players[0] = judged
    play_game(Rules.parse("standard:rounds=1"), players, seed="agreement-test")
    kinds = {(choice.kind, choice.player) for choice in judged.choices}
    assert kinds == {(kind, name) for kind in ("pass", "play") for name in ("same", "one")}
    for choice in judged.choices:
        assert choice.hand == 1
        if choice.player == "same":
            assert choice.agreed and choice.loss == 0.0
        else:
            assert choice.loss == 0.0 if choice.agreed else choice.loss > 0.0
    # one world a decision cannot find the reference's card every time
    assert not all(choice.agreed for choice in judged.choices if choice.player == "one")


def test_the_table_has_the_twin_and_every_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert budget_agreement.main(["--level", "hard", "--reference", "0.01", "--budgets",
                                  "0.002,0.005", "--games", "1", "--rules",
                                  "standard:rounds=1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:-1]]
    names = ("twin", "0.002s", "0.005s")
    assert [(row[0], row[1]) for row in rows] == [
        (kind, name) for kind in ("pass", "play", "hand") for name in names]
    for row in rows[:6]:
        decisions, agree, loss = int(row[2]), float(row[3].rstrip("%")), float(row[4])
        assert decisions > 0 and 0 <= agree <= 100 and loss >= 0
    for row in rows[6:]:  # one hand: its loss is the sum of its decisions'
        assert int(row[2]) == 1 and float(row[3]) >= 0
