"""``hearts bot`` seeds its player from hello's seed: an arena match with ``ext:hearts bot
random`` replays the same from the same ``--seed`` (a bot author's report: it did not)."""

from __future__ import annotations

import shlex
import sys

from hearts.arena.match import MatchConfig, run_match
from hearts.core import Rules

RULES = Rules.parse("standard:target=30")


def test_a_seeded_match_with_hearts_bot_random_replays_the_same() -> None:
    bot = "ext:" + shlex.join([sys.executable, "-m", "hearts.cli.main", "bot", "random"])
    config = MatchConfig(RULES, (bot, "random", "random", "random"), 1, "hello-seed",
                         keep_records=True, bot_seed="a secret")
    first, again = run_match(config), run_match(config)
    assert all(o.failures == (None,) * 4 for o in first.outcomes)
    assert [o.record for o in first.outcomes] == [o.record for o in again.outcomes]
