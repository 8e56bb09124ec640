"""``hearts replay``: valid records print their sheet; a corrupted one names what is wrong."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from hearts.core import (
    Deal,
    GameState,
    Play,
    Rules,
    game_record,
    hand_record,
    new_game,
    record_seats,
)
from hearts.players import RandomPlayer, play_game

RULES_TEXTS = ["card-commons:target=40", "standard:target=40", "classic:players=5,target=40"]


def _game(text: str, seed: str = "rec") -> GameState:
    rules = Rules.parse(text)
    return play_game(rules, [RandomPlayer(s) for s in range(rules.players)], seed)


def _names(players: int) -> list[str]:
    return [f"Player {chr(65 + s)}" for s in range(players)]


def _write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _corrupt_first_restricted_play(state: GameState, record: dict[str, Any],
                                   following: bool) -> dict[str, Any]:
    """Swap the first play made from a restricted choice (a lead, or a card played to a
    trick already led) for a card of that hand the rules forbid; return where and what,
    as the core saw it."""
    replay = new_game(state.rules, state.seed)
    for action in state.history:
        if isinstance(action, Play) and bool(replay.trick) == following:
            forbidden = replay.hand(action.seat) - replay.legal_cards(action.seat)
            if forbidden:
                bad = next(iter(forbidden))
                index = replay.trick_no * replay.players + len(replay.trick)
                record["rounds"][replay.round_no - 1]["plays"][index] = str(bad)
                return {"round": replay.round_no, "trick": replay.trick_no + 1,
                        "seat": action.seat, "card": str(bad),
                        "legal": replay.legal_cards(action.seat).names()}
        if not isinstance(action, Deal):
            replay = replay.apply(action)
    raise AssertionError("no restricted play in this game")


@pytest.mark.parametrize("text", RULES_TEXTS)
def test_a_valid_game_record_prints_its_sheet_and_winners(hearts_cli, tmp_path, text):
    state = _game(text)
    names = _names(state.players)
    done = hearts_cli("replay", str(_write(tmp_path, game_record(state, seats=names))))
    assert done.returncode == 0, done.stderr
    assert f"a valid game record ({len(state.results)} rounds replayed and checked)" in done.stdout
    for result in state.results:
        assert f"{result.round_no:>4}. " in done.stdout
    won = ", ".join(names[s] for s in state.winners)
    assert f"Winner{'s' if len(state.winners) > 1 else ''}: {won}" in done.stdout


@pytest.mark.parametrize("following", [False, True], ids=["lead", "follow"])
@pytest.mark.parametrize("text", RULES_TEXTS)
def test_an_illegal_play_is_reported_with_round_trick_seat_card_and_alternatives(
        hearts_cli, tmp_path, text, following):
    state = _game(text)
    names = _names(state.players)
    record = game_record(state, seats=names)
    where = _corrupt_first_restricted_play(state, record, following)
    done = hearts_cli("replay", str(_write(tmp_path, record)))
    assert done.returncode == 1
    assert done.stdout == ""
    message = done.stderr
    assert f"round {where['round']}, trick {where['trick']}, seat {where['seat']}: " \
           f"{where['card']} cannot be played" in message
    assert f"(allowed: {' '.join(where['legal'])})" in message
    assert f"seat:    {where['seat']} ({names[where['seat']]})" in message
    assert f"card:    {where['card']}" in message
    assert f"allowed: {' '.join(where['legal'])}" in message


def test_a_wrong_total_is_reported(hearts_cli, tmp_path):
    record = game_record(_game("card-commons"), seats=None)
    record["rounds"][1]["totals"][0] += 1
    done = hearts_cli("replay", str(_write(tmp_path, record)))
    assert done.returncode == 1
    assert "round 2: the record says totals" in done.stderr


def test_a_hand_record_replays_from_standard_input(hearts_cli):
    state = _game("classic:players=3")
    record = hand_record(state, round_no=2)
    done = hearts_cli("replay", "-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    assert "<stdin>: a valid hand record (1 round replayed and checked)" in done.stdout
    result = state.results[1]
    assert "round 2, scores going in: " + ", ".join(map(str, state.results[0].totals)) \
        in done.stdout
    assert "   2. " in done.stdout and f"= {result.totals[0]}" in done.stdout
    # a hand record names no seats: the core's defaults, as `hearts analyze` names them
    assert "seats: 0: Seat 1 | 1: Seat 2 | 2: Seat 3" in done.stdout
    assert record_seats(record, 3) == ("Seat 1", "Seat 2", "Seat 3")


def test_an_unfinished_game_record_says_where_it_stops(hearts_cli, tmp_path):
    full = _game("card-commons")
    partial = new_game(full.rules, full.seed)
    for action in full.history[:40]:
        if not isinstance(action, Deal):
            partial = partial.apply(action)
    done = hearts_cli("replay", str(_write(tmp_path, game_record(partial))))
    assert done.returncode == 0, done.stderr
    assert "Not finished: the record stops in round 1 (play)." in done.stdout


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "<stdin>: not a record: not JSON"),
    ('{"format": "chess/pgn"}', "not a record: format must be 'card-commons-hearts/game' or"),
    ("[1, 2]", "not a record: a record is a JSON object"),
])
def test_what_is_not_a_record_is_bad_input_exit_2(hearts_cli, text, message):
    """No check can judge it: one error line and exit 2, as every command answers bad
    input (exit 1 is a record that failed its check, or a bug)."""
    done = hearts_cli("replay", "-", stdin=text)
    assert done.returncode == 2
    assert done.stderr.startswith("hearts: error: ") and message in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_bad_seat_names_are_an_invalid_record(hearts_cli, tmp_path):
    record = copy.deepcopy(game_record(_game("card-commons:target=30")))
    record["seats"] = ["only one"]
    done = hearts_cli("replay", str(_write(tmp_path, record)))
    assert done.returncode == 1
    assert "seats need 4 names" in done.stderr


def test_a_missing_file_exits_2(hearts_cli, tmp_path):
    done = hearts_cli("replay", str(tmp_path / "nothing.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr and "No such file" in done.stderr
