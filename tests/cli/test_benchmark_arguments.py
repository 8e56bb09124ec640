"""The benchmark scripts refuse a bad option value with a usage message naming the option
(exit 2) before any work, never a traceback minutes in: the argparse types of
``hearts.cli.common`` read every value the scripts parse later (rules, bot specs, levels,
counts, comma lists)."""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import pytest
from tests.players.benchmark_scripts import BENCHMARKS, load_benchmark

from hearts.cli.common import (
    bot_spec,
    comma_list,
    fraction,
    non_negative_int,
    positive_number,
    rules_text,
)

# (script, option, bad value, what the message says): every option a script types
REFUSED_WHILE_PARSING = [
    ("budget_agreement", "--level", "normal", "invalid choice: 'normal'"),
    ("budget_agreement", "--reference", "0", "a number above 0"),
    ("budget_agreement", "--budgets", "0.05,never", "comma-separated"),
    ("budget_agreement", "--rules", "bogus", "unknown preset 'bogus'"),
    ("budget_agreement", "--games", "0", "at least 1"),
    ("compare_reports", "--a", "no-such-report.json", "no such file: 'no-such-report.json'"),
    ("compare_reports", "--b", "no-such-report.json", "no such file"),
    ("engine_instructions", "--preset", "bogus", "unknown preset 'bogus'"),
    ("engine_instructions", "--games", "-1", "at least 0"),
    ("engine_instructions", "--warm", "many", "at least 0"),
    ("engine_speed", "--seconds", "0", "above 0"),
    ("engine_speed", "--preset", "standard:foo=1", "unknown rule option 'foo'"),
    ("env_speed", "--seconds", "-2", "above 0"),
    ("env_speed", "--rules", "bogus", "unknown preset 'bogus'"),
    ("fit_win_model", "--rules", "bogus", "unknown preset 'bogus'"),
    ("fit_win_model", "--games", "0", "at least 1"),
    ("fit_win_model", "--rounds", "8,0", "comma-separated"),
    ("load", "--tables", "10,a", "comma-separated"),
    ("load", "--seconds", "0", "above 0"),
    ("load", "--level", "nobody", "unknown level 'nobody'"),
    ("load", "--slow", "-1", "at least 0"),
    ("load", "--server-cpu", "-1", "at least 0"),
    ("load", "--client-cpu", "one", "at least 0"),
    ("load", "--repeat", "0", "at least 1"),
    ("load", "--hint-flood", "-3", "at least 0"),
    ("load", "--warmup", "-1", "at least 0"),
    ("load", "--bot-delay", "nan", "at least 0"),
    ("load", "--think", "inf", "at least 0"),
    ("load_cluster", "--tables", "0", "at least 1"),
    ("load_cluster", "--step", "0", "at least 1"),
    ("load_cluster", "--p99", "0", "above 0"),
    ("load_cluster", "--most", "-3", "at least 1"),
    ("load_cluster", "--seconds", "nan", "above 0"),
    ("load_cluster", "--level", "nobody", "unknown level 'nobody'"),
    ("load_cluster", "--warmup", "-1", "at least 0"),
    ("load_cluster", "--bot-delay", "x", "at least 0"),
    ("load_cluster", "--think", "-0.5", "at least 0"),
    ("loop_floor", "--seconds", "0", "above 0"),
    ("message_cost", "--rules", "bogus", "unknown preset 'bogus'"),
    ("message_cost", "--games", "0", "at least 1"),
    ("message_cost", "--repeats", "0", "at least 1"),
    ("message_cost", "--connected", "0", "at least 1"),
    ("moon", "--rules", "bogus", "unknown preset 'bogus'"),
    ("moon", "--defenders", "normal,nobody", "unknown level 'nobody'"),
    ("moon", "--attackers", "nobody", "unknown level 'nobody'"),
    ("moon", "--deal-sets", "0", "at least 1"),
    ("moon", "--iterations", "0", "at least 1"),
    ("moon", "--workers", "-3", "at least 1"),
    ("openspiel_ismcts", "--search", "nobody", "unknown bot 'nobody'"),
    ("openspiel_ismcts", "--sims", "0", "at least 1"),
    ("openspiel_ismcts", "--deal-sets", "0", "at least 1"),
    ("openspiel_ismcts", "--rules", "bogus", "unknown preset 'bogus'"),
    ("openspiel_ismcts", "--workers", "0", "at least 1"),
    ("openspiel_ismcts", "--target", "-1", "at least 0"),
    ("openspiel_ismcts", "--uct", "0", "above 0"),
    ("openspiel_ismcts", "--pool", "no-such-report.json", "no such file"),
    ("playout_agreement", "--player", "foo", "unknown bot 'foo'"),
    ("playout_agreement", "--policies", "lead,clever", "unknown policy 'clever'"),
    ("playout_agreement", "--games", "0", "at least 1"),
    ("playout_agreement", "--rules", "standard:players=3",
     "standard is played by 4 players, not 3"),
    ("playout_speed", "--rules", "bogus", "unknown preset 'bogus'"),
    ("playout_speed", "--seconds", "0", "above 0"),
    ("playout_speed", "--policies", "lead,clever", "unknown policy 'clever'"),
    ("positions", "--levels", "normal,nobody", "unknown level 'nobody'"),
    ("positions", "--iterations", "0", "at least 1"),
    ("rulebased_quick", "--deals", "0", "at least 1"),
    ("rulebased_quick", "--levels", "easy,nobody", "unknown level 'nobody'"),
    ("rulebased_quick", "--presets", "standard,bogus", "unknown preset 'bogus'"),
    ("rulebased_quick", "--opponents", "nobody", "unknown level 'nobody'"),
    ("rulebased_quick", "--profile", "-1", "at least 0"),
    ("rulebased_quick", "--repeat", "-1", "at least 0"),
    ("rulebased_quick", "--sort", "bogus", "invalid choice: 'bogus'"),
    ("same_play", "--old", "no-such-revision", "'no-such-revision' is not a commit"),
    ("same_play", "--new", "HEAD~100000", "is not a commit"),
    ("same_play", "--bot", "nobody", "unknown bot 'nobody'"),
    ("same_play", "--rules", "bogus", "unknown preset 'bogus'"),
    ("same_play", "--deal-sets", "0", "at least 1"),
    ("search_inference", "--games", "0", "at least 1"),
    ("search_inference", "--opponents", "expert:bogus=1", "takes no option 'bogus'"),
    ("search_inference", "--rules", "bogus", "unknown preset 'bogus'"),
    ("search_inference", "--trusts", "0.5,-1", "above 0 and at most 1"),
    ("search_inference", "--trusts", "0.5,1.5", "above 0 and at most 1"),
    ("search_inference", "--worlds", "0", "at least 1"),
    ("search_inference", "--from-trick", "-1", "at least 0"),
    ("search_timing", "--levels", "hard,normal", "unknown level 'normal'"),
    ("search_timing", "--rules", "bogus", "unknown preset 'bogus'"),
    ("search_timing", "--games", "0", "at least 1"),
    ("search_timing", "--budgets", "x", "comma-separated"),
    ("solve_cost", "--solve", "-1", "at least 0"),
    ("solve_cost", "--worlds", "0", "at least 1"),
    ("solve_cost", "--rules", "bogus", "unknown preset 'bogus'"),
    ("solve_cost", "--games", "0", "at least 1"),
    ("startup", "--runs", "0", "at least 1"),
    ("startup", "--target", "0", "above 0"),
    ("strength", "targets", "x", "unknown target 'x'"),
    ("strength", "--presets", "standard,bogus", "unknown preset 'bogus'"),
    ("strength", "--rule-based", "easy,nobody", "unknown bot 'nobody'"),
    ("strength", "--search", "expert:bogus=1", "takes no option 'bogus'"),
    ("strength", "--levels", "nobody", "unknown bot 'nobody'"),
    ("strength", "--deal-sets", "0", "at least 1"),
    ("strength", "--timing-deal-sets", "0", "at least 1"),
    ("strength", "--workers", "0", "at least 1"),
    ("strength_curve", "--rules", "bogus", "unknown preset 'bogus'"),
    ("strength_curve", "--target", "0", "at least 1"),
    ("strength_curve", "--budgets", "0.05,soon", "comma-separated"),
    ("strength_curve", "--worlds", "0,5", "comma-separated"),
    ("strength_curve", "--level", "nobody", "unknown level 'nobody'"),
    ("strength_curve", "--opponent", "nobody", "unknown bot 'nobody'"),
    ("strength_curve", "--deal-sets", "0", "at least 1"),
    ("strength_curve", "--workers", "0", "at least 1"),
    ("strength_paired", "--a", "nobody", "unknown bot 'nobody'"),
    ("strength_paired", "--b", "expert:playout=bogus", "unknown playout 'bogus'"),
    ("strength_paired", "--opponent", "nobody", "unknown bot 'nobody'"),
    ("strength_paired", "--rules", "bogus", "unknown preset 'bogus'"),
    ("strength_paired", "--target", "-5", "at least 1"),
    ("strength_paired", "--deal-sets", "0", "at least 1"),
    ("strength_paired", "--workers", "0", "at least 1"),
    ("table_cost", "--tables", "0", "at least 1"),
    ("table_cost", "--level", "nobody", "unknown level 'nobody'"),
    ("table_cost", "--sweep", "0", "above 0"),
    ("table_cost", "--profile", "-1", "at least 0"),
    ("ws_floor", "--level", "nobody", "unknown level 'nobody'"),
    ("ws_floor", "--port", "70000", "a port from 1 to 65535 is expected"),
    ("ws_floor", "--bot-delay", "-1", "at least 0"),
]

