"""Confidence intervals for arena figures.

Each duplicate deal set gives one sample of a bot's mean (its points per hand over
every rotation of those deals), so the samples are independent and the luck of the
cards largely cancels inside each one. The interval is Student's t on those samples.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Interval", "interval_text", "t_interval", "target_verdict", "welch_interval"]


@dataclass(frozen=True, slots=True)
class Interval:
    """A sample mean with its two-sided confidence interval (None bounds: too few samples)."""

    mean: float
    low: float | None
    high: float | None
    samples: int
    confidence: float

    @property
    def half_width(self) -> float | None:
        """Distance from the mean to either bound."""
        return None if self.high is None else self.high - self.mean

    def to_json(self, digits: int = 4) -> dict[str, object]:
        """A JSON-ready dict, rounded to ``digits`` decimals."""
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, digits)
        return {"mean": rounded(self.mean), "low": rounded(self.low),
                "high": rounded(self.high), "half_width": rounded(self.half_width),
                "samples": self.samples, "confidence": self.confidence}


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is between 0 and 1, not {confidence}")


def t_interval(samples: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``samples`` with Student's t interval (needs two samples for bounds)."""
    if not samples:
        raise ValueError("a confidence interval needs at least one sample")
    _check_confidence(confidence)
    mean = statistics.fmean(samples)
    n = len(samples)
    if n < 2:
        return Interval(mean, None, None, n, confidence)
    from scipy import stats  # imported here: it is slow to load and only reports need it

    quantile = float(stats.t.ppf((1 + confidence) / 2, n - 1))
    half = quantile * statistics.stdev(samples) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, confidence)


def welch_interval(before: Sequence[float], after: Sequence[float],
                   confidence: float = 0.95) -> Interval:
    """The mean of ``after`` less that of ``before``, two independent samples (other
    deals, or a bot that does not repeat its games from a seed), with Welch's t interval
    (needs two samples a side for bounds); ``samples`` counts both sides."""
    if not before or not after:
        raise ValueError("a difference of means needs at least one sample a side")
    _check_confidence(confidence)
    mean = statistics.fmean(after) - statistics.fmean(before)
    samples = len(before) + len(after)
    if len(before) < 2 or len(after) < 2:
        return Interval(mean, None, None, samples, confidence)
    if statistics.stdev(before) == statistics.stdev(after) == 0:
        return Interval(mean, mean, mean, samples, confidence)  # no spread: no doubt
    from scipy import stats

    test = stats.ttest_ind(after, before, equal_var=False)
    low, high = test.confidence_interval(confidence)
    return Interval(mean, float(low), float(high), samples, confidence)


def interval_text(value: Mapping[str, Any] | None, digits: int = 3, *, signed: bool = False,
                  bounds: bool = False) -> str:
    """An interval in ``to_json`` form as report lines write it: ``+1.23 ± 0.66``, with
    ``bounds`` ``+1.23 ± 0.66 (+0.56 to +1.89)``; the mean alone when one sample gave no
    bounds, and ``-`` for no interval at all."""
    if value is None:
        return "-"
    number = f"{'+' if signed else ''}.{digits}f"
    text = format(value["mean"], number)
    if value["half_width"] is None:
        return text
    text += f" ± {value['half_width']:.{digits}f}"
    if bounds:
        text += f" ({format(value['low'], number)} to {format(value['high'], number)})"
    return text


def target_verdict(mean: float, low: float | None, high: float | None, target: float, *,
                   at_most: bool = False) -> str:
    """Whether a figure meets its target (at least ``target``, or at most with ``at_most``):
    ``met (95%)`` when the whole interval does, ``met`` when only the estimate does,
    ``NOT met`` otherwise."""
    bound = high if at_most else low
    if bound is not None and (bound <= target if at_most else bound >= target):
        return "met (95%)"
    if mean <= target if at_most else mean >= target:
        return "met"
    return "NOT met"
