"""The replay's analysis of fixed records, figure for figure as recorded.

The web replay page (``POST /api/replay?analyze=1``) and the terminal replay
(``hearts replay FILE --step --analyze``) show :func:`hearts.replay.analyze_for_replay`'s
judgement, marked on frames by :func:`~hearts.replay.marked_decisions`, the costliest
listed by :func:`~hearts.replay.most_costly`. It is seeded, so the same record must show
the same figures every time; they once changed silently when the analysis's seeding did.
This test runs that path for two golden records (a hand that ends in the moon choice, and
a three-player game with passes over eight rounds, one seat a person) at a small budget of
sampled deals, and compares every figure with ``replay_analysis_golden.json``, which also
names the seed and budget the replay serves, so changing either fails here too.

A change that means to alter the figures (the search, its seeding, the replay's seed or
budget) re-records the file, and says so in review::

    .venv/bin/python -m tests.players.test_replay_analysis_golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final
from unittest import mock

from hearts import replay

GOLDEN: Final = Path(__file__).with_name("replay_analysis_golden.json")
RECORDS: Final = Path(__file__).parents[1] / "golden"
ITERATIONS: Final = 20
"""Deals sampled a decision here: the served budget's figures would take a minute."""


def _cases() -> dict[str, dict[str, Any]]:
    """The records analysed, by name: a hand judged for every seat (no one is named a
    person), and a game whose record says seat 1 was the person."""
    hand = json.loads((RECORDS / "hand-classic-moon-choice.json").read_text())
    game = json.loads((RECORDS / "game-card-commons-3p.json").read_text())
    return {"hand-classic-moon-choice": hand,
            "game-card-commons-3p, seat 1 a person": {**game, "people": [1]}}


def served_figures(record: dict[str, Any]) -> dict[str, Any]:
    """What a replay shows of its record's analysis, at :data:`ITERATIONS` deals a
    decision: the analysis, its decisions marked on their frames, the costliest listed."""
    with mock.patch.object(replay, "ANALYSIS_ITERATIONS", ITERATIONS):
        analysis = replay.analyze_for_replay(record)
    decisions = replay.marked_decisions(replay.build_replay(record), analysis)
    return {**analysis, "decisions": decisions,
            "costly": [d["index"] for d in replay.most_costly(decisions)]}


def recording() -> dict[str, Any]:
    """The golden file's content, worked out now."""
    return {"served": {"seed": replay.ANALYSIS_SEED, "iterations": replay.ANALYSIS_ITERATIONS},
            "cases": {name: served_figures(record) for name, record in _cases().items()}}


def golden_text(value: Any, depth: int = 0) -> str:
    """JSON with the top levels opened up and each deeper object (a decision, a seat's
    summary) and each list of plain values on a line of its own: a re-recording's diff
    names the decisions that changed."""
    plain = isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)
    if depth > 3 or plain or not isinstance(value, dict | list) or not value:
        return json.dumps(value)
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(key)}: {golden_text(item, depth + 1)}"
                 for key, item in value.items()]
        opened, closed = "{", "}"
    else:
        items = [f"{pad}{golden_text(item, depth + 1)}" for item in value]
        opened, closed = "[", "]"
    return f"{opened}\n" + ",\n".join(items) + f"\n{' ' * depth}{closed}"


def _recorded() -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(GOLDEN.read_text())
    return recorded


def test_the_replay_serves_the_recorded_seed_and_budget() -> None:
    assert _recorded()["served"] == {"seed": replay.ANALYSIS_SEED,
                                     "iterations": replay.ANALYSIS_ITERATIONS}, \
        "the replay's analysis seed or budget changed: re-record (see the module's docstring)"


def test_the_replays_analysis_shows_the_recorded_figures() -> None:
    recorded = _recorded()["cases"]
    assert set(recorded) == set(_cases())
    for name, record in _cases().items():
        now, then = served_figures(record), recorded[name]
        changed = [d["index"] for d, was in zip(now["decisions"], then["decisions"],
                                                strict=False) if d != was]
        assert now == then, f"{name}: decisions {changed[:10]} (of {len(changed)}) now differ"


def test_the_recorded_cases_reach_what_they_pin() -> None:
    """The hand's shooter chooses, the game passes; both have costly decisions, and
    the game judges its person's seat alone."""
    hand, game = _recorded()["cases"].values()
    assert [d["kind"] for d in hand["decisions"]].count("moon") == 1
    assert {d["kind"] for d in game["decisions"]} == {"pass", "play"}
    assert hand["costly"] and game["costly"]
    assert game["seats"] == [1] and {d["seat"] for d in game["decisions"]} == {1}
    assert hand["seats"] == [0, 1, 2, 3]


if __name__ == "__main__":
    GOLDEN.write_text(golden_text(recording()) + "\n")