# values each option takes alone but not with the others: checked right after parsing
REFUSED_AFTER_PARSING = [
    ("engine_instructions", "--games", "0", "at least 1 game", ()),
    ("message_cost", "--connected", "5", "at most the 4 seats of standard, not 5", ()),
    ("message_cost", "--connected", "4", "at most the 3 seats of card-commons:players=3",
     ("--rules", "card-commons:players=3")),
    ("strength_curve", "--target", "20000", "target must be a positive score", ()),
    ("strength_curve", "--level", "normal", "takes no option 'budget'", ()),
    ("strength_curve", "--options", "bogus=1", "takes no option 'bogus'", ()),
    ("strength_paired", "--target", "20000", "target must be a positive score",
     ("--a", "normal", "--b", "easy")),
    ("search_inference", "--from-trick", "13", "13 tricks, so at most 12 is allowed", ()),
    ("search_inference", "--from-trick", "10", "10 tricks, so at most 9 is allowed",
     ("--rules", "classic:players=5")),
    ("load_cluster", "--most", "100", "--most must be at least that, not 100",
     ("--db", "postgresql://nowhere", "--bus", "redis://nowhere", "--tables", "200")),
]

# what a script needs besides its defaults to start its work
_REQUIRED = {"ws_floor": ["--port", "8000"], "same_play": ["--old", "HEAD"],
             "compare_reports": ["--a", str(BENCHMARKS / "compare_reports.py"),
                                 "--b", str(BENCHMARKS / "compare_reports.py")]}


