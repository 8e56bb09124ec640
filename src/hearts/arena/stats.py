"""Confidence intervals for arena figures.

Each duplicate deal set gives one sample of a bot's mean (its points per hand over
every rotation of those deals), so the samples are independent and the luck of the
cards largely cancels inside each one. The interval is Student's t on those samples.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Interval", "t_interval"]


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


def t_interval(samples: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``samples`` with Student's t interval (needs two samples for bounds)."""
    if not samples:
        raise ValueError("a confidence interval needs at least one sample")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is between 0 and 1, not {confidence}")
    mean = statistics.fmean(samples)
    n = len(samples)
    if n < 2:
        return Interval(mean, None, None, n, confidence)
    from scipy import stats  # imported here: it is slow to load and only reports need it

    quantile = float(stats.t.ppf((1 + confidence) / 2, n - 1))
    half = quantile * statistics.stdev(samples) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, confidence)
