"""``hearts verify``: deals and play of one record or of the arena's record lines (issue 11)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from hearts.core import Rules, game_record
from hearts.players import RandomPlayer, play_game

RULES = Rules.parse("card-commons:target=30")
STATE = play_game(RULES, [RandomPlayer(s) for s in range(4)], "v")
RECORD = game_record(STATE, seats=["Ann", "Bo", "Cy", "Di"])


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "records.jsonl"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _all_aces_of_spades() -> dict[str, Any]:
    record = copy.deepcopy(RECORD)
    for entry in record["rounds"]:
        entry["plays"] = ["AS"] * len(entry["plays"])
    return record


def test_a_valid_seeded_record_verifies_its_deals_and_its_play(hearts_main, tmp_path):
    status, out, _ = hearts_main("verify", _write(tmp_path, json.dumps(RECORD)))
    assert status == 0, out
    rounds = len(RECORD["rounds"])
    assert "round 1: OK  no commitment: a seeded deal, the hands match deal seed 'v/1'" in out
    assert f"{rounds} of {rounds} deals verified ({rounds} by the game seed alone" in out
    assert f"replay: OK  every action is legal and every stated result is right " \
           f"({rounds} rounds replayed)" in out


def test_a_record_whose_plays_are_all_the_ace_of_spades_fails_unless_deals_only(
        hearts_main, tmp_path):
    path = _write(tmp_path, json.dumps(_all_aces_of_spades()))
    status, out, _ = hearts_main("verify", path)
    assert status == 1
    assert "replay: FAIL  illegal action: round 1" in out
    status, out, _ = hearts_main("verify", "--deals-only", path)
    assert status == 0 and "replay" not in out


def test_verify_reads_standard_input(hearts_main):
    status, out, _ = hearts_main("verify", "-", stdin=json.dumps(RECORD))
    assert status == 0 and "replay: OK" in out
    status, out, _ = hearts_main("verify", "-", stdin=json.dumps(_all_aces_of_spades()))
    assert status == 1 and "replay: FAIL" in out


def test_verify_and_replay_read_the_arena_record_lines(hearts_cli, hearts_main, tmp_path):
    path = tmp_path / "arena.jsonl"
    done = hearts_cli("arena", "--bot", "random", "--bot", "random", "--rules",
                      "card-commons:target=20", "--deal-sets", "2", "--seed", "7", "--quiet",
                      "--workers", "1", "--records", str(path))
    assert done.returncode == 0, done.stderr
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 1
    status, out, err = hearts_main("verify", str(path))
    assert status == 0, out + err
    assert f"{path}: line 1 (deal set 0, rotation 0)" in out
    assert f"{len(lines)} of {len(lines)} records verified" in out
    status, out, err = hearts_main("replay", str(path))
    assert status == 0, err
    assert f"{path}: line 1 (deal set 0, rotation 0): a valid game record" in out
    assert f"{len(lines)} of {len(lines)} records valid" in out
    # one lying line fails alone, and the others are still checked
    bad = json.loads(lines[1])
    bad["record"]["rounds"][0]["pass_offset"] = 2
    lines[1] = json.dumps(bad)
    lines.append("{not json")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = hearts_main("replay", str(path))
    assert status == 1
    assert f"line 2 (deal set {bad['deal_set']}, rotation {bad['rotation']}): invalid record: " \
           "round 1: the record says pass_offset 2" in err
    assert f"line {len(lines)}: invalid record: not JSON" in err
    assert f"{len(lines) - 2} of {len(lines)} records valid" in out
    status, out, _ = hearts_main("verify", str(path))
    assert status == 1 and "; 2 FAILED" in out
    assert "FAIL  not a game record: not JSON" in out


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_bad_bytes_and_deep_nesting_are_one_error_line(hearts_cli, tmp_path, command):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{}")
    done = hearts_cli(command, str(path))
    assert done.returncode == 2 and "is not UTF-8 text" in done.stderr
    assert "Traceback" not in done.stderr
    done = hearts_cli(command, "-", stdin="[" * 100_000)
    # not a record at all: bad input (2) for both, as for every command
    assert done.returncode == 2
    assert "nested too deeply" in done.stderr and "Traceback" not in done.stderr
