"""A match on a Ray cluster: every game of the duplicate deal sets as one Ray task.

Ray is optional (``pip install '.[cluster]'``). Each task runs the same work function as
the process pool, :func:`hearts.arena.match.play_game_task`, on the same
:class:`~hearts.arena.match.GameTask`, and every game and player is seeded from the match
seed, so a match gives the same figures on Ray as on any number of local workers.
Results are taken as they arrive, so progress moves with the cluster; the outcomes are
then put in deal-set order as :func:`~hearts.arena.match.run_match` does.

Every machine of the cluster needs this package installed (the tasks import it).
"""

from __future__ import annotations

import importlib
import logging
import time
from types import ModuleType

from hearts.arena.errors import ArenaError
from hearts.arena.match import (
    GameOutcome,
    MatchConfig,
    MatchResult,
    Progress,
    match_tasks,
    play_game_task,
    playing_code,
)

__all__ = ["run_match_ray"]


def _ray() -> ModuleType:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ArenaError("--ray needs Ray: pip install 'card-commons-hearts[cluster]' "
                         "(or '.[cluster]' in a checkout)") from None


def run_match_ray(config: MatchConfig, address: str | None = None, *,
                  progress: Progress | None = None) -> MatchResult:
    """Play every game of a match as Ray tasks.

    Uses the Ray session already started in this process if there is one; else connects
    to ``address`` (a cluster's ``HOST:PORT`` or ``ray://HOST:PORT``), or starts a local
    Ray when ``address`` is None, and shuts that session down afterwards.
    ``progress(done, total)`` is called as each game's result arrives.
    """
    ray = _ray()
    ours = not ray.is_initialized()
    if ours:
        try:
            ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING,
                     log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise ArenaError(f"could not reach Ray at {address or 'a new local cluster'}: "
                             f"{exc}") from None
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        tasks = match_tasks(config)
        play = ray.remote(play_game_task)
        code = playing_code()
        started = time.perf_counter()
        pending = [play.remote(task) for task in tasks]
        outcomes: list[GameOutcome] = []
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                outcomes.extend(ray.get(done))
                if progress is not None:
                    progress(len(outcomes), len(tasks))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        outcomes.sort(key=lambda o: (o.deal_set, o.rotation))
        return MatchResult(config, tuple(outcomes), workers, time.perf_counter() - started,
                           code)
    finally:
        if ours:
            ray.shutdown()
