"""The arena: duplicate rotations, reproducible figures, external bots seated in matches."""

from __future__ import annotations

import math
import random
import shlex
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from hearts.arena import (
    ArenaError,
    BotSpec,
    BotSpecError,
    MatchConfig,
    report,
    rotations,
    run_match,
)
from hearts.arena.specs import build_player
from hearts.core import Rules, replay_game
from hearts.players import RandomPlayer
from hearts.players.levels import LEVELS

RULES = Rules.parse("standard:target=30")
ROOT = Path(__file__).resolve().parents[2]


def _figures(config: MatchConfig, workers: int) -> dict[str, object]:
    figures: dict[str, object] = report(run_match(config, workers=workers))["figures"]
    return figures


def test_rotations_seat_every_bot_at_every_seat_once() -> None:
    assert rotations(["A", "B", "A", "B"]) == [(0, ("A", "B", "A", "B")), (1, ("B", "A", "B", "A"))]
    assert [s for _, s in rotations(["A", "R", "R", "R"])] == [
        ("A", "R", "R", "R"), ("R", "A", "R", "R"), ("R", "R", "A", "R"), ("R", "R", "R", "A")]
    assert rotations(["A"] * 4) == [(0, ("A",) * 4)]


def test_the_same_seed_gives_the_same_figures_for_any_worker_count() -> None:
    config = MatchConfig(RULES, ("random#a", "random#b", "random#a", "random#b"), 3, "repro")
    one = _figures(config, workers=1)
    assert _figures(config, workers=1) == one
    assert _figures(config, workers=2) == one
    other = MatchConfig(RULES, config.lineup, 3, "another seed")
    assert _figures(other, workers=1) != one


def test_every_bot_holds_every_hand_of_every_deal_set() -> None:
    lineup = ("random#hero", "random", "random", "random")
    result = run_match(MatchConfig(RULES, lineup, 2, "dup", keep_records=True))
    by_deal_set = defaultdict(list)
    for outcome in result.outcomes:
        assert outcome.record is not None
        by_deal_set[outcome.deal_set].append(outcome.record)
    assert sorted(by_deal_set) == [0, 1]
    for records in by_deal_set.values():
        assert len(records) == 4
        first_deal = records[0]["rounds"][0]["hands"]
        # the same cards at every seat in every rotation ...
        assert all(r["rounds"][0]["hands"] == first_deal for r in records)
        # ... and the hero sits once at each seat, so holds each of those hands
        hero_seats = sorted(r["seats"].index("random#hero") for r in records)
        assert hero_seats == [0, 1, 2, 3]
        assert all(r["seats"].count("random#hero") == 1 for r in records)
    # the records replay through the rules to the outcomes' totals
    for outcome in result.outcomes:
        assert outcome.record is not None
        assert replay_game(outcome.record).totals == outcome.totals