class _NoUsageError(Exception):
    """Parsing stopped on no usage error: the script would have started its work."""


@pytest.fixture
def stop_after_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing that passes raises :class:`_NoUsageError`, so that no test runs a benchmark (a
    script that took a bad value would)."""
    parse = argparse.ArgumentParser.parse_args

    def parse_only(self: argparse.ArgumentParser, args: Sequence[str] | None = None,
                   namespace: argparse.Namespace | None = None) -> NoReturn:
        parse(self, args, namespace)
        raise _NoUsageError

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_only)


def _run_main(script: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The script's ``main`` on ``argv`` (as its command line where it reads that itself)."""
    main = load_benchmark(script).main
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *argv])
    if inspect.signature(main).parameters:
        main(argv)
    else:
        main()


def _refusal(script: str, option: str, argv: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> str:
    """The usage message with which the script stops, naming ``option``."""
    with pytest.raises(SystemExit) as stopped:
        _run_main(script, argv, monkeypatch)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    # an option with two names (--sims/--simulations) is named by both
    assert re.search(rf"error: argument {re.escape(option)}(/[\w-]+)*: ", error), error
    return error


@pytest.mark.usefixtures("stop_after_parsing")
@pytest.mark.parametrize(("script", "option", "value", "says"), REFUSED_WHILE_PARSING)
def test_a_bad_value_is_a_usage_message(script: str, option: str, value: str, says: str,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [option, value] if option.startswith("-") else [value]
    assert says in _refusal(script, option, argv, monkeypatch, capsys)


@pytest.mark.parametrize(("script", "option", "value", "says", "others"), REFUSED_AFTER_PARSING)
def test_a_value_wrong_with_the_others_is_a_usage_message(
        script: str, option: str, value: str, says: str, others: tuple[str, ...],
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert says in _refusal(script, option, [*others, option, value], monkeypatch, capsys)


SCRIPTS = sorted(path.stem for path in BENCHMARKS.glob("*.py"))


def test_every_script_is_checked() -> None:
    assert sorted({case[0] for case in REFUSED_WHILE_PARSING}) == SCRIPTS


@pytest.mark.usefixtures("stop_after_parsing")
@pytest.mark.parametrize("script", SCRIPTS)
def test_the_defaults_pass_their_types(script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(_NoUsageError):
        _run_main(script, _REQUIRED.get(script, []), monkeypatch)


def test_a_rules_text_is_read_as_its_rules() -> None:
    rules = rules_text("standard:rounds=8")
    assert rules.players == 4 and rules.text == "standard:rounds=8"


@pytest.mark.parametrize(("read", "text", "says"), [
    (rules_text, "bogus", "unknown preset 'bogus'; presets are: card-commons, standard, classic"),
    (rules_text, "standard:foo=1", "unknown rule option 'foo'; options are: players"),
    (rules_text, "classic:players=9", "2 to 6 players, not 9"),
    (bot_spec, "nobody", "unknown bot 'nobody'; bots are random"),
    (bot_spec, "expert:bogus=1", "level expert takes no option 'bogus'"),
    (bot_spec, "hard:playout=bogus", "unknown playout 'bogus'"),
    (bot_spec, "normal:iterations=5", "level normal takes no option 'iterations'"),
    (bot_spec, "expert:iterations", "options are written key=value"),
    (bot_spec, "ext:", "ext: needs a command"),
])
def test_a_bad_rules_text_or_bot_spec_is_refused_with_the_reason(
        read: Callable[[str], object], text: str, says: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(says)):
        read(text)


@pytest.mark.parametrize("text", ["normal", "expert:iterations=300,playout=lead", "random#a",
                                  "ismcts:sims=10", "ext:python3 bot.py"])
def test_a_bot_spec_is_kept_as_given(text: str) -> None:
    assert bot_spec(text) == text


def test_counts_and_numbers_are_read() -> None:
    assert non_negative_int("0") == 0
    assert positive_number("0.25") == 0.25
    assert comma_list(non_negative_int)("0,3") == [0, 3]
    assert comma_list(fraction)("0.25,1") == [0.25, 1.0]
    with pytest.raises(argparse.ArgumentTypeError, match="at least 0"):
        comma_list(non_negative_int)("0,-3")
    with pytest.raises(argparse.ArgumentTypeError, match="a number above 0"):
        positive_number("inf")
