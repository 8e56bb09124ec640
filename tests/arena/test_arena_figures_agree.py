"""The arena's wins, shared wins and moons mean what ``hearts stats`` means by them: each
bot's figures are the sums of ``hearts.stats`` over the records of the games it played."""

from __future__ import annotations

from collections import Counter

import pytest

from hearts.arena import MatchConfig, report, run_match
from hearts.core import Rules
from hearts.stats import player_stats

FIGURES = ("wins", "shared_wins", "moons_shot", "moons_allowed")


def test_each_bots_figures_are_what_hearts_stats_counts_in_its_games() -> None:
    # one seat a bot, so a bot's figures are its seat's; one round a game, so ties come
    # often (three here), and a shooter, so a moon does (one)
    lineup = ("shooter", "random#a", "random#b", "random#c")
    config = MatchConfig(Rules.parse("standard:rounds=1"), lineup, 3, "b", keep_records=True)
    result = run_match(config, workers=1)
    assert sum(len(outcome.winners) > 1 for outcome in result.outcomes) > 0
    assert sum(shooter is not None for o in result.outcomes for shooter in o.shooters) > 0
    counted: dict[str, Counter[str]] = {bot: Counter() for bot in lineup}
    for outcome in result.outcomes:
        assert outcome.record is not None
        # every seat a name of its own, for hearts.stats to find it by
        named = outcome.record | {"seats": [f"seat {s}" for s in range(4)]}
        for seat, bot in enumerate(outcome.seating):
            [figures] = player_stats([named], f"seat {seat}").values()
            counted[bot].update({key: figures.to_json()[key] for key in FIGURES})
    for bot in report(result)["figures"]["bots"]:
        for key in FIGURES:
            # (each game's share rounded to 4 places before the sum: a third is 0.3333)
            assert bot[key] == pytest.approx(counted[bot["bot"]][key], abs=1e-3), \
                (bot["bot"], key)
