"""Golden game records: every stored game replays to identical results, every preset has one."""

from __future__ import annotations

from pathlib import Path

import pytest

from hearts.core import (
    PRESETS,
    Rules,
    game_record,
    hand_record,
    parse_record,
    replay_game,
    replay_hand,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GAMES = sorted(GOLDEN.glob("game-*.json"))
HANDS = sorted(GOLDEN.glob("hand-*.json"))


def _load(path: Path) -> dict[str, object]:
    return parse_record(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_golden_game_replays_to_identical_results(path: Path) -> None:
    record = _load(path)
    assert record["complete"] is True
    rounds = record["rounds"]
    assert isinstance(rounds, list) and all("points" in r and "totals" in r for r in rounds)
    state = replay_game(record)  # checks every action and every stated result
    assert game_record(state, record["seats"]) == record  # type: ignore[arg-type]
    assert list(state.totals) == record["totals"] and list(state.winners) == record["winners"]


@pytest.mark.parametrize("path", HANDS, ids=[p.stem for p in HANDS])
def test_a_golden_hand_replays_to_identical_results(path: Path) -> None:
    record = _load(path)
    state = replay_hand(record)
    assert hand_record(state) == record


def test_every_preset_has_a_golden_game() -> None:
    covered = {Rules.parse(str(_load(p)["rules"])).preset for p in GAMES}
    missing = set(PRESETS) - covered
    assert not missing, f"no golden game for {sorted(missing)}: run scripts/make_golden.py"


def test_every_player_count_of_classic_has_a_golden_game() -> None:
    counts = {Rules.parse(str(_load(p)["rules"])).players for p in GAMES
              if Rules.parse(str(_load(p)["rules"])).preset == "classic"}
    assert counts == {2, 3, 4, 5, 6}


def test_a_golden_hand_holds_a_shooters_choice() -> None:
    moons = [_load(p).get("moon") for p in HANDS]
    assert any(isinstance(m, dict) and m.get("choice") == "add" for m in moons)
