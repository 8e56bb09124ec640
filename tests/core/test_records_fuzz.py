"""Fuzzing records: any mutation of a valid record replays to a state or is an
InvalidRecordError (and its deal check a verdict or that error), never another exception."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hearts_scenarios import json_paths, moon_hand, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import (
    GameState,
    InvalidRecordError,
    Rules,
    game_record,
    hand_record,
    parse_record,
    replay_game,
    replay_hand,
    verify_record,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
Replay = Callable[[Any], GameState]
BASES: list[tuple[dict[str, Any], Replay]] = [
    (game_record(random_game(Rules.preset_rules("card-commons", 3), 3, actions=150)),
     replay_game),
    (game_record(moon_hand()), replay_game),
    (hand_record(random_game(Rules.preset_rules("classic", 5), 8, actions=80)), replay_hand),
    (parse_record((GOLDEN / "hand-classic-moon-choice.json").read_text(encoding="utf-8")),
     replay_hand),
]

LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(-10**40, 10**40),
    st.floats(allow_nan=False), st.text(st.characters(exclude_categories=()), max_size=6),
    # lone surrogates too (JSON's "\ud800" escape): no UTF-8 can write them
    st.sampled_from(["QS", "2C", "AH", "10H", "subtract", "add", "3/1", "\ud800", "5/\udcff",
                     "standard", "classic",
                     "card-commons:players=3", "card-commons-hearts/game",
                     "card-commons-hearts/hand"]),
)
JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, Replay]:
    """A valid record with 1-4 edits: a node replaced, nudged, deleted, or a list cut or
    grown; stated facts (moon, pass_offset, round, points) are as likely as any node."""
    base, replay = draw(st.sampled_from(BASES))
    record = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        paths = json_paths(record)
        path = draw(st.sampled_from(paths[1:] or paths))
        parent: Any = record
        for key in path[:-1]:
            parent = parent[key]
        if not path:
            break
        key, node = path[-1], parent[path[-1]]
        how = draw(st.sampled_from(["replace", "nudge", "delete", "cut", "grow"]))
        if how == "nudge" and isinstance(node, int) and not isinstance(node, bool):
            parent[key] = node + draw(st.sampled_from([-1, 1]))
        elif how == "delete":
            del parent[key]
        elif how == "cut" and isinstance(node, list) and node:
            del node[draw(st.integers(0, len(node) - 1)):]
        elif how == "grow" and isinstance(node, list):
            node.append(copy.deepcopy(node[-1]) if node and draw(st.booleans()) else draw(JSON))
        else:
            parent[key] = draw(JSON)
    return record, replay


def _check(record: Any, replay: Replay) -> None:
    for attempt in (replay, verify_record):
        with contextlib.suppress(InvalidRecordError):
            attempt(record)
    text = json.dumps(record)
    try:
        again = parse_record(text)
    except InvalidRecordError:
        return
    with contextlib.suppress(InvalidRecordError):
        replay(again)


def test_the_bases_are_valid_records() -> None:
    for record, replay in BASES:
        assert replay(copy.deepcopy(record)).history


@settings(max_examples=200)
@given(mutated())
def test_a_mutated_record_replays_or_is_a_typed_error(case: tuple[Any, Replay]) -> None:
    _check(*case)


@settings(max_examples=100)
@given(st.binary(max_size=300))
def test_any_bytes_are_a_record_or_a_typed_error(raw: bytes) -> None:
    try:
        data = parse_record(raw.decode("utf-8", errors="surrogateescape"))
    except InvalidRecordError:
        return
    for attempt in (replay_game, replay_hand, verify_record):
        with contextlib.suppress(InvalidRecordError):
            attempt(data)


@pytest.mark.slow
@settings(max_examples=4000)
@given(mutated())
def test_a_mutated_record_replays_or_is_a_typed_error_deeply(case: tuple[Any, Replay]) -> None:
    _check(*case)
