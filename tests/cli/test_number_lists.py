"""Comma-separated numbers on a command line (budgets, world counts, table counts): the
argparse types of ``hearts.cli.common`` read them (``test_benchmark_arguments`` checks
that the benchmark scripts refuse a bad list with a usage message naming it)."""

from __future__ import annotations

import argparse

import pytest

from hearts.cli.common import positive_ints, positive_numbers


def test_lists_are_read() -> None:
    assert positive_numbers("0.05,1") == [0.05, 1.0]
    assert positive_numbers("2") == [2.0]
    assert positive_ints("200,500") == [200, 500]


@pytest.mark.parametrize("text", ["", "x", "0.05,", "0", "-1", "nan", "inf", "1,,2", "1e7"])
def test_numbers_above_zero_refuse_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError,
                       match="numbers above 0 and at most 1,000,000 are expected"):
        positive_numbers(text)


@pytest.mark.parametrize("text", ["", "a", "0", "1.5", "4,-2", "3,"])
def test_whole_numbers_refuse_anything_else(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="whole numbers of at least 1"):
        positive_ints(text)
