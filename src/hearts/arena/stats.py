"""How every command counts a game's win, and confidence intervals for arena figures.

A win has one meaning in ``hearts stats``, ``hearts simulate`` and the arena, asked here
(:func:`win_share`, :func:`shared_win`; :data:`WINS_MEANING` says it in words):
``wins`` splits a tie's win among its winners, so one game's wins add up to one and an
even share of them is one over the player count; ``shared_wins`` counts the games won in
a tie, each whole.

Each duplicate deal set gives one sample of a bot's mean (its points per hand over
every rotation of those deals), so the samples are independent and the luck of the
cards largely cancels inside each one. The interval is Student's t on those samples,
cut to the range the figure can take (a rate between 0 and 1), and it says when it is
not to be trusted (:attr:`Interval.doubts`): over fewer than :data:`TRUSTED_SAMPLES`
samples the t interval's normal approximation is weak, and samples that are all the same
give a width of zero, which is no measure of the figure's doubt.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["FEW_SAMPLES", "NO_SPREAD", "TRUSTED_SAMPLES", "WINS_MEANING", "WINS_SENTENCE",
           "Interval", "interval_text", "shared_win", "t_interval", "target_verdict",
           "welch_interval", "win_share"]

WINS_MEANING = ("wins: games won, a tie's win split among its winners (a tie of two: a "
                "half each); shared wins: games won in a tie, each counted whole")
"""The two win figures in words, for every command's help and notes."""
WINS_SENTENCE = WINS_MEANING[0].upper() + WINS_MEANING[1:]
""":data:`WINS_MEANING` to begin a sentence with."""


def win_share(winners: Collection[int], seat: int) -> float:
    """``seat``'s share of one game's win: 1 alone, 1/k in a tie of k ``winners``, 0 for
    a seat that did not win. Every command's ``wins`` adds these up, so one game's
    shares add up to one.

    >>> win_share((0,), 0), win_share((0, 2), 2), win_share((0, 2), 1)
    (1.0, 0.5, 0.0)
    """
    return 1 / len(winners) if seat in winners else 0.0


def shared_win(winners: Collection[int], seat: int) -> bool:
    """Whether ``seat`` won in a tie: one of every command's ``shared_wins``, counted
    whole (beside its :func:`win_share` of the game).

    >>> shared_win((0, 2), 2), shared_win((0,), 0), shared_win((0, 2), 1)
    (True, False, False)
    """
    return seat in winners and len(winners) > 1


TRUSTED_SAMPLES = 10
"""The fewest samples whose interval is to be trusted: below it an interval is flagged
(:data:`FEW_SAMPLES`)."""
FEW_SAMPLES = "few samples"
"""A doubt of an interval over fewer than :data:`TRUSTED_SAMPLES` samples."""
NO_SPREAD = "no spread"
"""A doubt of an interval whose samples are all the same: its width of zero says nothing
of how far the figure may be from its mean."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A sample mean with its two-sided confidence interval (None bounds: too few samples),
    and why it is not to be trusted (``doubts``: :data:`FEW_SAMPLES`, :data:`NO_SPREAD`;
    none for an interval to trust)."""

    mean: float
    low: float | None
    high: float | None
    samples: int
    confidence: float
    doubts: tuple[str, ...] = ()

    @property
    def half_width(self) -> float | None:
        """Distance from the mean to either bound: to the farther one where a bound was
        cut to the figure's range (so ``mean ± half_width`` holds the whole interval)."""
        if self.low is None or self.high is None:
            return None
        return max(self.high - self.mean, self.mean - self.low)

    def to_json(self, digits: int = 4) -> dict[str, object]:
        """A JSON-ready dict, rounded to ``digits`` decimals."""
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, digits)
        return {"mean": rounded(self.mean), "low": rounded(self.low),
                "high": rounded(self.high), "half_width": rounded(self.half_width),
                "samples": self.samples, "confidence": self.confidence,
                "doubts": list(self.doubts)}


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is between 0 and 1, not {confidence}")


def _doubts(samples: int, spread: bool) -> tuple[str, ...]:
    """Why an interval over ``samples`` samples (``spread``: not all the same) is not to be
    trusted."""
    return ((FEW_SAMPLES,) if samples < TRUSTED_SAMPLES else ()) + (
        () if spread or samples < 2 else (NO_SPREAD,))


def t_interval(samples: Sequence[float], confidence: float = 0.95, *,
               within: tuple[float | None, float | None] = (None, None)) -> Interval:
    """The mean of ``samples`` with Student's t interval (needs two samples for bounds),
    its bounds cut to ``within``, the lowest and the highest value the figure can take
    (None: no such bound), and its :attr:`~Interval.doubts`.

    >>> t_interval([0.0, 1.0], within=(0, 1)).low, t_interval([0.5, 0.5]).doubts
    (0.0, ('few samples', 'no spread'))
    """
    if not samples:
        raise ValueError("a confidence interval needs at least one sample")
    _check_confidence(confidence)
    mean = statistics.fmean(samples)
    n = len(samples)
    doubts = _doubts(n, len(set(samples)) > 1)
    if n < 2:
        return Interval(mean, None, None, n, confidence, doubts)
    from scipy import stats  # imported here: it is slow to load and only reports need it

    quantile = float(stats.t.ppf((1 + confidence) / 2, n - 1))
    half = quantile * statistics.stdev(samples) / math.sqrt(n)
    lowest, highest = within
    low = mean - half if lowest is None else max(float(lowest), mean - half)
    high = mean + half if highest is None else min(float(highest), mean + half)
    return Interval(mean, low, high, n, confidence, doubts)


def welch_interval(before: Sequence[float], after: Sequence[float],
                   confidence: float = 0.95) -> Interval:
    """The mean of ``after`` less that of ``before``, two independent samples (other
    deals, or a bot that does not repeat its games from a seed), with Welch's t interval
    (needs two samples a side for bounds); ``samples`` counts both sides, and the
    :attr:`~Interval.doubts` ask the smaller side."""
    if not before or not after:
        raise ValueError("a difference of means needs at least one sample a side")
    _check_confidence(confidence)
    mean = statistics.fmean(after) - statistics.fmean(before)
    samples = len(before) + len(after)
    doubts = _doubts(min(len(before), len(after)),
                     len(set(before)) > 1 or len(set(after)) > 1)
    if len(before) < 2 or len(after) < 2:
        return Interval(mean, None, None, samples, confidence, doubts)
    if NO_SPREAD in doubts:  # Welch's t has no interval without spread: one of no width
        return Interval(mean, mean, mean, samples, confidence, doubts)
    from scipy import stats

    test = stats.ttest_ind(after, before, equal_var=False)
    low, high = test.confidence_interval(confidence)
    return Interval(mean, float(low), float(high), samples, confidence, doubts)


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