def test_progress_is_reported_after_every_game() -> None:
    calls: list[tuple[int, int]] = []
    run_match(MatchConfig(RULES, ("random#a", "random#b") * 2, 2, "p"),
              progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def _ext(*command: str) -> str:
    return "ext:" + shlex.join(command)


def test_hearts_bot_as_a_subprocess_plays_full_games_in_the_arena() -> None:
    bot = _ext(sys.executable, "-m", "hearts.cli.main", "bot", "random", "--seed", "1")
    result = run_match(MatchConfig(RULES, (bot, "random", "random", "random"), 1, "proto",
                                   keep_records=True))
    data = report(result)["figures"]
    ext = next(b for b in data["bots"] if b["bot"] == bot)
    assert ext["fallbacks"] == 0 and ext["errors"] == []
    assert all(o.failures == (None,) * 4 for o in result.outcomes)
    assert all(o.record is not None and o.record["complete"] for o in result.outcomes)


def test_the_example_external_bot_plays_a_full_game() -> None:
    bot = _ext(sys.executable, str(ROOT / "examples" / "external_bot.py"))
    result = run_match(MatchConfig(RULES, (bot, "random", bot, "random"), 1, "example"))
    assert len(result.outcomes) == 2
    assert all(o.failures == (None,) * 4 for o in result.outcomes)
    assert all(len(o.points) >= 1 for o in result.outcomes)


def test_a_failing_external_bot_is_reported_and_its_games_complete(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nsys.stdin.readline()\n")  # reads hello, then exits
    bot = _ext(sys.executable, str(script))
    result = run_match(MatchConfig(RULES, (bot, "random", "random", "random"), 1, "mute",
                                   fallback="random"))
    figures = report(result)["figures"]
    ext = next(b for b in figures["bots"] if b["bot"] == bot)
    assert ext["fallbacks"] == 4
    assert "at hello" in ext["errors"][0]
    assert all(o.winners for o in result.outcomes)
    # every decision of its seat was the fallback's: the report counts them as such, and
    # times none of them as the bot's
    assert all(not o.decision_seconds[o.seating.index(bot)] for o in result.outcomes)
    assert ext["fallback_moves"] > 0 and report(result)["timing"][bot]["decisions"] == 0


def test_a_bot_that_never_says_hello_costs_the_start_timeout_not_thirty_seconds(
        tmp_path: Path) -> None:
    script = tmp_path / "silent.py"
    script.write_text("import time\ntime.sleep(60)\n")  # never reads, never answers
    bot = _ext(sys.executable, str(script))
    started = time.monotonic()
    result = run_match(MatchConfig(RULES, (bot, "random", "random", "random"), 1, "silent",
                                   fallback="random", startup_timeout=0.5))
    ext = next(b for b in report(result)["figures"]["bots"] if b["bot"] == bot)
    assert "no answer within 0.5 s" in ext["errors"][0]
    assert time.monotonic() - started < 20  # four seats' hellos, not 4 x 30 s


def test_bad_settings_are_refused_before_any_game() -> None:
    with pytest.raises(BotSpecError, match="unknown bot 'grandmaster'"):
        MatchConfig(RULES, ("grandmaster", "random", "random", "random"), 1, "x")
    with pytest.raises(ArenaError, match="needs 4 bots"):
        MatchConfig(RULES, ("random", "random"), 1, "x")
    with pytest.raises(ArenaError, match="fallback must be a built-in bot"):
        MatchConfig(RULES, ("random",) * 4, 1, "x", fallback="ext:true")
    with pytest.raises(BotSpecError, match="takes no option 'depth'"):
        run_match(MatchConfig(RULES, ("random:depth=3",) * 4, 1, "x"))
    with pytest.raises(ArenaError, match="at least one deal set"):
        MatchConfig(RULES, ("random",) * 4, 0, "x")


@pytest.mark.parametrize("seconds", [0.0, -1.0, math.nan, math.inf])
@pytest.mark.parametrize("which", ["timeout", "startup_timeout"])
def test_a_timeout_that_is_not_positive_seconds_is_refused(which: str, seconds: float) -> None:
    with pytest.raises(ArenaError, match="the bot timeouts must be positive seconds"):
        MatchConfig(RULES, ("random",) * 4, 1, "x", **{which: seconds})


def test_specs_split_commands_options_and_tags() -> None:
    assert BotSpec.parse("ext:python3 'my bot.py' --fast").command == (
        "python3", "my bot.py", "--fast")
    spec = BotSpec.parse("random:x=1,y=2#b")
    assert (spec.kind, spec.options, spec.text) == ("random", (("x", "1"), ("y", "2")),
                                                    "random:x=1,y=2#b")
    with pytest.raises(BotSpecError, match="needs a command"):
        BotSpec.parse("ext:")


class _Tunable(RandomPlayer):
    def __init__(self, rng: random.Random, depth: int = 1, **extra: object) -> None:
        super().__init__(rng)
        self.depth = depth
        self.extra = extra


def test_spec_options_reach_the_level_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "fixed", lambda rng, depth=1: _Tunable(rng, depth))
    monkeypatch.setitem(LEVELS, "open", lambda rng, **options: _Tunable(rng, **options))
    fixed = build_player(BotSpec.parse("fixed:depth=3"), seat=0, rules=RULES, seed="o")
    assert isinstance(fixed, _Tunable) and fixed.depth == 3
    opened = build_player(BotSpec.parse("open:depth=2,budget=0.5#x"), seat=0, rules=RULES,
                          seed="o")
    assert isinstance(opened, _Tunable) and (opened.depth, opened.extra) == (2, {"budget": 0.5})
    with pytest.raises(BotSpecError, match=r"takes no option 'budget' \(its options: depth\)"):
        build_player(BotSpec.parse("fixed:budget=1"), seat=0, rules=RULES, seed="o")
