"""``benchmarks/playout_agreement.py``: how often a playout policy plays a player's card."""

from __future__ import annotations

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.core import Rules

STANDARD = Rules.parse("standard")


def test_the_policies_model_the_rule_based_player_better_than_random_play() -> None:
    agreement = load_benchmark("playout_agreement")
    found = {player: agreement.agreement(player, ["lead"], 2, STANDARD, "agreement-test")
             for player in ("normal", "random")}
    for kinds in found.values():
        for plays, same, alike in kinds["lead"].values():
            assert plays > 0 and 0 <= same <= alike <= plays
    # a run of cards that play alike counts as one: some other card of it was played
    assert any(alike > same
               for kinds in found.values() for _, same, alike in kinds["lead"].values())

    def share(player: str) -> float:
        counts = found[player]["lead"].values()
        return sum(same for _, same, _ in counts) / sum(plays for plays, _, _ in counts)

    # the lead policy plays much like the rule-based player and unlike a random one
    assert share("normal") > 0.7 > 0.5 > share("random")


def test_the_table_has_a_row_a_policy(capsys: pytest.CaptureFixture[str]) -> None:
    agreement = load_benchmark("playout_agreement")
    assert agreement.main(["--games", "1", "--policies", "lead,moon"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["policy", "lead", "follow", "discard"]
    assert [line.split()[0] for line in lines[2:]] == ["lead", "moon"]
