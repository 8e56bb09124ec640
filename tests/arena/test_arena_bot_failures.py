"""An outside bot that fails, and one that changes: its fallback's play is not its own
(its timing, the report's flag, ``--strict``), and its name in ``ready`` keeps one
version's reports from pooling with another's."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from hearts.arena import ArenaError, MatchConfig, format_report, pool, report, run_match
from hearts.cli.main import main
from hearts.core import Rules

RULES = Rules.parse("standard:target=30")
SCRIPT = Path(__file__).with_name("scripted_bot.py")


def _bot(mode: str) -> str:
    return "ext:" + shlex.join([sys.executable, str(SCRIPT), mode])


def _match(mode: str, seed: str = "fail") -> dict[str, object]:
    config = MatchConfig(RULES, (_bot(mode), "random") * 2, 1, seed, fallback="random",
                         startup_timeout=0.5)
    return report(run_match(config))


def _words(text: str) -> str:
    return " ".join(text.split())


def test_a_bot_that_never_said_ready_has_no_decisions_and_its_figures_are_flagged() -> None:
    """The audit's bot that never got past hello was timed at 140 decisions, p95 0.033
    ms: all its fallback's. Its own timing is empty; the fallback's moves are counted
    apart, and the report says that its points include the fallback's play."""
    data = _match("nohello")
    bot = _bot("nohello")
    timing = data["timing"][bot]  # type: ignore[index]
    assert timing["decisions"] == 0 and timing["p95_ms"] is None
    assert timing["cpu"]["p95_ms"] is None
    ext = data["figures"]["bots"][0]  # type: ignore[index]
    assert ext["bot"] == bot and ext["fallbacks"] == 2 and ext["fallback_moves"] > 0
    assert ext["includes_fallback"] is True
    assert "at hello: no answer within 0.5 s" in ext["errors"][0]
    assert data["figures"]["bots"][1]["includes_fallback"] is False  # type: ignore[index]
    text = _words(format_report(data))
    assert "seat taken over in 2 games; those games' points include the fallback's play" \
        in text
    assert "fallback: deal set 0, rotation 0, seat 0: at hello" in text
    row = next(line for line in format_report(data).splitlines() if line.startswith(bot))
    assert row.endswith(" -")  # no p95 of its own


def test_a_bot_that_crashes_mid_game_is_timed_on_its_own_decisions_alone() -> None:
    """The bot answers four decisions and exits at its fifth: four timed a seat and
    game, and every later one (the fifth among them) is its fallback's."""
    config = MatchConfig(RULES, (_bot("crash"), "random") * 2, 1, "crash", fallback="random")
    result = run_match(config)
    for outcome in result.outcomes:
        for seat, text in enumerate(outcome.seating):
            if text == _bot("crash"):
                assert len(outcome.decision_seconds[seat]) == 4
                assert len(outcome.decision_cpu_seconds[seat]) == 4
                assert outcome.fallback_moves[seat] > 0
    data = report(result)
    assert data["timing"][_bot("crash")]["decisions"] == 4 * 2 * 2  # seats x rotations


def _arena(*argv: str) -> list[str]:
    return ["arena", "--rules", "standard:target=30", "--deal-sets", "1", "--seed", "strict",
            "--workers", "1", "--quiet", "--fallback", "random", "--bot-start-timeout", "0.5",
            *argv]


def test_strict_exits_1_after_the_report_when_a_bot_failed(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_arena("--bot", _bot("nohello"), "--bot", "random", "--strict", "--json")) == 1
    captured = capsys.readouterr()
    figures = json.loads(captured.out)["figures"]  # the whole report was written first
    assert figures["bots"][0]["fallbacks"] == 2
    assert "--strict" in captured.err and "taken over in 2 games" in captured.err
    # without --strict the same match ends 0, as before
    assert main(_arena("--bot", _bot("nohello"), "--bot", "random")) == 0
    assert "seat taken over in 2 games" in _words(capsys.readouterr().out)
    # a match with no failure passes --strict
    assert main(_arena("--bot", _bot("good"), "--bot", "random", "--strict")) == 0


def test_strict_is_said_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    help_text = _words(capsys.readouterr().out)
    assert "--strict exit with status 1, after writing the report, when any bot failed" \
        in help_text


def test_the_report_keeps_the_name_an_outside_bot_gave_in_ready(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPTED_BOT_NAME", "h75 bot 1.0")
    data = _match("good")
    ext, builtin = data["figures"]["bots"]  # type: ignore[index]
    assert ext["ready_names"] == ["h75 bot 1.0"] and ext["includes_fallback"] is False
    assert "ready_names" not in builtin
    assert data["timing"][_bot("good")]["decisions"] > 0  # type: ignore[index]
    assert "ready as 'h75 bot 1.0'" in format_report(data)
    assert pool([data])["figures"]["bots"][0]["ready_names"] == ["h75 bot 1.0"]


def test_reports_of_two_versions_of_one_bot_do_not_pool(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One spec, one command line, but the program changed between the runs: the code
    digest covers our sources alone, so the name the bot gives tells the versions apart."""
    monkeypatch.setenv("SCRIPTED_BOT_NAME", "h75 bot 1.0")
    old = _match("good", "v1")
    monkeypatch.setenv("SCRIPTED_BOT_NAME", "h75 bot 1.1")
    new = _match("good", "v2")
    with pytest.raises(ArenaError, match=r"said it is 'h75 bot 1.0' in the match of seed "
                                         r"'v1' and 'h75 bot 1.1' in the match of seed 'v2'"):
        pool([old, new])
    paths = []
    for name, data in (("old", old), ("new", new)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(data), encoding="utf-8")
    assert main(["arena", "--pool", *map(str, paths)]) == 2
    err = capsys.readouterr().err
    assert "'h75 bot 1.0'" in err and "'h75 bot 1.1'" in err
    # the same version pools, and a report from before the names pools as before
    monkeypatch.setenv("SCRIPTED_BOT_NAME", "h75 bot 1.1")
    assert pool([new, _match("good", "v3")])["figures"]["bots"][0]["ready_names"] == [
        "h75 bot 1.1"]
    for bot in old["figures"]["bots"]:  # type: ignore[index]
        bot.pop("ready_names", None)
    assert pool([old, new])["figures"]["bots"][0]["ready_names"] == ["h75 bot 1.1"]
