"""The arena: matches between any bots on duplicate deals, with figures you can trust.

See :mod:`~hearts.arena.match` (playing), :mod:`~hearts.arena.report` (figures),
:mod:`~hearts.arena.specs` (naming bots) and :mod:`~hearts.arena.stats`.
"""

from hearts.arena.errors import ArenaError, BotSpecError
from hearts.arena.match import MatchConfig, MatchResult, rotations, run_match
from hearts.arena.report import (
    code_text,
    format_report,
    pool,
    pool_by,
    read_report,
    report,
    seeds_text,
    win_rate_text,
)
from hearts.arena.specs import BotSpec, build_player, default_fallback
from hearts.arena.stats import (
    Interval,
    interval_text,
    t_interval,
    target_verdict,
    welch_interval,
)

__all__ = [
    "ArenaError",
    "BotSpec",
    "BotSpecError",
    "Interval",
    "MatchConfig",
    "MatchResult",
    "build_player",
    "code_text",
    "default_fallback",
    "format_report",
    "interval_text",
    "pool",
    "pool_by",
    "read_report",
    "report",
    "rotations",
    "run_match",
    "seeds_text",
    "t_interval",
    "target_verdict",
    "welch_interval",
    "win_rate_text",
]
