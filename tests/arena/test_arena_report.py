"""Arena figures from known outcomes: the t interval, margins, moons and shared wins."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

import hearts
from hearts.arena import (
    MatchConfig,
    MatchResult,
    format_report,
    interval_text,
    match,
    pool,
    report,
    t_interval,
    target_verdict,
    win_rate_text,
)
from hearts.arena.match import GameOutcome, first_code, playing_code
from hearts.arena.report import REPORT_VERSION, REPORT_WIDTH, read_report
from hearts.core import Rules

# two bots, two seats each, in the two rotations of a match
AB = ("random#a", "random#b", "random#a", "random#b")
BA = ("random#b", "random#a", "random#b", "random#a")


def test_t_interval_of_a_known_sample() -> None:
    # 1..5: mean 3, sample sd sqrt(2.5); t(0.975, 4 df) = 2.7764 from the tables
    interval = t_interval([1, 2, 3, 4, 5])
    assert interval.mean == 3
    assert interval.half_width == pytest.approx(2.7764 * math.sqrt(2.5) / math.sqrt(5), abs=1e-3)
    assert interval.low == pytest.approx(3 - 1.9632, abs=1e-3)
    assert interval.samples == 5
    # more confidence, a wider interval: t(0.995, 4 df) = 4.6041
    assert t_interval([1, 2, 3, 4, 5], 0.99).half_width == pytest.approx(
        4.6041 * math.sqrt(0.5), abs=1e-3)


def test_one_sample_has_no_bounds_and_none_is_an_error() -> None:
    assert t_interval([4.0]).low is None
    with pytest.raises(ValueError, match="at least one sample"):
        t_interval([])


def test_interval_text_writes_the_mean_its_half_width_and_bounds() -> None:
    known = t_interval([1, 2, 3, 4, 5]).to_json()
    assert interval_text(known) == "3.000 ± 1.963"
    assert interval_text(known, 2, signed=True, bounds=True) == "+3.00 ± 1.96 (+1.04 to +4.96)"
    # one deal set gives no bounds: the mean alone, never a crash on the missing bounds
    assert interval_text(t_interval([-0.5]).to_json(), signed=True, bounds=True) == "-0.500"
    assert interval_text(None) == "-"


@pytest.mark.parametrize(("mean", "low", "high", "target", "at_most", "verdict"), [
    (2.6, 2.5, 2.7, 2.5, False, "met (95%)"),
    (2.6, 1.9, 3.3, 2.5, False, "met"),
    (2.4, 1.7, 3.1, 2.5, False, "NOT met"),
    (2.6, None, None, 2.5, False, "met"),
    (0.02, 0.01, 0.03, 0.03, True, "met (95%)"),
    (0.02, 0.01, 0.04, 0.03, True, "met"),
    (0.05, 0.03, 0.07, 0.03, True, "NOT met"),
    (0.05, None, None, 0.03, True, "NOT met"),
])
def test_target_verdict_asks_the_whole_interval_before_the_estimate(
        mean: float, low: float | None, high: float | None, target: float, at_most: bool,
        verdict: str) -> None:
    assert target_verdict(mean, low, high, target, at_most=at_most) == verdict


def _outcome(deal_set: int, rotation: int, seating: tuple[str, ...],
             points: list[tuple[int, ...]], shooters: list[int | None],
             winners: tuple[int, ...], failures: tuple[str | None, ...] = (None,) * 4,
             ) -> GameOutcome:
    totals = tuple(sum(p[s] for p in points) for s in range(4))
    return GameOutcome(deal_set, rotation, seating, tuple(points), tuple(shooters), totals,
                       winners, ((0.001,), (0.002,), (0.003,), (0.004,)),
                       ((0.0005,), (0.001,), (0.0015,), (0.002,)), failures)


def test_figures_from_known_outcomes() -> None:
    config = MatchConfig(Rules.parse("standard"), AB, 2, "known")
    outcomes = (
        # deal set 0: A takes 0+0 and 0+13, B takes 13+13 and 13+0 -> A 13/4, B 39/4
        _outcome(0, 0, AB, [(0, 13, 0, 13)], [None], (0, 2)),
        _outcome(0, 1, BA, [(13, 0, 0, 13)], [None], (1, 3)),
        # deal set 1: seat 1 (B) shoots the moon in the first game: A 52/4, B 26/4
        _outcome(1, 0, AB, [(26, 0, 26, 26)], [1], (1,)),
        _outcome(1, 1, BA, [(0, 0, 0, 0)], [None], (0, 1, 2, 3),
                 failures=("gone", None, None, None)),
    )
    figures = report(MatchResult(config, outcomes, workers=1, wall_seconds=0.0))["figures"]
    a, b = figures["bots"]
    assert (figures["games"], figures["hands"], figures["rotations"]) == (4, 4, 2)
    assert a["points_per_hand"]["mean"] == pytest.approx((13 / 4 + 52 / 4) / 2)
    assert b["points_per_hand"]["mean"] == pytest.approx((39 / 4 + 26 / 4) / 2)
    # margins per deal set: A (39-13)/4 = 6.5 and (26-52)/4 = -6.5
    assert a["margin"]["mean"] == pytest.approx(0.0)
    # sd 6.5 * sqrt(2) over sqrt(2) samples, times t(0.975, 1 df) = 12.7062: +-82.6, cut
    # to the widest margin standard's hands allow (0 to 26 points a hand)
    assert t_interval([6.5, -6.5]).half_width == pytest.approx(12.7062 * 6.5, rel=1e-4)
    assert (a["margin"]["low"], a["margin"]["high"], a["margin"]["half_width"]) == (-26, 26, 26)
    assert b["margin"]["mean"] == pytest.approx(0.0)
    assert (a["moons_shot"], a["moons_allowed"], b["moons_shot"], b["moons_allowed"]) == \
        (0, 1, 1, 0)
    # wins: 1 + 1 + 0 + 2*(1/4) for A; B: 0 + 0 + 1 + 1/2
    assert (a["wins"], b["wins"]) == (2.5, 1.5)
    # shared wins, a seat's each: A's two seats tie in the first two games, all four the
    # last; B's one win is alone
    assert (a["shared_wins"], b["shared_wins"]) == (6, 2)
    assert a["win_rate_per_seat"] == pytest.approx(2.5 / 8)
    # per deal set: A won both games (2 of 2 games x 2 seats), then a quarter share of one
    assert a["by_deal_set"]["win_rate_per_seat"] == [0.5, 0.125]
    assert a["win_rate"] == t_interval([0.5, 0.125], within=(0, 0.5)).to_json()
    assert a["win_rate"]["mean"] == pytest.approx(a["win_rate_per_seat"])
    assert b["by_deal_set"]["win_rate_per_seat"] == [0.0, 0.375]
    assert (a["fallbacks"], b["fallbacks"]) == (0, 1)
    assert b["errors"] == ["deal set 1, rotation 1, seat 0: gone"]
    assert a["seat_hands"] == b["seat_hands"] == 8


def test_timing_is_kept_apart_from_the_figures() -> None:
    config = MatchConfig(Rules.parse("standard"), AB, 1, "t")
    outcome = _outcome(0, 0, AB, [(0, 13, 0, 13)], [None], (0, 2))
    data = report(MatchResult(config, (outcome,), workers=3, wall_seconds=1.5))
    assert data["timing"]["random#a"]["decisions"] == 2
    assert data["timing"]["random#b"]["max_ms"] == pytest.approx(4.0)
    assert data["timing"]["random#b"]["cpu"]["max_ms"] == pytest.approx(2.0)
    assert data["run"] == {"workers": 3, "wall_seconds": 1.5}


def test_the_table_counts_fallbacks_names_bots_whole_and_says_how_many_errors_it_left_out(
) -> None:
    first, second = "ext:python3 bots/mine.py --level one", "ext:python3 bots/mine.py --level two"
    lineup = (first, second, first, second)
    config = MatchConfig(Rules.parse("standard"), lineup, 5, "names")
    outcomes = tuple(
        _outcome(deal_set, 0, lineup, [(0, 13, 0, 13)], [None], (0, 2),
                 failures=(None, f"no answer in deal set {deal_set}", None, None))
        for deal_set in range(5))
    data = report(MatchResult(config, outcomes, workers=1, wall_seconds=0.0))
    text = format_report(data)
    assert first in text and second in text  # not cut to look alike
    row = next(line for line in text.splitlines() if line.startswith(second))
    assert "5 (0 moves)" in row  # the fallbacks column: five games with a fallback
    assert data["figures"]["bots"][1]["more_errors"] == 2
    assert text.count("fallback: deal set") == 3 and "... and 2 more fallbacks" in text


def _known_report(seed: str, deal_sets: list[tuple[int, int]]) -> dict[str, object]:
    """A report of ``AB`` whose deal set k has A taking ``a`` and B ``b`` points a seat in
    each of its two games."""
    config = MatchConfig(Rules.parse("standard"), AB, len(deal_sets), seed)
    outcomes = tuple(
        _outcome(deal_set, rotation, seating, [(a, b, a, b) if seating is AB else (b, a, b, a)],
                 [None], (0, 2) if a <= b else (1, 3))
        for deal_set, (a, b) in enumerate(deal_sets)
        for rotation, seating in enumerate((AB, BA)))
    return report(MatchResult(config, outcomes, workers=2, wall_seconds=1.0))


def test_a_report_keeps_each_deal_sets_figures_behind_its_intervals() -> None:
    figures = _known_report("one", [(0, 13), (13, 0), (5, 8)])["figures"]
    a = figures["bots"][0]  # type: ignore[index]
    assert a["by_deal_set"] == {"points_per_hand": [0, 13, 5], "margin": [13, -13, 3],
                                "win_rate_per_seat": [0.25, 0.25, 0.25]}
    assert a["margin"] == t_interval([13, -13, 3], within=(-26, 26)).to_json()


def test_pooled_reports_give_intervals_over_all_their_deal_sets() -> None:
    first = _known_report("one", [(0, 13), (13, 0)])
    second = _known_report("two", [(5, 8), (2, 9), (4, 4)])
    data = pool([first, second])
    figures = data["figures"]
    a, b = figures["bots"]
    assert a["by_deal_set"]["margin"] == [13, -13, 3, 7, 0]
    assert a["margin"] == t_interval([13, -13, 3, 7, 0]).to_json()
    assert b["points_per_hand"] == t_interval([13, 0, 8, 9, 4]).to_json()
    assert (figures["deal_sets"], figures["games"], figures["hands"]) == (5, 10, 10)
    assert figures["seed"] == "one two"
    assert a["seat_hands"] == 20
    assert a["wins"] == sum(r["figures"]["bots"][0]["wins"]  # type: ignore[index]
                            for r in (first, second))
    assert a["win_rate_per_seat"] == pytest.approx(a["wins"] / (10 * 2))
    # each deal set: A's two seats share the win of one of its two games
    assert a["win_rate"] == t_interval([0.25] * 5).to_json()
    assert f"{a['win_rate']['mean']:.3f} ± {a['win_rate']['half_width']:.3f}" \
        in format_report(data)
    assert data["timing"]["random#a"]["decisions"] == 20
    assert data["run"] == {"workers": 2, "wall_seconds": 2.0, "pooled": 2}
    assert data["code"] == first["code"] == playing_code()
    assert "2 reports pooled" in format_report(data)
    assert "seeds one two  5 deal sets" in format_report(data)


def test_a_pool_of_many_seeds_counts_them_in_its_header() -> None:
    many = pool([_known_report(f"s{n}", [(0, 13)]) for n in range(5)])
    header = format_report(many).splitlines()[0]
    assert "  5 seeds  5 deal sets" in header and "s3" not in header
    assert "seed s0  1 deal set x 2 rotations = 2 games, 2 hands" in format_report(
        _known_report("s0", [(0, 13)]))


def test_the_code_digest_changes_with_any_playing_source(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest covers every source under the playing packages, by content and name."""
    package = tmp_path / "hearts"
    for name in ("core/rules.py", "players/search/kernel.py", "arena/openspiel.py",
                 "arena/specs.py", "arena/report.py"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(f"# {name}\n")
    (package / "__init__.py").write_text("")
    monkeypatch.setattr(hearts, "__file__", str(package / "__init__.py"))

    def digest() -> str:
        playing_code.cache_clear()
        return playing_code()

    try:
        before = digest()
        (package / "arena/report.py").write_text("# the report's wording changed\n")
        assert digest() == before  # not a playing source
        (package / "players/search/kernel.py").write_text("# a policy changed\n")
        changed = digest()
        assert changed != before
        (package / "players/search/policy.py").write_text("")
        assert digest() != changed  # a new file counts, even empty
    finally:
        playing_code.cache_clear()


def test_only_reports_of_one_match_kind_pool() -> None:
    first = _known_report("one", [(0, 13)])
    with pytest.raises(ValueError, match="seed 'one' appears twice"):
        pool([first, first])
    other = _known_report("two", [(0, 13)])
    other["figures"]["rules"] = "card-commons"  # type: ignore[index]
    with pytest.raises(ValueError, match="only matches of one rules pool"):
        pool([first, other])
    older = _known_report("three", [(0, 13)])
    for bot in older["figures"]["bots"]:  # type: ignore[index]
        del bot["by_deal_set"]
    with pytest.raises(ValueError, match="from an older version"):
        pool([first, older])
    anonymous = _known_report("four", [(0, 13)])
    del anonymous["code"]
    with pytest.raises(ValueError, match="does not say which code played"):
        pool([first, anonymous])
    changed = _known_report("five", [(0, 13)])
    changed["code"] = "0123456789abcdef"
    with pytest.raises(ValueError, match="played by other code"):
        pool([first, changed])
    with pytest.raises(ValueError, match="not an arena report"):
        pool([{"format": "something else"}])
    with pytest.raises(ValueError, match="at least one"):
        pool([])


def test_reports_of_codes_shown_to_play_alike_pool_and_name_every_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A code in PLAYS_AS pools with the code it plays as, and with any later code of the
    same line; the pool names each code that played, and pools again."""
    line = {"b" * 16: "a" * 16, "c" * 16: "b" * 16}
    monkeypatch.setattr(match, "PLAYS_AS", line)
    first, second, third = (_known_report(seed, [(0, 13)]) for seed in ("one", "two", "three"))
    first["code"], second["code"], third["code"] = "c" * 16, "a" * 16, "c" * 16
    data = pool([first, second])
    assert data["code"] == "c" * 16 and data["codes"] == ["c" * 16, "a" * 16]
    assert f"codes {'c' * 16}, {'a' * 16}, which play alike" in format_report(data)
    assert pool([data, third])["codes"] == ["c" * 16, "a" * 16]
    assert "codes" not in pool([first, third]) and pool([first, third])["code"] == "c" * 16
    stranger = _known_report("four", [(0, 13)])
    stranger["code"] = "d" * 16
    with pytest.raises(ValueError, match=r"not shown to play alike \(hearts.arena.match"):
        pool([first, stranger])


def test_every_code_kept_as_playing_alike_leads_to_an_earlier_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PLAYS_AS holds digests as playing_code writes them, none its own earlier code, and
    first_code finds where a line starts; a loop in the table is refused, not followed."""
    for code, earlier in match.PLAYS_AS.items():
        assert re.fullmatch("[0-9a-f]{16}", code) and re.fullmatch("[0-9a-f]{16}", earlier)
        assert first_code(code) == first_code(earlier) != code
    monkeypatch.setattr(match, "PLAYS_AS", {"a" * 16: "b" * 16, "b" * 16: "a" * 16})
    with pytest.raises(ValueError, match="loops"):
        first_code("a" * 16)


def test_reports_from_before_the_win_rates_pool_without_their_interval() -> None:
    """A kept report with no win rates by deal set still pools: its wins count, and the
    pooled win rate has no interval rather than one over some of the deal sets."""
    older = _known_report("old", [(0, 13), (13, 0)])
    for bot in older["figures"]["bots"]:  # type: ignore[index]
        del bot["by_deal_set"]["win_rate_per_seat"]
        del bot["win_rate"]
    a = pool([older, _known_report("new", [(5, 8)])])["figures"]["bots"][0]
    assert a["win_rate"] is None and "win_rate_per_seat" not in a["by_deal_set"]
    assert a["win_rate_per_seat"] == pytest.approx(3 / (6 * 2))
    assert win_rate_text(a) == "0.250"


def test_the_text_report_fits_80_columns_where_its_bots_names_do() -> None:
    """A header of 92 columns, a table of 105 and a footnote of 227 once; now each fits a
    terminal of 80, every figure and every word of the footnote still there."""
    data = pool([_known_report("one", [(0, 13), (13, 0), (5, 8)]),
                 _known_report("two", [(2, 9), (4, 4)])])
    text = format_report(data)
    assert max(len(line) for line in text.splitlines()) <= REPORT_WIDTH == 80
    header, row = next((line, next_line) for line, next_line in
                       zip(text.splitlines(), text.splitlines()[1:], strict=False)
                       if line.startswith("bot "))
    assert header.split() == ["bot", "seats", "pts/hand", "margin", "moons", "win/seat",
                              "fallbacks", "p95"]
    a = data["figures"]["bots"][0]
    assert row.startswith("random#a ") and interval_text(a["points_per_hand"]) in row
    assert interval_text(a["margin"], signed=True) in row
    assert f"{a['moons_shot']}/{a['moons_allowed']}" in row
    words = " ".join(text.split())
    assert "margin: the other bots' points per hand minus this bot's (positive is better)" \
        in words
    assert "fallbacks: games in which a seat of the bot failed and a built-in bot finished " \
           "for it (and its moves)" in words


def _version_1(data: dict[str, object]) -> dict[str, object]:
    """``data`` as version 1 wrote it: ``moons_made`` for ``moons_shot``, no shared wins."""
    old = json.loads(json.dumps(data))
    old["version"] = 1
    for bot in old["figures"]["bots"]:
        bot["moons_made"] = bot.pop("moons_shot")
        del bot["shared_wins"]
    return old  # type: ignore[no-any-return]


def test_a_report_of_version_1_is_read_and_pooled_under_todays_names(tmp_path: Path) -> None:
    """Kept reports (benchmarks/results) named the moons a bot shot ``moons_made``: they
    are read, and pooled with today's, as ``moons_shot``; their shared wins were not
    counted, so a pool with one of them has none rather than a count of some games."""
    new = _known_report("new", [(5, 8)])
    older = _version_1(_known_report("old", [(0, 13), (13, 0)]))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(older), encoding="utf-8")
    read = read_report(path)
    assert [bot["moons_shot"] for bot in read["figures"]["bots"]] == [0, 0]
    assert not any("moons_made" in bot for bot in read["figures"]["bots"])
    pooled = pool([older, new])
    assert pooled["version"] == new["version"] == REPORT_VERSION == 2
    a = pooled["figures"]["bots"][0]
    assert "moons_made" not in a and a["moons_shot"] == 0
    assert a["shared_wins"] is None
    text = format_report(pooled)
    assert "wins: random#a 3.00, random#b 3.00\n" in text  # no shared count to show
    assert pool([new])["figures"]["bots"][0]["shared_wins"] == 2


def test_the_text_report_shows_wins_and_shared_wins_and_says_what_they_are() -> None:
    text = format_report(pool([_known_report("one", [(0, 13), (13, 0)])]))
    assert "wins: random#a 2.00 (4 shared), random#b 2.00 (4 shared)" in text
    assert ("wins: games won, a tie's win split among its winners (a tie of two: a half "
            "each); shared wins: games won in a tie, each counted whole") in " ".join(
                text.split())


def test_the_kept_reports_of_version_1_still_read() -> None:
    results = Path(hearts.__file__).parents[2] / "benchmarks" / "results"
    kept = sorted(results.glob("curve-alarm-budget-0.05-s28-*.json"))
    if not kept:
        pytest.skip("no kept reports in this tree")
    bots = pool([read_report(path) for path in kept])["figures"]["bots"]
    assert all(isinstance(bot["moons_shot"], int) for bot in bots)
