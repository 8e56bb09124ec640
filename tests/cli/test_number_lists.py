"""Comma-separated numbers on a command line (budgets, world counts, table counts): the
argparse types of ``hearts.cli.common`` read them, and every benchmark script that takes
such a list refuses a bad one with a usage message naming it, not a traceback."""

from __future__ import annotations

import argparse
import sys

import pytest
from tests.players.benchmark_scripts import load_benchmark

from hearts.cli.common import positive_ints, positive_numbers


def test_lists_are_read() -> None:
    assert positive_numbers("0.05,1") == [0.05, 1.0]
    assert positive_numbers("2") == [2.0]
    assert positive_ints("200,500") == [200, 500]


@pytest.mark.parametrize("text", ["", "x", "0.05,", "0", "-1", "nan", "inf", "1,,2"])
def test_numbers_above_zero_refuse_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="numbers above 0 are expected"):
        positive_numbers(text)


@pytest.mark.parametrize("text", ["", "a", "0", "1.5", "4,-2", "3,"])
def test_whole_numbers_refuse_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="whole numbers of at least 1"):
        positive_ints(text)


@pytest.mark.parametrize(("script", "option", "value"), [
    ("search_timing", "--budgets", "x"),
    ("strength_curve", "--budgets", "0.05,soon"),
    ("strength_curve", "--worlds", "0,5"),
    ("search_inference", "--trusts", "0.5,-1"),
    ("load", "--tables", "10,a"),
])
def test_benchmarks_refuse_a_bad_list_by_name(script: str, option: str, value: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    main = load_benchmark(script).main
    monkeypatch.setattr(sys, "argv", [f"{script}.py", option, value])
    with pytest.raises(SystemExit) as stopped:
        main() if script == "load" else main([option, value])
    assert stopped.value.code == 2
    assert f"argument {option}: comma-separated" in capsys.readouterr().err
